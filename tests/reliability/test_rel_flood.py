"""A tag flood: a reader sending TAG lines flat out at the link's full rate.

The daemon runs as ``companion run`` builds it (``bench.harness.Rig``) with the fake
co-processor on a pty; its loop runs on its own thread in real time. For
``FLOOD_SECONDS`` (2 s in CI, the full 10 s with ``COMPANION_LONG=1``) the fake Pico
sends TAG lines as fast as 115200 baud carries them: the same card again and again,
mixed with a stream of different unknown cards. Then a finger presses a button.

Figures (printed, and in docs/performance.md): RSS growth during the flood, and the
time from the button going down (held 20 ms) to its press being handled. Goals: at most 5 MB,
and within 100 ms.
"""

from __future__ import annotations

import time

from bench.harness import ErrorLog, Rig, memory_mb, scale, write_config
from companion.hardware import protocol
from companion.hardware.fake_pico import FakePico
from companion.inputs import Press

FLOOD_SECONDS = scale(2, 10)
LINK_BYTES_PER_SECOND = 115200 // 10  # 8N1: ten bit times a byte
RSS_GOAL_MB = 5.0
BUTTON_GOAL_S = 0.100


def wait(rig: Rig, condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return False


def test_a_tag_flood_is_bounded_and_buttons_are_not_starved(fast_dir):
    with FakePico(hb_interval=0.2) as pico:
        config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state",
                              pico=pico.path, debounce=0)
        with ErrorLog() as errors, Rig(config, seed=6) as rig:
            for _ in range(4):
                rig.press("OK")
            rig.press("BACK")
            assert rig.session.mode == "game"
            handled: list[tuple[float, object]] = []
            real_handle = rig.daemon.handle

            def handle(event):
                real_handle(event)
                handled.append((time.monotonic(), event))

            rig.daemon.handle = handle
            stop_loop = rig.run_loop()
            line = len(protocol.encode(1, "TAG", *protocol.tag_fields(1, "04" * 7, True)))
            per_batch = 20
            pause = per_batch * line / LINK_BYTES_PER_SECOND
            before = memory_mb()["VmRSS"]
            peak = before
            sent = 0
            try:
                start = time.monotonic()
                while time.monotonic() - start < FLOOD_SECONDS:
                    for i in range(per_batch):
                        uid = "04AABBCCDD0001" if i % 2 else f"04{sent:012X}"
                        pico.tap(1 + i % 3, uid)
                        sent += 1
                    peak = max(peak, memory_mb()["VmRSS"])
                    time.sleep(pause)
                # Let the last lines cross the pty, then press and release a button.
                time.sleep(0.05)
                pin = rig.pin("DOWN")
                pressed = time.monotonic()
                pin.drive_low()
                time.sleep(0.02)
                pin.drive_high()
                assert wait(rig, lambda: any(isinstance(e, Press) for _, e in handled))
                latency = next(t for t, e in handled if isinstance(e, Press)) - pressed
            finally:
                stop_loop()
            rate = sent / FLOOD_SECONDS
            growth = peak - before
            tags = sum(1 for _, e in handled if not isinstance(e, Press))
            print(f"tag flood: {sent} TAG lines in {FLOOD_SECONDS} s ({rate:.0f}/s); "
                  f"{tags} reached the game, {rig.events.coalesced} coalesced, "
                  f"{rig.events.dropped} dropped; RSS +{growth:.1f} MB; button handled "
                  f"{latency * 1000:.0f} ms after it went down")
            assert rate > 200  # it really was a flood
            assert growth <= RSS_GOAL_MB
            assert latency <= BUTTON_GOAL_S
            assert not errors.records, errors.text()
