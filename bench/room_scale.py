"""A room of tables at scale: many boxes, one broker, one room page.

A real Mosquitto on a free loopback port (each table its own user, an ACL pattern
letting each write only its own topics), ``--boxes`` simulated boxes and the room's
side. Each box is a real session (SQLite journal, a :class:`~companion.box.Box`
drawing on luma's in-memory OLED, the daemon's event queue) with the real MQTT
service (its reporter, on-disk outbox and client thread), and the auto-player
playing Entanglion games dealt at random (random seeds and set-up choices), one
press or tap every ``--pace`` seconds (jittered +-50%). The boxes run
``--per-process`` to a child process: each box keeps its own session, MQTT client and
thread, but the boxes of a process share one game thread, which takes their inputs
in turn (a box's input is timed when that thread takes it, so waiting for the
thread is not counted as latency, and the rate the boxes reached is printed).

The room's side is the stand-in a room page would subscribe with: one MQTT client on
``companion/<room>/+/#``, as the room's user. A meter (another client, reading the
broker's ``$SYS`` topics too) counts the bytes each table publishes.

Each box stamps each game input it takes (CLOCK_MONOTONIC, shared by the processes)
with the game's id and input count, which the table's snapshot carries; an input has
reached the page when the page has a snapshot of that table at or past that count
(a box sends only its newest snapshot: one overtaken while queued is never sent,
and its inputs arrive with the next). Printed:

- input on a box -> the room page: median, p99, worst;
- the broker's CPU (``/proc/<pid>/stat``), per message it received; the room's CPU;
  the boxes' CPU per press or tap;
- bytes each table publishes per game (the meter's count of each PUBLISH packet, by
  game; the broker's own ``$SYS`` count of publish bytes received beside it);
- records delivered / expected: every game finished reached the room, once.

The bench fails (exit 1) unless every box connected, every timed input reached the
page, and every finished game's record reached the room exactly once after dedupe.
With ``--max`` it runs 50, 100, 200, ... boxes until the p99 latency passes
``--limit-ms`` or the boxes cannot keep their pace, and prints how many this
machine held.

    python bench/room_scale.py [--boxes 50] [--pace 0.25] [--seconds 60] [--games 1]
    python bench/room_scale.py --max [--limit-ms 1000]
"""

from __future__ import annotations

import argparse
import bisect
import heapq
import json
import math
import os
import random
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
        from companion.registry import sim_registry
        from companion.session import Session, SessionConfig

        folder.mkdir(parents=True)
        self.name = name
        self.rnd = random.Random(seed)
        self.registry = sim_registry()
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
        self.samples: list[tuple[int, int, float]] = []  # (game id, inputs, taken at)
        self.games: list[tuple[int, float]] = []  # (game id, started at) of games finished
        self.starts: list[float] = []  # when each game was started, the one in play too
        self.commands = 0
        self.last = 0.0  # when it took its last press or tap

    def turn(self) -> None:
        """One press or tap, as its players would make it."""
        from companion.autoplay import AutoPlayer
        from companion.inputs import Press, Tick
        from companion.session import ROLL_STEP

        while not self.inbox.empty():  # room commands the MQTT thread queued
            self.daemon.step(0)
        s = self.box.session
        if self.player is None:
            if s.mode == "menu" and s.overlay is None and not s.notices and s.menu is None:
                options = {"start_space": self.rnd.choice((1, 2, 4)),
                           "deck": self.rnd.choice(("virtual", "physical"))}
                self.player = AutoPlayer(self.rnd.randrange(1 << 30), options=options)
                self.started = time.monotonic()
                self.starts.append(self.started)
            else:  # the end screens, back to the main menu
                self.press(Press("OK"))
                return
        command = self.player.next_command(s)
        if command is None:  # the game is over
            self.games.append((s.game_id, self.started))
            self.player = None
            self.press(Press("OK"))
            return
        game = s.game_id if s.mode == "game" else None
        before = len(s.game.inputs) if game is not None else -1
        taken = time.monotonic()
        self.press(command_event(self.registry, command))
        while self.box.tick_interval() == ROLL_STEP:  # a die roll plays to its end
            self.box.handle(Tick())
        if s.mode == "game" and s.game_id == game and len(s.game.inputs) != before:
            self.samples.append((game, len(s.game.inputs), taken))

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
        table.turn()
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


AFTER = 1 << 30  # an input count past any game's


def position(snap: dict[str, Any], before: tuple[int, int] | None) -> tuple[int, int]:
    """Where a table's snapshot stands in its stream: (game id, input count) in a game;
    past every input of the last game shown on the main menu or a set-up (a box sends
    only its newest snapshot, so a game's last inputs may come as the menu after it)."""
    if snap.get("game") == "entanglion" and snap.get("game_id") is not None:
        return snap["game_id"], snap["inputs"]
    return (before[0] if before else 0), AFTER


