"""Shared rigs for the web tests: a simulator box with its page served on loopback."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import Sim, build
from companion.web import shell


def make_sim(tmp_path: Path, seed: int = 7) -> Sim:
    sim, _journal = build(tmp_path / "state", None, seed, SessionConfig(), None)
    return sim


def play(sim: Sim, player: AutoPlayer, limit: int = 5000, each: Any = None) -> int:
    """Play ``player``'s game to its end; ``each(sim)`` after every command."""
    s = sim.box.session
    for n in range(limit):
        cmd = player.next_command(s)
        if cmd is None:
            return n
        sim.run(cmd)
        if each is not None:
            each(sim)
    raise AssertionError("the game did not end")


class Client:
    """A page's requests to a server on 127.0.0.1 (``server``: a WebServer)."""

    def __init__(self, server: Any):
        self.server = server

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None, timeout: float = 5.0
                ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=timeout)
        try:
            data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
            conn.request(method, path, body=data, headers=headers or {})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def csrf(self) -> str:
        _, headers, _ = self.request("GET", "/")
        cookie = headers["set-cookie"].split(";")[0]
        return cookie.split("=", 1)[1]

    def post_input(self, body: Any, token: str | None = None,
                   extra: dict[str, str] | None = None) -> tuple[int, bytes]:
        token = token or self.csrf()
        headers = {"Content-Type": "application/json", "X-Companion-CSRF": token,
                   "Cookie": f"companion_csrf={token}", **(extra or {})}
        status, _, data = self.request("POST", "/input", body, headers)
        return status, data

    def snapshot(self) -> dict[str, Any]:
        return json.loads(self.request("GET", "/snapshot")[2])


class Rig(Client):
    """A sim box served on 127.0.0.1 with a game thread taking the page's inputs."""

    def __init__(self, tmp_path: Path, seed: int = 7):
        self.sim = make_sim(tmp_path, seed)
        # A Queue, not a SimpleQueue: it counts the events not yet played (task_done),
        # so wait_idle wakes when the last one is, without polling.
        self.events: queue.Queue = queue.Queue()
        self.server = shell.start(self.sim, "127.0.0.1:0", self.events)
        self.lock = threading.Lock()  # tests read the session while the thread plays
        self._stop = False
        self.handled: list[Any] = []  # every event the game thread took, in order
        self.thread = threading.Thread(target=self._game_thread, daemon=True)
        self.thread.start()

    def _game_thread(self) -> None:
        while not self._stop:
            try:
                event = self.events.get(timeout=0.05)
            except queue.Empty:
                continue
            try:
                with self.lock:
                    self.handled.append(event)
                    if isinstance(event, str):
                        self.sim.run(event)
                    else:
                        self.sim._input(event)
            finally:
                self.events.task_done()

    def run(self, line: str) -> None:
        """A typed command, through the same queue as the page's inputs."""
        self.events.put(line)

    def autoplay(self, player: AutoPlayer, limit: int) -> int:
        """Up to ``limit`` of ``player``'s commands through the queue, each played before
        the next is chosen; returns how many (fewer: the game ended)."""
        for n in range(limit):
            with self.lock:
                cmd = player.next_command(self.sim.box.session)
            if cmd is None:
                return n
            self.run(cmd)
            self.wait_idle()
        return limit

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Until every event put so far has been played (or ``timeout`` passed)."""
        deadline = time.monotonic() + timeout
        with self.events.all_tasks_done:
            while self.events.unfinished_tasks and time.monotonic() < deadline:
                self.events.all_tasks_done.wait(deadline - time.monotonic())

    def close(self) -> None:
        self._stop = True
        self.server.stop()
        self.thread.join(5)
        self.sim.box.session.journal.close()


@pytest.fixture
def rig(tmp_path):
    """A simulated box serving its page on loopback (a :class:`Rig`), closed afterwards."""
    r = Rig(tmp_path)
    yield r
    r.close()
