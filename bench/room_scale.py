"""A room of tables at scale: many boxes, one broker, one ``companion room``.

A real Mosquitto on a free loopback port (each table its own user, an ACL pattern
letting each write only its own topics; ``max_queued_messages`` raised to 10,000, see
docs/design.md), ``--boxes`` simulated boxes, ``companion room`` in a process of its
own, and a client on the room page's live stream (``GET /events``). Each box is a real
session (SQLite journal, a :class:`~companion.box.Box` drawing on luma's in-memory
OLED, the daemon's event queue) with the real MQTT service (its reporter, on-disk
outbox, paho client and thread); the auto-player plays Entanglion, QNO or QLANET at
random (random seeds, random Entanglion set-ups), a press or tap every ``--pace``
seconds (jittered +-50%). ``--per-process`` boxes share a child process: each keeps its
own session, MQTT client and thread, but they share the process's one game thread,
which takes their inputs in turn (an input is timed when that thread takes it, so
waiting for the thread is not latency; the pace the boxes kept is printed).

Each box stamps each input that begins a turn (CLOCK_MONOTONIC, shared by the
processes) with (game id, turn number), which both the box's snapshot and the room's
summary of it carry; it has reached the page when the page shows that table at or past
it (a box sends only its newest snapshot, so a game's last turn may arrive as the menu
after it). A meter (a plain MQTT client, reading the broker's ``$SYS`` too) times the
same turns at the broker and counts each table's PUBLISH bytes. Printed:

- input on a box -> the room page, and -> a plain subscriber: median, p99, worst;
- the broker's CPU (its thread's, from ``/proc``) per message it received; the room's
  CPU per message; the boxes' CPU per press or tap;
- bytes each table publishes per game, by game (from the game's start on the main menu
  to the next's); the broker's ``$SYS`` count of publish bytes beside them;
- the bytes of the room page's stream, and of its first message (every table);
- records kept by the room / expected.

The bench fails (exit 1) unless every box connected and stayed so, every timed turn
reached the page in order, and every finished game's record was kept by the room
exactly once (its store: one file per game) and counted on its page. With ``--max`` it
runs 50, 100, 200, ... (at most 1,000) boxes until the page's p99 passes
``--limit-ms`` or the boxes fall below 90% of their pace, and prints how many this
machine held.

    python bench/room_scale.py [--boxes 50] [--pace 0.25] [--seconds 60] [--games 1]
    python bench/room_scale.py --max [--pace 2 --seconds 45 --games 0] [--limit-ms 1000]
"""

from __future__ import annotations

import argparse
import bisect
import functools
import heapq
import json
import math
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mqtt")]

from bench.common import machine  # noqa: E402
from bench.harness import child_env, command_event, cpu_seconds  # noqa: E402

ROOM = "hall"
GAMES = ("entanglion", "qno", "qlanet")  # each new game at a table: one of these
MAX = 1000  # --max goes no further: the room keeps 1,000 tables
TEACHER = "teacher"
METER = "meter"


def table_name(i: int) -> str:
    return f"t{i:04d}"


def password(user: str) -> str:
    return f"pw-{user}"


ACL = f"""\
user {TEACHER}
topic write companion/{ROOM}/command
topic read companion/{ROOM}/#

user {METER}
topic read companion/#
topic read $SYS/#

pattern write companion/{ROOM}/%u/#
pattern read companion/{ROOM}/command
"""


# ----------------------------------------------------------------------- a box


@functools.cache
def registry() -> Any:
    """The simulator's tags, read once per process (the boxes only look cards up)."""
    from companion.registry import sim_registry

    return sim_registry()


