"""Who sees what (docs/rules/qlanet.md): per-viewer views, and the spectator view never
depending on a hidden outcome (the hidden centre, a BM secret)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qlanet_helpers import BELL_KETS, at, game, play, shown

from companion.games.qlanet import view
from companion.games.qlanet.knowledge import shown as icons

KEYS = {"planet", "shown", "fixed", "entangled_with", "code", "bell", "group"}


def test_view_format():
    g = game(["+", "F1", "0"] + ["-"] * 6, hidden=[9])
    for viewer in (0, 1, "spectator", "truth", "0", "1"):
        planets = view(g, viewer)
        assert [e["planet"] for e in planets] == list(range(1, 10))
        assert all(set(e) == KEYS for e in planets)
    assert view(g, "spectator")[:3] == [
        {"planet": 1, "shown": "+", "fixed": False, "entangled_with": None, "code": None,
         "bell": None, "group": None},
        {"planet": 2, "shown": "F1", "fixed": True, "entangled_with": None, "code": None,
         "bell": None, "group": None},
        {"planet": 3, "shown": "0", "fixed": False, "entangled_with": None, "code": None,
         "bell": None, "group": None},
    ]
    assert icons(g, "spectator")[8] == "?" and icons(g, "truth")[8] == "-"
    assert g.view(1) == view(g, 1)  # the engine's shortcut is the same function
    for bad in (2, "camp0", None, True):
        with pytest.raises(ValueError, match="unknown viewer"):
            view(g, bad)


def test_the_hidden_centre_is_known_to_nobody():
    g = game(["+", "+", "-", "-", "1", "-", "-", "+", "+"], hidden=[5])
    assert [at(g, 5, v)["shown"] for v in (0, 1, "spectator", "truth")] == ["?", "?", "?", "1"]


def test_bm_code_is_private_to_its_player():
    g = game(["0", "+"] + ["0"] * 7, hands=[["BM", "Z", "Z", "Z"], ["Z"] * 4], forced=["Psi+"])
    play(g, "BM", 2, 1)
    mine = at(g, 1, 0)
    assert mine == {"planet": 1, "shown": "entangled", "fixed": False, "entangled_with": 2,
                    "group": [1, 2],
                    "code": "|01>+|10>", "bell": "Psi+"}
    assert at(g, 1, 1)["shown"] == at(g, 1, "spectator")["shown"] == "?"
    assert at(g, 2, 1)["code"] is None


def test_secret_pairs_option_shows_the_pair_without_the_code():
    """D15/D16 option: the opponent sees the entangled icon and the partner, not the code."""
    g = game(["0", "+"] + ["0"] * 7, hands=[["BM", "Z", "Z", "Z"], ["M", "Z", "Z", "Z"]],
             forced=["Psi+", None, 0], options={"secret_pairs": "entangled"})
    play(g, "BM", 1, 2)
    for viewer in (1, "spectator"):
        e = at(g, 1, viewer)
        assert (e["shown"], e["entangled_with"], e["code"], e["bell"]) == ("entangled", 2, None, None)
    assert at(g, 1, 0)["code"] == "|01>+|10>"
    assert shown(game(options={"secret_pairs": "entangled"})) == shown(game())  # no pairs
    # Once one half is measured the partner is 0 or 1, no longer a pair: "?" again.
    play(g, "M", 1, player=1)
    assert shown(g, 1)[:2] == ["F0", "?"] and shown(g, 0)[:2] == ["F0", "1"]


def test_partner_of_a_measured_half_is_a_lone_question_mark():
    """The rules and the app's UI guide: after M on one half of a secret pair, the partner is
    0 or 1 to the BM player and "?" to the opponent, next to a fixed planet."""
    g = game(["0", "+"] + ["0"] * 7, hands=[["BM", "Z", "Z", "Z"], ["M", "Z", "Z", "Z"]],
             forced=["Psi-", None, 1])
    play(g, "BM", 1, 2)
    play(g, "M", 1, player=1)
    assert shown(g)[:2] == ["F1", "?"] and shown(g, 1)[:2] == ["F1", "?"]
    assert shown(g, 0)[:2] == ["F1", "0"]  # Psi: the opposite value


def test_public_cx_pair_is_shown_to_everyone_with_its_code():
    g = game(["-", "1"] + ["0"] * 7, hands=[["CX1", "Z", "Z", "Z"], ["Z"] * 4])
    play(g, "CX1", 1, 2)
    for viewer in (0, 1, "spectator"):
        assert at(g, 2, viewer)["code"] == BELL_KETS["Psi-"]


def test_a_known_group_of_three_shows_as_a_group_with_its_ket():
    """The display rule names single planets and pairs; a group of three whose joint
    state is known (a GHZ state here, made in public) is shown the same way: each
    planet entangled with the next of the group, the code the group's ket."""
    g = game(["+", "0", "0"] + ["+"] * 6, hands=[["CX1", "CX1", "Z", "Z"], ["Z"] * 4],
             costs=[0, 50])
    play(g, "CX1", 1, 2)
    play(g, "CX1", 2, 3)
    assert shown(g, "truth")[:3] == shown(g)[:3] == ["entangled"] * 3
    assert [e["entangled_with"] for e in view(g, "spectator")[:3]] == [2, 3, 1]
    for e in view(g, 0)[:3]:
        assert e["group"] == [1, 2, 3] and e["code"] == "|000>+|111>" and e["bell"] is None
    assert shown(g)[3:] == ["+"] * 6


