"""The floor speaks English and German: every alert code and every page text in both message catalogues."""

from __future__ import annotations

import json
import re

import pytest

from controller.core.catalogue import CATALOGUE
from controller.floor import i18n

SECTION = re.compile(
    r"\d{3} ?§\d+(?:\.\d+)?(?:–\d+(?:\.\d+)?)?(?:\(\d+[a-z]?(?:–\d+[a-z]?)?\))?"
    r"|\d{3} \(\d+(?:–\d+)?\)|§\d+(?:\(\d+\))?"
)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_alert_code_has_title_remedy_and_summary(lang: str) -> None:
    codes = i18n.codes(lang)
    assert set(codes) == set(CATALOGUE)
    for code, entry in codes.items():
        for field in i18n.CODE_FIELDS:
            assert entry[field].strip(), f"{lang}: {code}.{field} is empty"


def test_german_is_german_and_cites_the_same_sections() -> None:
    en, de = i18n.codes("en"), i18n.codes("de")
    for code in CATALOGUE:
        assert de[code]["title"] != en[code]["title"], f"{code}: German title is the English one"
        assert de[code]["summary"] != en[code]["summary"], code
        # The summary says the rule in other words, never with other references.
        assert sorted(SECTION.findall(de[code]["summary"])) == sorted(SECTION.findall(en[code]["summary"])), (
            code
        )


def test_page_texts_exist_in_both_languages_with_the_same_placeholders() -> None:
    en = json.loads((i18n.LOCALE / "en.json").read_text(encoding="utf-8"))["ui"]
    de = json.loads((i18n.LOCALE / "de.json").read_text(encoding="utf-8"))["ui"]
    assert set(en) == set(de), sorted(set(en) ^ set(de))
    for k in en:
        assert set(PLACEHOLDER.findall(en[k])) == set(PLACEHOLDER.findall(de[k])), k


def test_every_text_the_pages_use_is_in_the_catalogue() -> None:
    """T("key") in the scripts and {{t.key}} in the templates: no page text outside the catalogue."""
    keys = set(i18n.ui("en"))
    root = i18n.LOCALE.parent
    used = set()
    for js in (root / "static").glob("*.js"):
        used |= set(re.findall(r'\bT\("(\w+)"\s*[,)]', js.read_text(encoding="utf-8")))
    for html in (root / "templates").glob("*.html"):
        used |= set(re.findall(r"\{\{t\.(\w+)\}\}", html.read_text(encoding="utf-8")))
    assert used and used <= keys, sorted(used - keys)


def test_unknown_language_falls_back_to_english() -> None:
    assert i18n.bundle("fr")["lang"] == "en"
