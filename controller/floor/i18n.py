"""The floor screen's languages: page text, alert titles, messages, remedies and rule summaries (en, de).

Message catalogues live in controller/floor/locale/<lang>.json: `ui` (page text, `{name}` placeholders)
and, for every language but English, `codes` (title, remedy, summary per alert code). English code texts
come from their single source, controller.core.catalogue and controller.floor.rules.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from controller.core.catalogue import CATALOGUE
from controller.floor.rules import SUMMARIES

LANGS = ("en", "de")
LOCALE = Path(__file__).parent / "locale"
CODE_FIELDS = ("title", "remedy", "summary")


@functools.cache
def _load(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOCALE / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def ui(lang: str) -> dict[str, str]:
    """Page text of a language; a key missing there falls back to English (the test forbids that)."""
    out = dict(_load("en")["ui"])
    if lang != "en":
        out.update(_load(lang)["ui"])
    return out


def codes(lang: str) -> dict[str, dict[str, str]]:
    """Per alert code: severity, rule reference, and title, remedy and summary in that language."""
    local = _load(lang).get("codes", {}) if lang != "en" else {}
    out = {}
    for code, e in CATALOGUE.items():
        en = {"title": e.title, "remedy": e.remedy, "summary": SUMMARIES.get(code, "")}
        out[code] = {"code": code, "severity": e.severity, "rule": e.rule, **en, **local.get(code, {})}
    return out


def bundle(lang: str) -> dict[str, Any]:
    """Everything the page needs to speak `lang` (one request at page load)."""
    lang = lang if lang in LANGS else "en"
    return {"lang": lang, "ui": ui(lang), "codes": codes(lang)}


@functools.cache
def bundle_json(lang: str) -> str:
    """The bundle as compact JSON, built once per language (the page embeds it)."""
    return json.dumps(bundle(lang), ensure_ascii=False, separators=(",", ":"))


def page_values(lang: str) -> dict[str, str]:
    """Template placeholders `{{t.key}}` for the server-rendered page text."""
    return {f"t.{k}": v for k, v in ui(lang if lang in LANGS else "en").items()}
