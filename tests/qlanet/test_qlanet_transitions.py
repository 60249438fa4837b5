"""The transition tables, state by state (docs/rules/qlanet.md and the physics behind it).

Each case sets the planets up in the open (nothing hidden), plays one card, and reads
the board as the spectator and as the device (``truth``) see it.
"""

from __future__ import annotations

import pytest
from qlanet_helpers import BELL_KETS, BELLS, at, game, play, shown

from companion.games.qlanet import IllegalAction

STATES = ("0", "1", "+", "-")
REST = ["0"] * 9


def board(*states: str) -> list[str]:
    """Planets 1.. set to ``states``, the rest 0."""
    return list(states) + REST[len(states):]


def hands_with(card: str) -> list[list[str]]:
    return [[card, "Z", "Z", "Z"], ["Z", "Z", "Z", "Z"]]


# ------------------------------------------------------------ one-planet cards

ONE_PLANET = {
    "X": {"0": "1", "1": "0", "+": "+", "-": "-"},
    "Z": {"0": "0", "1": "1", "+": "-", "-": "+"},
    "H": {"0": "+", "1": "-", "+": "0", "-": "1"},
}
COST = {"X": 6, "H": 3, "Z": 2, "M": 10, "CX0": 3, "CX1": 3, "SW": 4, "BM": 8}


@pytest.mark.parametrize("card", ["X", "Z", "H"])
@pytest.mark.parametrize("before", STATES)
def test_one_planet_gate_table(card, before):
    g = game(board(before), hands=hands_with(card))
    play(g, card, 1)
    after = ONE_PLANET[card][before]
    assert at(g, 1, "spectator")["shown"] == after  # public: everyone sees it
    assert at(g, 1, "truth")["shown"] == after
    assert g.state.costs == [COST[card], 0]


@pytest.mark.parametrize("before,certain", [("0", 0), ("1", 1)])
def test_measure_basis_states_is_certain(before, certain):
    for seed in range(20):
        g = game(board(before), hands=hands_with("M"), seed=seed)
        entries = play(g, "M", 1)
        assert at(g, 1, "spectator")["shown"] == f"F{certain}"
        assert {"type": "measure", "player": 0, "planet": 1, "result": certain} in entries
    g = game(board(before), hands=hands_with("M"), forced=[1 - certain])
    with pytest.raises(IllegalAction, match="cannot happen"):
        play(g, "M", 1)
    assert at(g, 1, "truth")["shown"] == before and g.inputs == []


@pytest.mark.parametrize("before", ["+", "-"])
def test_measure_superposition_can_give_either_result(before):
    """Both results are possible (their odds: test_qlanet_chance)."""
    for result in (0, 1):
        g = game(board(before), hands=hands_with("M"), forced=[result])
        play(g, "M", 1)
        assert shown(g)[0] == f"F{result}" and g.state.fixed[0] == result


@pytest.mark.parametrize("card", ["X", "H", "Z", "M", "CX0", "CX1", "SW", "BM"])
def test_fixed_planets_are_untargetable(card):
    g = game(board("F0", "+"), hands=hands_with(card))
    planets = [1] if card in ("X", "H", "Z", "M") else [1, 2]
    with pytest.raises(IllegalAction, match="planet 1 is fixed \\(F0\\): no card can target"):
        play(g, card, *planets)
    if len(planets) == 2:
        with pytest.raises(IllegalAction, match="planet 1 is fixed"):
            play(g, card, 2, 1)


def bell_pair(name: str) -> list[str]:
    """Planets 1-2 set up so that a public CX1 1->2 makes the Bell state ``name``."""
    return board(*{"Phi+": ("+", "0"), "Psi+": ("+", "1"),
                   "Phi-": ("-", "0"), "Psi-": ("-", "1")}[name])


def with_pair(name: str, *cards: str, **kw):
    """Camp 0 makes the public pair ``name`` on planets 1-2, holding ``cards`` next."""
    hand = (["CX1", *cards] + ["Z"] * 4)[:4]
    g = game(bell_pair(name), hands=[hand, ["Z"] * 4], costs=[0, 100], **kw)
    play(g, "CX1", 1, 2)
    assert at(g, 1)["bell"] == name and at(g, 1, "spectator")["bell"] == name  # public (D8)
    return g


@pytest.mark.parametrize("name,after_x,after_z", [
    ("Phi+", "Psi+", "Phi-"), ("Phi-", "Psi-", "Phi+"),
    ("Psi+", "Phi+", "Psi-"), ("Psi-", "Phi-", "Psi+")])
def test_x_and_z_on_half_a_pair_change_the_bell_state(name, after_x, after_z):
    g = with_pair(name, "X")
    play(g, "X", 1)
    assert at(g, 1, "spectator")["bell"] == after_x
    assert at(g, 2, "spectator")["code"] == BELL_KETS[after_x]
    g = with_pair(name, "Z")
    play(g, "Z", 2)
    assert at(g, 2, "spectator")["bell"] == after_z


