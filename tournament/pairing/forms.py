"""Forms of the director's desk."""

from __future__ import annotations

import copy
import re
from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.core import bounds
from tournament.core.choices import rating_system_choices
from tournament.core.forms import whole_numbers
from tournament.engine.pairing import parse_schedule
from tournament.engine.pairing.registry import REGISTRY, automatic
from tournament.models import Division
from tournament.pairing.systems import description
from tournament.results import services as results


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
        cast(forms.ChoiceField, self.fields["system"]).choices = choices


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
            numbers = [bounds.plain_number(w) for w in words]
            if len(words) == 2 and words[1].lower() in results.BYE_WORDS and numbers[0]:
                found.append((numbers[0], None))
            elif len(words) == 2 and numbers[0] and numbers[1]:
                found.append((numbers[0], numbers[1]))
            else:
                raise forms.ValidationError(
                    gettext("Line %(number)s: “%(line)s” is not two player numbers or “N bye”.")
                    % {"number": number, "line": line.strip()}
                )
        if not found:
            raise forms.ValidationError(gettext("No pairings given."))
        return found


def schedule_text(schedule: list[dict[str, Any]]) -> str:
    """A pairing schedule as the settings form shows it: `1-4 swiss`, `5-6 koth repeats=1`."""
    lines = []
    for entry in schedule or []:
        extra = [f"{k}={v}" for k, v in entry.items() if k not in ("rounds", "system", "options")]
        # In the system's own order of its options: a JSON column may keep keys in any order.
        options = entry.get("options") or {}
        system = REGISTRY.get(entry.get("system", ""))
        order = list(system.allowed_options()) if system else []
        ranked = sorted(options, key=lambda k: (order.index(k) if k in order else len(order), k))
        extra += [f"{k}={_shown(options[k])}" for k in ranked]
        lines.append(" ".join([str(entry["rounds"]), str(entry["system"]), *extra]))
    return "\n".join(lines)


def _value(text: str) -> Any:
    if "," in text:  # a list: `gibson_spread=250,200`
        return [_value(part) for part in text.split(",") if part]
    number = bounds.plain_number(text, signed=True)
    if number is not None:
        return number
    if re.fullmatch(r"\d{1,9}\.\d{1,9}", text):
        return float(text)
    return {"true": True, "false": False}.get(text.lower(), text)


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def decimals(text: str, what: str) -> list[float]:
    """The decimal numbers of a field (`what`), e.g. “0.1, 0.05”."""
    words = text.replace(",", " ").split()
    if not all(re.fullmatch(r"\d{1,9}(\.\d{1,9})?", w) for w in words):
        raise forms.ValidationError(
            gettext("%(what)s: numbers such as 0.05, separated by commas or spaces.")
            % {"what": what}
        )
    return [float(w) for w in words]


