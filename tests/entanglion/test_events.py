"""The nine quantum event cards (docs/rules/entanglion.md, errata included; rulings Q1-Q17)."""

from __future__ import annotations

import pytest

from companion.games.entanglion import IllegalAction

from helpers import (
    EVENTS, KEPT, M, R, RING, all_engine_cards, all_event_cards, at, choose,
    detected, entries, fill_six, full_engine_deck, game, play, rolls, six_slot_game,
)

IMMEDIATE = sorted(set(EVENTS) - set(KEPT) - {"quantum_shuffle"})


# ------------------------------------------------------------ kept vs immediate

@pytest.mark.parametrize("card", KEPT)
def test_kept_event_goes_to_the_drawing_players_hand(card):
    g = detected([card])
    assert g.state.held_events == {M: [card], R: []}
    assert card not in g.state.event_deck and g.state.event_discard == []
    assert entries(g, "event", card=card, kept=True)


@pytest.mark.parametrize("card", KEPT)
def test_kept_event_from_a_full_engine_control_goes_to_the_turn_player(card):
    g = six_slot_game(events=[card])
    fill_six(g)  # Rubicon fills slot 6
    assert g.state.held_events == {M: [], R: [card]}


@pytest.mark.parametrize("card", IMMEDIATE)
def test_immediate_event_resolves_to_the_discard(card):
    g = detected([card], detection=4)
    assert g.state.event_discard == [card]
    assert g.state.held_events == {M: [], R: []}
    assert all_event_cards(g) == sorted(EVENTS)


# ----------------------------------------------------- detection-track events

@pytest.mark.parametrize("start, expected", [(1, 6), (4, 6), (8, 6), (10, 6)])
def test_bit_flip_error_sets_space_six(start, expected):
    g = detected(["bit_flip_error"], detection=start)  # detection +1 before the event
    assert g.state.detection == expected


@pytest.mark.parametrize("start, expected", [(1, 2), (4, 5), (5, 6), (8, 6), (10, 6)])
def test_bit_flip_error_only_lower_option(start, expected):
    g = detected(["bit_flip_error"], detection=start, options={"bit_flip_error": "only_lower"})
    assert g.state.detection == expected


def test_engine_control_cleared_after_slot_six_is_logged_once_after_its_event():
    """Filling slot six draws a Quantum Event, then Engine Control is cleared: the log
    says so once, after the event, and the six cards are in the discard pile."""
    g = six_slot_game(events=["schrodinger"])
    fill_six(g)
    types = [e["type"] for e in g.log]
    assert entries(g, "engine_control_cleared") == [{"type": "engine_control_cleared"}]
    assert types.index("event") < types.index("engine_control_cleared")
    assert g.state.engine_control == [] and len(g.state.engine_discard) >= 6


def test_bit_flip_error_from_engine_control_with_detection_below():
    g = six_slot_game(events=["bit_flip_error"], detection=2)
    fill_six(g)
    assert g.state.detection == 6


def test_card_and_planet_names_are_told_as_printed():
    """Refusals and prompts name cards as printed: words capitalised, Schrödinger with
    its umlaut; planets (upper case) keep their capitals, with spaces."""
    from companion.games.entanglion.cards import pretty

    assert [pretty(n) for n in ("quantum_tunnel", "schrodinger", "bit_flip_error",
                                "PHI_PLUS", "OMEGA_ZERO", "X")] == [
        "Quantum Tunnel", "Schrödinger", "Bit Flip Error", "PHI PLUS", "OMEGA ZERO", "X"]


def test_an_event_resolved_at_once_is_logged_as_not_kept_for_its_player():
    """An immediate event (Schrödinger) is told as drawn by the detected player and not
    kept, before what it does."""
    g = detected(["schrodinger"], detection=3)
    assert entries(g, "event") == [
        {"type": "event", "player": M, "card": "schrodinger", "kept": False}]
    types = [e["type"] for e in g.log]
    assert types.index("event") < len(types) - 1 - types[::-1].index("detection")


