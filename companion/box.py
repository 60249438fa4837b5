"""The box: a session wired to its outputs.

Every input goes through :meth:`Box.handle`: the session applies it (committing to
the journal first), then the views are rendered from the session's models and the
adapters send whatever changed. The daemon, the simulator and the tests all drive a
box the same way; only the adapters behind it differ.

A blink (the targets of the move menu) goes to an LED sink that can alternate two
frames by itself (the Pico, protocol 1.1) as one pattern: the box then wants no
``Tick`` for it, and catches the blink phase up from its clock at the next input, so
the frames a player sees are those a tick every half second would have shown.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from PIL import Image

from .hardware import buzzer as sound
from .hardware.display import Display
from .hardware.leds import LedSink
from .inputs import Event, Tick
from .session import BLINK_STEP, Session
from .views import leds, oled


BLANK = Image.new("1", (oled.WIDTH, oled.HEIGHT), 0)


class Box:
    """``private_displays`` maps a seat to its own small OLED (QLANET's private
    channel); each shows ``session.private_screens()[seat]``, or stays blank."""

    def __init__(self, session: Session, display: Display, led_sink: LedSink,
                 buzzer: sound.Buzzer | None = None,
                 private_displays: dict[int, Display] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.session = session
        self.display = display
        self.leds = led_sink
        self.buzzer = buzzer or sound.Buzzer()
        self.private_displays = dict(private_displays or {})
        self._led_model: dict[str, Any] = {}
        self._screen: dict[str, Any] | None = None
        self._drawn: dict[str, Any] | None = None  # the screen model last rendered
        self._image: Image.Image = BLANK  # ... and its image
        self.clock = clock
        # While the LED sink blinks by itself: (session, when it started, phase then).
        self._blink_from: tuple[Session, float, int] | None = None
        # Called with (box, OLED image) after every refresh, on this thread (the web
        # page's snapshot publisher); each must be quick and must not raise.
        self.observers: list[Callable[[Box, Image.Image], None]] = []
        self.refresh()

    def handle(self, event: Event) -> None:
        self._catch_up()
        blink = isinstance(event, Tick) and not self.session.animating()
        if blink and self._blink_from is not None:
            return  # the sink blinks by itself; the phase follows the clock
        self.session.handle(event)
        if blink:  # only the phase moved: the screen, the LED model and the page stand
            self._show_leds(restart=False)
        else:
            self.refresh(restart=True)

    def refresh(self, restart: bool = False) -> None:
        """Render the current screen and LED frame; adapters skip unchanged ones.

        ``restart``: after an input, when a tick's half-period starts again, so a blink
        the sink runs by itself starts again too. The LEDs and the buzzer go first:
        they are quick, and a slow or failing OLED (a frame is 23 ms of I2C at best)
        must never hold them back."""
        self._catch_up()
        screen = self.session.screen()
        self._led_model = self.session.led_model()
        self._show_leds(restart)
        if self._screen is not None and (name := sound.cue(self._screen, screen)):
            self.buzzer.play(name)
        self._screen = screen
        if screen != self._drawn:  # a tick that changed only the LEDs draws nothing
            self._drawn = screen
            self._image = oled.render(screen)
            self.display.show(self._image)
        if self.private_displays:
            private = self.session.private_screens()
            for seat, display in self.private_displays.items():
                model = private.get(seat)
                display.show(oled.render(model) if model is not None else BLANK)
        for observe in self.observers:
            observe(self, self._image)

    def tick_interval(self) -> float | None:
        """Seconds until the next Tick is due (None: nothing moves, sleep)."""
        if self._blink_from is not None and not self.session.animating():
            return None  # the sink blinks by itself
        return self.session.tick_interval(leds.blinking(self._led_model))

    def _show_leds(self, restart: bool) -> None:
        model, session = self._led_model, self.session
        phase = session.phase
        # An endless two-frame blink (choice targets) can run on the sink's own clock;
        # the light show at a game's end is counted in phases and stays with the ticks.
        if leds.blinking(model) and model.get("result") is None and not session.animating() \
                and self.leds.can_blink():
            sent = self.leds.blink(leds.frame(model, phase), leds.frame(model, phase + 1),
                                   BLINK_STEP, restart)
            if sent is not None:
                if sent or self._blink_from is None:
                    self._blink_from = (session, self.clock(), phase)
                return
        self._blink_from = None
        self.leds.show(leds.frame(model, phase))

    def _catch_up(self) -> None:
        """The phase a tick every BLINK_STEP would have reached while the sink blinked."""
        if self._blink_from is None:
            return
        session, since, phase = self._blink_from
        if session is not self.session:  # reloaded: its blinking starts afresh
            self._blink_from = None
            return
        session.phase = phase + int((self.clock() - since) // BLINK_STEP)

    def close(self) -> None:
        self.display.close()
        for display in self.private_displays.values():
            display.close()
        self.leds.close()
        self.buzzer.close()
