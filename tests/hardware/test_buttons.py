"""Buttons: the pure classifier with synthetic time, and gpiozero mock pins as edges."""

import queue

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.buttons import PEEK, Classifier, Edge, GpioButtons
from companion.inputs import BACK, DOWN, EXCHANGE, OK, UP, Hold, Press, Release


def classify(edges, classifier, until):
    """All events from a batch of edges and the time after them."""
    out = []
    for edge in edges:
        out += classifier.feed(edge)
    return out + classifier.due(until)


def edges(button, *pairs):
    """(time, pressed) pairs -> edges."""
    return [Edge(button, pressed, t) for t, pressed in pairs]


def test_a_plain_button_presses_on_the_press_edge():
    c = Classifier()
    assert c.feed(Edge(OK, True, 1.0)) == [Press(OK)]
    assert c.feed(Edge(OK, False, 1.2)) == []


def test_back_short_is_a_press_on_release_and_long_is_one_hold():
    c = Classifier(hold_time=0.8)
    assert c.feed(Edge(BACK, True, 0.0)) == []
    assert c.feed(Edge(BACK, False, 0.3)) == [Press(BACK)]
    assert c.feed(Edge(BACK, True, 1.0)) == []
    assert c.deadline() == pytest.approx(1.8)
    assert c.due(1.79) == []
    assert c.due(1.8) == [Hold(BACK)]  # while still held: undo happens without letting go
    assert c.due(5.0) == []  # once
    assert c.feed(Edge(BACK, False, 6.0)) == []  # and the release is silent


def test_a_releasing_button_says_when_a_hold_ends():
    c = Classifier(hold_time=0.8, releasing=PEEK)
    assert c.feed(Edge(EXCHANGE, True, 0.0)) == []
    assert c.feed(Edge(EXCHANGE, False, 0.3)) == [Press(EXCHANGE)]  # short: a press
    assert c.feed(Edge(EXCHANGE, True, 1.0)) == []
    assert c.deadline() == pytest.approx(1.8)
    assert c.due(1.8) == [Hold(EXCHANGE)]  # the peek shows while it is held
    assert c.due(3.0) == []
    assert c.feed(Edge(EXCHANGE, False, 4.0)) == [Release(EXCHANGE)]  # and hides on let-go
    c.feed(Edge(EXCHANGE, True, 5.0))
    assert c.feed(Edge(EXCHANGE, False, 7.0)) == [Hold(EXCHANGE), Release(EXCHANGE)]
    bouncy = edges(EXCHANGE, (10.0, True), (10.8, True), (11.0, False), (11.01, True),
                   (11.02, False))
    assert classify(bouncy, c, until=12.0) == [Hold(EXCHANGE), Release(EXCHANGE)]
    # BACK keeps its silent release; the default classifier has no releasing button
    assert Classifier().feed(Edge(EXCHANGE, True, 0.0)) == [Press(EXCHANGE)]


def test_a_hold_noticed_only_at_release_still_counts_once():
    c = Classifier(hold_time=0.8)
    c.feed(Edge(BACK, True, 0.0))
    assert c.feed(Edge(BACK, False, 2.0)) == [Hold(BACK)]  # the loop never woke: still a hold
    assert c.due(3.0) == []


def test_bounces_on_press_and_release_give_one_press():
    c = Classifier(debounce=0.03)
    bouncy = edges(OK, (0.000, True), (0.002, False), (0.004, True), (0.007, False),
                   (0.009, True), (0.200, False), (0.202, True), (0.205, False))
    assert classify(bouncy, c, until=1.0) == [Press(OK)]


def test_a_tap_shorter_than_the_debounce_window_is_not_lost_or_stuck():
    c = Classifier(hold_time=0.8, debounce=0.03)
    out = classify(edges(BACK, (0.0, True), (0.01, False)), c, until=0.05)
    assert out == [Press(BACK)]
    assert c.deadline() is None  # settled: no hold will fire later
    assert c.due(10.0) == []


