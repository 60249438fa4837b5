"""The evening the journal tests damage: a game played to its win, then another left
some inputs in (the journal as a table leaves it at night)."""

from __future__ import annotations

from pathlib import Path

from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import Sim, build


def play(sim: Sim, player: AutoPlayer, inputs: int) -> None:
    """Play until the game in play has ``inputs`` inputs, or is over."""
    while True:
        s = sim.box.session
        if s.mode == "game" and (len(s.game.inputs) >= inputs or s.game.status != "playing"):
            return
        command = player.next_command(s)
        if command is None:
            return
        sim.run(command)


def an_evening(state: Path, inputs: int):
    """A won game (seed 3), then one (seed 5) left at ``inputs`` inputs, in ``state``.
    Returns the simulator and its journal, still open."""
    sim, journal = build(state, None, 3, SessionConfig(), None)
    play(sim, AutoPlayer(3), 10_000)
    assert sim.box.session.game.status == "won"
    sim.box.session._leave()  # back to the menu, as OK on the end screen does
    play(sim, AutoPlayer(5), inputs)
    assert len(sim.box.session.game.inputs) == inputs
    return sim, journal