@pytest.mark.parametrize("start", [1, 5, 9])
def test_schrodinger_raises_detection_by_one(start):
    g = detected(["schrodinger"], detection=start)
    assert g.state.detection == start + 2  # orbital detection +1, Schrödinger +1
    assert g.state.status == "playing"


def test_schrodinger_can_lose_the_game():
    g = detected(["schrodinger"], detection=10)
    assert g.state.detection == 12 and g.state.status == "lost"
    assert entries(g, "game_over", status="lost")
    with pytest.raises(IllegalAction):
        play(g, "navigate", "H", player=R)


def test_schrodinger_from_engine_control_can_lose():
    g = six_slot_game(events=["schrodinger"], detection=11)
    fill_six(g)
    assert g.state.status == "lost"


@pytest.mark.parametrize("start, expected", [(4, 3), (9, 8), (2, 1), (1, 1)])
def test_wave_function_collapse_lowers_by_two_clamped_at_one(start, expected):
    g = detected(["wave_function_collapse"], detection=start)  # start+1, then -2
    assert g.state.detection == expected


@pytest.mark.parametrize("start, expected", [(5, 3), (3, 1), (2, 1), (1, 1)])
def test_wave_function_collapse_from_engine_control(start, expected):
    g = six_slot_game(events=["wave_function_collapse"], detection=start)
    fill_six(g)
    assert g.state.detection == expected


@pytest.mark.parametrize("start, expected", [(5, 3), (3, 1), (2, 2), (1, 1)])
def test_wave_function_collapse_no_effect_option(start, expected):
    g = six_slot_game(events=["wave_function_collapse"], detection=start,
                      options={"wave_function_collapse_floor": "no_effect"})
    fill_six(g)
    # 2 -> 0 would go below space 1: the card does nothing (instead of clamping to 1)
    assert g.state.detection == expected


# --------------------------------------------------------------- Spooky Action

OTHERS = ["qubit_interconnect", "dilution_refrigerator", "magnetic_shielding", "physical_qubits",
          "quantum_programming", "quantum_error_correction", "control_infrastructure"]


def spooky(free: list[str], roll: int, **options) -> tuple:
    """Mercurial holds Quantum Gates and draws Spooky Action; ``free`` planets are empty."""
    occupied = [p for p in RING if p not in free]
    components = dict.fromkeys(RING)
    components.update(zip(occupied, OTHERS))
    on_rubicon = OTHERS[len(occupied):]
    g = detected(["spooky_action"], extra_dice=[roll], components=components,
                 ship_components={M: ["quantum_gates"], R: on_rubicon}, options=options or None)
    (entry,) = entries(g, "teleported")
    return g, entry["planet"]


def test_spooky_action_without_components_does_nothing():
    g = detected(["spooky_action"], extra_dice=[3],
                 ship_components={R: ["quantum_gates"]})  # Rubicon's don't count
    assert entries(g, "teleported") == []
    assert g.state.ship_components[R] == ["quantum_gates"]
    assert rolls(g, "spooky action") == [] and g.state.forced == [3]


def test_spooky_action_is_logged_with_its_player_the_component_and_the_planet():
    """Spooky Action's log (the box retells it): with no component aboard the drawing
    ship, no effect for that player; otherwise the d8 names the planet it counts to,
    and the teleport names the player, the component and that planet."""
    g = detected(["spooky_action"], extra_dice=[3], ship_components={R: ["quantum_gates"]})
    assert entries(g, "no_effect") == [
        {"type": "no_effect", "player": M, "card": "spooky_action"}]
    g, _ = spooky(list(RING), 3)
    (roll,) = rolls(g, "spooky action")
    assert (roll["player"], roll["raw"], roll["result"]) == (M, 3, "PHI_MINUS")
    assert entries(g, "teleported") == [{"type": "teleported", "player": M,
                                         "component": "quantum_gates", "planet": "PHI_MINUS"}]


