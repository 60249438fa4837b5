"""The narration covers every log entry the engine writes, in plain sentences."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion import scenario
from companion.games.entanglion import Entanglion
from companion.games.entanglion.explain import explain, narrate
from companion.games.entanglion.options import RULINGS

ROOT = Path(__file__).resolve().parents[2]
LOG_TYPES = {"setup", "turn", "action", "move", "no_effect", "draw", "roll", "detection",
             "quantum_event", "event", "engine_control_cleared", "retrieved", "teleported",
             "transfer", "keep", "discard", "bypass", "interconnect", "reshuffle", "game_over"}


def test_first_game_is_told_as_in_the_rule_book():
    data = scenario.load((ROOT / "examples" / "first-game.json").read_text())
    _, result = scenario.run(data)
    text = narrate(result["log"])
    for line in [
        "H: Mercurial at PLUS, Rubicon at ZERO.",
        "CNOT: both ships at PHI PLUS.",
        "Rubicon rolls the d8 for orbital defence: 3 (needs more than 1): evaded.",
        "Mercurial retrieves Quantum Gates from PHI PLUS.",
        "Rubicon rolls the d8 for orbital defence: 1 (needs more than 1): detected.",
        "Rubicon rolls the Centarious die: 1 -> ONE.",
        "Detected! Evasive jump: both ships at ONE.",
        "Detection rate -> space 2 (value 2): orbital defence.",
        "Rubicon draws Heisenberg and keeps it.",
    ]:
        assert line in text
    assert text.index("Detected! Evasive jump: both ships at ONE.") < text.index(
        "Detection rate -> space 2 (value 2): orbital defence.") < text.index(
        "Rubicon draws Heisenberg and keeps it.")


def test_every_log_entry_of_many_random_games_has_a_sentence():
    seen = set()
    for seed in range(300):
        chooser = random.Random(seed)
        options = {name: chooser.choice(c.allowed) for name, c in RULINGS.items()} \
            if seed % 2 else None
        g = Entanglion(seed, options)
        while g.status in ("playing", "setup"):
            g.push(chooser.choice(g.legal_actions()))
        for entry in g.log:
            seen.add(entry["type"])
            sentence = explain(json.loads(json.dumps(entry)))
            assert sentence and "{" not in sentence and "None" not in sentence, (entry, sentence)
    assert seen == LOG_TYPES  # fixed seeds: every kind of entry comes up


def test_cli_text_mode(tmp_path, capsys):
    from companion.cli import main

    assert main(["scenario", str(ROOT / "examples" / "first-game.json"), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Set-up: detection rate starts at space 1."
    assert "-- Turn 5: Mercurial --" in out
