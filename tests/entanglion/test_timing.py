"""When things happen: rules about order and timing that conservation cannot see.

An engine that does the right things in the wrong order keeps every card and
component where it should be, so these tests pin the order itself, from scenarios
with forced dice and a given deck order, reading only the log and ``to_dict()``:

* the engine stack is reshuffled the moment its last card is drawn, not when the
  next draw finds it empty (the rule book says "immediately");
* Navigate draws its replacement card before the orbital check, so a PROBE drawn
  as the replacement has raised the detection rate before the roll;
* the Dilution Refrigerator teleported away by Spooky Action lets its former holder
  draw back up to three at once (ruling Q12 as the engine applies it to any move of
  the refrigerator), and not under the next_draw option.
"""

from __future__ import annotations

from collections import Counter

from helpers import M, R, RING, all_engine_cards, at, entries, full_engine_deck, game, play

DR = "dilution_refrigerator"

# An engine stack given whole: PROBE on top, so the first exchange meets it, and
# then 17 cards; the six in hand make the 24.
EXHAUST_HANDS = {M: ["X", "X", "X"], R: ["X", "X", "H"]}
EXHAUST_STACK = ["PROBE"] + ["H"] * 7 + ["CNOT"] * 7 + ["SWAP"] * 3


def kinds(log: list[dict]) -> list[tuple]:
    """A log as (type, what) pairs: the card drawn, the roll's purpose, and so on."""
    out = []
    for e in log:
        t = e["type"]
        what = {"draw": e.get("card"), "roll": e.get("purpose"), "event": e.get("card"),
                "detection": e.get("reason"), "reshuffle": e.get("deck")}.get(t)
        out.append((t, what) if what is not None else (t,))
    return out


def exhausted_but_one(**kw) -> object:
    """Sixteen exchanges: the engine stack is down to its last card, no reshuffle yet."""
    g = game(hands=EXHAUST_HANDS, stack=EXHAUST_STACK, dice=[8], **kw)
    for _ in range(16):
        play(g, "exchange", g.state.hands[g.state.turn_player][0])
    assert len(g.state.engine_stack) == 1 and not entries(g, "reshuffle")
    return g


# ------------------------------------------------------------------ reshuffle


def test_exchange_that_draws_the_last_card_reshuffles_at_once():
    g = exhausted_but_one()
    p = g.state.turn_player
    card = g.state.hands[p][0]
    last = g.state.engine_stack[0]
    discard = g.state.engine_discard + [card]  # the exchanged card is discarded first
    new = play(g, "exchange", card)
    assert kinds(new) == [("action",), ("draw", last), ("reshuffle", "engine"), ("turn",)]
    s = g.state
    assert Counter(s.engine_stack) == Counter(discard) and len(s.engine_stack) == 18
    assert s.engine_discard == []
    # The next discard stays on the discard pile: it is not part of the new stack.
    q = s.turn_player
    nxt = s.hands[q][0]
    play(g, "exchange", nxt)
    assert g.state.engine_discard == [nxt] and len(g.state.engine_stack) == 17
    assert all_engine_cards(g) == full_engine_deck()


def test_navigate_that_draws_the_last_card_reshuffles_before_the_turn_ends():
    g = exhausted_but_one()
    p = g.state.turn_player
    discard = list(g.state.engine_discard)
    new = play(g, "navigate", "X" if "X" in g.state.hands[p] else g.state.hands[p][0])
    types = [k[0] for k in kinds(new)]
    assert types.index("reshuffle") < types.index("turn")
    s = g.state
    # The card played sits in engine control, so only the discard pile was reshuffled.
    assert Counter(s.engine_stack) == Counter(discard) and s.engine_discard == []
    assert len(s.engine_control) == 1


def test_the_stack_is_never_left_empty_between_inputs():
    g = game(hands=EXHAUST_HANDS, stack=EXHAUST_STACK, dice=[8])
    for _ in range(60):  # over three times through the stack
        p = g.state.turn_player
        play(g, "exchange", g.state.hands[p][0])
        assert g.state.engine_stack, f"empty engine stack after input {len(g.inputs)}"
    assert len(entries(g, "reshuffle", deck="engine")) >= 3


