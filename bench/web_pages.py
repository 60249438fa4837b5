"""Many pages on one box: are they all served, and what does each cost?

The daemon runs in a child process as ``companion run`` builds it
(:class:`bench.harness.Rig`: mock GPIO, the fake Pico on a pty in this process, the
OLED on luma's driver over a fake I2C bus, the journal) with ``[web]`` on, read-only,
on a free loopback port. This process opens ``--pages`` server-sent-event streams (one
thread reads them all), each from an address of its own in 127.0.0.0/8 as the phones
of a room would be (the box keeps at most 32 connections per address), then the child
plays one complete scripted game from the main menu. Printed:

- pages served and pages told the box is full (goal: every page served, or told; never
  a connection refused or left without an answer);
- bytes each page received per input, after its first snapshot (goal < 2 KB: a page
  is sent what changed, not the whole snapshot);
- CPU per input of the server's thread and of the game thread, from ``/proc``.

The bench fails (exit 1) unless every page ends on the box's last snapshot, rebuilt
from what it was sent (the whole, then patches) as the page's script rebuilds it.

    python bench/web_pages.py [--pages 200] [--seed 6]
"""

from __future__ import annotations

import argparse
import json
import selectors
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import Rig, threads_cpu, web_child, write_web_config  # noqa: E402
from companion.autoplay import AutoPlayer  # noqa: E402
from companion.hardware.fake_pico import FakePico  # noqa: E402
from companion.web import patch  # noqa: E402


def child(args: argparse.Namespace) -> int:
    import os

    from companion.web import service

    state = Path(args.state_dir)
    config = write_web_config(state, pico=args.pico)
    with Rig(config, seed=args.seed) as rig:
        server = service.start(rig.config.web, rig.box, rig.events.put, None)
        print(json.dumps({"port": server.port}), flush=True)
        sys.stdin.readline()  # the pages are connected: the first asked for a snapshot
        while not rig.events.empty():
            rig.daemon.step(0)
        print("{}", flush=True)
        sys.stdin.readline()  # the pages have their first snapshot

        def cpu() -> dict[str, float]:
            names = {str(t.native_id): t.name for t in threading.enumerate()}
            return threads_cpu(os.getpid(), names)

        before = cpu()
        inputs = rig.play(AutoPlayer(args.seed))
        time.sleep(1.0)  # the last snapshots reach the pages
        after = cpu()
        print(json.dumps({
            "inputs": inputs, "streams": server.streams,
            "server_cpu": after.get("companion-web", 0) - before.get("companion-web", 0),
            "game_cpu": after.get("MainThread", 0) - before.get("MainThread", 0),
            "latest": json.loads(server.feed.latest()[1])}), flush=True)
        sys.stdin.readline()
        server.stop()
    return 0


def page_address(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


class Pages:
    """``count`` event streams read by one thread: bytes, and each page's snapshot
    rebuilt as app.js rebuilds it."""

    def __init__(self, port: int, count: int):
        self.selector = selectors.DefaultSelector()
        self.bytes = [0] * count
        self.buffers = [b""] * count
        self.snapshots: list[dict | None] = [None] * count
        self.full = [False] * count
        self.closed = [False] * count
        self.stop = threading.Event()
        for i in range(count):
            # Each page from an address of its own, as phones in a room are (the box
            # keeps at most a few connections per address): 127.0.0.0/8 is all loopback.
            sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                            source_address=(page_address(i), 0))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, i)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(0.2):
                i = key.data
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    data = b""  # closed by the box: counted as not served
                if not data:
                    self.closed[i] = True
                    self.selector.unregister(key.fileobj)
                    continue
                self.bytes[i] += len(data)
                self.buffers[i] += data
                *messages, self.buffers[i] = self.buffers[i].split(b"\n\n")
                for message in messages:
                    self._take(i, message)

    def _take(self, i: int, message: bytes) -> None:
        fields = dict(line.split(b": ", 1) for line in message.split(b"\n") if b": " in line)
        if b"event: full" in message:
            self.full[i] = True
        elif b"data" in fields:
            data = json.loads(fields[b"data"])
            if fields.get(b"event") == b"patch":
                data = patch.apply(self.snapshots[i], data)
            self.snapshots[i] = data

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
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
        pages = Pages(port, args.pages)
        time.sleep(0.5)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        proc.stdout.readline()  # the box published
        deadline = time.monotonic() + 10  # every page has its first snapshot, or is told
        while time.monotonic() < deadline and not all(
                s is not None or f for s, f in zip(pages.snapshots, pages.full)):
            time.sleep(0.1)
        first = list(pages.bytes)
        proc.stdin.write("play\n")
        proc.stdin.flush()
        result = json.loads(proc.stdout.readline())
        deadline = time.monotonic() + 30  # the pages read what is on its way
        while time.monotonic() < deadline and any(
                s != result["latest"] for s, f in zip(pages.snapshots, pages.full) if not f):
            time.sleep(0.1)
        proc.stdin.write("done\n")
        proc.stdin.flush()
        pages.close()
        proc.wait(30)
    told_full = sum(pages.full)
    served = [i for i in range(args.pages) if not pages.full[i] and first[i]
              and pages.snapshots[i] is not None]
    lost = [i for i in served if pages.snapshots[i] != result["latest"]]
    inputs = result["inputs"]
    per_page = [(pages.bytes[i] - first[i]) / inputs for i in served]
    print(f"{args.pages} pages: {len(served)} served, {told_full} told the box is full, "
          f"{args.pages - len(served) - told_full} refused or left without a snapshot; "
          f"streams open at the end {result['streams']}")
    if per_page:
        print(f"one game of {inputs} inputs: each page received {min(per_page):,.0f}-"
              f"{max(per_page):,.0f} bytes per input after its first snapshot (goal < 2,048); "
              f"server thread {result['server_cpu'] / inputs * 1000:.2f} ms of CPU per input, "
              f"game thread {result['game_cpu'] / inputs * 1000:.2f} ms (CPU counted in 10 ms "
              f"ticks)")
    if lost:
        print(f"bench/web_pages.py: not measured: {len(lost)} served pages did not end on the "
              f"box's last snapshot", file=sys.stderr)
        return 1
    if not served:
        print("bench/web_pages.py: not measured: no page was served", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
