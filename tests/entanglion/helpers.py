"""Small builders shared by the Entanglion rules tests.

Planet, card, event and component names are typed as plain strings (not imported
from the engine) so a renamed constant in the engine shows up as a failing test.
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.games.entanglion import Entanglion

M, R = "mercurial", "rubicon"
SHIPS = (M, R)

# Clockwise from OMEGA ZERO (docs/rules/entanglion.md, planets and galaxies).
RING = (
    "OMEGA_ZERO", "OMEGA_ONE", "PSI_MINUS", "PHI_MINUS",
    "OMEGA_THREE", "OMEGA_TWO", "PHI_PLUS", "PSI_PLUS",
)  # fmt: skip
TRACK = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6, 11: 7}

COMPONENTS = (
    "physical_qubits", "qubit_interconnect", "dilution_refrigerator", "quantum_gates",
    "quantum_programming", "quantum_error_correction", "control_infrastructure",
    "magnetic_shielding",
)  # fmt: skip
EVENTS = (
    "bennett", "bit_flip_error", "heisenberg", "quantum_shuffle", "quantum_tunnel",
    "schrodinger", "spooky_action", "the_mechanic", "wave_function_collapse",
)  # fmt: skip
KEPT = ("bennett", "heisenberg", "quantum_tunnel", "the_mechanic")
ENGINE_COUNTS = {"H": 8, "CNOT": 7, "X": 5, "SWAP": 3, "PROBE": 1}

DEFAULT_HANDS = {M: ["X", "H", "CNOT"], R: ["X", "H", "SWAP"]}


def game(
    *,
    first: str = M,
    ships: tuple[str, str] = ("ZERO", "ZERO"),
    hands: dict[str, list[str]] | None = None,
    stack: list[str] | None = None,
    events: list[str] | None = None,
    components: dict[str, str | None] | None = None,
    ship_components: dict[str, list[str]] | None = None,
    held: dict[str, list[str]] | None = None,
    detection: int | None = None,
    dice: Iterable[int] = (),
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> Entanglion:
    """A game with fixed first player, ship positions and hands (no setup rolls)."""
    setup: dict[str, Any] = {
        "first_player": first,
        "ships": {M: ships[0], R: ships[1]},
        "hands": {k: list(v) for k, v in (hands or DEFAULT_HANDS).items()},
    }
    if stack is not None:
        setup["engine_stack"] = list(stack)
    if events is not None:
        setup["event_deck"] = list(events)
    if components is not None:
        setup["components"] = dict(components)
    if ship_components is not None:
        setup["ship_components"] = {k: list(v) for k, v in ship_components.items()}
    if held is not None:
        setup["held_events"] = {k: list(v) for k, v in held.items()}
    if detection is not None:
        setup["detection_space"] = detection
    return Entanglion(seed=seed, options=options, setup=setup, dice=list(dice))


def at(planet: str) -> tuple[str, str]:
    return (planet, planet)


def empty_planet_setup(planet: str, parked_on: str, parked: str = "quantum_gates",
                       components: dict[str, str | None] | None = None) -> dict[str, Any]:
    """Setup keywords that leave ``planet`` without a component.

    Eight components need eight places, so one (``parked``) starts on the ship
    ``parked_on``; pick a component and ship that don't matter for the test.
    """
    comps = dict(components or {})
    comps[planet] = None
    return {"components": comps, "ship_components": {parked_on: [parked]}}


def play(g: Entanglion, do: str, card: str | None = None, player: str | None = None,
         **extra: Any) -> list[dict[str, Any]]:
    act: dict[str, Any] = {"do": do, "player": player or g.awaiting()}
    if card is not None:
        act["card"] = card
    act.update(extra)
    return g.push(act)


def choose(g: Entanglion, value: Any) -> list[dict[str, Any]]:
    assert g.pending is not None, "expected a prompt"
    return g.push({"player": g.pending["player"], "do": "choose", "value": value})


def entries(g: Entanglion, type_: str, since: int = 0, **match: Any) -> list[dict[str, Any]]:
    """Log entries of one type (optionally matching some fields) from index ``since``."""
    return [e for e in g.log[since:] if e["type"] == type_
            and all(e.get(k) == v for k, v in match.items())]


def rolls(g: Entanglion, purpose: str | None = None, since: int = 0) -> list[dict[str, Any]]:
    return [e for e in entries(g, "roll", since) if purpose is None or e["purpose"] == purpose]


def all_engine_cards(g: Entanglion) -> list[str]:
    """Every engine card wherever it is (hands, stack, discard, control, drawn, aside)."""
    s = g.state
    cards = s.hands[M] + s.hands[R] + s.engine_stack + s.engine_discard + s.drawn + s.set_aside
    cards += [c for c, _ in s.engine_control]
    return sorted(cards)


def full_engine_deck() -> list[str]:
    return sorted(c for c, n in ENGINE_COUNTS.items() for _ in range(n))


def all_event_cards(g: Entanglion) -> list[str]:
    s = g.state
    return sorted(s.event_deck + s.event_discard + s.held_events[M] + s.held_events[R])


# Six no-effect plays on OMEGA ONE (CNOT and SWAP don't move anybody there), the
# sixth by Rubicon; the last card played may be replaced with ``last``.
SIX_SLOT_HANDS = {M: ["CNOT", "CNOT", "SWAP"], R: ["CNOT", "SWAP", "X"]}
SIX_SLOT_STACK = ["CNOT", "CNOT", "CNOT", "CNOT", "H", "H", "H"]
SIX_SLOT_PLAYS = ("CNOT", "CNOT", "CNOT", "SWAP", "SWAP", "CNOT")


def six_slot_game(**kw: Any) -> Entanglion:
    kw.setdefault("ships", at("OMEGA_ONE"))
    kw.setdefault("hands", SIX_SLOT_HANDS)
    kw.setdefault("stack", SIX_SLOT_STACK)
    return game(**kw)


def fill_six(g: Entanglion, last: str = "CNOT") -> None:
    for card in SIX_SLOT_PLAYS[:5] + (last,):
        play(g, "navigate", card)


def detected(events: list[str], *, detection: int = 1, extra_dice: Iterable[int] = (),
             **kw: Any) -> Entanglion:
    """Mercurial plays X from PHI PLUS to PSI PLUS and is detected (d8 1, Centarious 0):
    both ships to ZERO, detection +1, then Mercurial draws the top event of ``events``."""
    kw.setdefault("hands", {M: ["X", "H", "H"], R: ["H", "H", "H"]})
    g = game(ships=at("PHI_PLUS"), events=events, detection=detection,
             dice=[1, 0, *extra_dice], **kw)
    play(g, "navigate", "X")
    return g