# COP's settings at the desk: (option, field, what it does and Woogles' default).
COP_FIELDS: list[tuple[str, forms.Field]] = [
    (
        "place_prizes",
        forms.IntegerField(
            min_value=1,
            help_text=_("How many places win a prize. Empty: 4."),
        ),
    ),
    (
        "class_prizes",
        forms.CharField(
            help_text=_("The prizes of each class, class 1 first, e.g. “2, 1”. Empty: none."),
        ),
    ),
    (
        "player_classes",
        forms.CharField(
            widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "dir": "ltr"}),
            help_text=_("A player number and the player's class, one a line: “12 1”."),
        ),
    ),
    (
        "gibson_spread",
        forms.CharField(
            help_text=_(
                "The most spread a game is counted to swing; a list counts from the last round. "
                "Empty: 250, 200."
            ),
        ),
    ),
    (
        "hopefulness_threshold",
        forms.CharField(
            help_text=_(
                "The chance of a place that makes a player hopeful of it; a list counts from the "
                "last round. Empty: 0.1, 0.1, 0.05, 0.02, 0.01."
            ),
        ),
    ),
    (
        "control_loss_threshold",
        forms.FloatField(
            min_value=0,
            max_value=1,
            help_text=_(
                "How much more often a contender must win the event playing the leader for the "
                "leader to have lost control. Empty: 0.3."
            ),
        ),
    ),
    (
        "division_sims",
        forms.IntegerField(
            min_value=1000,
            help_text=_("Simulations of the rounds left. Empty: 100000."),
        ),
    ),
    (
        "control_loss_sims",
        forms.IntegerField(
            min_value=1000,
            help_text=_("Simulations for each control-loss test. Empty: 10000."),
        ),
    ),
    (
        "control_loss_activation_round",
        forms.IntegerField(
            min_value=1,
            help_text=_(
                "The first round the leader may be paired by control loss. Empty: 3 rounds "
                "before the last."
            ),
        ),
    ),
    (
        "allow_repeat_byes",
        forms.BooleanField(help_text=_("A second bye is not penalised. Default: off.")),
    ),
    (
        "top_down_byes",
        forms.BooleanField(
            help_text=_(
                "The bye goes to the highest-placed player with the fewest byes. Default: off."
            ),
        ),
    ),
    (
        "seed",
        forms.IntegerField(
            help_text=_("The simulations' seed. Empty: made from the names and the round."),
        ),
    ),
]
COP_LABELS = {
    "place_prizes": _("COP: place prizes"),
    "class_prizes": _("COP: class prizes"),
    "player_classes": _("COP: player classes"),
    "gibson_spread": _("COP: Gibson spread"),
    "hopefulness_threshold": _("COP: hopefulness threshold"),
    "control_loss_threshold": _("COP: control loss threshold"),
    "division_sims": _("COP: simulations"),
    "control_loss_sims": _("COP: control-loss simulations"),
    "control_loss_activation_round": _("COP: control loss from round"),
    "allow_repeat_byes": _("COP: allow repeat byes"),
    "top_down_byes": _("COP: top-down byes"),
    "seed": _("COP: seed"),
}


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
        cop = division.cop_settings or {}
        for name, template in COP_FIELDS:
            field = copy.deepcopy(template)
            field.required = False
            field.label = COP_LABELS[name]
            value = cop.get(name)
            if name == "player_classes" and value:
                value = "\n".join(f"{k} {v}" for k, v in value.items())
            elif isinstance(value, list):
                value = ", ".join(map(str, value))
            field.initial = value
            self.fields[f"cop_{name}"] = field

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        first, last = data.get("first_table"), data.get("last_table")
        if first is not None and last is not None and last < first:
            raise forms.ValidationError(_("The last table comes after the first."))
        return data

    def cop_settings(self) -> dict[str, Any]:
        """COP's settings as set: only those given (the rest take Woogles' defaults)."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for name, _field in COP_FIELDS:
            value = data.get(f"cop_{name}")
            if value in (None, "", False):
                continue
            out[name] = value
        return out

    def clean_cop_class_prizes(self) -> list[int] | None:
        prizes = whole_numbers(self.cleaned_data["cop_class_prizes"], gettext("Class prizes"))
        if any(p < 1 for p in prizes):
            raise forms.ValidationError(gettext("A class has at least one prize."))
        return prizes or None

    def clean_cop_gibson_spread(self) -> int | list[int] | None:
        spreads = whole_numbers(self.cleaned_data["cop_gibson_spread"], gettext("Gibson spread"))
        if not spreads:
            return None
        return spreads[0] if len(spreads) == 1 else spreads

    def clean_cop_hopefulness_threshold(self) -> float | list[float] | None:
        what = gettext("Hopefulness threshold")
        values = decimals(self.cleaned_data["cop_hopefulness_threshold"], what)
        if any(not 0 < v <= 1 for v in values):
            raise forms.ValidationError(
                gettext("%(what)s: each above 0 and at most 1.") % {"what": what}
            )
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def clean_cop_player_classes(self) -> dict[str, int] | None:
        numbers = set(self.instance.players.values_list("number", flat=True))
        classes: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data["cop_player_classes"].splitlines(), 1):
            pair = whole_numbers(line, gettext("Line %(number)s") % {"number": number})
            if not pair:
                continue
            if len(pair) != 2:
                raise forms.ValidationError(
                    gettext("Line %(number)s: a player number and a class.") % {"number": number}
                )
            if pair[0] not in numbers:
                raise forms.ValidationError(
                    gettext("Line %(number)s: no player %(player)s.")
                    % {"number": number, "player": pair[0]}
                )
            classes[str(pair[0])] = pair[1]
        return classes or None

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
        spreads = whole_numbers(self.cleaned_data["gibson_spread_text"], gettext("Gibson spread"))
        if not spreads:
            return None
        return spreads[0] if len(spreads) == 1 else spreads

    def clean_prize_bands_text(self) -> list[int] | None:
        bands = whole_numbers(self.cleaned_data["prize_bands_text"], gettext("Prize bands"))
        if bands and (bands != sorted(set(bands)) or bands[0] < 1):
            raise forms.ValidationError(gettext("Prize bands: rising ranks, from 1."))
        return bands or None

    def clean_forbidden(self) -> list[list[int]]:
        numbers = set(self.instance.players.values_list("number", flat=True))
        pairs = []
        for number, line in enumerate(self.cleaned_data["forbidden"].splitlines(), 1):
            pair = whole_numbers(line, gettext("Line %(number)s") % {"number": number})
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
        division.cop_settings = self.cop_settings()
        if commit:
            division.save()
        return division
