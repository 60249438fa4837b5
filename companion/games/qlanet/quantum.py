"""The nine planets as a stabilizer state, in pure Python ints.

Every QLANET card is a real Clifford gate (X, Z, H, CNOT variants, SWAP) or a Pauli
measurement (M on one planet; BM = measuring XX then ZZ on two), so the board is
always a stabilizer state. A state is a list of *generators*: Pauli
operators that leave it unchanged. Each generator is one int::

    bits 0-8    X part, one bit per planet (bit 0 = planet 1)
    bits 9-17   Z part
    bit 18      sign: the generator is (-1)^sign * X^x Z^z
    bit 19      UNKNOWN: this viewer does not know the sign (it is then kept 0)

Writing every Pauli as X^x Z^z (X factors left of Z factors) keeps the arithmetic to
bit operations: CNOT and SWAP never change a sign, and a product picks up
(-1)^popcount(z1 & x2). No S gate exists, so every group element is real and no
phase i is ever needed.

The same list type holds *knowledge* (who sees what). A viewer's knowledge is the group G
of generators they can name plus the subgroup K whose signs they know: K is spanned
by the rows without the UNKNOWN bit, G by all rows, and fewer than 9 rows mean some
directions are not known at all (the hidden centre). The worlds the viewer cannot
rule out are exactly the states stabilised by K whose group lies in +-G; they differ
only by Pauli frames (docs/rules/qlanet.md#who-sees-what). The board's true state
is the same list with 9 rows, all known. Updates never look at the truth, so a
viewer's list is a function of what that viewer saw.
"""

from __future__ import annotations

N = 9
XMASK = (1 << N) - 1
PAULI = (1 << (2 * N)) - 1
SIGN = 1 << (2 * N)
UNKNOWN = 1 << (2 * N + 1)

# Single-planet states as generators: "0" is +Z, "1" is -Z, "+" is +X, "-" is -X.
STATE_GENERATOR = {"0": (0, 0), "1": (0, 1), "+": (1, 0), "-": (1, 1)}  # (is X, sign)
BELL = {"Phi+": (0, 0), "Phi-": (1, 0), "Psi+": (0, 1), "Psi-": (1, 1)}  # (XX sign, ZZ sign)
BELL_NAMES = {signs: name for name, signs in BELL.items()}


class Impossible(ValueError):
    """A measurement outcome that cannot happen in this state (only forced ones can)."""


# ---------------------------------------------------------------- Pauli arithmetic


def xq(q: int) -> int:
    return 1 << q


def zq(q: int) -> int:
    return 1 << (q + N)


def sign_of(g: int) -> int:
    return (g >> (2 * N)) & 1


def mul(a: int, b: int) -> int:
    """Product a*b of two commuting group elements; the UNKNOWN flags are ignored."""
    phase = ((a >> N) & b & XMASK).bit_count() & 1  # Z of a moved past X of b
    return ((a ^ b) & PAULI) | ((((a ^ b) >> (2 * N)) & 1 ^ phase) << (2 * N))


def anticommutes(a: int, v: int) -> bool:
    return (((a & (v >> N)) ^ ((a >> N) & v)) & XMASK).bit_count() & 1 == 1


def _row_mul(row: int, pivot: int) -> int:
    """A generator multiplied by another: unknown if either sign is unknown."""
    if (row | pivot) & UNKNOWN:
        return (mul(row, pivot) & PAULI) | UNKNOWN
    return mul(row, pivot)


# ---------------------------------------------------------------- building states


def product_state(states: list[str | None]) -> list[int]:
    """Generators of a product of single-planet states; None = not known (no row)."""
    gens = []
    for q, s in enumerate(states):
        if s is None:
            continue
        is_x, sign = STATE_GENERATOR[s]
        gens.append((xq(q) if is_x else zq(q)) | (sign << (2 * N)))
    return gens


# ---------------------------------------------------------------- gates (in place)


def apply_x(gens: list[int], q: int) -> None:
    z = zq(q)  # X flips the sign of every generator with a Z (or Y) on q
    gens[:] = [g ^ SIGN if g & z and not g & UNKNOWN else g for g in gens]


def apply_z(gens: list[int], q: int) -> None:
    x = xq(q)
    gens[:] = [g ^ SIGN if g & x and not g & UNKNOWN else g for g in gens]