def test_h_on_half_a_pair_leaves_the_bell_states():
    """D7: still entangled, now (|0+> + |1->)/sqrt2, a four-term ket and no Bell name."""
    g = with_pair("Phi+", "H")
    play(g, "H", 2)
    e = at(g, 1, "spectator")
    assert e["shown"] == "entangled" and e["entangled_with"] == 2
    assert e["code"] == "|00>+|01>+|10>-|11>" and e["bell"] is None


@pytest.mark.parametrize("name", BELLS)
@pytest.mark.parametrize("result", [0, 1])
def test_measuring_half_a_pair_collapses_the_partner(name, result):
    """M on a half: the partner gets the same value for Phi, the opposite for Psi (unfixed)."""
    g = with_pair(name, "M", forced=[None, result])
    play(g, "M", 1)
    partner = result if name.startswith("Phi") else 1 - result
    assert shown(g)[:2] == [f"F{result}", str(partner)]
    assert g.state.fixed[:2] == [result, None]


def test_measuring_half_after_h_collapses_the_partner_to_plus_or_minus():
    """D7: after H on one half, M on the other leaves it + or - (real quantum mechanics)."""
    outcomes = set()
    for result in (0, 1):
        g = with_pair("Phi+", "H", "M", forced=[None, None, result])  # refills, then M
        play(g, "H", 2)
        play(g, "M", 1)
        outcomes.add((shown(g)[0], shown(g)[1]))
    assert outcomes == {("F0", "+"), ("F1", "-")}


def test_gates_on_a_hidden_planet_stay_hidden_until_measured():
    g = game(board("0", "+"), hidden=[1], hands=[["X", "H", "Z", "M"], ["Z"] * 4],
             costs=[0, 100], forced=[None, None, None, None, None])
    play(g, "X", 1)
    assert at(g, 1, "spectator")["shown"] == "?" and at(g, 1)["shown"] == "1"
    play(g, "H", 1)
    assert [at(g, 1, v)["shown"] for v in (0, 1, "spectator", "truth")] == ["?", "?", "?", "-"]
    play(g, "Z", 1)
    assert at(g, 1)["shown"] == "+" and at(g, 1, "spectator")["shown"] == "?"
    play(g, "M", 1)
    assert at(g, 1, "spectator")["shown"] in ("F0", "F1")  # revealed to everyone


# ------------------------------------------------------------ CX0 and CX1

# (a, b) before -> (a, b) after, or a Bell state name; straight from the table.
CX1_TABLE = {
    ("0", "0"): ("0", "0"), ("0", "1"): ("0", "1"), ("1", "0"): ("1", "1"), ("1", "1"): ("1", "0"),
    ("0", "+"): ("0", "+"), ("1", "+"): ("1", "+"), ("0", "-"): ("0", "-"), ("1", "-"): ("1", "-"),
    ("+", "0"): "Phi+", ("+", "1"): "Psi+", ("-", "0"): "Phi-", ("-", "1"): "Psi-",
    ("+", "+"): ("+", "+"), ("-", "+"): ("-", "+"), ("+", "-"): ("-", "-"), ("-", "-"): ("+", "-"),
}
CX0_TABLE = {
    ("0", "0"): ("0", "1"), ("0", "1"): ("0", "0"), ("1", "0"): ("1", "0"), ("1", "1"): ("1", "1"),
    ("0", "+"): ("0", "+"), ("1", "+"): ("1", "+"), ("0", "-"): ("0", "-"), ("1", "-"): ("1", "-"),
    ("+", "0"): "Psi+", ("+", "1"): "Phi+", ("-", "0"): "Psi-", ("-", "1"): "Phi-",
    ("+", "+"): ("+", "+"), ("-", "+"): ("-", "+"), ("+", "-"): ("-", "-"), ("-", "-"): ("+", "-"),
}


@pytest.mark.parametrize("card,table", [("CX1", CX1_TABLE), ("CX0", CX0_TABLE)])
@pytest.mark.parametrize("a", STATES)
@pytest.mark.parametrize("b", STATES)
@pytest.mark.parametrize("order", ["control first", "control last"])
def test_cx_table_on_product_states(card, table, a, b, order):
    # The control is the first planet chosen, whichever number it has.
    control, target = (3, 7) if order == "control first" else (7, 3)
    planets = REST[:]
    planets[control - 1], planets[target - 1] = a, b
    g = game(planets, hands=hands_with(card))
    play(g, card, control, target)
    expect = table[(a, b)]
    for viewer in ("spectator", "truth", 0, 1):  # public inputs: a public result (D8)
        c, t = at(g, control, viewer), at(g, target, viewer)
        if isinstance(expect, str):
            assert c["shown"] == t["shown"] == "entangled"
            assert c["entangled_with"] == target and t["entangled_with"] == control
            assert c["bell"] == expect and c["code"] == BELL_KETS[expect]
        else:
            assert (c["shown"], t["shown"]) == expect
    assert g.state.costs == [3, 0]