def test_a_group_grown_from_a_secret_pair_stays_its_owners_secret():
    """A CX from one half of a BM pair to a third planet makes a group of three: the BM
    camp sees it as a ket, the other camp and the table see "?"."""
    g = game(["0", "0", "0"] + ["+"] * 6, hands=[["BM", "CX1", "Z", "Z"], ["Z"] * 4],
             costs=[0, 50], forced=["Phi+"])
    play(g, "BM", 1, 2)
    play(g, "CX1", 2, 3)  # camp 0 again: the lower total plays next
    own = view(g, 0)[:3]
    assert [e["shown"] for e in own] == ["entangled"] * 3 and own[0]["group"] == [1, 2, 3]
    assert own[0]["code"].count("|") == 2  # a GHZ-like state: two terms
    assert shown(g, 1)[:3] == shown(g)[:3] == ["?", "?", "?"]
    assert view(g, "truth")[0]["code"] == own[0]["code"]


def test_a_long_ket_is_given_by_its_generators():
    """Past eight terms a ket does not fit a small screen; the group's generators do
    (in a canonical order, so every viewer of the same group reads the same)."""
    from companion.games.qlanet.knowledge import MAX_TERMS, _code
    from companion.games.qlanet.quantum import product_state

    gens = product_state(["+"] * 4)
    code = _code(gens, (0, 1, 2, 3))  # 16 terms: |0000>+|0001>+...
    assert 16 > MAX_TERMS and "|" not in code
    assert code.split() == ["+...X", "+..X.", "+.X..", "+X..."]
    shuffled = [gens[3], gens[0] ^ 0, gens[2], gens[1]]
    assert _code(shuffled, (0, 1, 2, 3)) == code
    # eight terms still fit: the ket itself
    assert _code(product_state(["+"] * 3), (0, 1, 2)) == \
        "|000>+|001>+|010>+|011>+|100>+|101>+|110>+|111>"


# ------------------------------------------------------------------ no leaks

CENTRES = ("0", "1", "+", "-")


def centre_games(**kw):
    """Four games that differ only in the hidden centre's true state."""
    out = []
    for c in CENTRES:
        planets = ["+", "+", "-", "-", c, "-", "-", "+", "+"]
        out.append(game(planets, hidden=[5], **kw))
    return out


def public_picture(g, probes):
    """Everything the public can see or ask: views, turn, hands, legality, refusals."""
    return (view(g, "spectator"), view(g, 1), g.awaiting(), g.state.costs, g.state.hands,
            g.legal_actions(), [g.check(p) for p in probes], g.state.knowledge["spectator"],
            g.state.knowledge["1"], [e for e in g.log if e["type"] != "reveal"])


PROBES = [
    {"do": "play", "card": "M", "planets": [5, 6]},
    {"do": "play", "card": "CX0", "planets": [5, 5]},
    {"do": "play", "card": "BM", "planets": [5]},
    {"do": "play", "card": "X", "planets": [10]},
    {"do": "discard", "card": "X"},
    {"player": 1, "do": "play", "card": "X", "planets": [5]},
]