class Table:
    """One simulated box on the broker, played a press or tap at a time."""

    def __init__(self, folder: Path, name: str, port: int, seed: int):
        from companion.box import Box
        from companion.config import MqttConfig
        from companion.daemon import Daemon
        from companion.hardware.buttons import Classifier
        from companion.hardware.display import dummy_display
        from companion.hardware.inbox import Inbox
        from companion.hardware.leds import LedSink
        from companion.journal import Journal
        from companion.mqtt import service
        from companion.session import Session, SessionConfig

        folder.mkdir(parents=True)
        self.name = name
        self.rnd = random.Random(seed)
        self.registry = registry()
        self.journal = Journal(folder / "journal.db")
        session = Session(self.journal, self.registry, SessionConfig(),
                          lambda: self.rnd.randrange(1 << 30))
        self.box = Box(session, dummy_display(), LedSink())
        self.inbox = Inbox()
        self.daemon = Daemon(self.box, self.inbox, Classifier(0.8, 0.0))
        (folder / "password").write_text(password(name) + "\n")
        mqtt = MqttConfig(enabled=True, host="127.0.0.1", port=port, room=ROOM, table=name,
                          username=name, password_file=str(folder / "password"))
        self.stop_mqtt = service.start(mqtt, self.box, self.inbox.put)
        self.link = self.box.observers[-1].link
        self.player: Any = None
        self.started = 0.0  # when the game in play was started from the main menu
        # (game id, turn number, when) of each input that began a turn, when it was taken
        self.samples: list[tuple[int, int, float]] = []
        self.games: list[tuple[int, float, str]] = []  # (id, started at, game) of games finished
        self.starts: list[float] = []  # when each game was started, the one in play too
        self.commands = 0
        self.last = 0.0  # when it took its last press or tap

    def step(self) -> None:
        """One press or tap, as its players would make it."""
        from companion.autoplay import AutoPlayer
        from companion.inputs import Press, Tick
        from companion.session import ROLL_STEP

        while not self.inbox.empty():  # room commands the MQTT thread queued
            self.daemon.step(0)
        s = self.box.session
        if self.player is None:
            if s.mode == "menu" and s.overlay is None and not s.notices and s.menu is None:
                game = self.rnd.choice(GAMES)
                options = {"start_space": self.rnd.choice((1, 2, 4)),
                           "deck": self.rnd.choice(("virtual", "physical"))} \
                    if game == "entanglion" else {}
                self.player = AutoPlayer(self.rnd.randrange(1 << 30), options=options,
                                         game=game)
                self.started = time.monotonic()
                self.starts.append(self.started)
            else:  # the end screens, back to the main menu
                self.press(Press("OK"))
                return
        command = self.player.next_command(s)
        if command is None:  # the game is over
            self.games.append((s.game_id, self.started, self.player.game))
            self.player = None
            self.press(Press("OK"))
            return
        game = s.game_id if s.mode == "game" else None
        before = s.game.state.turn_number if game is not None else None
        taken = time.monotonic()
        self.press(command_event(self.registry, command, self.player.game))
        while self.box.tick_interval() == ROLL_STEP:  # a die roll plays to its end
            self.box.handle(Tick())
        if s.mode == "game" and s.game_id == game and s.game.state.turn_number != before:
            self.samples.append((game, s.game.state.turn_number, taken))

    def press(self, event: Any) -> None:
        self.box.handle(event)
        self.commands += 1
        self.last = time.monotonic()

    def delivered(self) -> bool:
        """Every finished game's record acknowledged by the broker."""
        return self.link.outbox.pending() == 0

    def close(self) -> None:
        self.stop_mqtt()
        self.journal.close()


