"""Turns, costs, refills, legality, the no-legal-play rule, win checks, caps, options
and set-up (docs/rules/qlanet.md: a turn, winning, setting up)."""

from __future__ import annotations

import json

from collections import Counter

import pytest
from qlanet_helpers import at, game, gift, play, shown

from companion.games.qlanet import IllegalAction, Qlanet, SetupError
from companion.games.qlanet.options import RULINGS, describe, make_options

CARDS = ("X", "H", "Z", "M", "CX0", "CX1", "SW", "BM")
LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
# 8 fixed planets, four each, no line for either camp; planet 9 free (ruling D12).
STUCK = ["F0", "F1", "F0", "F0", "F1", "F1", "F1", "F0", "+"]


# ------------------------------------------------------------------ turns and costs


def test_worked_example_of_the_turn_rule():
    """A turn: the lower total moves next; on a tie the player who just moved."""
    moves = [  # (camp, card, planets, totals after, next)
        (0, "H", [1], [3, 0], 1),
        (1, "Z", [2], [3, 2], 1),
        (1, "H", [3], [3, 5], 0),
        (0, "SW", [1, 2], [7, 5], 1),
        (1, "Z", [4], [7, 7], 1),  # tie: camp 1 just moved, so again
        (1, "M", [6], [7, 17], 0),
        (0, "X", [7], [13, 17], 0),
        (0, "CX0", [7, 8], [16, 17], 0),
        (0, "H", [9], [19, 17], 1),
    ]
    refills = ["Z", "Z", "Z", "H", "Z", None, "Z", "Z", "Z", "Z"]  # None: M's measurement
    g = game(["+"] * 9, hands=[["H", "SW", "X", "CX0"], ["Z", "H", "Z", "M"]], forced=refills)
    for camp, card, planets, totals, nxt in moves:
        assert g.awaiting() == camp
        entries = play(g, card, *planets, player=camp)
        cost = {"X": 6, "H": 3, "Z": 2, "M": 10, "CX0": 3, "SW": 4}[card]
        assert entries[0] == {"type": "play", "player": camp, "card": card,
                              "planets": planets, "cost": cost, "total": totals[camp]}
        assert g.state.costs == totals
        assert entries[-1] == {"type": "turn", "player": nxt, "number": len(g.inputs) + 1}
        assert g.turn_player == nxt


def test_a_lower_total_keeps_the_turn():
    g = game(hands=[["Z", "Z", "Z", "Z"], ["Z"] * 4], costs=[0, 10], forced=["Z"] * 10)
    for n in range(5):
        play(g, "Z", 1)
        assert g.awaiting() == 0 and g.state.costs == [2 * (n + 1), 10]
    play(g, "Z", 1)
    assert g.state.costs == [12, 10] and g.awaiting() == 1


def test_the_wrong_player_is_refused():
    g = game()
    assert g.check({"player": 1, "do": "play", "card": "Z", "planets": [1]}) == "it is camp 0's turn"
    with pytest.raises(IllegalAction, match="it is camp 0's turn"):
        play(g, "Z", 1, player=1)


def test_cx_cost_option():
    """C1: CX0/CX1 cost 3, or 2 with the option (the old web page)."""
    for cost, options in ((3, None), (2, {"cx_cost": 2})):
        g = game(hands=[["CX0", "CX1", "Z", "Z"], ["Z"] * 4], costs=[0, 50], options=options)
        play(g, "CX0", 1, 2)
        play(g, "CX1", 2, 3)
        assert g.state.costs[0] == 2 * cost


# ------------------------------------------------------------------ refills


def test_every_move_refills_one_card_for_the_mover():
    """Which card comes is chance (test_qlanet_chance); that one comes is the rule."""
    g = game(hands=[["Z"] * 4, ["Z"] * 4], costs=[0, 99])
    for _ in range(8):
        act = {"do": "play", "card": "Z", "planets": [1]}
        entries = g.push(act if g.check(act) is None else g.legal_actions()[0])
        refill = [e for e in entries if e["type"] == "refill"]
        assert len(refill) == 1 and refill[0]["player"] == 0 and refill[0]["card"] in CARDS
        assert len(g.state.hands[0]) == 4
        if g.status != "playing":
            break