def test_hidden_centre_leaks_nothing_until_measured():
    hands = [["X", "H", "CX1", "CX0"], ["SW", "Z", "H", "X"]]
    script = [  # (camp, card, planets): every kind of play touching the centre
        (0, "X", [5]), (0, "H", [5]), (0, "CX1", [5, 6]), (0, "CX0", [1, 5]), (0, "Z", [5]),
        (0, "CX1", [2, 5]), (0, "SW", [5, 1]), (1, "SW", [5, 3]), (1, "Z", [5]),
        (0, "BM", [5, 9]), (1, "H", [5]), (1, "X", [3]),
    ]
    # Refills in order; None: let chance decide the BM outcome (camp 0 learns it).
    forced = ["Z", "CX1", "SW", "BM", "H", "Z", "X", "Z", "Z", None, "Z", "Z", "Z"]
    games = centre_games(hands=hands, forced=forced, costs=[0, 20])
    pictures = [public_picture(g, PROBES) for g in games]
    assert all(p == pictures[0] for p in pictures)
    bm_played = False
    for camp, card, planets in script:
        for g in games:
            assert g.awaiting() == camp, (card, planets)
            play(g, card, *planets)
        pictures = [public_picture(g, PROBES) for g in games]
        assert all(p == pictures[0] for p in pictures), (card, planets)
        bm_played = bm_played or card == "BM"
        if not bm_played:  # until its own BM, camp 0 knows no more than the public
            assert all(view(g, 0) == view(games[0], 0) for g in games)
    assert len({str(g.state.truth) for g in games}) > 1  # the truth did differ all along
    # Measuring a planet the centre never touched is public and still leaks nothing.
    for g in games:
        assert g.awaiting() == 0
        g.state.hands[0][0] = "M"
        play(g, "M", 7)
    pictures = [public_picture(g, PROBES) for g in games]
    assert all(p == pictures[0] for p in pictures)
    # Measuring the centre reveals it: now the public pictures may differ.
    for g in games:
        g.state.hands[g.awaiting()][0] = "M"
        play(g, "M", 5)
        assert view(g, "spectator")[4]["shown"] in ("F0", "F1")


def test_bm_secret_leaks_nothing_to_the_opponent():
    """Two games differing only in a BM outcome look the same to camp 1 and the public
    through gates on the pair, until an M reveals something."""
    hands = [["BM", "CX0", "H", "SW"], ["X", "Z", "CX1", "H"]]
    script = [(0, "BM", [4, 6]), (1, "X", [4]), (1, "Z", [6]), (1, "CX1", [4, 6]),
              (0, "CX0", [6, 4]), (0, "H", [4]), (1, "H", [6]), (1, "Z", [2]),
              (0, "SW", [6, 2])]
    runs = {}
    for outcome in ("Phi+", "Psi-"):
        g = game(["+", "0", "+", "0", "+", "+", "-", "-", "0"], hands=hands,
                 forced=[outcome] + ["Z"] * 10)
        pics = [public_picture(g, PROBES)]
        for camp, card, planets in script:
            assert g.awaiting() == camp, (card, planets)
            play(g, card, *planets)
            pics.append(public_picture(g, PROBES))
        runs[outcome] = (pics, g.state.knowledge["0"], g.state.truth)
    assert runs["Phi+"][0] == runs["Psi-"][0]
    assert runs["Phi+"][1] != runs["Psi-"][1]  # camp 0 knows which
    assert runs["Phi+"][2] != runs["Psi-"][2]


TWO = ("CX0", "CX1", "SW", "BM")
MOVES = st.lists(st.tuples(st.sampled_from(["X", "H", "Z", *TWO]),
                           st.integers(1, 9), st.integers(1, 9)), max_size=25)


@settings(max_examples=40, deadline=None)
@given(moves=MOVES, seed=st.integers(0, 1000), bm=st.sampled_from(["born", "uniform_secret"]))
def test_hidden_centre_leaks_nothing_hypothesis(moves, seed, bm):
    """Random non-measuring plays on the four centre variants (camp 0 may play BM, which
    can teach camp 0 about the centre): the spectator's and camp 1's knowledge lists,
    the public view and the legal actions stay identical."""
    games = centre_games(hands=[["Z"] * 4, ["Z"] * 4], seed=seed, options={"bm_outcome": bm})
    for card, a, b in moves:
        if card in TWO and a == b:
            continue
        who = games[0].awaiting()
        if card == "BM" and who == 1:
            card = "SW"
        planets = [a] if card in ("X", "H", "Z") else [a, b]
        for g in games:
            g.state.hands[who][0] = card
            play(g, card, *planets)  # legal whatever the centre: nothing is fixed
        first = games[0]
        for g in games[1:]:
            assert g.state.knowledge["spectator"] == first.state.knowledge["spectator"]
            assert g.state.knowledge["1"] == first.state.knowledge["1"]
            assert view(g, "spectator") == view(first, "spectator")
            assert g.legal_actions() == first.legal_actions()
            assert g.state.hands == first.state.hands and g.state.rng == first.state.rng


