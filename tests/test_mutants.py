"""The mutation list stays usable: every planted rule change still applies.

``bench/mutants.py`` plants each line of ``bench/mutants.txt`` in a copy of the
package (see ``docs/mutation.md``). If an engine change moves or rewrites the text a
mutant names, the mutant would no longer plant anything and the published score
would rot silently; this fast check fails instead, naming the line.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutants", ROOT / "bench" / "mutants.py")
mutants = importlib.util.module_from_spec(_spec)
sys.modules["mutants"] = mutants  # dataclasses look their module up by name
_spec.loader.exec_module(mutants)

MUTANTS = mutants.load()


def test_enough_mutants_per_game():
    per_game = Counter(mu.game for mu in MUTANTS)
    assert per_game["entanglion"] >= 25 and per_game["qno"] >= 10 and per_game["qlanet"] >= 10


@pytest.mark.parametrize("mu", MUTANTS, ids=lambda mu: mu.id)
def test_mutant_applies_once_and_compiles(mu):
    source = (ROOT / "companion" / mu.file).read_text(encoding="utf-8")
    mutated = mutants.mutated_source(mu)  # raises ListError naming the line otherwise
    assert mutated != source and mu.why
    assert mu.file.startswith(f"games/{mu.game}/"), "a mutant bends its own game's rules"


@pytest.mark.parametrize("line, message", [
    ('E99 games/qno/engine.py "x" -> "y" : why', "expected \\[game\\]"),
    ('[chess]', "unknown game"),
    ('[qno]\nQ99 games/qno/engine.py x -> "y" : why', "must be a JSON string"),
    ('[qno]\nQ99 games/qno/engine.py "x" "y" : why', "expected ->"),
    ('[qno]\nQ99 games/qno/engine.py "x" -> "y" why', "expected ': why"),
    ('[qno]\nQ99 games/qno/engine.py "" -> "y" : why', "non-empty"),
    ('[qno]\nQ1 f "a" -> "b" : w\nQ1 f "c" -> "d" : w', "repeated mutant ids Q1"),
])
def test_malformed_lines_are_refused_with_their_line(line, message):
    with pytest.raises(mutants.ListError, match=message):
        mutants.parse(line)


def test_text_that_is_gone_or_repeated_is_refused():
    (mu,) = mutants.parse('[qno]\nQ99 games/qno/engine.py "no such text anywhere" -> "x" : w')
    with pytest.raises(mutants.ListError, match="not found"):
        mutants.mutated_source(mu)
    (mu,) = mutants.parse('[qno]\nQ99 games/qno/engine.py "self" -> "this" : w')
    with pytest.raises(mutants.ListError, match="found .* times"):
        mutants.mutated_source(mu)
    (mu,) = mutants.parse(
        '[qno]\nQ99 games/qno/engine.py "def _deal(self)" -> "def _deal(self" : w')
    with pytest.raises(mutants.ListError, match="does not compile"):
        mutants.mutated_source(mu)