def child(args: argparse.Namespace) -> int:
    """``--per-process`` boxes in this process; talks to the bench in JSON lines."""
    import logging

    logging.basicConfig(level=logging.WARNING)
    folder = Path(args.state_dir)
    tables = [Table(folder / table_name(i), table_name(i), args.port, args.seed * 100003 + i)
              for i in range(args.first, args.first + args.count)]
    deadline = time.monotonic() + 60
    while not all(t.link.connected for t in tables) and time.monotonic() < deadline:
        time.sleep(0.05)
    print(json.dumps({"connected": sum(t.link.connected for t in tables)}), flush=True)
    go = float(sys.stdin.readline())  # the same moment for every process
    rnd = random.Random(args.seed + args.first)
    due = [(go + rnd.uniform(0, args.pace), i) for i in range(len(tables))]
    heapq.heapify(due)
    late = 0.0
    cpu0 = cpu_seconds(os.getpid())
    ends = go + args.seconds
    while True:
        at, i = heapq.heappop(due)
        table = tables[i]
        if at >= ends and len(table.games) >= args.games:
            if not due:
                break
            continue  # this box is done: it plays no more
        now = time.monotonic()
        if at > now:
            time.sleep(at - now)
        else:
            late = max(late, now - at)
        table.step()
        heapq.heappush(due, (max(at, time.monotonic() - args.pace)
                             + args.pace * rnd.uniform(0.5, 1.5), i))
    played = time.monotonic() - go
    cpu = cpu_seconds(os.getpid()) - cpu0
    deadline = time.monotonic() + 60
    while not all(t.delivered() for t in tables) and time.monotonic() < deadline:
        time.sleep(0.05)
    print(json.dumps({
        "tables": {t.name: {"samples": t.samples, "games": t.games, "starts": t.starts,
                            "commands": t.commands, "busy": t.last - go,
                            "delivered": t.delivered(), "connected": t.link.connected}
                   for t in tables},
        "cpu": cpu, "played": played, "late": late}), flush=True)
    sys.stdin.readline()  # the bench has read the room: the boxes may go
    for t in tables:
        t.close()
    return 0


# ----------------------------------------------------------------------- the room's side


def mqtt_client(port: int, user: str, topics: list[str], on_message: Any) -> Any:
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    subscribed = threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{user}",
                         protocol=paho.MQTTv5)
    client.username_pw_set(user, password(user))
    client.on_message = on_message
    client.on_subscribe = lambda *a: subscribed.set()
    client.on_connect = lambda c, *a: c.subscribe([(t, 1) for t in topics])
    client.connect("127.0.0.1", port)
    client.loop_start()
    if not subscribed.wait(10):
        raise RuntimeError(f"{user} could not subscribe to the broker")
    return client


AFTER = 1 << 30  # a turn number past any game's


def position(state: dict[str, Any] | None, before: tuple[int, int] | None) -> tuple[int, int]:
    """Where a table's state stands in its stream (a box's snapshot, or the room's
    summary of it: both carry these fields): (game id, turn number) in a game; on the
    main menu or a set-up, past the last game shown (a box sends only its newest
    snapshot, so a game's last turn may come as the menu after it)."""
    state = state or {}
    number = (state.get("turn") or {}).get("number")
    if state.get("mode") == "game" and state.get("game_id") is not None and number is not None:
        return state["game_id"], number
    return (before[0] if before else 0), AFTER


