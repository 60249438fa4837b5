"""A broker that is not one: silent, or answering garbage. The link gives up and tries
again, its thread lives on, and the game plays as if nothing were there."""

from __future__ import annotations

import socket
import threading

import pytest

from broker import free_port
from rig import SimBox, mqtt_config
from waiting import eventually


class FakeBroker:
    """Accepts connections on loopback and answers each with ``reply`` (None: silence)."""

    def __init__(self, reply: bytes | None, stream: bool = False):
        self.reply = reply
        self.stream = stream  # then bytes without end
        self.connections = 0
        self.port = free_port()
        self.server = socket.create_server(("127.0.0.1", self.port))
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            self.held.append(conn)
            try:
                conn.recv(4096)
                if self.reply is not None:
                    conn.sendall(self.reply)
                while self.stream:
                    conn.sendall(b"\0" * 65536)
            except OSError:
                pass

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize("reply", [
    None,  # silence after the CONNECT
    b"\x20\x03\x00\x00\x00" + b"\xff" * 64,  # a CONNACK, then bytes that are no packet
    b"\x30\xff\xff\xff\x7f",  # a PUBLISH announcing 256 MB
    bytes(range(256)) * 4,  # noise
], ids=["silent", "garbage after a CONNACK", "256 MB announced", "noise"])
def test_a_hostile_broker_never_costs_the_game(tmp_path, monkeypatch, reply):
    from companion.mqtt import link

    monkeypatch.setattr(link, "CONNECT_TIMEOUT", 0.3)
    monkeypatch.setattr(link, "RETRY_MAX", 0.2)
    fake = FakeBroker(reply)
    box = SimBox(tmp_path / "box", mqtt_config(fake.port, "r1", "t1", "t1",
                                               tmp_path / "pw"))
    try:
        assert eventually(lambda: fake.connections >= 3, 15)  # it gives up and tries again
        for _ in range(5):  # main menu, the set-up's three steps: the game begins
            box.press("OK")
        assert eventually(lambda: box.box.session.mode == "game", 10)
        assert box.link._thread.is_alive() and not box.link.connected
    finally:
        box.close()
        fake.close()


def test_a_broker_streaming_a_huge_packet_is_cut_off_before_it_fills_memory(tmp_path,
                                                                             monkeypatch):
    from companion.mqtt import link

    monkeypatch.setattr(link, "RETRY_MAX", 0.2)
    # A CONNACK (accepted), then a PUBLISH said to be 200 MB, and its bytes, endlessly.
    fake = FakeBroker(b"\x20\x03\x00\x00\x00" + b"\x30\x80\x80\x80\x64", stream=True)
    box = SimBox(tmp_path / "box", mqtt_config(fake.port, "r1", "t1", "t1",
                                               tmp_path / "pw"))
    try:
        # Each connection is cut at the packet's header, and the link tries again.
        assert eventually(lambda: fake.connections >= 3, 40)
        assert box.link._thread.is_alive()
        box.press("OK")
        assert eventually(lambda: box.box.session.mode == "setup", 30)
    finally:
        box.close()
        fake.close()
