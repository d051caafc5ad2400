"""The interface's catalogs (locale/<lang>/LC_MESSAGES/django.po) are complete, keep every
placeholder, declare their plural forms, and the committed .mo files say exactly what the .po
files say (`make messages` compiles them; a fresh machine needs no gettext tools)."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from django.conf import settings
from po_support import Entry, parse, placeholders

LOCALE = Path(settings.BASE_DIR) / "locale"
OTHERS = [code for code, _name in settings.LANGUAGES if code != "en"]
# As Django's own catalogs say them: Indonesian and Korean have one form, Finnish two
# (1, other), Persian two (0 and 1, other), as in django/conf/locale/fa.
PLURAL_FORMS = {
    "id": "nplurals=1; plural=0;",
    "ko": "nplurals=1; plural=0;",
    "fi": "nplurals=2; plural=(n != 1);",
    "fa": "nplurals=2; plural=(n > 1);",
}


def entries(language: str) -> list[Entry]:
    return parse(LOCALE / language / "LC_MESSAGES" / "django.po")


def header(language: str) -> dict[str, str]:
    first = entries(language)[0]
    assert first.msgid == ""
    lines = [line.partition(":") for line in first.msgstr[0].splitlines() if line]
    return {key.strip(): value.strip() for key, _, value in lines}


@pytest.mark.parametrize("language", OTHERS)
def test_the_catalog_declares_its_language_and_plural_forms(language: str) -> None:
    found = header(language)
    assert found["Language"] == language
    assert found["Plural-Forms"] == PLURAL_FORMS[language]
    assert found["Content-Type"] == "text/plain; charset=UTF-8"
    assert "fuzzy" not in entries(language)[0].flags


@pytest.mark.parametrize("language", OTHERS)
def test_every_message_is_translated_none_fuzzy_every_placeholder_kept(language: str) -> None:
    nplurals = int(header(language)["Plural-Forms"].split(";")[0].split("=")[1])
    problems = []
    messages = entries(language)[1:]
    assert len(messages) > 800
    for entry in messages:
        where = (entry.msgctxt, entry.msgid)
        if "fuzzy" in entry.flags:
            problems.append(("fuzzy", where))
        if entry.msgid_plural is not None:
            if len(entry.msgstr) != nplurals:
                problems.append(("plural forms", where))
            wanted = [entry.msgid] + [entry.msgid_plural] * (len(entry.msgstr) - 1)
        else:
            wanted = [entry.msgid]
        for source, text in zip(wanted, entry.msgstr, strict=False):
            if not text.strip():
                problems.append(("untranslated", where))
            elif "python-format" in entry.flags and placeholders(text) != placeholders(source):
                # The same named placeholders, each as often: python-format is checked here as
                # msgfmt --check-format does.
                problems.append(("placeholders", where, placeholders(text)))
            if text.strip() != text and source.strip() == source:
                problems.append(("spaces", where))
            if source.count("<") != text.count("<"):
                problems.append(("markup", where))
    assert problems == []


@pytest.mark.parametrize("language", OTHERS)
def test_the_compiled_catalog_is_in_step_with_its_po_file(language: str) -> None:
    po = entries(language)[1:]
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as mo_file:
        mo = gettext.GNUTranslations(mo_file)
    catalog = dict(mo._catalog)  # type: ignore[attr-defined]
    catalog.pop("", None)  # the header
    expected: dict[object, str] = {}
    for entry in po:
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            expected[msgid] = entry.msgstr[0]
        else:
            for n, text in enumerate(entry.msgstr):
                expected[(msgid, n)] = text
    assert catalog == expected, "run `make messages` and commit the .mo files"


def test_a_translation_is_used_by_the_pages() -> None:
    from django.utils import translation

    with translation.override("fa"):
        assert translation.gettext("Standings") == "جدول رده‌بندی"
        assert translation.pgettext("result", "win") == "برد"
    with translation.override("fi"):
        assert translation.ngettext("%(count)s player", "%(count)s players", 1) == (
            "%(count)s pelaaja"
        )
        assert translation.ngettext("%(count)s player", "%(count)s players", 3) == (
            "%(count)s pelaajaa"
        )
    with translation.override("ko"):
        assert translation.gettext("Standings") == "순위"
    with translation.override("id"):
        assert translation.gettext("Standings") == "Klasemen"


def test_persian_keeps_ascii_digits() -> None:
    """Scores, tables and coordinates are typed and read as ASCII digits in every language
    (docs/DESIGN.md, "Languages"): no Persian or Arabic digit in the Persian catalog."""
    foreign = set("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩")
    found = [e.msgid for e in entries("fa")[1:] if foreign & set("".join(e.msgstr))]
    assert found == []


def test_the_pairing_systems_descriptions_are_the_registry_s() -> None:
    """The desk translates the pairing engine's descriptions from its own copy of them
    (`tournament/pairing/systems.py`): in step with the registry, every one of them."""
    from django.utils import translation

    from tournament.engine.pairing.registry import REGISTRY
    from tournament.pairing import systems as pairing_systems

    assert {n: s.description for n, s in REGISTRY.items()} == pairing_systems.DESCRIPTIONS
    with translation.override("fi"):
        assert pairing_systems.description("koth").startswith("Kukkulan kuningas")