def test_forced_refills_and_bad_forced_items():
    g = game(forced=["BM", "CX1"])
    play(g, "Z", 1)
    assert g.state.hands[0] == ["X", "H", "M", "BM"]
    g = game(forced=["Phi+"])
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="forced outcome 'Phi\\+' for camp 0's refill is "
                                            "not a card"):
        play(g, "Z", 1)
    assert g.to_dict() == before  # the forced item is not used up by a refused input
    g = game(forced=[1])
    with pytest.raises(IllegalAction, match="not a card"):
        play(g, "Z", 1)
    g = game(forced=["Z"])
    with pytest.raises(IllegalAction, match="^forced outcome 'Z' for M on planet 1 is not a "
                                            "measurement result"):
        play(g, "M", 1)
    g = game(["0"] * 9, forced=[1])  # planet 3 is certainly 0
    with pytest.raises(IllegalAction, match="^forced result 1 for M on planet 3 cannot happen: "
                                            "the planet is certainly 0$"):
        play(g, "M", 3)
    for bad in ("Q", 2, -1, True, 1.0):  # a measurement result is the int 0 or 1
        with pytest.raises(SetupError, match="forced outcomes are"):
            Qlanet(0, None, None, [bad])
    Qlanet(0, None, None, [0, 1, None, "Psi-", "BM"])


def test_json_round_trip_keeps_the_setup_and_the_forced_outcomes():
    g = game(forced=["BM", "CX1"])
    play(g, "Z", 1)  # camp 0 refills with the first forced card
    d = json.loads(json.dumps(g.to_dict()))
    assert d["game"] == "qlanet" and d["seed"] == g.seed  # a saved game names its game
    h = Qlanet.from_dict(d)
    assert h.to_dict() == d and h.setup == g.setup and h.setup["hands"]
    assert h.forced == g.forced == ["BM", "CX1"]
    play(g, "Z", 2)
    play(h, "Z", 2)  # the copy's next refill comes from the forced list as the original's
    assert h.to_dict() == g.to_dict() and h.state.hands[1][-1] == "CX1"


def test_can_play_asks_about_the_camp_named():
    g = game(STUCK, hands=[["Z", "Z", "Z", "Z"], ["CX0", "CX1", "SW", "BM"]])
    assert g.can_play() and g.can_play(0) and not g.can_play(1)


def test_deck_refill_draws_from_a_48_card_deck_and_reshuffles():
    """D2 option: 6 of each type; the given top of the deck comes first; an empty deck
    is rebuilt from the discards."""
    g = game(options={"refill": "deck"}, deck=["BM", "SW"], costs=[0, 99])
    held = Counter(g.state.hands[0] + g.state.hands[1])
    assert Counter(g.state.deck) + held == Counter(dict.fromkeys(CARDS, 6))
    assert g.state.deck[:2] == ["BM", "SW"]
    play(g, "Z", 1)
    assert g.state.hands[0][-1] == "BM" and g.state.discard == ["Z"]
    play(g, "X", 1)
    assert g.state.hands[0][-1] == "SW"
    # Empty the deck into the discard pile; the next refill reshuffles it.
    g.state.discard += g.state.deck
    g.state.deck = []
    entries = play(g, "H", 2)
    assert [e["type"] for e in entries][:3] == ["play", "reshuffle", "refill"]
    assert Counter(g.state.deck + g.state.hands[0] + g.state.hands[1]) == Counter(
        dict.fromkeys(CARDS, 6))
    assert g.state.discard == []


def test_forced_deck_refill_must_be_in_the_deck():
    six = {"hand_size": 6, "refill": "deck"}
    g = game(hands=[["M"] * 6, ["Z"] * 6], options=six, forced=[None, "M"])
    with pytest.raises(IllegalAction, match="forced refill M is not in the deck"):
        play(g, "M", 1)
    g = game(hands=[["X"] * 6, ["Z"] * 6], options=six, forced=["M"])
    play(g, "X", 1)
    assert g.state.hands[0][-1] == "M" and g.state.deck.count("M") == 5


# ------------------------------------------------------------------ legality


