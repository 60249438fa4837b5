"""How much contact bounce the button classifier tolerates, per debounce setting.

A tactile switch does not change level once: for some milliseconds after each press
and release its contacts chatter (cheap ones for up to 50 ms and more). Each tap here
is a press and a release, every edge of it bouncing: a burst of 1-12 random level
changes spread over the bounce time, ending at the new level. The edges come from
gpiozero's MockFactory pins (``GpioButtons`` stamps them with a hand clock) into the
``Classifier``, as on the box.

For each debounce setting it prints the longest bounce that still gives exactly one
press per tap in every trial, and the shortest deliberate double press (two taps of
equal down and up time, with bounce) that still gives two presses. Exits non-zero
only if the default setting misses its goal: one press per tap at 50 ms of bounce,
and both presses of a quick double press (80 ms down, 80 ms up) kept.

    python bench/bounce.py [--trials 200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from companion.config.schema import ButtonsConfig  # noqa: E402
from companion.hardware.buttons import Classifier, GpioButtons  # noqa: E402
from companion.inputs import Press  # noqa: E402

GOAL_BOUNCE = 0.05  # seconds of chatter a cheap switch makes
DOUBLE = 0.08  # a quick deliberate double press: 80 ms down, 80 ms up


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def bouncing_edges(at: float, pressed: bool, bounce: float, rnd: random.Random
                   ) -> list[tuple[float, bool]]:
    """(time, pressed) level changes of one bouncing transition to ``pressed`` at ``at``:
    alternating, the last one at the new level, all within ``bounce`` seconds."""
    if bounce <= 0:
        return [(at, pressed)]
    changes = 2 * rnd.randint(0, 6) + 1  # odd: the contacts end at the new level
    times = sorted([at] + [at + rnd.uniform(0, bounce) for _ in range(changes - 1)])
    return [(t, pressed if i % 2 == 0 else not pressed) for i, t in enumerate(times)]


def presses(taps: list[tuple[float, float]], bounce: float, debounce: float,
            rnd: random.Random, button: str = "OK") -> int:
    """Presses the classifier reports for ``taps`` ((down at, up at) pairs) on mock pins."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    clock = Clock()
    edges: list = []
    factory = MockFactory()
    previous, Device.pin_factory = Device.pin_factory, factory
    classifier = Classifier(hold_time=0.8, debounce=debounce)
    out: list = []
    try:
        with GpioButtons({button: 5}, edges.append, clock=clock, pin_factory=factory):
            pin = factory.pin(5)
            changes: list[tuple[float, bool]] = []
            for down, up in taps:
                changes += bouncing_edges(down, True, bounce, rnd)
                changes += bouncing_edges(up, False, bounce, rnd)
            for at, pressed in sorted(changes, key=lambda c: c[0]):
                for event in classifier.due(at):
                    out.append(event)
                clock.now = at
                (pin.drive_low if pressed else pin.drive_high)()  # pull-up: pressed = low
                while edges:
                    out += classifier.feed(edges.pop(0))
            out += classifier.due(clock.now + 10)
    finally:
        factory.reset()
        Device.pin_factory = previous
    return sum(isinstance(e, Press) for e in out)


def one_press_per_tap(bounce: float, debounce: float, trials: int, seed: int = 1) -> bool:
    rnd = random.Random(seed)
    for _ in range(trials):
        down = rnd.uniform(0.06, 0.3)  # taps of 60-300 ms, a second apart
        if presses([(0.0, down), (1.0, 1.0 + down)], bounce, debounce, rnd) != 2:
            return False
    return True


def double_press_kept(step: float, bounce: float, debounce: float, trials: int,
                      seed: int = 2) -> bool:
    rnd = random.Random(seed)
    taps = [(0.0, step), (2 * step, 3 * step)]
    return all(presses(taps, bounce, debounce, rnd) == 2 for _ in range(trials))


def tolerated_bounce(debounce: float, trials: int) -> float:
    """The longest bounce (5 ms steps) with one press per tap in every trial."""
    best = 0.0
    for ms in range(0, 155, 5):
        if not one_press_per_tap(ms / 1000, debounce, trials):
            break
        best = ms / 1000
    return best


def shortest_double(debounce: float, bounce: float, trials: int) -> float | None:
    """The shortest down/up time (10 ms steps) a double press keeps both presses at."""
    for ms in range(30, 310, 10):
        if double_press_kept(ms / 1000, bounce, debounce, trials):
            return ms / 1000
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args(argv)
    default = ButtonsConfig().debounce
    print(f"trials per point: {args.trials}; default debounce {default * 1000:.0f} ms")
    print("debounce  tolerated bounce  shortest double press at 50 ms bounce")
    for debounce in sorted({0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1, default}):
        shortest = shortest_double(debounce, GOAL_BOUNCE, max(20, args.trials // 5))
        mark = "  <- default" if debounce == default else ""
        print(f"{debounce * 1000:5.0f} ms  {tolerated_bounce(debounce, args.trials) * 1000:8.0f} ms"
              f"        {'-' if shortest is None else f'{shortest * 1000:.0f} ms down/up'}{mark}")
    ok = one_press_per_tap(GOAL_BOUNCE, default, args.trials) and \
        double_press_kept(DOUBLE, GOAL_BOUNCE, default, args.trials)
    print(f"default: one press per tap at {GOAL_BOUNCE * 1000:.0f} ms bounce and a "
          f"{DOUBLE * 1000:.0f}/{DOUBLE * 1000:.0f} ms double press kept: "
          f"{'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
