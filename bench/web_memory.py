"""Memory of the daemon with the web page on: peak RSS through a full game watched
by 5 pages, and how quickly the pages follow.

The daemon runs in a child process as ``companion run`` builds it
(:class:`bench.harness.Rig`: mock GPIO, the fake Pico on a pty in this process, the
OLED on luma's driver over a fake I2C bus, the journal) with ``[web]`` on (control on)
on a free loopback port. This process opens 5 server-sent-event streams and reads
them on threads (their memory is not the daemon's), then the child plays one complete
scripted game and reports VmHWM (goal <= 60 MB), the snapshots it published, and the
bytes each page received. Linux only (reads /proc).

    python bench/web_memory.py [--seed 6]
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import Rig, memory_mb, web_child, write_web_config  # noqa: E402
from companion.autoplay import AutoPlayer  # noqa: E402
from companion.hardware.fake_pico import FakePico  # noqa: E402

PAGES = 5


def child(args: argparse.Namespace) -> int:
    from companion.web import service

    state = Path(args.state_dir)
    config = write_web_config(state, pico=args.pico, web='control = true\n')
    with Rig(config, seed=args.seed) as rig:
        web = rig.config.web
        pairing = service.pairing_for(web)
        server = service.start(web, rig.box, rig.events.put, pairing)
        print(json.dumps({"port": server.port}), flush=True)
        sys.stdin.readline()  # the pages are connected
        before = memory_mb()
        rig.play(AutoPlayer(args.seed))
        time.sleep(1.0)  # the last snapshots reach the pages
        print(json.dumps({"before": before, "after": memory_mb(),
                          "snapshots": server.publisher.latest()[0],
                          "streams": server.streams}), flush=True)
        sys.stdin.readline()
        server.stop()
    return 0


def read_stream(port: int, counts: list[int], i: int, stop: threading.Event) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(0.5)
        while not stop.is_set():
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                return
            counts[i] += len(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", help=argparse.SUPPRESS)
    parser.add_argument("--pico", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    print(f"machine: {machine()}", flush=True)
    with FakePico(hb_interval=1.0) as pico, tempfile.TemporaryDirectory() as tmp:
        proc, port = web_child(__file__, args.seed, tmp, pico.path)
        counts, stop = [0] * PAGES, threading.Event()
        threads = [threading.Thread(target=read_stream, args=(port, counts, i, stop))
                   for i in range(PAGES)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        result = json.loads(proc.stdout.readline())
        proc.stdin.write("done\n")
        proc.stdin.flush()
        stop.set()
        for t in threads:
            t.join(5)
        proc.wait(30)
    print(f"daemon with the web page and {PAGES} pages: peak RSS {result['after']['VmHWM']:.1f}"
          f" MB (goal <= 60); RSS {result['before']['VmRSS']:.1f} MB before the game, "
          f"{result['after']['VmRSS']:.1f} MB after; {result['snapshots']} snapshots "
          f"published; streams open at the end {result['streams']}; each page received "
          f"{min(counts) / 1e3:.0f}-{max(counts) / 1e3:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
