"""Cross-tables ids: a `.t` name's `:XT<digits>` suffix and `xtid` field read on import, shown
nowhere in the name, written back on export, and given in tourney.js as TSH writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from tournament.exchange import tsh_io
from tournament.interchange import tsh
from tournament.models import Player

CORPUS = (
    Path(__file__).resolve().parents[4]
    / "shared"
    / "corpus"
    / "tsh"
    / "jvc56_tournament_pairing_algorithms"
    / "a.t"
)
SUFFIXED = {1: 17175, 3: 2, 5: 123456}  # player number → the id appended to their name
FIELD = {2: 4242}  # given as an `xtid` field instead


def _fixture(tmp_path: Path) -> tuple[Path, bytes]:
    """The corpus file as TSH writes it, with ids appended to some names and a field on one."""
    if not CORPUS.is_file():
        pytest.skip(f"the shared tsh corpus is not beside the project ({CORPUS} is absent)")
    tfile = tsh.read_t_file(CORPUS)
    for p in tfile.players:
        p.gap = None  # TSH's own layout
        if p.number in SUFFIXED:
            p.name = f"{p.name}:XT{SUFFIXED[p.number]:06d}"
        if p.number in FIELD:
            p.extras.append(tsh.ExtraField("xtid", [str(FIELD[p.number])]))
    data = tsh.write_t(tfile).encode()
    assert data.count(b":XT") == 3 and b"; xtid 4242" in data
    path = tmp_path / "a.t"
    path.write_bytes(data)
    return path, data


def test_split_and_join() -> None:
    assert tsh.split_xtid("Tunnicliffe, Matthew:XT017175") == ("Tunnicliffe, Matthew", 17175)
    assert tsh.split_xtid("Crane, Ben:AA001234") == ("Crane, Ben:AA001234", None)
    assert tsh.with_xtid("Tunnicliffe, Matthew", 17175) == "Tunnicliffe, Matthew:XT017175"
    assert tsh.with_xtid("Quill, Ada", None) == "Quill, Ada"


def test_imported_event_gives_the_ids_and_bare_names(db: None, tmp_path: Path) -> None:
    path, data = _fixture(tmp_path)
    tournament = tsh_io.import_tsh(path, slug="xt-open", name="XT Open")
    division = tournament.divisions.get()
    ids = dict(Player.objects.filter(division=division).values_list("number", "xtid"))
    assert {n: x for n, x in ids.items() if x is not None} == {**SUFFIXED, **FIELD}
    assert not Player.objects.filter(name__contains=":XT").exists()
    body = Client().get("/t/xt-open/tourney.js").content.decode()
    newt = json.loads(body.removeprefix("newt=").rstrip().removesuffix(";"))
    players = newt["divisions"][0]["players"]
    given = {p["id"]: p["etc"]["xtid"] for p in players[1:] if "xtid" in p["etc"]}
    assert given == {n: [x] for n, x in {**SUFFIXED, **FIELD}.items()}
    assert not any(":XT" in p["name"] for p in players[1:])
    standings = Client().get(f"/t/xt-open/{division.name}/").content.decode()
    assert "Smylie, Jackson" in standings and ":XT" not in standings
    # Written back as it was read: the file round-trips byte for byte.
    assert tsh.write_t(tsh_io.division_tfile(division)).encode() == data


def test_an_id_set_at_the_desk_is_exported(db: None, tmp_path: Path, django_user_model) -> None:
    path, _ = _fixture(tmp_path)
    division = tsh_io.import_tsh(path, slug="xt-open", name="XT Open").divisions.get()
    director = django_user_model.objects.create_user("dee")
    division.tournament.directors.add(director)
    c = Client()
    c.force_login(director)
    url = f"/desk/xt-open/division/{division.pk}/players/"
    assert c.post(url + "4/xtid", {"xtid": "9876"}).status_code == 302
    assert c.post(url + "2/xtid", {"xtid": "11"}).status_code == 302
    assert c.post(url + "1/xtid", {"xtid": ""}).status_code == 302
    assert c.post(url + "3/xtid", {"xtid": "-5"}).status_code == 302
    tfile = tsh_io.division_tfile(division)
    assert tfile.player(4).name == "Fagen, Michael:XT009876"
    assert tfile.player(2).extra("xtid") == ["11"]
    assert tfile.player(1).name == "Smylie, Jackson"
    assert tfile.player(3).name.endswith(":XT000002")  # a refused id leaves it as it was
    edit = c.get(url + "4/edit/").content.decode()
    assert 'value="9876"' in edit


def test_tourney_js_gives_a_photo_address(db: None, tmp_path: Path) -> None:
    import io

    from PIL import Image

    from tournament.hall import photos
    from tournament.models import PlayerPhoto

    path, _ = _fixture(tmp_path)
    division = tsh_io.import_tsh(path, slug="xt-open", name="XT Open").divisions.get()
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (1, 2, 3)).save(buffer, "PNG")
    photos.save_photo(division.players.get(number=2), buffer.getvalue(), None)
    stamp = PlayerPhoto.objects.get().stamp
    body = Client().get("/t/xt-open/tourney.js").content.decode()
    newt = json.loads(body.removeprefix("newt=").rstrip().removesuffix(";"))
    players = newt["divisions"][0]["players"]
    address = f"http://testserver/t/xt-open/{division.name}/photo/2/{stamp}.jpg"
    assert [(p["id"], p.get("photo")) for p in players[1:] if "photo" in p] == [(2, address)]
    assert Client().get(address.removeprefix("http://testserver")).status_code == 200
