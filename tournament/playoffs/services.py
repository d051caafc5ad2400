"""A division's playoff at the desk and on the public pages: set up from the standings after
a round, its games entered one by one, each write one transaction with the division's stamp
renewed and one logged change. Who meets whom is the engine's (`engine/playoffs.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core import audit
from tournament.core.actor import Actor
from tournament.core.sentences import isolate
from tournament.engine import playoffs as engine
from tournament.models import Change, Division, Player, Playoff, PlayoffGame
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.standings import read_model, stamps

LENGTHS = (1, 3, 5, 7, 9)
MAX_SEEDS = 64


class PlayoffRefused(ValueError):
    """A playoff change that cannot be made; the message is a sentence for the director."""


@dataclass(frozen=True)
class State:
    playoff: Playoff
    players: dict[int, Player]
    stages: list[list[engine.Match]]
    games: dict[tuple[int, int], list[PlayoffGame]]

    @property
    def champion(self) -> Player | None:
        pk = engine.champion(self.stages)
        return self.players[int(str(pk))] if pk is not None else None

    @property
    def is_final(self) -> bool:
        return len(self.playoff.seeds) == 2

    def stage_name(self, stage: int) -> str:
        left = len(self.playoff.seeds)
        size = 1
        while size < left:
            size *= 2
        remaining = size >> (stage - 1)  # players at this stage, byes included
        if remaining == 2:
            return _("Final")
        if remaining == 4:
            return _("Semifinals")
        if remaining == 8:
            return _("Quarterfinals")
        return _("Round of %(count)d") % {"count": remaining}

    def open_matches(self) -> list[engine.Match]:
        return [
            m
            for stage in self.stages
            for m in stage
            if m.series is not None and not m.series.decided
        ]


def state(division: Division, public: bool = False) -> State | None:
    """The division's playoff as it stands, or None when it has none, or (`public`) when the
    director has not published it yet: like a round, a playoff is the desk's until published,
    then its games show as they are entered."""
    playoff = Playoff.objects.filter(division=division).first()  # never a stale cached one
    if playoff is None:
        return None
    if public and not playoff.published:
        return None
    players = {p.pk: p for p in Player.objects.filter(pk__in=playoff.seeds)}
    games: dict[tuple[int, int], list[PlayoffGame]] = {}
    for g in playoff.games.order_by("stage", "slot", "number"):
        games.setdefault((g.stage, g.slot), []).append(g)
    played: dict[tuple[int, int], Sequence[engine.SeriesGame]] = {
        key: [engine.SeriesGame(g.score1, g.score2) for g in value] for key, value in games.items()
    }
    stages = engine.playoff(playoff.seeds, playoff.length, played)
    return State(playoff, players, stages, games)


def set_up(division: Division, seeds: int, length: int, after: int, user: Actor) -> Playoff:
    """A playoff of the top `seeds` players of the standings after round `after` (2: a
    best-of-`length` final), replacing none: a division has one playoff."""
    if length not in LENGTHS:
        raise PlayoffRefused(_("A series is best of 1, 3, 5, 7 or 9 games."))
    if not 2 <= seeds <= MAX_SEEDS:
        raise PlayoffRefused(_("A playoff has 2 to %(most)d players.") % {"most": MAX_SEEDS})
    with transaction.atomic():
        division = pairing.locked_division(division)
        last = read_model.last_result_round(division)
        if not 1 <= after <= last:
            raise PlayoffRefused(
                _("A playoff is seeded from a round with results: rounds 1 to %(last)d.")
                % {"last": last}
                if last
                else _("A playoff is seeded from the standings: no round has results yet.")
            )
        if Playoff.objects.filter(division=division).exists():
            raise PlayoffRefused(
                _("Division %(name)s has a playoff already.") % {"name": isolate(division.name)}
            )
        rows = [
            r
            for r in read_model.division_standings(
                division, after, public=False, stamps=stamps.read(division)
            )
            if r.player.withdrawn_from_round is None
        ]
        if len(rows) < seeds:
            raise PlayoffRefused(
                _("The standings after round %(round)d have only %(count)d players.")
                % {"round": after, "count": len(rows)}
            )
        top = [r.player for r in rows[:seeds]]
        playoff = Playoff.objects.create(
            division=division, length=length, seeds=[p.pk for p in top], seeded_after=after
        )
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.PLAYOFF,
            actor=user,
            after={"seeds": [p.number for p in top], "length": length, "after": after},
            reason=_("Playoff set up: best of %(n)d, %(names)s")
            % {"n": length, "names": ", ".join(isolate(p.name) for p in top)},
        )
    return playoff


def _no_playoff(division: Division) -> PlayoffRefused:
    return PlayoffRefused(_("Division %(name)s has no playoff.") % {"name": isolate(division.name)})


def _playoff_of(division: Division) -> Playoff:
    """The division's playoff, read afresh; refused if it has none."""
    playoff = Playoff.objects.filter(division=division).first()
    if playoff is None:
        raise _no_playoff(division)
    return playoff


