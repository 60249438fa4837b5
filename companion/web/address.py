"""The page's address as a phone at the table must type it: the box's own address on
the local network and the port, never 127.0.0.1.

``[web] address`` is what the server listens on. A specific address is the one to
reach it by; every interface (``0.0.0.0``, ``::``) means the address the box's
network gives it, found by asking the kernel which source address it would use
towards an outside address (a UDP ``connect`` sends nothing). Listening on loopback
only, or on no network at all, gives no address and says why, in the table's words.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from typing import Callable

from ..i18n import _

PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): routed like the internet, never reached


def lan_ip() -> str | None:
    """The box's IPv4 address on its network, or None without one (no route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(PROBE)  # UDP: only picks a route and a source address
            ip = sock.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(ip).is_unspecified or \
        ipaddress.ip_address(ip).is_loopback else ip


def page_url(address: str, port: int, find: Callable[[], str | None] = lan_ip
             ) -> tuple[str | None, str]:
    """(the page's URL, "") or (None, why there is none)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:  # a name in the config: the table reaches the box by it
        return f"http://{address}:{port}/", ""
    if ip.is_loopback:
        return None, _("The page is for this box only ([web] address).")
    if ip.is_unspecified:
        found = find()
        if found is None:
            return None, _("No network: join the box to the table's Wi-Fi.")
        ip = ipaddress.ip_address(found)
    host = f"[{ip}]" if ip.version == 6 else str(ip)
    return f"http://{host}:{port}/", ""


class PageAddress:
    """:func:`page_url` for the box's menus, looked up again at most every ``ttl``
    seconds (the main menu asks at every frame; the network may come later)."""

    def __init__(self, address: str, port: int, find: Callable[[], str | None] = lan_ip,
                 clock: Callable[[], float] = time.monotonic, ttl: float = 10.0):
        self.address, self.port, self.find = address, port, find
        self.clock, self.ttl = clock, ttl
        self._kept: tuple[float, tuple[str | None, str]] | None = None

    def __call__(self) -> tuple[str | None, str]:
        now = self.clock()
        if self._kept is None or now - self._kept[0] >= self.ttl:
            self._kept = (now, page_url(self.address, self.port, self.find))
        return self._kept[1]
