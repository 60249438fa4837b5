"""Layouts that leave the panel alone where nothing changed (the OLED sends only the
changed columns of changed pages): a rolling die changes only its face, and the
screens of one turn of a real game keep the same title bar, pixel for pixel."""

from __future__ import annotations

from bench.harness import command_event
from companion.autoplay import AutoPlayer
from companion.box import Box
from companion.hardware.display import dummy_display
from companion.hardware.leds import RecordingLeds
from companion.hardware.pages import changed_spans, pages_of
from companion.inputs import Tick
from companion.journal import Journal
from companion.registry import sim_registry
from companion.session import Session
from companion.views import oled

ROLL = {"screen": "roll", "player": "Rubicon", "die": "d8", "purpose": "Orbital defence",
        "value": 4, "modifier": 1, "modified": 5, "beat": 2, "need": 2, "result": "evaded"}


def test_a_rolling_die_changes_only_its_face():
    for bar in ({}, {"bar": {"turn": "Rubicon", "number": 7}}):
        steps = [pages_of(oled.render({**ROLL, **bar, "frame": f})) for f in range(6)]
        for before, after in zip(steps, steps[1:]):
            spans = changed_spans(before, after)
            assert spans, "the face did not tumble"
            assert all(oled._DIE_X < first and last < oled._DIE_X + 33
                       for _, first, last in spans), spans
            assert len({page for page, _, _ in spans}) <= 3  # 21 rows of face: 3 pages


def _bar_of(model):
    if model["screen"] == "status":
        return {"turn": model["turn"], "number": model["number"]}
    return model.get("bar")


def test_the_screens_of_a_turn_keep_the_title_bar(tmp_path):
    registry = sim_registry()
    box = Box(Session(Journal(tmp_path / "journal.db"), registry, seed_source=lambda: 5),
              dummy_display(), RecordingLeds())
    player = AutoPlayer(5)
    kept = barred = 0
    previous = None
    for _ in range(400):
        command = player.next_command(box.session)
        if command is None:
            break
        box.handle(command_event(registry, command))
        while box.tick_interval() is not None and box.session.screen()["screen"] == "roll":
            box.handle(Tick())
        model = box.session.screen()
        bar = _bar_of(model)
        barred += bar is not None
        page0 = pages_of(oled.render(model))[0]
        if previous is not None and bar is not None and bar == previous[0]:
            assert page0 == previous[1], (model.get("title"), bar)
            kept += 1
        previous = (bar, page0)
    assert kept > 50 and barred > 80, (kept, barred)  # a whole game, not a few screens
