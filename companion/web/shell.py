"""``companion sim --web``: the simulator with the box in a browser.

Typed commands and the page's presses and taps meet on one queue, taken in order by
the main thread (the game thread): a tap in the browser is the same ``Tag`` event a
reader pad would produce and goes through the same session and journal as ``tap``
typed in the terminal. Standard input ending (``< /dev/null``) does not stop the box:
the browser may still be playing; ``quit``, Ctrl-C or SIGTERM do.
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
from typing import IO, Any, Iterable

from ..inputs import Refresh
from .address import PageAddress
from .archive import Archive
from .publish import Publisher
from .server import WebServer

_STOP = object()
POLL = 0.5  # seconds: how often the loop looks up from the queue (signals, stop)


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` (an IPv6 host in brackets) -> (host, port); host 127.0.0.1 by
    default. Raises ValueError with a message a person can act on."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web wants [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080, not {text!r}")
    return host, int(port)


def cards(registry: Any) -> list[dict[str, str]]:
    """Every card of the box as the page lists it (uid, label, game), by game and name.
    Copies of one card (seven CNOTs) are one button: the first tag, as ``tap 1 CNOT``
    typed in the terminal picks."""
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for uid, card in registry:
        seen.setdefault((card.game, card.label), {"uid": uid, "label": card.label,
                                                  "game": card.game})
    return sorted(seen.values(), key=lambda c: (c["game"], c["label"]))


def start(sim: Any, address: str, events: queue.SimpleQueue) -> WebServer:
    """Publish the sim's box and serve it; the page's inputs go on ``events``."""
    host, port = parse_address(address)
    publisher = Publisher(show_box=True, ask=lambda: events.put(Refresh()))
    server = WebServer(publisher, host, port, inputs=events.put, box_mode=True,
                       cards=cards(sim.registry),
                       pads=tuple(sorted(sim.box.session.config.pads)),
                       archive=Archive(sim.box.session.journal.path))
    sim.box.session.config.web_url = PageAddress(host, server.port)
    sim.box.observers.append(publisher.publish)
    sim.box.refresh()  # the first snapshot, before any page asks
    return server.start()


def _read(lines: Iterable[str], events: queue.SimpleQueue) -> None:
    for line in lines:
        events.put(line)


def serve(sim: Any, events: queue.SimpleQueue, lines: IO[str], out: IO[str],
          render: bool) -> int:
    """Take typed lines and the page's events in order until ``quit`` or a signal."""
    from ..sim import EXIT_OK, ExpectationFailed, ScriptError

    def stop(*_: object) -> None:
        events.put(_STOP)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    threading.Thread(target=_read, args=(lines, events), daemon=True,
                     name="companion-stdin").start()
    while True:
        if render:
            out.write("\x1b[H\x1b[2J" + sim.render() + "\n> ")
            out.flush()
        try:
            item = events.get(timeout=POLL) if not render else events.get()
        except queue.Empty:
            continue
        if item is _STOP:
            return EXIT_OK
        try:
            # A page's press or tap takes the same path as a typed one, switching off too.
            more = sim.run(item) if isinstance(item, str) else sim.take(item)
        except (ScriptError, ExpectationFailed) as exc:
            print(f"  {exc}", file=out, flush=True)
            continue
        for message in sim.messages:
            print(message, file=out, flush=True)
        sim.messages.clear()
        if not more:
            return EXIT_OK


def main(sim: Any, address: str, script: str | None = None) -> int:
    """``companion sim --web [HOST:]PORT``: serve, then take typed lines and the page's
    inputs until ``quit`` or a signal."""
    from ..sim import EXIT_SCRIPT

    if script:
        print("companion sim: --web plays live; it does not run a --script", file=sys.stderr)
        return EXIT_SCRIPT
    events: queue.SimpleQueue = queue.SimpleQueue()
    try:
        server = start(sim, address, events)
    except (ValueError, OSError) as exc:
        print(f"companion sim: --web: {exc}", file=sys.stderr)
        return EXIT_SCRIPT
    print(f"companion sim: the box is on {server.url}", file=sys.stderr, flush=True)
    try:
        return serve(sim, events, sys.stdin, sys.stdout, render=sys.stdout.isatty())
    finally:
        server.stop()
