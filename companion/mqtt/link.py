"""The MQTT client, on a thread of its own: nothing the broker does (down, slow,
refusing, hostile, flooding) can hold the game thread, which only drops the newest
snapshot in a one-message slot, adds finished games to the on-disk outbox, and takes
the room's commands between inputs.

Bounded everywhere: one snapshot waits (an older one is dropped: the retained state is
"the latest"), at most :data:`IN_FLIGHT` records are unacknowledged, a snapshot is
handed to the client only when its last write is done, and at most
:data:`COMMANDS_WAITING` room commands wait for the game thread (the oldest dropped).
MQTT 5 is spoken so a publish the broker's ACL refuses comes back as a failed PUBACK
and stays in the outbox (MQTT 3.1.1 acknowledges it as if it were delivered).
"""

from __future__ import annotations

import collections
import logging
import ssl
import threading
import time
from typing import Any, Callable

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..inputs import RoomCommand, RoomWaiting
from . import commands, topics

log = logging.getLogger(__name__)

IN_FLIGHT = 4  # records awaiting PUBACK at once
COMMANDS_WAITING = 8  # room commands waiting for the game thread; older ones are dropped
MAX_PACKET = 64 * 1024  # the broker must not send the box more (MQTT 5 Maximum Packet Size)
KEEPALIVE = 30  # seconds
RETRY_FIRST, RETRY_MAX = 1.0, 30.0  # seconds between connection attempts, doubling
CONNECT_TIMEOUT = 10.0  # seconds for a CONNACK before the attempt is given up
LOG_EVERY = 10.0  # seconds: refused commands are logged at most this often


class _Client(paho.Client):
    """paho's client, refusing a packet larger than :data:`MAX_PACKET` before reading
    its body: a broker that ignores the Maximum Packet Size the box asked for cannot
    fill the box's memory (paho would buffer up to 256 MB). The test of a hostile
    broker fails if paho's reading changes under this."""

    def _sock_recv(self, bufsize: int) -> bytes:
        packet = getattr(self, "_in_packet", None) or {}
        if packet.get("have_remaining") and packet.get("remaining_length", 0) > MAX_PACKET:
            raise OSError(f"the broker sends a packet of {packet['remaining_length']} bytes")
        return super()._sock_recv(bufsize)