def test_a_secret_pair_swapped_on_by_cx_and_m_is_still_seen_as_a_pair():
    """Under `secret_pairs: entangled` the opponent of a BM on 1-2 watches a CX from 3 onto 1
    and an M on 1: the entanglement moves to 2-3, which everyone saw happen, so the
    opponent still sees a pair (its partner, not its code)."""
    g = game(["0", "0", "+"] + ["0"] * 6, hands=[["BM", "CX1", "M", "H"], ["Z"] * 4],
             forced=["Phi+", None, None, 0], costs=[0, 100], options={"secret_pairs": "entangled"})
    play(g, "BM", 1, 2)
    play(g, "CX1", 3, 1)
    play(g, "M", 1)
    for viewer in (1, "spectator"):
        e = at(g, 2, viewer)
        assert (e["shown"], e["entangled_with"], e["code"]) == ("entangled", 3, None)
        assert at(g, 3, viewer)["entangled_with"] == 2
    assert at(g, 2, 0)["code"] is not None  # the BM's player knows the code


def test_a_bm_on_the_hidden_centre_makes_a_pair_every_viewer_knows_of():
    """A BM always leaves a Bell pair, whatever its planets held before: under
    `secret_pairs: entangled` the opponent sees the pair though the centre was unknown."""
    g = game(hidden=[5], hands=[["BM", "Z", "Z", "Z"], ["Z"] * 4],
             options={"secret_pairs": "entangled"})
    assert at(g, 5, 1)["shown"] == "?"
    play(g, "BM", 5, 6)
    for viewer in (1, "spectator"):
        e = at(g, 5, viewer)
        assert (e["shown"], e["entangled_with"], e["code"]) == ("entangled", 6, None)
    assert at(g, 5, 0)["code"] is not None


@pytest.mark.parametrize("pairs", [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))])
def test_the_bm_player_sees_the_code_of_each_of_two_pairs(pairs):
    """A camp sees the codes of all its own BMs, however their planets interleave."""
    g = game(hands=[["BM", "BM", "Z", "Z"], ["Z"] * 4], costs=[0, 100])
    for a, b in pairs:
        play(g, "BM", a, b)
    for (a, b), bm in zip(pairs, g.state.bells):
        for q, partner in ((a, b), (b, a)):
            e = at(g, q, 0)
            assert (e["shown"], e["entangled_with"], e["group"]) == ("entangled", partner, [a, b])
            assert e["bell"] == bm["code"] and e["code"] == BELL_KETS[bm["code"]]
        assert at(g, a, 1)["shown"] == "?"


@pytest.mark.parametrize("pairs", [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))])
def test_under_secret_pairs_entangled_the_opponent_sees_each_of_two_pairs(pairs):
    g = game(hands=[["BM", "BM", "Z", "Z"], ["Z"] * 4], costs=[0, 100],
             options={"secret_pairs": "entangled"})
    for a, b in pairs:
        play(g, "BM", a, b)
    for a, b in pairs:
        for q, partner in ((a, b), (b, a)):
            e = at(g, q, 1)
            assert (e["shown"], e["entangled_with"], e["code"]) == ("entangled", partner, None)


def test_the_bm_player_sees_each_group_a_cx_grows_from_a_pair():
    """Groups of three (a BM's pair, then a CX from one half onto a 0) are shown whole:
    two of them at once, and one whose planets come after a planet nobody knows."""
    g = game(["+", "+", "0", "+", "+", "0", "-", "+", "+"], hands=[["BM", "CX1", "BM", "CX1"],
             ["Z"] * 4], costs=[0, 100])
    for a, b, c in ((1, 2, 3), (4, 5, 6)):
        play(g, "BM", a, b)
        play(g, "CX1", b, c)
    for group in ([1, 2, 3], [4, 5, 6]):
        assert [at(g, q, 0)["group"] for q in group] == [group] * 3
    g = game(["+", "+", "+", "+", "0", "+", "+", "+", "+"], hidden=[1],
             hands=[["BM", "CX1", "Z", "Z"], ["Z"] * 4], costs=[0, 100])
    play(g, "BM", 3, 4)
    play(g, "CX1", 4, 5)
    assert at(g, 1, 0)["shown"] == "?"
    assert [at(g, q, 0)["group"] for q in (3, 4, 5)] == [[3, 4, 5]] * 3
