"""Make docs/web-board.png: the live page of a simulated Entanglion game, as headless
Chromium shows it (``python docs/make_web_screenshot.py``; needs Debian's chromium and
chromium-driver). The game is played by the project's own AutoPlayer for a fixed
number of commands from a fixed seed, served by ``companion sim --web``'s code."""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

from companion.autoplay import AutoPlayer  # noqa: E402

SEED, COMMANDS = 6, 50
OUT = ROOT / "docs" / "web-board.png"


def main() -> int:
    import browser  # tests/web/browser.py: the system chromium, never a download
    from web_rig import Rig  # the sim's page with a game thread answering it

    state = Path(tempfile.mkdtemp(prefix="companion-shot-"))
    rig = Rig(state, SEED)
    rig.autoplay(AutoPlayer(SEED), COMMANDS)
    driver = browser.chromium(1280, 900)
    try:
        driver.get(rig.server.url)
        deadline = time.monotonic() + 10
        while not driver.find_elements("css selector", "svg.board g.ship[data-planet]"):
            if time.monotonic() > deadline:
                raise SystemExit("the page showed no board")
            time.sleep(0.05)
        time.sleep(0.3)  # fonts settle
        driver.save_screenshot(str(OUT))
    finally:
        browser.quit(driver)
        rig.close()
        shutil.rmtree(state, ignore_errors=True)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
