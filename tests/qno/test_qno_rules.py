"""QNO rules: the deck, the deal, matching, gates, actions, draws, the win, and the
rulings of docs/rules/qno.md with each option's alternative. Where the original notebook had
a bug (hang, crash, late win, re-trigger), a test shows ours does not."""

from __future__ import annotations

import json

import pytest

from companion.games.qno import IllegalAction, Qno, SetupError, circuit, playable
from companion.games.qno.cards import COUNTS, full_deck, label, parse
from companion.games.qno.table import Table
from qno_helpers import conserved, dealt


def test_deck_has_112_cards_as_the_original():
    deck = full_deck()
    assert len(deck) == 112
    for state in ("00", "01", "10", "11"):
        assert sum(1 for c in deck if c.startswith(state)) == 25
        assert COUNTS[f"{state}_0"] == 1 and COUNTS[f"{state}_9"] == 2
        assert COUNTS[f"{state}_draw_two"] == COUNTS[f"{state}_skip"] == 2
    assert deck.count("H") == deck.count("X") == deck.count("CNOT") == 4
    assert parse("01_7") == ("01", "7") and parse("CNOT") == (None, "CNOT")
    assert label("10_reverse") == "|10> Rev"
    with pytest.raises(ValueError):
        parse("02_7")


def test_tracked_deal_asks_each_player_for_five_then_the_start_card():
    g = Qno(0, {"players": 3})
    assert g.pending["kind"] == "take" and g.pending["player"] == 1 and g.pending["count"] == 5
    for p in (1, 2, 3):
        for n in range(5):
            assert g.pending["player"] == p
            g.push({"do": "take", "card": f"0{p % 2}_{n + 1}"})
    assert g.pending["kind"] == "turn_up"
    g.push({"do": "turn_up", "card": "10_5"})
    assert g.status == "playing" and g.state.turn == 1 and g.state.pile == 112 - 16
    assert g.state.top_state == "10" and g.state.top_value == "5"
    assert conserved(g)


def test_a_card_cannot_be_dealt_more_often_than_it_exists():
    g = Qno(0, {"players": 2})
    g.push({"do": "take", "card": "00_0"})
    with pytest.raises(IllegalAction, match="already in play"):
        g.push({"do": "take", "card": "00_0"})


def test_gate_start_card_is_buried_and_the_next_one_turned_no_hang():
    g = dealt([[], []], ["H", "CNOT", "01_4"])
    assert [e["type"] for e in g.log if e["type"] in ("start_gate", "start")] == \
        ["start_gate", "start_gate", "start"]
    assert g.state.top_state == "01" and g.state.pile == 112 - 1
    assert conserved(g)


def test_start_state_is_prepared_by_x_gates_right_indexed():
    g = dealt([[], []], "01_4")
    assert g.state.circuit == [{"op": "x", "qubit": 0, "why": "prep"}]
    g = dealt([[], []], "11_4")
    assert [op["qubit"] for op in g.state.circuit] == [0, 1]


@pytest.mark.parametrize("option, turn", [("apply", 2), ("ignore", 1)])
def test_skip_start_card_skips_player_one(option, turn):
    g = dealt([["00_1"], ["00_2"], ["00_3"]], "00_skip", start_action=option)
    assert g.state.turn == turn


def test_draw_two_start_card_makes_player_one_draw_then_play():
    g = dealt([[], []], "00_draw_two")
    assert g.pending == {"kind": "take", "player": 1, "count": 2, "reason": "draw_two"}
    g.push({"do": "take", "card": "11_1"})
    g.push({"do": "take", "card": "11_2"})
    assert g.state.counts == [2, 0] and g.state.turn == 1 and g.pending is None


def test_reverse_start_card_runs_descending_and_player_one_starts():
    g = dealt([["00_3", "11_1"], [], []], "00_reverse")
    assert g.state.turn == 1 and g.state.direction == -1
    g.push({"do": "play", "card": "00_3"})
    assert g.state.turn == 3


def test_matching_by_effective_state_or_value_and_gates_always():
    assert playable("01_3", "01", "7") and playable("10_7", "01", "7")
    assert playable("CNOT", "11", None) and not playable("10_7", "01", None)
    g = dealt([["10_7", "11_2"], []], "01_7")
    assert g.check({"do": "play", "card": "11_2"}) == "Does not match |01> or 7"
    g.push({"do": "play", "card": "10_7"})  # by value: X on q0 and q1 join the circuit
    assert g.state.circuit[-2:] == [{"op": "x", "qubit": 0, "why": "value"},
                                    {"op": "x", "qubit": 1, "why": "value"}]