@pytest.mark.parametrize("roll, planet", [
    (1, "OMEGA_ONE"), (2, "PSI_MINUS"), (3, "PHI_MINUS"), (4, "OMEGA_THREE"),
    (5, "OMEGA_TWO"), (6, "PHI_PLUS"), (7, "PSI_PLUS"), (8, "OMEGA_ZERO"),
])
def test_spooky_action_all_free_counts_like_the_errata(roll, planet):
    g, dest = spooky(list(RING), roll)
    assert dest == planet
    assert g.state.planet_components[planet] == "quantum_gates"
    assert g.state.ship_components[M] == []


@pytest.mark.parametrize("free, roll, planet", [
    # roll 1 = the first free planet after OMEGA ZERO
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 1, "PSI_MINUS"),
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 2, "PHI_PLUS"),
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 3, "OMEGA_ZERO"),  # OMEGA ZERO is last
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 4, "PSI_MINUS"),   # wraps round
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 8, "PHI_PLUS"),
    (["PSI_PLUS"], 5, "PSI_PLUS"),
    (["OMEGA_ZERO"], 1, "OMEGA_ZERO"),
    (["OMEGA_THREE", "OMEGA_TWO"], 7, "OMEGA_THREE"),
])
def test_spooky_action_counts_unoccupied_planets_after_omega_zero(free, roll, planet):
    g, dest = spooky(free, roll)
    assert dest == planet
    (entry,) = rolls(g, "spooky action")
    assert entry["raw"] == roll


def test_spooky_action_counts_each_unoccupied_planet_once_round_the_ring():
    """Counting unoccupied planets from after OMEGA ZERO wraps round the ring meeting
    each free planet once, OMEGA ONE (the first counted) included."""
    for roll in range(1, 9):
        _, dest = spooky(["OMEGA_ONE", "PSI_PLUS"], roll)
        assert dest == ("OMEGA_ONE", "PSI_PLUS")[(roll - 1) % 2], roll


@pytest.mark.parametrize("free, roll, planet", [
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 2, "PSI_MINUS"),   # RING[2] itself is free
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 1, "PSI_MINUS"),   # OMEGA ONE taken: next free
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 3, "PHI_PLUS"),
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 7, "OMEGA_ZERO"),
    (["OMEGA_ZERO", "PSI_MINUS", "PHI_PLUS"], 8, "OMEGA_ZERO"),
])
def test_spooky_action_all_planets_option(free, roll, planet):
    _, dest = spooky(free, roll, spooky_action_count="all_planets")
    assert dest == planet


def test_spooky_action_moves_exactly_one_of_several_components():
    components = dict.fromkeys(RING)
    components.update(zip(RING[:4], OTHERS[:4]))
    g = detected(["spooky_action"], extra_dice=[1], components=components,
                 ship_components={M: ["quantum_gates", "control_infrastructure"],
                                  R: ["quantum_programming", "quantum_error_correction"]})
    (entry,) = entries(g, "teleported")
    assert entry["component"] in ("quantum_gates", "control_infrastructure")
    assert entry["planet"] == "OMEGA_THREE"  # first free planet after OMEGA ZERO
    assert len(g.state.ship_components[M]) == 1
    assert g.state.planet_components["OMEGA_THREE"] == entry["component"]


# ------------------------------------------------------------- Quantum Shuffle

