"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.tiles import builtin_tilesets
from tournament.core.choices import rating_system_choices, ruleset_choices
from tournament.engine.pairing import parse_schedule
from tournament.engine.pairing.registry import automatic
from tournament.exchange import tsh_io
from tournament.models import Division, Game
from tournament.pairing.systems import description
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


class EntryForm(forms.Form):
    line = forms.CharField(
        label=_("Result"),
        max_length=100,
        widget=forms.TextInput(
            # The line is typed as numbers and words in a fixed order: left to right everywhere.
            attrs={"autocomplete": "off", "autofocus": True, "spellcheck": "false", "dir": "ltr"}
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)
    # Unticked, the pairing's first player stays first whoever is typed first.
    first_as_typed = forms.BooleanField(required=False, label=_("first as typed"))
    # The game's version the check showed: a save against an older one is refused.
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)


def _score_field(label: str, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=required, min_value=results.MIN_SCORE, max_value=results.MAX_SCORE
    )


class GameResultForm(forms.Form):
    """A game's result, from its own page; fields follow the game (played, or bye/forfeit)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        required=False,
        help_text=_("Needed to change or remove a result."),
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "version": game.version,
                "score1": game.score1,
                "score2": game.score2,
                "first": game.first,
                "kind": game.kind,
            },
        )
        super().__init__(*args, **kwargs)
        self.game = game
        if game.player2_id is None:
            self.fields["kind"] = forms.ChoiceField(
                label=_("Kind"), choices=[(Game.BYE, _("bye")), (Game.FORFEIT, _("forfeit"))]
            )
            self.fields["score1"] = _score_field(
                gettext("Spread for %(name)s") % {"name": game.player1.name}
            )
        else:
            self.fields["score1"] = _score_field(f"{game.player1.number} {game.player1.name}")
            self.fields["score2"] = _score_field(f"{game.player2.number} {game.player2.name}")
            self.fields["first"] = forms.TypedChoiceField(
                label=_("Went first"),
                coerce=int,
                choices=[(0, _("not known")), (1, game.player1.name), (2, game.player2.name)],
            )
        self.order_fields(["kind", "score1", "score2", "first", "reason", "version"])


class ScoresheetTextForm(forms.Form):
    gcg = forms.CharField(
        label=_("Scoresheet"),
        max_length=scoresheets.MAX_SCORESHEET_BYTES,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 24, "spellcheck": "false", "autocomplete": "off", "dir": "ltr"}
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class AssignForm(forms.Form):
    """How many records the upload page sends back with the game chosen for each."""

    MAX_FILES = 200
    count = forms.IntegerField(
        min_value=0,
        max_value=MAX_FILES,
        error_messages={
            "max_value": _("At most %(limit_value)s scoresheets can be assigned at once.")
        },
    )


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def __init__(self, **kwargs: Any) -> None:
        # An empty file is a malformed scoresheet: saved with the engine's finding, not refused.
        super().__init__(allow_empty_file=True, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = [f for f in (data if isinstance(data, list | tuple) else [data]) if f]
        if not files and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class UploadForm(forms.Form):
    files = MultipleFileField(label=_("GCG files"))
    round = forms.IntegerField(
        label=_("Round"),
        required=False,
        min_value=1,
        help_text=_("Only look for games of this round."),
    )


class SingleUploadForm(forms.Form):
    file = forms.FileField(label=_("GCG file"), allow_empty_file=True)


class ResolveForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


# -- pairing ------------------------------------------------------------------------------------


class PairForm(forms.Form):
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=10_000)
    system = forms.ChoiceField(
        label=_("System"), required=False, help_text=_("Empty: the division's schedule.")
    )
    based_on = forms.IntegerField(
        label=_("from round"),
        required=False,
        min_value=0,
        help_text=_("Pair from the results up to this round."),
    )
    repeats = forms.IntegerField(
        label=_("repeats"),
        required=False,
        min_value=0,
        help_text=_("Empty: the division's repeat limit."),
    )
    # Ticked: the director answered yes to pairing a round past the division's planned rounds.
    past_plan = forms.BooleanField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", gettext("as scheduled"))]
        choices += [(name, f"{name}: {description(name)}") for name in automatic()]
        self.fields["system"].choices = choices


class SwapForm(forms.Form):
    a = forms.IntegerField(min_value=1, label=_("Player"))
    b = forms.IntegerField(min_value=1, label=_("with player"))


class ManualPairingsForm(forms.Form):
    pairs = forms.CharField(
        label=_("Pairings"),
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "dir": "ltr"}),
        help_text=_("One table a line, first player first: “12 7”; a bye: “5 bye”."),
    )
    past_plan = forms.BooleanField(required=False)  # as PairForm's

    def clean_pairs(self) -> list[tuple[int, int | None]]:
        found: list[tuple[int, int | None]] = []
        for number, line in enumerate(self.cleaned_data["pairs"].splitlines(), 1):
            words = line.replace(",", " ").replace("-", " ").split()
            if not words:
                continue
            numbers = [results.plain_number(w) for w in words]
            if len(words) == 2 and words[1].lower() in results.BYE_WORDS and numbers[0]:
                found.append((numbers[0], None))
            elif len(words) == 2 and all(numbers):
                found.append((numbers[0], numbers[1]))
            else:
                raise forms.ValidationError(
                    gettext("Line %(number)s: “%(line)s” is not two player numbers or “N bye”.")
                    % {"number": number, "line": line.strip()}
                )
        if not found:
            raise forms.ValidationError(gettext("No pairings given."))
        return found


class WithdrawForm(forms.Form):
    player = forms.IntegerField(label=_("Player"), min_value=1)
    from_round = forms.IntegerField(min_value=1, label=_("from round"))


class RosterForm(forms.Form):
    file = forms.FileField(
        label=_("Roster"),
        help_text=_(
            "An .xlsx or .csv file with a header row: name (or last name and first name), and "
            "any of number, rating, club, team, id; or a TSH .t file (its players only, not its "
            "results)."
        ),
    )


def name_style_help(last_first: bool | None) -> str:
    """What happens to a name added to a division, by the division's style of names."""
    if last_first:
        return gettext(
            "The division writes names “Last, First”: every name added is written so "
            "(“Ada Quill” becomes “Quill, Ada”)."
        )
    if last_first is False:
        return gettext(
            "The division writes names “First Last”: every name added is written so "
            "(“Quill, Ada” becomes “Ada Quill”)."
        )
    return gettext(
        "The first players added set the division's style of names: if most are written "
        "“Last, First”, every name is written so (“Ada Quill” becomes “Quill, Ada”); else "
        "“First Last”."
    )


class LateEntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=3000, initial=0)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    team = forms.CharField(label=_("Team"), max_length=100, required=False)
    membership_id = forms.CharField(label=_("Membership id"), max_length=40, required=False)
    missed = forms.ChoiceField(
        label=_("For the rounds already under way"),
        choices=[
            ("forfeits", _("forfeit losses")),
            ("byes", _("byes")),
            ("nothing", _("nothing")),
        ],
        initial="forfeits",
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, last_first: bool | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The name is saved as the division writes its names (`players.late_entry`).
        self.fields["name"].help_text = name_style_help(last_first)

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def clean_missed(self) -> str:
        return self.cleaned_data.get("missed") or "forfeits"


def _numbers(text: str, what: str) -> list[int]:
    numbers = [results.plain_number(w) for w in text.replace(",", " ").split()]
    if any(n is None for n in numbers):
        raise forms.ValidationError(
            gettext("%(what)s: whole numbers separated by commas or spaces.") % {"what": what}
        )
    return [n for n in numbers if n is not None]


def schedule_text(schedule: list[dict[str, Any]]) -> str:
    """A pairing schedule as the settings form shows it: `1-4 swiss`, `5-6 koth repeats=1`."""
    lines = []
    for entry in schedule or []:
        extra = [f"{k}={v}" for k, v in entry.items() if k not in ("rounds", "system", "options")]
        extra += [f"{k}={v}" for k, v in (entry.get("options") or {}).items()]
        lines.append(" ".join([str(entry["rounds"]), str(entry["system"]), *extra]))
    return "\n".join(lines)


def _value(text: str) -> Any:
    number = results.plain_number(text, signed=True)
    if number is not None:
        return number
    return {"true": True, "false": False}.get(text.lower(), text)


class DivisionSettingsForm(forms.ModelForm):
    """A division's pairing and rating settings, edited at the desk."""

    schedule = forms.CharField(
        label=_("Schedule"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false", "dir": "ltr"}),
        help_text=_("One line a block of rounds: “1-4 swiss”, “5-6 koth repeats=1”, “7- cp”."),
    )
    gibson_spread_text = forms.CharField(
        required=False,
        label=_("Gibson spread"),
        help_text=_(
            "Spread a game may swing per player, e.g. “500”; a list counts from the last "
            "round. Empty: 500."
        ),
    )
    prize_bands_text = forms.CharField(
        required=False,
        label=_("Prize bands"),
        help_text=_("The last rank of each band, e.g. “1, 2, 3, 6”. Empty: the top quarter."),
    )
    forbidden = forms.CharField(
        label=_("Forbidden pairs"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "dir": "ltr"}),
        help_text=_("Pairs of player numbers never to be paired, one pair a line: “3 7”."),
    )

    class Meta:
        model = Division
        fields = [
            "planned_rounds",
            "max_repeats",
            "gibson",
            "avoid_same",
            "bye_spread",
            "forfeit_spread",
            "rating_system",
            "auto_pair",
            "entry_mode",
            "absent_result",
            "byes_count",
            "first_table",
            "last_table",
        ]
        labels = {
            "planned_rounds": _("Planned rounds"),
            "max_repeats": _("Repeat limit"),
            "gibson": _("Gibsonization"),
            "avoid_same": _("Avoid pairing"),
            "bye_spread": _("Bye spread"),
            "forfeit_spread": _("Forfeit spread"),
            "rating_system": _("Rating system"),
            "auto_pair": _("Pair the next round by itself"),
            "entry_mode": _("Results are entered as"),
            "absent_result": _("A player marked absent for a round gets"),
            "byes_count": _("Byes and forfeits count in the standings"),
            "first_table": _("First table"),
            "last_table": _("Last table"),
        }
        help_texts = {
            "entry_mode": _(
                "Spread only (TSH's config entry): “12 +55 7” records 12 beating 7 by 55, "
                "stored as 55–0."
            ),
            "byes_count": _(
                "A round's byes, and the forfeit losses of players left out as absent, are "
                "scored when it is paired; this says when the standings count them. The "
                "standings' heading says which."
            ),
            "first_table": _("The division's tables are numbered from here (e.g. 11 for 11–20)."),
            "last_table": _("Empty: no limit. The pairings page warns of tables past it."),
            "auto_pair": _(
                "When a round's results are complete, the next round is paired by the "
                "schedule and left unpublished for you to check."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        division = self.instance
        self.fields["schedule"].initial = schedule_text(division.pairing_schedule)
        spread = division.gibson_spread
        self.fields["gibson_spread_text"].initial = (
            ", ".join(map(str, spread)) if isinstance(spread, list) else spread or ""
        )
        self.fields["prize_bands_text"].initial = ", ".join(map(str, division.prize_bands or []))
        self.fields["forbidden"].initial = "\n".join(
            " ".join(map(str, pair)) for pair in division.forbidden_pairs or []
        )
        self.fields["rating_system"] = forms.ChoiceField(
            label=_("Rating system"), choices=rating_system_choices(), widget=forms.RadioSelect
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, last = data.get("first_table"), data.get("last_table")
        if first is not None and last is not None and last < first:
            raise forms.ValidationError(_("The last table comes after the first."))
        return data

    def clean_schedule(self) -> list[dict[str, Any]]:
        entries = []
        for number, line in enumerate(self.cleaned_data["schedule"].splitlines(), 1):
            words = line.split()
            if not words:
                continue
            if len(words) < 2:
                raise forms.ValidationError(
                    gettext("Line %(number)s: rounds and a system, e.g. “1-4 swiss”.")
                    % {"number": number}
                )
            entry: dict[str, Any] = {"rounds": words[0], "system": words[1]}
            options: dict[str, Any] = {}
            for word in words[2:]:
                key, equals, value = word.partition("=")
                if not equals:
                    raise forms.ValidationError(
                        gettext("Line %(number)s: “%(word)s” is not key=value.")
                        % {"number": number, "word": word}
                    )
                if key in ("repeats", "lag", "based_on"):
                    entry[key] = _value(value)
                else:
                    options[key] = _value(value)
            if options:
                entry["options"] = options
            entries.append(entry)
        try:
            parse_schedule(entries)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error
        return entries

    def clean_gibson_spread_text(self) -> int | list[int] | None:
        spreads = _numbers(self.cleaned_data["gibson_spread_text"], gettext("Gibson spread"))
        if not spreads:
            return None
        return spreads[0] if len(spreads) == 1 else spreads

    def clean_prize_bands_text(self) -> list[int] | None:
        bands = _numbers(self.cleaned_data["prize_bands_text"], gettext("Prize bands"))
        if bands and (bands != sorted(set(bands)) or bands[0] < 1):
            raise forms.ValidationError(gettext("Prize bands: rising ranks, from 1."))
        return bands or None

    def clean_forbidden(self) -> list[list[int]]:
        numbers = set(self.instance.players.values_list("number", flat=True))
        pairs = []
        for number, line in enumerate(self.cleaned_data["forbidden"].splitlines(), 1):
            pair = _numbers(line, gettext("Line %(number)s") % {"number": number})
            if not pair:
                continue
            if len(pair) != 2 or pair[0] == pair[1]:
                raise forms.ValidationError(
                    gettext("Line %(number)s: two different player numbers.") % {"number": number}
                )
            missing = [n for n in pair if n not in numbers]
            if missing:
                raise forms.ValidationError(
                    gettext("Line %(number)s: no player %(player)s.")
                    % {"number": number, "player": missing[0]}
                )
            pairs.append(pair)
        return pairs

    def save(self, commit: bool = True) -> Division:
        division = super().save(commit=False)
        division.pairing_schedule = self.cleaned_data["schedule"]
        division.gibson_spread = self.cleaned_data["gibson_spread_text"]
        division.prize_bands = self.cleaned_data["prize_bands_text"]
        division.forbidden_pairs = self.cleaned_data["forbidden"]
        if commit:
            division.save()
        return division


def form_error(form: forms.BaseForm) -> str:
    """A form's errors in one line, each after its field's name, for a message or a JSON reply."""
    return " ".join(
        f"{'' if name == '__all__' else name + ': '}{' '.join(errors)}"
        for name, errors in form.errors.items()
    )


# -- a tournament's life: creation, people, players pasted in ------------------------------------


class NewTournamentForm(forms.Form):
    """A new tournament: a name alone is enough; divisions and players can come later."""

    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(
        label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(max_length=200, required=False, label=_("Place"))
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Its pages are listed and open to everyone."),
    )
    language = forms.ChoiceField(
        label=_("Default language"),
        required=False,
        choices=[("", _("the visitor's browser"))] + list(settings.LANGUAGES),
        help_text=_(
            "The language of the public pages and reports for visitors who have not chosen one."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            raise forms.ValidationError(gettext("The last day comes before the first."))
        return data


class TournamentLanguageForm(forms.Form):
    """A tournament's default language, set on its desk."""

    language = forms.ChoiceField(
        label=_("Default language"),
        required=False,
        choices=[("", _("the visitor's browser"))] + list(settings.LANGUAGES),
        help_text=_(
            "The language of the public pages and reports for visitors who have not chosen one."
        ),
    )


class NewDivisionForm(forms.Form):
    """One division of a new tournament; a row left without a name is no division."""

    name = forms.CharField(label=_("Name"), max_length=50, required=False)
    planned_rounds = forms.IntegerField(
        min_value=1, max_value=99, required=False, label=_("Rounds")
    )
    # The rulesets, each a sentence of what it does, all in view at once.
    ruleset = forms.ChoiceField(
        label=_("Ruleset"), choices=(), initial="naspa", widget=forms.RadioSelect
    )
    tile_set = forms.ChoiceField(label=_("Tile set"), choices=(), initial="english")
    spread_cap = forms.CharField(
        label=_("Spread cap"),
        required=False,
        help_text=_("e.g. “300”, or one a round; empty: none."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    bye_spread = forms.IntegerField(label=_("Bye spread"), min_value=0, max_value=1000, initial=50)
    rating_system = forms.ChoiceField(
        label=_("Rating system"), choices=(), initial="nsa2008", widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = ruleset_choices()
        self.fields["tile_set"].choices = [(n, n) for n in builtin_tilesets()]
        self.fields["rating_system"].choices = rating_system_choices()

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        problem = tsh_io.check_division_name(name) if name else None
        if problem:
            raise forms.ValidationError(problem)
        return name

    def clean_spread_cap(self) -> list[int] | None:
        caps = _numbers(self.cleaned_data["spread_cap"], gettext("Spread cap"))
        if any(c < 1 for c in caps):
            raise forms.ValidationError(gettext("Spread cap: whole numbers above 0."))
        return caps or None

    def new_division(self) -> Any:
        """The division this form describes, to be made (`events.NewDivision`)."""
        from tournament.event.services import NewDivision

        # A field left empty (one a form may leave out) takes the division's default.
        return NewDivision(**{k: v for k, v in self.cleaned_data.items() if v not in (None, "")})


class BaseDivisionFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        if any(self.errors):
            return
        names = [f.cleaned_data.get("name", "").lower() for f in self.forms]
        names = [n for n in names if n]
        if len(names) != len(set(names)):
            raise forms.ValidationError(gettext("Two divisions have the same name."))

    def divisions(self) -> list[Any]:
        return [f.new_division() for f in self.forms if f.cleaned_data.get("name")]


NewDivisionFormSet = forms.formset_factory(
    NewDivisionForm, formset=BaseDivisionFormSet, extra=2, max_num=20, absolute_max=20
)


class PersonForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[("director", _("co-director")), ("scorekeeper", _("scorekeeper"))],
    )


class PasteForm(forms.Form):
    players = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        max_length=200_000,
        help_text=_(
            "One player a line: name, rating, optional club — e.g. “Quill, Ada, 1650, "
            "Leeds” or, copied from a spreadsheet, columns separated by tabs."
        ),
    )

    def __init__(self, *args: Any, last_first: bool | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        field.help_text = f"{field.help_text} {name_style_help(last_first)}"


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=3000)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)


class AbsentForm(forms.Form):
    """A player absent for a round (or present again): the round's pairing leaves them out."""

    player = forms.IntegerField(min_value=1, label=_("Player"))
    round = forms.IntegerField(min_value=1, max_value=10_000, label=_("round"))


class FixedTableForm(forms.Form):
    player = forms.IntegerField(min_value=1, label=_("Player"))
    table = forms.IntegerField(
        min_value=1, max_value=100_000, required=False, label=_("always at table")
    )


class MoveForm(forms.Form):
    player = forms.IntegerField(min_value=1, label=_("Player"))
    division = forms.IntegerField(label=_("to division"))


class AddDivisionForm(NewDivisionForm):
    """A division added to a tournament at the desk: a name, and its rounds, rules, tiles and
    rating system to choose from (any left out: the defaults a new tournament's division has)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            field.required = name == "name"
