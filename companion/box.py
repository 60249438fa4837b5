"""The box: a session wired to its outputs.

Every input goes through :meth:`Box.handle`: the session applies it (committing to
the journal first), then the views are rendered from the session's models and the
adapters send whatever changed. The daemon, the simulator and the tests all drive a
box the same way; only the adapters behind it differ.
"""

from __future__ import annotations

from typing import Any, Callable

from PIL import Image

from .hardware import buzzer as sound
from .hardware.display import Display
from .hardware.leds import LedSink
from .inputs import Event, Tick
from .session import Session
from .views import leds, oled


BLANK = Image.new("1", (oled.WIDTH, oled.HEIGHT), 0)


class Box:
    """``private_displays`` maps a seat to its own small OLED (QLANET's private
    channel); each shows ``session.private_screens()[seat]``, or stays blank."""

    def __init__(self, session: Session, display: Display, led_sink: LedSink,
                 buzzer: sound.Buzzer | None = None,
                 private_displays: dict[int, Display] | None = None):
        self.session = session
        self.display = display
        self.leds = led_sink
        self.buzzer = buzzer or sound.Buzzer()
        self.private_displays = dict(private_displays or {})
        self._led_model: dict[str, Any] = {}
        self._screen: dict[str, Any] | None = None
        self._drawn: dict[str, Any] | None = None  # the screen model last rendered
        self._image: Image.Image = BLANK  # ... and its image
        # Called with (box, OLED image) after every refresh, on this thread (the web
        # page's snapshot publisher); each must be quick and must not raise.
        self.observers: list[Callable[[Box, Image.Image], None]] = []
        self.refresh()

    def handle(self, event: Event) -> None:
        blink = isinstance(event, Tick) and not self.session.animating()
        self.session.handle(event)
        if blink:  # only the phase moved: the screen, the LED model and the page stand
            self.leds.show(leds.frame(self._led_model, self.session.phase))
        else:
            self.refresh()

    def refresh(self) -> None:
        """Render the current screen and LED frame; adapters skip unchanged ones.

        The LEDs and the buzzer go first: they are quick, and a slow or failing OLED
        (a frame is 23 ms of I2C at best) must never hold them back."""
        screen = self.session.screen()
        self._led_model = self.session.led_model()
        self.leds.show(leds.frame(self._led_model, self.session.phase))
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
        return self.session.tick_interval(leds.blinking(self._led_model))

    def close(self) -> None:
        self.display.close()
        for display in self.private_displays.values():
            display.close()
        self.leds.close()
        self.buzzer.close()
