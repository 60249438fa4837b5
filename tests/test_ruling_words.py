"""Every ruling speaks the players' language: each game's RULINGS give a short name and
a short label per allowed value (the one place they are worded), and a game with
non-default rulings in Polish, Czech or Japanese shows no ``key=value`` and no English
ruling name in its story, the stats, or the page's win-rate charts."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.games.entanglion import story
from companion.games.entanglion.options import RULINGS as ENTANGLION
from companion.games.qlanet.options import RULINGS as QLANET
from companion.games.qno.options import RULINGS as QNO
from companion.games.rulings import Choice, label, say
from companion.web import stats, svg

from test_no_english import TEXT_IN_SVG, english_in

GAMES = {"entanglion": ENTANGLION, "qno": QNO, "qlanet": QLANET}
SHORT = 22  # characters, in English: a chart's bar label and one item of "Options:"


def _rulings():
    return [(game, key, choice) for game, rulings in GAMES.items()
            for key, choice in rulings.items()]


@pytest.mark.parametrize("game,key,choice", _rulings())
def test_every_ruling_and_every_value_has_short_words(game, key, choice: Choice):
    name, labels = choice.words
    assert name and len(name) <= SHORT, f"{game} {key}: no short name"
    for value in choice.allowed:
        # a number is its own label; every other value (None, a bool, a word) has words
        if isinstance(value, int) and not isinstance(value, bool):
            continue
        text = label(choice, value)
        assert text and len(text) <= SHORT, f"{game} {key}={value!r}: no short label"
    # no words for a value the ruling does not allow (a renamed value left behind)
    assert all(any(v == a and type(v) is type(a) for a in choice.allowed) for v in labels), key


def _non_default(choice: Choice) -> list:
    return [v for v in choice.allowed if not (v == choice.default
                                              and type(v) is type(choice.default))]


def _story(options: dict) -> dict:
    return {"game": "entanglion", "status": "won", "reason": None, "turns": 12,
            "time": None, "start_space": 4, "options": options, "parts": 8,
            "retrieved": {}, "rolls": 5, "failed": 1, "detections": {}, "peak": 3,
            "lost_to": None, "closest": None}


@pytest.mark.parametrize("speaking", ["pl", "cs", "ja"], indirect=True)
def test_rulings_set_in_the_config_read_in_the_language(speaking):
    code = speaking
    found = []
    for game, rulings in GAMES.items():
        pgettext = i18n.for_catalog(game)[2]
        for key, choice in rulings.items():
            for value in choice.allowed:
                for text in say(choice, value, pgettext):
                    found += [(game, key, value, text)] if english_in(text, code) else []
    # Entanglion's story and stats, with every ruling at a non-default value
    variants = [{k: vs[i % len(vs)] for k, c in ENTANGLION.items()
                 if k != "start_space" and (vs := _non_default(c))} for i in range(2)]
    for options in variants:
        lines = story.text(_story(options)) + story.aggregate([_story(options)])
        options_line = next(line for line in lines if "=" not in line and
                            any(story._option(k, v) in line for k, v in options.items()))
        assert all(story._option(k, v) in options_line for k, v in options.items())
        found += [("story", line) for line in lines if "=" in line]
        found += [("story", line) for line in story.text(_story(options))
                  if english_in(line, code)]
    # the page's win-rate charts
    games = [{"id": i, "game": "entanglion", "status": "won" if i % 2 else "lost",
              "turns": 10, "options": {"start_space": 1, **options}}
             for i, options in enumerate(variants * 2)]
    charts = svg.history_plots(stats.history(games), options_shown=len(ENTANGLION))
    texts = [t for chart in charts for t in TEXT_IN_SVG.findall(chart)]
    assert len(charts) > len(ENTANGLION) // 2, "every ruling set gets a chart"
    found += [("chart", t) for t in texts if english_in(t, code) or "=" in t]
    assert not found, found


def test_the_check_can_fail():
    """What the story said before the words: the scan above catches both."""
    assert english_in("tunnel_timing=after_failure", "pl")
    assert english_in("Quantum Tunnel: after a failure", "cs")
