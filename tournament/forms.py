"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament import results
from tournament.models import Game


class EntryForm(forms.Form):
    line = forms.CharField(
        max_length=100,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autofocus": True, "spellcheck": "false"}
        ),
    )
    reason = forms.CharField(max_length=500, required=False)
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
        max_length=500, required=False, help_text="Needed to change or remove a result."
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
                choices=[(Game.BYE, "bye"), (Game.FORFEIT, "forfeit")]
            )
            self.fields["score1"] = _score_field(f"Spread for {game.player1.name}")
        else:
            self.fields["score1"] = _score_field(f"{game.player1.number} {game.player1.name}")
            self.fields["score2"] = _score_field(f"{game.player2.number} {game.player2.name}")
            self.fields["first"] = forms.TypedChoiceField(
                label="Went first",
                coerce=int,
                choices=[(0, "not known"), (1, game.player1.name), (2, game.player2.name)],
            )
        self.order_fields(["kind", "score1", "score2", "first", "reason", "version"])


class ScoresheetTextForm(forms.Form):
    gcg = forms.CharField(
        label="Scoresheet",
        max_length=results.MAX_SCORESHEET_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false", "autocomplete": "off"}),
    )
    reason = forms.CharField(max_length=500, required=False)


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
    files = MultipleFileField(label="GCG files")
    round = forms.IntegerField(
        required=False, min_value=1, help_text="Only look for games of this round."
    )


class SingleUploadForm(forms.Form):
    file = forms.FileField(label="GCG file", allow_empty_file=True)


class ResolveForm(forms.Form):
    reason = forms.CharField(max_length=500, required=False)


# -- pairing ------------------------------------------------------------------------------------


class PairForm(forms.Form):
    round = forms.IntegerField(min_value=1)
    system = forms.ChoiceField(required=False, help_text="Empty: the division's schedule.")
    based_on = forms.IntegerField(
        required=False, min_value=0, help_text="Pair from the results up to this round."
    )
    repeats = forms.IntegerField(
        required=False, min_value=0, help_text="Empty: the division's repeat limit."
    )

    def __init__(self, *args: Any, systems: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "as scheduled")]
        choices += [(name, f"{name}: {text}") for name, text in systems.items() if name != "manual"]
        self.fields["system"].choices = choices


class SwapForm(forms.Form):
    a = forms.IntegerField(min_value=1, label="Player")
    b = forms.IntegerField(min_value=1, label="with player")


class ManualPairingsForm(forms.Form):
    pairs = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text="One table a line, first player first: “12 7”; a bye: “5 bye”.",
    )

    def clean_pairs(self) -> list[tuple[int, int | None]]:
        found: list[tuple[int, int | None]] = []
        for number, line in enumerate(self.cleaned_data["pairs"].splitlines(), 1):
            words = line.replace(",", " ").replace("-", " ").split()
            if not words:
                continue
            if len(words) == 2 and words[1].lower() in results.BYE_WORDS and words[0].isdigit():
                found.append((int(words[0]), None))
            elif len(words) == 2 and all(w.isdigit() for w in words):
                found.append((int(words[0]), int(words[1])))
            else:
                raise forms.ValidationError(
                    f"Line {number}: “{line.strip()}” is not two player numbers or “N bye”."
                )
        if not found:
            raise forms.ValidationError("No pairings given.")
        return found


class WithdrawForm(forms.Form):
    player = forms.IntegerField(min_value=1)
    from_round = forms.IntegerField(min_value=1, label="from round")


class LateEntryForm(forms.Form):
    name = forms.CharField(max_length=200, help_text="As on the rating list: Last, First.")
    rating = forms.IntegerField(min_value=0, max_value=3000, initial=0)
    club = forms.CharField(max_length=100, required=False)
    team = forms.CharField(max_length=100, required=False)
    membership_id = forms.CharField(max_length=40, required=False)
