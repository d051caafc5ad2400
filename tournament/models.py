"""Tournaments, divisions, players, rounds, games, scoresheets and the change log.

Standings are never stored: they are computed from the games by `tournament/engine/standings.py`.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournament.core.sentences import isolate
from tournament.core.sheet_report import SheetReport
from tournament.interchange import names

if TYPE_CHECKING:  # a request's user, as `core/actor.RequestUser` names it (core imports this)
    from django.contrib.auth.models import AnonymousUser, User


class Tournament(models.Model):
    # /desk/new/, /desk/import/, /desk/people/ and /desk/ratings/ are the desk's own pages,
    # not an event's.
    RESERVED_SLUGS = ("new", "import", "people", "ratings")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed", blank=True
    )
    # Scorekeepers enter results and scoresheets; they do not pair, publish or change settings.
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="scorekeeping", blank=True
    )
    public = models.BooleanField(default=True)
    # A locked tournament takes no change at the desk until a director unlocks it (logged).
    locked = models.BooleanField(default=False)
    # config.tsh lines Spread does not use, kept so that exporting gives them back.
    tsh_config = models.TextField(blank=True)
    # The language of its public pages and printed reports for a visitor who chose none with
    # the switcher (blank: the visitor's browser decides); see tournament/core/language.py.
    language = models.CharField(
        _("default language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_(
            "The language of the public pages and reports for visitors who have not chosen one."
        ),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.slug])

    def is_director(self, user: User | AnonymousUser) -> bool:
        return bool(user.is_authenticated and self.directors.filter(pk=user.pk).exists())

    def is_scorekeeper(self, user: User | AnonymousUser) -> bool:
        return bool(user.is_authenticated and self.scorekeepers.filter(pk=user.pk).exists())


def new_stamp() -> str:
    """A value no division's stamp has had before."""
    return uuid.uuid4().hex


