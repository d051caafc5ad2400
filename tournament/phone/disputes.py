"""A player's word that a recorded result is wrong (`Dispute`), from their link, and the desk's
answer.

A player of a game with a result (not in a locked round or tournament) says what is wrong, in
plain text of at most `DISPUTE_LENGTH` characters. The game is then on the desk's "Still to
settle" (`results/unresolved.py`) with the player's words, until a director or scorekeeper
answers that the result stands (`answer_stands`), or corrects it: any write of the game's
result answers its open disputes (`corrected`, a subscriber of `results_changed`). Both
players' phones show the answer (`for_snapshot`). One open dispute a game and player; each
step logged (`Change.Action.DISPUTE`), and the division's stamp and the round's renewed so
that both phones show it at their next poll.
"""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournament.core import audit
from tournament.core.actor import Actor, signed_in
from tournament.core.errors import EntryError
from tournament.core.sentences import MARKS, isolate
from tournament.core.signals import Outcome
from tournament.models import DISPUTE_LENGTH, Change, Dispute, Division, Game, Player, Round
from tournament.phone import offline
from tournament.standings import stamps


class DisputeRefused(EntryError):
    """A dispute or an answer refused; the message says why, in a sentence."""


# The direction controls that reach past their own text (embeddings, overrides, isolates):
# dropped from a player's words, which are isolated where shown. Joiners (Persian's ZWNJ) stay.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e") | frozenset(MARKS)


def clean_text(text: str | None) -> str:
    """What the player wrote, as the plain text kept: line breaks as "\\n", tabs as spaces,
    every other control character dropped (NUL, escapes) and the direction controls that reach
    past their own text (the text is isolated where shown), no two blank lines in a row,
    trimmed. Refused empty or over `DISPUTE_LENGTH` characters, in a sentence."""
    lines = []
    for line in (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        kept = "".join(
            c
            for c in line
            if c == "\t" or (unicodedata.category(c) not in ("Cc", "Cs") and c not in _BIDI)
        )
        lines.append(kept.replace("\t", " ").rstrip())
    cleaned = "\n".join(lines).strip()
    while "\n\n\n" in cleaned:
        cleaned = cleaned.replace("\n\n\n", "\n\n")
    if not cleaned:
        raise DisputeRefused(gettext("Say what is wrong with the result."))
    if len(cleaned) > DISPUTE_LENGTH:
        raise DisputeRefused(
            ngettext(
                "Say it in %(most)s characters or fewer: yours has %(count)s.",
                "Say it in %(most)s characters or fewer: yours has %(count)s.",
                len(cleaned),
            )
            % {"most": DISPUTE_LENGTH, "count": len(cleaned)}
        )
    return cleaned


def disputable(player: Player) -> list[Game]:
    """The player's games they may say are wrong, latest first: those of published rounds with
    a result (a bye and a forfeit too)."""
    games = Game.objects.published().filter(division_id=player.division_id)
    mine = (games.filter(player1=player) | games.filter(player2=player)).select_related(
        "player1", "player2"
    )
    return [g for g in mine.order_by("-round", "pk") if g.has_result]


def refusal(game: Game, player: Player) -> str | None:
    """Why the player may not say this game's result is wrong, or None."""
    if player.pk not in (game.player1_id, game.player2_id):
        return gettext("Only the players of a game can say its result is wrong.")
    if not Game.objects.published().filter(pk=game.pk).exists():
        return gettext("This round is not published.")
    if not game.has_result:
        return gettext("This game has no result yet.")
    if game.division.tournament.locked:
        return gettext("The tournament is locked: see the desk.")
    if Round.objects.filter(division_id=game.division_id, number=game.round, locked=True).exists():
        return gettext("Round %(round)s is locked: see the desk.") % {"round": game.round}
    return None


def open_dispute(player: Player, game: Game, text: str, key: str | None = None) -> Dispute:
    """The player says the game's result is wrong, in `text` (cleaned by `clean_text`); the
    dispute opened and logged, on the desk's list until answered.

    Sending the same words again while they are open changes nothing (a retry, a second tap);
    other words while a dispute of the player's is open are refused: one open dispute a game
    and player.

    `key`: the phone's idempotency key (`offline.key_of`); sent again, the first answer.
    """
    answer = offline.refusals_kept(
        player, key, lambda: {"dispute": _open(player, game, text).pk}, DisputeRefused
    )
    return Dispute.objects.get(pk=answer["dispute"])


def _open(player: Player, game: Game, text: str) -> Dispute:
    text = clean_text(text)
    with transaction.atomic():
        # The game's row locked: two devices of one link sending at once take turns.
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("division__tournament", "player1", "player2")
            .get(pk=game.pk)
        )
        refused = refusal(game, player)
        if refused:
            raise DisputeRefused(refused)
        mine = Dispute.objects.filter(game=game, player=player, answer=Dispute.OPEN).first()
        if mine is not None:
            if mine.text == text:
                return mine
            raise DisputeRefused(
                gettext("You have already said this result is wrong: the desk will answer.")
            )
        dispute = Dispute.objects.create(game=game, player=player, text=text)
        audit.record(
            game.division,
            Change.Action.DISPUTE,
            actor=player,
            game=game,
            after={"dispute": dispute.pk, "text": text},
            reason=f"{isolate(player.name)} says the result is wrong",
        )
        stamps.touch(
            [game.division_id],
            rounds=[game.round],
            games=[(game.pk, (game.player1_id, game.player2_id))],
        )
    return dispute


