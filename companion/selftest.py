"""``companion selftest``: see every output work and every input arrive.

1. The OLED shows a test pattern (border, checkerboard, text): every pixel row and
   column can be judged by eye.
2. The LEDs chase along the chain in LED-map order, the OLED naming each pixel's
   planet or track space, then flash red, green and blue: a wiring that does not
   match ``hardware/led-map.json`` or a dead pixel shows at once.
   The buzzer, if configured, beeps three times.
3. Echo: each button press and tag read is shown on the OLED and printed, with the
   card name when the tag is enrolled. Hold BACK (or wait ``--seconds``) to finish.

Exit status 0 when the OLED took its frames and the co-processor (if configured)
said HELLO; 1 otherwise.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from .hardware.buttons import Classifier
from .hardware.inbox import Inbox
from .inputs import BACK, Hold, Press, Tag
from .views.font import draw_centered
from .views.leds import FRAME_LENGTH, FRAME_PIXELS, OFF, PIXEL_COUNT

CHASE_STEP = 0.4  # seconds per pixel: long enough to read the name on the OLED
FLASH = 0.3
PATTERN_TIME = 2.0  # seconds to look at the test pattern
DIM_WHITE = (60, 60, 60)


def test_pattern(width: int = 128, height: int = 64) -> Image.Image:
    image = Image.new("1", (width, height))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    for y in range(2, 18, 4):
        for x in range(2 + (y // 4 % 2) * 4, width - 2, 8):
            draw.rectangle((x, y, x + 3, y + 3), fill=1)
    draw_centered(image, 26, "SELFTEST")
    draw_centered(image, 38, "press buttons,")
    draw_centered(image, 48, "tap cards")
    return image


def chase_order(leds: Any) -> list[int]:
    """Logical pixels in the order they sit on the chain (the LED map's order), so the
    light runs along the wire and a swapped pixel stands out; logical order for sinks
    without a chain."""
    chain = getattr(leds, "chain", None)
    return [i for i in chain if i is not None] if chain else list(range(PIXEL_COUNT))


def pixel_name(index: int) -> str:
    name = FRAME_PIXELS[index]
    return f"track space {name[5:]}" if name.startswith("track") else name


def chase_frames(order: list[int]) -> list[tuple[tuple[int, int, int], ...]]:
    """One pixel lit at a time in ``order``, then all red, green, blue, then off.
    Frames carry the optional pixels too (the turn pixel), as a map may wire them."""
    frames = []
    for i in order:
        frame = [OFF] * FRAME_LENGTH
        frame[i] = DIM_WHITE
        frames.append(tuple(frame))
    frames += [tuple([c] * FRAME_LENGTH) for c in ((80, 0, 0), (0, 80, 0), (0, 0, 80))]
    return frames + [tuple([OFF] * FRAME_LENGTH)]


def echo_screen(lines: list[str]) -> dict[str, Any]:
    return {"screen": "text", "title": "Selftest: echo", "lines": lines[-4:],
            "hint": "hold BACK: done"}


def run(devices: Any, events: Any, classifier: Classifier,
        registry: Any = None, seconds: float = 60.0, out: Any = sys.stdout,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic) -> int:
    from .daemon import next_inputs
    from .views import oled

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    display, leds = devices.display, devices.leds
    display.show(test_pattern())
    sleep(PATTERN_TIME)
    say("OLED: test pattern sent" if not display.failures else
        f"OLED: FAILED ({display.failures} attempts; see the log)")
    order = chase_order(leds)
    for n, frame in enumerate(chase_frames(order)):
        leds.show(frame)
        if n < len(order):
            name = pixel_name(order[n])
            say(f"LED {n:2}: {name}")
            display.show(oled.render({"screen": "text", "title": f"LED {n + 1} of {len(order)}",
                                      "lines": ["On the chain now:", name]}))
        sleep(CHASE_STEP if n < len(order) else FLASH)
    buzzer = getattr(devices, "buzzer", None)
    if buzzer is not None:
        buzzer.play("won")
        say("buzzer: three beeps (silence means none fitted or a wiring fault)")
    link_ok = devices.link is None or devices.link.state == "up"
    if devices.link is not None:
        hello = devices.link.hello
        say(f"co-processor: {hello}" if link_ok else
            f"co-processor: no HELLO (state {devices.link.state})")
    seen: list[str] = []
    say(f"echo for {seconds:g} s: press buttons, tap cards; hold BACK to finish")
    end = clock() + seconds
    while (left := end - clock()) > 0:
        for e in next_inputs(events, classifier, left, clock):
            if isinstance(e, Hold) and e.button == BACK:
                return _verdict(display, link_ok, say)
            if isinstance(e, Press):
                seen.append(f"button {e.button}")
            elif isinstance(e, Tag):
                card = registry.lookup(e.uid) if registry is not None else None
                seen.append(f"pad {e.pad}: {card.label if card else e.uid}")
            else:
                continue
            say(seen[-1])
            display.show(oled.render(echo_screen(seen)))
        display.retry()
    return _verdict(display, link_ok, say)


def _verdict(display: Any, link_ok: bool, say: Callable[[str], None]) -> int:
    ok = not display.failures and link_ok
    say("selftest: all outputs answered" if ok else "selftest: problems above")
    return 0 if ok else 1


def main(config_path: str | None, seconds: float) -> int:
    from .daemon import close_devices, open_for
    from .registry import Registry, RegistryError

    events = Inbox()
    opened = open_for("selftest", config_path, events)
    if isinstance(opened, int):
        return opened
    config, devices = opened
    try:
        registry = Registry.load(config.paths.registry_path)
    except RegistryError:
        registry = None  # echo shows raw UIDs
    if devices.link is not None:  # give the co-processor its moment to say HELLO
        deadline = time.monotonic() + 3
        while devices.link.state != "up" and time.monotonic() < deadline:
            time.sleep(0.05)
    try:
        return run(devices, events, Classifier(config.buttons.hold_time,
                                               config.buttons.debounce),
                   registry, seconds)
    except KeyboardInterrupt:
        return 1
    finally:
        close_devices(devices)