def test_phase_kick_back_flips_the_control():
    """D9: a CX whose target is - turns a + control into - (and back)."""
    g = game(board("+", "-", "-"), hands=[["CX1", "CX0", "Z", "Z"], ["Z"] * 4], costs=[0, 50])
    play(g, "CX1", 1, 2)
    assert shown(g)[:2] == ["-", "-"]
    play(g, "CX0", 1, 3)
    assert shown(g)[:3] == ["+", "-", "-"]


# pair -> (CX1 a->b, CX0 a->b, CX1 b->a, CX0 b->a), each (a, b) after
PAIR_TABLE = {
    "Phi+": (("+", "0"), ("+", "1"), ("0", "+"), ("1", "+")),
    "Phi-": (("-", "0"), ("-", "1"), ("0", "-"), ("1", "-")),
    "Psi+": (("+", "1"), ("+", "0"), ("1", "+"), ("0", "+")),
    "Psi-": (("-", "1"), ("-", "0"), ("1", "-"), ("0", "-")),
}


@pytest.mark.parametrize("name", BELLS)
@pytest.mark.parametrize("which", range(4))
def test_cx_on_a_bell_pair_disentangles_it(name, which):
    card, planets = [("CX1", (1, 2)), ("CX0", (1, 2)), ("CX1", (2, 1)), ("CX0", (2, 1))][which]
    g = with_pair(name, card)
    play(g, card, *planets)
    assert tuple(shown(g)[:2]) == PAIR_TABLE[name][which]


# ------------------------------------------------------------ SW and BM


def test_swap_exchanges_states_and_moves_an_entangled_half():
    g = game(board("+", "0", "1", "-"), hands=[["SW", "CX1", "SW", "SW"], ["Z"] * 4],
             costs=[0, 100])
    play(g, "SW", 3, 4)
    assert shown(g)[:4] == ["+", "0", "-", "1"]
    play(g, "CX1", 1, 2)  # Phi+ on 1-2
    play(g, "SW", 2, 3)   # the half on 2 moves to 3, still entangled with 1
    assert at(g, 1, "spectator")["entangled_with"] == 3 and at(g, 3)["bell"] == "Phi+"
    assert shown(g)[1] == "-"
    play(g, "SW", 1, 3)   # the two halves of one pair: no change
    assert at(g, 1)["entangled_with"] == 3 and at(g, 1)["bell"] == "Phi+"
    assert g.state.costs[0] == 4 + 3 + 4 + 4


# Born rule (D11 default): which outcomes a BM can give from product inputs.
BORN = {
    ("0", "0"): {"Phi+", "Phi-"}, ("1", "1"): {"Phi+", "Phi-"},
    ("0", "1"): {"Psi+", "Psi-"}, ("1", "0"): {"Psi+", "Psi-"},
    ("+", "+"): {"Phi+", "Psi+"}, ("-", "-"): {"Phi+", "Psi+"},
    ("+", "-"): {"Phi-", "Psi-"}, ("-", "+"): {"Phi-", "Psi-"},
}


@pytest.mark.parametrize("a", STATES)
@pytest.mark.parametrize("b", STATES)
def test_bm_outcomes_follow_the_born_table(a, b):
    possible = BORN.get((a, b), set(BELLS))  # one Z-type and one X-type: all four
    for name in BELLS:
        g = game(board(a, b), hands=hands_with("BM"), forced=[name])
        if name not in possible:
            with pytest.raises(IllegalAction, match="cannot happen"):
                play(g, "BM", 1, 2)
            continue
        entries = play(g, "BM", 1, 2)
        assert {"type": "bell", "player": 0, "planets": [1, 2]} in entries
        assert "Phi" not in str(entries) and "Psi" not in str(entries)  # the log is public
        mine = at(g, 1, 0)
        assert mine["shown"] == "entangled" and mine["bell"] == name
        assert mine["code"] == BELL_KETS[name] and at(g, 2, 0)["entangled_with"] == 1
        assert shown(g, 1)[:2] == shown(g)[:2] == ["?", "?"]
        assert g.state.costs == [8, 0]


