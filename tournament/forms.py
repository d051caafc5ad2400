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
