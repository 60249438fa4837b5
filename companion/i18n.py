"""Player-facing text in the table's language, through the standard library's gettext.

Every string a player reads goes through ``_`` (or ``ngettext`` where a count
changes the wording: Polish and Czech have three plural forms, Japanese one).
Strings defined before a language is known (module-level menu labels, tables) are
marked with ``N_`` and translated where they are shown.

Catalogs live in ``companion/locale/<code>/LC_MESSAGES/`` as ``.po`` sources with
their compiled ``.mo`` beside them. A language may have several catalogs (one per
area of the code, so they can be kept apart); all of them are chained. Only the
chosen language is ever loaded. English is the source language and needs none.

Operator messages (logs, config errors, ``doctor``) stay in English and do not
pass through here.
"""

from __future__ import annotations

import gettext
from importlib import resources

LANGUAGES: dict[str, str] = {
    "en": "English",
    "pl": "Polski",
    "cs": "\u010ce\u0161tina",
    "ja": "\u65e5\u672c\u8a9e",
}
"""Shipped languages: code -> the language's own name (how a settings menu lists it)."""

DEFAULT = "en"


class UnknownLanguage(ValueError):
    """A language code the box does not ship."""

    def __init__(self, code: object) -> None:
        known = ", ".join(LANGUAGES)
        super().__init__(f"unknown language {code!r}; choose one of: {known}")
        self.code = code


_current_code = DEFAULT
_current: gettext.NullTranslations = gettext.NullTranslations()


def _load(code: str) -> gettext.NullTranslations:
    """Every compiled catalog of one language, chained (none for English)."""
    folder = resources.files("companion") / "locale" / code / "LC_MESSAGES"
    chain: gettext.NullTranslations = gettext.NullTranslations()
    if code == DEFAULT or not folder.is_dir():
        return chain
    catalogs = sorted((f for f in folder.iterdir() if f.name.endswith(".mo")),
                      key=lambda f: f.name)
    for mo in reversed(catalogs):
        with mo.open("rb") as stream:
            translations = gettext.GNUTranslations(stream)
        translations.add_fallback(chain)
        chain = translations
    return chain


def set_language(code: str) -> None:
    """Speak ``code`` from now on. Raises ``UnknownLanguage`` for a code not shipped."""
    global _current, _current_code
    if code not in LANGUAGES:
        raise UnknownLanguage(code)
    if code != _current_code:
        _current = _load(code)
        _current_code = code


def language() -> str:
    """The code of the language in use."""
    return _current_code


def _(message: str) -> str:
    """``message`` in the current language (itself where no translation exists).

    The empty string stays empty (gettext would answer it with the catalog's header)."""
    return _current.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase that ``n`` needs in the current language."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` where the same English word needs different translations by context."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it yet."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` with a context (see ``pgettext``) without translating it yet."""
    return message
