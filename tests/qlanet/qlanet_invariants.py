"""Invariants of a QLANET game, checked after every step of the random games."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.qlanet import quantum as qm
from companion.games.qlanet import view

COSTS = {"X": 6, "H": 3, "Z": 2, "M": 10, "CX0": 3, "CX1": 3, "SW": 4, "BM": 8}
LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
SINGLE = {"0": (0, 0), "1": (0, 1), "+": (1, 0), "-": (1, 1)}  # (is X, sign)


def snapshot(g) -> dict[str, Any]:
    s = g.state
    return {"fixed": s.fixed[:], "costs": s.costs[:], "turn": s.turn_player,
            "number": s.turn_number}


def card_cost(card: str, options: dict[str, Any]) -> int:
    return options["cx_cost"] if card in ("CX0", "CX1") else COSTS[card]


LINE_MASKS = [sum(1 << (p - 1) for p in line) for line in LINES]


def winning(fixed: list[int | None], camp: int) -> bool:
    mask = sum(1 << q for q, f in enumerate(fixed) if f == camp)
    return any(mask & m == m for m in LINE_MASKS) or mask.bit_count() >= 5


def single_generator(q: int, state: str) -> int:
    is_x, sign = SINGLE[state]
    return (qm.xq(q) if is_x else qm.zq(q)) | (sign << 18)


def check_step(g, before: dict[str, Any], new: list[dict[str, Any]]) -> None:
    """Rules bookkeeping for one step: fixed flags, costs, turn order, hands, wins."""
    s, opts = g.state, g.state.options
    mover = before["turn"]
    kinds = [e["type"] for e in new]
    assert kinds[0] in ("play", "discard"), kinds
    act = new[0]
    assert act["player"] == mover
    # Fixed planets never change; only an M fixes one, and the one it measured.
    newly = [q for q in range(9) if before["fixed"][q] is None and s.fixed[q] is not None]
    for q in range(9):
        if before["fixed"][q] is not None:
            assert s.fixed[q] == before["fixed"][q], f"fixed planet {q + 1} changed"
    if act["type"] == "play" and act["card"] == "M":
        assert newly == [act["planets"][0] - 1]
        m = next(e for e in new if e["type"] == "measure")
        assert s.fixed[newly[0]] == m["result"]
    else:
        assert newly == [], "a planet was fixed without an M"
    # Costs: the mover pays the card (a free discard under discard_free), nobody else.
    price = card_cost(act["card"], opts)
    if act["type"] == "discard" and opts["no_legal_play"] == "discard_free":
        price = 0
    assert act["cost"] == price
    assert s.costs[mover] == before["costs"][mover] + price
    assert s.costs[1 - mover] == before["costs"][1 - mover]
    assert act["total"] == s.costs[mover]
    # Hands stay full and face up; a refill was logged.
    assert [len(h) for h in s.hands] == [opts["hand_size"]] * 2
    assert sum(1 for e in new if e["type"] == "refill") == 1
    if opts["refill"] == "deck":
        held = Counter(s.deck) + Counter(s.discard) + Counter(s.hands[0]) + Counter(s.hands[1])
        assert held == Counter(dict.fromkeys(COSTS, 6)), "the 48-card deck lost or gained cards"
    # Win check for both camps after every turn.
    wins = [c for c in (0, 1) if winning(s.fixed, c)]
    if s.status == "playing":
        assert not wins, f"camp(s) {wins} meet a win condition but the game goes on"
        other = 1 - mover
        expect = other if s.costs[other] < s.costs[mover] else mover
        assert s.turn_player == expect, "the lower total moves next; a tie: the same player"
        assert s.turn_number == before["number"] + 1
        assert g.awaiting() == expect
        assert new[-1] == {"type": "turn", "player": expect, "number": s.turn_number}
    else:
        assert s.status == "won" and s.winners and g.awaiting() is None
        assert kinds[-2:] == ["game_over", "reveal"]
        if wins:
            if len(wins) == 2 and opts["simultaneous_win"] == "non_mover":
                wins = [1 - mover]
            assert s.winners == wins
        else:  # a cap (D14)
            assert opts["move_cap"] is not None or opts["cost_cap"] is not None


def check_quantum(g) -> None:
    """The true state is a normalised stabilizer state agreeing with the fixed flags, and
    every viewer's knowledge lies inside it (so no view can show a wrong state)."""
    s = g.state
    truth = qm.Group(s.truth)  # one elimination of the truth for every question
    assert qm.is_pure_state(s.truth, truth), "the true state is not a normalised 9-qubit state"
    fixed = [qm.zq(q) | (f << 18) for q, f in enumerate(s.fixed) if f is not None]
    claims = fixed + [g for gens in s.knowledge.values() for g in gens]
    bad = truth.outside(claims)
    assert bad is None, (
        "a fixed planet is not in its fixed state" if bad in fixed else
        f"a viewer 'knows' {qm.describe(bad)}, which is false on the board")


def check_views(g) -> None:
    """What every view shows is true, and the spectator never knows more than a camp."""
    s = g.state
    fixed = [qm.zq(q) | (f << 18) for q, f in enumerate(s.fixed) if f is not None]
    for viewer, gens in s.knowledge.items():
        assert qm.outside(gens, fixed) is None, f"{viewer} does not know a fixed planet"
    truth = {e["planet"]: e for e in view(g, "truth")}
    views = {v: view(g, v) for v in (0, 1, "spectator")}
    for viewer, planets in views.items():
        for e in planets:
            q, shown = e["planet"] - 1, e["shown"]
            if shown in SINGLE:
                assert qm.outside(s.truth, [single_generator(q, shown)]) is None, (
                    f"{viewer} is shown {shown} on planet {q + 1}, which is not so")
                assert not e["fixed"] and s.fixed[q] is None
            elif shown in ("F0", "F1"):
                assert e["fixed"] and s.fixed[q] == int(shown[1])
            elif shown == "entangled":
                p = e["entangled_with"]
                if e["code"] is not None:
                    assert truth[q + 1]["shown"] == "entangled"
                    assert truth[q + 1]["entangled_with"] == p
                    assert truth[q + 1]["code"] == e["code"], (
                        f"{viewer} is shown code {e['code']} on {q + 1}-{p}, truth "
                        f"{truth[q + 1]['code']}")
                else:
                    assert s.options["secret_pairs"] == "entangled"
                    assert truth[q + 1]["entangled_with"] == p
            else:
                assert shown == "?" and e["code"] is None
    for camp in (0, 1):
        for pub, own in zip(views["spectator"], views[camp]):
            if pub["shown"] != "?":
                assert own["shown"] == pub["shown"], "a camp knows less than the public"
