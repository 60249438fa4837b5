"""The LED chain behind a tiny interface: ``show(frame)`` and ``close()``.

A frame is a tuple of (r, g, b) tuples in logical pixel order (``views.leds``).
Like the display, a sink only passes on frames that changed. Sinks:

* :class:`FirmwareLeds` - the WS2812 chain on the co-processor, frames over the link,
  reordered by the LED map (the chain is wired in whatever order suits the board);
* :class:`GpioLeds` - no co-processor: the detection track on an ``LEDBarGraph``
  and, optionally, one single-colour LED per planet on an ``LEDBoard``;
* :class:`RecordingLeds` - the fake, and the simulator's sink;
* :class:`LedSink` itself - no LEDs at all.
"""

from __future__ import annotations

import json
import math
import os
from importlib import resources
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..games.entanglion.board import PLANETS
from ..views.leds import FRAME_PIXELS, PIXEL_COUNT, PIXELS, TRACK_OFFSET

Frame = tuple[tuple[int, int, int], ...]
OFF = (0, 0, 0)


class LedMapError(Exception):
    """A bad LED map file; the message is one line naming the file."""


class LedSink:
    def __init__(self) -> None:
        self.frames_sent = 0
        self.last: Frame | None = None
        self.blinking: tuple[Frame, Frame, float] | None = None  # the blink the device runs

    def show(self, frame: Frame) -> bool:
        """Send ``frame`` if it differs from the last one; returns whether it did."""
        frame = tuple(tuple(p) for p in frame)  # type: ignore[misc]
        if frame == self.last:
            return False
        self._send(frame)
        self.last = frame
        self.blinking = None
        self.frames_sent += 1
        return True

    def blink(self, first: Frame, second: Frame, period: float,
              restart: bool = False) -> bool | None:
        """Have the device alternate ``first`` and ``second`` every ``period`` seconds by
        itself, ``first`` now, until the next :meth:`show` or blink. None: this device
        cannot (the caller blinks with a frame per phase); True: sent; False: that very
        blink is already running and ``restart`` is false (its clock runs on)."""
        if not self.can_blink():
            return None
        first = tuple(tuple(p) for p in first)  # type: ignore[misc]
        second = tuple(tuple(p) for p in second)  # type: ignore[misc]
        pattern = (first, second, period)
        if pattern == self.blinking and not restart:
            return False
        self._send_blink(first, second, period)
        self.blinking = pattern
        self.last = None  # whatever the device shows now, the next frame goes out
        self.frames_sent += 1
        return True

    def can_blink(self) -> bool:
        """Whether the device runs a blink by itself now (see :meth:`blink`)."""
        return False

    def _send(self, frame: Frame) -> None:
        """Hand one frame to the device (nothing, for a box without LEDs)."""

    def _send_blink(self, first: Frame, second: Frame, period: float) -> None:
        """Hand a blink to a device that :meth:`can_blink`."""

    def close(self) -> None:
        """Release the device."""


class RecordingLeds(LedSink):
    """Keeps every frame sent, for tests and the simulator."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[Frame] = []

    def _send(self, frame: Frame) -> None:
        self.frames.append(frame)


def default_led_map_path() -> str:
    """The reference build's LED map (``hardware/led-map.json``, shipped in the package)."""
    return str(resources.files("companion") / "data" / "led-map.json")