def test_targets_are_checked_with_clear_reasons():
    g = game(["F1"] + ["+"] * 8, hands=[["X", "CX0", "SW", "M"], ["Z"] * 4])
    reasons = {
        ("X", (1,)): "planet 1 is fixed (F1): no card can target a fixed planet",
        ("X", (2, 3)): "X takes one planet",
        ("CX0", (2,)): "CX0 takes two planets (the control first, then the target)",
        ("SW", (2,)): "SW takes two planets",
        ("CX0", (4, 4)): "CX0 needs two different planets",
        ("X", (10,)): "planets are numbered 1-9, not 10",
        ("SW", (0, 2)): "planets are numbered 1-9, not 0",
        ("H", (2,)): "camp 0 has no H in hand (hand: X, CX0, SW, M)",
        ("Q", (2,)): "'Q' is not a QLANET card (X, H, Z, M, CX0, CX1, SW, BM)",
    }
    for (card, planets), reason in reasons.items():
        act = {"do": "play", "card": card, "planets": list(planets)}
        assert g.check(act) == reason
        with pytest.raises(IllegalAction) as exc:
            g.push(act)
        assert str(exc.value) == reason
    assert g.check({"do": "play", "card": "cx0", "planets": [9, 2]}) is None  # any case
    assert g.check({"do": "play", "card": "X", "planets": 2}) is None  # one planet as a number
    shapes = {
        "not a dict": "an input must be an object, not 'not a dict'",
        ("x",): "an input must be an object, not ('x',)",
    }
    for bad, reason in shapes.items():
        assert g.check(bad) == reason
    assert g.check({"do": "pass"}) == "unknown action 'pass' (play or discard)"
    assert g.check({"do": "play", "player": 2, "card": "X", "planets": [2]}) == (
        "unknown player 2 (camp 0 or 1)")
    assert g.check({"do": "play", "player": True, "card": "X", "planets": [2]}) == (
        "unknown player True (camp 0 or 1)")
    assert g.check({"do": "play", "planets": [2]}) == "play needs a card"
    assert g.check({"do": "play", "card": "X"}) == (
        "play needs planets: a list of planet numbers 1-9")
    assert g.check({"do": "play", "card": "X", "planets": ["2"]}) == (
        "play needs planets: a list of planet numbers 1-9")
    assert g.check({"do": "discard", "card": "X", "planets": [2]}) == (
        "a discarded card has no effect, so it takes no planets")
    assert g.inputs == [] and g.state.costs == [0, 0]


def test_legal_actions_list_every_target_once():
    g = game(["F0"] + ["+"] * 8, hands=[["X", "CX0", "SW", "BM"], ["Z"] * 4])
    legal = g.legal_actions()
    count = Counter(a["card"] for a in legal)
    assert count == {"X": 8, "CX0": 8 * 7, "SW": 28, "BM": 28}  # CX ordered, SW/BM not
    assert {"player": 0, "do": "play", "card": "CX0", "planets": [3, 2]} in legal
    assert {"player": 0, "do": "play", "card": "SW", "planets": [2, 3]} in legal
    assert {"player": 0, "do": "play", "card": "SW", "planets": [3, 2]} not in legal
    assert all(g.check(a) is None for a in legal)
    assert g.check({"do": "play", "card": "SW", "planets": [3, 2]}) is None  # either order


def test_adjacent_option():
    """D5 option: two-planet cards only on planets side by side."""
    g = game(hands=[["SW", "CX1", "Z", "Z"], ["Z"] * 4], options={"two_planet_targets": "adjacent"})
    assert g.check({"do": "play", "card": "SW", "planets": [1, 2]}) is None
    assert g.check({"do": "play", "card": "SW", "planets": [2, 5]}) is None
    assert g.check({"do": "play", "card": "CX1", "planets": [1, 5]}) == (
        "planets 1 and 5 are not side by side (option two_planet_targets)")
    assert g.check({"do": "play", "card": "SW", "planets": [3, 4]}) is not None
    assert Counter(a["card"] for a in g.legal_actions()) == {"SW": 12, "CX1": 24, "Z": 9}
    assert game().check({"do": "play", "card": "X", "planets": [1]}) is None


def test_cx_control_option_allows_a_fixed_control():
    """D6 option: a fixed planet may be a CX control; it stays fixed, the target flips."""
    hands = [["CX0", "CX1", "X", "Z"], ["Z"] * 4]
    strict = game(["F0", "0"] + ["+"] * 7, hands=hands)
    assert strict.check({"do": "play", "card": "CX0", "planets": [1, 2]}) == (
        "planet 1 is fixed (F0): no card can target a fixed planet")
    g = game(["F0", "0"] + ["+"] * 7, hands=hands, costs=[0, 50],
             options={"fixed_planets": "cx_control"})
    assert g.check({"do": "play", "card": "CX0", "planets": [2, 1]}) == (
        "planet 1 is fixed (F0): a fixed planet can only be the control (first planet) "
        "of CX0 or CX1")
    play(g, "CX0", 1, 2)
    assert shown(g)[:2] == ["F0", "1"]
    play(g, "CX1", 1, 2)  # control is 0: nothing
    assert shown(g)[:2] == ["F0", "1"]