def apply_h(gens: list[int], q: int) -> None:
    x, z = xq(q), zq(q)
    both = x | z
    out = []
    for g in gens:
        part = g & both
        if part == both:  # XZ -> ZX = -XZ
            if not g & UNKNOWN:
                g ^= SIGN
        elif part:
            g ^= both
        out.append(g)
    gens[:] = out


def apply_cx(gens: list[int], c: int, t: int) -> None:
    """CNOT, control c, target t: X_c -> X_c X_t and Z_t -> Z_c Z_t, signs unchanged."""
    gens[:] = [g ^ (((g >> c) & 1) << t) ^ (((g >> (t + N)) & 1) << (c + N)) for g in gens]


def apply_cx0(gens: list[int], c: int, t: int) -> None:
    """Flip t when c is 0: the CNOT conjugated by X on the control."""
    apply_x(gens, c)
    apply_cx(gens, c, t)
    apply_x(gens, c)


def apply_swap(gens: list[int], a: int, b: int) -> None:
    out = []
    for g in gens:
        for i, j in ((a, b), (a + N, b + N)):
            if ((g >> i) ^ (g >> j)) & 1:
                g ^= (1 << i) | (1 << j)
        out.append(g)
    gens[:] = out


# ---------------------------------------------------------------- linear algebra


def _reduce(basis: dict[int, tuple[int, int]], v: int, outside: int = 0
            ) -> tuple[int, int, int]:
    """Reduce Pauli v by an echelon basis: (residual, element, members) as in _insert."""
    acc, mem = 0, 0
    while v:
        hi = v & outside
        b = (hi or v).bit_length() - 1
        entry = basis.get(b)
        if entry is None:
            return v, acc, mem
        el, m = entry
        v ^= el & PAULI
        # acc = mul(acc, el), inlined: this loop is the engine's and the checks' hot spot
        acc = ((acc ^ el) & (PAULI | SIGN)) ^ ((((acc >> N) & el & XMASK).bit_count() & 1) << (2 * N))
        mem ^= m
    return 0, acc, mem


def _echelon(rows: list[int], outside: int = 0) -> dict[int, tuple[int, int]]:
    """Echelon basis of the group spanned by rows, keyed by pivot bit.

    Pivots prefer bits in ``outside``, so the entries whose pivot is not in
    ``outside`` span exactly the subgroup supported off ``outside``. Each entry is a
    group element with its true sign (products of the rows, flags ignored) and a
    bitmask of the rows it is made of.
    """
    basis: dict[int, tuple[int, int]] = {}
    for i, row in enumerate(rows):
        v, acc, mem = _reduce(basis, row & PAULI, outside)
        if v:
            el = mul(acc, row)
            hi = v & outside
            basis[(hi or v).bit_length() - 1] = (el, mem ^ (1 << i))
    return basis


def find(gens: list[int], v: int) -> tuple[int, int] | None:
    """±v as a product of generators: (element with its sign, bitmask of rows), or None."""
    basis = _echelon(gens)
    rest, acc, mem = _reduce(basis, v)
    if rest:
        return None
    return acc, mem


def known(gens: list[int]) -> list[int]:
    return [g for g in gens if not g & UNKNOWN]


# ---------------------------------------------------------------- measurements


def measure(gens: list[int], v: int, outcome: int | None = None, coin: int = 0,
            learn: bool = True) -> int | None:
    """Measure Pauli v (no sign bits) and update the generators in place.

    ``learn``: the holder of this list sees the outcome. Then ``outcome`` is what was
    seen, or None to let the state decide (a certain outcome, else ``coin``); the
    outcome is returned, and a forced outcome the state rules out raises Impossible.
    Without ``learn`` (someone else's secret Bell measurement) the list only records
    that v now has a definite, unknown sign, and None is returned.
    """
    vx, vz = v & XMASK, (v >> N) & XMASK
    anti = [i for i, g in enumerate(gens) if (((g & vz) ^ ((g >> N) & vx)).bit_count() & 1)]
    if anti:  # the outcome is a fair coin in every world this list allows
        known_rows = [i for i in anti if not gens[i] & UNKNOWN]
        k = known_rows[0] if known_rows else anti[0]
        pivot = gens[k]
        for i in anti:
            if i != k:
                gens[i] = _row_mul(gens[i], pivot)
        if not learn:
            gens[k] = v | UNKNOWN
            return None
        r = coin if outcome is None else outcome
        gens[k] = v | (r << (2 * N))
        return r
    found = find(gens, v)
    if found is None:  # only with unknown directions: the outcome is news
        if not learn:
            gens.append(v | UNKNOWN)
            return None
        r = coin if outcome is None else outcome
        gens.append(v | (r << (2 * N)))
        return r
    el, members = found
    unknown_rows = [i for i in range(len(gens)) if members >> i & 1 and gens[i] & UNKNOWN]
    if not unknown_rows:  # certain
        r = sign_of(el)
        if outcome is not None and outcome != r:
            raise Impossible(f"outcome {outcome} cannot happen (it is certainly {r})")
        return r
    if not learn:
        return None
    r = coin if outcome is None else outcome
    gens[unknown_rows[0]] = v | (r << (2 * N))  # that row's sign is now known via v
    return r