class Division(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=50)
    position = models.PositiveIntegerField(default=0)
    ruleset = models.CharField(max_length=100, default="naspa")  # a scoring ruleset name
    tile_set = models.CharField(max_length=100, default="english")
    lexicons = models.TextField(blank=True, help_text=_("Word lists, one KIND:PATH a line."))
    planned_rounds = models.PositiveIntegerField(null=True, blank=True)
    bye_spread = models.IntegerField(default=50)
    forfeit_spread = models.IntegerField(default=50)
    # Per-round caps on the spread of the capped ranking; the last one repeats.
    spread_cap = models.JSONField(null=True, blank=True)
    rating_system = models.CharField(max_length=50, default="nsa2008")
    check_in_open = models.BooleanField(default=False)  # players may check themselves in
    # The next round is paired by the schedule (unpublished) once a round's results are complete.
    auto_pair = models.BooleanField(default=False)
    # Players report their own results from their personal links (`tournament/phone/services.py`).
    self_report = models.BooleanField(default=False)
    # How results are typed at the desk, as tsh's `config entry`: both scores, or the spread only
    # (stored as the spread and 0, the loser's score 0, as tsh stores them).
    ENTRY_MODES = [("scores", _("scores")), ("spread", _("spread only"))]
    entry_mode = models.CharField(max_length=10, choices=ENTRY_MODES, default="scores")
    # The division's table numbers: from `first_table` on, up to `last_table` when set.
    first_table = models.PositiveIntegerField(default=1)
    last_table = models.PositiveIntegerField(null=True, blank=True)
    # What a player marked absent for a round gets instead of a pairing: a forfeit loss, or
    # nothing (the round counts as not played).
    ABSENT_CHOICES = [("forfeit", _("a forfeit loss")), ("nothing", _("nothing"))]
    absent_result = models.CharField(max_length=10, choices=ABSENT_CHOICES, default="forfeit")
    # When a round's byes and forfeits (results without an opponent) count in the standings:
    # once the round's results are complete, as soon as the round is published (at the desk:
    # paired), or once any of its games has a result (`services.byes_count`).
    BYES_COUNT_CHOICES = [
        ("complete", _("when the round's results are complete")),
        ("published", _("as soon as the round is published")),
        ("any", _("once any result of the round is in")),
    ]
    byes_count = models.CharField(max_length=10, choices=BYES_COUNT_CHOICES, default="complete")
    # The hall display shows only this view ("pairings", "standings", "results"); "" rotates.
    display_pin = models.CharField(max_length=20, blank=True)
    # Pairing: which system pairs which round ([{"rounds": "1-3", "system": "fontes"}, …], read
    # by `tournament.engine.pairing.parse_schedule`), how often two players may meet again,
    # Gibsonization, the prize bands contention pairing aims at, and pairs never to be made.
    pairing_schedule = models.JSONField(default=list, blank=True)
    max_repeats = models.PositiveIntegerField(
        default=0, help_text=_("How many times two players may meet again (0: no rematches).")
    )
    gibson = models.BooleanField(default=True)
    gibson_spread = models.JSONField(
        null=True, blank=True, help_text=_("Spread a player may win by per game, as tsh's.")
    )
    prize_bands = models.JSONField(
        null=True, blank=True, help_text=_("The last rank of each prize band, e.g. [1, 2, 3, 6].")
    )
    # The prizes, in order: [{"kind": "rank", "place": 1, "value": "$500", "note": ""}, …]; a
    # class prize has "class": "B" (`engine/prizes.py` awards them).
    prizes = models.JSONField(default=list, blank=True)
    prizes_more_than_one = models.BooleanField(
        default=False, help_text=_("A player may take more than one prize.")
    )
    # Rating classes: [["A", 1800], ["B", 1400], ["C", 0]], a class and its lowest rating; when
    # empty, a player's class is their own `class` field (.t files).
    class_bands = models.JSONField(default=list, blank=True)
    # tsh's `classes DIV N`: N classes by rating order (engine/prizes.classes_by_rating) when
    # there are no rating bands; 0: none.
    rating_classes = models.PositiveSmallIntegerField(default=0)
    # Team standings: "wins" (wins, then spread) or "spread" (spread, then wins).
    team_order = models.CharField(
        max_length=10,
        choices=[("wins", _("wins first")), ("spread", _("spread first"))],
        default="wins",
    )
    AVOID_CHOICES = [("", _("no one")), ("club", _("same club")), ("team", _("same team"))]
    avoid_same = models.CharField(max_length=10, choices=AVOID_CHOICES, blank=True)
    # COP's settings (`engine/pairing/cop_data.py`): Woogles' pair request fields in snake case,
    # each left out taking Woogles' default; a schedule entry's own options come over them.
    cop_settings = models.JSONField(default=dict, blank=True)
    forbidden_pairs = models.JSONField(
        default=list, blank=True, help_text=_("Pairs of player numbers never to be paired.")
    )
    tsh_file = models.CharField(max_length=200, blank=True)  # the .t file it came from
    # The round's clock: the length a director's start offers (`hall/clock.py`).
    clock_minutes = models.PositiveSmallIntegerField(default=25)
    # A division imported from a .tou file: what an export needs to write it back as it came
    # (`results_only`, `high_word`, `compact`) and what the import read past (`notes`).
    tou = models.JSONField(default=dict, blank=True)
    # Replaced in the same transaction as any change to the division, its players, rounds,
    # games or scoresheets (`tournament/standings/stamps.py`): the public pages' cache key.
    stamp = models.CharField(max_length=32, default=new_stamp, editable=False)
    # A round's pairings page and its scoresheets' pages show that round's games alone: they
    # are kept under `frame_stamp`, replaced by every change but a game's result, and the
    # round's own stamp in `round_stamps` ({"7": stamp}), replaced by a change to its games or
    # scoresheets. A result in round 7 leaves round 3's pairings page cached.
    frame_stamp = models.CharField(max_length=32, default=new_stamp, editable=False)
    round_stamps = models.JSONField(default=dict, editable=False)

    class Meta:
        ordering = ["tournament", "position", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_division_name")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.name}"


LATIN_NAME_LENGTH = 200


PERSON_LINKS = [
    ("id", _("by an identifier")),
    ("name", _("by the name")),
    ("new", _("a new person")),
    ("director", _("by a director")),
    ("unsure", _("to be confirmed")),
]


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Player]:
        """Every new player, made one by one or in bulk, gets its automatic Latin name."""
        objs = list(objs)
        for player in objs:
            player.fill_latin_name()
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    # What a write of the field did besides (`core/signals.py`), a sentence each: set by the
    # players' services that return the player, not stored.
    said: list[str]

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField()  # the seed: the player's line in the .t file
    name = models.CharField(max_length=200)  # as entered, e.g. "Smylie, Jackson"
    # The name in Latin letters, for the rating body's files (`interchange/names.py`): written
    # automatically when the player is added, until a director checks or corrects it at the
    # desk (`latin_checked`).
    latin_name = models.CharField(max_length=LATIN_NAME_LENGTH, blank=True)
    latin_checked = models.BooleanField(default=False)
    rating = models.IntegerField(default=0)
    rating_text = models.CharField(max_length=40, blank=True)  # as written in a .t file
    membership_id = models.CharField(max_length=40, blank=True)
    # The player's cross-tables id: a .t line's `xtid` field, or a name ending in `:XT<digits>`
    # as TSH's roster downloads write it (the suffix is taken off the name and written back).
    xtid = models.PositiveIntegerField(null=True, blank=True)
    club = models.CharField(max_length=100, blank=True)
    team = models.CharField(max_length=100, blank=True)
    # The person this player is across events (`people/services.py`), and how the link was
    # made: by an identifier, by the name, as a new person, by a director, or unsure (two or
    # more people fit the name: a director confirms).
    person = models.ForeignKey(
        "Person", on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )
    person_link = models.CharField(max_length=10, choices=PERSON_LINKS, blank=True)
    lifetime_games = models.PositiveIntegerField(null=True, blank=True)
    withdrawn_from_round = models.PositiveIntegerField(null=True, blank=True)
    # The `; key values` fields of the .t line, in their order: [[key, [values…]], …].
    tsh_extras = models.JSONField(default=list, blank=True)
    # WESPA's printed rating for the event, as printed: old, change, new, mark, country.
    wespa = models.JSONField(default=dict, blank=True)
    # Checked in for the event: at the desk's check-in list, or by the player's own link while
    # the division's check-in is open. Round 1 pairs only the players checked in.
    checked_in = models.BooleanField(default=False)
    # How the player checked in: at the desk's list, or by their own link ("" while not in).
    CHECKED_IN_BY = [("desk", _("at the desk")), ("phone", _("by phone"))]
    checked_in_by = models.CharField(max_length=5, choices=CHECKED_IN_BY, blank=True)
    # A table the player always sits at (accessibility): pairings keep it.
    fixed_table = models.PositiveIntegerField(null=True, blank=True)
    # Rounds the player is marked absent for: not paired, and given the division's
    # `absent_result` when the round is paired.
    absent_rounds = models.JSONField(default=list, blank=True)
    updated = models.DateTimeField(auto_now=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        # By the division's key, not "division": that is the division's own ordering, which
        # joins the division and its tournament into every query of players.
        ordering = ["division_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="unique_player_number")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.fill_latin_name()
        super().save(*args, **kwargs)

    def fill_latin_name(self) -> None:
        """The automatic Latin name, for a player who has none yet."""
        if not self.latin_name:
            self.latin_name = names.automatic(self.name)[:LATIN_NAME_LENGTH]

    @property
    def name_in_latin(self) -> str:
        """The name the rating body's files write: the Latin name, or the automatic one."""
        return self.latin_name or names.automatic(self.name)

    @property
    def latin_to_check(self) -> bool:
        """The Latin name is a transliteration no director has checked yet."""
        return not self.latin_checked and names.needs_check(self.name)

    def absent_in(self, round_number: int) -> bool:
        """Whether the player is marked absent for the round (and still takes part in the
        event): the one rule the pairing and the players' pages read."""
        withdrawn = self.withdrawn_from_round
        return round_number in (self.absent_rounds or []) and (
            withdrawn is None or withdrawn > round_number
        )


class Round(models.Model):
    """A round Spread paired: how, and whether players may see it yet.

    A round with games and no `Round` (imported, or entered at the desk) is public; a round
    paired here stays hidden from the public pages until a director publishes it.
    """

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    system = models.CharField(max_length=20, blank=True)
    based_on = models.PositiveIntegerField(null=True, blank=True)
    published = models.BooleanField(default=False)
    paired_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # Locked by a director: the players' own reports of it are refused.
    locked = models.BooleanField(default=False)
    # The pairing engine's notes and warnings when the round was paired or last changed.
    notes = models.JSONField(default=list, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    # Paired by the division itself (`Division.auto_pair`) and not changed by hand since: while
    # unpublished, a change to the results it was paired from pairs it again
    # (`pairing.services.revisit`).
    auto = models.BooleanField(default=False)
    # What the pairing was made from (`pairing.basis.basis`): the results through `based_on` and the
    # field, each as a digest, and the last change of the log then; {} when not known.
    basis = models.JSONField(default=dict, blank=True)
    # The changes to those results since, when the round was left as it was (paired by hand,
    # swapped or published): [{"change": pk, "rounds": [n, …]}, …] (round 0: the field); []
    # while it is up to date.
    stale = models.JSONField(default=list, blank=True)
    # COP's simulation table when COP paired the round (`SimulationTable.as_dict()`), {} otherwise.
    simulation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["division_id", "number"]  # by the key, as a player's (no join)
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.division} round {self.number}"


class GameQuerySet(models.QuerySet):
    def published(self) -> GameQuerySet:
        """What the public may see: every game but those of a round paired here and not yet
        published. The one rule for every public page, download and feed; the desk sees all."""
        hidden = Round.objects.filter(
            division=models.OuterRef("division"), number=models.OuterRef("round"), published=False
        )
        return self.exclude(models.Exists(hidden))


class Game(models.Model):
    """One pairing of a round and its result; a bye or forfeit has no second player."""

    PLAYED = "played"
    BYE = "bye"
    FORFEIT = "forfeit"
    VOID = "void"
    KINDS = [(PLAYED, _("played")), (BYE, _("bye")), (FORFEIT, _("forfeit")), (VOID, _("void"))]

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField(null=True, blank=True)
    player1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="games_as_1")
    player2 = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="games_as_2", null=True, blank=True
    )
    score1 = models.IntegerField(null=True, blank=True)  # a bye's or forfeit's: its spread
    score2 = models.IntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=KINDS, default=PLAYED)
    # Who went first: 1 (player1), 2 (player2) or 0 (not known).
    first = models.PositiveSmallIntegerField(default=0)
    # Time penalties (points, 10 a minute over, rounded up): already taken off score1/score2,
    # which are the scores as they count; kept apart so that they are shown and exported
    # (TSH's `penalty` field) and compared with a scoresheet's `(time)` line.
    penalty1 = models.PositiveSmallIntegerField(default=0)
    penalty2 = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)  # for refusing a stale save
    # A game imported from a .tou file, as each line wrote it: {"1": [code, opponent, first],
    # "2": [...], "scores": [score1, score2]}; written back while the scores are unchanged.
    tou = models.JSONField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    # Set by `from_db` on a game read from the database; absent on one not yet saved.
    loaded_round: int | None
    loaded_players: tuple[int | None, int | None] | None

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Game:
        # The round it was read in: a save that moves a game to another round changes two
        # rounds and the list of rounds, not one round's games (`standings/stamps.py`).
        game = super().from_db(db, field_names, values)
        game.loaded_round = game.__dict__.get("round")
        # Its players as read (None where not read): a save that changes them changes the
        # games of four players (`standings/stamps.py`).
        read = game.__dict__
        game.loaded_players = (
            (read["player1_id"], read["player2_id"])
            if "player1_id" in read and "player2_id" in read
            else None
        )
        return game

    class Meta:
        ordering = ["division_id", "round", "table", "pk"]  # by the key, as a player's
        indexes = [models.Index(fields=["division", "round"])]

    def __str__(self) -> str:
        # The names isolated (plain text: a page's title, a link; `|isolates` makes them <bdi>).
        other = isolate(self.player2.name) if self.player2 else self.kind
        return f"R{self.round}: {isolate(self.player1.name)} v {other}"

    @property
    def has_result(self) -> bool:
        return self.score1 is not None and (self.player2_id is None or self.score2 is not None)