# ------------------------------------------------------------------ no legal play (D12)


def test_no_legal_play_discard_pays_and_refills():
    g = game(STUCK, hands=[["CX0", "CX1", "SW", "BM"], ["Z"] * 4], forced=["X"])
    assert not g.can_play()
    assert g.legal_actions() == [{"player": 0, "do": "discard", "card": c}
                                 for c in ("CX0", "CX1", "SW", "BM")]
    with pytest.raises(IllegalAction, match="planet 1 is fixed"):
        play(g, "BM", 1, 9)
    entries = g.push({"do": "discard", "card": "BM"})
    assert entries[0] == {"type": "discard", "player": 0, "card": "BM", "cost": 8, "total": 8}
    assert g.state.hands[0] == ["CX0", "CX1", "SW", "X"] and g.state.costs == [8, 0]
    assert g.state.discard == ["BM"] and shown(g)[8] == "+"  # no effect on the board
    assert g.awaiting() == 1


def test_discard_is_refused_while_a_card_can_be_played():
    g = game(STUCK, hands=[["CX0", "CX1", "SW", "Z"], ["Z"] * 4])
    assert g.check({"do": "discard", "card": "SW"}) == (
        "a card can still be played: discarding is only for when none can (ruling D12)")
    assert [a["card"] for a in g.legal_actions()] == ["Z"]


def test_discard_free_option_and_adjacency_stuck():
    g = game(STUCK, hands=[["CX0", "CX1", "SW", "BM"], ["Z"] * 4],
             options={"no_legal_play": "discard_free"})
    g.push({"do": "discard", "card": "BM"})
    assert g.state.costs == [0, 0] and g.awaiting() == 0  # a tie: the same player again
    # Two free planets that are not side by side: stuck only under the adjacent option.
    board = ["+", "F1", "F0", "F0", "F1", "F1", "F1", "F0", "+"]
    hands = [["CX0", "CX1", "SW", "BM"], ["Z"] * 4]
    assert game(board, hands=hands).can_play()
    assert not game(board, hands=hands, options={"two_planet_targets": "adjacent"}).can_play()


# ------------------------------------------------------------------ win checks


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("camp", [0, 1])
def test_three_fixed_in_a_line_wins(line, camp):
    planets = ["+"] * 9
    for p in line[:2]:
        planets[p - 1] = f"F{camp}"
    planets[line[2] - 1] = str(camp)  # M here is certain to give the camp's value
    g = game(planets, hands=[["M", "Z", "Z", "Z"], ["Z"] * 4])
    entries = play(g, "M", line[2])
    assert g.status == "won" and g.winners == [camp] and g.awaiting() is None
    assert g.state.turn_player is None  # no camp is to play (the report says so)
    reason = "line " + "-".join(map(str, line))
    assert {"type": "game_over", "winners": [camp], "reasons": {str(camp): reason}} in entries
    assert entries[-1]["type"] == "reveal"
    assert g.legal_actions() == []
    msg = f"the game is over (camp {camp} won)"
    assert g.check({"do": "play", "card": "Z", "planets": [1]}) == msg
    with pytest.raises(IllegalAction, match=msg.replace("(", "\\(").replace(")", "\\)")):
        play(g, "Z", 1)


def test_five_fixed_wins_without_a_line():
    g = game(STUCK[:8] + ["0"], hands=[["M", "Z", "Z", "Z"], ["Z"] * 4])
    entries = play(g, "M", 9)
    assert g.winners == [0]
    assert {"type": "game_over", "winners": [0], "reasons": {"0": "five fixed"}} in entries


def test_you_can_lose_on_your_own_turn():
    """Winning: both camps are checked; an M that collapses to the opponent's value can
    complete the opponent's line."""
    g = game(["F1", "F1", "1", "+", "+", "+", "+", "+", "+"],
             hands=[["M", "Z", "Z", "Z"], ["Z"] * 4])
    play(g, "M", 3)
    assert g.winners == [1] and g.status == "won"


