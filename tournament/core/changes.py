"""The change vocabulary: how a result is written down in the change log, and read back.

A `Change` keeps the rows before and after (`{"games": [snapshot, …]}`); these functions write
a game's snapshot and say a change in a sentence a director reads. Every package that logs or
shows a change uses them (results, corrections, pairing, players, the phone, backups): they
import nothing of the app but the models.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from tournament.core.language import ltr_text
from tournament.core.sentences import isolate
from tournament.models import Change, Game, Round

Action = Change.Action

# The changes written at the desk's results and scoresheets.
CREATE = Action.CREATE
CORRECT = Action.CORRECT
DELETE = Action.DELETE
UPLOAD = Action.UPLOAD
RESOLVE = Action.RESOLVE
UNDO = Action.UNDO

# The changes to a division's results, and to its field: what can make a later round's pairing
# out of date.
RESULT_ACTIONS = frozenset({CREATE, CORRECT, DELETE, UNDO})
FIELD_ACTIONS = frozenset({Action.WITHDRAW, Action.REINSTATE, Action.LATE_ENTRY, Action.ABSENT})


def snapshot(game: Game) -> dict[str, Any]:
    """A game's result as the change log keeps it; names are kept for reading it later."""
    return {
        "id": game.pk,
        "round": game.round,
        "table": game.table,
        "player1": game.player1.number,
        "name1": game.player1.name,
        "player2": game.player2.number if game.player2 else None,
        "name2": game.player2.name if game.player2 else None,
        "score1": game.score1,
        "score2": game.score2,
        "kind": game.kind,
        "first": game.first,
        "version": game.version,
        # Only when there is one: a snapshot without penalties is as it was before them.
        **(
            {"penalty1": game.penalty1, "penalty2": game.penalty2}
            if game.penalty1 or game.penalty2
            else {}
        ),
    }


def penalties_of(s: dict[str, Any]) -> tuple[int, int]:
    """A snapshot's time penalties (a snapshot written before them has none)."""
    return s.get("penalty1") or 0, s.get("penalty2") or 0


def _score_text(score: int, penalty: int) -> str:
    """A score as it counts, with its time penalty: `360 (380 − 20 time)`."""
    if not penalty:
        return str(score)
    return gettext("%(score)s (%(sum)s time)") % {
        "score": score,
        "sum": ltr_text(f"{score + penalty} − {penalty}"),  # left to right on a Persian page
    }


def penalty_lines(s: dict[str, Any]) -> list[str]:
    """A snapshot's time penalties as the desk's confirmation shows them, a line a player:
    `Alice 380 − 20 = 360`."""
    lines = []
    for key, name, penalty in zip(
        ("score1", "score2"), ("name1", "name2"), penalties_of(s), strict=True
    ):
        if penalty and s[key] is not None:
            sum_text = ltr_text(f"{s[key] + penalty} − {penalty} = {s[key]}")
            lines.append(gettext("%(name)s %(sum)s") % {"name": isolate(s[name]), "sum": sum_text})
    return lines


def result_text(s: dict[str, Any]) -> str:
    """A snapshot as a line a director reads: `12 Smith 455 – 7 Jones 389, Smith first`, each
    name isolated (`sentences.isolate`) so that a name in any script keeps the line's order."""
    one = f"{s['player1']} {isolate(s['name1'])}"
    kind = kind_label(s["kind"])
    if s["player2"] is None:
        if s["score1"] is None:
            return gettext("%(player)s: %(kind)s, not entered") % {"player": one, "kind": kind}
        if s["kind"] == Game.FORFEIT:
            label = gettext("forfeit win") if s["score1"] > 0 else gettext("forfeit loss")
        else:
            label = kind
        return f"{one}: {label} {s['score1']:+d}"
    two = f"{s['player2']} {isolate(s['name2'])}"
    if s["score1"] is None:
        return gettext("%(player1)s v %(player2)s: not entered") % {"player1": one, "player2": two}
    penalty1, penalty2 = penalties_of(s)
    score1, score2 = _score_text(s["score1"], penalty1), _score_text(s["score2"], penalty2)
    text = f"{one} {score1} – {two} {score2}"
    if s["kind"] != Game.PLAYED:
        text += f" ({kind})"
    if s["first"] in (1, 2):
        first = s["name1"] if s["first"] == 1 else s["name2"]
        text += gettext(", %(name)s first") % {"name": isolate(first)}
    return text


