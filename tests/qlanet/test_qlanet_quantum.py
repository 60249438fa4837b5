"""The stabilizer simulator against plain 512-amplitude arithmetic, and the knowledge
primitives (unknown signs, Pauli frames)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qlanet_helpers import Dense

from companion.games.qlanet import quantum as qm

STATES = ("0", "1", "+", "-")
OPS = st.lists(st.tuples(st.sampled_from(["x", "z", "h", "cx", "cx0", "swap", "m", "bm"]),
                         st.integers(0, 8), st.integers(0, 8), st.integers(0, 3)),
               max_size=30)


def apply(gens: list[int], dense: Dense, op: str, a: int, b: int, bit: int) -> None:
    """One operation on both simulators; measurement outcomes follow the dense Born rule."""
    if op in ("cx", "cx0", "swap", "bm") and a == b:
        return
    if op == "x":
        qm.apply_x(gens, a)
        dense.x(a)
    elif op == "z":
        qm.apply_z(gens, a)
        dense.z(a)
    elif op == "h":
        qm.apply_h(gens, a)
        dense.h(a)
    elif op == "cx":
        qm.apply_cx(gens, a, b)
        dense.cx(a, b, 1)
    elif op == "cx0":
        qm.apply_cx0(gens, a, b)
        dense.cx(a, b, 0)
    elif op == "swap":
        qm.apply_swap(gens, a, b)
        dense.swap(a, b)
    elif op == "m":
        measure(gens, dense, 0, 1 << a, qm.zq(a), bit & 1)
    else:
        pair = (1 << a) | (1 << b)
        measure(gens, dense, pair, 0, qm.xq(a) | qm.xq(b), bit & 1)
        measure(gens, dense, 0, pair, qm.zq(a) | qm.zq(b), bit >> 1)


def measure(gens, dense, xmask, zmask, v, want):
    probe = Dense(["0"] * 9)
    probe.v = dense.v[:]
    p = probe.project(xmask, zmask, want)
    r = want if p > 1e-9 else 1 - want
    certain = p < 1e-9 or p > 1 - 1e-9
    if certain:  # the tableau must refuse the impossible outcome
        with pytest.raises(qm.Impossible):
            qm.measure(gens[:], v, 1 - r)
    assert qm.measure(gens, v, r) == r
    dense.project(xmask, zmask, r)


@settings(max_examples=150, deadline=None)
@given(start=st.lists(st.sampled_from(STATES), min_size=9, max_size=9), ops=OPS)
def test_tableau_matches_dense_amplitudes(start, ops):
    gens = qm.product_state(start)
    dense = Dense(start)
    for op in ops:
        apply(gens, dense, *op)
        assert qm.is_pure_state(gens)
    assert abs(dense.norm() - 1) < 1e-9
    for g in gens:
        assert dense.stabilised_by(g), qm.describe(g)


@settings(max_examples=150, deadline=None)
@given(start=st.lists(st.sampled_from(STATES), min_size=9, max_size=9), ops=OPS,
       hidden=st.lists(st.integers(0, 8), max_size=3), secret=st.lists(st.booleans(), max_size=30))
def test_knowledge_stays_inside_the_truth(start, ops, hidden, secret):
    """A viewer who misses some outcomes (a secret BM, unknown start planets) never
    'knows' a sign the truth does not have, and knows everything when nothing is hidden."""
    truth = qm.product_state(start)
    viewer = qm.product_state([None if q in hidden else s for q, s in enumerate(start)])
    told = not hidden
    for i, (op, a, b, bit) in enumerate(ops):
        if op in ("cx", "cx0", "swap", "bm") and a == b:
            continue
        keep = i < len(secret) and secret[i]
        if op in ("m", "bm"):
            vs = [qm.zq(a)] if op == "m" else [qm.xq(a) | qm.xq(b), qm.zq(a) | qm.zq(b)]
            for k, v in enumerate(vs):
                r = qm.measure(truth, v, None, (bit >> k) & 1)
                if keep and op == "bm":  # someone else's secret
                    qm.measure(viewer, v, learn=False)
                    told = False
                else:
                    qm.measure(viewer, v, r)
        else:
            fn = {"x": qm.apply_x, "z": qm.apply_z, "h": qm.apply_h}.get(op)
            for gens in (truth, viewer):
                if fn:
                    fn(gens, a)
                else:
                    {"cx": qm.apply_cx, "cx0": qm.apply_cx0, "swap": qm.apply_swap}[op](gens, a, b)
        assert qm.outside(truth, viewer) is None
        if told:
            assert qm.Group(qm.known(viewer)).rank == 9  # it knows the whole state


def test_certain_and_random_measurements():
    gens = qm.product_state(["0", "+"] + ["0"] * 7)
    assert qm.measure(gens[:], qm.zq(0), None, coin=1) == 0  # certain: the coin is ignored
    with pytest.raises(qm.Impossible, match="certainly 0"):
        qm.measure(gens[:], qm.zq(0), 1)
    assert qm.measure(gens[:], qm.zq(1), None, coin=1) == 1  # random: the coin decides
    g2 = gens[:]
    qm.measure(g2, qm.zq(1), 0)
    assert qm.Reader(g2).single(1) == "0"


def test_unknown_outcomes_and_learning():
    viewer = qm.product_state(["0", "+"] + ["0"] * 7)
    xx, zz = qm.xq(0) | qm.xq(1), qm.zq(0) | qm.zq(1)
    qm.measure(viewer, xx, learn=False)
    qm.measure(viewer, zz, learn=False)
    r = qm.Reader(viewer)
    assert r.single(0) is None and r.pair(0, 1) is None and r.structure(0, 1)
    # Mixed-type inputs: neither sign is known; learning both pins the pair down.
    assert qm.measure(viewer, xx, 1) == 1 and qm.measure(viewer, zz, 0) == 0
    els = qm.Reader(viewer).pair(0, 1)
    assert qm.pair_ket(els, 0, 1) == "|00>-|11>" and qm.bell_name(els, 0, 1) == "Phi-"
    # A planet nobody knows: measuring it is news (a new row), certain afterwards.
    blind = qm.product_state([None] + ["0"] * 8)
    assert len(blind) == 8 and qm.measure(blind, qm.zq(0), 1) == 1 and len(blind) == 9
    assert qm.measure(blind, qm.zq(0), None) == 1


def test_forget_makes_flipped_signs_unknown():
    gens = qm.product_state(["0", "0"] + ["+"] * 7)
    qm.apply_h(gens, 0)
    qm.apply_cx(gens, 0, 1)  # Phi+ on 0, 1
    qm.forget(gens, qm.xq(1))  # an unknown X on 1 may have happened: ZZ's sign is lost
    r = qm.Reader(gens)
    assert r.pair(0, 1) is None and r.structure(0, 1) and r.single(2) == "+"
    assert qm.outside(qm.product_state(["0", "0"] + ["+"] * 7), []) is None


@pytest.mark.parametrize("name,ket", [("Phi+", "|00>+|11>"), ("Phi-", "|00>-|11>"),
                                      ("Psi+", "|01>+|10>"), ("Psi-", "|01>-|10>")])
def test_bell_kets(name, ket):
    sx, sz = qm.BELL[name]
    els = [qm.xq(2) | qm.xq(7) | (sx << 18), qm.zq(2) | qm.zq(7) | (sz << 18)]
    assert qm.pair_ket(els, 2, 7) == ket and qm.bell_name(els, 2, 7) == name


def test_describe():
    assert qm.describe(qm.xq(0) | qm.xq(1) | qm.SIGN) == "-XX......."
    yy = qm.xq(0) | qm.xq(1) | qm.zq(0) | qm.zq(1)  # X^x Z^z = (XZ)(XZ) = -YY
    assert qm.describe(yy) == "-YY......."
    assert qm.describe(qm.zq(8) | qm.UNKNOWN) == "?........Z"


def test_a_measurement_keeps_what_the_viewer_knows_by_pivoting_on_a_known_sign():
    """Three rows anticommute with Z0: X0 with an unknown sign (after someone else's
    secret), X0X1 and X0X2 with known signs. The measurement must replace a known row,
    so the known product X1X2 survives; pivoting on the unknown row would wrongly
    turn every other sign unknown, and the viewer would be told a coin where it knows."""
    x12 = qm.xq(1) | qm.xq(2)
    gens = [qm.xq(0) | qm.UNKNOWN, qm.xq(0) | qm.xq(1), qm.xq(0) | qm.xq(2) | qm.SIGN]
    gens += [qm.zq(q) for q in range(3, 9)]
    assert qm.measure(gens, qm.zq(0), 1) == 1
    assert qm.Group(qm.known(gens)).rank == 8  # Z0 learnt, X1X2 kept, X0 still unknown
    assert qm.measure(gens[:], x12, None, coin=0) == 1  # -X1X2: certain, the coin ignored
    assert qm.measure(gens[:], x12, None, coin=1) == 1
    assert {qm.measure(gens[:], qm.xq(1), None, coin=c) for c in (0, 1)} == {0, 1}  # X1: not


def test_canonical_generators_depend_on_the_group_not_on_how_it_was_given():
    """A group given twice, once by redundant and multiplied-together generators (signs
    and the highest Z bit included), reduces to one list: a pivot per element, every
    other element free of it."""
    xx, zz = qm.xq(0) | qm.xq(1), qm.zq(0) | qm.zq(1)
    minus_z8, x5 = qm.zq(8) | qm.SIGN, qm.xq(5)
    plain = [xx, zz, minus_z8, x5]
    mixed = [qm.mul(xx, zz), zz, qm.mul(minus_z8, zz), xx, qm.mul(x5, xx), xx]
    want = ["-........Z", "+ZZ.......", "+.....X...", "+XX......."]
    assert [qm.describe(e) for e in qm.canonical(plain)] == want
    assert [qm.describe(e) for e in qm.canonical(mixed)] == want
    assert qm.canonical([]) == []
    two_signs = [qm.zq(0) | qm.SIGN, qm.zq(1) | qm.SIGN]  # signs are not a pivot column
    assert [qm.describe(e) for e in qm.canonical(two_signs)] == ["-.Z.......", "-Z........"]


def test_contains_checks_the_sign_unless_it_is_unknown():
    gens = [qm.xq(0) | qm.xq(1), qm.zq(0) | qm.zq(1), qm.zq(8) | qm.SIGN]
    assert qm.contains(gens, qm.zq(8) | qm.SIGN) and not qm.contains(gens, qm.zq(8))
    assert qm.contains(gens, qm.zq(8) | qm.UNKNOWN)  # only whether it is in the group
    assert qm.contains(gens, qm.mul(gens[0], gens[1]))  # a product: -YY
    assert not qm.contains(gens, qm.zq(3)) and not qm.contains(gens, qm.zq(0))


def test_structure_means_entangled_with_each_other_only():
    gens = qm.product_state(["+", "0"] + ["0"] * 7)
    r = qm.Reader(gens)
    assert not r.structure(0, 1)  # two planets each in a known state: no pair
    qm.apply_cx(gens, 0, 1)  # Phi+ on planets 1 and 2
    assert qm.Reader(gens).structure(0, 1) and not qm.Reader(gens).structure(0, 2)


def test_outside_names_the_first_element_the_group_lacks():
    """The check behind "a viewer knows nothing the truth does not have": an element is
    inside when the group holds it with that sign, or at all when its sign is unknown."""
    group = qm.Group(qm.product_state(["0", "+"] + ["0"] * 7))  # Z0, X1, Z2..Z8
    z0z2 = qm.zq(0) | qm.zq(2)
    assert group.outside([qm.zq(0), qm.xq(1), z0z2, z0z2 | qm.UNKNOWN | qm.SIGN]) is None
    assert group.outside([qm.zq(0) | qm.SIGN]) == qm.zq(0) | qm.SIGN  # a row, other sign
    assert group.outside([z0z2 | qm.SIGN]) == z0z2 | qm.SIGN  # a product, other sign
    assert group.outside([qm.xq(0) | qm.UNKNOWN]) == qm.xq(0) | qm.UNKNOWN  # not in it at all
    assert group.outside([qm.zq(0), qm.xq(0), qm.zq(3)]) == qm.xq(0)  # the first one lacking
    assert qm.outside([qm.zq(0)], [qm.zq(0), qm.zq(1)]) == qm.zq(1)


def test_a_pure_state_needs_every_pair_of_generators_to_commute():
    gens = qm.product_state(["0"] * 9)
    assert qm.is_pure_state(gens)
    gens[2] = qm.xq(0) | qm.zq(2)  # anticommutes with Z0 alone, still independent
    assert qm.Group(gens).rank == 9 and not qm.is_pure_state(gens)
    gens = qm.product_state(["0"] * 9)
    gens[1] = qm.xq(0) | qm.zq(1)  # the neighbouring pair
    assert not qm.is_pure_state(gens)
    full = qm.product_state(["0"] * 9)
    assert not qm.is_pure_state(full[:8])  # a planet nobody knows
    assert not qm.is_pure_state(full[:8] + [full[8] | qm.UNKNOWN])  # a sign nobody knows


def test_kets_of_three_planets_read_as_the_state_they_are():
    gens = qm.product_state(["+", "0", "1"] + ["0"] * 6)
    assert qm.ket(qm.subgroup_on(gens, 0, 1, 2), (0, 1, 2)) == "|001>+|101>"  # (|0>+|1>)|0>|1>
    gens = qm.product_state(["1", "+", "1"] + ["0"] * 6)
    qm.apply_cx(gens, 2, 0)  # planet 3 is 1: planet 1 flips to 0
    qm.apply_h(gens, 0)  # |+>|+>|1>
    assert qm.ket(qm.subgroup_on(gens, 0, 1, 2), (0, 1, 2)) == "|001>+|011>+|101>+|111>"