def test_bm_uniform_secret_ignores_the_inputs():
    """D11 option: the pair's code is drawn apart from the measured outcome (its odds:
    test_qlanet_chance), and the opponent learns nothing."""
    # Forced: the measured outcome, then the pair's final code.
    g = game(board("0", "0"), hands=[["BM", "CX0", "Z", "Z"], ["Z"] * 4], costs=[0, 50],
             forced=["Phi+", "Psi-"], options={"bm_outcome": "uniform_secret"})
    play(g, "BM", 1, 2)
    assert at(g, 1, 0)["bell"] == at(g, 1)["bell"] == "Psi-"
    assert g.state.bells == [{"player": 0, "planets": [1, 2], "code": "Psi-",
                              "measured": "Phi+"}]
    play(g, "CX0", 1, 2)  # Psi- with CX0 a->b: (-, 0)
    assert shown(g, 0)[:2] == ["-", "0"]
    assert shown(g, 1)[:2] == shown(g)[:2] == ["?", "?"]


def test_born_bm_from_same_type_inputs_tells_the_opponent_half():
    """BM on 0 and 0 says "same values", so after CX0 a->b everyone sees b = 1."""
    g = game(board("0", "0"), hands=[["BM", "CX0", "Z", "Z"], ["Z"] * 4], costs=[0, 50],
             forced=["Phi-"])
    play(g, "BM", 1, 2)
    assert shown(g)[:2] == ["?", "?"]
    play(g, "CX0", 1, 2)
    assert shown(g)[:2] == ["?", "1"] and shown(g, 0)[:2] == ["-", "1"]


def test_bm_cx_m_combo():
    """The combo: BM (8) -> CX (3) -> M (10) on the target: a chosen fixed value for 21,
    while the opponent sees only "?" (mixed-type inputs)."""
    g = game(board("0", "+"), hands=[["BM", "CX1", "M", "Z"], ["Z"] * 4], costs=[0, 30],
             forced=["Psi-", None, None])
    play(g, "BM", 1, 2)
    assert at(g, 1, 0)["code"] == "|01>-|10>"
    assert shown(g, 1)[:2] == shown(g)[:2] == ["?", "?"]
    play(g, "CX1", 1, 2)  # Psi- with CX1 a->b: (-, 1); only camp 0 knows
    assert shown(g, 0)[:2] == ["-", "1"] and shown(g, 1)[:2] == ["?", "?"]
    play(g, "M", 2)
    assert shown(g)[:2] == ["?", "F1"] and g.state.costs == [21, 30]
    # The guarantee: forcing the other result is impossible.
    g2 = game(board("0", "+"), hands=[["BM", "CX1", "M", "Z"], ["Z"] * 4], costs=[0, 30],
              forced=["Psi-", None, None, 0])
    play(g2, "BM", 1, 2)
    play(g2, "CX1", 1, 2)
    with pytest.raises(IllegalAction, match="certainly 1"):
        play(g2, "M", 2)


@pytest.mark.parametrize("left", BELLS)
@pytest.mark.parametrize("outcome", BELLS)
def test_entanglement_swapping(left, outcome):
    """D10: pairs 1-2 (Phi+) and 3-4 (``left``); BM on 2 and 3 leaves 1 and 4 entangled.

    The new pair is the old 3-4 state times the outcome (Pauli algebra: XX and ZZ signs
    add), known to the BM player and "?" to the opponent.
    """
    third = {"Phi+": ("+", "0"), "Psi+": ("+", "1"), "Phi-": ("-", "0"), "Psi-": ("-", "1")}
    planets = board("+", "0", *third[left])
    g = game(planets, hands=[["CX1", "CX1", "BM", "Z"], ["Z"] * 4], costs=[0, 100],
             forced=[None, None, outcome])
    play(g, "CX1", 1, 2)
    play(g, "CX1", 3, 4)
    play(g, "BM", 2, 3)
    signs = {"Phi+": (0, 0), "Phi-": (1, 0), "Psi+": (0, 1), "Psi-": (1, 1)}
    x = signs[left][0] ^ signs[outcome][0]
    z = signs[left][1] ^ signs[outcome][1]
    expect = {v: k for k, v in signs.items()}[(x, z)]
    for viewer in ("truth", 0):
        assert at(g, 1, viewer)["entangled_with"] == 4 and at(g, 1, viewer)["bell"] == expect
        assert at(g, 2, viewer)["entangled_with"] == 3 and at(g, 2, viewer)["bell"] == outcome
    assert shown(g, 1)[:4] == shown(g)[:4] == ["?"] * 4


def test_bm_on_a_hidden_planet_is_allowed():
    """D10: BM needs no knowledge of its planets (legality never depends on hidden states)."""
    g = game(board("+"), hidden=[5], hands=hands_with("BM"), forced=["Phi+"])
    assert g.check({"do": "play", "card": "BM", "planets": [5, 1]}) is None
    play(g, "BM", 5, 1)
    assert at(g, 5, 0)["bell"] == "Phi+" and shown(g)[0] == shown(g)[4] == "?"