def test_x_and_cnot_follow_the_tables_with_right_indexing():
    g = dealt([["X", "00_1"], ["CNOT", "00_1"]], "01_5")
    entries = g.push({"do": "play", "card": "X", "qubit": 1})
    assert g.state.top_state == "11" and g.state.top_value is None
    # The story tells who played which gate on which qubit, and the state it made.
    assert {"type": "gate", "player": 1, "card": "X", "qubit": 1, "before": "01",
            "after": "11"} in entries
    g.push({"do": "play", "card": "CNOT"})  # a prompt for the control
    assert g.pending["kind"] == "qubit" and g.pending["gate"] == "CNOT"
    entries = g.push({"do": "choose", "value": 0})  # control q0 = 1: flip q1
    assert g.state.top_state == "01"
    assert g.state.circuit[-1] == {"op": "cx", "control": 0, "target": 1}
    assert {"type": "gate", "player": 2, "card": "CNOT", "qubit": 0, "before": "11",
            "after": "01"} in entries


@pytest.mark.parametrize("state, control, after", [
    ("00", 0, "00"), ("01", 0, "11"), ("10", 0, "10"), ("11", 0, "01"),
    ("00", 1, "00"), ("01", 1, "01"), ("10", 1, "11"), ("11", 1, "10")])
def test_cnot_table(state, control, after):
    g = dealt([["CNOT", "00_1"], []], f"{state}_5")
    g.push({"do": "play", "card": "CNOT", "qubit": control})
    assert g.state.top_state == after


def test_after_a_gate_only_the_state_matches():
    g = dealt([["X", "00_1"], ["10_5", "11_5", "00_2"]], "11_5")
    g.push({"do": "play", "card": "X", "qubit": 0})  # |11> -> |10>, value gone
    assert g.check({"player": 2, "do": "play", "card": "11_5"}) == "Does not match |10>"
    assert g.check({"player": 2, "do": "play", "card": "10_5"}) is None


def test_h_outcome_is_committed_before_the_guess_and_right_guess_gives_next_four():
    g = dealt([["H", "00_1"], [], []], "10_5", forced=[1])
    g.push({"do": "play", "card": "H", "qubit": 0})
    assert g.pending["kind"] == "guess" and g.pending["options"] == ["10", "11"]
    assert g.state.gate["outcome"] == 1  # committed, not yet shown
    measured = [e for e in g.log if e["type"] == "measured"][-1]
    assert "result" not in measured and measured["superposition"] == "(|10>+|11>)/sqrt2"
    # the circuit holds the H and its measurement, whose result is not shown yet
    assert g.state.circuit[-2:] == [{"op": "h", "qubit": 0}, {"op": "measure", "result": None}]
    g.push({"do": "choose", "value": "11"})
    assert g.state.top_state == "11" and g.state.top_value is None
    assert g.pending == {"kind": "take", "player": 2, "count": 4, "reason": "h_reward"}
    assert g.state.circuit[-2:] == [{"op": "h", "qubit": 0}, {"op": "measure", "result": "11"}]


def test_wrong_h_guess_costs_the_player_one_card():
    g = dealt([["H", "00_1"], []], "10_5", forced=[0])
    g.push({"do": "play", "card": "H", "qubit": 1})
    g.push({"do": "choose", "index": 1})  # guesses |10>; the outcome is |00>
    assert g.state.top_state == "00"
    assert g.pending == {"kind": "take", "player": 1, "count": 1, "reason": "h_penalty"}


def test_the_same_seed_gives_the_same_h_outcome_and_undo_cannot_reroll():
    g = dealt([["H", "00_1"], []], "10_5")
    g.push({"do": "play", "card": "H"})
    g.push({"do": "choose", "value": 0})
    first = g.state.gate["outcome"]
    g.pop()
    g.push({"do": "choose", "value": 1})
    assert g.state.gate["outcome"] == first


def test_reverse_and_skip_with_three_players():
    g = dealt([["00_reverse", "00_1"], ["00_2"], ["00_skip", "00_3"]], "00_5")
    g.push({"do": "play", "card": "00_reverse"})
    assert g.state.turn == 3
    g.push({"do": "play", "card": "00_skip"})  # skips 2
    assert g.state.turn == 1


def test_a_second_reverse_turns_play_back():
    g = dealt([["00_reverse", "00_1", "00_6"], ["00_2", "00_4"], ["00_reverse", "00_3"]],
              "00_5")
    g.push({"do": "play", "card": "00_reverse"})  # 1 -> 3, descending
    g.push({"do": "play", "card": "00_reverse"})  # 3 -> 1, ascending again
    assert g.state.direction == 1 and g.state.turn == 1
    g.push({"do": "play", "card": "00_1"})
    assert g.state.turn == 2


@pytest.mark.parametrize("option, mover", [("no_effect", 2), ("skip", 1)])
def test_two_player_reverse(option, mover):
    g = dealt([["00_reverse", "00_1"], []], "00_5", two_player_reverse=option)
    g.push({"do": "play", "card": "00_reverse"})
    assert g.state.turn == mover


