"""How quickly a page follows the box: from a press posted by a page to the new
snapshot arriving on another page's event stream, on loopback (goal: within 100 ms of
the OLED; the OLED frame is drawn in the same refresh that publishes the snapshot).

The simulator's box is served as by ``companion sim --web``, with a game thread taking
the page's inputs; the presses alternate DOWN and UP on the main menu.

    python bench/web_latency.py [--presses 300]

With ``--spectator``, a spectator's phone instead: headless Chromium (390x844) with
its CPU slowed 6x (DevTools' CPU throttling: a low-end phone) watches one whole
Entanglion game, played by the auto-player through the box's input queue, each
update applied before the next input. Printed: the bytes the box sent that page over
the game, its first load included (goal < 300 KB), and the time from an update's
arrival to the page laid out again (parse, patch, render, layout; goal < 50 ms
median). The bench fails unless the page saw the game end as the box did.

    python bench/web_latency.py --spectator [--seed 6] [--throttle 6]
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

from bench.common import machine  # noqa: E402
from web_rig import Rig  # noqa: E402


# Injected before the page's script: counts each update and times it, from the
# stream's event (this listener runs before the page's own) to the page laid out.
TIMING = """
window.__updates = []; window.__messages = 0;
const Plain = window.EventSource;
window.EventSource = class extends Plain {
  constructor(...a) {
    super(...a);
    for (const type of ["message", "patch"]) this.addEventListener(type, () => {
      window.__messages += 1; window.__t0 = performance.now(); });
  }
};
addEventListener("DOMContentLoaded", () => {
  const draw = window.render;
  window.render = function (s) {
    const out = draw(s);
    document.body.getBoundingClientRect();  // the layout the update caused
    if (window.__t0 !== undefined) window.__updates.push(performance.now() - window.__t0);
    window.__t0 = undefined;
    return out;
  };
});
"""


def spectator(args: argparse.Namespace) -> int:
    """Bytes and update times of one page watching a whole game (see the docstring)."""
    import tornado.iostream

    import browser
    from companion.autoplay import AutoPlayer
    from companion.inputs import Refresh
    from companion.web.publish import Publisher
    from companion.web.server import WebServer

    sent = {"bytes": 0, "events": 0}
    plain_write = tornado.iostream.BaseIOStream.write

    def counting_write(self, data, *a, **kw):  # every byte the box sends, headers too
        sent["bytes"] += len(data)
        sent["events"] += bytes(data).count(b"\ndata: ") + bytes(data).startswith(b"data: ")
        return plain_write(self, data, *a, **kw)

    if browser.missing():
        print(f"skipped: {browser.missing()}")
        return 0
    tornado.iostream.BaseIOStream.write = counting_write
    rig = Rig(Path(tempfile.mkdtemp(prefix="companion-bench-")), seed=args.seed)
    # The spectators' page of a box (as ``companion run`` serves it: read-only, no
    # OLED image), fed by the rig's game thread; the rig's own page stays unopened.
    publisher = Publisher(ask=lambda: rig.events.put(Refresh()))
    rig.sim.box.observers.append(publisher.publish)
    server = WebServer(publisher).start()
    d = browser.chromium(390, 844, mobile=True)
    try:
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMING})
        d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        d.get(server.url)

        def synced(timeout: float = 30.0) -> None:
            deadline = time.monotonic() + timeout
            while d.execute_script("return window.__messages") < sent["events"]:
                if time.monotonic() > deadline:
                    raise AssertionError("the page fell behind the box's stream")
                time.sleep(0.01)

        deadline = time.monotonic() + 30
        while sent["events"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        synced()
        loaded = sent["bytes"]
        player = AutoPlayer(args.seed)
        inputs = 0
        while rig.autoplay(player, 1):  # one input, then the page must have it
            inputs += 1
            time.sleep(0.02)  # the stream's write, on the server's thread
            synced()
        with rig.lock:
            s = rig.sim.box.session
            status = s.game.state.status if s.game is not None else None
        time.sleep(0.2)
        synced()
        shown = d.execute_script("return last && [last.game, last.status]")
        assert status in ("won", "lost") and shown == ["entanglion", status], \
            f"the page did not see the whole game (box: {status}, page: {shown})"
        times = sorted(d.execute_script("return window.__updates"))
        assert len(times) >= inputs // 2, f"{len(times)} updates timed for {inputs} inputs"
        kb = sent["bytes"] / 1000
        print(f"one spectator, one whole Entanglion game ({inputs} inputs, {status}, "
              f"{sent['events']} updates sent): {kb:.1f} KB sent to the page, its first "
              f"load ({loaded / 1000:.1f} KB) included (goal < 300 KB)")
        print(f"update on the page, CPU slowed {args.throttle:g}x, {len(times)} updates: "
              f"median {times[len(times) // 2]:.1f} ms, p99 "
              f"{times[max(0, int(len(times) * 0.99) - 1)]:.1f} ms, worst {times[-1]:.1f} ms "
              f"(goal: median < 50 ms)")
    finally:
        browser.quit(d)
        server.stop()
        rig.close()
        tornado.iostream.BaseIOStream.write = plain_write
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--spectator", action="store_true",
                        help="a throttled Chromium page watching a whole game")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--throttle", type=float, default=6.0)
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    if args.spectator:
        return spectator(args)
    rig = Rig(Path(tempfile.mkdtemp(prefix="companion-bench-")))
    try:
        sock = socket.create_connection(("127.0.0.1", rig.server.port), timeout=5)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        buf = bytearray()

        def snapshots_seen() -> int:
            return buf.count(b"\ndata: ") + buf.startswith(b"data: ")

        def read_until(count: int) -> None:
            while snapshots_seen() < count:
                buf.extend(sock.recv(65536))

        read_until(1)
        token = rig.csrf()
        times = []
        for i in range(args.presses):
            seen = snapshots_seen()
            t0 = time.perf_counter()
            rig.post_input({"kind": "press", "button": "UP" if i % 2 else "DOWN"}, token)
            read_until(seen + 1)
            times.append((time.perf_counter() - t0) * 1000)
            time.sleep(1 / 8)  # under the per-client input rate limit
        times.sort()
        print(f"press posted -> snapshot on another page, {len(times)} presses: median "
              f"{times[len(times) // 2]:.1f} ms, p99 {times[int(len(times) * 0.99) - 1]:.1f} "
              f"ms, worst {times[-1]:.1f} ms (goal: within 100 ms)")
        sock.close()
    finally:
        rig.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
