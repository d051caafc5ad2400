"""Rounds' notes and warnings stored as codes and parameters instead of English sentences.

Each old sentence is read back by the templates it was written with
(`tournament.engine.pairing.messages.parse`, a pure function of the text); a sentence no
template writes exactly is kept whole as a `legacy` message, which the pages show unchanged.
Backwards, every message is written out as its sentence again.
"""

from typing import Any

from django.db import migrations

from tournament.engine.pairing import messages


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and "code" in value and "params" in value


def _note(old: Any) -> dict[str, Any]:
    return old if _is_message(old) else messages.parse(str(old))


def _warning(old: Any) -> dict[str, Any]:
    if not isinstance(old, dict):
        return {**messages.parse(str(old)), "players": []}
    if "params" in old:
        return old
    found = messages.parse(str(old.get("message", "")))
    return {**found, "players": list(old.get("players", []))}


def forwards(apps, schema_editor) -> None:
    Round = apps.get_model("tournament", "Round")
    for state in Round.objects.all().iterator():
        notes = [_note(n) for n in state.notes or []]
        warnings = [_warning(w) for w in state.warnings or []]
        if notes != state.notes or warnings != state.warnings:
            state.notes, state.warnings = notes, warnings
            state.save(update_fields=["notes", "warnings"])


def backwards(apps, schema_editor) -> None:
    Round = apps.get_model("tournament", "Round")
    for state in Round.objects.all().iterator():
        notes = [messages.render_all([n])[0] if _is_message(n) else n for n in state.notes or []]
        warnings = [
            {
                "code": w["code"],
                "message": messages.render_all([w])[0],
                "players": w.get("players", []),
            }
            if _is_message(w)
            else w
            for w in state.warnings or []
        ]
        state.notes, state.warnings = notes, warnings
        state.save(update_fields=["notes", "warnings"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0003_pairing"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