def test_draw_two_next_player_draws_then_plays_no_stacking():
    g = dealt([["00_draw_two", "00_1"], ["01_draw_two", "11_1"], []], "00_5")
    g.push({"do": "play", "card": "00_draw_two"})
    g.push({"do": "take", "card": "10_1"})
    g.push({"do": "take", "card": "10_2"})
    assert g.state.turn == 2 and g.state.counts[1] == 4
    g.push({"do": "play", "card": "01_draw_two"})  # only the next player draws 2
    assert g.pending["player"] == 3 and g.pending["count"] == 2


def test_must_play_if_able_is_enforced_with_tracked_hands():
    g = dealt([["00_1", "11_2"], []], "00_5")
    assert g.check({"do": "draw"}) == "You can play a card, so you must"
    g = dealt([["11_5", "10_2"], []], "00_5")  # another state, the same value
    assert g.check({"do": "draw"}) == "You can play a card, so you must"
    g = dealt([["00_1", "11_2"], []], "00_5", must_play=False)
    assert g.check({"do": "draw"}) is None


def test_honour_mode_trusts_plays_and_counts_cards():
    g = Qno(0, {"players": 2, "hands": "honour"})
    assert g.pending["kind"] == "turn_up" and g.state.counts == [5, 5]
    g.push({"do": "turn_up", "card": "00_5"})
    assert g.check({"do": "draw"}) is None  # must-play is on the players' honour
    g.push({"do": "play", "card": "00_7"})
    assert g.state.counts == [4, 5] and g.state.turn == 2
    assert conserved(g)


def test_draw_one_and_the_turn_ends_even_if_it_fits():
    g = dealt([["11_2"], []], "00_5")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "00_9"})
    assert g.state.turn == 2 and g.state.counts[0] == 2


def test_may_play_variant_plays_the_drawn_card_or_keeps_it():
    g = dealt([["11_2"], []], "00_5", drawn_card="may_play")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "00_9"})
    assert g.pending == {"kind": "drawn", "player": 1, "card": "00_9"}
    assert g.check({"do": "play", "card": "11_2"}) is not None
    g.push({"do": "play", "card": "00_9"})
    assert g.state.turn == 2 and g.state.top_value == "9"
    g = dealt([["11_2"], []], "00_5", drawn_card="may_play")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})  # does not fit: the turn just ends
    assert g.pending is None and g.state.turn == 2
    g = dealt([["11_2"], []], "00_5", drawn_card="may_play")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_5"})  # another state, the same value: it fits
    assert g.pending == {"kind": "drawn", "player": 1, "card": "10_5"}


def test_draw_until_playable_variant_keeps_the_turn():
    # (whatever the other hands hold: here the next player has more cards)
    g = dealt([["11_2"], ["10_1", "10_2", "10_3"]], "00_5", drawn_card="draw_until_playable")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert g.state.turn == 1
    g = dealt([["11_2"], []], "00_5", drawn_card="draw_until_playable")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert g.state.turn == 1
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "00_9"})
    assert g.check({"do": "draw"}) is not None  # now it must play
    g.push({"do": "play", "card": "00_9"})
    assert g.state.turn == 2


def test_actions_do_not_retrigger_on_a_draw_unlike_the_original():
    hands = [["00_skip", "00_1"], ["11_1"], ["11_2"]]
    g = dealt(hands, "00_5")
    g.push({"do": "play", "card": "00_skip"})  # skips 2; 3 moves
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert g.state.turn == 1  # 3 drew; nobody skipped
    g = dealt(hands, "00_5", retrigger_actions=True)
    g.push({"do": "play", "card": "00_skip"})
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert g.state.turn == 2  # the original: the Skip fired again, skipping 1


def test_win_is_immediate_after_the_last_card_resolves():
    g = dealt([["00_1"], [], []], "00_5")
    g.push({"do": "play", "card": "00_1"})
    assert g.status == "won" and g.state.winners == [1]
    assert g.legal_actions() == [] and g.check({"do": "draw"}) == "The game is over"
    assert g.awaiting() is None  # nobody is up
    assert g.log[-1] == {"type": "game_over", "winners": [1], "reason": "empty hand"}


def test_last_card_draw_two_wins_at_once_without_the_victim_drawing():
    g = dealt([["00_draw_two"], []], "00_5")
    g.push({"do": "play", "card": "00_draw_two"})
    assert g.status == "won" and g.pending is None


def test_last_card_h_wrong_guess_costs_the_win_by_default():
    g = dealt([["H"], []], "00_5", forced=[0])
    g.push({"do": "play", "card": "H", "qubit": 0})
    g.push({"do": "choose", "value": "01"})  # wrong
    g.push({"do": "take", "card": "11_9"})
    assert g.status == "playing" and g.state.counts[0] == 1