def test_the_level_settled_after_the_window_wins():
    c = Classifier(debounce=0.03)
    # Released inside the window, pressed again inside it: still pressed, one press.
    out = classify(edges(UP, (0.0, True), (0.01, False), (0.02, True)), c, until=0.5)
    assert out == [Press(UP)]
    assert c.feed(Edge(UP, False, 0.6)) == []
    assert c.feed(Edge(UP, True, 0.7)) == [Press(UP)]


def test_duplicate_edges_are_ignored():
    c = Classifier()
    assert c.feed(Edge(DOWN, False, 0.0)) == []  # release without press
    assert c.feed(Edge(DOWN, True, 1.0)) == [Press(DOWN)]
    assert c.feed(Edge(DOWN, True, 1.5)) == []


def test_buttons_are_independent():
    c = Classifier(hold_time=0.8)
    c.feed(Edge(BACK, True, 0.0))
    assert c.feed(Edge(OK, True, 0.1)) == [Press(OK)]
    assert c.due(0.8) == [Hold(BACK)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([OK, BACK]), st.booleans(),
                          st.floats(0, 0.5, allow_nan=False)), max_size=60))
def test_a_storm_never_gives_more_events_than_presses(storm):
    """Any storm of edges: every event answers a settled press, and the classifier
    always ends settled (nothing pending forever)."""
    c = Classifier(hold_time=0.8, debounce=0.03)
    t, out, presses = 0.0, [], {OK: 0, BACK: 0}
    for button, pressed, gap in storm:
        t += gap
        presses[button] += pressed
        out += c.feed(Edge(button, pressed, t))
    out += c.due(t + 100)
    for button in (OK, BACK):
        assert sum(1 for e in out if e.button == button) <= presses[button]
    c.feed(Edge(OK, False, t + 101))
    c.feed(Edge(BACK, False, t + 101))
    c.due(t + 200)
    assert c.deadline() is None


# ---------------------------------------------------------------------- gpiozero


PINS = {OK: 5, BACK: 6, UP: 13, DOWN: 19}


def test_gpio_buttons_enqueue_stamped_edges(gpio):
    q = queue.SimpleQueue()
    clock = iter([1.0, 1.1, 2.0, 3.5])
    with GpioButtons(PINS, q.put, clock=lambda: next(clock)) as buttons:
        gpio.pin(5).drive_low()
        gpio.pin(5).drive_high()
        gpio.pin(6).drive_low()
        assert buttons.pressed() == [BACK]
        gpio.pin(6).drive_high()
    got = [q.get_nowait() for _ in range(q.qsize())]
    assert got == [Edge(OK, True, 1.0), Edge(OK, False, 1.1),
                   Edge(BACK, True, 2.0), Edge(BACK, False, 3.5)]
    assert classify(got, Classifier(hold_time=0.8), until=4.0) == [Press(OK), Hold(BACK)]


def test_gpio_buttons_release_their_pins(gpio):
    GpioButtons(PINS, lambda e: None).close()
    again = GpioButtons(PINS, lambda e: None)  # pins are free again
    again.close()


def test_a_busy_pin_fails_cleanly_and_frees_the_others(gpio):
    from gpiozero import Button
    from gpiozero.exc import GPIOPinInUse

    squatter = Button(13)
    with pytest.raises(GPIOPinInUse):
        GpioButtons(PINS, lambda e: None)
    squatter.close()
    GpioButtons(PINS, lambda e: None).close()  # nothing was left reserved


def test_a_failing_queue_does_not_raise_into_gpiozero(gpio, caplog):
    def broken(edge):
        raise RuntimeError("queue gone")

    with GpioButtons({OK: 5}, broken):
        gpio.pin(5).drive_low()  # would raise in the caller with mock pins if not caught
    assert "edge lost" in caplog.text