def test_both_camps_are_checked_after_every_turn():
    """A set-up board may already hold a line: it counts after the first turn, whatever
    that turn did (the check is at the end of every turn, not only after an M)."""
    g = game(["F1", "F1", "F1"] + ["+"] * 6, hands=[["Z"] * 4, ["Z"] * 4])
    assert g.status == "playing"
    play(g, "Z", 5)
    assert g.winners == [1]


@pytest.mark.parametrize("ruling,winners", [("non_mover", [0]), ("both", [0, 1])])
def test_simultaneous_win(ruling, winners):
    """D13: only from a set-up board; the non-mover wins by default."""
    g = game(["F0", "F0", "F0", "F1", "F1", "1", "+", "+", "+"],
             hands=[["Z"] * 4, ["M", "Z", "Z", "Z"]], first=1,
             options={"simultaneous_win": ruling})
    play(g, "M", 6)
    assert g.winners == winners
    assert g.check({"do": "play", "card": "Z", "planets": [9]}).startswith("the game is over")


def test_move_cap():
    """D14 option: after the cap, more planets fixed to a camp wins."""
    g = game(["F1"] + ["+"] * 8, hands=[["Z"] * 4, ["Z"] * 4], forced=["Z"] * 40,
             options={"move_cap": 40})
    while g.status == "playing":
        play(g, "Z", 5)
    assert len(g.inputs) == 40 and g.winners == [1]
    assert g.log[-2] == {"type": "game_over", "winners": [1], "reasons": {"1": "move cap 40"}}


def test_cost_cap_and_draw():
    """D14 option: once both totals reach the cap; equal fixed counts: lower total wins,
    equal totals too: both (a draw)."""
    g = game(hands=[["Z"] * 4, ["Z"] * 4], costs=[98, 99], options={"cost_cap": 100},
             forced=["Z"] * 4)
    play(g, "Z", 1)  # 100 / 99: camp 1 next
    assert g.status == "playing" and g.awaiting() == 1
    play(g, "Z", 1)  # 100 / 101: both reached, camp 0 lower
    assert g.winners == [0]
    g = game(hands=[["Z"] * 4, ["X"] * 4], costs=[94, 100], options={"cost_cap": 100})
    play(g, "Z", 1)
    play(g, "Z", 1)
    play(g, "Z", 1)  # 100 / 100
    assert g.winners == [0, 1] and g.status == "won"
    assert g.check({"do": "play", "card": "Z", "planets": [1]}) == (
        "the game is over (both camps won)")


# ------------------------------------------------------------------ options and set-up


def test_options_table():
    assert make_options() == {n: c.default for n, c in RULINGS.items()}
    assert make_options({"bm_outcome": "uniform_secret"})["bm_outcome"] == "uniform_secret"
    for bad, msg in (({"hand_size": 7}, "option 'hand_size' must be one of 3, 4, 5, 6"),
                     ({"first_player": True}, "must be one of 'random', 0, 1, not True"),
                     ({"nope": 1}, "unknown option\\(s\\): nope")):
        with pytest.raises(SetupError, match=msg):
            Qlanet(0, bad)
    text = describe()
    for name in RULINGS:
        assert name in text
    for ruling in ("C1", "D1", "D2", "D3", "D4", "D5", "D6", "D11", "D12", "D13", "D14", "D15"):
        assert ruling in text


def test_random_opening():
    """D3: mirrored +/- pairs in the open, the centre hidden from everyone (the odds of
    each, and of D4's first camp, are in test_qlanet_chance)."""
    for seed in range(50):
        g = Qlanet(seed)
        public = g.view("spectator")
        for a, b in ((1, 9), (2, 8), (3, 7), (4, 6)):
            assert public[a - 1]["shown"] == public[b - 1]["shown"] in ("+", "-")
        assert public[4]["shown"] == "?" and g.view(0)[4]["shown"] == "?"
        assert g.view(1)[4]["shown"] == "?" and g.view("truth")[4]["shown"] in "01+-"
        assert [len(h) for h in g.state.hands] == [4, 4] and g.state.costs == [0, 0]
        assert g.log[0]["type"] == "setup" and g.log[0]["planets"][4] == "?"