def test_quantum_shuffle_rebuilds_and_draws_the_real_event():
    g = detected(["quantum_shuffle"], held={R: ["heisenberg"]})
    s = g.state
    names = [e["card"] for e in entries(g, "event")]
    assert names[0] == "quantum_shuffle" and len(names) == 2
    drawn = names[1]
    assert drawn not in ("quantum_shuffle", "heisenberg")
    assert entries(g, "reshuffle", deck="event")
    assert "quantum_shuffle" not in s.event_discard
    assert s.held_events[R] == ["heisenberg"]  # held cards stay in hands
    assert "heisenberg" not in s.event_deck
    assert len(s.event_deck) == 7  # 9 cards - 1 held - the one drawn after the rebuild
    qs = s.event_deck.index("quantum_shuffle")
    assert len(s.event_deck) - qs - 1 == 3  # exactly 3 under Quantum Shuffle
    if drawn in KEPT:
        assert drawn in s.held_events[M]
    else:
        assert s.event_discard == [drawn]
    assert all_event_cards(g) == sorted(EVENTS)


def test_quantum_shuffle_gathers_the_discard_pile():
    # Double event: Schrödinger (discarded) by detection, then Quantum Shuffle.
    g = six_slot_game(events=["schrodinger", "quantum_shuffle"], dice=[1, 0],
                      held={M: ["bennett"], R: ["the_mechanic"]})
    fill_six(g, last="X")
    s = g.state
    assert [e["card"] for e in entries(g, "event")][:2] == ["schrodinger", "quantum_shuffle"]
    # Schrödinger was shuffled back: it is in the deck or was the event drawn after QS
    after_qs = [e["card"] for e in entries(g, "event")][2]
    assert "schrodinger" in s.event_deck or after_qs == "schrodinger"
    assert s.held_events[M] == ["bennett"]
    assert "the_mechanic" in s.held_events[R]
    qs = s.event_deck.index("quantum_shuffle")
    assert len(s.event_deck) - qs - 1 == 3
    assert all_event_cards(g) == sorted(EVENTS)


def test_quantum_shuffle_all_events_option_takes_held_cards_back():
    g = detected(["quantum_shuffle"], held={R: ["heisenberg"], M: ["bennett"]},
                 options={"quantum_shuffle_gathers": "all_events"})
    s = g.state
    drawn = [e["card"] for e in entries(g, "event")][1]
    assert s.held_events[R] == [] and s.held_events[M] in ([], [drawn])
    assert len(s.event_deck) == 8
    assert all_event_cards(g) == sorted(EVENTS)


@pytest.mark.parametrize("seed", range(6))
def test_quantum_shuffle_is_the_sixth_card_after_a_full_rebuild(seed):
    g = detected(["quantum_shuffle"], seed=seed)
    s = g.state
    # 9 cards rebuilt as 5 / QS / 3 and the top one drawn: QS is now 5th from the top
    assert s.event_deck.index("quantum_shuffle") == 4 and len(s.event_deck) == 8


# ------------------------------------------------------------------ Heisenberg

def test_heisenbergs_roll_is_logged_with_the_planet_it_points_at():
    """Heisenberg's d8 entry names the planet of the ring the roll counts to (the box
    retells "rolled 3: PHI MINUS"), even when the ships are already there; the move it
    makes names Heisenberg and its player."""
    for roll, planet, ships in ((3, "PHI_MINUS", ("ZERO", "PLUS")),
                                (8, "OMEGA_ZERO", at("OMEGA_ZERO"))):
        g = game(ships=ships, held={M: ["heisenberg"]}, dice=[roll, 1, 1])
        play(g, "event", "heisenberg")
        (entry,) = rolls(g, "heisenberg")
        assert (entry["raw"], entry["result"]) == (roll, planet)
        moved = [] if ships == at(planet) else [{
            "type": "move", "player": M, "cause": "heisenberg", "from": list(ships),
            "to": [planet, planet]}]
        assert entries(g, "move") == moved  # no move to where the ships already are


