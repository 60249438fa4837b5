"""Presence debouncing with a made-up clock: flicker, removal, swaps."""

from hypothesis import given
from hypothesis import strategies as st

from presence import Presence

A, B = "04A1B2C3D4E580", "DEADBEEF"


def feed(presence, reads):
    """``reads``: (time ms, uid or None) pairs; all the edges, with their times."""
    edges = []
    for now, uid in reads:
        edges += [(now, tag, on) for tag, on in presence.update(uid, now)]
    return edges


def test_first_read_is_one_on():
    assert feed(Presence(500), [(0, A), (30, A), (60, A)]) == [(0, A, True)]


def test_flicker_shorter_than_gone_after_is_not_reported():
    reads = [(t, A if (t // 30) % 3 else None) for t in range(0, 3000, 30)]
    reads += [(3000, None), (3200, None), (3430, None), (3435, A)]  # last seen at 2940: 495 ms
    assert feed(Presence(500), reads) == [(30, A, True)]


def test_removal_gives_one_off_after_gone_after():
    p = Presence(500)
    edges = feed(p, [(0, A), (100, A)] + [(t, None) for t in range(130, 2000, 30)])
    assert edges == [(0, A, True), (610, A, False)]  # first poll at least 500 ms after 100
    assert p.uid is None


def test_swap_is_off_then_on():
    assert feed(Presence(500), [(0, A), (30, B)]) == [(0, A, True), (30, A, False), (30, B, True)]


def test_back_after_off_is_a_new_on():
    edges = feed(Presence(500), [(0, A), (600, None), (700, A)])
    assert edges == [(0, A, True), (600, A, False), (700, A, True)]


reads = st.lists(st.tuples(st.integers(0, 400), st.sampled_from([None, None, A, B])), max_size=80)


@given(reads)
def test_edges_are_always_well_formed(steps):
    p = Presence(500)
    now, on, last_seen, edges = 0, None, None, []
    for gap, uid in steps:
        now += gap
        for tag, is_on in p.update(uid, now):
            edges.append((now, tag, is_on))
            if is_on:
                assert on is None and tag == uid  # ON only for what was just read
                on = tag
            else:
                assert on == tag  # OFF only for what was on
                if uid is None:
                    assert now - last_seen >= 500  # never early
                on = None
        if uid is not None:
            last_seen = now
        assert p.uid == on