def answer_stands(dispute: Dispute, user: Actor) -> Dispute:
    """The desk answers an open dispute: the result stands. Logged; both players' phones say
    so. A dispute answered already is refused."""
    with transaction.atomic():
        dispute = (
            Dispute.objects.select_for_update(of=("self",))
            .select_related("game__division", "player")
            .get(pk=dispute.pk)
        )
        if dispute.answer != Dispute.OPEN:
            raise DisputeRefused(gettext("This dispute is already answered."))
        dispute.answer = Dispute.STANDS
        dispute.answered_by = signed_in(user)
        dispute.answered_at = timezone.now()
        dispute.save(update_fields=["answer", "answered_by", "answered_at"])
        game = dispute.game
        audit.record(
            game.division,
            Change.Action.DISPUTE,
            actor=user,
            game=game,
            before={"dispute": dispute.pk, "text": dispute.text},
            after={"dispute": dispute.pk, "answer": Dispute.STANDS},
            reason=f"The result stands ({isolate(dispute.player.name)} said it was wrong)",
        )
        stamps.touch(
            [game.division_id],
            rounds=[game.round],
            games=[(game.pk, (game.player1_id, game.player2_id))],
        )
    return dispute


def corrected(outcome: Outcome) -> None:
    """A write of results answers the open disputes of the games it changed: the result was
    corrected (`results_changed`'s subscriber, in the writer's transaction); said in a
    sentence to the desk."""
    ids = outcome.games()
    if not ids:
        return
    open_ = list(
        Dispute.objects.filter(game_id__in=ids, answer=Dispute.OPEN).select_related("player")
    )
    if not open_:
        return
    Dispute.objects.filter(pk__in=[d.pk for d in open_]).update(
        answer=Dispute.CORRECTED,
        answered_by=signed_in(outcome.actor),
        answered_at=timezone.now(),
    )
    names = ", ".join(isolate(d.player.name) for d in open_)
    outcome.said.append(
        ngettext(
            "It answers the word of %(names)s that the result was wrong.",
            "It answers the words of %(names)s that the result was wrong.",
            len(open_),
        )
        % {"names": names}
    )


def for_snapshot(
    division: Division, players: list[int] | None = None
) -> dict[int, list[dict[str, object]]]:
    """Each game's disputes as the phones show them, by game: each player's latest, open or
    answered ("" open, "stands", "corrected"), with its words; of the games of `players` alone
    where given. One query."""
    found: dict[int, dict[int, dict[str, object]]] = {}
    if players is None:
        disputes = Dispute.objects.filter(game__division_id=division.pk)
    else:  # by the players' own indexes alone (a player's games are all of their division)
        theirs = Q(player1_id__in=players) | Q(player2_id__in=players)
        disputes = Dispute.objects.filter(game__in=Game.objects.filter(theirs))
    rows = disputes.order_by("game_id", "pk").values_list("game_id", "player_id", "text", "answer")
    for game, player, text, answer in rows:
        found.setdefault(game, {})[player] = {"player": player, "text": text, "answer": answer}
    return {game: list(by_player.values()) for game, by_player in found.items()}


def side(disputes: list[dict[str, object]], me: int, recorded: bool, closed: bool) -> dict:
    """What one player's phone shows of a game's disputes (`for_snapshot`'s list for the
    game): whether they may say its result is wrong now (`recorded`: it has a result;
    `closed`: its round or the tournament is locked; and no dispute of theirs is open), and
    each dispute, theirs with their words, the opponent's without."""
    shown = [
        {"mine": d["player"] == me, "text": d["text"] if d["player"] == me else "",
         "answer": d["answer"]}
        for d in disputes
    ]  # fmt: skip
    waiting = any(d["mine"] and d["answer"] == Dispute.OPEN for d in shown)
    return {"can_dispute": recorded and not closed and not waiting, "disputes": shown}