def test_probe_as_the_last_card_rolls_then_goes_into_the_reshuffle_then_the_draw():
    # PROBE under 17 cards: the 18th exchange draws it as the stack's last card.
    g = game(hands=EXHAUST_HANDS, stack=EXHAUST_STACK[1:], dice=[2])
    for _ in range(17):
        play(g, "exchange", g.state.hands[g.state.turn_player][0])
    assert g.state.engine_stack == ["PROBE"] and g.state.detection == 1
    new = play(g, "exchange", g.state.hands[g.state.turn_player][0])
    assert kinds(new)[:5] == [
        ("action",), ("draw", "PROBE"), ("roll", "probe"), ("detection", "probe"),
        ("reshuffle", "engine"),
    ]
    assert new[4]["cards"] == 19  # the PROBE and the 18 exchanged cards
    assert new[5]["type"] == "draw"  # the replacement comes from the new stack
    assert g.state.detection == 2


# ------------------------------------------------- replacement before the check


def test_replacement_probe_raises_detection_before_the_orbital_roll():
    """Mercurial plays X from PHI PLUS to PSI PLUS (defended). The replacement is a
    PROBE: roll 1 raises detection from value 2 to 3, its own replacement H is drawn,
    and only then the orbital roll, which must now beat 3: a 3 is detected."""
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["PROBE", "H"], events=["bennett"], detection=3, dice=[1, 3, 0])
    new = play(g, "navigate", "X")
    assert kinds(new)[:11] == [
        ("action",), ("move",),
        ("draw", "PROBE"), ("roll", "probe"), ("detection", "probe"),
        ("draw", "H"),
        ("roll", "orbital defence"),
        ("roll", "orbital detection jump"), ("move",), ("detection", "orbital defence"),
        ("quantum_event",),
    ]
    orbital = new[6]
    assert orbital["raw"] == 3 and orbital["beat"] == 3 and orbital["result"] == "detected"
    s = g.state
    assert s.pos == ("ZERO", "ZERO") and s.detection == 5
    assert sorted(s.hands[M]) == ["H", "H", "H"]


def test_replacement_is_drawn_even_when_the_orbital_check_loses_the_game():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["SWAP"], detection=11, dice=[7, 0])
    new = play(g, "navigate", "X")
    assert g.state.status == "lost"
    types = [k[0] for k in kinds(new)]
    assert types.index("draw") < types.index("roll") < types.index("game_over")
    assert sorted(g.state.hands[M]) == ["H", "H", "SWAP"]


def test_quantum_programming_bypass_comes_after_the_replacement():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT"], components={"PSI_PLUS": None},
             ship_components={M: ["quantum_programming"]})
    new = play(g, "navigate", "X")
    assert kinds(new)[:4] == [("action",), ("move",), ("draw", "CNOT"), ("bypass",)]


# ---------------------------------------- Dilution Refrigerator and Spooky Action


def refrigerator_teleported(option: str | None = None):
    """Mercurial holds only the Dilution Refrigerator (hand limit 2) and is detected
    arriving on PSI PLUS; the event is Spooky Action and OMEGA ONE is the one free
    planet, so the refrigerator goes there whatever the roll."""
    others = ["physical_qubits", "qubit_interconnect", "quantum_gates", "quantum_programming",
              "quantum_error_correction", "control_infrastructure", "magnetic_shielding"]
    planets = [p for p in RING if p != "OMEGA_ONE"]
    components = dict(zip(planets, others), OMEGA_ONE=None)
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H"], R: ["H", "H", "H"]},
             ship_components={M: [DR]}, components=components, stack=["CNOT", "SWAP", "X"],
             events=["spooky_action"], dice=[1, 0, 5],
             options={"bennett_dilution_refrigerator": option} if option else None)
    new = play(g, "navigate", "X")
    assert g.state.planet_components["OMEGA_ONE"] == DR and g.state.ship_components[M] == []
    return g, new


def test_refrigerator_teleported_away_lets_its_holder_draw_up_at_once():
    g, new = refrigerator_teleported()
    assert sorted(g.state.hands[M]) == ["CNOT", "H", "SWAP"]
    types = kinds(new)
    at_teleport = types.index(("teleported",))
    assert ("draw", "CNOT") in types[:at_teleport]  # the replacement, at limit 2
    assert types[at_teleport + 1] == ("draw", "SWAP")  # back up to 3, at once
    assert g.pending is None and g.state.turn_player == R
    assert len(g.state.hands[R]) == 3


def test_refrigerator_teleported_away_under_next_draw_waits_for_a_draw():
    g, new = refrigerator_teleported("next_draw")
    assert sorted(g.state.hands[M]) == ["CNOT", "H"]
    assert ("draw", "SWAP") not in kinds(new)
    play(g, "exchange", "H")  # Rubicon
    play(g, "navigate", "H")  # Mercurial: 1 left, and the limit is 3 again
    assert len(g.state.hands[M]) == 3