def forget(gens: list[int], v: int) -> None:
    """An unknown Pauli v may have been applied: signs that v flips become unknown."""
    anti = [i for i, g in enumerate(gens) if not g & UNKNOWN and anticommutes(g, v)]
    if not anti:
        return
    k = anti[0]
    pivot = gens[k]
    for i in anti[1:]:
        gens[i] = mul(gens[i], pivot)
    gens[k] = (pivot & PAULI) | UNKNOWN


def measure_z(gens: list[int], q: int, outcome: int | None = None, coin: int = 0,
              learn: bool = True) -> int | None:
    return measure(gens, zq(q), outcome, coin, learn)


# ---------------------------------------------------------------- reading states


def planet_mask(*planets: int) -> int:
    m = 0
    for q in planets:
        m |= xq(q) | zq(q)
    return m


def subgroup_on(rows: list[int], *planets: int) -> list[int]:
    """Elements (with signs) spanning the part of the rows' group acting only on planets."""
    inside = planet_mask(*planets)
    basis = _echelon(rows, PAULI & ~inside)
    return [el for bit, (el, _) in basis.items() if (1 << bit) & inside]


class Reader:
    """Answers "which state does this list pin down?" for one list of generators.

    Only rows with known signs count (the group K); ``structure`` answers with all
    rows (G), ignoring signs: which planets are surely a pure pair, code unknown.
    """

    def __init__(self, gens: list[int]):
        self.rows = known(gens)
        self.all_rows = [g & PAULI for g in gens]
        self._basis = _echelon(self.rows)

    def single(self, q: int) -> str | None:
        """"0", "1", "+" or "-" when K pins planet q down on its own, else None."""
        for v, names in ((zq(q), "01"), (xq(q), "+-")):
            rest, acc, _ = _reduce(self._basis, v)
            if not rest:
                return names[sign_of(acc)]
        return None

    def pair(self, a: int, b: int) -> list[int] | None:
        return self.group((a, b))

    def group(self, planets: tuple[int, ...]) -> list[int] | None:
        """Elements that pin down the joint state of ``planets`` (one per planet), or
        None when their state is not known as a whole."""
        els = subgroup_on(self.rows, *planets)
        return els if len(els) == len(planets) else None

    def inside(self, planets: tuple[int, ...]) -> int:
        """How many independent known elements act only on ``planets``."""
        return len(subgroup_on(self.rows, *planets))

    def structure(self, a: int, b: int) -> bool:
        """Planets a and b surely form an entangled pair (pure together, not alone)."""
        return (len(subgroup_on(self.all_rows, a, b)) == 2
                and not subgroup_on(self.all_rows, a))


def _act(el: int, planets: tuple[int, ...], basis: int) -> tuple[int, int]:
    """(-1)^s X^x Z^z on a basis state of ``planets`` (the first planet is the highest
    bit, the leftmost digit of the ket)."""
    n = len(planets)
    x = z = 0
    for i, q in enumerate(planets):
        x |= ((el >> q) & 1) << (n - 1 - i)
        z |= ((el >> (q + N)) & 1) << (n - 1 - i)
    sign = sign_of(el) ^ ((z & basis).bit_count() & 1)
    return basis ^ x, -1 if sign else 1


