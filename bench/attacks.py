"""The web page attacked as a hostile neighbour would, on loopback only: what the
attacks get, in figures. The attack suite (tests/attacks/) runs the same attacks,
bounded, and checks that each fails; this prints how far each got:

* PIN guessing spread over many addresses (127.x.y.z): guesses before the PIN burns;
* a slowloris: half-sent requests from many addresses against a server with the
  usual 1,024 file handles, and against one with only 64: connections held, whether
  the page still answers, and the CPU the server burns meanwhile (against an idle one).

    python bench/attacks.py [--slowloris 1000] [--seconds 10]

``python bench/attacks.py --serve [--nofile N]`` is the server the slowloris hits: a
separate process, so its CPU time and file handles are its own. It prints its port,
serves until its standard input closes, and then prints what its door counted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # never finished


def source(n: int) -> str:
    """The n-th loopback address after 127.0.0.1 (127.1.0.0/16 and up): a neighbour
    with many addresses, as IPv6 or a flood of spoofed DHCP leases would give."""
    n += 1 << 16
    return f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


def request(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None, source_ip: str | None = None,
            timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source_ip, 0) if source_ip else None)
    try:
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def post_headers(token: str | None = None, **extra: str) -> dict[str, str]:
    """A page's POST headers: the CSRF token is any value, as long as cookie and header
    agree (a page on the box's own origin can set both; a cross-site one neither)."""
    token = token or secrets.token_urlsafe(12)
    return {"Content-Type": "application/json", "X-Companion-CSRF": token,
            "Cookie": f"companion_csrf={token}", **extra}


def guess_pins(port: int, pin: str, addresses: int, most: int = 1000) -> dict[str, Any]:
    """Wrong PINs, each from the next of ``addresses`` loopback addresses (never more
    than the per-address rate limit allows), until the box says the PIN is blocked
    or ``most`` guesses; then the right PIN. Returns the figures."""
    guesses, limited, blocked_after = 0, 0, None
    for n in range(most):
        guess = f"{n:06d}" if f"{n:06d}" != pin else "999999"
        status, _, body = request(port, "POST", "/pair", {"pin": guess}, post_headers(),
                                  source_ip=source(n % addresses))
        guesses += 1
        limited += status == 429
        if status == 403 and b"blocked" in body:
            blocked_after = guesses
            break
    status, _, _ = request(port, "POST", "/pair", {"pin": pin}, post_headers(),
                           source_ip=source(most + 1))
    return {"guesses": guesses, "blocked_after": blocked_after, "rate_limited": limited,
            "right_pin_then": status}


def half_sent(port: int, count: int, addresses: int) -> list[socket.socket]:
    """``count`` requests that never finish their headers, spread over ``addresses``."""
    socks = []
    for n in range(count):
        s = socket.socket()
        s.settimeout(5)
        s.bind((source(n % addresses), 0))
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(HALF_SENT)
        except OSError:
            s.close()
            continue
        socks.append(s)
    return socks


def still_held(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the server still holds open (not closed, not refused)."""
    held = 0
    for s in socks:
        s.setblocking(False)
        try:
            data = s.recv(4096)
        except BlockingIOError:
            held += 1  # nothing said, not closed: still waiting on us
            continue
        except OSError:
            continue
        if data and not data.startswith(b"HTTP/1.1 503"):
            held += 1
    return held


def page_answers(port: int, source_ip: str = "127.0.0.1", timeout: float = 5.0) -> bool:
    try:
        return request(port, "GET", "/", source_ip=source_ip, timeout=timeout)[0] == 200
    except OSError:
        return False


# ---------------------------------------------------------------------- the server


def serve(nofile: int | None) -> int:
    """``--serve``: a read-only page in this process; port on stdout, then the door's
    counts when standard input closes."""
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if nofile:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    from companion.web.publish import Publisher
    from companion.web.server import WebServer

    server = WebServer(Publisher(), "127.0.0.1", 0).start()
    print(server.port, flush=True)
    sys.stdin.read()
    gate = server.gate
    print(json.dumps({"open": gate.count(), "evicted": gate.evicted, "refused": gate.refused,
                      "pauses": gate.pauses}), flush=True)
    server.stop()
    return 0


class Served:
    """``--serve`` in a child process, with its CPU time and stderr at hand."""

    def __init__(self, nofile: int | None = None):
        args = [sys.executable, str(Path(__file__).resolve()), "--serve"]
        if nofile:
            args += ["--nofile", str(nofile)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline())

    def cpu(self) -> float:
        """Seconds of CPU the server has used so far."""
        with open(f"/proc/{self.proc.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def finish(self) -> tuple[dict[str, Any], str]:
        """Stop it: (its door's counts, its stderr)."""
        out, err = self.proc.communicate("", timeout=20)
        return json.loads(out.strip().splitlines()[-1]), err


def slowloris(count: int, seconds: float, nofile: int | None) -> dict[str, Any]:
    server = Served(nofile)
    try:
        idle0 = server.cpu()
        time.sleep(seconds)
        idle = server.cpu() - idle0
        start = server.cpu()
        socks = half_sent(server.port, count, addresses=count)
        time.sleep(seconds)
        answers = page_answers(server.port)
        busy = server.cpu() - start
        held = still_held(socks)
        for s in socks:
            s.close()
        after = page_answers(server.port)
    finally:
        door, err = server.finish()
    return {"sent": count, "held": held, "page_during": answers, "page_after": after,
            "cpu_idle": idle, "cpu_attacked": busy, "log_lines": len(err.splitlines()),
            "tracebacks": err.count("Traceback"), **door}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--nofile", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--slowloris", type=int, default=1000, help="half-sent requests")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each window")
    args = parser.parse_args()
    if args.serve:
        return serve(args.nofile)

    from bench.common import machine
    from companion.web.publish import Publisher
    from companion.web.server import PIN_TRIES, Pairing, WebServer

    print(f"machine: {machine()}")
    pairing = Pairing()
    server = WebServer(Publisher(), "127.0.0.1", 0, inputs=lambda e: None,
                       pairing=pairing).start()
    try:
        pin = pairing.new_pin()
        got = guess_pins(server.port, pin, addresses=200)
    finally:
        server.stop()
    assert got["blocked_after"] == PIN_TRIES, got  # the state this bench claims to measure
    print(f"PIN guessing over 200 addresses: blocked after {got['blocked_after']} wrong "
          f"guesses ({got['rate_limited']} rate-limited); the right PIN then: HTTP "
          f"{got['right_pin_then']}")
    for nofile in (1024, 64):  # a service's usual limit, and a starved one
        r = slowloris(args.slowloris, args.seconds, nofile)
        print(f"slowloris, {r['sent']} half-sent requests from as many addresses, server "
              f"with {nofile} file handles: {r['held']} held ({r['evicted']} closed to make "
              f"room, {r['refused']} told the box is full, {r['pauses']} accept pauses); "
              f"page answers during: {r['page_during']}, after: {r['page_after']}; CPU "
              f"{r['cpu_attacked']:.2f} s in {args.seconds:.0f} s attacked vs "
              f"{r['cpu_idle']:.2f} s idle; {r['log_lines']} log lines, "
              f"{r['tracebacks']} tracebacks")
        assert r["page_during"] and r["page_after"], r
    return 0


if __name__ == "__main__":
    sys.exit(main())
