"""The quantum model's words: the kets the display prints for a state, and the clear
message a wrong ship, card or position gets (each pinned against text written by hand)."""

from __future__ import annotations

import pytest

from companion.games.entanglion import quantum


@pytest.mark.parametrize("vec, text", [
    ((0.0, 0.0, 0.0, 0.0), "0"),
    ((0.0, 0.0, 1.0, 0.0), "|10>"),
    ((0.0, 0.0, -1.0, 0.0), "|10>"),  # a global sign is not shown
    ((-0.5, 0.5, 0.5, 0.5), "(|00>-|01>-|10>-|11>)/2"),
    # Equal magnitudes that do not make a unit vector are not a named superposition.
    ((0.5, 0.5, 0.0, 0.0), "0.5|00>+0.5|01>"),
    ((0.6, 0.0, 0.0, -0.8), "0.6|00>-0.8|11>"),
    ((-0.6, 0.8, 0.0, 0.0), "0.6|00>-0.8|01>"),
])
def test_a_state_is_printed_as_a_ket(vec, text):
    assert quantum.ket(vec) == text


def test_a_position_no_board_has_is_refused_by_name():
    with pytest.raises(ValueError, match=r"not a board position: \('PHI_PLUS', 'ZERO'\)"):
        quantum.state_vector(("PHI_PLUS", "ZERO"))
    with pytest.raises(ValueError, match=r"not a board position: \('ZERO', 'PHI_PLUS'\)"):
        quantum.state_vector(("ZERO", "PHI_PLUS"))


def test_a_wrong_ship_or_card_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown ship: 'venus'"):
        quantum.gate_matrix("X", "venus")
    with pytest.raises(ValueError, match="not a gate card: 'PROBE'"):
        quantum.gate_matrix("PROBE", "mercurial")


# Basis |Mercurial Rubicon>: index 2*m + r. CNOT flips the player's ship (the target)
# where the other ship (the control) is 1; SWAP exchanges the ships.
PERMUTATIONS = {
    ("CNOT", "mercurial"): {0: 0, 1: 3, 2: 2, 3: 1},
    ("CNOT", "rubicon"): {0: 0, 1: 1, 2: 3, 3: 2},
    ("SWAP", "mercurial"): {0: 0, 1: 2, 2: 1, 3: 3},
    ("SWAP", "rubicon"): {0: 0, 1: 2, 2: 1, 3: 3},
}


@pytest.mark.parametrize("card, ship", sorted(PERMUTATIONS))
def test_cnot_and_swap_are_the_permutations_of_the_rules(card, ship):
    f = PERMUTATIONS[(card, ship)]
    want = [[1.0 if f[col] == row else 0.0 for col in range(4)] for row in range(4)]
    assert quantum.gate_matrix(card, ship) == want