class ScoresheetQuerySet(models.QuerySet):
    def public(self) -> ScoresheetQuerySet:
        """The sheets the public may see: their game's round is published, and the sheet is not
        held (`Scoresheet.held`)."""
        held = (models.Q(flagged=True, resolved=False) | models.Q(verified=False)) & models.Q(
            released=False
        )
        return self.filter(game__in=Game.objects.published()).exclude(held)


class Scoresheet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scoresheets")
    gcg = models.TextField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    # A player who typed or uploaded it from their personal link (`uploaded_by` is then empty).
    sent_by = models.ForeignKey(
        "Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="sheets_sent"
    )
    uploaded = models.DateTimeField(auto_now_add=True)
    verified = models.BooleanField(default=False)
    report = models.JSONField(default=dict)  # the engine's report: players, findings, turns
    # The scoresheet's final scores differ from the entered result, until a director resolves it.
    flagged = models.BooleanField(default=False)
    resolved = models.BooleanField(default=False)
    # Shown to the public although it has error findings: the director published it anyway.
    released = models.BooleanField(default=False)

    objects = ScoresheetQuerySet.as_manager()

    class Meta:
        ordering = ["-uploaded"]

    @property
    def held(self) -> bool:
        """Kept off the public pages: flagged and not resolved, or with error findings (not
        verified), until the director resolves it or publishes it anyway."""
        return not self.released and ((self.flagged and not self.resolved) or not self.verified)

    @property
    def label(self) -> str:
        """The sheet named by what it has: "verified", or its findings ("2 findings")."""
        count = len(self.report.get("findings") or []) if isinstance(self.report, dict) else 0
        findings = ngettext("%(n)d finding", "%(n)d findings", count) % {"n": count}
        if self.verified:
            return (
                gettext("verified")
                if not count
                else gettext("verified, %(findings)s") % {"findings": findings}
            )
        return findings

    def __str__(self) -> str:
        return f"Scoresheet for {self.game}"

    @property
    def engine_report(self) -> SheetReport:
        """`report`, typed: read from the stored JSON each time, so never stale."""
        return SheetReport.from_dict(self.report)


