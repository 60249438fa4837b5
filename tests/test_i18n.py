"""The gettext core: language choice, chaining of catalogs, English as the source."""

from __future__ import annotations

import gettext
import io
import struct

import pytest

from companion import i18n


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def test_english_is_the_source_language():
    i18n.set_language("en")
    assert i18n.language() == "en"
    assert i18n._("Roll") == "Roll"
    assert i18n.ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert i18n.ngettext("{n} card", "{n} cards", 5) == "{n} cards"


@pytest.mark.parametrize("code", ["xx", "", "EN", None, "pl_PL"])
def test_unknown_language_names_the_shipped_ones(code):
    with pytest.raises(i18n.UnknownLanguage) as excinfo:
        i18n.set_language(code)
    message = str(excinfo.value)
    assert "unknown language" in message
    assert all(known in message for known in i18n.LANGUAGES)
    assert i18n.language() == "en"


def test_every_shipped_language_loads():
    for code in i18n.LANGUAGES:
        i18n.set_language(code)
        assert i18n.language() == code
        assert isinstance(i18n._("Roll"), str)


def _mo(entries: dict[str, str]) -> bytes:
    """A minimal compiled catalog (the GNU .mo layout) for the chaining test."""
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n
    offsets_ids, offsets_strs, pos = [], [], 0
    for k in keys:
        offsets_ids += [len(k.encode()), start + pos]
        pos += len(k.encode()) + 1
    for k in keys:
        offsets_strs += [len(entries[k].encode()), start + pos]
        pos += len(entries[k].encode()) + 1
    header = struct.pack("7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return header + struct.pack(f"{2 * n}I", *offsets_ids) + struct.pack(
        f"{2 * n}I", *offsets_strs) + ids + strs


def test_catalogs_of_one_language_are_chained(tmp_path, monkeypatch):
    folder = tmp_path / "companion" / "locale" / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "a.mo").write_bytes(_mo({"": "Content-Type: text/plain; charset=UTF-8\n",
                                        "Roll": "Rzut"}))
    (folder / "b.mo").write_bytes(_mo({"": "Content-Type: text/plain; charset=UTF-8\n",
                                        "Undo": "Cofnij"}))
    monkeypatch.setattr(i18n.resources, "files", lambda package: tmp_path / package)
    monkeypatch.setattr(i18n, "_current_code", "en")
    i18n.set_language("pl")
    assert i18n._("Roll") == "Rzut"
    assert i18n._("Undo") == "Cofnij"
    assert i18n._("Not translated") == "Not translated"


def test_mo_helper_matches_gettext():
    translations = gettext.GNUTranslations(io.BytesIO(_mo({"a": "b"})))
    assert translations.gettext("a") == "b"