def kind_label(kind: str) -> str:
    """A game's kind (played, bye, forfeit, void) in the reader's language."""
    return str(dict(Game.KINDS).get(kind, kind))


def change_text(data: dict[str, Any] | None) -> str:
    """A change's before or after as a line: the results, or the scoresheet's state."""
    if not data:
        return ""
    if "games" in data:
        return "; ".join(result_text(s) for s in data["games"])
    if "dispute" in data:  # a player's word that a result is wrong (phone/disputes.py)
        if data.get("answer") == "stands":
            return gettext("the result stands")
        return gettext("said to be wrong: %(text)s") % {"text": isolate(data.get("text", ""))}
    if "scoresheet" in data:
        count = data.get("findings", 0)
        state = (
            gettext("verified")
            if data.get("verified")
            else ngettext("%(count)s finding", "%(count)s findings", count) % {"count": count}
        )
        if data.get("resolved"):
            state += ", " + gettext("resolved")
        elif data.get("flagged"):
            state += ", " + gettext("flagged")
        scores = ", ".join(f"{nick} {final}" for nick, final in data.get("players") or [])
        return gettext("scoresheet %(data)s (%(scores)s): %(state)s") % {
            "data": data["scoresheet"],
            "scores": scores,
            "state": state,
        }
    return ""


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two snapshots of one game, a phrase a change."""
    if (before["player1"], before["player2"], before["kind"]) != (
        after["player1"],
        after["player2"],
        after["kind"],
    ):
        return [
            gettext("%(before)s became %(after)s")
            % {"before": result_text(before), "after": result_text(after)}
        ]
    found = []
    for key, name in (("score1", "name1"), ("score2", "name2")):
        if before[key] != after[key]:
            was = gettext("none") if before[key] is None else before[key]
            now = gettext("none") if after[key] is None else after[key]
            found.append(
                gettext("%(name)s's score %(was)s → %(now)s")
                % {"name": isolate(after[name]), "was": was, "now": now}
            )
    for name, was, now in zip(
        ("name1", "name2"), penalties_of(before), penalties_of(after), strict=True
    ):
        if was != now:
            found.append(
                gettext("%(name)s's time penalty %(was)s → %(now)s")
                % {"name": isolate(after[name]), "was": was, "now": now}
            )
    if before["first"] != after["first"]:

        def who(s: dict[str, Any]) -> str:
            return isolate({1: s["name1"], 2: s["name2"]}.get(s["first"])) or gettext("not known")

        found.append(
            gettext("going first %(who)s → %(who2)s") % {"who": who(before), "who2": who(after)}
        )
    return found


def games_of(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((data or {}).get("games") or [])


def snapshot_of(data: dict[str, Any] | None, game_id: int) -> dict[str, Any] | None:
    return next((s for s in games_of(data) if s.get("id") == game_id), None)


def content(s: dict[str, Any]) -> dict[str, Any]:
    penalty1, penalty2 = penalties_of(s)
    kept = {k: v for k, v in s.items() if k not in ("version", "penalty1", "penalty2")}
    return {**kept, "penalty1": penalty1, "penalty2": penalty2}


def stale_text(state: Round) -> str:
    """The changes a stale round's pairing has not seen, as the desk reads them: each result
    before and after, or the change's reason."""
    pks = [entry["change"] for entry in state.stale]
    found = {c.pk: c for c in Change.objects.filter(pk__in=pks)}
    lines = []
    for pk in pks:
        change = found.get(pk)
        if change is None:
            continue
        if change.action in RESULT_ACTIONS:
            was, now = change_text(change.before), change_text(change.after)
            lines.append(f"{was} → {now}" if was else now)
        else:
            lines.append(isolate(change.reason) or change.get_action_display())
    return "; ".join(lines)