def test_opening_and_hand_options():
    g = Qlanet(3, {"opening": "public_centre", "first_player": 1, "hand_size": 6})
    assert g.view("spectator")[4]["shown"] in ("+", "-") and g.awaiting() == 1
    assert [len(h) for h in g.state.hands] == [6, 6]


def test_setup_pins_the_opening():
    setup = {"first_player": 1, "planets": ["0", "1", "+", "-", "f1", "+", "-", "1", "0"],
             "hidden": [2, 4], "hands": [["x", "H", "Z", "M"], ["BM", "SW", "CX0", "CX1"]],
             "costs": [5, 7]}
    g = Qlanet(0, None, setup)
    assert shown(g) == ["0", "?", "+", "?", "F1", "+", "-", "1", "0"]
    assert shown(g, "truth") == ["0", "1", "+", "-", "F1", "+", "-", "1", "0"]
    assert g.state.hands == [["X", "H", "Z", "M"], ["BM", "SW", "CX0", "CX1"]]
    assert g.awaiting() == 1  # the set-up's first player, whatever the starting totals
    assert g.state.costs == [5, 7]


@pytest.mark.parametrize("setup,message", [
    ({"colour": 1}, "unknown setup key\\(s\\): colour"),
    ({"first_player": 2}, "setup.first_player must be 0 or 1"),
    ({"planets": ["+"] * 8}, "setup.planets must list 9 states"),
    ({"planets": ["+"] * 8 + ["?"]}, "setup.planets must list 9 states"),
    ({"planets": ["F0"] + ["+"] * 8, "hidden": [1]}, "planet 1 is fixed, so it cannot be hidden"),
    ({"hidden": [0]}, "setup.hidden must list different planet numbers 1-9"),
    ({"hidden": [5, 5]}, "setup.hidden must list different planet numbers 1-9"),
    ({"hands": [["X"] * 4]}, "setup.hands must be two lists of cards"),
    ({"hands": [["X"] * 3, ["X"] * 4]}, "camp 0's hand has 3 cards; hand_size is 4"),
    ({"hands": [["Y"] * 4, ["X"] * 4]}, "unknown card\\(s\\) \\['Y', 'Y', 'Y', 'Y'\\]"),
    ({"deck": ["X"]}, "setup.deck needs the option refill: deck"),
    ({"costs": [1]}, "setup.costs must be two whole numbers"),
    ({"costs": [-1, 0]}, "setup.costs must be two whole numbers"),
])
def test_bad_setups(setup, message):
    with pytest.raises(SetupError, match=message):
        Qlanet(0, None, setup)


def test_bad_deck_setups():
    with pytest.raises(SetupError, match="too many M in setup hands and deck"):
        Qlanet(0, {"refill": "deck"}, {"hands": [["M"] * 4, ["M"] * 4]})
    with pytest.raises(SetupError, match="unknown card 'Q' in setup.deck"):
        Qlanet(0, {"refill": "deck"}, {"deck": ["Q"]})
    with pytest.raises(SetupError, match="the seed must be a whole number"):
        Qlanet("7")


def test_hidden_planet_default_follows_the_opening():
    g = game(["+"] * 9)  # the helper pins hidden=[] (nothing hidden)
    assert "?" not in shown(g)
    g = Qlanet(0, None, {"planets": ["+"] * 9})  # the opening's default: the centre
    assert shown(g)[4] == "?" and at(g, 5)["shown"] == "+"
    g = Qlanet(0, {"opening": "public_centre"}, {"planets": ["+"] * 9})
    assert "?" not in shown(g)


def test_gift_helper_keeps_hands_plain_data():
    g = game()
    gift(g, 0, ["BM", "BM", "BM", "BM"])
    assert [a["card"] for a in g.legal_actions()] == ["BM"] * 36


