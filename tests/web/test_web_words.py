"""The page's drawings speak the box's language: the board's detection track and the
history charts' option names and values (as the setup screens word them)."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.web import svg

HISTORY = {"turns": [{"id": 1, "game": "entanglion", "turns": 9, "status": "won"},
                     {"id": 2, "game": "qno", "turns": 30, "status": "won"}],
           "win_rate": {"difficulty": {"start space 1": {"won": 1, "played": 2, "rate": .5}},
                        "deck": {"virtual": {"won": 1, "played": 1, "rate": 1.0}}}}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _words(svgs: list[str]) -> str:
    return " ".join(w for s in svgs for w in re.findall(r">([^<]+)<", s))


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_history_charts_name_options_as_the_setup_screens_do(code):
    i18n.set_language(code)
    own = i18n.for_catalog("entanglion")[0]
    words = _words(svg.history_plots(HISTORY))
    for english in ("Difficulty", "Cards", "Easy: track at 1", "Box deals (virtual)"):
        assert own(english) in words
        assert own(english) != english or code == "pl"  # Polish keeps some names
    assert "difficulty" not in words and "virtual (" not in words
    assert "QNO" in words and "entanglion" not in words  # series by the game's title


def test_the_detection_track_is_in_the_language():
    i18n.set_language("cs")
    assert _words(svg._track({"space": 1}, 0)).startswith(i18n._("Detection"))
    assert i18n._("Detection") != "Detection"
