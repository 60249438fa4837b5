"""Make docs/web-board.png: the live page of a simulated Entanglion game, as headless
Chromium shows it (``python docs/make_web_screenshot.py``; needs Debian's chromium and
chromium-driver). The game is played by the project's own AutoPlayer for a fixed
number of commands from a fixed seed, served by ``companion sim --web``'s code."""

from __future__ import annotations

import queue
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

from companion.autoplay import AutoPlayer  # noqa: E402
from companion.session import SessionConfig  # noqa: E402
from companion.sim import build  # noqa: E402
from companion.web import shell  # noqa: E402

SEED, COMMANDS = 6, 50
OUT = ROOT / "docs" / "web-board.png"


def main() -> int:
    import browser  # tests/web/browser.py: the system chromium, never a download

    state = Path(tempfile.mkdtemp(prefix="companion-shot-"))
    sim, journal = build(state, None, SEED, SessionConfig(), None)
    player = AutoPlayer(SEED)
    for _ in range(COMMANDS):
        cmd = player.next_command(sim.box.session)
        if cmd is None:
            break
        sim.run(cmd)
    server = shell.start(sim, "127.0.0.1:0", queue.SimpleQueue())
    driver = browser.chromium(1280, 900)
    try:
        driver.get(server.url)
        deadline = time.monotonic() + 10
        while not driver.find_elements("css selector", "svg.board circle.ship"):
            if time.monotonic() > deadline:
                raise SystemExit("the page showed no board")
            time.sleep(0.05)
        time.sleep(0.3)  # fonts settle
        driver.save_screenshot(str(OUT))
    finally:
        browser.quit(driver)
        server.stop()
        journal.close()
        shutil.rmtree(state, ignore_errors=True)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
