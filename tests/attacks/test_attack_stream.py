"""QLANET on the wire: what the raw event stream carries during a whole game.

By the rules each camp's hand is dealt face up and a refill joins that open hand, so
the deal and every card drawn are public: the box shows them on the shared OLED and the
stream carries them too. What stays secret until the reveal is what no player at the
table may see: a Bell measurement's code, the hidden truth of a planet, a camp's own
view. This reads the bytes a browser receives, step by step, not the snapshot function.
"""

from __future__ import annotations

import json
import socket
import time

from companion.autoplay import AutoPlayer
from companion.games.qlanet.knowledge import view
from companion.web import patch
from web_rig import Rig

STEPS = 150  # commands: the deal, dozens of refills and a Bell measurement (seed 2)


def _data_lines(sock: socket.socket, buf: bytearray, want: bytes, raw: bytearray,
                shown: list) -> None:
    """Read the stream (keeping every byte in ``raw``) until the page, rebuilt from the
    whole snapshots and patches it was sent, shows the snapshot ``want``."""
    target = json.loads(want)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        while (end := buf.find(b"\n\n")) >= 0:
            message = bytes(buf[:end]).split(b"\n")
            del buf[:end + 2]
            kind = next((m[7:] for m in message if m.startswith(b"event: ")), b"")
            data = next((m[6:] for m in message if m.startswith(b"data: ")), None)
            if data is None or kind == b"full":
                continue
            shown[0] = patch.apply(shown[0], json.loads(data)) if kind == b"patch" \
                else json.loads(data)
            if shown[0] == target:
                return
        chunk = sock.recv(65536)
        assert chunk, "the stream closed"
        buf += chunk
        raw += chunk
    raise AssertionError("the stream never sent the box's latest snapshot")


def test_the_raw_stream_carries_the_open_hands_and_never_a_secret(tmp_path):
    rig = Rig(tmp_path, seed=2)
    sock = socket.create_connection(("127.0.0.1", rig.server.port), timeout=5)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    buf, raw, shown = bytearray(), bytearray(), [None]
    player = AutoPlayer(2, game="qlanet")
    session = rig.sim.box.session
    dealt, steps, bells = None, 0, 0
    try:
        for _ in range(STEPS):
            with rig.lock:
                cmd = player.next_command(session)
                if cmd is None:
                    break
                rig.sim.run(cmd)
                g = session.game if session.mode == "game" else None
                playing = g is not None and g.state.status == "playing"
                secrets = [json.dumps(p) for viewer in ("truth", 0, 1)
                           for p, q in zip(view(g, viewer), view(g, "spectator")) if p != q] \
                    if playing else []
                codes = [b["code"] for b in g.state.bells] if playing else []
                if dealt is None and g is not None:
                    dealt = [" ".join(h) for h in g.state.hands]
            status, _, latest = rig.request("GET", "/snapshot")
            _data_lines(sock, buf, latest, raw, shown)
            text = latest.decode()
            for secret in secrets:
                assert secret not in text
            public = json.dumps(json.loads(latest).get("planets"))
            for code in codes:  # a Bell code is on the owner's view only, until the reveal
                if code not in public:
                    assert f'"{code}"' not in text
                    bells += 1
            steps += 1
        assert steps == STEPS
        # The open hands went out: the deal, and every card drawn ("C0: take a X").
        assert f"C0 takes {dealt[0]}".encode() in raw and f"C1 takes {dealt[1]}".encode() in raw
        drawn = [e for e in session.game.log if e["type"] == "refill"]
        assert drawn and raw.count(b": take a ") == len(drawn)
        assert bells > 0  # the game had a secret to keep
    finally:
        sock.close()
        rig.close()