def test_on_empty_variant_wins_before_the_gate_resolves():
    g = dealt([["H"], []], "00_5", win_check="on_empty")
    g.push({"do": "play", "card": "H"})
    assert g.status == "won" and g.pending is None


def test_qno_is_announced_when_a_player_drops_to_one_card():
    g = dealt([["00_1", "00_2"], []], "00_5")
    entries = g.push({"do": "play", "card": "00_1"})
    assert {"type": "qno", "player": 1} in entries


def test_call_or_catch_variant():
    g = dealt([["00_1", "00_2"], ["00_3", "00_4"]], "00_5", qno_call="call_or_catch")
    g.push({"do": "play", "card": "00_1"})
    assert g.state.uncalled == 1
    assert g.check({"do": "catch", "player": 1, "target": 1}) == "Call it, do not catch yourself"
    g.push({"do": "catch", "player": 2, "target": 1})
    assert g.pending == {"kind": "take", "player": 1, "count": 2, "reason": "caught"}
    g.push({"do": "take", "card": "10_1"})
    g.push({"do": "take", "card": "10_2"})
    assert g.state.turn == 2 and g.pending is None
    # calling in time (as the penultimate card goes) is safe
    g.push({"player": 2, "do": "call"})
    g.push({"do": "play", "card": "00_3"})
    assert g.state.uncalled is None and g.check({"do": "catch", "target": 2}) == "Nobody to catch"


def test_only_the_player_who_forgot_to_call_can_be_caught():
    g = dealt([["00_1", "00_2"], ["00_3", "00_4", "00_6"], ["10_3", "10_4"]], "00_5",
              qno_call="call_or_catch")
    g.push({"do": "play", "card": "00_1"})  # player 1 is down to one card, uncalled
    assert g.check({"do": "catch", "player": 3, "target": 2}) == "Nobody to catch"
    assert g.check({"do": "catch", "player": 3}) == "Nobody to catch"  # no one named
    assert g.check({"do": "catch", "player": 3, "target": 1}) is None


def test_empty_pile_is_reshuffled_from_the_discards_keeping_the_top():
    g = dealt([["11_1"], ["00_3"]], "00_5")
    # As if the pile ran out: every unseen card is somewhere else now.
    g.state.pile, g.state.unseen = 0, {}
    g.state.discard = ["10_9", "01_4", "00_5"]
    g.push({"do": "draw"})
    assert {"type": "reshuffle", "count": 2} in g.log
    assert g.state.discard == ["00_5"] and g.state.pile == 2
    assert g.pending["kind"] == "take" and g.check({"do": "take", "card": "00_5"}) is not None
    g.push({"do": "take", "card": "10_9"})
    assert g.state.top_state == "00" and g.state.turn == 2


def test_fewest_cards_variant_ends_the_game_on_an_empty_pile():
    g = dealt([["11_1", "11_2"], ["00_3"]], "00_5", empty_pile="fewest_cards")
    g.state.pile, g.state.unseen = 0, {}
    g.push({"do": "draw"})
    assert g.status == "won" and g.state.winners == [2]


def test_nothing_left_to_draw_anywhere_ends_the_draw_not_the_game():
    g = dealt([["11_1"], ["00_3"]], "00_5")
    g.state.pile, g.state.unseen, g.state.discard = 0, {}, ["00_5"]
    g.push({"do": "draw"})
    assert any(e["type"] == "no_cards" for e in g.log) and g.state.turn == 2


def test_turn_order_and_wrong_player_are_refused_with_reasons():
    g = dealt([["00_1", "00_2"], ["00_3"]], "00_5")
    assert g.check({"player": 2, "do": "play", "card": "00_3"}) == "Player 1 is up"
    assert g.check({"do": "play", "card": "01_1"}) == \
        "That card is not in your hand (tap cards as you draw them)"
    assert g.check({"do": "play", "card": "Z"}) == "'Z' is not a QNO card"
    assert g.check({"do": "fly"}).startswith("unknown action")
    assert g.check({"do": "play", "card": "00_1", "qubit": 0}) == \
        "A qubit (0 or 1) goes only with a gate card"
    g = dealt([["X", "00_2"], ["00_3"]], "00_5")
    for qubit in (True, 1.0, 2):  # the int 0 or 1 only
        assert g.check({"do": "play", "card": "X", "qubit": qubit}) == \
            "A qubit (0 or 1) goes only with a gate card"
    assert g.check({"player": 9, "do": "draw"}) == "unknown player 9 (1-2)"
    assert g.check({"player": 0, "do": "draw"}) == "unknown player 0 (1-2)"
    assert g.check({"player": "1", "do": "draw"}) == "unknown player '1' (1-2)"
    assert g.check({"do": "fly"}) == \
        "unknown action 'fly' (one of play, draw, take, turn_up, choose, pass, call, catch)"
    assert g.check([1]) == "an input must be an object, not [1]"