class Link:
    """``put`` is the daemon's event queue (any thread may put on it)."""

    def __init__(self, mqtt: Any, password: str | None, outbox: Any,
                 put: Callable[[Any], None], clock: Callable[[], float] = time.monotonic):
        self.mqtt = mqtt
        self.outbox = outbox
        self._put = put
        self._clock = clock
        self.state_topic = topics.table(mqtt.room, mqtt.table, "state")
        self.record_topic = topics.table(mqtt.room, mqtt.table, "record")
        self.availability_topic = topics.table(mqtt.room, mqtt.table, "availability")
        self.command_topic = topics.command(mqtt.room)
        self.extra: list[tuple[str, bytes]] = []  # retained messages sent on each connect
        self.info_topic = topics.table(mqtt.room, mqtt.table, "info")
        self.info: Callable[[], bytes] = lambda: b""  # the retained ``info`` (b"": none)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._state: bytes | None = None  # the newest snapshot, not yet handed to the client
        self._last_state: bytes | None = None  # the one the broker has (resent on connect)
        self._commands: collections.deque[RoomCommand] = collections.deque(
            maxlen=COMMANDS_WAITING)
        self._announced = False  # a RoomWaiting is on the game's queue
        self._in_flight: dict[int, int] = {}  # MQTT message id -> game id
        self._refused_records: set[int] = set()  # the broker said no: tried on reconnect
        self._look = True  # the outbox may hold a record not in flight (read it only then)
        self.connected = False
        self.refused = 0  # room commands refused or dropped (the tests read it)
        self._refused_logged = 0
        self._log_at = 0.0
        self._stopping = False
        self._client = self._make_client(password)
        self._thread = threading.Thread(target=self._run, name="companion-mqtt", daemon=True)

    def _make_client(self, password: str | None) -> paho.Client:
        m = self.mqtt
        client = _Client(CallbackAPIVersion.VERSION2,
                         client_id=f"companion-{m.room}-{m.table}", protocol=paho.MQTTv5)
        if m.username is not None:
            client.username_pw_set(m.username, password)
        if m.tls:
            client.tls_set(ca_certs=m.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        client.will_set(self.availability_topic, b"offline", qos=1, retain=True)
        client.max_queued_messages_set(IN_FLIGHT + 8)  # a backstop: we queue ourselves
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        client.on_subscribe = lambda *a: None
        return client

    # ------------------------------------------------------------------ game thread

    def offer_state(self, data: bytes) -> None:
        """The newest public snapshot (replaces one still waiting)."""
        with self._lock:
            self._state = data
        self._wake.set()

    def poke(self) -> None:
        """A finished game was added to the outbox."""
        self._look = True
        self._wake.set()

    def take(self) -> list[RoomCommand]:
        """The room commands waiting, oldest first (game thread, between inputs)."""
        with self._lock:
            taken = list(self._commands)
            self._commands.clear()
            self._announced = False
        return taken

    def waiting_commands(self) -> int:
        with self._lock:
            return len(self._commands)

    # ------------------------------------------------------------------ life

    def start(self) -> Link:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Say "offline" (a clean stop sends no last will) and close; never waits long."""
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        self._delay, self._retry_at, self._connecting_since = RETRY_FIRST, 0.0, None
        while not self._stopping:
            try:
                self._step()
            except Exception:  # noqa: BLE001 - never the end of the thread: start over
                log.exception("MQTT: the link failed; it starts over")
                self._give_up()
        self._close()

    def _step(self) -> None:
        now = self._clock()
        if not self.connected and self._connecting_since is None and now >= self._retry_at:
            try:
                self._client.connect(self.mqtt.host, self.mqtt.port, KEEPALIVE,
                                     properties=_connect_properties())
                self._connecting_since = now
            except (OSError, ssl.SSLError, ValueError) as exc:
                log.warning("MQTT broker %s:%s: %s (trying again in %.0f s)",
                            self.mqtt.host, self.mqtt.port, exc, self._delay)
                self._give_up()
        if self._connecting_since is None and not self.connected:
            self._wake.wait(min(0.5, max(0.0, self._retry_at - now)))
            self._wake.clear()
            return
        rc = self._client.loop(timeout=0.1)
        if self.connected:
            self._connecting_since = None
            self._delay = RETRY_FIRST
        if rc != paho.MQTT_ERR_SUCCESS or (self._connecting_since is not None
                                           and now - self._connecting_since > CONNECT_TIMEOUT):
            self._give_up()
        elif self.connected:
            self._send()

    def _give_up(self) -> None:
        """This connection (or attempt) is over: the next one after a growing pause."""
        self._lost()
        self._connecting_since = None
        self._retry_at = self._clock() + self._delay
        self._delay = min(self._delay * 2, RETRY_MAX)

    def _lost(self) -> None:
        if self.connected:
            log.warning("MQTT: lost the broker; the game plays on, records wait on disk")
        self.connected = False
        # The records in flight stay so: paho sends its unacknowledged messages again
        # (same ids) on the next connection; sending them from the outbox too would
        # deliver each twice.
        self._refused_records.clear()
        self._look = True
        # No DISCONNECT: the broker publishes the last will ("offline"), which is true;
        # the next connect() closes the socket.

    def _close(self) -> None:
        if self.connected:
            try:
                info = self._client.publish(self.availability_topic, b"offline", qos=1,
                                            retain=True)
                deadline = self._clock() + 2
                while not info.is_published() and self._clock() < deadline:
                    self._client.loop(timeout=0.1)
                self._client.disconnect()
                self._client.loop(timeout=0.1)
            except Exception:  # noqa: BLE001 - stopping anyway
                pass
        self.connected = False

    # ------------------------------------------------------------------ MQTT thread

    def _send(self) -> None:
        if not self._client.want_write():
            with self._lock:
                state, self._state = self._state, None
            if state is not None and state != self._last_state:
                self._client.publish(self.state_topic, state, qos=0, retain=True)
                self._last_state = state
        room = IN_FLIGHT - len(self._in_flight)
        if room > 0 and self._look:  # not on every packet of a flood: only when told
            skip = tuple(self._in_flight.values()) + tuple(self._refused_records)
            self._look = False  # before reading: a game queued meanwhile sets it again
            rows = self.outbox.waiting(room, skip)
            if len(rows) == room:  # fewer: every waiting record is in flight
                self._look = True
            for game_id, topic, payload in rows:
                info = self._client.publish(topic, payload, qos=1)
                if info.rc == paho.MQTT_ERR_SUCCESS:
                    self._in_flight[info.mid] = game_id
                else:
                    self._look = True  # tried again on the next pass

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("MQTT broker %s:%s refused the box: %s", self.mqtt.host,
                        self.mqtt.port, reason)
            return
        log.info("MQTT: connected to %s:%s as table %s of room %s", self.mqtt.host,
                 self.mqtt.port, self.mqtt.table, self.mqtt.room)
        self.connected = True
        # Subscribed before saying "online": the room answers "online" with its rules,
        # and the broker takes a client's packets in order.
        client.subscribe(self.command_topic, qos=1)
        client.publish(self.availability_topic, b"online", qos=1, retain=True)
        # Looked up on each connection: the box's address is known once it reaches the
        # broker; an empty payload clears what an earlier run (with [web] on) left.
        client.publish(self.info_topic, self.info(), qos=1, retain=True)
        for topic, payload in self.extra:
            client.publish(topic, payload, qos=1, retain=True)
        with self._lock:  # the broker may have lost the retained state: send it again
            if self._state is None:
                self._state = self._last_state
            self._last_state = None

    def _on_publish(self, client: paho.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        game_id = self._in_flight.pop(mid, None)
        if game_id is None:
            return
        if reason.is_failure:
            log.error("MQTT: the broker refused game #%s's record (%s); it waits on disk",
                      game_id, reason)
            self._refused_records.add(game_id)
            return
        self.outbox.sent(game_id)
        self._look = True  # a slot is free for the next waiting record
        log.info("MQTT: game #%s's record delivered", game_id)

    def _on_message(self, client: paho.Client, userdata: Any, message: Any) -> None:
        try:
            command = commands.parse(message.payload)
            if message.retain and command.kind != "rules":
                raise commands.Refused("a retained message or pause is old news")
        except commands.Refused as why:
            self._refuse(f"room command ignored: {why}")
            return
        with self._lock:
            if len(self._commands) == self._commands.maxlen:
                self.refused += 1  # the oldest is dropped: a flood cannot grow memory
            self._commands.append(command)
            announce, self._announced = not self._announced, True
        if announce:
            self._put(RoomWaiting(self.take))

    def _refuse(self, text: str) -> None:
        self.refused += 1
        now = self._clock()
        if now >= self._log_at:  # a flood of garbage is a line every few seconds
            dropped = self.refused - self._refused_logged - 1
            log.warning("MQTT: %s%s", text, f" (and {dropped} more)" if dropped else "")
            self._refused_logged, self._log_at = self.refused, now + LOG_EVERY


def _connect_properties() -> Properties:
    props = Properties(PacketTypes.CONNECT)
    props.MaximumPacketSize = MAX_PACKET
    return props