def test_a_forced_bell_outcome_that_cannot_be_is_refused_naming_the_planets():
    hands = [["BM", "H", "Z", "M"], ["X", "H", "Z", "M"]]
    g = game(["0"] * 9, hands=hands, forced=["Psi+"])  # two 0s always give a Phi
    with pytest.raises(IllegalAction) as err:
        play(g, "BM", 2, 6)
    assert str(err.value) == ("forced outcome Psi+ for BM on planets 2 and 6 cannot happen "
                              "from these planets' states")
    g = game(["0"] * 9, hands=hands, forced=[1])
    with pytest.raises(IllegalAction) as err:
        play(g, "BM", 4, 8)
    assert str(err.value) == ("forced outcome 1 for BM on planets 4 and 8 is not a Bell state "
                              "(Phi+, Phi-, Psi+ or Psi-)")
    g = game(["0"] * 9, hands=hands, forced=["Phi+", 0], options={"bm_outcome": "uniform_secret"})
    with pytest.raises(IllegalAction) as err:
        play(g, "BM", 3, 7)
    assert str(err.value).startswith("forced outcome 0 for the secret code of BM on planets 3 "
                                     "and 7 is not a Bell state")


def test_at_a_cap_camp_0_wins_on_more_fixed_planets_and_camp_1_on_a_lower_total():
    """D14, scored from either side: more fixed planets, then the lower total."""
    g = game(["F0"] + ["+"] * 8, hands=[["Z"] * 4, ["Z"] * 4], forced=["Z"] * 40,
             options={"move_cap": 40})
    while g.status == "playing":
        play(g, "Z", 5)
    assert g.log[-2] == {"type": "game_over", "winners": [0], "reasons": {"0": "move cap 40"}}
    g = game(hands=[["X"] * 4, ["Z"] * 4], costs=[98, 100], options={"cost_cap": 100},
             forced=["X"])
    play(g, "X", 1)  # 104 / 100: both reached, no planet fixed, camp 1 lower
    assert g.winners == [1]
    assert g.log[-2] == {"type": "game_over", "winners": [1], "reasons": {"1": "cost cap 100"}}


def test_a_forced_deck_refill_that_is_no_card_is_refused_naming_the_camp():
    g = game(hands=[["Z"] * 6, ["X"] * 6], options={"hand_size": 6, "refill": "deck"},
             forced=["Phi+"])
    with pytest.raises(IllegalAction) as err:
        play(g, "Z", 1)
    assert str(err.value).startswith("forced outcome 'Phi+' for camp 0's refill is not a card (")


@pytest.mark.parametrize("setup, message", [
    ({"first": 0, "deck2": []},
     "unknown setup key(s): deck2, first (known: first_player, planets, hidden, hands, deck, "
     "costs)"),
    ({"planets": ["0"] * 8},
     "setup.planets must list 9 states, planet 1 first, each one of 0, 1, +, -, F0, F1"),
    ({"hidden": [10]}, "setup.hidden must list different planet numbers 1-9"),
    ({"costs": [1]}, "setup.costs must be two whole numbers, camp 0's first"),
    ({"hands": [["X", "H", "Z", 1], ["X", "H", "Z", "M"]]},
     "setup.hands must be two lists of cards, camp 0's first"),
    ({"hands": [["X", "H", "Z", "Q"], ["X", "H", "Z", "M"]]},
     "unknown card(s) ['Q'] in setup.hands (cards: X, H, Z, M, CX0, CX1, SW, BM)"),
])
def test_each_bad_setup_value_is_refused_in_words(setup, message):
    with pytest.raises(SetupError) as err:
        Qlanet(0, None, setup)
    assert str(err.value) == message


@pytest.mark.parametrize("options, deck, message", [
    ({}, ["M"], "setup.deck needs the option refill: deck"),
    ({"refill": "deck"}, "MX", "setup.deck must be a list of cards, top card first"),
    ({"refill": "deck"}, ["M", 1], "setup.deck must be a list of cards, top card first"),
])
def test_each_bad_deck_setup_is_refused_in_words(options, deck, message):
    with pytest.raises(SetupError) as err:
        Qlanet(0, options, {"deck": deck})
    assert str(err.value) == message


def test_the_log_opens_with_the_setup_and_the_first_turn():
    g = game(costs=[3, 5], first=1)
    assert g.log[0]["type"] == "setup" and g.log[0]["costs"] == [3, 5]
    assert g.log[1:] == [{"type": "turn", "player": 1, "number": 1}]


def test_a_bad_forced_item_is_refused_listing_every_kind_allowed():
    with pytest.raises(SetupError) as err:
        Qlanet(0, None, None, ["Q"])
    assert str(err.value) == ("forced outcomes are 0/1, a Bell state (Phi+, Phi-, Psi+, Psi-), "
                              "a card (X, H, Z, M, CX0, CX1, SW, BM) or null, not 'Q'")