@pytest.mark.parametrize("roll, planet", [
    (1, "OMEGA_ONE"), (2, "PSI_MINUS"), (3, "PHI_MINUS"), (4, "OMEGA_THREE"),
    (5, "OMEGA_TWO"), (6, "PHI_PLUS"), (7, "PSI_PLUS"), (8, "OMEGA_ZERO"),
])
@pytest.mark.parametrize("ships", [("ZERO", "PLUS"), ("ONE", "ONE"), at("PSI_PLUS")])
def test_heisenberg_moves_both_ships_round_the_ring_without_orbital_check(ships, roll, planet):
    g = game(ships=ships, held={M: ["heisenberg"]}, dice=[roll, 1, 1])
    play(g, "event", "heisenberg")
    s = g.state
    assert s.pos == at(planet)
    (entry,) = rolls(g)
    assert entry["purpose"] == "heisenberg" and entry["raw"] == roll
    assert s.forced == [1, 1]  # no orbital roll
    assert s.held_events[M] == [] and s.event_discard == ["heisenberg"]
    assert s.turn_player == R  # it was the action
    assert s.engine_control == [] and s.hands[M] == ["X", "H", "CNOT"]


def test_heisenberg_is_played_only_by_its_holder_on_their_turn():
    g = game(held={R: ["heisenberg"]})
    assert {"player": M, "do": "event", "card": "heisenberg"} not in g.legal_actions()
    with pytest.raises(IllegalAction):
        play(g, "event", "heisenberg", player=M)
    with pytest.raises(IllegalAction):
        play(g, "event", "heisenberg", player=R)


def test_heisenberg_from_outside_can_be_switched_off():
    g = game(held={M: ["heisenberg"]}, options={"heisenberg_from_outside": False}, dice=[3])
    with pytest.raises(IllegalAction, match="Heisenberg"):
        play(g, "event", "heisenberg")
    g = game(ships=at("PSI_PLUS"), held={M: ["heisenberg"]},
             options={"heisenberg_from_outside": False}, dice=[3])
    play(g, "event", "heisenberg")
    assert g.state.pos == at("PHI_MINUS")


def test_events_not_played_as_an_action_are_refused_in_words():
    """Quantum Tunnel is not an action (it is offered when a defence roll is due), and
    with heisenberg_from_outside off Heisenberg is refused outside Entanglion: each
    refusal says so in full, and changes nothing."""
    for held, options, words in (
            ("quantum_tunnel", None,
             "Quantum Tunnel is free: it is offered when a defence roll is due"),
            ("heisenberg", {"heisenberg_from_outside": False},
             "Heisenberg can only be played inside Entanglion (option heisenberg_from_outside)")):
        g = game(held={M: [held]}, options=options, dice=[3])
        before = g.to_dict()
        with pytest.raises(IllegalAction) as refused:
            play(g, "event", held)
        assert str(refused.value) == words and g.to_dict() == before


def test_a_quantum_shuffle_rebuild_is_logged_with_the_size_of_the_new_deck():
    """The event deck's reshuffle entry counts the cards of the deck rebuilt (the box
    retells it): of the nine event cards a held one stays out (8), unless all events
    are gathered back (9)."""
    for options, held, size in ((None, {R: ["heisenberg"]}, 8),
                                ({"quantum_shuffle_gathers": "all_events"},
                                 {R: ["heisenberg"], M: ["bennett"]}, 9)):
        g = detected(["quantum_shuffle"], held=held, options=options)
        assert [(e["deck"], e["cards"]) for e in entries(g, "reshuffle")] == [("event", size)]


def test_heisenberg_onto_the_current_planet_moves_nothing():
    g = game(ships=at("PHI_PLUS"), held={M: ["heisenberg"]}, dice=[6, 1])
    play(g, "event", "heisenberg")
    assert g.state.pos == at("PHI_PLUS") and g.state.forced == [1]
    assert entries(g, "move") == []


# --------------------------------------------------------------------- Bennett

def bennett_game(m: list[str], r: list[str]):
    return game(held={M: ["bennett"]}, ship_components={M: m, R: r}, first=M)


