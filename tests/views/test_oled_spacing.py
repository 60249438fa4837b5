"""No text line touches another line or a bar, on any screen of random games, in any
language.

A Polish or Czech mark sits in the row above its letter's cell; with lines too close it
lands directly under the line above (or on a highlight bar) and reads as part of it.
Every distinct screen the session shows in a few random games of each game is drawn
inside ``font.drawn``, which records the pixels of each line of text and each bar.
Then:

* a line drawn white must have no pixel of another line or of a bar among the eight
  neighbours of any of its pixels (one blank pixel all round);
* a line drawn black (on a bar) must lie wholly on bars: a pixel off its bar is black
  on black, a mark that vanished.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.session import Session, SessionConfig
from companion.views import font, oled

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_no_cut_text import REG, MemoryJournal, event, options_for, screens  # noqa: E402

GAMES = int(os.environ.get("SPACINGGAMES", 12 if os.environ.get("COMPANION_LONG") == "1" else 2))
NEAR = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def touching(drawn: list[font.Drawn]) -> list[str]:
    """What is wrong with the lines and bars of one screen, in words."""
    lines = [(text, fill, pixels) for kind, text, fill, pixels in drawn if kind == "text"]
    bars = frozenset().union(*(pixels for kind, _, _, pixels in drawn if kind == "bar"))
    found = []
    for i, (text, fill, pixels) in enumerate(lines):
        if fill == 0:
            if pixels - bars:
                found.append(f"{text!r} drawn black off its bar at {sorted(pixels - bars)[:3]}")
            continue
        halo = {(x + dx, y + dy) for x, y in pixels for dx, dy in NEAR} - pixels
        if halo & bars:
            found.append(f"{text!r} touches a bar at {sorted(halo & bars)[:3]}")
        for j, (other, other_fill, other_pixels) in enumerate(lines):
            if j != i and other_fill and halo & other_pixels:
                found.append(f"{text!r} touches {other!r} at {sorted(halo & other_pixels)[:3]}")
    return found


def check(model: dict[str, Any]) -> list[str]:
    with font.drawn() as drawn:
        oled.render(model)
    return touching(drawn)


def test_the_check_sees_a_mark_under_a_line_and_a_mark_lost_off_a_bar():
    image = Image.new("1", (oled.WIDTH, oled.HEIGHT))
    with font.drawn() as drawn:
        font.draw_text(image, (0, 10), "Hello")
        font.draw_text(image, (0, 18), "Šťáva")  # 8 px lower: its carons touch "Hello"
    assert any("'Šťáva' touches 'Hello'" in x for x in touching(drawn))
    with font.drawn() as drawn:
        font.draw_text(image, (0, 10), "Hello")
        font.draw_text(image, (0, 19), "Šťáva")  # 9 px: a blank row between
    assert touching(drawn) == []
    with font.drawn() as drawn:
        font.bar(image, (0, 20, 60, 27))
        font.draw_text(image, (1, 20), "Ź", fill=0)  # the acute on row 19, off the bar
        font.draw_text(image, (0, 29), "x")  # under the bar's bottom row, a row apart
    assert [x for x in touching(drawn) if "off its bar" in x]
    assert not [x for x in touching(drawn) if "'x'" in x]
    with font.drawn() as drawn:
        font.bar(image, (0, 20, 60, 27))
        font.draw_text(image, (0, 29), "Ě")  # its caron on row 28, under the bar
    assert [x for x in touching(drawn) if "touches a bar" in x]


@pytest.mark.parametrize("speaking", list(i18n.LANGUAGES), indirect=True)
@pytest.mark.parametrize("game", ["entanglion", "qno", "qlanet"])
def test_no_line_touches_another_line_or_a_bar(game, speaking):
    seen: set[str] = set()
    found: list[tuple[str, str]] = []
    for i in range(GAMES):
        session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}), seed_source=lambda: i)
        player = AutoPlayer(i, taps=bool(i % 2), game=game, options=options_for(game, i))
        shown = []
        for _step in range(20000):
            command = player.next_command(session)
            if command is None:
                break
            session.handle(event(command, game))
            shown += screens(session)
        for _page in range(8):  # every page of the story at the end
            session.handle(event("press down", game))
            shown.append(session.screen())
        for model in shown:
            key = json.dumps(model, sort_keys=True, default=str)
            if key not in seen:
                seen.add(key)
                found += [(problem, model["screen"]) for problem in check(model)]
    kinds = sorted({(problem.split(" at ")[0], screen) for problem, screen in found})
    assert not found, f"{len(found)} touches: {kinds}"
    assert len(seen) > 20 * GAMES  # the games were varied enough to be worth checking
