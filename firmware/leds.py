"""The WS2812 chain, through MicroPython's built-in ``neopixel`` module.

The host sends whole frames; :class:`Leds` keeps the last one, scales every
channel by the brightness cap (``bri / 255``, rounded) and writes the chain in
one go, so the pixels never show half of one frame and half of the next. A new
cap re-renders the frame on show, so BRI takes effect at once.

A blink (:meth:`Leds.blink`) alternates two frames on the Pico's own clock, so the
host need not wake up twice a second to send them; :meth:`Leds.tick` from the main
loop shows whichever is due, and the next frame or blink ends it.
"""

import protocol

import neopixel


def scale(pixel, level):
    """One (r, g, b) pixel with each channel scaled by ``level / 255``, rounded."""
    return (
        (pixel[0] * level + 127) // 255,
        (pixel[1] * level + 127) // 255,
        (pixel[2] * level + 127) // 255,
    )


class Leds:
    """``count`` pixels on ``pin`` (a machine.Pin), capped at ``brightness`` (0-255)."""

    def __init__(self, pin, count, brightness=64, factory=None):
        self.count = count
        self.brightness = brightness
        self.frame = [(0, 0, 0)] * count  # what the host asked for, before the cap
        self._dark = False  # the host went silent: nothing lit until it speaks again
        self._blink = None  # (period ms, first, second, since ms) while blinking
        self._np = (factory or neopixel.NeoPixel)(pin, count)

    def show(self, frame):
        """Show ``frame``: ``count`` (r, g, b) tuples in chain order."""
        if len(frame) != self.count:
            raise ValueError("frame has %d pixels, the chain %d" % (len(frame), self.count))
        self._blink = None
        self._set(frame)

    def _set(self, frame):
        self.frame = list(frame)
        self._render()

    def blink(self, period, first, second, now):
        """Alternate ``first`` and ``second`` every ``period`` ms from ``now`` (ms),
        ``first`` at once, until the next :meth:`show` or blink."""
        if len(first) != self.count or len(second) != self.count:
            raise ValueError("blink frames have %d and %d pixels, the chain %d"
                             % (len(first), len(second), self.count))
        self._set(first)
        self._blink = (period, list(first), list(second), now)

    def tick(self, now):
        """Show the blink's frame due at ``now`` (ms), if it changed."""
        if self._blink is None:
            return
        period, first, second, since = self._blink
        due = first if protocol.blink_shows_first(period, since, now) else second
        if due != self.frame:
            self._set(due)

    def set_brightness(self, level):
        """Change the cap (0-255) and show the current frame with it."""
        if level < 0 or level > 255:
            raise ValueError("brightness %d is not 0-255" % level)
        self.brightness = level
        self._render()

    def off(self):
        """All pixels dark (the frame is forgotten)."""
        self.show([(0, 0, 0)] * self.count)

    def dark(self, on):
        """Darken the chain without forgetting the frame (``on``), or show it again."""
        self._dark = on
        self._render()

    def _render(self):
        level = 0 if self._dark else self.brightness
        np = self._np
        for i in range(self.count):
            np[i] = scale(self.frame[i], level)
        np.write()  # one write: the chain latches the whole frame at once
