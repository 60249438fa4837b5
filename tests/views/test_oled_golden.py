"""Every OLED screen type, compared pixel for pixel with a golden PNG.

Goldens live in ``tests/views/golden``. When a layout changes on purpose, run
``pytest tests/views/test_oled_golden.py --update-goldens``, look at the new PNGs,
and commit them with the change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.views import oled

GOLDEN = Path(__file__).parent / "golden"

STATUS = {
    "screen": "status", "turn": "Mercurial", "number": 5,
    "detection": {"space": 6, "value": 4}, "ships": "Ships at OMEGA2", "engine_control": 3,
    "hand": "Hand X H CNOT", "parts": "Parts 3/8  Heisenberg",
    "next": "RETRIEVE: need 5+ 4/8",
}
ROLL = {
    "screen": "roll", "player": "Rubicon", "die": "d8", "purpose": "Orbital defence",
    "value": 1, "modifier": 0, "modified": 1, "beat": 2, "need": 3, "result": "DETECTED",
    "alarm": True,
    "frame": None,
}
END = {"screen": "end", "result": "won", "reason": "all eight components are aboard",
       "turns": 31, "detection": {"space": 7, "value": 4}, "parts": 8, "time": "52 min",
       "page": 0, "pages": 5}

SCREENS = {
    "menu-main": {"screen": "menu", "title": "Companion",
                  "text": ["Choose a game", "A new game ends #3"],
                  "items": ["Resume game #3", "New Entanglion", "New QNO", "New QLANET"],
                  "cursor": 0},
    "menu-setup": {"screen": "menu", "title": "Difficulty", "right": "Setup 1/13", "text": [],
                   "items": ["Easy: track at 1", "Easy: track at 2", "Hard: track at 3"],
                   "cursor": 2},
    "menu-scrolled": {"screen": "menu", "title": "Mercurial: your move",
                      "text": ["Here: Quantum Gates"],
                      "items": ["Retrieve need 5+ 4/8", "CNOT → OMEGA3 5+ 4/8",
                                "X → OMEGA1 5+ 73%", "Play Heisenberg", "Qubit Interconnect",
                                "Exchange X", "Exchange CNOT", "H → M|+> R|0>",
                                "Undo last action", "Main menu (keep)", "End this game"],
                      "cursor": 2},
    "menu-leave": {"screen": "menu", "title": "Leave Entanglion?",
                   "text": ["H takes the ships", "out to M|+> R|0>"],
                   "items": ["No, stay", "Yes, leave"], "cursor": 0},
    "prompt-shielding": {"screen": "menu", "title": "Magnetic Shielding",
                         "text": ["Orbital roll: 2", "Need 5+ to evade"],
                         "items": ["Keep: DETECTED", "Re-roll: 4/8"], "cursor": 1},
    "setup-place": {"screen": "text", "title": "Parts", "right": "Setup 4/13",
                    "lines": ["Put Quantum Gates", "on PHI PLUS"], "hint": "OK next"},
    "notice-long": {"screen": "text", "title": "Rubicon plays CNOT",
                    "lines": ["CNOT: PSI+", "Orbital 1: DETECTED", "Det 2→3 orbital",
                              "Det 3→4 Schrödinger", "Rubicon take X"],
                    "hint": "▼ more  OK", "details": ["(the details pages)"]},
    "details": {"screen": "text", "title": "Details", "right": "1/3",
                "lines": ["Rubicon rolls the d8", "for orbital defence:", "1 (needs more than",
                          "2): detected."], "hint": "▲▼ OK"},
    # In a game the turn's title bar stays put and the screen's title is its first row.
    "turn-notice": {"screen": "text", "title": "Rubicon plays CNOT",
                    "bar": {"turn": "Mercurial", "number": 16},
                    "lines": ["CNOT: PHI+", "Orbital 8: evaded", "Tunnel: keep it",
                              "Rubicon take H"],
                    "hint": "▼ more  OK", "details": ["(the details pages)"]},
    "turn-menu": {"screen": "menu", "title": "Mercurial: your move",
                  "bar": {"turn": "Mercurial", "number": 5},
                  "text": ["Here: Quantum Gates"],
                  "items": ["Retrieve need 5+ 4/8", "CNOT → OMEGA3 5+ 4/8", "X → OMEGA1 5+ 73%",
                            "Play Heisenberg", "Qubit Interconnect", "Exchange X",
                            "Exchange CNOT", "Undo last action"], "cursor": 7},
    "turn-roll-frame": {**ROLL, "bar": {"turn": "Rubicon", "number": 15}, "frame": 2},
    "turn-roll": {**ROLL, "bar": {"turn": "Rubicon", "number": 15}, "value": 4, "modifier": 1,
                  "modified": 5, "need": 2, "result": "evaded", "alarm": False},
    "turn-card": {"screen": "card", "kind": "event", "title": "Rubicon draws",
                  "bar": {"turn": "Mercurial", "number": 9}, "name": "Heisenberg",
                  "text": "Roll d8, both ships jump around the ring; no defences "
                          "(Event action).", "footer": "Rubicon keeps it"},
    "turn-card-long-name": {"screen": "card", "kind": "component", "title": "Retrieved!",
                            "bar": {"turn": "Rubicon", "number": 12},
                            "name": "Quantum Error Correction",
                            "text": "+1 to defence rolls.", "footer": "aboard Rubicon"},
    "status": STATUS,
    "status-physical": {**STATUS, "hand": "Hand 3 cards", "parts": "Parts 0/8",
                        "engine_control": 6, "detection": {"space": 11, "value": 7},
                        "ships": "M |0>  R |+>", "next": "Tap a card; OK: moves"},
    "roll-frame": {**ROLL, "frame": 3},
    "roll-detected": ROLL,
    "roll-evaded-modifier": {**ROLL, "value": 4, "modifier": 1, "modified": 5, "need": 2,
                             "result": "evaded", "alarm": False},
    "roll-centarious": {"screen": "roll", "player": "Mercurial", "die": "centarious",
                        "purpose": "Evasive jump", "value": 1, "modifier": 0, "modified": 1,
                        "beat": None, "need": None, "result": "|1>", "frame": None},
    "card-event": {"screen": "card", "kind": "event", "title": "Rubicon draws",
                   "name": "Heisenberg",
                   "text": "Roll d8, both ships jump around the ring; no defences "
                           "(Event action).", "footer": "Rubicon keeps it"},
    "card-component": {"screen": "card", "kind": "component", "title": "Retrieved!",
                       "name": "Quantum Gates", "text": "Exchange: draw 2, keep 1.",
                       "footer": "aboard Mercurial"},
    "card-long-name": {"screen": "card", "kind": "component", "title": "Retrieved!",
                       "name": "Quantum Error Correction", "text": "+1 to defence rolls.",
                       "footer": "aboard Rubicon"},
    "error": {"screen": "error", "text": "Mercurial has no SWAP in hand (hand: X, H, CNOT)"},
    "undo": {"screen": "undo", "text": "Mercurial: navigate H"},
    "end-won": END,
    "end-lost": {**END, "result": "lost", "reason": "the detection rate reached X",
                 "turns": 23, "detection": {"space": 12, "value": "X"}, "parts": 5,
                 "time": None, "pages": 1},
    "end-story": {**END, "page": 2, "title": "Detected by",
                  "lines": ["3x orbital defence", "2x PROBE", "1x Schrödinger"]},
    # QNO
    "qno-status": {"screen": "qno", "turn": "P2", "number": 14, "state": "10",
                   "value": "Draw Two", "direction": -1, "counts": [5, 3, 1, 7],
                   "current": 2, "pile": 61, "discards": 29},
    "qno-status-six-after-gate": {"screen": "qno", "turn": "P6", "number": 3, "state": "01",
                                  "value": "gate", "direction": 1,
                                  "counts": [5, 5, 6, 4, 5, 12], "current": 6, "pile": 70,
                                  "discards": 5},
    "qno-circuit": {"screen": "circuit", "first": 3, "last": 14, "total": 14, "columns": [
        ["X", ""], ["", "X"], ["X", "X"], ["*", "+"], ["+", "*"], ["H", ""], ["M1", "M0"],
        ["", "H"], ["M?", "M?"], ["X", ""], ["*", "+"], ["", "X"]]},
    "qno-circuit-empty": {"screen": "circuit", "first": 1, "last": 0, "total": 0,
                          "columns": []},
    "qno-qubit-prompt": {"screen": "menu", "title": "P1: H on which qubit?",
                         "text": ["Top |10>"], "items": ["q1 left: |00>/|10>",
                                                         "q0 right: |10>/|11>"],
                         "cursor": 1},
    "qno-measured": {"screen": "text", "title": "H: measured",
                     "lines": ["P1's H on q0:", "(|10>+|11>)/sqrt2", "Outcome fixed, hidden."],
                     "hint": "OK guess"},
    "qno-end": {"screen": "qno_end", "winners": ["P3"], "reason": "empty hand", "turns": 42,
                "state": "11", "gates": 37, "page": 0, "pages": 2},
    # QLANET
    "qlanet-status": {"screen": "qlanet", "turn": 0, "number": 12,
                      "planets": ["-", "+", "F0", "~6", "?", "~4", "0", "1", "F1"],
                      "costs": [23, 31], "fixed": [1, 1], "last": "C1 CX0 2->1"},
    "qlanet-status-opening": {"screen": "qlanet", "turn": 1, "number": 1,
                              "planets": ["+", "+", "-", "-", "?", "-", "-", "+", "+"],
                              "costs": [0, 0], "fixed": [0, 0], "last": ""},
    "qlanet-pick": {"screen": "menu", "title": "C1 CX0: target of 2?", "text": [],
                    "items": ["Planet 1  -", "Planet 3  -", "Planet 4  +", "Planet 5  ?",
                              "Planet 6  +", "Planet 7  -", "Planet 8  -", "Planet 9  -"],
                    "cursor": 3},
    "qlanet-confirm": {"screen": "menu", "title": "C0: BM 5+6?", "text": ["Cost 8: total 11"],
                       "items": ["Play it", "Cancel"], "cursor": 0},
    "qlanet-end": {"screen": "qlanet_end", "winners": [0], "reason": "line 1-5-9",
                   "costs": [43, 50], "moves": 31,
                   "planets": ["F0", "+", "F1", "~6", "F0", "~4", "0", "1", "F0"],
                   "page": 0, "pages": 2},
    "qlanet-end-shared": {"screen": "qlanet_end", "winners": [0, 1], "reason": "move cap 60",
                          "costs": [150, 150], "moves": 60,
                          "planets": ["F0", "F1", "F0", "F1", "?", "F1", "F0", "F1", "F0"]},
    "qlanet-secret": {"screen": "qlanet_secret", "camp": 1, "input": 14,
                      "planets": ["-", "+", "F0", "~6", "1", "~4", "0", "1", "F1"],
                      "pairs": [{"planets": [4, 6], "code": "|01>-|10>", "bell": "Psi-"},
                                {"planets": [1, 2], "code": "|00>+|01>+|10>-|11>",
                                 "bell": None}]},
    "qlanet-secret-group": {"screen": "qlanet_secret", "camp": 0, "input": 9,
                            "planets": ["~2", "~3", "~1", "~6", "+", "~4", "-", "-", "+"],
                            "pairs": [{"planets": [1, 2, 3],
                                       "code": "|000>+|011>+|101>-|110>", "bell": None},
                                      {"planets": [4, 6], "code": "|00>-|11>",
                                       "bell": "Phi-"}]},
    "qlanet-secret-none": {"screen": "qlanet_secret", "camp": 0, "input": 3,
                           "planets": ["+", "+", "-", "-", "?", "-", "-", "+", "+"],
                           "pairs": []},
    "qlanet-peek-warning": {"screen": "text", "title": "Camp 1's secret",
                            "lines": ["Camp 0: look away!", "Hold EXCHANGE to show,",
                                      "let go to hide it.", "OK: back to the game"],
                            "hint": ""},
    "web-address": {"screen": "web_address", "title": "Web page",
                    "url": "http://192.168.178.23:8080/", "hint": "OK"},
    "web-address-long": {"screen": "web_address", "title": "Web page",
                         "url": "http://the-games-room-companion.example.org:8080/",
                         "hint": "OK"},
    "qno-end-shared": {"screen": "qno_end", "winners": ["P1", "P2"],
                       "reason": "draw pile empty: fewest cards", "turns": 80, "state": "00",
                       "gates": 60},
}


def test_every_layout_has_a_golden():
    assert {m["screen"] for m in SCREENS.values()} == set(oled.LAYOUTS)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_golden(name, request):
    image = oled.render(SCREENS[name])
    assert image.mode == "1" and image.size == (128, 64)
    path = GOLDEN / f"{name}.png"
    if request.config.getoption("--update-goldens"):
        image.save(path)
        return
    assert path.exists(), f"no golden {path.name}: run pytest with --update-goldens"
    golden = Image.open(path).convert("1")
    diff = ImageChops.logical_xor(image, golden).getbbox()  # difference() misreads mode "1"
    assert diff is None, f"{name} differs from its golden in the box {diff}"


def test_no_golden_screen_cuts_its_text():
    from companion.views.font import truncations

    for name, model in SCREENS.items():
        with truncations() as cuts:
            oled.render(model)
        assert cuts == [], (name, cuts)


def test_rendering_is_deterministic():
    for model in SCREENS.values():
        assert oled.render(model).tobytes() == oled.render(model).tobytes()