def test_a_prompt_answers_by_index_too():
    g = dealt([["X", "00_2"], ["00_3"]], "00_5")
    g.push({"do": "play", "card": "X"})
    assert g.check({"do": "choose", "index": 2}) == "choice index must be 0-1"
    assert g.check({"do": "choose", "index": "0"}) == "choice index must be 0-1"
    assert g.check({"do": "choose"}) == "Choose one of [0, 1]"  # neither: refused, no crash
    assert g.check({"do": "choose", "index": 0}) is None
    g.push({"do": "choose", "index": 1})  # the second option: qubit 1
    assert g.state.top_state == "10"
    g = dealt([["X", "00_2"], ["00_3"]], "00_5")
    g.push({"do": "play", "card": "X"})
    g.push({"do": "choose", "value": 0, "index": 1})  # a value given wins over an index
    assert g.state.top_state == "01"


def test_options_and_forced_outcomes_are_validated():
    with pytest.raises(SetupError, match="players"):
        Qno(0, {"players": 7})
    with pytest.raises(SetupError, match="forced"):
        Qno(0, {}, None, [2])


def test_json_round_trip_replay_and_undo():
    g = Qno(5, {"players": 3})
    table = Table(3, 5)
    while len(g.inputs) < 40:
        g.push(table.choose(g))
    assert g.status == "playing"
    snapshot = json.loads(json.dumps(g.to_dict()))
    assert Qno.from_dict(snapshot).to_dict() == snapshot
    again = Qno.replay(5, g.state.options, None, [], g.inputs)
    assert again.to_dict() == g.to_dict()
    before = g.to_dict()
    g.push(table.choose(g))
    g.pop()
    assert g.to_dict() == before


# -- rules that planted bugs written from the rulebook once got past -------------------

def test_right_h_guess_rewards_the_next_player_in_the_direction_of_play():
    g = dealt([["00_reverse", "00_1"], ["00_2"], ["H", "00_3"]], "00_5", forced=[1])
    g.push({"do": "play", "card": "00_reverse"})  # descending: 1 -> 3 -> 2
    g.push({"do": "play", "card": "H", "qubit": 0})
    g.push({"do": "choose", "value": "01"})  # right
    assert g.pending == {"kind": "take", "player": 2, "count": 4, "reason": "h_reward"}


def test_fewest_cards_tie_is_shared():
    g = dealt([["11_1"], ["00_3"], ["11_2", "11_3"]], "00_5", empty_pile="fewest_cards")
    g.state.pile, g.state.unseen = 0, {}
    g.push({"do": "draw"})
    assert g.status == "won" and g.state.winners == [1, 2]
    assert g.log[-1] == {"type": "game_over", "winners": [1, 2],
                         "reason": "draw pile empty: fewest cards"}


def test_retriggered_reverse_turns_play_back_for_the_player_who_draws():
    g = dealt([["00_reverse", "00_1"], ["11_1"], ["11_2"]], "00_5", retrigger_actions=True)
    g.push({"do": "play", "card": "00_reverse"})  # descending: 3 is up
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert {"type": "retrigger", "player": 3, "action": "reverse"} in g.log
    assert g.state.direction == 1 and g.state.turn == 1  # ascending again: 3 -> 1
    g = dealt([["00_reverse", "00_1"], ["11_1"], ["11_2"]], "00_5")
    g.push({"do": "play", "card": "00_reverse"})
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    assert g.state.direction == -1 and g.state.turn == 2  # by default it acts once


def test_honour_hands_may_play_offers_the_drawn_card_at_once():
    g = Qno(0, {"players": 2, "hands": "honour", "drawn_card": "may_play"})
    g.push({"do": "turn_up", "card": "00_5"})
    g.push({"do": "draw"})
    # The box never sees the drawn card: it offers a play (any card that fits) or a pass.
    assert g.pending == {"kind": "drawn", "player": 1, "card": None}
    assert g.state.counts == [6, 5] and g.state.turn == 1
    legal = g.legal_actions()
    assert {"player": 1, "do": "pass"} in legal
    assert {"player": 1, "do": "play", "card": "00_9"} in legal
    assert {"player": 1, "do": "play", "card": "11_9"} not in legal
    g.push({"do": "play", "card": "00_9"})
    assert g.state.counts == [5, 5] and g.state.turn == 2 and g.state.top_value == "9"
    g.pop()
    g.push({"do": "pass"})
    assert g.state.counts == [6, 5] and g.state.turn == 2