class Playoff(models.Model):
    """A division's playoff after its rounds: a best-of-N final between the top two, or a
    single-elimination bracket of the top seeds, every match a best-of-N series
    (`engine/playoffs.py` works out who meets whom from the seeds and the games)."""

    division = models.OneToOneField(Division, on_delete=models.CASCADE, related_name="playoff")
    length = models.PositiveSmallIntegerField(default=5)  # best of N, N odd
    seeds = models.JSONField(default=list)  # player ids, best first, from the standings
    seeded_after = models.PositiveIntegerField()  # the round of the standings seeded from
    # Like a round: hidden from the public (its page, report and API) until the director
    # publishes it; its games show as they are entered after that.
    published = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.division} playoff"


class PlayoffGame(models.Model):
    """One game of a playoff's match, `player1` the match's higher seed."""

    playoff = models.ForeignKey(Playoff, on_delete=models.CASCADE, related_name="games")
    stage = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()  # the game of the series, from 1
    player1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    score1 = models.IntegerField()
    score2 = models.IntegerField()

    class Meta:
        ordering = ["stage", "slot", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["playoff", "stage", "slot", "number"], name="unique_playoff_game"
            )
        ]


class Change(models.Model):
    """Every creation, correction and deletion of a result or scoresheet, and every change to a
    round or a player; written only by `tournament.audit.record`.

    Who did it is a user (a director) or a player (their own report), never both; neither for
    the command line.
    """

    class Action(models.TextChoices):
        CREATE = "create", _("create")
        CORRECT = "correct", _("correct")
        DELETE = "delete", _("delete")
        UPLOAD = "upload", _("upload")
        RESOLVE = "resolve", _("resolve")
        UNDO = "undo", _("undo")
        PAIR = "pair", _("pair")
        SWAP = "swap", _("swap")
        PUBLISH = "publish", _("publish")
        UNPAIR = "unpair", _("unpair")
        WITHDRAW = "withdraw", _("withdraw")
        REINSTATE = "reinstate", _("reinstate")
        LATE_ENTRY = "late entry", _("late entry")
        CHECK_IN = "check in", _("check in")
        EDIT_PLAYER = "edit player", _("edit player")
        REMOVE_PLAYER = "remove player", _("remove player")
        PEOPLE = "people", _("people")
        LOCK = "lock", _("lock")
        UNLOCK = "unlock", _("unlock")
        ABSENT = "absent", _("absent")
        DIVISION = "division", _("division")
        MOVE_PLAYER = "move player", _("move player")
        RELEASE = "release", _("release")
        PLAYOFF = "playoff", _("playoff")
        CLOCK = "clock", _("clock")
        PHOTO = "photo", _("photo")
        EDIT_EVENT = "edit event", _("edit event")
        DISPUTE = "dispute", _("dispute")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    scoresheet = models.ForeignKey(Scoresheet, on_delete=models.SET_NULL, null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes_made"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # What the write's subscribers did (`core/signals.py`: the later rounds paired again, the
    # players' reports settled), a sentence each: set by the writer that returns it, not stored.
    said: list[str]
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) | models.Q(player__isnull=True),
                name="change_one_actor",
            )
        ]

    @property
    def actor(self) -> Any:
        """The user or the player who made the change; None for the command line."""
        return self.user or self.player

    @property
    def actor_name(self) -> str:
        """Who made the change, as the change log shows it: a username or a player's name."""
        if self.user is not None:
            return self.user.get_username()
        return self.player.name if self.player is not None else ""

    def __str__(self) -> str:
        return f"{self.action} by {self.actor} at {self.at:%Y-%m-%d %H:%M}"


