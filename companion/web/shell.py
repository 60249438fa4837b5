"""``companion sim --web``: the web side of the simulator with the box in a browser.

:func:`start` publishes the simulated box and serves it; the page's presses and taps go
on the queue the simulator takes its typed commands from (``companion/sim.py`` runs that
loop: the simulator drives the web page, never the other way round).
"""

from __future__ import annotations

import queue
from typing import Any

from ..inputs import Refresh
from .address import PageAddress
from .archive import Archive
from .publish import Publisher
from .server import WebServer


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
