"""Simulated boxes on a broker: each a simulator box (fake displays and LEDs) inside
the daemon's loop, on a thread of its own, its autoplayer playing game after game."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from companion.autoplay import AutoPlayer
from companion.config import MqttConfig
from companion.daemon import Daemon
from companion.hardware.buttons import Classifier
from companion.hardware.inbox import Inbox
from companion.inputs import Press
from companion.mqtt import service
from companion.session import SessionConfig
from companion.sim import build


class FakeLink:
    """The MQTT link as the reporter sees it: what it offers, and how often it is woken."""

    def __init__(self):
        self.states, self.poked = [], 0

    def offer_state(self, data):
        self.states.append(data)

    def poke(self):
        self.poked += 1


class SimBox:
    def __init__(self, folder: Path, mqtt: MqttConfig, seed: int = 3,
                 web_url: str | None = None):
        folder.mkdir(parents=True, exist_ok=True)
        self.sim, self.journal = build(folder, None, seed, SessionConfig(), None)
        self.box = self.sim.box
        if web_url is not None:  # as the daemon sets it when [web] is on
            self.box.session.config.web_url = lambda: (web_url, "")
        self.inbox = Inbox()
        self.daemon = Daemon(self.box, self.inbox, Classifier(0.8, 0.0))
        self.stop_mqtt = service.start(mqtt, self.box, self.inbox.put)
        self.link = self.box.observers[-1].link
        self.seed = seed
        self.games_wanted = 0  # games to play to the end
        self.finished: list[int] = []
        self.pace = 0.0  # seconds between inputs
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def play(self, games: int = 1, pace: float = 0.0) -> None:
        self.pace = pace
        self.games_wanted += games

    def press(self, button: str) -> None:
        self.inbox.put(Press(button))

    def _run(self) -> None:
        player = None
        while not self._stop:
            self.daemon.step(0.01)
            s = self.box.session
            if len(self.finished) >= self.games_wanted:
                continue
            if player is None:
                player = AutoPlayer(self.seed)
            cmd = player.next_command(s)
            if cmd is None:
                if s.game_id is not None:
                    self.finished.append(s.game_id)
                self._back_to_menu()
                player = None
                continue
            self.sim.run(cmd)
            if self.pace:
                time.sleep(self.pace)

    def _back_to_menu(self) -> None:
        s = self.box.session
        for _ in range(200):  # through the end screens, back to the main menu
            if s.mode == "menu" and s.overlay is None and not s.notices:
                return
            self.box.handle(Press("OK"))

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=10)
        self.stop_mqtt()
        self.journal.close()


class Watcher:
    """A client that records every message it sees (payload, retained flag) by topic."""

    def __init__(self, port: int, user: str = "watcher", topic: str = "companion/#",
                 **tls: Any):
        self.messages: dict[str, list[tuple[bytes, bool]]] = {}
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        self.client = paho.Client(CallbackAPIVersion.VERSION2, protocol=paho.MQTTv5)
        self.client.username_pw_set(user, f"pw-{user}")
        self.client.on_message = self._message
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_connect = lambda c, *a: c.subscribe(topic, qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(10)

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.lock:
            self.messages.setdefault(message.topic, []).append((message.payload,
                                                                message.retain))

    def last(self, topic: str) -> Any:
        with self.lock:
            got = self.messages.get(topic)
            return json.loads(got[-1][0]) if got and got[-1][0][:1] in b"{[" else \
                (got[-1][0].decode() if got else None)

    def all(self, topic: str) -> list[bytes]:
        with self.lock:
            return [p for p, _ in self.messages.get(topic, [])]

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()  # first: its loop thread then ends by itself
        self.client.loop_stop()


def mqtt_config(port: int, room: str, table: str, user: str, password_file: Path,
                **kw: Any) -> MqttConfig:
    password_file.write_text(f"pw-{user}\n")
    return MqttConfig(enabled=True, host="127.0.0.1", port=port, room=room, table=table,
                      username=user, password_file=str(password_file), **kw)
