"""How quickly a page follows the box: from a press posted by a page to the new
snapshot arriving on another page's event stream, on loopback (goal: within 100 ms of
the OLED; the OLED frame is drawn in the same refresh that publishes the snapshot).

The simulator's box is served as by ``companion sim --web``, with a game thread taking
the page's inputs; the presses alternate DOWN and UP on the main menu.

    python bench/web_latency.py [--presses 300]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
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
