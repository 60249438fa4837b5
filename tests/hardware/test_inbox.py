"""The inbox between device threads and the game thread: tags bounded and coalesced,
buttons and the stop request never behind a tag flood."""

import queue
import threading

import pytest

from companion.hardware.buttons import Edge
from companion.hardware.inbox import Inbox
from companion.hardware.link import LinkEvent, TagOff
from companion.inputs import Tag


def drain(inbox):
    out = []
    while not inbox.empty():
        out.append(inbox.get_nowait())
    return out


def test_repeated_tags_coalesce_and_order_is_kept():
    inbox = Inbox()
    for _ in range(1000):
        inbox.put(Tag(1, "04AA"))
    inbox.put(Tag(2, "04BB"))
    inbox.put(TagOff(1, "04AA"))
    inbox.put(Tag(1, "04AA"))  # still waiting: coalesced
    assert inbox.qsize() == 3 and inbox.coalesced == 1000
    assert drain(inbox) == [Tag(1, "04AA"), Tag(2, "04BB"), TagOff(1, "04AA")]
    inbox.put(Tag(1, "04AA"))  # taken already: a new tap
    assert drain(inbox) == [Tag(1, "04AA")]


def test_a_flood_of_different_tags_is_bounded_and_counted():
    inbox = Inbox(capacity=8)
    for n in range(100):
        inbox.put(Tag(1, f"04{n:04X}"))
    assert inbox.qsize() == 8 and inbox.dropped == 92
    assert drain(inbox) == [Tag(1, f"04{n:04X}") for n in range(8)]


def test_a_button_pressed_during_a_flood_is_next_but_one():
    inbox = Inbox()
    for n in range(20):
        inbox.put(Tag(1, f"04{n:04X}"))
    assert inbox.get_nowait() == Tag(1, "040000")
    edge, link = Edge("OK", True, 1.0), LinkEvent("down", "gone", "/dev/x")
    inbox.put(edge)
    inbox.put(link)
    assert inbox.get_nowait() == Tag(1, "040001")  # the tag token was already ahead
    assert inbox.get_nowait() == edge and inbox.get_nowait() == link
    assert len(drain(inbox)) == 18


def test_get_waits_and_times_out_like_a_queue():
    inbox = Inbox()
    with pytest.raises(queue.Empty):
        inbox.get(timeout=0.01)
    threading.Timer(0.02, inbox.put, (Tag(3, "04CC"),)).start()
    assert inbox.get(timeout=5) == Tag(3, "04CC")


def test_many_threads_lose_nothing_but_duplicates():
    inbox = Inbox(capacity=10_000)

    def reader(pad):
        for n in range(500):
            inbox.put(Tag(pad, f"04{n:04X}"))
            inbox.put(Edge("OK", n % 2 == 0, float(n)))

    threads = [threading.Thread(target=reader, args=(pad,)) for pad in (1, 2, 3)]
    got = []
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads) or not inbox.empty():
        try:
            got.append(inbox.get(timeout=0.05))
        except queue.Empty:
            pass
    for t in threads:
        t.join()
    tags = [e for e in got if isinstance(e, Tag)]
    assert len(got) - len(tags) == 1500
    assert len(tags) == 1500 and inbox.coalesced == inbox.dropped == 0  # all different
