"""The files the live pages are made of (the box's, and the room's in
:mod:`companion.room.server`), read from the package once and kept in memory, each with
its gzip, and what the two pages share, written once in ``companion/web/assets``:

* ``theme.js``: the theme switch (light, dark, or as the device prefers; the choice kept);
* ``theme.css``: the two themes' colours, the header and the panels;
* ``head.html``: the start of both pages' ``<head>`` (metadata, those two files). A
  page's HTML says ``<!--head-->`` where it goes, then adds its title, stylesheet and
  script: a deferred script runs in the order written, and a later stylesheet overrides
  an earlier one, so the shared ones come first.

Both servers serve the shared files at the same paths (:data:`SHARED_ROUTE`), from the
same bytes. The Content-Security-Policy allows scripts and styles from the server only,
so all of this is files: nothing inline.
"""

from __future__ import annotations

import gzip
import re
from importlib import resources

TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "css": "text/css; charset=utf-8"}
SHARED = ("theme.js", "theme.css")
SHARED_ROUTE = "|".join(map(re.escape, SHARED))  # in each server's route of its assets


def _read(package: str, name: str) -> bytes:
    return (resources.files(package) / "assets" / name).read_bytes()


HEAD = _read(__package__, "head.html").rstrip(b"\n")


def assets(package: str, *names: str) -> dict[str, bytes]:
    """``package``'s assets ``names``, each page with the shared head in place, and the
    shared files."""
    own = {name: _read(package, name).replace(b"<!--head-->", HEAD) for name in names}
    return {**own, **{name: _read(__package__, name) for name in SHARED}}


def gzipped(assets: dict[str, bytes]) -> dict[str, bytes]:
    """Each asset compressed once, at start (JSON answers are compressed as they go)."""
    return {name: gzip.compress(data, 9, mtime=0) for name, data in assets.items()}
