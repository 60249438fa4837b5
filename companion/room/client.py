"""The room's MQTT client: reads every table of the room, sends the teacher's commands.

It subscribes to ``companion/<room>/+/#`` with a persistent MQTT 5 session (a fixed
client id, ``clean_start`` off and a session that outlives a disconnection by
:data:`SESSION_EXPIRY`), so the records boxes send while the room is away wait in the
broker and arrive when it is back. paho's own thread reads; each message is checked by
:class:`~.tables.Tables` and refused with a log line at most every
:data:`LOG_EVERY` seconds in a flood; the broker is asked (MQTT 5 Maximum Packet Size)
never to send more than :data:`MAX_PACKET` bytes in one message.

Acknowledgements are the room's own (paho's ``manual_ack``): a record is acknowledged
only once the store has it on disk, or knows it already, or refused it; every other
message at once. A record the store could not write (a full disk, a read-only folder)
stays unacknowledged, so the broker keeps it in the room's session and sends it again
on the next connection: the room checks every :data:`RETRY_EVERY` seconds whether the
disk takes a record again and then connects anew, and the record lands once. (MQTT asks
a client to acknowledge in the order messages came; the room acknowledges the messages
after an unsaved record at once, so the tables stay live while it waits. Mosquitto
takes acknowledgements in any order.)

Rules: the broker keeps one retained command, the latest rules sent (one game's). So
the room remembers every game's latest rules (in :data:`RULES_FILE`, for its own
restarts) and sends them again, not retained, when a table comes online: a table that
joins late starts every game on the room's rules, and a table that has them already
takes them silently. Tables coming online together get one resend.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..mqtt import commands, topics
from ..mqtt.service import read_password
from .store import Unsaved
from .tables import Refused, Tables

log = logging.getLogger(__name__)

SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps the room's session while away
MAX_PACKET = 1024 * 1024  # bytes: a record with its scenario is tens of KB
LOG_EVERY = 10.0  # seconds between log lines about refused messages
RULES_FILE = "rules.json"
RESEND_AFTER = 2.0  # seconds: tables coming online within it get one resend of the rules
RETRY_EVERY = 5.0  # seconds between checks of a disk that could not save a record


class RoomLink:
    """``folder``: where the room keeps :data:`RULES_FILE` (None: not kept); ``store``:
    the :class:`~.store.Store` the records go to, checked while one waits unsaved."""

    def __init__(self, mqtt: Any, tables: Tables, folder: Path | None = None,
                 clock: Callable[[], float] = time.monotonic, store: Any = None):
        self.mqtt = mqtt
        self.tables = tables
        self.clock = clock
        self.rules_path = folder / RULES_FILE if folder is not None else None
        self.rules = self._load_rules()  # game -> its latest rules sent
        self.store = store
        self._resend: threading.Timer | None = None
        self._retry: threading.Timer | None = None
        self._lock = threading.Lock()
        self._connection = threading.Lock()  # a new connection, or the room's stop
        self._stopped = False
        self.connected = threading.Event()
        self.refused = 0
        self._logged = 0
        self._log_at = 0.0
        self.client = paho.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"companion-room-{mqtt.room}", protocol=paho.MQTTv5,
                                  manual_ack=True)
        if mqtt.username is not None:
            self.client.username_pw_set(mqtt.username, read_password(mqtt))
        if mqtt.tls:
            self.client.tls_set(ca_certs=mqtt.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: None

    def start(self) -> RoomLink:
        self._connect()
        return self

    def _connect(self) -> None:
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        props.MaximumPacketSize = MAX_PACKET
        # connect_async: a broker that is down now is tried again by paho's thread.
        self.client.connect_async(self.mqtt.host, self.mqtt.port, keepalive=30,
                                  clean_start=False, properties=props)
        self.client.loop_start()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            for timer in (self._resend, self._retry):
                if timer is not None:
                    timer.cancel()
        with self._connection:
            self.client.disconnect()
            self.client.loop_stop()

    def _retry_later(self) -> None:
        with self._lock:
            if self._retry is None and not self._stopped and self.store is not None:
                self._retry = threading.Timer(RETRY_EVERY, self._retry_now)
                self._retry.daemon = True
                self._retry.start()

    def _retry_now(self) -> None:
        with self._lock:
            self._retry = None
        if not self.store.writable():
            self._retry_later()
            return
        self.tables.touch()  # the page's "cannot be saved" goes
        if not self.store.status()["unsaved"]:
            return  # the broker sent them again already (a reconnection of paho's own)
        # A new connection of the same session: the broker sends again what the room
        # has not acknowledged. paho's loop ends on a disconnect, so it starts anew.
        with self._connection:
            if self._stopped:
                return
            self.client.disconnect()
            self.client.loop_stop()
            self._connect()

    def send(self, command: dict[str, Any]) -> None:
        """Publish a command (checked as a box will check it: Refused if a box would
        refuse it). Rules are retained, so a table that joins later takes them."""
        payload = json.dumps(command, ensure_ascii=False, separators=(",", ":")).encode()
        commands.parse(payload)
        if not self.connected.is_set():  # paho would queue it and send it much later
            raise OSError("the broker is not reachable now: try again in a moment")
        info = self.client.publish(topics.command(self.mqtt.room), payload, qos=1,
                                   retain=command.get("command") == "rules")
        if info.rc != paho.MQTT_ERR_SUCCESS:
            raise OSError(f"the broker is not reachable now ({paho.error_string(info.rc)})")
        if command["command"] == "rules":
            with self._lock:
                self.rules.setdefault(command["game"], {}).update(command["rules"])
            self._save_rules()

    def _load_rules(self) -> dict[str, dict[str, Any]]:
        if self.rules_path is None or not self.rules_path.exists():
            return {}
        kept = {}
        try:
            for game, rules in json.loads(self.rules_path.read_text(encoding="utf-8")).items():
                commands.parse(json.dumps({"command": "rules", "game": game,
                                           "rules": rules}).encode())
                kept[game] = rules
        except (OSError, ValueError, AttributeError) as exc:  # Refused is a ValueError
            log.error("room: %s cannot be read (%s): the rules sent before are not sent "
                      "again to tables that join", self.rules_path, exc)
            return {}
        return kept

    def _save_rules(self) -> None:
        if self.rules_path is None:
            return
        with self._lock:
            text = json.dumps(self.rules, sort_keys=True)
        try:
            tmp = self.rules_path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(self.rules_path)
        except OSError as exc:
            log.error("room: the rules are not kept in %s (%s)", self.rules_path, exc)

    def _table_joined(self) -> None:
        with self._lock:
            if self._resend is None and self.rules:
                self._resend = threading.Timer(RESEND_AFTER, self._send_rules_again)
                self._resend.daemon = True
                self._resend.start()

    def _send_rules_again(self) -> None:
        with self._lock:
            self._resend = None
            rules = dict(self.rules)
        for game, chosen in sorted(rules.items()):
            payload = json.dumps({"command": "rules", "game": game, "rules": chosen},
                                 separators=(",", ":")).encode()
            # Not retained: the retained one stays the latest the teacher sent.
            self.client.publish(topics.command(self.mqtt.room), payload, qos=1)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("room: the broker %s:%s refused the room: %s", self.mqtt.host,
                        self.mqtt.port, reason)
            return
        log.info("room: connected to %s:%s, room %s", self.mqtt.host, self.mqtt.port,
                 self.mqtt.room)
        lost = self.store.forget_unsaved() if self.store is not None and \
            not flags.session_present else 0
        if lost:
            log.error("room: the broker no longer has the room's session: the records it "
                      "held because the room could not save them are lost to the room (%d; "
                      "the boxes' journals keep the games)", lost)
            self.tables.touch()
        client.subscribe(f"{topics.ROOT}/{self.mqtt.room}/+/#", qos=1)
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self._take(message)
        except Unsaved:
            # Not acknowledged: the broker keeps it and sends it again on a new connection.
            self.tables.touch()  # the page says why
            self._retry_later()
            return
        client.ack(message.mid, message.qos)

    def _take(self, message: Any) -> None:
        if message.topic == topics.command(self.mqtt.room):
            return  # the room's own commands (retained rules come back on subscribing)
        try:
            self.tables.take(message.topic, message.payload, bool(message.retain))
            if message.topic.endswith("/availability") and message.payload == b"online" \
                    and not message.retain:  # a table has just connected
                self._table_joined()
        except Refused as why:
            self._refuse(str(why))
        except Unsaved:
            raise
        except Exception:  # noqa: BLE001 - one bad message never stops the room
            log.exception("room: a message on %s could not be taken", message.topic[:80])

    def _refuse(self, text: str) -> None:
        self.refused += 1
        now = self.clock()
        if now >= self._log_at:
            dropped = self.refused - self._logged - 1
            log.warning("room: message ignored: %s%s", text,
                        f" (and {dropped} more)" if dropped else "")
            self._logged, self._log_at = self.refused, now + LOG_EVERY