def test_bennett_prompt_lists_every_component_on_both_ships():
    g = bennett_game(["quantum_gates", "quantum_programming"], ["quantum_error_correction"])
    play(g, "event", "bennett")
    p = g.pending
    assert p["kind"] == "bennett" and p["player"] == M
    expected = [{"component": "quantum_gates", "from": M, "to": R},
                {"component": "quantum_programming", "from": M, "to": R},
                {"component": "quantum_error_correction", "from": R, "to": M}]
    assert sorted(p["options"], key=str) == sorted(expected, key=str)


@pytest.mark.parametrize("move, m_after, r_after", [
    ({"component": "quantum_gates", "from": M, "to": R}, [], ["quantum_error_correction",
                                                              "quantum_gates"]),
    ({"component": "quantum_error_correction", "from": R, "to": M},
     ["quantum_gates", "quantum_error_correction"], []),
])
def test_bennett_give_and_take(move, m_after, r_after):
    g = bennett_game(["quantum_gates"], ["quantum_error_correction"])
    play(g, "event", "bennett")
    choose(g, move)
    s = g.state
    assert sorted(s.ship_components[M]) == sorted(m_after)
    assert sorted(s.ship_components[R]) == sorted(r_after)
    assert entries(g, "transfer", component=move["component"])
    assert s.event_discard == ["bennett"] and s.held_events[M] == []
    assert s.turn_player == R


def test_bennett_with_one_component_moves_it_without_asking():
    g = bennett_game([], ["quantum_gates"])
    play(g, "event", "bennett")
    assert g.pending is None
    assert g.state.ship_components == {M: ["quantum_gates"], R: []}


def test_bennett_with_no_components_has_no_effect():
    g = bennett_game([], [])
    play(g, "event", "bennett")
    assert g.pending is None and g.state.ship_components == {M: [], R: []}
    assert g.state.event_discard == ["bennett"] and g.state.turn_player == R


def test_bennett_with_no_components_is_logged_as_no_effect_for_its_player():
    """With no component aboard either ship, Bennett is played for nothing: the log says
    so, naming who played it (the box tells "no effect")."""
    for player in (M, R):
        g = game(held={player: ["bennett"]}, ship_components={M: [], R: []}, first=player)
        play(g, "event", "bennett", player=player)
        assert entries(g, "no_effect") == [
            {"type": "no_effect", "player": player, "card": "bennett"}]


def test_bennett_does_not_need_the_ships_together():
    g = game(ships=("ZERO", "MINUS"), held={M: ["bennett"]},
             ship_components={R: ["quantum_gates"]})
    play(g, "event", "bennett")
    assert g.state.ship_components[M] == ["quantum_gates"]


# ----------------------------------------------------------------- The Mechanic

def mechanic_game(stack: list[str], dice=(1, 1), ships=("ZERO", "PLUS"), **options):
    return game(ships=ships, hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]},
                held={M: ["the_mechanic"]}, stack=stack, dice=list(dice),
                options=options or None)


def test_mechanic_sets_the_hand_aside_and_draws_three():
    g = mechanic_game(["CNOT", "X", "H"])
    play(g, "event", "the_mechanic")
    s, p = g.state, g.pending
    assert p["kind"] == "mechanic" and p["player"] == M
    assert sorted(p["options"]) == sorted(["CNOT", "X", "H", "stop"])
    assert sorted(s.drawn) == ["CNOT", "H", "X"]
    assert s.set_aside == ["SWAP", "H", "H"] and s.hands[M] == []


def test_mechanic_two_plays_ignore_orbital_defences():
    g = mechanic_game(["CNOT", "X", "H"])
    play(g, "event", "the_mechanic")
    choose(g, "CNOT")  # entry to PHI PLUS: no roll
    assert g.pending["kind"] == "mechanic" and sorted(g.pending["options"]) == ["H", "X", "stop"]
    choose(g, "X")     # PHI PLUS -> PSI PLUS: no roll
    s = g.state
    assert g.pending is None
    assert s.pos == at("PSI_PLUS")
    assert rolls(g) == [] and s.forced == [1, 1]
    assert s.hands[M] == ["SWAP", "H", "H"]  # hand restored, no replacement draws
    assert s.drawn == [] and s.set_aside == []
    assert s.engine_control == []  # Q5 default: no slots filled
    assert sorted(s.engine_discard) == ["CNOT", "H", "X"]  # played and unplayed
    assert s.event_discard == ["the_mechanic"] and s.held_events[M] == []
    assert s.turn_player == R
    assert all_engine_cards(g) == full_engine_deck()


