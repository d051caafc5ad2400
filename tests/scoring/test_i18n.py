"""The engine's catalog: every finding, pairing reason, counted noun and command-line line in
id, ko, fi and fa, from the standard library's gettext; the .po files complete and the committed .mo
files compiled from them."""

from __future__ import annotations

import gettext
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import scoring
from scoring.__main__ import main
from scoring.i18n import LANGUAGES, counted, language, translator
from scoring.messages import MESSAGES, render
from tournament.engine import catalog
from tournament.engine.pairing import messages as pairing
from tournament.engine.pairing.messages import Message

TRANSLATED = catalog.translated_languages()
PLURALS = {
    "id": "nplurals=1; plural=0;",
    "ko": "nplurals=1; plural=0;",
    "fi": "nplurals=2; plural=(n != 1);",
    "fa": "nplurals=2; plural=(n > 1);",
}


def _po(lang: str) -> tuple[dict[str, str], dict[tuple[str, str], catalog.Entry]]:
    header, found = catalog.read_po(catalog.po_path(lang).read_text(encoding="utf-8"))
    return header, {e.key: e for e in found}


def test_the_languages_are_the_five_and_english_is_the_default() -> None:
    assert LANGUAGES == ("en", "id", "ko", "fi", "fa")
    assert TRANSLATED == ("id", "ko", "fi", "fa")
    assert [language(c) for c in ("fi-FI", "fa_IR", "KO", "id", "pt-br", "", None)] == [
        "fi",
        "fa",
        "ko",
        "id",
        "en",
        "en",
        "en",
    ]


def test_the_catalog_holds_every_message_of_both_tables() -> None:
    keys = {e.key for e in catalog.entries()}
    assert len(keys) == len(catalog.entries())  # no message twice
    for key, text in MESSAGES.items():
        assert (f"finding:{key}", text) in keys
    for code, text in pairing.TEMPLATES.items():
        assert code == "legacy" or (f"pairing:{code}", text) in keys
    nouns = {e.msgid for e in catalog.entries() if e.context == "counted"}
    assert nouns == {
        f"{{n}} {noun}(s)"
        for noun in ("bye", "error", "group", "player", "prize", "repeat", "round", "start", "time")
    }


