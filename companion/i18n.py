"""Player-facing text in the table's language, through the standard library's gettext.

Every string a player reads goes through ``_`` (or ``ngettext`` where a count
changes the wording: Polish and Czech have three plural forms, Japanese one).
Strings defined before a language is known (module-level menu labels, tables) are
marked with ``N_`` and translated where they are shown.

Catalogs live in ``companion/locale/<code>/LC_MESSAGES/`` as ``.po`` sources with
their compiled ``.mo`` beside them, one per area of the code (``CATALOGS``). Each
catalog is its own gettext domain: the code of one area asks its own catalog and no
other (``for_catalog``), so the same English word may read differently in two games
("Start" is QNO's "Začátek" and Entanglion's "Start" in Czech) and neither hides the
other. The module-level ``_``, ``ngettext`` and ``pgettext`` are the ``core`` catalog's.
Only the chosen language is ever loaded. English is the source language and needs none.

A catalog that cannot be read (a damaged or truncated ``.mo``) is left out: its area
speaks English, one log line says which file and why, and ``broken()`` lists it so
the box can tell the players. Choosing a language never fails on a bad file.

Operator messages (logs, config errors, ``doctor``) stay in English and do not
pass through here.
"""

from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Callable
from importlib import resources

log = logging.getLogger(__name__)

LANGUAGES: dict[str, str] = {
    "en": "English",
    "pl": "Polski",
    "cs": "\u010ce\u0161tina",
    "ja": "\u65e5\u672c\u8a9e",
}
"""Shipped languages: code -> the language's own name (how a settings menu lists it)."""

DEFAULT = "en"

CATALOGS = ("core", "entanglion", "qno", "qlanet", "printing")
"""The gettext domains, one per area of the code (``catalogs.CATALOGS`` maps each to
its folders)."""


class UnknownLanguage(ValueError):
    """A language code the box does not ship."""

    def __init__(self, code: object) -> None:
        known = ", ".join(LANGUAGES)
        super().__init__(f"unknown language {code!r}; choose one of: {known}")
        self.code = code


_NONE = gettext.NullTranslations()
_current_code = DEFAULT
_current: dict[str, gettext.NullTranslations] = {}
_broken: list[str] = []


def locale_root():
    """The folder of the shipped catalogs (a resources path)."""
    return resources.files("companion") / "locale"


def catalog_file(code: str, name: str):
    """The compiled catalog ``name`` of language ``code``."""
    return locale_root() / code / "LC_MESSAGES" / f"{name}.mo"


_FIELD = re.compile(r"\{([^{}]*)\}")


def read_catalog(path) -> gettext.GNUTranslations:
    """One compiled catalog, checked. Raises whatever a damaged file makes gettext raise
    (OSError 'Bad magic number', UnicodeDecodeError, struct.error, ...), and ValueError
    for damage gettext lets through but the box would trip over later: a plural rule
    that fails, a translation whose ``{fields}`` are not its English string's."""
    with path.open("rb") as stream:
        translations = gettext.GNUTranslations(stream)
    for n in (0, 1, 2, 5, 12, 22, 102):
        translations.ngettext("x", "xs", n)
    for key, text in translations._catalog.items():  # gettext keeps no public view
        english = key[0] if isinstance(key, tuple) else key
        if english and sorted(_FIELD.findall(english)) != sorted(_FIELD.findall(text)):
            raise ValueError(f"the translation of {english!r} has other fields: {text!r}")
    return translations


def _load(code: str) -> tuple[dict[str, gettext.NullTranslations], list[str]]:
    """Every readable catalog of one language by domain (none for English), and the
    names of those that could not be read."""
    loaded: dict[str, gettext.NullTranslations] = {}
    broken: list[str] = []
    if code == DEFAULT:
        return loaded, broken
    for name in CATALOGS:
        path = catalog_file(code, name)
        try:
            if not path.is_file():
                continue
            loaded[name] = read_catalog(path)
        except Exception as exc:  # noqa: BLE001 - any damage means: speak English here
            log.error("translation catalog %s/%s.mo cannot be read (%s: %s); "
                      "its strings stay English", code, name, type(exc).__name__, exc)
            broken.append(name)
    return loaded, broken


def set_language(code: str) -> None:
    """Speak ``code`` from now on. Raises ``UnknownLanguage`` for a code not shipped;
    never fails on a damaged catalog (see ``broken``)."""
    global _current, _current_code, _broken
    if code not in LANGUAGES:
        raise UnknownLanguage(code)
    if code != _current_code:
        _current, _broken = _load(code)
        _current_code = code


def language() -> str:
    """The code of the language in use."""
    return _current_code


def broken() -> list[str]:
    """The catalogs of the language in use that could not be read (their areas speak
    English)."""
    return list(_broken)


def translations(name: str) -> gettext.NullTranslations:
    """The loaded catalog ``name`` of the language in use (an empty one when missing)."""
    return _current.get(name, _NONE)


def for_catalog(name: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str],
                                    Callable[[str, str], str]]:
    """``_``, ``ngettext`` and ``pgettext`` that ask catalog ``name`` only:
    ``_, ngettext, pgettext = for_catalog("qno")`` at the top of a game's module."""
    if name not in CATALOGS:
        raise ValueError(f"unknown catalog {name!r}")

    def gettext_(message: str) -> str:
        # The empty string stays empty (gettext would answer it with the header).
        return translations(name).gettext(message) if message else message

    def ngettext_(singular: str, plural: str, n: int) -> str:
        return translations(name).ngettext(singular, plural, n)

    def pgettext_(context: str, message: str) -> str:
        return translations(name).pgettext(context, message)

    return gettext_, ngettext_, pgettext_


_, ngettext, pgettext = for_catalog("core")
_.__doc__ = "``message`` in the current language, from the core catalog."


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it yet."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` with a context (see ``pgettext``) without translating it yet."""
    return message
