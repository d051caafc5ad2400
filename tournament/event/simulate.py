"""The event simulator: messy whole events played through the services the desk and the phones
use (never by writing rows), seeded and reproducible, with the consistency check
(`event/checks.py`) after every step and, at the end of each event, the standings compared
with a recomputation from the games in a few lines of plain Python (not the engine's).

What an event may hold, by the seed: one or two divisions, each with a pairing system, an
absent result, a rule for when byes count and whether it pairs by itself; Persian, Korean and
Latin names; no-shows at check-in; late entries, withdrawals, reinstatements and absences;
pairings by the engine and by hand (leaving a player out, a bye, a swap); results from the
desk, from both players' phones agreeing, or disagreeing and settled at the desk; time
penalties; typos corrected after the next round has paired itself; undo; scoresheets; a lock
and an unlock; and a backup restored in the middle, the event going on from the restored copy.

`manage.py simulate --events N --seed S` prints each violation with its seed, event and step,
and closes with "N events, M steps, K violations".
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tournament.core.errors import EntryError
from tournament.core.sentences import MARKS
from tournament.event import checks
from tournament.event import services as event_services
from tournament.exchange import backup
from tournament.models import Division, Game, Player
from tournament.pairing import services as pairing
from tournament.phone import services as phones
from tournament.players import roster
from tournament.players import services as players
from tournament.results import corrections
from tournament.results import services as results
from tournament.scoresheets import services as sheets
from tournament.standings import read_model
from tournament.standings import stamps as division_stamps

# Refusals a service gives a request it will not carry out: an answer, not a fault.
REFUSED: tuple[type[Exception], ...] = (
    pairing.PairingRefused,
    EntryError,
    phones.ReportRefused,
    event_services.PeopleRefused,
    ValueError,
)

FIRST = ["Ada", "Ben", "Cora", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea", "Max"]
LAST = ["Quill", "Crane", "Vale", "Moss", "North", "Stone", "Reed", "Ash", "Hart", "Lowe"]
PERSIAN = ["سارا احمدی", "علی رضایی", "مریم کریمی", "رضا حسینی", "نازنین موسوی"]
KOREAN = ["김민준", "이서연", "박지훈", "최유진", "정하은"]
SYSTEMS = ["swiss", "koth", "factor", "australian"]


@dataclass(frozen=True)
class Violation:
    seed: int
    event: int
    step: int
    action: str
    text: str

    def line(self) -> str:
        text = self.text.translate({ord(m): None for m in MARKS})
        return f"seed {self.seed}, event {self.event}, step {self.step} ({self.action}): {text}"


@dataclass
class Outcome:
    events: int = 0
    steps: int = 0
    violations: list[Violation] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)  # each step's services, timed
    check_seconds: list[float] = field(default_factory=list)  # each consistency check, timed

    def summary(self) -> str:
        return f"{self.events} events, {self.steps} steps, {len(self.violations)} violations"


def game_record(nick1: str, nick2: str) -> str:
    """A whole game the engine verifies (DJINN 30, WITHY 33, six scoreless turns, racks off):
    20 to 24."""
    return (
        f"#player1 {nick1} {nick1}\n#player2 {nick2} {nick2}\n"
        f">{nick1}: DJINNRS 8D DJINN +30 30\n>{nick2}: ABHITWY I7 WITHY +33 33\n"
        + f">{nick1}: AERSTUV - +0 30\n>{nick2}: ABEEOST - +0 33\n" * 3
        + f">{nick1}: (AERSTUV) -10 20\n>{nick2}: (ABEEOST) -9 24\n"
    )


class Event:
    """One simulated event: its random choices, its steps and what they found."""

    def __init__(
        self,
        seed: int,
        index: int,
        outcome: Outcome,
        *,
        players: tuple[int, int] = (6, 14),
        rounds_planned: tuple[int, int] = (3, 6),
        divisions: int | None = None,
        say: Callable[[str], None] | None = None,
        check_each_step: bool = True,
    ) -> None:
        self.seed, self.index, self.outcome = seed, index, outcome
        self.rng = random.Random(f"{seed}:{index}")
        self.sizes, self.lengths = players, rounds_planned
        self.divisions = divisions
        # Off (a benchmark of a large event): the check runs after each round instead.
        self.check_each_step = check_each_step
        self.say = say or (lambda _text: None)
        self.step_number = 0
        self.typos: list[tuple[int, int, str]] = []  # (division pk, round, the right line)
        self.restored = False
        self.user, _ = User.objects.get_or_create(username=f"sim-director-{seed}-{index}")

    # -- steps ---------------------------------------------------------------------------------

    def step(self, action: str, do: Callable[[], Any]) -> Any:
        """One step through the services; a refusal is an answer, anything else raised is a
        violation; then the consistency check, each finding a violation of this step."""
        self.step_number += 1
        self.outcome.steps += 1
        done = None
        started = time.perf_counter()
        try:
            done = do()
        except REFUSED:
            pass
        except Exception as error:  # noqa: BLE001 - any other exception is what we look for
            self.violate(action, f"raised {type(error).__name__}: {error}")
        self.outcome.step_seconds.append(time.perf_counter() - started)
        if self.check_each_step:
            self.check(action)
        return done

    def check(self, action: str) -> None:
        started = time.perf_counter()
        for finding in checks.check_event(self.tournament):
            self.violate(action, finding.line())
        self.outcome.check_seconds.append(time.perf_counter() - started)

    def violate(self, action: str, text: str) -> None:
        found = Violation(self.seed, self.index, self.step_number, action, text)
        self.outcome.violations.append(found)
        self.say(found.line())

    # -- the event -----------------------------------------------------------------------------

    def run(self) -> None:
        rng = self.rng
        count = self.divisions or rng.choice([1, 1, 2])
        planned = rng.randint(*self.lengths)
        new = [
            event_services.NewDivision(
                name=name,
                planned_rounds=planned,
                bye_spread=rng.choice([50, 75]),
                auto_pair=rng.random() < 0.6,
            )
            for name in "AB"[:count]
        ]
        self.tournament = event_services.create_tournament(
            self.user, f"Simulated {self.seed}-{self.index}", new
        )
        for division in self.divisions_now():
            self.configure(division)
            self.step("add players", functools.partial(self.add_players, division))
        self.step("check in", self.check_in)
        for number in range(1, planned + 1):
            for division in self.divisions_now():
                self.play_round(division, number)
            if not self.check_each_step:
                self.check(f"round {number}")
            if not self.restored and number >= (planned + 1) // 2:
                self.step("backup and restore", self.backup_and_restore)
        for division in self.divisions_now():
            self.finish(division)
        self.compare()
        self.outcome.events += 1

    def divisions_now(self) -> list[Division]:
        return list(self.tournament.divisions.order_by("name"))

    def configure(self, division: Division) -> None:
        rng = self.rng
        division.absent_result = rng.choice(["forfeit", "forfeit", "nothing"])
        division.byes_count = rng.choice(["complete", "published", "any"])
        division.forfeit_spread = rng.choice([50, 100])
        system = rng.choice(SYSTEMS)
        division.pairing_schedule = [{"rounds": "1-", "system": system}]
        division.save()

    def add_players(self, division: Division) -> None:
        rng = self.rng
        size = rng.randint(*self.sizes)
        names: list[str] = []
        while len(names) < size:
            pick = rng.random()
            if pick < 0.15:
                name = rng.choice(PERSIAN)
            elif pick < 0.3:
                name = rng.choice(KOREAN)
            else:
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            # A large field outgrows the names: a middle initial tells two namesakes apart.
            first, _, rest = name.partition(" ")
            initial = 0
            while name in names:
                name = f"{first} {chr(ord('A') + initial % 26)}{initial // 26 or ''}. {rest}"
                initial += 1
            names.append(name)
        text = "".join(f"{n}, {rng.randint(800, 2100)}\n" for n in names)
        roster.add_players(division, text, self.user)

    def check_in(self) -> None:
        for division in self.divisions_now():
            for player in division.players.all():
                if self.rng.random() < 0.85:  # the rest are no-shows at check-in
                    roster.set_checked_in(player, True, self.user)

    def field_of(self, division: Division, number: int) -> list[Player]:
        return [
            p
            for p in division.players.order_by("number")
            if p.withdrawn_from_round is None or p.withdrawn_from_round > number
        ]

    def play_round(self, division: Division, number: int) -> None:
        rng = self.rng
        division.refresh_from_db()
        if rng.random() < 0.15:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}-{number}"
            given = rng.choice([None, None, "forfeits", "byes", "nothing"])
            self.step(
                "late entry",
                lambda: self.keeping(
                    division,
                    lambda: players.late_entry(
                        division, players.NewPlayer(name=name), self.user, given
                    ),
                ),
            )
        field_now = self.field_of(division, number)
        if rng.random() < 0.1 and len(field_now) > 4:
            gone = rng.choice(field_now)
            self.step(
                "withdraw",
                lambda: self.keeping(division, lambda: players.withdraw(gone, number, self.user)),
            )
        withdrawn = [p for p in division.players.all() if p.withdrawn_from_round is not None]
        if withdrawn and rng.random() < 0.3:
            back = rng.choice(withdrawn)
            self.step(
                "reinstate",
                lambda: self.keeping(division, lambda: players.reinstate(back, self.user)),
            )
        if rng.random() < 0.2:
            away = rng.choice(self.field_of(division, number))
            self.step(
                "absent",
                lambda: self.keeping(
                    division, lambda: players.set_absent(away, number, True, self.user)
                ),
            )
        if not division.games.filter(round=number).exists():
            if rng.random() < 0.25:
                self.step("pair by hand", lambda: self.pair_by_hand(division, number))
            else:
                self.step("pair", lambda: pairing.pair(division, number, self.user))
        if not division.games.filter(round=number).exists():
            return  # refused: the round cannot be paired (a finding names what is missing)
        games = division.games.filter(round=number, kind=Game.PLAYED, score1=None)
        if rng.random() < 0.15 and games.count() >= 2:
            a, b = rng.sample(list(games), 2)
            self.step(
                "swap", lambda: pairing.swap(division, number, a.player1, b.player2, self.user)
            )
        state = division.rounds.filter(number=number).first()
        if state is not None and not state.published:
            stale_ok = rng.random() < 0.5
            self.step(
                "publish", lambda: pairing.publish(division, number, self.user, stale_ok=stale_ok)
            )
            if not division.rounds.get(number=number).published:
                self.step("pair again", lambda: pairing.pair(division, number, self.user))
                self.step(
                    "publish", lambda: pairing.publish(division, number, self.user, stale_ok=True)
                )
        if rng.random() < 0.1:
            self.step("lock", lambda: self.lock_and_report(division, number))
        for game in list(
            division.games.filter(round=number, kind=Game.PLAYED, score1=None)
            .exclude(player2=None)
            .select_related("player1", "player2")
        ):
            self.result(division, game)
        if rng.random() < 0.15:
            self.step(
                "undo",
                lambda: self.keeping(division, lambda: corrections.undo_last(division, self.user)),
            )
        for pk, typo_round, line in [t for t in self.typos if t[0] == division.pk]:
            self.typos.remove((pk, typo_round, line))
            self.step("correct a typo", functools.partial(self.correct, division, typo_round, line))
        self.fill(division, number)

    def keeping(self, division: Division, write: Callable[[], Any]) -> Any:
        """A write of results or of the field, as the desk makes it: what it does to later
        rounds comes with it (`core/signals.py`)."""
        return write()

    def pair_by_hand(self, division: Division, number: int) -> None:
        rng = self.rng
        field_now = [p for p in self.field_of(division, number) if not p.absent_in(number)]
        rng.shuffle(field_now)
        if rng.random() < 0.3 and len(field_now) > 3:
            field_now.pop()  # left out: the division's missed-round result
        pairs: list[tuple[int, int | None]] = []
        while len(field_now) >= 2:
            one, two = field_now.pop(), field_now.pop()
            pairs.append((one.number, two.number))
        if field_now:
            pairs.append((field_now.pop().number, None))
        pairing.save_manual(division, number, pairs, self.user)

    def lock_and_report(self, division: Division, number: int) -> None:
        """Lock the event: a player's report is refused; unlock it again."""
        event_services.set_lock(self.tournament, True, self.user)
        game = division.games.filter(round=number, kind=Game.PLAYED, score1=None).first()
        if game is not None and game.player2 is not None:
            try:
                phones.report(game.player1, game, 400, 300)
            except phones.ReportRefused:
                pass
            else:
                self.violate("lock", f"a report of {game} was taken while the event was locked")
        event_services.set_lock(self.tournament, False, self.user)

    def scores(self) -> tuple[int, int]:
        return self.rng.randint(250, 560), self.rng.randint(250, 560)

    def result(self, division: Division, game: Game) -> None:
        rng = self.rng
        one, two = game.player1, game.player2
        assert two is not None
        s1, s2 = self.scores()
        path = rng.random()
        if path < 0.1:
            # The scoresheet of a whole game, and its result as the desk enters it.
            line = f"{one.number} 20 {two.number} 24"
            self.step(
                "desk",
                lambda: self.keeping(
                    division, lambda: results.enter_line(division, game.round, line, self.user)
                ),
            )
            nicks = (
                "".join(c for c in one.name if c.isalnum())[:8] or "One",
                "".join(c for c in two.name if c.isalnum())[:8] or "Two",
            )
            if nicks[0] == nicks[1]:
                nicks = (nicks[0] + "A", nicks[1] + "B")
            record = game_record(*nicks)
            self.step(
                "scoresheet",
                lambda: sheets.attach_scoresheet(Game.objects.get(pk=game.pk), record, self.user),
            )
        elif path < 0.45:
            line = f"{one.number} {s1} {two.number} {s2}"
            if rng.random() < 0.1:
                line += f" ot {one.number} {rng.randint(1, 3)}"
            if rng.random() < 0.12:
                typo = f"{one.number} {s1 + 100} {two.number} {s2}"
                self.typos.append((division.pk, game.round, line))
                line = typo
            self.step(
                "desk",
                lambda: self.keeping(
                    division, lambda: results.enter_line(division, game.round, line, self.user)
                ),
            )
        elif path < 0.85:
            self.step("phone", lambda: phones.report(one, game, s1, s2))
            self.step("phone", lambda: phones.report(two, game, s2, s1))
        else:
            self.step("phone", lambda: phones.report(one, game, s1, s2))
            self.step("phone", lambda: phones.report(two, game, s2 + 10, s1))
            line = f"{one.number} {s1} {two.number} {s2}"
            self.step(
                "desk settles",
                lambda: self.keeping(
                    division, lambda: results.enter_line(division, game.round, line, self.user)
                ),
            )

    def correct(self, division: Division, number: int, line: str) -> None:
        words = line.split()
        one = int(words[0])
        game = (
            division.games.filter(round=number, player1__number=one).first()
            or division.games.filter(round=number, player2__number=one).first()
        )
        if game is None:
            return
        self.keeping(
            division,
            lambda: results.enter_line(
                division, number, line, self.user, version=game.version, reason="typo"
            ),
        )

    def enter(self, division: Division, number: int, line: str) -> None:
        """A line typed at the desk's entry page."""
        self.keeping(division, lambda: results.enter_line(division, number, line, self.user))

    def fill(self, division: Division, number: int) -> None:
        """Whatever the round still lacks, entered at the desk: the round ends complete."""
        for game in list(
            division.games.filter(round=number, kind=Game.PLAYED, score1=None)
            .exclude(player2=None)
            .select_related("player1", "player2")
        ):
            s1, s2 = self.scores()
            line = f"{game.player1.number} {s1} {game.player2.number} {s2}"
            self.step("desk fills", functools.partial(self.enter, division, number, line))
        state = division.rounds.filter(number=number).first()
        if state is not None and not state.published:
            self.step(
                "publish", lambda: pairing.publish(division, number, self.user, stale_ok=True)
            )

    def backup_and_restore(self) -> None:
        """A backup restored as a new event, which the event goes on from."""
        data = backup.write(self.tournament)
        with transaction.atomic():
            restored = backup.restore(data, slug=f"{self.tournament.slug}-r")
        self.tournament = restored.tournament
        self.restored = True
        self.typos = []  # the typos' divisions are the old event's

    def finish(self, division: Division) -> None:
        for number in sorted(set(division.games.values_list("round", flat=True))):
            self.fill(division, number)

    # -- the standings recomputed in plain Python -----------------------------------------------

    def compare(self) -> None:
        for division in self.divisions_now():
            if division.games.filter(score1=None).exclude(kind=Game.VOID).exists():
                continue  # not complete: the standings count rounds as `byes_count` says
            expected = recount(division)
            got = {
                r.player.pk: (r.rank, r.wins, r.losses, r.spread)
                for r in read_model.division_standings(
                    division, public=False, stamps=division_stamps.read(division)
                )
            }
            for pk, want in sorted(expected.items()):
                if got.get(pk) != want:
                    name = Player.objects.get(pk=pk).name
                    self.violate(
                        "standings",
                        f"division {division.name}: {name} stands {got.get(pk)} in Spread's "
                        f"standings, {want} recounted from the games",
                    )


