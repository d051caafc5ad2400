"""Scoresheet reports store each finding as its code and parameters instead of an English sentence.

Each sheet's report is made again from its stored record (`tournament.scoresheets.services`, the way a
page makes a report whose key is out of date), rather than each old sentence being read back:
the engine is deterministic and the record is stored, so checking it again gives the findings
with their real parameters, where reading sentences back would have to undo some eighty
templates whose values (nicknames, words, tile lists) may themselves hold the words around them.
The stored file name, and any key this version does not know, are kept; `verified` is set from
the new report. A row that cannot be checked again, for whatever reason, keeps its findings as
`legacy` ones that show the old sentences unchanged, so the migration never stops on an odd row.
Backwards, every finding is written out as its sentence again.
"""

import logging
from typing import Any

from django.db import migrations

logger = logging.getLogger(__name__)


def _legacy(report: Any) -> Any:
    """The report with each finding stored as a sentence kept whole, as a `legacy` one."""
    from scoring.messages import legacy

    if not isinstance(report, dict) or not isinstance(report.get("findings"), list):
        return report
    findings = [
        {**{k: v for k, v in f.items() if k != "message"}, "params": legacy(str(f["message"]))}
        if isinstance(f, dict) and "params" not in f and "message" in f
        else f
        for f in report["findings"]
    ]
    return {**report, "findings": findings}


def forwards(apps, schema_editor) -> None:
    from tournament.scoresheets import services as scoresheets
    from tournament.core.sheet_report import _KEYS

    Scoresheet = apps.get_model("tournament", "Scoresheet")
    for sheet in Scoresheet.objects.select_related("game__division").iterator():
        # Read without `SheetReport`: an odd old row is still checked again.
        old = sheet.report if isinstance(sheet.report, dict) else {}
        file = old.get("file") if isinstance(old.get("file"), str) else ""
        try:
            report = scoresheets._report(sheet.game.division, sheet.gcg or "", file)
            report.extra = {**{k: v for k, v in old.items() if k not in _KEYS}, **report.extra}
            data, verified = report.as_dict(), report.verified
        except Exception:
            logger.exception("scoresheet %s: its findings are kept as sentences", sheet.pk)
            data, verified = _legacy(sheet.report), sheet.verified
        sheet.report, sheet.verified = data, verified
        sheet.save(update_fields=["report", "verified"])


def backwards(apps, schema_editor) -> None:
    from tournament.core.sheet_report import SheetReport

    Scoresheet = apps.get_model("tournament", "Scoresheet")
    for sheet in Scoresheet.objects.iterator():
        if not isinstance(sheet.report, dict):
            continue
        try:
            findings = SheetReport.from_dict(sheet.report).findings
        except Exception:
            continue
        old = [
            {
                "line": f.line,
                "severity": f.severity,
                "code": f.code,
                "message": f.message,
                "player": f.player,
                "expected": f.expected,
                "recorded": f.recorded,
            }
            for f in findings
        ]
        sheet.report = {**sheet.report, "findings": old}
        sheet.save(update_fields=["report"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_check_in"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
