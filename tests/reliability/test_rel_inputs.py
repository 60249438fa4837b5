"""Inputs gone wild: button storms, bouncing contacts and a card tapped again and again.

The daemon is built as ``companion run`` builds it (``bench.harness.Rig``), with mock
GPIO pins whose edges reach the loop through gpiozero and ``GpioButtons``, exactly as
on the Pi. The storm runs the loop on its own thread in real time while another
thread toggles pins 1,000 times a second; the queue must stay short (the loop keeps
up), drain afterwards, and nothing may fail. CI storms for 2 s, ``COMPANION_LONG=1``
for a minute.
"""

from __future__ import annotations

import random
import threading
import time

from bench.harness import ErrorLog, Rig, scale, write_config
from companion.inputs import BUTTONS, Tag
from companion.journal import Journal
from waiting import eventually

STORM_SECONDS = scale(2, 60)
EDGES_PER_SECOND = 1000


def start_game(rig: Rig) -> None:
    for _ in range(4):
        rig.press("OK")  # New game; difficulty, deck and dice at their defaults
    rig.press("BACK")  # skip the setup notices
    assert rig.session.mode == "game" and rig.session.screen()["screen"] == "status"


def entanglion_uids(rig: Rig, name: str) -> list[str]:
    return [uid for uid, card in rig.registry.find(name) if card.game == "entanglion"]


def replays_to_the_same_game(rig: Rig) -> bool:
    s = rig.session
    record = rig.journal.load(s.game_id)
    again = s.ui.replay(record.seed, record.options, record.setup,
                        Journal.effective_inputs(record.entries))
    return again.to_dict() == s.game.to_dict()


def test_a_storm_of_edges_keeps_the_queue_short_and_breaks_nothing(fast_dir):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    rnd = random.Random(1000)
    with ErrorLog() as errors, Rig(config, seed=6) as rig:
        start_game(rig)
        pins = [rig.pin(name) for name in BUTTONS]
        stop_loop = rig.run_loop()
        depth: list[int] = []
        edges = 0
        try:
            start = time.monotonic()
            while time.monotonic() - start < STORM_SECONDS:
                for _ in range(10):  # 10 edges per millisecond-ish sleep batch of 10 ms
                    pin = rnd.choice(pins)
                    if pin.state:
                        pin.drive_low()
                    else:
                        pin.drive_high()
                    edges += 1
                depth.append(rig.events.qsize())
                time.sleep(10 / EDGES_PER_SECOND)
                if len(depth) % 100 == 0:
                    for pin in pins:
                        pin.clear_states()  # the mock's own history, not the daemon's
            for pin in pins:
                pin.drive_high()  # every finger off
            assert eventually(lambda: rig.events.qsize() == 0, 30.0), "the queue never drained"
        finally:
            stop_loop()
        rate = edges / STORM_SECONDS
        print(f"storm: {edges} edges in {STORM_SECONDS} s ({rate:.0f}/s); deepest queue "
              f"{max(depth)} events; {len(rig.session.game.inputs)} game inputs")
        assert rate > EDGES_PER_SECOND / 4  # it really was a storm, even on a slow machine
        # The loop keeps up: never a whole second of storm waiting in the queue.
        assert max(depth) < EDGES_PER_SECOND
        assert not errors.records, errors.text()
        rig.settle(2.0)  # any hold or bounce window still open closes
        assert rig.session.game.status in ("playing", "won", "lost")
        assert replays_to_the_same_game(rig)


def test_a_bouncing_contact_is_one_press(fast_dir):
    """Twenty bounces in 10 ms on DOWN, then on OK: the cursor moves once, OK acts once."""
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    with ErrorLog() as errors, Rig(config, seed=6) as rig:
        assert rig.session.mode == "menu"
        before = rig.session.screen()["cursor"]
        pin = rig.pin("DOWN")
        for i in range(20):
            (pin.drive_low if i % 2 == 0 else pin.drive_high)()
            rig.settle(0.0005)
        pin.drive_low()
        rig.settle(0.1)
        pin.drive_high()
        rig.settle(0.1)
        items = len(rig.session.screen()["items"])
        assert rig.session.screen()["cursor"] == (before + 1) % items
        assert not errors.records, errors.text()


def test_the_same_card_tapped_again_and_again_acts_once(fast_dir):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    with ErrorLog() as errors, Rig(config, seed=6) as rig:
        start_game(rig)
        h = entanglion_uids(rig, "H")[0]  # seed 6 deals Mercurial an H
        for _ in range(10):  # a card wobbling on the pad: ten arrivals before the loop runs
            rig.events.put(Tag(1, h))
        rig.settle()
        rig.finish_animations()
        assert len(rig.session.game.inputs) == 1
        for _ in range(10):  # and again, now that it is Rubicon's turn
            rig.tap(1, h)
        assert len(rig.session.game.inputs) == 1
        assert rig.session.screen()["screen"] == "error"  # says why, changes nothing
        assert replays_to_the_same_game(rig)
        assert not errors.records, errors.text()


def test_taps_arriving_from_the_link_thread_during_a_storm(fast_dir):
    """Tags from another thread while the buttons storm: every tag is handled once."""
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    handled: list[object] = []
    with ErrorLog() as errors, Rig(config, seed=6) as rig:
        real_handle = rig.daemon.handle

        def counting(event: object) -> None:
            if isinstance(event, Tag):
                handled.append(event)
            real_handle(event)

        rig.daemon.handle = counting
        stop_loop = rig.run_loop()
        pins = [rig.pin(name) for name in ("UP", "DOWN")]
        sent = 0

        def reader() -> None:
            nonlocal sent
            for i in range(200):
                rig.events.put(Tag(1 + i % 2, "04FFFFFFFFFF%02X" % (i % 256)))
                sent += 1
                time.sleep(0.001)

        thread = threading.Thread(target=reader)
        try:
            thread.start()
            while thread.is_alive():
                for pin in pins:
                    pin.drive_low()
                    pin.drive_high()
                time.sleep(0.001)
            thread.join()
            assert eventually(lambda: len(handled) == sent, 10.0), (len(handled), sent)
        finally:
            stop_loop()
        assert not errors.records, errors.text()