@pytest.mark.parametrize("picks, pos", [
    (["stop"], ("ZERO", "PLUS")),
    (["H", "stop"], ("PLUS", "PLUS")),
    (["X", "H"], ("MINUS", "PLUS")),
])
def test_mechanic_plays_zero_one_or_two(picks, pos):
    g = mechanic_game(["CNOT", "X", "H"])
    play(g, "event", "the_mechanic")
    for pick in picks:
        choose(g, pick)
    s = g.state
    assert g.pending is None and s.pos == pos
    assert sorted(s.engine_discard) == ["CNOT", "H", "X"]
    assert s.hands[M] == ["SWAP", "H", "H"] and s.engine_control == []
    assert len(entries(g, "move")) == len([p for p in picks if p != "stop"])


def test_mechanic_prompt_tells_which_play_it_is_and_the_cards_still_drawn():
    """The Mechanic's prompt says how many of the two plays are made (the box shows
    "Play 1 of 2", then "Play 2 of 2") and the drawn cards still to play."""
    for picks in (["stop"], ["H", "stop"], ["X", "H"]):
        g = mechanic_game(["CNOT", "X", "H"])
        play(g, "event", "the_mechanic")
        drawn = list(g.state.drawn)
        for plays, pick in enumerate(picks):
            assert (g.pending["plays"], g.pending["drawn"]) == (plays, drawn), picks
            choose(g, pick)
            if pick != "stop":
                drawn.remove(pick)
        assert g.pending is None


def test_bennett_transfer_is_logged_with_who_played_it_and_what_moved():
    """The log's transfer names the player of Bennett, the component and both ships."""
    g = bennett_game(["quantum_gates"], ["quantum_error_correction"])
    play(g, "event", "bennett")
    choose(g, {"component": "quantum_error_correction", "from": R, "to": M})
    assert entries(g, "transfer") == [{"type": "transfer", "player": M, "component":
                                       "quantum_error_correction", "from": R, "to": M}]


def test_mechanic_fills_slots_option():
    g = mechanic_game(["CNOT", "X", "H"], mechanic_fills_slots=True)
    play(g, "event", "the_mechanic")
    choose(g, "CNOT")
    choose(g, "X")
    s = g.state
    assert s.engine_control == [["CNOT", M], ["X", M]]
    assert s.engine_discard == ["H"]
    assert s.hands[M] == ["SWAP", "H", "H"]


def test_mechanic_probe_resolves_and_is_replaced():
    g = mechanic_game(["CNOT", "PROBE", "X", "H"], dice=[2])
    play(g, "event", "the_mechanic")
    s = g.state
    assert sorted(s.drawn) == ["CNOT", "H", "X"]
    (probe,) = rolls(g, "probe")
    assert probe["raw"] == 2 and s.detection == 2
    assert "PROBE" in s.engine_discard


def test_mechanic_probe_high_roll_no_raise():
    g = mechanic_game(["CNOT", "PROBE", "X", "H"], dice=[4])
    play(g, "event", "the_mechanic")
    assert sorted(g.state.drawn) == ["CNOT", "H", "X"] and g.state.detection == 1


