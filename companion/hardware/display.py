"""The OLED behind a tiny interface: ``show(image)`` and ``close()``.

Frames go out only when the picture changed: an I2C frame costs about 23 ms at
400 kHz, and an idle box should send nothing at all. The real device and the test
fake are the same class around different luma devices (``luma.core.device.dummy``
keeps the last image in memory), so tests exercise the code the box runs.
"""

from __future__ import annotations

from typing import Any

from PIL import Image


class Display:
    """Pushes images to a luma device, skipping any identical to the last one."""

    def __init__(self, device: Any, keep: bool = False):
        self.device = device
        self.frames_sent = 0
        self.frames: list[Image.Image] = []  # every frame sent, when ``keep`` (sim, tests)
        self._keep = keep
        self._last: bytes | None = None

    def show(self, image: Image.Image) -> bool:
        """Send ``image`` if it differs from the last frame; returns whether it did."""
        data = image.tobytes()
        if data == self._last:
            return False
        self.device.display(image)
        self._last = data
        self.frames_sent += 1
        if self._keep:
            self.frames.append(image.copy())
        return True

    @property
    def image(self) -> Image.Image | None:
        """The last frame sent."""
        if self._last is None:
            return None
        return Image.frombytes("1", self.device.size, self._last)

    def close(self) -> None:
        self.device.cleanup()


def dummy_display(keep: bool = False) -> Display:
    """The display fake: luma's in-memory dummy device, 128x64, mode "1"."""
    from luma.core.device import dummy

    return Display(dummy(width=128, height=64, mode="1"), keep=keep)
