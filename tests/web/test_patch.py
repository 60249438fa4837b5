"""Patches between snapshots: what a page is sent instead of the whole snapshot."""

from __future__ import annotations

import json

import pytest

from companion.autoplay import AutoPlayer
from companion.web import patch, snapshot
from web_rig import make_sim


@pytest.mark.parametrize("old,new", [
    ({"a": 1, "b": None}, {"a": 1, "b": 2}),
    ({"a": 1, "b": 2}, {"a": 1, "b": None}),  # None is a value, not a deletion
    ({"a": 1, "gone": [1]}, {"a": 1}),
    ({"a": 1}, {"a": 1, "new": {"x": [1, 2]}}),
    ({"log": ["a", "b", "c"]}, {"log": ["b", "c", "d"]}),  # a window moving on
    ({"log": ["a", "b"]}, {"log": ["a", "b", "c", "d"]}),
    ({"log": ["a", "b", "c"]}, {"log": []}),
    ({"log": []}, {"log": ["a"]}),
    ({"xs": [1, 2, 3, 4, 5, 6]}, {"xs": [1, 2, 9, 4, 5, 6]}),  # one item changed
    ({"xs": [1, 2, 3]}, {"xs": [3, 2, 1, 0]}),
    ({"s": {"t": {"u": 1, "v": 2}}}, {"s": {"t": {"u": 1, "v": 3}}}),
    ({"s": {"t": 1}}, {"s": [1]}),  # a change of type is a new value
    ({"s": "text"}, {"s": {"t": 1}}),
])
def test_a_patch_takes_the_old_snapshot_to_the_new_one(old, new):
    change = patch.diff(old, new)
    assert change is not None
    json.dumps(change)  # what goes on the wire
    assert patch.apply(old, change) == new
    assert patch.diff(new, new) is None


def test_each_patch_of_a_whole_game_rebuilds_its_snapshot_and_is_smaller(tmp_path):
    sim = make_sim(tmp_path, seed=5)
    player = AutoPlayer(5)
    def build():  # as the server holds it: JSON (tuples are lists there)
        return json.loads(json.dumps(snapshot.build(sim.box.session)))

    page = before = build()
    sizes = []
    for _ in range(400):
        command = player.next_command(sim.box.session)
        if command is None:
            break
        sim.run(command)
        after = build()
        change = patch.diff(before, after)
        if change is not None:
            sizes.append((len(json.dumps(change)), len(json.dumps(after))))
            page = patch.apply(page, json.loads(json.dumps(change)))
        assert page == after
        before = after
    assert len(sizes) > 100
    assert sum(p for p, _ in sizes) < sum(w for _, w in sizes) / 3