def test_the_story_tells_every_step_in_order():
    """The log is what the box tells players afterwards: each input's entries, exactly."""
    g = dealt([["00_skip", "00_draw_two", "H", "01_3", "00_1"], ["00_2", "11_9"],
               ["00_reverse", "00_7"]], "00_5", forced=[1])
    story = [
        ({"do": "play", "card": "00_skip"},
         [{"type": "play", "player": 1, "card": "00_skip"}, {"type": "skip", "player": 2},
          {"type": "turn", "player": 3, "number": 2}]),
        ({"do": "play", "card": "00_reverse"},
         [{"type": "play", "player": 3, "card": "00_reverse"},
          {"type": "reverse", "direction": -1}, {"type": "qno", "player": 3},
          {"type": "turn", "player": 2, "number": 3}]),
        ({"do": "play", "card": "00_2"},
         [{"type": "play", "player": 2, "card": "00_2"}, {"type": "qno", "player": 2},
          {"type": "turn", "player": 1, "number": 4}]),
        ({"do": "play", "card": "00_draw_two"},  # descending: player 3 is next
         [{"type": "play", "player": 1, "card": "00_draw_two"},
          {"type": "must_draw", "player": 3, "count": 2, "reason": "draw_two"}]),
        ({"do": "take", "card": "10_1"},
         [{"type": "drew", "player": 3, "count": 1, "reason": "draw_two", "card": "10_1"}]),
        ({"do": "take", "card": "10_2"},  # then player 3 plays (no lost turn)
         [{"type": "drew", "player": 3, "count": 1, "reason": "draw_two", "card": "10_2"},
          {"type": "turn", "player": 3, "number": 5}]),
        ({"do": "play", "card": "00_7"},
         [{"type": "play", "player": 3, "card": "00_7"},
          {"type": "turn", "player": 2, "number": 6}]),
        ({"do": "draw"},
         [{"type": "draw", "player": 2},
          {"type": "must_draw", "player": 2, "count": 1, "reason": "draw"}]),
        ({"do": "take", "card": "10_3"},
         [{"type": "drew", "player": 2, "count": 1, "reason": "draw", "card": "10_3"},
          {"type": "turn", "player": 1, "number": 7}]),
        ({"do": "play", "card": "H", "qubit": 0},
         [{"type": "play", "player": 1, "card": "H"},
          {"type": "measured", "player": 1, "qubit": 0, "superposition": "(|00>+|01>)/sqrt2"}]),
        ({"do": "choose", "value": "01"},  # right: the next player in play's direction draws 4
         [{"type": "reveal", "player": 1, "guess": "01", "result": "01", "right": True},
          {"type": "must_draw", "player": 3, "count": 4, "reason": "h_reward"}]),
    ]
    for act, entries in story:
        assert g.push(act) == entries, act


def test_each_refused_input_says_which_rule_it_breaks():
    g = Qno(0, {"players": 2})
    while g.pending["kind"] == "take":
        g.push({"do": "take", "card": next(iter(g.state.unseen))})
    assert g.check({"do": "play", "card": "00_1"}) == "Turn up the start card"
    assert g.check({"do": "turn_up", "card": "Z"}) == "'Z' is not a QNO card"
    assert g.check({"do": "take", "card": "00_1"}) == "No card is being dealt or drawn"
    g = dealt([["H", "X", "00_1"], ["00_0", "00_2"]], "00_5", forced=[0])
    assert g.check({"do": "turn_up", "card": "10_1"}) == "The start card is already up"
    assert g.check({"do": "choose", "value": 0}) == "Nothing to choose"
    assert g.check({"do": "pass"}) == "Pass only after drawing (play or draw)"
    g.push({"do": "play", "card": "X"})
    assert g.check({"do": "play", "card": "00_1"}) == "Choose the qubit first"
    assert g.check({"do": "choose", "value": 2}) == "Choose one of [0, 1]"
    g.push({"do": "choose", "value": 0})  # |01>: nothing of player 2's fits
    g.push({"do": "draw"})
    assert g.check({"do": "play", "card": "00_2"}) == "Tap the cards you draw first"
    assert g.check({"do": "take", "card": "00_0"}) == "Every 00_0 is already in play"
    assert g.check({"do": "take", "card": "Z"}) == "'Z' is not a QNO card"
    assert g.check({"player": 1, "do": "draw"}) == "Player 2 is up"  # 2 is drawing
    g = dealt([["H", "X", "00_1"], ["00_0", "00_2"]], "00_5", forced=[0])
    g.push({"do": "play", "card": "H", "qubit": 1})
    assert g.check({"do": "play", "card": "00_1"}) == "Guess the outcome first"
    g = dealt([["11_2", "11_3"], []], "00_5", drawn_card="may_play")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "00_9"})
    assert g.check({"do": "draw"}) == "Play the drawn card or keep it"
    assert g.check({"do": "play", "card": "11_2"}) == "Only the card just drawn may be played"
    g = Qno(0, {"players": 2, "hands": "honour"})
    g.push({"do": "turn_up", "card": "00_5"})
    g.push({"do": "play", "card": "00_0"})  # the only |00> 0
    g.push({"do": "play", "card": "01_0"})
    assert g.check({"do": "play", "card": "00_0"}) == "Every 00_0 is already on the discard pile"