class Shown:
    """Each table's positions as they arrived, from one reader thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.shown: dict[str, list[tuple[tuple[int, int], float]]] = {}

    def add(self, table: str, state: dict[str, Any] | None, at: float) -> None:
        with self.lock:
            shown = self.shown.setdefault(table, [])
            shown.append((position(state, shown[-1][0] if shown else None), at))

    def copy(self) -> dict[str, list[tuple[tuple[int, int], float]]]:
        with self.lock:
            return {name: list(v) for name, v in self.shown.items()}


class RoomPage(Shown):
    """``companion room`` in a process of its own, and its page's live stream (GET
    /events) read as the page's script reads it: every table first, then each table
    that changed."""

    def __init__(self, folder: Path, port: int, analysis: bool):
        super().__init__()
        (folder / "teacher-password").write_text(password(TEACHER) + "\n")
        config = folder / "room.toml"
        config.write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n'
                          f'room = "{ROOM}"\nusername = "{TEACHER}"\n'
                          f'password_file = "teacher-password"\n'
                          f'[web]\naddress = "127.0.0.1"\n')
        self.state_dir = folder / "room"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "room", "--config", str(config), "--port", "0",
             "--state-dir", str(self.state_dir), *(() if analysis else ("--no-analysis",))],
            stdout=subprocess.PIPE, stderr=open(folder / "room.log", "w"), text=True,
            env=child_env(), cwd=ROOT)
        line = read_line(self.proc, parse=False)  # "Room hall: open http://host:port/?key=..."
        self.address = line.split("open http://", 1)[1].split("/", 1)[0]
        self.records_shown = 0
        self.bytes = 0  # all the stream sent (its head aside)
        self.stream = self.open_stream()
        self.first = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.first.wait(10):
            raise AssertionError("the room page's stream sent nothing")

    def open_stream(self) -> socket.socket:
        host, port = self.address.rsplit(":", 1)
        stream = socket.create_connection((host, int(port)), timeout=10)
        # HTTP/1.0: the stream comes unchunked, events end at their blank line
        stream.sendall(f"GET /events HTTP/1.0\r\nHost: {self.address}\r\n\r\n".encode())
        return stream

    def first_load(self) -> int:
        """The bytes of a page's first message (every table), opened now."""
        with self.open_stream() as stream:
            buf = b""
            while b"\ndata: " not in buf or not buf.endswith(b"\n\n"):
                data = stream.recv(1 << 16)
                assert data, "the room page's stream closed"
                buf += data
        return len(buf.split(b"\ndata: ", 1)[1])

    def _read(self) -> None:
        buf = b""
        self.stream.settimeout(None)
        try:
            while b"\r\n\r\n" not in buf:  # the response's head
                buf += self.stream.recv(1 << 16)
            buf = buf.split(b"\r\n\r\n", 1)[1]
            self.bytes = len(buf)
            now = time.monotonic()
            while True:
                while b"\n\n" in buf:
                    event, buf = buf.split(b"\n\n", 1)
                    self._event(event, now)
                data = self.stream.recv(1 << 16)
                if not data:
                    return
                now = time.monotonic()
                self.bytes += len(data)
                buf += data
        except OSError:
            return  # closed by the bench (a stream that ends early fails the run's checks)

    def _event(self, raw: bytes, now: float) -> None:
        kind, data = "message", b""
        for line in raw.split(b"\n"):
            line = line.rstrip(b"\r")
            if line.startswith(b"event: "):
                kind = line[7:].decode()
            elif line.startswith(b"data: "):
                data += line[6:]
        if not data:
            return
        message = json.loads(data)
        if kind == "message":
            for view in message["tables"]:
                self.add(view["name"], view["state"], now)
            self.records_shown = message["records"]
            self.first.set()
        elif kind == "table":
            self.add(message["name"], message["state"], now)
        elif kind == "records":
            self.records_shown = message["records"]

    def records(self) -> set[tuple[str, str, str]]:
        """The games the room keeps: one file each, ``<table>.<game id>.json``."""
        folder = self.state_dir / f"room-{ROOM}"
        return {(ROOM, *f.stem.split(".")) for f in folder.glob("*.json")}

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def close(self) -> None:
        self.stream.close()
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def packet_bytes(topic: str, payload: bytes, qos: int) -> int:
    """The size of an MQTT 5 PUBLISH as the box sends it: fixed header, topic, packet
    id (QoS 1), an empty property list, payload."""
    rest = 2 + len(topic.encode()) + (2 if qos else 0) + 1 + len(payload)
    return 1 + max(1, math.ceil(rest.bit_length() / 7)) + rest


class Meter(Shown):
    """What the broker hands a plain subscriber: each table's publishes (bytes, and its
    snapshots' positions, when they arrived), each record's copies, and the broker's
    ``$SYS`` counters."""

    SYS = ("messages/received", "messages/sent", "publish/bytes/received")

    def __init__(self, port: int):
        super().__init__()
        self.sent: dict[str, list[tuple[float, int]]] = {}
        self.copies: dict[tuple[str, str, int], int] = {}  # records, by (room, table, game)
        self.sys: dict[str, float] = {}
        self.client = mqtt_client(port, METER, [f"companion/{ROOM}/+/#", "$SYS/broker/#"],
                                  self._message)

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        now = time.monotonic()
        if message.topic.startswith("$SYS/broker/"):
            key = message.topic[len("$SYS/broker/"):]
            if key in self.SYS:
                with self.lock:
                    self.sys[key] = float(message.payload)
            return
        _, _, table, leaf = message.topic.split("/", 3)
        if leaf == "state":
            self.add(table, json.loads(message.payload), now)
        with self.lock:
            self.sent.setdefault(table, []).append(
                (now, packet_bytes(message.topic, message.payload, message.qos)))
            if leaf == "record":
                r = json.loads(message.payload)
                key = (r["room"], r["table"], r["game_id"])
                self.copies[key] = self.copies.get(key, 0) + 1

    def counters(self) -> dict[str, float]:
        """``$SYS`` as the broker publishes it next (every second)."""
        with self.lock:
            seen = dict(self.sys)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with self.lock:
                if self.sys.get("messages/received") != seen.get("messages/received"):
                    return dict(self.sys)
            time.sleep(0.05)
        raise AssertionError("the broker's $SYS counters stopped")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


