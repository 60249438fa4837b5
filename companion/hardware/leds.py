"""The LED chain behind a tiny interface: ``show(frame)`` and ``close()``.

A frame is a tuple of (r, g, b) tuples in logical pixel order (``views.leds``).
Like the display, a sink only passes on frames that changed. ``RecordingLeds`` is
the fake (and the simulator's sink); the firmware and GPIO sinks come with the
hardware issue and subclass :class:`LedSink`.
"""

from __future__ import annotations

Frame = tuple[tuple[int, int, int], ...]


class LedSink:
    def __init__(self) -> None:
        self.frames_sent = 0
        self.last: Frame | None = None

    def show(self, frame: Frame) -> bool:
        """Send ``frame`` if it differs from the last one; returns whether it did."""
        frame = tuple(tuple(p) for p in frame)  # type: ignore[misc]
        if frame == self.last:
            return False
        self._send(frame)
        self.last = frame
        self.frames_sent += 1
        return True

    def _send(self, frame: Frame) -> None:
        """Hand one frame to the device (nothing, for a box without LEDs)."""

    def close(self) -> None:
        """Release the device."""


class RecordingLeds(LedSink):
    """Keeps every frame sent, for tests and the simulator."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[Frame] = []

    def _send(self, frame: Frame) -> None:
        self.frames.append(frame)