def load_led_map(path: str | os.PathLike[str]) -> tuple[int | None, ...]:
    """Chain position -> logical pixel index (None: a dark spare pixel).

    The file is JSON: ``{"chain": ["ZERO", "ONE", ..., "track1", ..., null]}``, the
    logical pixel names (``views.leds.PIXELS``) in the order the chain is wired.
    Every board pixel must appear exactly once; ``turn`` (whose turn it is) at most
    once, if the build has a pixel for it.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise LedMapError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LedMapError(f"{path}: not JSON: {str(exc).splitlines()[0]}") from None
    chain = data.get("chain") if isinstance(data, dict) else None
    if not isinstance(chain, list):
        raise LedMapError(f'{path}: expected {{"chain": [pixel names in chain order]}}')
    index = {name: i for i, name in enumerate(FRAME_PIXELS)}
    seen: set[str] = set()
    out: list[int | None] = []
    for position, name in enumerate(chain):
        if name is None:
            out.append(None)
            continue
        if name not in index:
            raise LedMapError(f"{path}: chain[{position}]: unknown pixel {name!r}")
        if name in seen:
            raise LedMapError(f"{path}: chain[{position}]: {name} appears twice")
        seen.add(name)
        out.append(index[name])
    missing = [name for name in PIXELS if name not in seen]
    if missing:
        raise LedMapError(f"{path}: missing pixels: {', '.join(missing)}")
    return tuple(out)


class LinkLike(Protocol):
    def send_leds(self, pixels: Sequence[tuple[int, int, int]]) -> None: ...
    def send_blink(self, first: Sequence[tuple[int, int, int]],
                   second: Sequence[tuple[int, int, int]], period_ms: int) -> None: ...
    def set_brightness(self, level: int) -> None: ...


class FirmwareLeds(LedSink):
    """The co-processor's WS2812 chain. The link keeps the newest frame and sends it
    again after a replug, so a sink never has to retry."""

    def __init__(self, link: LinkLike, chain: Sequence[int | None] | None = None,
                 brightness: int = 64, off_at_exit: bool = True):
        super().__init__()
        self.link = link
        self.chain = tuple(chain) if chain is not None else tuple(range(PIXEL_COUNT))
        self.off_at_exit = off_at_exit
        link.set_brightness(brightness)  # the firmware caps current, not our colours

    def _send(self, frame: Frame) -> None:
        self.link.send_leds(self._chained(frame))

    def _chained(self, frame: Frame) -> list[tuple[int, int, int]]:
        return [OFF if i is None else frame[i] for i in self.chain]

    def can_blink(self) -> bool:
        return bool(getattr(self.link, "can_blink", False))

    def _send_blink(self, first: Frame, second: Frame, period: float) -> None:
        self.link.send_blink(self._chained(first), self._chained(second), round(period * 1000))

    def close(self) -> None:
        if self.off_at_exit:
            self.link.send_leds([OFF] * len(self.chain))


class GpioLeds(LedSink):
    """LEDs straight on GPIO pins through gpiozero.

    The track bar lights as many LEDs as the frame lights track spaces (scaled when
    fewer than 12 LEDs are fitted). Planet LEDs are PWM so a component shows dim and a
    ship bright, scaled by ``brightness`` like the firmware chain; colour is lost,
    which is why the OLED always names the planets.
    """

    def __init__(self, track_pins: Sequence[int], planet_pins: Mapping[str, int] | None = None,
                 brightness: int = 255, off_at_exit: bool = True, pin_factory: Any = None):
        from gpiozero import LEDBarGraph, LEDBoard

        super().__init__()
        self.off_at_exit = off_at_exit
        self.scale = brightness / 255 / 255
        self.track = LEDBarGraph(*track_pins, pin_factory=pin_factory)
        self.planets = None
        try:
            if planet_pins:
                # Keyed by name: the frame's planet order is the board's, not the file's.
                self.planets = LEDBoard(*(planet_pins[p] for p in PLANETS), pwm=True,
                                        pin_factory=pin_factory)
        except Exception:
            self.track.close()
            raise

    def _send(self, frame: Frame) -> None:
        track = frame[TRACK_OFFSET:]
        bar = len(self.track)
        # Round up: with fewer LEDs than spaces, space 1 must still light something.
        self.track.value = math.ceil(sum(1 for p in track if p != OFF) * bar / len(track)) / bar
        if self.planets is not None:
            self.planets.value = tuple(max(p) * self.scale for p in frame[:TRACK_OFFSET])

    def close(self) -> None:
        for device in (self.track, self.planets):
            if device is None:
                continue
            if not self.off_at_exit:
                # gpiozero would switch the pins off on close; leaving the lights
                # on means leaving the pins open (the process exits next).
                continue
            device.off()
            device.close()
