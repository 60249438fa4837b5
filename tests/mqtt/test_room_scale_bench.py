"""bench/room_scale.py stays runnable (three boxes, a game each, a real Mosquitto and
``companion room``), and fails when what it claims to measure did not happen."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from broker import missing

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "room_scale.py"
_spec = importlib.util.spec_from_file_location("room_scale", BENCH)
room_scale = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(room_scale)


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_three_boxes_play_a_game_each_and_every_figure_is_printed():
    done = subprocess.run(
        [sys.executable, str(BENCH), "--boxes", "3", "--per-process", "2", "--pace", "0",
         "--seconds", "0", "--games", "1"], capture_output=True, text=True, timeout=120)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert re.search(r"^3 boxes, \d+ presses and taps", out, re.M), out
    assert re.search(r"input on a box -> the room page, [1-9]\d* turns: median \d+ ms, "
                     r"p99 \d+ ms", out), out
    assert re.search(r"broker: [\d.]+ s CPU", out) and re.search(r"room: [\d.]+ s CPU", out)
    assert re.search(r"boxes: [\d.]+ ms CPU per press or tap", out), out
    assert re.search(r"bytes a table publishes per \w+ game", out), out
    kept, expected = map(int, re.search(r"records kept by the room / expected: (\d+)/(\d+)",
                                        out).groups())
    assert kept == expected >= 3  # each box finished a game


class FakeSeen(room_scale.Shown):
    pass


def tables(*samples):
    return {"t0000": {"samples": [list(s) for s in samples]}}


def test_a_turn_overtaken_by_the_menu_after_its_game_arrives_with_the_menu():
    seen = FakeSeen()
    seen.add("t0000", {"mode": "game", "game_id": 1, "turn": {"number": 1}}, 10.0)
    seen.add("t0000", {"mode": "menu", "game_id": None}, 10.5)  # turn 2 never sent alone
    got = room_scale.caught_up(seen, tables((1, 1, 9.9), (1, 2, 10.2)), "the page", -1)
    assert [round(x, 3) for x in got] == [0.1, 0.3]


def test_a_turn_that_never_reaches_the_page_fails_the_bench():
    seen = FakeSeen()
    seen.add("t0000", {"mode": "game", "game_id": 2, "turn": {"number": 3}}, 10.0)
    with pytest.raises(AssertionError, match="1 tables' last turns never reached the page"):
        room_scale.caught_up(seen, tables((2, 3, 9.0), (2, 4, 9.5)), "the page", -1)
    with pytest.raises(AssertionError, match="never reached"):  # a table the page never saw
        room_scale.caught_up(FakeSeen(), tables((1, 1, 9.0)), "the page", -1)


def test_turns_shown_out_of_order_fail_the_bench():
    seen = FakeSeen()
    for number in (2, 1, 3):
        seen.add("t0000", {"mode": "game", "game_id": 1, "turn": {"number": number}}, 10.0)
    with pytest.raises(AssertionError, match="out of order"):
        room_scale.caught_up(seen, tables((1, 3, 9.0)), "the page", -1)


class FakePage:
    def __init__(self, kept, shown):
        self.kept, self.records_shown = kept, shown

    def records(self):
        return set(self.kept)


class FakeMeter:
    def __init__(self, copies):
        import threading

        self.lock, self.copies = threading.Lock(), copies


def finished(*games):
    return {"t0001": {"games": [[g, 0.0, "qno"] for g in games]}}


def test_records_lost_stray_or_miscounted_fail_the_bench(monkeypatch):
    monkeypatch.setattr(room_scale.time, "sleep", lambda s: None)
    monkeypatch.setattr(room_scale.time, "monotonic", iter(range(0, 10 ** 6, 40)).__next__)
    key = (room_scale.ROOM, "t0001", "4")
    ok = room_scale.check_records(FakePage([key], 1), FakeMeter({key: 2}), finished(4))
    assert ok == {"expected": 1, "kept": 1, "duplicates": 1}
    with pytest.raises(AssertionError, match="1 of 2 records never reached the room"):
        room_scale.check_records(FakePage([key], 1), FakeMeter({}), finished(4, 5))
    with pytest.raises(AssertionError, match="games no box finished"):
        room_scale.check_records(FakePage([key, (room_scale.ROOM, "t0001", "9")], 2),
                                 FakeMeter({}), finished(4))
    with pytest.raises(AssertionError, match="the room page counts 0 records of 1"):
        room_scale.check_records(FakePage([key], 0), FakeMeter({}), finished(4))