class PlainPage:
    """The room page's stand-in: every table's snapshots and records, as they arrive."""

    def __init__(self, port: int):
        self.lock = threading.Lock()
        self.shown: dict[str, list[tuple[tuple[int, int], float]]] = {}  # per table
        self.records: dict[tuple[str, str, int], int] = {}  # (room, table, game id): times
        self.client = mqtt_client(port, TEACHER, [f"companion/{ROOM}/+/#"], self._message)

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        now = time.monotonic()
        _, _, table, kind = message.topic.split("/", 3)
        if kind == "state":
            snap = json.loads(message.payload)
            with self.lock:
                shown = self.shown.setdefault(table, [])
                shown.append((position(snap, shown[-1][0] if shown else None), now))
        elif kind == "record":
            r = json.loads(message.payload)
            key = (r["room"], r["table"], r["game_id"])
            with self.lock:
                self.records[key] = self.records.get(key, 0) + 1

    def cpu(self) -> float | None:
        return None  # in the bench's own process: not apart

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def packet_bytes(topic: str, payload: bytes, qos: int) -> int:
    """The size of an MQTT 5 PUBLISH as the box sends it: fixed header, topic, packet
    id (QoS 1), an empty property list, payload."""
    rest = 2 + len(topic.encode()) + (2 if qos else 0) + 1 + len(payload)
    return 1 + max(1, math.ceil(rest.bit_length() / 7)) + rest