def ket(els: list[int], planets: tuple[int, ...]) -> str:
    """The state of ``planets`` fixed by as many elements, as "|000>+|111>" (first
    planet first). Terms are in basis order with the first sign positive (a global
    phase), so the four Bell states read as in the app: |00>+|11>, |00>-|11>,
    |01>+|10>, |01>-|10>."""
    n = len(planets)
    for start in range(1 << n):
        amps = {start: 1}
        for el in els:  # apply (I + el) for each generator: the projector up to scale
            nxt = dict(amps)
            for basis, amp in amps.items():
                to, sign = _act(el, planets, basis)
                nxt[to] = nxt.get(to, 0) + sign * amp
            amps = {k: v for k, v in nxt.items() if v}
        if amps:
            break
    terms = sorted(amps.items())
    flip = -1 if terms[0][1] < 0 else 1
    out = ""
    for i, (basis, amp) in enumerate(terms):
        term = f"|{basis:0{n}b}>"
        out += term if i == 0 else ("+" if amp * flip > 0 else "-") + term
    return out


def pair_ket(els: list[int], a: int, b: int) -> str:
    """The two-planet state fixed by two elements (planet a first); see :func:`ket`."""
    return ket(els, (a, b))


def bell_name(els: list[int], a: int, b: int) -> str | None:
    """"Phi+" etc. when the pair is a Bell state, else None."""
    signs = []
    for v in (xq(a) | xq(b), zq(a) | zq(b)):
        basis = _echelon(els)
        rest, acc, _ = _reduce(basis, v)
        if rest:
            return None
        signs.append(sign_of(acc))
    return BELL_NAMES[(signs[0], signs[1])]


def canonical(els: list[int]) -> list[int]:
    """The reduced echelon generators of the group ``els`` span (with their signs): the
    same list for the same group whatever generators it was given by."""
    rows = [el & (PAULI | SIGN) for el in els]
    out: list[int] = []
    for bit in range(2 * N - 1, -1, -1):
        at = next((i for i, r in enumerate(rows) if (r >> bit) & 1), None)
        if at is None:
            continue
        pivot = rows.pop(at)
        rows = [mul(r, pivot) if (r >> bit) & 1 else r for r in rows]
        out = [mul(o, pivot) if (o >> bit) & 1 else o for o in out]
        out.append(pivot)
    return out


def contains(gens: list[int], el: int) -> bool:
    """Whether the signed Pauli ``el`` is in the group (sign included unless UNKNOWN)."""
    found = find(gens, el & PAULI)
    if found is None:
        return False
    return bool(el & UNKNOWN) or sign_of(found[0]) == sign_of(el)


def describe(g: int) -> str:
    """One generator for people: "+XX.......", "-YY.......", "?ZZ......."."""
    chars = []
    ys = 0
    for q in range(N):
        x, z = (g >> q) & 1, (g >> (q + N)) & 1
        chars.append(".XZY"[x | (z << 1)])
        ys += x & z
    if g & UNKNOWN:
        sign = "?"
    else:  # XZ = -iY on each Y planet; real groups have an even number of them
        sign = "-" if (sign_of(g) + ys // 2) & 1 else "+"
    return sign + "".join(chars)



class Group:
    """The group a list of generators spans, ready for many membership questions."""

    def __init__(self, gens: list[int]):
        self.gens = gens
        self._basis = _echelon(gens)
        # Most questions are about a generator itself: answer those without algebra.
        self._rows = {g for g in gens if not g & UNKNOWN}
        self._paulis = {g & PAULI for g in gens}

    @property
    def rank(self) -> int:
        return len(self._basis)

    def outside(self, els: list[int]) -> int | None:
        """The first of ``els`` not in the group (sign included unless the element is
        UNKNOWN), or None: a viewer's knowledge must lie inside the truth."""
        for el in els:
            if el in self._rows or (el & UNKNOWN and el & PAULI in self._paulis):
                continue
            rest, acc, _ = _reduce(self._basis, el & PAULI)
            if rest or (not el & UNKNOWN and sign_of(acc) != sign_of(el)):
                return el
        return None

    def commuting(self) -> bool:
        for i, a in enumerate(self.gens):
            ax, az = a & XMASK, (a >> N) & XMASK
            for b in self.gens[i + 1:]:
                if ((ax & (b >> N)) ^ (az & b)).bit_count() & 1:
                    return False
        return True


def outside(gens: list[int], els: list[int]) -> int | None:
    return Group(gens).outside(els)


def is_pure_state(gens: list[int], group: Group | None = None) -> bool:
    """9 known, independent, commuting generators: a normalised pure stabilizer state."""
    if len(gens) != N or any(g & UNKNOWN for g in gens):
        return False
    group = group or Group(gens)
    return group.commuting() and group.rank == N
