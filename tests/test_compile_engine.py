"""The optional compiled engine's build on a small board."""

from __future__ import annotations

from companion import compile_engine
from companion.games import compiled


def test_a_board_with_little_memory_builds_the_largest_module_lean():
    zero = "MemTotal:         427560 kB\nMemFree:           12000 kB\n"
    desk = "MemTotal:       16303000 kB\n"
    assert compile_engine.low_memory(zero) and not compile_engine.low_memory(desk)
    assert not compile_engine.low_memory("no such line\n")
    assert set(compile_engine.LOW_MEMORY_ARGS) <= set(compiled.MODULES)
