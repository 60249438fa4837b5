"""``companion run`` with ``[web] enabled = true``: the page beside the daemon."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..inputs import PinBurned, Refresh
from .archive import Archive
from .publish import Publisher
from .server import Pairing, WebServer

PAIRINGS_FILE = "web-pairings.json"


def pairing_for(web: Any, put: Callable[[Any], None] | None = None,
                state_dir: Path | None = None) -> Pairing | None:
    """The PIN keeper when the table allows control from a phone (``[web] control``);
    a burned PIN is told to the box through ``put`` (the daemon's event queue). With
    ``state_dir``, pairings outlast a restart (hashed, in :data:`PAIRINGS_FILE`)."""
    if not web.control:
        return None
    return Pairing(on_burn=(lambda: put(PinBurned())) if put is not None else None,
                   keep=state_dir / PAIRINGS_FILE if state_dir is not None else None)


def start(web: Any, box: Any, put: Callable[[Any], None],
          pairing: Pairing | None) -> WebServer:
    """Serve ``box`` on ``web.address:web.port``; paired browsers' presses go to ``put``
    (the daemon's event queue), like the buttons'. Read-only without ``pairing``."""
    # Snapshots are built only while a page is open; one arriving asks the game
    # thread for a fresh one through the same queue as the inputs.
    publisher = Publisher(show_box=False, ask=lambda: put(Refresh()))
    server = WebServer(publisher, web.address, web.port,
                       inputs=put if pairing is not None else None, pairing=pairing,
                       archive=Archive(box.session.journal.path))
    box.observers.append(publisher.publish)
    box.refresh()
    return server.start()
