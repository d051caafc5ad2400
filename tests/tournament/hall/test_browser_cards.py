"""The player cards, one card on a phone and the overlays in Chromium, with names in Persian
and Korean; screenshots under /tmp/cards-*.png."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tournament.hall import photos
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.results import services as results

NAMES = [
    "رضا محمدی",
    "김민준",
    "Smylie, Jackson",
    "Vale, Cora",
    "سارا احمدی",
    "이서연",
    "Quill, Ada",
    "Crane, Ben",
    "Moss, Eli",
    "North, Fay",
]


def _png(colour) -> bytes:
    out = io.BytesIO()
    image = Image.new("RGB", (320, 320), colour)
    image.paste((250, 250, 250), (110, 60, 210, 160))
    image.save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def event(transactional_db, django_user_model) -> Division:
    director = django_user_model.objects.create_user("dee")
    t = Tournament.objects.create(name="Hall Open", slug="hall-open")
    t.directors.add(director)
    d = Division.objects.create(tournament=t, name="A", planned_rounds=6, gibson=True)
    ps = [
        Player.objects.create(division=d, number=n, name=name, rating=2000 - 40 * n)
        for n, name in enumerate(NAMES, 1)
    ]
    for i in range(5):
        Game.objects.create(
            division=d, round=1, table=i + 1, player1=ps[2 * i], player2=ps[2 * i + 1], first=1
        )
        results.enter_line(d, 1, f"{2 * i + 1} {420 + 7 * i} {2 * i + 2} {380 + 11 * i}", director)
    Round.objects.create(division=d, number=2, published=True)
    for i in range(5):
        Game.objects.create(
            division=d, round=2, table=i + 1, player1=ps[i], player2=ps[9 - i], first=2
        )
    results.enter_line(d, 2, "1 455 10 401", director)
    photos.save_photo(ps[0], _png((40, 90, 160)), director)
    photos.save_photo(ps[3], _png((160, 60, 40)), director)
    return d


def test_scoreboard_card_and_overlays(event: Division, live_url: str, page) -> None:
    base = f"{live_url}/t/hall-open/A/"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base + "scoreboard/?per=4&seconds=3")
    page.wait_for_selector(".card")
    assert page.locator(".card").count() == 4
    first = page.locator(".card").first
    assert "رضا محمدی" in first.inner_text()
    assert first.locator("img").count() == 1
    assert page.locator("#cards-page").inner_text() == "page 1/3"
    page.screenshot(path="/tmp/cards-scoreboard-1280.png")
    page.locator("#cards-page", has_text="page 2/3").wait_for()  # the next screen, by itself
    page.screenshot(path="/tmp/cards-scoreboard-1280-page2.png")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(base + "scoreboard/")
    page.wait_for_selector(".card")
    assert page.locator(".card").count() == 8
    page.screenshot(path="/tmp/cards-scoreboard-1920.png")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "scoreboard/2/")
    page.wait_for_selector(".card")
    text = page.locator(".card").inner_text()
    assert "김민준" in text and "#" in text
    assert page.locator(".card .initials").inner_text() == "김"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390
    page.screenshot(path="/tmp/cards-card-390.png", full_page=True)

    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(base + "overlay/?player=1&layout=full")
    page.wait_for_selector(".card")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgba(0, 0, 0, 0)"
    page.screenshot(path="/tmp/cards-overlay-player.png", omit_background=True)
    page.goto(base + "overlay/?table=1")
    page.wait_for_selector(".card")
    names = page.locator(".card .name").all_inner_texts()
    assert names == ["North, Fay", "رضا محمدی"]  # the one going first first
    page.screenshot(
        path="/tmp/cards-overlay-table.png",
        omit_background=True,
        clip={"x": 0, "y": 0, "width": 1920, "height": 140},
    )


def test_scoreboard_right_to_left_in_persian(event: Division, live_url: str, page) -> None:
    Tournament.objects.filter(pk=event.tournament_id).update(language="fa")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_url}/t/hall-open/A/scoreboard/?per=4")
    page.wait_for_selector(".card")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    box = page.locator(".card").first.bounding_box()
    photo = page.locator(".card .photo").first.bounding_box()
    assert box is not None and photo is not None
    assert photo["x"] > box["x"] + box["width"] / 2  # the photo at the start: the right
    page.screenshot(path="/tmp/cards-scoreboard-fa.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/t/hall-open/A/scoreboard/1/")
    page.wait_for_selector(".card")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/cards-card-390-fa.png", full_page=True)


def test_desk_photos_page_at_a_phone_and_a_laptop(event: Division, live_url: str, page) -> None:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(event.tournament.directors.get())
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_url}]
    )
    url = f"{live_url}/desk/hall-open/division/{event.pk}/"
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url + "photos/")
        assert page.locator("table.photos img").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=f"/tmp/cards-desk-photos-{width}.png", full_page=True)
    page.goto(url + "players/1/edit/")
    assert page.locator("#player-photo").count() == 1
    page.fill("#id_xtid", "17175")
    page.click("#xtid-form button")
    page.wait_for_selector(".messages")
    assert Player.objects.get(division=event, number=1).xtid == 17175
    page.screenshot(path="/tmp/cards-desk-edit-390.png", full_page=True)
