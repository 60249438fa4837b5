"""Enrolment: every card of the box in turn, saved per tap, resumable, no reused UIDs."""

import pytest

from companion.enroll import Enrolment
from companion.registry import Card, Registry, RegistryError


def uid(n):
    return f"04AA{n:04X}000000"


@pytest.fixture
def path(tmp_path):
    return tmp_path / "tags.toml"


def start(path):
    registry = Registry.load(path) if path.exists() else Registry()
    return Enrolment(registry, lambda r: r.save(path))


def test_cards_are_asked_for_in_box_order_with_copy_numbers(path):
    e = start(path)
    assert len(e.wanted) == 41
    assert e.current.prompt == "H, 1 of 8"
    assert e.screen()["lines"][1] == "H, 1 of 8"
    assert e.screen()["title"] == "Enrol 1/41"
    for n in range(8):
        assert e.tap(uid(n))
    assert e.current.prompt == "CNOT, 1 of 7"
    assert e.message == "Saved: H, 8 of 8"
    assert Registry.load(path).cards("entanglion") == [Card("entanglion", "engine", "H")] * 8


def test_an_interrupted_enrolment_resumes_where_it_stopped(path):
    e = start(path)
    for n in range(10):
        e.tap(uid(n))
    again = start(path)  # power cut, new process
    assert again.current.prompt == "CNOT, 3 of 7"
    assert again.screen()["title"] == "Enrol 11/41"


def test_a_uid_already_used_is_refused(path):
    e = start(path)
    e.tap(uid(1))
    assert not e.tap(uid(1).lower())  # the same tag spelled differently
    assert e.message == "Tag already used: H"
    assert e.current.prompt == "H, 2 of 8"
    assert len(Registry.load(path)) == 1


def test_an_unreadable_uid_is_refused(path):
    e = start(path)
    assert not e.tap("zz")
    assert e.message == "Unreadable tag: tap again"


def test_skip_and_finish(path):
    e = start(path)
    e.skip()  # no tags on the H cards today
    assert e.current.prompt == "CNOT, 1 of 7"
    for n in range(33):
        assert e.tap(uid(n)), e.message
    assert e.current is None
    screen = e.screen()
    assert screen["title"] == "Enrolment done" and "skipped: H" in screen["lines"][0]
    assert not e.tap(uid(99))
    assert len(Registry.load(path)) == 33


def test_a_failed_save_keeps_the_card_wanted(path):
    def broken(registry):
        raise RegistryError("disk full")

    e = Enrolment(Registry(), broken)
    assert not e.tap(uid(1))
    assert e.message == "Cannot save (see the log)"
    assert e.current.prompt == "H, 1 of 8" and len(e.registry) == 0


def test_tags_of_another_game_do_not_count(path):
    registry = Registry({uid(1): Card("qno", "card", "red_zero")})
    e = Enrolment(registry, lambda r: None)
    assert len(e.wanted) == 41
