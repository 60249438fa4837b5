"""QNO's rulings played together: each non-default ruling with the others it meets.

A ruling is rarely alone at the table. A player who cannot play draws, and then how
the box knows their hand (``hands``), what they may do with the card (``drawn_card``),
whether they may draw at all (``must_play``) and whether the action on top fires
again (``retrigger_actions``) all decide who moves next. Each test here plays every
combination of the rulings that meet in one situation, with the cards and the H
outcome given, and checks it against an expectation written from docs/rules/qno.md
(not from the engine's code).
"""

from __future__ import annotations

import itertools

import pytest

from companion.games.qno import Qno
from qno_helpers import conserved, dealt

FITS, MISFITS = "00_9", "10_9"  # on a |00> 5: the same state, and neither state nor value
ACTIONS = {"skip": "00_skip", "reverse": "00_reverse", "draw_two": "00_draw_two", None: "00_7"}


def after(p: int, steps: int, direction: int, n: int) -> int:
    return (p - 1 + steps * direction) % n + 1


def opening(hands: str, action: str | None, options: dict) -> tuple[Qno, int, int]:
    """Three players; player 1 plays ``action`` on a |00> 5 and the next mover has no
    card that fits. The game, that mover (the drawer) and the direction of play."""
    card = ACTIONS[action]
    opts = {"hands": hands, **options}
    if hands == "tracked":
        g = dealt([[card, "00_1"], ["11_1", "11_2"], ["11_3", "11_4"]], "00_5", **options)
    else:
        g = Qno(0, {"players": 3, **opts})
        g.push({"do": "turn_up", "card": "00_5"})
    g.push({"do": "play", "card": card})
    direction = -1 if action == "reverse" else 1
    drawer = after(1, 2 if action == "skip" else 1, direction, 3)
    if action == "draw_two":
        if hands == "tracked":
            g.push({"do": "take", "card": "11_5"})
            g.push({"do": "take", "card": "11_6"})
        assert g.state.counts[drawer - 1] == (4 if hands == "tracked" else 7)
    assert g.awaiting() == drawer and g.pending is None
    return g, drawer, direction


def take(g: Qno, card: str) -> None:
    if g.pending and g.pending["kind"] == "take":
        g.push({"do": "take", "card": card})


DRAW_MATRIX = list(itertools.product(
    ("tracked", "honour"), ("turn_ends", "may_play", "draw_until_playable"), (True, False),
    (False, True), tuple(ACTIONS), (FITS, MISFITS)))


@pytest.mark.parametrize("hands, drawn_card, must_play, retrigger, action, drawn", DRAW_MATRIX)
def test_a_draw_under_every_combination(hands, drawn_card, must_play, retrigger, action, drawn):
    options = {"drawn_card": drawn_card, "must_play": must_play, "retrigger_actions": retrigger}
    g, d, direction = opening(hands, action, options)
    before = list(g.state.counts)
    had = before[d - 1]
    assert g.check({"do": "draw"}) is None  # nothing fits: drawing is always allowed
    g.push({"do": "draw"})
    take(g, drawn)
    assert g.state.counts[d - 1] == had + 1 and conserved(g)
    tracked = hands == "tracked"
    fits = drawn == FITS

    if drawn_card == "draw_until_playable":
        # The drawer keeps the turn: with hands tracked the box sees whether the card
        # fits, with honour hands the players say so by playing or drawing again.
        assert g.awaiting() == d and g.pending is None
        assert not any(e["type"] == "retrigger" for e in g.log)
        if tracked and fits:
            refused = g.check({"do": "draw"})
            assert (refused is not None) == must_play  # now it can play: must it?
            g.push({"do": "play", "card": drawn})
            assert g.awaiting() == after(d, 1, direction, 3)
        return

    if drawn_card == "may_play" and (fits or not tracked):
        # Offered at once: the card itself when the box saw it, else any card that fits.
        assert g.pending == {"kind": "drawn", "player": d, "card": drawn if tracked else None}
        plays = [a for a in g.legal_actions() if a["do"] == "play"]
        assert {"player": d, "do": "play", "card": FITS} in plays
        assert all(a["card"] == FITS for a in plays) if tracked else len(plays) > 1
        g.push({"do": "pass"})  # kept: the turn ends as if the card did not fit
    assert g.pending is None or g.pending["kind"] == "take"

    # The turn has ended without a play: the action on top fires again only when asked.
    refire = retrigger and action is not None
    assert any(e["type"] == "retrigger" for e in g.log) == refire
    if refire and action == "draw_two":
        victim = after(d, 1, direction, 3)
        assert g.pending == {"kind": "take", "player": victim, "count": 2,
                             "reason": "draw_two"} if tracked else \
            g.state.counts[victim - 1] == before[victim - 1] + 2
        take(g, "11_7")
        take(g, "11_8")
        assert g.awaiting() == victim  # Draw Two does not skip the one who drew
    elif refire and action == "skip":
        assert g.awaiting() == after(d, 2, direction, 3)
    elif refire and action == "reverse":
        assert g.state.direction == -direction and g.awaiting() == after(d, 1, -direction, 3)
    else:
        assert g.state.direction == direction and g.awaiting() == after(d, 1, direction, 3)
    assert conserved(g)