class PlayerLink(models.Model):
    """A player's personal link, `/p/<token>/`: an unguessable token (`secrets.token_urlsafe`),
    never stored as it is (`tournament/core/tokens.py`): looked up by its keyed digest, and kept
    sealed under a key derived from SECRET_KEY so that slips and `playerlinks` can be printed
    again. Revoking sets `revoked`; a new link is a new row. `writes` counts the link's writes
    (reports, check-ins, scoresheets) since `writes_since`, the start of its current minute."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links")
    token_hash = models.CharField(max_length=64, unique=True)
    token_sealed = models.TextField(default="")
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True)
    writes_since = models.DateTimeField(null=True, blank=True)
    writes = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Link of {self.player}"


class Claim(models.Model):
    """A player's own report of a game's result, kept until the result is recorded."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    my_score = models.IntegerField()
    opponent_score = models.IntegerField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "player__number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_claim_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.my_score}-{self.opponent_score}"


DISPUTE_LENGTH = 500  # the characters a player may write of what is wrong with a result


class Dispute(models.Model):
    """A player's word, from their link, that a recorded result of their game is wrong
    (`phone/disputes.py`): on the desk's "Still to settle" until a director answers that it
    stands or corrects the result (which answers every open dispute of the game). One open
    dispute a game and player; `text` is plain text, at most DISPUTE_LENGTH characters."""

    OPEN, STANDS, CORRECTED = "", "stands", "corrected"
    ANSWERS = [(OPEN, _("open")), (STANDS, _("it stands")), (CORRECTED, _("corrected"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="disputes")
    text = models.TextField()
    opened = models.DateTimeField(auto_now_add=True)
    answer = models.CharField(max_length=10, choices=ANSWERS, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(answer=""),
                name="one_open_dispute_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} disputes game {self.game_id}"


class SentOnce(models.Model):
    """A write a player sent from their link with an idempotency key, and what it was answered:
    the phone sends a report, a check-in or a scoresheet again until it hears an answer, and a
    repeat of a key is answered as the first was and writes nothing (`phone/offline.py`).
    Stored in the same transaction as the write itself, so that neither is kept without the
    other, whatever the cache's state; a player's oldest are dropped past a count."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sent_once")
    key = models.CharField(max_length=64)
    answer = models.JSONField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "key"], name="one_answer_per_key")]

    def __str__(self) -> str:
        return f"{self.player}: {self.key}"


class PlayerPhoto(models.Model):
    """A player's photo for the hall's cards and overlays: checked, shrunk to a fixed size and
    stripped of its metadata by Pillow (`hall/photos.py`), kept as a JPEG in the database so
    that a backup carries it; `stamp` changes with it (its address carries it)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="photo")
    data = models.BinaryField()
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    stamp = models.CharField(max_length=32, default=new_stamp)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Photo of {self.player}"


class RoundClock(models.Model):
    """A division's round clock (`hall/clock.py`): running while `ends_at` is set; paused with
    `remaining` seconds left; `length` is the seconds it was started or reset with."""

    division = models.OneToOneField(Division, on_delete=models.CASCADE, related_name="clock")
    round = models.PositiveIntegerField(null=True, blank=True)
    length = models.PositiveIntegerField()
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining = models.PositiveIntegerField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Clock of {self.division}"


class PreparedReport(models.Model):
    """A division's report built apart from the request that asked for it (`reports/prepared.py`):
    one row a report asked for (`slot`: the kind, format, round, paper, language and address),
    holding the file once built, with the stamps it was read under (`built_under`): it is
    served only while they are the division's stamps still. `beat` is renewed every few
    seconds by the process building it; a build whose beat has stopped is taken over."""

    BUILDING = "building"
    READY = "ready"
    FAILED = "failed"

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="prepared")
    slot = models.CharField(max_length=64, unique=True)
    state = models.CharField(max_length=10, default=BUILDING)
    owner = models.CharField(max_length=64, blank=True)  # the build's own token
    beat = models.DateTimeField()
    built_under = models.CharField(max_length=200, blank=True)
    content = models.BinaryField(null=True, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    message = models.TextField(blank=True)  # why it could not be made, for the director
    missing = models.BooleanField(default=False)  # the report cannot be made as asked (404)

    def __str__(self) -> str:
        return f"{self.division}: {self.filename or self.slot} ({self.state})"


class Person(models.Model):
    """One player across tournaments (`people/services.py`): each event's `Player` links to one.
    `key` is the name folded for matching (case, accents, spacing, "Last, First" order)."""

    name = models.CharField(max_length=200)
    latin_name = models.CharField(max_length=LATIN_NAME_LENGTH, blank=True)
    key = models.CharField(max_length=200, db_index=True, blank=True)
    club = models.CharField(max_length=100, blank=True)
    xtid = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    naspa_id = models.CharField(max_length=40, blank=True, db_index=True)
    wespa_id = models.CharField(max_length=40, blank=True, db_index=True)
    association_id = models.CharField(max_length=40, blank=True, db_index=True)
    # Hidden from the public people pages at the person's request; their results stay public
    # in each event.
    hidden = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class PeopleChange(models.Model):
    """A merge or split of people, or a link changed by a director: what it was before and
    after, so that it can be undone (`people/services.py`)."""

    class Action(models.TextChoices):
        MERGE = "merge", _("merge")
        SPLIT = "split", _("split")
        LINK = "link", _("link")
        HIDE = "hide", _("hide")
        UNDO = "undo", _("undo")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reason = models.TextField(blank=True)
    undone = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True)
    # The events whose players or people the change touched: their directors see it in the
    # desk's change log and may undo it.
    events = models.ManyToManyField(Tournament, related_name="people_changes", blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} at {self.at:%Y-%m-%d %H:%M}"


class PersonSuggestion(models.Model):
    """A player who may be a person of events that share no director with the player's: the
    name alone fits, so linking suggests rather than joins (`people/services.py`). The
    directors of the player's event and of the person's events see it at the desk; either
    confirms it (a `PeopleChange`) or dismisses it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="suggestions")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="suggestions")
    reason = models.CharField(max_length=20, default="name")  # what fits: the name
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "person"], name="one_suggestion_a_pair")
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} may be person {self.person_id}"


class RatingList(models.Model):
    """An association's own rating list (`rating_lists/services.py`): the events it rates, in
    date order, under one rating system; its ratings are rebuilt from them, the same every
    time, into `RatingListEntry` rows."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    system = models.CharField(max_length=50, default="nsa2008")
    public = models.BooleanField(default=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="rating_lists", blank=True
    )
    created = models.DateTimeField(auto_now_add=True)
    rebuilt = models.DateTimeField(null=True, blank=True)
    # The rating-list file its starting ratings came from (`RatingListStart`), as named when
    # the list was created; blank: everyone starts new to the list.
    start_from = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return self.name


class RatingListStart(models.Model):
    """A rating a list starts a person from, as a rating-list file gave it when the list was
    created (`rating_lists/services.create_list`, `--start-from`): kept line by line so that
    every rebuild starts from the same ratings; matched to people at each rebuild by the
    membership id, else by the folded name (`Person.key`)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="starts")
    line = models.PositiveIntegerField()  # in the file, for what a director is told
    name = models.CharField(max_length=200)
    key = models.CharField(max_length=200)
    member_id = models.CharField(max_length=40, blank=True)
    rating = models.PositiveIntegerField()
    games = models.PositiveIntegerField(null=True, blank=True)  # career games, if the file says

    class Meta:
        ordering = ["rating_list", "line"]
        indexes = [
            models.Index(fields=["rating_list", "key"]),
            models.Index(fields=["rating_list", "member_id"]),
        ]


class RatingListEvent(models.Model):
    """An event a list rates; `position` breaks ties between events of the same date."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_lists"
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["rating_list", "tournament__start_date", "position", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "tournament"], name="unique_rating_list_event"
            )
        ]


class RatingListEntry(models.Model):
    """A person's rating in a list after one of its events: computed, never edited."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="entries")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="list_entries")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    before = models.IntegerField()
    after = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    wins = models.FloatField(default=0)

    class Meta:
        ordering = ["rating_list", "person", "pk"]
        indexes = [models.Index(fields=["rating_list", "person"])]
