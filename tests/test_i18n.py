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


def _two_catalogs(tmp_path, monkeypatch, core: bytes, qno: bytes) -> None:
    folder = tmp_path / "companion" / "locale" / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "core.mo").write_bytes(core)
    (folder / "qno.mo").write_bytes(qno)
    monkeypatch.setattr(i18n, "locale_root", lambda: tmp_path / "companion" / "locale")
    i18n.set_language("en")  # the patched folder is read at the next change


HEADER = {"": "Content-Type: text/plain; charset=UTF-8\n"}


def test_each_area_asks_its_own_catalog_and_no_other(tmp_path, monkeypatch):
    """The same English word reads as each catalog says: no catalog shadows another."""
    _two_catalogs(tmp_path, monkeypatch, _mo({**HEADER, "Start": "Start", "Undo": "Cofnij"}),
                  _mo({**HEADER, "Start": "Początek", "Roll": "Rzut"}))
    i18n.set_language("pl")
    qno = i18n.for_catalog("qno")[0]
    assert (i18n._("Start"), qno("Start")) == ("Start", "Początek")
    assert (i18n._("Undo"), qno("Undo")) == ("Cofnij", "Undo")
    assert (i18n._("Roll"), qno("Roll")) == ("Roll", "Rzut")
    assert i18n._("Not translated") == "Not translated"
    assert i18n.broken() == []
    with pytest.raises(ValueError):
        i18n.for_catalog("nonsense")


def test_a_damaged_catalog_speaks_english_and_says_so_once(tmp_path, monkeypatch, caplog):
    good = _mo({**HEADER, "Start": "Początek"})
    bad = bytearray(_mo({**HEADER, "Undo": "Cofnij"}))
    bad[0] ^= 0x01  # the magic number
    _two_catalogs(tmp_path, monkeypatch, bytes(bad), good)
    with caplog.at_level("ERROR", logger="companion.i18n"):
        i18n.set_language("pl")
    assert i18n.language() == "pl"
    assert i18n.broken() == ["core"]
    assert i18n._("Undo") == "Undo"  # English, not a crash
    assert i18n.for_catalog("qno")[0]("Start") == "Początek"  # the others still speak
    lines = [r for r in caplog.records if r.name == "companion.i18n"]
    assert len(lines) == 1 and "pl/core.mo" in lines[0].getMessage()


def test_mo_helper_matches_gettext():
    translations = gettext.GNUTranslations(io.BytesIO(_mo({"a": "b"})))
    assert translations.gettext("a") == "b"
