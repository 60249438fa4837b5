"""The optional buzzer: a few short sound cues, so a refused tap or a detection is
noticed by someone looking at the board rather than the OLED.

:func:`cue` is pure: it compares the screen before and after an input and names
the cue, if any. :class:`GpioBuzzer` plays cues on a gpiozero ``Buzzer`` (an
active buzzer: on/off, no tones) in gpiozero's background thread, so the game loop
never waits for a sound. :class:`RecordingBuzzer` is the fake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# cue -> (on seconds, off seconds, beeps)
PATTERNS: dict[str, tuple[float, float, int]] = {
    "refused": (0.05, 0.05, 1),  # an input that changed nothing: one blip
    "detected": (0.15, 0.1, 2),  # the orbital defence caught a ship
    "won": (0.1, 0.05, 3),
    "lost": (0.8, 0.1, 1),
}


def cue(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> str | None:
    """The cue for moving from screen ``before`` to ``after`` (None: stay quiet)."""
    if after == before:
        return None
    kind = after.get("screen")
    if kind == "error":
        return "refused"
    if kind == "roll" and after.get("frame") is None and after.get("alarm"):
        # Once, when the die lands: not again for each animation frame or re-render.
        landed_before = (before or {}).get("screen") == "roll" and \
            (before or {}).get("frame") is None and _same_roll(before, after)
        return None if landed_before else "detected"
    if kind == "end" and (before or {}).get("screen") != "end":
        return after.get("result") if after.get("result") in PATTERNS else None
    if kind in ("qno_end", "qlanet_end") and (before or {}).get("screen") != kind:
        return "won"  # somebody always wins QNO and QLANET
    return None


def _same_roll(a: Mapping[str, Any] | None, b: Mapping[str, Any]) -> bool:
    keys = ("player", "die", "purpose", "value", "result")
    return a is not None and all(a.get(k) == b.get(k) for k in keys)


class Buzzer:
    """No buzzer fitted: cues go nowhere."""

    def play(self, name: str) -> None:
        pass

    def close(self) -> None:
        pass


class RecordingBuzzer(Buzzer):
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


class GpioBuzzer(Buzzer):
    def __init__(self, pin: int, pin_factory: Any = None):
        from gpiozero import Buzzer as Device

        self.device = Device(pin, pin_factory=pin_factory)

    def play(self, name: str) -> None:
        on, off, n = PATTERNS[name]
        self.device.beep(on_time=on, off_time=off, n=n, background=True)

    def close(self) -> None:
        self.device.off()
        self.device.close()