@pytest.mark.parametrize("players, reversed_, right", list(itertools.product(
    (2, 3, 4, 5, 6), (False, True), (True, False))))
def test_the_h_reward_goes_next_in_the_direction_of_play(players, reversed_, right):
    """Every table size, both directions: a right guess makes the next player in the
    direction of play draw four; a wrong one costs the guesser a card."""
    hands = [[f"11_{seat}"] for seat in range(players)]
    hands[0] = ["00_reverse" if reversed_ else "00_6", "00_1"]
    guesser = players if reversed_ else 2  # whoever moves after player 1
    if players == 2 and reversed_:
        guesser = 2  # ruling 9 default: two players, a Reverse only flips direction
    hands[guesser - 1] = ["H", "00_3"]
    g = dealt(hands, "00_5", forced=[1])
    g.push({"do": "play", "card": hands[0][0]})
    direction = -1 if reversed_ else 1
    assert g.awaiting() == guesser
    g.push({"do": "play", "card": "H", "qubit": 0})
    g.push({"do": "choose", "value": "01" if right else "00"})  # the outcome is |01>
    if right:
        assert g.pending == {"kind": "take", "player": after(guesser, 1, direction, players),
                             "count": 4, "reason": "h_reward"}
    else:
        assert g.pending == {"kind": "take", "player": guesser, "count": 1,
                             "reason": "h_penalty"}


@pytest.mark.parametrize("hands, win_check, why", list(itertools.product(
    ("tracked", "honour"), ("after_resolution", "on_empty"),
    ("draw", "draw_two", "h_reward", "h_penalty"))))
def test_an_empty_pile_under_fewest_cards_ends_with_a_shared_tie(hands, win_check, why):
    """Whatever makes someone draw from the empty pile, fewest_cards ends the game
    there, and everyone tied for the fewest cards wins."""
    first = {"draw": "11_9", "draw_two": "00_draw_two", "h_reward": "H", "h_penalty": "H"}[why]
    options = {"empty_pile": "fewest_cards", "win_check": win_check, "hands": hands}
    if hands == "tracked":
        g = dealt([[first, "11_1"], ["11_2"], ["11_3", "11_4"]], "00_5", forced=[1],
                  empty_pile="fewest_cards", win_check=win_check)
    else:
        g = Qno(0, {"players": 3, **options}, forced=[1])
        g.push({"do": "turn_up", "card": "00_5"})
        g.state.counts = [2, 1, 2]
    g.state.pile = 0
    if hands == "tracked":
        g.state.unseen = {}
    if why == "draw":
        g.push({"do": "draw"})  # 2 cards in hand while the pile is empty: ends now
        winners = [2]
    else:
        g.push({"do": "play", "card": first, **({"qubit": 0} if first == "H" else {})})
        if first == "H":
            g.push({"do": "choose", "value": "01" if why == "h_reward" else "00"})
        winners = [1, 2]  # player 1 is down to 1 card, as player 2: they share
    assert g.status == "won" and g.state.winners == winners
    assert g.log[-1]["reason"] == "draw pile empty: fewest cards"


@pytest.mark.parametrize("retrigger, two_player_reverse, action", list(itertools.product(
    (False, True), ("no_effect", "skip"), ("reverse", "skip"))))
def test_two_players_retriggered_actions(retrigger, two_player_reverse, action):
    """With two players, Skip and (under ruling 9 skip) Reverse give the mover another
    turn; a mover left with no card that fits draws, and a retriggered action gives
    them yet another. A plain two-player Reverse only turns the direction."""
    g = dealt([[ACTIONS[action], "11_7"], ["11_1", "11_2"]], "00_5",
              retrigger_actions=retrigger, two_player_reverse=two_player_reverse)
    g.push({"do": "play", "card": ACTIONS[action]})
    again = action == "skip" or two_player_reverse == "skip"
    drawer = 1 if again else 2
    assert g.awaiting() == drawer
    g.push({"do": "draw"})
    g.push({"do": "take", "card": MISFITS})
    if again:
        assert g.awaiting() == (1 if retrigger else 2)
    else:
        assert g.awaiting() == 1 and g.state.direction == (1 if retrigger else -1)
