"""Who sees what (docs/rules/qlanet.md): the per-viewer board, the one function UIs call.

``view(game, viewer)`` returns the 9 planets as one viewer may be shown them::

    {"planet": 5, "shown": "?", "fixed": False,
     "entangled_with": None, "code": None, "bell": None}

* ``viewer``: ``0`` or ``1`` (a camp's private view), ``"spectator"`` (the public
  board: what the shared LEDs and OLED show), or ``"truth"`` (the device's own view,
  for debugging and the end-of-game reveal; never show it during play).
* ``shown``: ``"F0"``/``"F1"`` for a fixed planet; ``"0"``, ``"1"``, ``"+"``, ``"-"``
  when the viewer knows the planet is in that state; ``"entangled"`` when the viewer
  knows the planet forms an entangled pair with ``entangled_with`` (a planet number);
  otherwise ``"?"``.
* ``code``: for an entangled pair whose joint state the viewer knows, the ket with the
  lower-numbered planet first, e.g. ``"|01>-|10>"`` (the app's "secret code"); the BM
  player sees it, the opponent does not. ``group``: the planets of an entangled group
  whose joint state the viewer knows, lowest first (two for a pair, or more); its
  ``code`` is the group's ket, e.g. ``"|000>+|111>"``, and each planet's
  ``entangled_with`` is the next planet of the group (the last names the first). ``bell`` names it (``"Phi+"``, ``"Phi-"``,
  ``"Psi+"``, ``"Psi-"``) when it is one of the four Bell states (after an H on one half
  it is not, ruling D7). With the option ``secret_pairs: "entangled"``, a viewer who
  knows two planets are a pair but not their code sees ``"entangled"`` with
  ``code``/``bell`` None; by default (as in the app) they see ``"?"``.

The rule: a planet shows a state when it is the same in every world the
viewer cannot rule out, an entangled pair when the pair's joint state is the same in
every such world, else "?". The rules name singles and pairs only; a group of three
or more planets whose joint state is known (a CX from one half of a secret pair to a
third planet makes one) is shown the same way, the smallest such groups first, so
the BM player keeps seeing their secret after it grows and the end-of-game reveal
shows it too. A ket of more than :data:`MAX_TERMS` terms is given as its stabilizer
generators instead (``"+XZX -ZZ."``), which fit a small screen. The answer is a pure
function of the viewer's knowledge list, which is built from public events plus that
viewer's own secrets, so the spectator view never depends on a hidden outcome.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .quantum import Reader, bell_name, canonical, describe, ket

MAX_TERMS = 8  # a longer ket does not fit a small screen: its generators are shown

VIEWER_KEYS = {0: "0", 1: "1", "0": "0", "1": "1", "spectator": "spectator", "truth": "truth"}


def viewer_key(viewer: Any) -> str:
    if isinstance(viewer, bool) or viewer not in VIEWER_KEYS:
        raise ValueError(f"unknown viewer {viewer!r} (0, 1, 'spectator' or 'truth')")
    return VIEWER_KEYS[viewer]


def _entry(q: int, shown: str, fixed: bool = False, partner: int | None = None,
           code: str | None = None, bell: str | None = None,
           group: tuple[int, ...] | None = None) -> dict[str, Any]:
    return {"planet": q + 1, "shown": shown, "fixed": fixed,
            "entangled_with": None if partner is None else partner + 1,
            "code": code, "bell": bell,
            "group": None if group is None else [p + 1 for p in group]}


def _code(els: list[int], planets: tuple[int, ...]) -> str:
    """The group's ket, or its generators when the ket would be too long to read."""
    text = ket(els, planets)
    if text.count("|") <= MAX_TERMS:
        return text
    return " ".join(_restricted(describe(el), planets) for el in canonical(els))


def _restricted(gen: str, planets: tuple[int, ...]) -> str:
    """A generator written on ``planets`` only (its sign, then one letter each)."""
    return gen[0] + "".join(gen[1 + q] for q in planets)


def view(game: Any, viewer: Any) -> list[dict[str, Any]]:
    """The 9 planets as ``viewer`` may see them (``game`` is a Qlanet or its State)."""
    s = getattr(game, "state", game)
    key = viewer_key(viewer)
    gens = s.truth if key == "truth" else s.knowledge[key]
    reader = Reader(gens)
    out: list[dict[str, Any] | None] = [None] * 9
    open_: list[int] = []
    for q in range(9):
        f = s.fixed[q]
        if f is not None:
            out[q] = _entry(q, f"F{f}", fixed=True)
            continue
        state = reader.single(q)
        if state is not None:
            out[q] = _entry(q, state)
        else:
            open_.append(q)
    for i, a in enumerate(open_):
        if out[a] is not None:
            continue
        for b in open_[i + 1:]:
            if out[b] is not None:
                continue
            els = reader.pair(a, b)
            if els is not None:
                code, bell = _code(els, (a, b)), bell_name(els, a, b)
                out[a] = _entry(a, "entangled", partner=b, code=code, bell=bell, group=(a, b))
                out[b] = _entry(b, "entangled", partner=a, code=code, bell=bell, group=(a, b))
                break
    _groups(reader, [q for q in open_ if out[q] is None], out)
    if key != "truth" and s.options["secret_pairs"] == "entangled":
        for i, a in enumerate(open_):
            if out[a] is not None:
                continue
            for b in open_[i + 1:]:
                if out[b] is None and reader.structure(a, b):
                    out[a] = _entry(a, "entangled", partner=b)
                    out[b] = _entry(b, "entangled", partner=a)
                    break
    return [e if e is not None else _entry(q, "?") for q, e in enumerate(out)]


def _groups(reader: Reader, rest: list[int], out: list[dict[str, Any] | None]) -> None:
    """Known groups of three or more among the planets ``rest`` (smallest first)."""
    for size in range(3, len(rest) + 1):
        free = [q for q in rest if out[q] is None]
        if len(free) < size or reader.inside(tuple(free)) < size:
            return  # too few known elements among them for a group this big
        for group in combinations(free, size):
            if any(out[q] is not None for q in group):
                continue
            els = reader.group(group)
            if els is None:
                continue
            code = _code(els, group)
            for i, q in enumerate(group):
                out[q] = _entry(q, "entangled", partner=group[(i + 1) % size], code=code,
                                group=group)


def shown(game: Any, viewer: Any) -> list[str]:
    """Just the icons, planet 1 first: ``["+", "+", "-", "-", "?", ...]``."""
    return [e["shown"] for e in view(game, viewer)]