def test_mechanic_filling_slot_six_gives_one_end_of_turn_event():
    g = six_slot_game(held={R: ["the_mechanic"]}, events=["heisenberg", "bennett"],
                      stack=["CNOT", "CNOT", "CNOT", "CNOT", "H", "H", "H", "SWAP"],
                      options={"mechanic_fills_slots": True})
    for card in ("CNOT", "CNOT", "CNOT", "SWAP", "SWAP"):
        play(g, "navigate", card)
    assert g.state.turn_player == R and len(g.state.engine_control) == 5
    play(g, "event", "the_mechanic")  # draws H, H, SWAP
    choose(g, "H")   # slot 6
    choose(g, "H")   # beyond slot 6: discard
    s = g.state
    assert [e["cause"] for e in entries(g, "quantum_event")] == ["engine control full"]
    assert s.held_events[R] == ["heisenberg"] and s.event_deck[0] == "bennett"
    assert s.engine_control == []
    assert all_engine_cards(g) == full_engine_deck()


# --------------------------------------------------------------- Quantum Tunnel

def test_quantum_tunnel_offered_before_the_orbital_roll_use_skips_it():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             held={M: ["quantum_tunnel"]}, dice=[1, 0])
    play(g, "navigate", "X")
    p = g.pending
    assert p["kind"] == "quantum_tunnel" and p["player"] == M
    assert sorted(p["options"]) == ["roll", "use"]
    assert rolls(g) == []  # asked before the die is rolled
    choose(g, "use")
    s = g.state
    assert s.pos == at("PSI_PLUS") and s.detection == 1
    assert rolls(g) == [] and s.forced == [1, 0]
    assert s.held_events[M] == [] and s.event_discard == ["quantum_tunnel"]
    assert s.turn_player == R  # not the action: the navigation was


def test_quantum_tunnel_roll_keeps_the_card():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             held={M: ["quantum_tunnel"]}, dice=[8])
    play(g, "navigate", "X")
    choose(g, "roll")
    s = g.state
    assert rolls(g, "orbital defence")[0]["result"] == "evaded"
    assert s.held_events[M] == ["quantum_tunnel"] and s.event_discard == []


def test_quantum_tunnel_offered_before_the_ground_roll_use_retrieves():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             held={M: ["quantum_tunnel"]}, detection=11, dice=[1])
    play(g, "retrieve")
    assert g.pending["kind"] == "quantum_tunnel" and rolls(g) == []
    choose(g, "use")
    s = g.state
    assert s.ship_components[M] == ["quantum_gates"]
    assert s.planet_components["OMEGA_ONE"] is None
    assert s.detection == 11 and s.forced == [1]
    assert s.event_discard == ["quantum_tunnel"]


def test_quantum_tunnel_roll_on_retrieve_can_fail():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             held={M: ["quantum_tunnel"]}, detection=3, dice=[2])
    play(g, "retrieve")
    choose(g, "roll")
    assert g.state.detection == 4 and g.state.held_events[M] == ["quantum_tunnel"]
    assert g.state.ship_components[M] == []


def test_quantum_tunnel_is_not_an_event_action():
    g = game(ships=at("OMEGA_ONE"), held={M: ["quantum_tunnel"]})
    act = {"player": M, "do": "event", "card": "quantum_tunnel"}
    assert g.check(act)
    assert act not in g.legal_actions()
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="Quantum Tunnel"):
        g.push(act)
    assert g.to_dict() == before


def test_quantum_tunnel_only_for_its_holder():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             held={R: ["quantum_tunnel"]}, dice=[8])
    play(g, "navigate", "X")
    assert g.pending is None
    assert g.state.held_events[R] == ["quantum_tunnel"]


def test_quantum_programming_bypass_does_not_use_the_tunnel():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             components={"PSI_PLUS": None}, ship_components={M: ["quantum_programming"]},
             held={M: ["quantum_tunnel"]})
    play(g, "navigate", "X")
    assert g.pending is None and g.state.held_events[M] == ["quantum_tunnel"]


def test_quantum_tunnel_not_offered_for_a_probe_roll():
    g = game(hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, stack=["PROBE", "X"],
             held={M: ["quantum_tunnel"]}, dice=[1])
    play(g, "navigate", "SWAP")
    assert g.pending is None and g.state.detection == 2