def test_the_story_tells_the_deal_the_start_and_the_calls():
    g = Qno(3, {"players": 3, "hands": "honour", "first_player": "random"})
    deal = [{"type": "must_draw", "player": p, "count": 5, "reason": "deal"} for p in (1, 2, 3)]
    deal += [{"type": "drew", "player": p, "count": 5, "reason": "deal"} for p in (1, 2, 3)]
    assert g.log == [{"type": "dealer", "player": 1},  # the player after the dealer starts
                     {"type": "setup", "players": 3, "hands": "honour", "first": 2}] + deal
    assert g.push({"do": "turn_up", "card": "X"}) == [
        {"type": "start_gate", "card": "X", "how": "bury"}]
    assert g.push({"do": "turn_up", "card": "00_skip"}) == [
        {"type": "start", "card": "00_skip", "state": "00"}, {"type": "skip", "player": 2},
        {"type": "turn", "player": 3, "number": 1}]
    g = Qno(0, {"players": 2, "hands": "honour"})
    assert g.push({"do": "turn_up", "card": "01_reverse"}) == [
        {"type": "start", "card": "01_reverse", "state": "01"},
        {"type": "reverse", "direction": -1}, {"type": "turn", "player": 1, "number": 1}]
    assert g.push({"do": "play", "card": "01_draw_two"}) == [  # honour: counted at once
        {"type": "play", "player": 1, "card": "01_draw_two"},
        {"type": "must_draw", "player": 2, "count": 2, "reason": "draw_two"},
        {"type": "drew", "player": 2, "count": 2, "reason": "draw_two"},
        {"type": "turn", "player": 2, "number": 2}]
    g = dealt([["00_1", "00_2"], ["00_3", "00_4"], ["11_1"]], "00_5", qno_call="call_or_catch")
    assert g.push({"player": 1, "do": "call"}) == [{"type": "call", "player": 1}]
    g = dealt([["00_1", "00_2"], ["00_3", "00_4"], ["11_1"]], "00_5", qno_call="call_or_catch")
    g.push({"do": "play", "card": "00_1"})
    assert g.push({"do": "catch", "player": 3, "target": 1}) == [
        {"type": "caught", "player": 1, "by": 3},
        {"type": "must_draw", "player": 1, "count": 2, "reason": "caught"}]
    g = dealt([["00_1", "00_2"], ["00_3", "00_4"], ["11_1"]], "00_5", qno_call="call_or_catch")
    g.push({"do": "play", "card": "00_1"})
    assert g.push({"do": "catch", "target": 1}) == [  # anyone: the box does not say who
        {"type": "caught", "player": 1, "by": None},
        {"type": "must_draw", "player": 1, "count": 2, "reason": "caught"}]
    g = dealt([["11_2"], []], "00_5", drawn_card="may_play")
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "00_9"})
    assert g.push({"do": "pass"}) == [{"type": "keep", "player": 1},
                                      {"type": "turn", "player": 2, "number": 2}]
    g = dealt([["11_1"], ["00_3"]], "00_5")
    g.state.pile, g.state.unseen = 0, {}  # every other card is in a hand
    assert g.push({"do": "draw"}) == [
        {"type": "draw", "player": 1},
        {"type": "must_draw", "player": 1, "count": 1, "reason": "draw"},
        {"type": "no_cards", "player": 1, "missing": 1}, {"type": "turn", "player": 2, "number": 2}]


def test_the_box_offers_calling_and_catching_only_under_call_or_catch():
    for ruling in ("auto", "call_or_catch"):
        g = dealt([["00_1", "00_2"], ["00_3", "00_4"]], "00_5", qno_call=ruling)
        offered = g.legal_actions()
        # calling as the penultimate card goes
        assert ({"player": 1, "do": "call"} in offered) == (ruling == "call_or_catch")
        g.push({"do": "play", "card": "00_1"})  # player 1 forgot: down to one card
        offered = g.legal_actions()
        for act in ({"player": 1, "do": "call"}, {"do": "catch", "target": 1}):
            assert (act in offered) == (ruling == "call_or_catch"), (ruling, act)
        assert all(g.check(a) is None for a in offered)


def test_honour_hands_offer_any_card_with_a_copy_unseen():
    g = Qno(0, {"players": 2, "hands": "honour"})
    g.push({"do": "turn_up", "card": "00_5"})
    assert {"player": 1, "do": "play", "card": "00_0"} in g.legal_actions()  # its only copy
    g.push({"do": "play", "card": "00_0"})
    assert not [a for a in g.legal_actions() if a.get("card") == "00_0"]