def test_the_template_on_disk_is_the_one_the_tables_make() -> None:
    assert catalog.POT.read_text(encoding="utf-8") == catalog.pot()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_po_is_complete_with_no_fuzzy_entry_and_the_same_placeholders(lang: str) -> None:
    header, entries = _po(lang)
    wanted = {e.key: e for e in catalog.entries()}

    assert header["Language"] == lang
    assert header["Plural-Forms"] == PLURALS[lang]
    assert set(entries) == set(wanted)  # nothing missing, nothing obsolete
    forms = 1 if "nplurals=1" in PLURALS[lang] else 2
    for key, entry in entries.items():
        assert not entry.fuzzy, key
        assert entry.plural == wanted[key].plural, key
        assert len(entry.msgstr) == (forms if entry.plural else 1), key
        for text in entry.msgstr:
            assert text.strip(), f"{lang} {key}: untranslated"
            # The same fields, each written the same way (a field may be used more than once).
            assert set(catalog.fields(text)) == set(catalog.fields(entry.msgid)), (key, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_committed_mo_is_compiled_from_its_po(lang: str) -> None:
    _, entries = _po(lang)
    po = catalog.po_path(lang)
    with po.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    expected: dict[object, str] = {}
    for (context, msgid), entry in entries.items():
        key = f"{context}\x04{msgid}"
        if entry.plural is None:
            expected[key] = entry.msgstr[0]
        else:
            expected.update({(key, i): text for i, text in enumerate(entry.msgstr)})
    catalog_ = {k: v for k, v in compiled._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert catalog_ == expected


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (gettext) is not installed")
@pytest.mark.parametrize("lang", TRANSLATED)
def test_msgfmt_accepts_each_po_and_compiles_the_committed_mo(lang: str, tmp_path: Path) -> None:
    po = catalog.po_path(lang)
    out = tmp_path / "out.mo"
    subprocess.run(["msgfmt", "--check", f"--output-file={out}", str(po)], check=True)
    assert out.read_bytes() == po.with_suffix(".mo").read_bytes()


def _sample(name: str, conversion: str, spec: str) -> object:
    """A value for a template field, by how the field is written."""
    if conversion == "r":
        return "ZA"
    if spec.startswith("#"):
        return 2
    samples: dict[str, object] = {
        "ordinal": 3,
        "limit": 1,
        "limit_words": 2,
        "byes": 0,
        "list": ["Crane, Ben", "Ek, Aino"],
        "names": ["ann", "bo"],
        "counts": [["E", 2], ["Z", 1]],
        "op": -5,
        "or": [4, 6],
        "pairs": [["Crane, Ben", "Quill, Ada"]],
        "label": "fontes",
        "msg": Message("by_swiss").as_dict(),
        "msgs": [
            Message("places", high=1, low=4).as_dict(),
            Message("met_before", met=2).as_dict(),
        ],
        "g": 1.5,
    }
    return samples.get(spec, 7)


def _params(template: str) -> dict[str, object]:
    return {name: _sample(name, conv, spec) for name, conv, spec in catalog.fields(template)}


# Sentences that read the same in a language as in English (a name kept as the hall says it).
SAME = {("id", "pairing:by_swiss"), ("id", "pairing:by_koth")}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_finding_and_pairing_message_is_written_in_every_language(lang: str) -> None:
    for key, english in MESSAGES.items():
        code, _, case = key.partition(".")
        params = {**_params(english), **({"case": case} if case else {})}
        said = render(code, params, lang=lang)
        assert said != render(code, params), (lang, key)
        assert not said.startswith(f"{code}:"), (lang, key, said)  # not the fallback
    for code, english in pairing.TEMPLATES.items():
        if code == "legacy":
            continue
        said = pairing.render(code, _params(english), lang)
        if (lang, f"pairing:{code}") not in SAME:
            assert said != pairing.render(code, _params(english)), (lang, code)


def test_sentences_read_in_each_language() -> None:
    table = Message(
        "table",
        first="Kim, Min",
        second="Ahmadi, Sara",
        reasons=[Message("places", high=1, low=4), Message("met_before", met=1)],
    )
    stored = json.loads(json.dumps(table.as_dict()))
    said = {lang: pairing.render_all([stored], lang)[0] for lang in LANGUAGES}
    assert said == {
        "en": "Kim, Min v Ahmadi, Sara: places 1 and 4; rematch: they have met 1 time(s)",
        "id": "Kim, Min lawan Ahmadi, Sara: peringkat 1 dan 4; pertemuan ulang: mereka sudah "
        "bertemu 1 kali",
        "ko": "Kim, Min 대 Ahmadi, Sara: 1위와 4위; 재대결: 이미 1번 만났습니다",
        "fi": "Kim, Min – Ahmadi, Sara: sijat 1 ja 4; uusintaottelu: he ovat kohdanneet 1 kerran",
        "fa": "Kim, Min در برابر Ahmadi, Sara: رتبه‌های 1 و 4؛ دیدار دوباره: 1 بار با هم بازی "
        "کرده‌اند",
    }
    assert render("wrong_score", {"case": "pass"}, lang="fi") == (
        "vuoron väliin jättäminen tuottaa 0 pistettä"
    )
    assert render("wrong_score", {"case": "exchange"}, lang="ko") == "타일 교환은 0점입니다"
    assert render("unknown_player", {"nick": "x", "players": []}, lang="id") == (
        "'x' bukan salah satu pemain (tidak ada yang disebut)"
    )


def test_counted_nouns_take_each_languages_plural_forms() -> None:
    fi, fa, ko = translator("fi"), translator("fa"), translator("ko")
    assert [fi.counted(n, "player") for n in (0, 1, 2)] == ["0 pelaajaa", "1 pelaaja", "2 pelaajaa"]
    assert [fi.counted(n, "time") for n in (1, 3)] == ["1 kerran", "3 kertaa"]
    assert [fa.counted(n, "round") for n in (1, 5)] == ["1 دور", "5 دور"]
    assert ko.counted(3, "player") == "플레이어 3명"
    # English keeps the desk's "(s)", one sentence for any count, from the one `counted`.
    assert translator("en").counted(1, "player") == counted(1, "player") == "1 player(s)"
    assert [translator(lang).ordinal(2) for lang in LANGUAGES] == ["2nd", "ke-2", "2위", "2.", "2"]


def test_a_translation_that_cannot_be_written_falls_back_to_english() -> None:
    # Stored parameters this version's template does not take: the English sentence still shows.
    assert (
        render(
            "wrong_score", {"word": "AB", "position": "8H", "score": 8, "recorded": 9}, lang="fi"
        )
        == "AB paikassa 8H tuottaa 8 pistettä, ei 9"
    )
    assert render("no_such_code", {"a": 1}, lang="fa") == 'no_such_code: {"a": 1}'


# -- the command line --------------------------------------------------------------------------

GOOD = """#player1 doug Doug Example
#player2 emely Emely Example
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
"""
BAD = GOOD.replace("+16 16", "+18 18")
NOT_FINISHED = "pöytäkirja loppuu ennen kuin peli päättyi; viimeiset kirjatut summat jäävät voimaan"


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_the_command_line_speaks_finnish(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text(BAD, encoding="utf-8")
    good = tmp_path / "good.gcg"
    good.write_text(GOOD, encoding="utf-8")

    code, out = _run("verify", "--lang", "fi", str(bad), str(good))

    assert code == 1
    assert out.splitlines() == [
        f"{bad}: 1 virhe (doug 32, emely 18)",
        "  rivi 4: virhe: wrong_score [emely]: GALE paikassa 7C tuottaa 16 pistettä, ei 18",
        f"  rivi 4: varoitus: not_finished: {NOT_FINISHED}",
        f"{good}: TARKISTETTU (doug 32, emely 16)",
        f"  rivi 4: varoitus: not_finished: {NOT_FINISHED}",
        "1/2 pöytäkirjaa tarkistettu, 1 virheellistä",
    ]


def test_the_command_lines_json_and_show_speak_the_language_asked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text(BAD, encoding="utf-8")

    _, out = _run("verify", "--json", "--lang", "fa", str(bad))
    (report,) = json.loads(out)
    assert [(f["code"], f["message"]) for f in report["findings"]] == [
        ("wrong_score", "GALE در 7C 16 امتیاز دارد، نه 18"),
        ("not_finished", "برگه پیش از پایان بازی تمام می‌شود؛ آخرین جمع‌های ثبت‌شده معتبر است"),
    ]

    _, shown = _run("show", "--lang", "ko", "--turn", "1", str(bad))
    assert shown.splitlines()[-3:] == [
        "3번 줄 이후: >doug: DINNVWY 8D WINDY +32 32",
        "doug (Doug Example): 기록 32, 계산 32",
        "emely (Emely Example): 기록 0, 계산 0",
    ]


def test_the_command_line_refuses_a_language_it_has_no_catalog_for(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "--lang", "de", "x.gcg"], out=io.StringIO())
    assert exit_.value.code == 2
    assert "--lang" in capsys.readouterr().err


def test_english_stays_the_default(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text(BAD, encoding="utf-8")
    finding = scoring.verify(BAD).findings[0]
    _, out = _run("verify", str(bad))
    assert f"  line 4: error: wrong_score [emely]: {finding.message}" in out.splitlines()
    assert finding.message == "GALE at 7C scores 16, not 18"