def recount(division: Division) -> dict[int, tuple[int | None, float, float, int]]:
    """Each player's rank, wins, losses and spread from the games alone: a game's spread, a win
    for the higher score (half each for a tie), a bye or forfeit won or lost by its sign; then
    wins, losses, spread, rating and number, unranked those withdrawn by the last round played (a
    withdrawal from a round not yet paired leaves the player ranked until it is)."""
    people = list(division.players.all())
    last = max(division.games.values_list("round", flat=True), default=0)

    def withdrawn(p: Player) -> bool:
        return p.withdrawn_from_round is not None and p.withdrawn_from_round <= last

    wins = {p.pk: 0.0 for p in people}
    losses = {p.pk: 0.0 for p in people}
    spreads = {p.pk: 0 for p in people}
    for g in division.games.exclude(kind=Game.VOID).exclude(score1=None):
        sides = [(g.player1_id, g.score1 or 0, g.score2 or 0)]
        if g.player2_id is not None:
            sides.append((g.player2_id, g.score2 or 0, g.score1 or 0))
        for pk, mine, theirs in sides:
            spread = mine - theirs
            spreads[pk] += spread
            if spread > 0:
                wins[pk] += 1
            elif spread < 0:
                losses[pk] += 1
            elif g.player2_id is not None:
                wins[pk] += 0.5
                losses[pk] += 0.5
    ranked = sorted(
        (p for p in people if not withdrawn(p)),
        key=lambda p: (-wins[p.pk], losses[p.pk], -spreads[p.pk], -p.rating, p.number),
    )
    out: dict[int, tuple[int | None, float, float, int]] = {}
    previous: tuple[float, float, int] | None = None
    rank = 0
    for place, p in enumerate(ranked, 1):
        key = (wins[p.pk], losses[p.pk], spreads[p.pk])
        if key != previous:
            rank, previous = place, key
        out[p.pk] = (rank, *key)
    for p in people:
        if withdrawn(p):
            out[p.pk] = (None, wins[p.pk], losses[p.pk], spreads[p.pk])
    return out


def simulate(
    events_count: int,
    seed: int,
    *,
    say: Callable[[str], None] | None = None,
    **sizes: Any,
) -> Outcome:
    """`events_count` events from `seed`, each through `Event`; what they found."""
    outcome = Outcome()
    for index in range(events_count):
        Event(seed, index, outcome, say=say, **sizes).run()
    return outcome
