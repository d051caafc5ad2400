"""One scoresheet a game and player, whatever the race: a phone's sheet sent from two devices of
one link at the same moment is stored once (the second replaces the first, or is the same),
through the phone's page with Django's test client, two threads on two connections."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournament.models import Change, Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.scoresheets import services as scoresheets

HEADER = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n"
RECORDS = (HEADER + ">Ada: DJINNRS 8D DJINN +30 30\n", HEADER + ">Ada: DJINNRS 8D DJINNS +34 34\n")


@pytest.mark.django_db(transaction=True)
def test_a_sheet_sent_from_two_devices_at_once_is_stored_once(
    division: Division, game_of: Callable[..., Game], monkeypatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two connections writing at once need PostgreSQL (SQLite takes turns)")
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    game = game_of(1)
    token = phone.issue_link(division.players.get(number=1))
    url = reverse("phone-sheet", args=[token, game.pk])
    # The engine's check made slow (it runs before the sheet is written): without the game's
    # lock both devices would find no sheet of theirs, and both would store one.
    check = scoresheets._report

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return check(*args, **kwargs)

    monkeypatch.setattr(scoresheets, "_report", slow)
    for trial in range(3):
        Scoresheet.objects.all().delete()
        logged = Change.objects.count()
        start = threading.Barrier(2)
        statuses: list[int] = []

        def send(text: str, start: threading.Barrier = start, statuses: list = statuses) -> None:
            try:
                start.wait()
                statuses.append(Client().post(url, {"gcg": text}).status_code)
            finally:
                connection.close()

        devices = [threading.Thread(target=send, args=(text,)) for text in RECORDS]
        for device in devices:
            device.start()
        for device in devices:
            device.join()
        assert statuses == [302, 302], trial
        sheets = list(Scoresheet.objects.filter(game=game))
        assert len(sheets) == 1, trial
        assert sheets[0].sent_by.number == 1
        assert sheets[0].gcg in RECORDS
        # The first device's sheet logged as an upload, the second's as its correction.
        actions = Change.objects.order_by("pk")[logged:].values_list("action", flat=True)
        assert list(actions) == [Change.Action.UPLOAD, Change.Action.CORRECT], trial