# ----------------------------------------------------------------------- one run


def run(boxes: int, args: argparse.Namespace) -> dict[str, Any]:
    """One room of ``boxes`` tables; returns its figures. Raises AssertionError when the
    state it measures was not reached."""
    from broker import Broker

    work = Path(tempfile.mkdtemp(prefix="companion-room-scale-"))
    users = {u: password(u) for u in (TEACHER, METER, *map(table_name, range(boxes)))}
    broker = Broker(work, users=users, acl=ACL,
                    settings=("sys_interval 1", "max_queued_messages 10000")).start()
    children: list[subprocess.Popen] = []
    page = meter = None
    done = False
    try:
        meter = Meter(broker.port)
        page = RoomPage(work, broker.port, args.analysis)
        for first in range(0, boxes, args.per_process):
            children.append(subprocess.Popen(
                [sys.executable, __file__, "--child", "--first", str(first),
                 "--count", str(min(args.per_process, boxes - first)),
                 "--port", str(broker.port), "--state-dir", str(work / "boxes"),
                 "--pace", str(args.pace), "--seconds", str(args.seconds),
                 "--games", str(args.games), "--seed", str(args.seed)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env(),
                stderr=open(work / f"boxes-{first}.log", "w")))
        connected = sum(read_line(c)["connected"] for c in children)
        assert connected == boxes, f"only {connected} of {boxes} boxes connected to the broker"
        sys0, broker0, room0 = meter.counters(), broker_cpu(broker), page.cpu()
        stream0 = page.bytes
        go = time.monotonic() + 0.5
        for c in children:
            c.stdin.write(f"{go}\n")
            c.stdin.flush()
        results = [read_line(c, timeout=args.seconds * 20 + 300) for c in children]
        tables = {name: t for r in results for name, t in r["tables"].items()}
        assert all(t["connected"] for t in tables.values()), "a box lost the broker"
        assert all(t["delivered"] for t in tables.values()), \
            "a box's finished games were never acknowledged by the broker"
        latencies = caught_up(page, tables, "the room page")
        sys1, broker1, room1 = meter.counters(), broker_cpu(broker), page.cpu()
        stream1 = page.bytes
        elapsed = time.monotonic() - go
        at_broker = caught_up(meter, tables, "a plain subscriber")
        records = check_records(page, meter, tables)
        first = page.first_load()  # the tables as they stand, the boxes still on
        for c in children:
            c.stdin.write("\n")
            c.stdin.flush()
        for c in children:
            c.wait(60)
        done = True
        commands = sum(t["commands"] for t in tables.values())
        # the pace kept: presses and taps made / asked, each box while it played
        asked = sum(t["busy"] for t in tables.values()) / args.pace if args.pace else commands
        return {
            "boxes": boxes, "seconds": elapsed, "played": max(r["played"] for r in results),
            "commands": commands, "kept": commands / asked,
            "late": max(r["late"] for r in results),
            "latency": percentiles(latencies), "at_broker": percentiles(at_broker),
            "broker_cpu": broker1 - broker0,
            "received": sys1["messages/received"] - sys0["messages/received"],
            "sent": sys1["messages/sent"] - sys0["messages/sent"],
            "publish_bytes": sys1["publish/bytes/received"] - sys0["publish/bytes/received"],
            "room_cpu": room1 - room0,
            "stream_bytes": stream1 - stream0, "first_bytes": first,
            "boxes_cpu": sum(r["cpu"] for r in results),
            "per_game": bytes_per_game(meter, tables), "records": records,
        }
    finally:
        for c in children:
            if c.poll() is None:
                c.kill()
                c.wait()
        for client in (page, meter):
            if client is not None:
                client.close()
        broker.kill()
        if done:
            shutil.rmtree(work, ignore_errors=True)
        else:  # the boxes', room's and broker's logs, for the failure
            print(f"(logs in {work})", flush=True)


def broker_cpu(broker: Any) -> float:
    """Mosquitto's CPU seconds: one thread, counted in nanoseconds where the kernel can."""
    return cpu_seconds(broker.proc.pid, broker.proc.pid)


def read_line(proc: subprocess.Popen, timeout: float = 120, parse: bool = True) -> Any:
    """A child's next line, as JSON (it dies or stays silent: the run fails, saying so)."""
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not got or not got[0]:
        raise AssertionError(f"{proc.args[1:4]} did not answer (exit {proc.poll()})")
    return json.loads(got[0]) if parse else got[0]


def caught_up(seen: Shown, tables: dict[str, Any], who: str,
              timeout: float = 30) -> list[float]:
    """Each timed input's latency to ``seen``, once it has every table's last one. An
    input is shown by the table's first state at or past it (its game, its turn)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = seen.copy()
        behind = [name for name, t in tables.items() if t["samples"] and (
            name not in shown or shown[name][-1][0] < tuple(t["samples"][-1][:2]))]
        if not behind:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(behind)} tables' last turns never reached {who} "
                                 f"(e.g. {behind[0]})")
        time.sleep(0.1)
    latencies = []
    for name, t in tables.items():
        keys = [k for k, _ in shown.get(name, [])]
        assert keys == sorted(keys), f"{who} showed {name}'s turns out of order"
        for game, number, taken in t["samples"]:
            at = bisect.bisect_left(keys, (game, number))
            latencies.append(shown[name][at][1] - taken)
    assert latencies, "no input was timed"
    return latencies


def percentiles(values: list[float]) -> dict[str, float]:
    """Median, p99 and worst, in ms."""
    values = sorted(values)
    return {"count": len(values), "median": 1000 * values[len(values) // 2],
            "p99": 1000 * values[max(0, math.ceil(len(values) * 0.99) - 1)],
            "worst": 1000 * values[-1]}


def check_records(page: RoomPage, meter: Meter, tables: dict[str, Any]) -> dict[str, int]:
    """Every finished game's record reached the room, and no other: kept once each,
    counted on the page."""
    expected = {(ROOM, name, str(g[0])) for name, t in tables.items() for g in t["games"]}
    deadline = time.monotonic() + 30
    while (page.records() != expected or page.records_shown != len(expected)) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    kept = page.records()
    lost, stray = expected - kept, kept - expected
    assert not lost, f"{len(lost)} of {len(expected)} records never reached the room"
    assert not stray, f"the room kept records of games no box finished: {sorted(stray)[:3]}"
    assert page.records_shown == len(expected), \
        f"the room page counts {page.records_shown} records of {len(expected)}"
    with meter.lock:
        copies = sum(meter.copies.values()) - len(meter.copies)
    return {"expected": len(expected), "kept": len(kept), "duplicates": copies}


def bytes_per_game(meter: Meter, tables: dict[str, Any]) -> dict[str, list[int]]:
    """The bytes each finished game cost its table, by game: all it published from the
    game's start on the main menu to the next game's start (end screens and record
    included)."""
    with meter.lock:
        sent = {name: list(v) for name, v in meter.sent.items()}
    out: dict[str, list[int]] = {}
    for name, t in tables.items():
        arrivals = [at for at, _ in sent.get(name, [])]
        for _, start, game in t["games"]:
            end = min((s for s in t["starts"] if s > start), default=math.inf)
            lo, hi = bisect.bisect_left(arrivals, start), bisect.bisect_left(arrivals, end)
            out.setdefault(game, []).append(sum(n for _, n in sent[name][lo:hi]))
    return out


# ----------------------------------------------------------------------- printing


def report(r: dict[str, Any]) -> None:
    games = r["records"]["expected"]
    print(f"{r['boxes']} boxes, {r['commands']} presses and taps in {r['played']:.0f} s "
          f"({100 * r['kept']:.0f}% of the pace asked; the boxes' threads at worst "
          f"{r['late'] * 1000:.0f} ms behind), {games} games finished", flush=True)
    for key, where in (("latency", "the room page"), ("at_broker", "a plain subscriber")):
        p = r[key]
        print(f"  input on a box -> {where}, {p['count']} turns: median {p['median']:.0f} ms, "
              f"p99 {p['p99']:.0f} ms, worst {p['worst']:.0f} ms")
    print(f"  broker: {r['broker_cpu']:.2f} s CPU in {r['seconds']:.0f} s "
          f"({100 * r['broker_cpu'] / r['seconds']:.1f}% of a core), {r['received']:.0f} "
          f"messages in, {r['sent']:.0f} out: "
          f"{1e6 * r['broker_cpu'] / max(1, r['received']):.0f} us per message in")
    print(f"  room: {r['room_cpu']:.2f} s CPU ({100 * r['room_cpu'] / r['seconds']:.1f}% "
          f"of a core): {1e6 * r['room_cpu'] / max(1, r['received']):.0f} us per message")
    print(f"  the room page's stream: {r['stream_bytes'] / r['seconds'] / 1000:.0f} KB/s "
          f"(its first message, every table: {r['first_bytes'] / 1000:.1f} KB, "
          f"{r['first_bytes'] / r['boxes'] / 1000:.2f} KB a table)")
    print(f"  boxes: {1000 * r['boxes_cpu'] / r['commands']:.2f} ms CPU per press or tap")
    for game, per in sorted(r["per_game"].items()):
        per = sorted(per)
        print(f"  bytes a table publishes per {game} game ({len(per)} games): median "
              f"{per[len(per) // 2] / 1000:.0f} KB, mean {sum(per) / len(per) / 1000:.0f} KB")
    print(f"  publish bytes the broker received: {r['publish_bytes'] / r['seconds'] / 1000:.0f}"
          f" KB/s, {r['publish_bytes'] / r['seconds'] / r['boxes'] / 1000:.2f} KB/s a table "
          f"($SYS)")
    print(f"  records kept by the room / expected: {r['records']['kept']}/{games} "
          f"({r['records']['duplicates']} duplicates at the broker, kept once)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=50)
    parser.add_argument("--pace", type=float, default=0.25,
                        help="seconds between a box's presses and taps (jittered +-50%%)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="the boxes play at least this long")
    parser.add_argument("--games", type=int, default=1,
                        help="... and until each has finished this many games")
    parser.add_argument("--per-process", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--analysis", action="store_true",
                        help="the room analyses its Entanglion games too (off: its CPU is "
                             "the page's and the client's)")
    parser.add_argument("--max", action="store_true",
                        help=f"50, 100, 200, ... (at most {MAX}) boxes until a limit breaks")
    parser.add_argument("--limit-ms", type=float, default=1000,
                        help="--max stops when the p99 latency passes this")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    from broker import missing

    if missing():
        print(f"skipped: {missing()}")
        return 0
    print(f"machine: {machine()}; {os.cpu_count()} cores", flush=True)
    if not args.max:
        try:
            report(run(args.boxes, args))
        except AssertionError as why:
            print(f"FAILED: {why}", flush=True)
            return 1
        return 0
    held, boxes = 0, 50
    while True:
        try:
            r = run(boxes, args)
        except AssertionError as why:
            print(f"{boxes} boxes: FAILED: {why}", flush=True)
            break
        report(r)
        if r["latency"]["p99"] > args.limit_ms or r["kept"] < 0.9:
            print(f"{boxes} boxes: past the limit (p99 within {args.limit_ms:.0f} ms, the "
                  f"boxes at 90% of their pace or more)", flush=True)
            break
        held = boxes
        if boxes >= MAX:
            break
        boxes = min(boxes * 2, MAX)
    print(f"this machine held {held} boxes (p99 within {args.limit_ms:.0f} ms, nothing lost)")
    return 0 if held else 1


if __name__ == "__main__":
    raise SystemExit(main())
