"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models import Game
from tournament.results import services as results


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
        player2 = game.player2  # None (no query) for a bye or a forfeit
        if player2 is None:
            self.fields["kind"] = forms.ChoiceField(
                label=_("Kind"), choices=[(Game.BYE, _("bye")), (Game.FORFEIT, _("forfeit"))]
            )
            self.fields["score1"] = _score_field(
                gettext("Spread for %(name)s") % {"name": game.player1.name}
            )
        else:
            self.fields["score1"] = _score_field(f"{game.player1.number} {game.player1.name}")
            self.fields["score2"] = _score_field(f"{player2.number} {player2.name}")
            self.fields["first"] = forms.TypedChoiceField(
                label=_("Went first"),
                coerce=int,
                choices=[(0, _("not known")), (1, game.player1.name), (2, player2.name)],
            )
        self.order_fields(["kind", "score1", "score2", "first", "reason", "version"])
