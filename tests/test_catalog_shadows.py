"""No catalog hides another's translation.

On the box each area of the code asks its own catalog and no other (``i18n.for_catalog``),
so the same English in two games may read differently. The page is the one place that
asks two catalogs for one word: the game on show first, then the page's own (core).
So a message held by core and by a game must read the same in both, or one of them
would never be shown; everything else may differ.
"""

from __future__ import annotations

import pytest

from companion import catalogs, i18n

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
# Catalogs that can both answer one lookup: (the one asked first, the fallback).
CHAINED = [(game, "core") for game in catalogs.WEB_CATALOGS if game != "core"]


def _messages(code: str, name: str) -> dict[tuple[str | None, str], tuple[str, ...]]:
    out = {}
    for m in catalogs._read_po(catalogs.po_path(code, name), locale=code):
        if m.id:
            key = m.id if isinstance(m.id, str) else m.id[0]
            out[(m.context, key)] = (m.string,) if isinstance(m.string, str) else tuple(m.string)
    return out


def shadows(first: dict, then: dict) -> list[str]:
    """The messages both catalogs hold with different translations."""
    return [f"{key[1]!r}: {first[key]} / {then[key]}"
            for key in sorted(first.keys() & then.keys(), key=str) if first[key] != then[key]]


def test_the_domains_are_the_catalogs():
    assert tuple(catalogs.CATALOGS) == i18n.CATALOGS


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("first,then", CHAINED)
def test_no_message_reads_differently_in_two_catalogs_that_both_answer_it(code, first, then):
    found = shadows(_messages(code, first), _messages(code, then))
    assert not found, f"{code}: {first} and {then} disagree on " + "; ".join(found)


def test_the_shadow_check_can_fail():
    assert shadows({(None, "Start"): ("Začátek",)}, {(None, "Start"): ("Start",)}) == [
        "'Start': ('Začátek',) / ('Start',)"]
    assert shadows({(None, "Start"): ("Začátek",)}, {("qno", "Start"): ("Start",)}) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_page_catalog_keeps_the_games_apart(code):
    page = catalogs.web_catalog(code)
    assert set(page) == {"", *catalogs.WEB_CATALOGS}
    assert set(page[""]["plural"].values()) == set(range({"ja": 1}.get(code, 3)))
    qno, entanglion = _messages(code, "qno"), _messages(code, "entanglion")
    for key in qno.keys() & entanglion.keys():  # each game's own words, as the box shows them
        on_page = f"{key[0]}\x04{key[1]}" if key[0] else key[1]  # as gettext keys a context
        assert page["qno"][on_page] in (qno[key][0], list(qno[key]))
        assert page["entanglion"][on_page] in (entanglion[key][0], list(entanglion[key]))


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_page_catalog_is_current(code):
    assert catalogs.web_catalog_path(code).read_text(encoding="utf-8") == \
        catalogs.dumps_web_catalog(code)