def test_a_card_being_dealt_or_turned_up_may_be_any_card_still_unseen():
    g = Qno(0, {"players": 2})
    names = sorted(set(full_deck()))
    assert g.legal_actions() == [{"player": 1, "do": "take", "card": c} for c in names]
    for value in range(10):  # one copy of each: |00> 0 has no other
        g.push({"do": "take", "card": f"00_{value}"})
    assert g.legal_actions() == [{"player": 1, "do": "turn_up", "card": c}
                                 for c in names if c != "00_0"]  # its only copy is dealt


def test_a_last_h_guessed_wrong_still_wins_when_there_is_no_card_to_draw():
    g = dealt([["H"], ["00_3"]], "00_5", forced=[0])
    g.state.pile, g.state.unseen, g.state.discard = 0, {}, []  # every other card is in a hand
    g.push({"do": "play", "card": "H", "qubit": 0})
    g.push({"do": "choose", "value": "01"})  # wrong: the penalty card does not exist
    assert g.status == "won" and g.state.winners == [1]


def test_draw_until_playable_ends_the_turn_when_no_card_comes():
    g = dealt([["11_1"], ["00_3"]], "00_5", drawn_card="draw_until_playable")
    g.state.pile, g.state.unseen = 0, {}  # every other card is in a hand
    g.push({"do": "draw"})
    assert g.state.turn == 2


def test_two_played_x_gates_stand_in_two_columns_of_the_circuit():
    g = dealt([["X", "00_1"], ["X", "00_2"]], "00_5")
    g.push({"do": "play", "card": "X", "qubit": 0})
    g.push({"do": "play", "card": "X", "qubit": 1})  # another player's gate, not one change
    assert circuit.columns(g.state.circuit)[-2:] == [("X", ""), ("", "X")]


def test_a_last_h_guessed_wrong_draws_its_penalty_before_any_win():
    for seat in (1, 2):  # whoever plays it
        hands = [["00_1", "00_2"], ["00_3", "00_4"]]
        hands[seat - 1] = ["H"]
        g = dealt(hands, "00_5", forced=[0])
        if seat == 2:
            g.push({"do": "play", "card": "00_1"})
        g.push({"do": "play", "card": "H", "qubit": 0})
        g.push({"do": "choose", "value": "01"})  # wrong: the outcome is |00>
        assert g.status == "playing", seat
        assert g.pending == {"kind": "take", "player": seat, "count": 1, "reason": "h_penalty"}


def test_on_empty_the_hand_emptying_wins_before_the_gate_resolves_from_either_seat():
    g = dealt([["00_1", "00_2"], ["X"]], "00_5", win_check="on_empty")
    g.push({"do": "play", "card": "00_1"})
    g.push({"player": 2, "do": "play", "card": "X"})  # no qubit asked: the game is over
    assert g.status == "won" and g.state.winners == [2] and g.pending is None


def test_the_box_offers_a_card_that_matches_by_value():
    g = dealt([["11_5", "10_2"], []], "00_5")  # another state, the same value
    assert g.legal_actions() == [{"player": 1, "do": "play", "card": "11_5"}]


@pytest.mark.parametrize("move", [{"do": "play", "card": "00_3"}, {"do": "draw"}])
def test_the_next_play_or_draw_closes_the_window_to_catch(move):
    # UNO's rule: an uncalled QNO! may be caught only until the next player moves.
    g = dealt([["00_1", "00_2"], ["00_3", "00_4", "11_4"] if move["do"] == "play"
               else ["11_3", "11_4"]], "00_5", qno_call="call_or_catch")
    g.push({"do": "play", "card": "00_1"})  # player 1 forgot to call
    g.push(move)
    if move["do"] == "draw":
        g.push({"do": "take", "card": "10_9"})
    assert g.state.uncalled is None
    assert g.check({"do": "catch", "player": 2, "target": 1}) == "Nobody to catch"
    assert g.check({"player": 1, "do": "call"}) == "Nothing to call"
    assert not [a for a in g.legal_actions() if a["do"] in ("call", "catch")]


@pytest.mark.parametrize("ruling", ["reshuffle", "fewest_cards"])
def test_a_pile_of_one_card_is_drawn_from_before_it_runs_out(ruling):
    g = dealt([["11_1", "11_2"], ["00_3"]], "00_5", empty_pile=ruling)
    g.state.pile, g.state.unseen = 1, {"10_9": 1}
    g.state.discard = ["01_4", "00_5"]
    g.push({"do": "draw"})
    g.push({"do": "take", "card": "10_9"})
    # the last card comes from the pile itself: no reshuffle yet, and no end of the game
    assert g.status == "playing" and g.state.pile == 0 and g.state.turn == 2
    assert not [e for e in g.log if e["type"] in ("reshuffle", "game_over")]


def test_setup_values_are_refused_with_why():
    # QNO's deal is made of real cards tapped in, so there is nothing to set up by value.
    with pytest.raises(SetupError) as err:
        Qno(0, {}, {"first_player": 2})
    assert str(err.value) == "QNO takes no setup values: the deal comes in as 'take' inputs"