class Meter:
    """Bytes each table publishes (by arrival time), and the broker's ``$SYS`` counters."""

    SYS = ("messages/received", "messages/sent", "publish/bytes/received",
           "publish/bytes/sent", "clients/connected")

    def __init__(self, port: int):
        self.lock = threading.Lock()
        self.sent: dict[str, list[tuple[float, int]]] = {}
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
        table = message.topic.split("/")[2]
        with self.lock:
            self.sent.setdefault(table, []).append(
                (now, packet_bytes(message.topic, message.payload, message.qos)))

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
    names = [table_name(i) for i in range(boxes)]
    users = {u: password(u) for u in (TEACHER, METER, *names)}
    broker = Broker(work, users=users, acl=ACL,
                    settings=("sys_interval 1", "max_queued_messages 10000")).start()
    children: list[subprocess.Popen] = []
    page = meter = None
    try:
        meter = Meter(broker.port)
        page = PlainPage(broker.port)
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
        sys0, broker0, room0 = meter.counters(), cpu_seconds(broker.proc.pid), page.cpu()
        go = time.monotonic() + 0.5
        for c in children:
            c.stdin.write(f"{go}\n")
            c.stdin.flush()
        results = [read_line(c, timeout=args.seconds * 20 + 300) for c in children]
        tables = {name: t for r in results for name, t in r["tables"].items()}
        assert all(t["connected"] for t in tables.values()), "a box lost the broker"
        assert all(t["delivered"] for t in tables.values()), \
            "a box's finished games were never acknowledged by the broker"
        latencies = caught_up(page, tables)
        sys1, broker1, room1 = meter.counters(), cpu_seconds(broker.proc.pid), page.cpu()
        elapsed = time.monotonic() - go
        records = check_records(page, tables)
        for c in children:
            c.stdin.write("\n")
            c.stdin.flush()
        for c in children:
            c.wait(60)
        per_game = bytes_per_game(meter, tables)
        commands = sum(t["commands"] for t in tables.values())
        played = max(r["played"] for r in results)
        # the pace kept: presses and taps made / asked, each box while it played
        asked = sum(t["busy"] for t in tables.values()) / args.pace if args.pace else commands
        latencies.sort()
        received = sys1["messages/received"] - sys0["messages/received"]
        return {
            "boxes": boxes, "seconds": elapsed, "played": played,
            "commands": commands, "kept": commands / asked,
            "late": max(r["late"] for r in results),
            "latency": latencies, "inputs": len(latencies),
            "median": latencies[len(latencies) // 2] * 1000,
            "p99": latencies[max(0, math.ceil(len(latencies) * 0.99) - 1)] * 1000,
            "worst": latencies[-1] * 1000,
            "broker_cpu": broker1 - broker0,
            "received": received,
            "sent": sys1["messages/sent"] - sys0["messages/sent"],
            "publish_bytes": sys1["publish/bytes/received"] - sys0["publish/bytes/received"],
            "room_cpu": None if room0 is None else room1 - room0,
            "boxes_cpu": sum(r["cpu"] for r in results),
            "per_game": per_game, "records": records,
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


def read_line(proc: subprocess.Popen, timeout: float = 120) -> dict[str, Any]:
    """A child's next JSON line (it dies or stays silent: the run fails, saying so)."""
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not got or not got[0]:
        raise AssertionError(f"a process of boxes did not answer (exit {proc.poll()})")
    return json.loads(got[0])


def caught_up(page: Any, tables: dict[str, Any], timeout: float = 15) -> list[float]:
    """Each timed input's latency once the page shows every table's last one. An input
    is shown by the table's first snapshot at or past it (its game, its input count)."""
    deadline = time.monotonic() + timeout
    while True:
        with page.lock:
            shown = {name: list(v) for name, v in page.shown.items()}
        missing = [name for name, t in tables.items() if t["samples"] and (
            name not in shown or shown[name][-1][0] < tuple(t["samples"][-1][:2]))]
        if not missing:
            break
        if time.monotonic() > deadline:
            if os.environ.get("ROOM_SCALE_DEBUG"):
                print(missing, [(tables[m]["samples"][-3:], shown.get(m, [])[-3:]) for m in missing])
            raise AssertionError(f"{len(missing)} tables' last inputs never reached the room "
                                 f"page (e.g. {missing[0]})")
        time.sleep(0.1)
    latencies = []
    for name, t in tables.items():
        keys = [k for k, _ in shown.get(name, [])]
        assert keys == sorted(keys), f"the page showed {name}'s inputs out of order"
        for game, inputs, taken in t["samples"]:
            at = bisect.bisect_left(keys, (game, inputs))
            latencies.append(shown[name][at][1] - taken)
    assert latencies, "no input was timed"
    return latencies


def check_records(page: Any, tables: dict[str, Any]) -> dict[str, int]:
    """Every finished game's record reached the room, and no other; once after dedupe."""
    expected = {(ROOM, name, game) for name, t in tables.items() for game, _ in t["games"]}
    deadline = time.monotonic() + 30
    while True:
        with page.lock:
            got = dict(page.records)
        if expected <= set(got) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    lost, stray = expected - set(got), set(got) - expected
    assert not lost, f"{len(lost)} of {len(expected)} records never reached the room"
    assert not stray, f"the room got records of games no box finished: {sorted(stray)[:3]}"
    return {"expected": len(expected), "delivered": len(got),
            "duplicates": sum(got.values()) - len(got)}


def bytes_per_game(meter: Meter, tables: dict[str, Any]) -> list[int]:
    """The bytes each finished game cost its table: all it published from the game's
    start on the main menu to the next game's start (end screens and record included)."""
    with meter.lock:
        sent = {name: list(v) for name, v in meter.sent.items()}
    out = []
    for name, t in tables.items():
        arrivals = [at for at, _ in sent.get(name, [])]
        for _, start in t["games"]:
            end = min((s for s in t["starts"] if s > start), default=math.inf)
            lo, hi = bisect.bisect_left(arrivals, start), bisect.bisect_left(arrivals, end)
            out.append(sum(n for _, n in sent[name][lo:hi]))
    return out


# ----------------------------------------------------------------------- printing


def report(r: dict[str, Any]) -> None:
    games = r["records"]["expected"]
    print(f"{r['boxes']} boxes, {r['commands']} presses and taps in {r['played']:.0f} s "
          f"({100 * r['kept']:.0f}% of the pace asked; the boxes' threads at worst "
          f"{r['late'] * 1000:.0f} ms behind), {games} games finished", flush=True)
    print(f"  input on a box -> room page, {r['inputs']} game inputs: median "
          f"{r['median']:.0f} ms, p99 {r['p99']:.0f} ms, worst {r['worst']:.0f} ms")
    print(f"  broker: {r['broker_cpu']:.2f} s CPU in {r['seconds']:.0f} s "
          f"({100 * r['broker_cpu'] / r['seconds']:.1f}% of a core), {r['received']:.0f} "
          f"messages in, {r['sent']:.0f} out: "
          f"{1e6 * r['broker_cpu'] / max(1, r['received']):.0f} us per message in")
    if r["room_cpu"] is not None:
        print(f"  room: {r['room_cpu']:.2f} s CPU ({100 * r['room_cpu'] / r['seconds']:.1f}% "
              f"of a core)")
    print(f"  boxes: {1000 * r['boxes_cpu'] / r['commands']:.2f} ms CPU per press or tap")
    if r["per_game"]:
        per = sorted(r["per_game"])
        print(f"  bytes a table publishes per game ({len(per)} games): median "
              f"{per[len(per) // 2] / 1000:.0f} KB, mean {sum(per) / len(per) / 1000:.0f} KB; "
              f"per second of play {r['publish_bytes'] / r['seconds'] / r['boxes'] / 1000:.2f}"
              f" KB a table (broker's $SYS count)")
    print(f"  records delivered / expected: {r['records']['delivered']}/{games} "
          f"({r['records']['duplicates']} duplicates dropped)")


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
    parser.add_argument("--max", action="store_true",
                        help="50, 100, 200, ... boxes until a limit breaks")
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
        if r["p99"] > args.limit_ms or r["kept"] < 0.9:
            print(f"{boxes} boxes: past the limit (p99 within {args.limit_ms:.0f} ms, the "
                  f"boxes at 90% of their pace or more)", flush=True)
            break
        held, boxes = boxes, boxes * 2
    print(f"this machine held {held} boxes (p99 within {args.limit_ms:.0f} ms, nothing lost)")
    return 0 if held else 1


if __name__ == "__main__":
    raise SystemExit(main())
