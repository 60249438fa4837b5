"""Make docs/oled-tour.png: real OLED frames from a simulated game, for the README.

Plays the AutoPlayer's seed-6 game through the simulator (as ``companion sim``
would), opens the move menu once, and keeps the first frame of each kind of screen
(the move menu with its odds, the summary of a detected move). Nothing is drawn by hand: ``tests/test_screenshot.py``
checks that the committed image is what this script makes.

    python docs/make_screenshot.py [--lang CODE] [OUT.png]

``--lang`` makes the same sheet in another shipped language (pl, cs, ja; English by
default), e.g. for a translator checking how the words fit.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import build
from companion.views import oled

SEED = 6
WANTED = ("menu", "setup", "status", "moves", "roll", "summary", "card", "prompt", "end")
SCALE, GAP = 2, 6


def kind(model: dict) -> str:
    """The kind of screen, told by the words the box uses in the language it speaks."""
    _ = i18n._
    screen = model["screen"]
    setup = _("Setup {index}/{total}").split("{")[0]
    if screen == "text" and model.get("right", "").startswith(setup):
        return "setup"
    if screen == "text" and model.get("summary") and \
            _("DETECTED") in " ".join(model["lines"]):
        return "summary"
    if screen == "menu" and model["title"].endswith(_("your move")):
        return "moves" if any(" 5+ " in item for item in model["items"]) else "other menu"
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
        while True:
            # On the status screen with a roll to make, open the move menu and leave it.
            if "moves" not in found and session.screen()["screen"] == "status" and \
                    "need" in session.screen()["next"]:
                sim.run("press ok")
                look()
                sim.run("press back")
            cmd = player.next_command(session)
            if cmd is None:
                break
            sim.run(cmd)
            look()
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


def main(argv: list[str]) -> int:
    if argv[:1] == ["--lang"]:
        if len(argv) < 2 or argv[1] not in i18n.LANGUAGES:
            print(f"--lang takes one of: {', '.join(i18n.LANGUAGES)}", file=sys.stderr)
            return 2
        i18n.set_language(argv[1])
        argv = argv[2:]
    default = "oled-tour.png" if i18n.language() == "en" else f"oled-tour-{i18n.language()}.png"
    path = argv[0] if argv else str(Path(__file__).parent / default)
    sheet(tour()).save(path, optimize=True)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