def publish(division: Division, user: Actor) -> Playoff:
    """The playoff shown to everyone: its page, its report and the API."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        playoff = _playoff_of(division)
        if playoff.published:
            raise PlayoffRefused(_("The playoff is public already."))
        playoff.published = True
        playoff.save(update_fields=["published"])
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.PLAYOFF,
            actor=user,
            after={"published": True},
            reason=_("Playoff published"),
        )
    return playoff


def enter_game(
    division: Division, stage: int, slot: int, score1: int, score2: int, user: Actor
) -> PlayoffGame:
    """The next game of a match, scores in the order of its seeds (higher seed first)."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        now = state(division)
        if now is None:
            raise _no_playoff(division)
        match = next((m for s in now.stages for m in s if (m.stage, m.slot) == (stage, slot)), None)
        if match is None or match.series is None:
            raise PlayoffRefused(_("That match is not in the playoff (yet)."))
        if match.series.decided:
            raise PlayoffRefused(_("That series is decided: no more games are played."))
        for score in (score1, score2):
            if not results.MIN_SCORE <= score <= results.MAX_SCORE:
                raise PlayoffRefused(
                    _("A score is from %(least)d to %(most)d.")
                    % {"least": results.MIN_SCORE, "most": results.MAX_SCORE}
                )
        number = len(match.series.games) + 1
        p1 = now.players[int(str(match.series.seed1))]
        p2 = now.players[int(str(match.series.seed2))]
        game = PlayoffGame.objects.create(
            playoff=now.playoff,
            stage=stage,
            slot=slot,
            number=number,
            player1=p1,
            player2=p2,
            score1=score1,
            score2=score2,
        )
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.PLAYOFF,
            actor=user,
            after={"stage": stage, "slot": slot, "game": number, "scores": [score1, score2]},
            reason=_("Playoff game %(n)d: %(p1)s %(s1)d, %(p2)s %(s2)d")
            % {
                "n": number,
                "p1": isolate(p1.name),
                "s1": score1,
                "p2": isolate(p2.name),
                "s2": score2,
            },
        )
    return game


def remove_last_game(division: Division, user: Actor) -> None:
    """The last game entered taken back (a wrong entry), logged."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        game = PlayoffGame.objects.filter(playoff__division=division).order_by("-pk").first()
        if game is None:
            raise PlayoffRefused(_("No playoff game has been entered."))
        before = {
            "stage": game.stage,
            "slot": game.slot,
            "game": game.number,
            "scores": [game.score1, game.score2],
        }
        game.delete()
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.PLAYOFF,
            actor=user,
            before=before,
            reason=_("Playoff game %(n)d taken back") % {"n": before["game"]},
        )


def cancel(division: Division, user: Actor) -> None:
    """The playoff removed, while none of its games is entered."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        playoff = _playoff_of(division)
        if playoff.games.exists():
            raise PlayoffRefused(_("Take back its games first: the playoff has results."))
        before = {"seeds": playoff.seeds, "length": playoff.length}
        playoff.delete()
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.PLAYOFF,
            actor=user,
            before=before,
            reason=_("Playoff removed"),
        )
