"""Make docs/oled-tour.png: real OLED frames from a simulated game, for the README.

Plays the AutoPlayer's seed-6 game through the simulator (as ``companion sim``
would), taps one card on the wrong pad to show an error, and keeps the first frame
of each kind of screen. Nothing is drawn by hand: ``tests/test_screenshot.py``
checks that the committed image is what this script makes.

    python docs/make_screenshot.py [OUT.png]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import build
from companion.views import oled

SEED = 6
WANTED = ("menu", "setup", "status", "roll", "card", "prompt", "error", "undo", "end")
SCALE, GAP = 2, 6


def kind(model: dict) -> str:
    screen = model["screen"]
    if screen == "text" and model["title"].startswith("Setup: parts"):
        return "setup"
    if screen == "menu" and model["title"].startswith(("Mercurial", "Rubicon")):
        return "prompt"
    if screen == "roll" and model["frame"] is not None:
        return "rolling"
    return screen


def tour() -> list[Image.Image]:
    found: dict[str, Image.Image] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sim, journal = build(Path(tmp), None, SEED, SessionConfig(), None)
        player = AutoPlayer(SEED)
        session = sim.box.session

        def look() -> None:
            model = session.screen()
            found.setdefault(kind(model), oled.render(model))

        look()  # the main menu at power-on
        extra = {5: "press ok", 12: "tap 2 H", 20: "hold back"}  # a menu, an error, an undo
        step = 0
        while True:
            cmd = extra.pop(step, None) or player.next_command(session)
            if cmd is None:
                break
            sim.run(cmd)
            look()
            step += 1
        journal.close()
    return [found[k] for k in WANTED if k in found]


def sheet(images: list[Image.Image], columns: int = 3) -> Image.Image:
    w, h = 128 * SCALE, 64 * SCALE
    rows = -(-len(images) // columns)
    out = Image.new("L", (columns * (w + GAP) + GAP, rows * (h + GAP) + GAP), 90)
    for i, image in enumerate(images):
        big = image.convert("L").resize((w, h), Image.NEAREST)
        out.paste(big, (GAP + (i % columns) * (w + GAP), GAP + (i // columns) * (h + GAP)))
    return out


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent / "oled-tour.png")
    sheet(tour()).save(path, optimize=True)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
