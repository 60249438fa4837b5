"""The request handler every page of the box's server builds on (the live page's answers
in :mod:`.server`, the past games' pages in :mod:`.past`)."""

from __future__ import annotations

import gzip
import json
from typing import Any, NoReturn

import tornado.web

GZIP_FROM = 512  # bytes: a smaller answer is not worth a gzip header and the CPU
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; connect-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class Handler(tornado.web.RequestHandler):
    """What every page and answer of the box shares: the server it serves, the security
    headers, the Host check, the door's busy mark, JSON errors and gzip."""

    server: Any  # the WebServer (not imported: it imports every handler)

    def initialize(self, server: Any) -> None:
        self.server = server

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    def prepare(self) -> None:
        self.server.gate.busy(self.request.connection.stream, True)
        if not self.server.names_the_box(self.request):
            self.deny(403, "this box answers to its own address or name only")

    def on_finish(self) -> None:
        self.server.gate.busy(self.request.connection.stream, False)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "application/json")
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None)
        self.finish(json.dumps({"error": reason or self._reason}))

    def deny(self, status: int, why: str) -> NoReturn:
        raise tornado.web.HTTPError(status, why)

    def send(self, data: bytes, content_type: str = "application/json",
             gzipped: bytes | None = None) -> None:
        """Finish with ``data``, gzipped when the browser takes it and it is worth it
        (``gzipped``: the same, compressed beforehand)."""
        self.set_header("Content-Type", content_type)
        self.set_header("Vary", "Accept-Encoding")
        takes = "gzip" in self.request.headers.get("Accept-Encoding", "")
        if takes and (gzipped is not None or len(data) >= GZIP_FROM):
            self.set_header("Content-Encoding", "gzip")
            data = gzipped if gzipped is not None else gzip.compress(data, 6, mtime=0)
        self.finish(data)
