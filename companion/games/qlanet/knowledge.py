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
  player sees it, the opponent does not. ``bell`` names it (``"Phi+"``, ``"Phi-"``,
  ``"Psi+"``, ``"Psi-"``) when it is one of the four Bell states (after an H on one half
  it is not, ruling D7). With the option ``secret_pairs: "entangled"``, a viewer who
  knows two planets are a pair but not their code sees ``"entangled"`` with
  ``code``/``bell`` None; by default (as in the app) they see ``"?"``.

The rule: a planet shows a state when it is the same in every world the
viewer cannot rule out, an entangled pair when the pair's joint state is the same in
every such world, else "?". A planet in an entangled group of three or more planets
therefore shows "?" even when its group is known (the rules name singles and pairs
only); ``report`` prints the true stabilizers for debugging. The answer is a pure
function of the viewer's knowledge list, which is built from public events plus that
viewer's own secrets, so the spectator view never depends on a hidden outcome.
"""

from __future__ import annotations

from typing import Any

from .quantum import Reader, bell_name, pair_ket

VIEWER_KEYS = {0: "0", 1: "1", "0": "0", "1": "1", "spectator": "spectator", "truth": "truth"}


def viewer_key(viewer: Any) -> str:
    if isinstance(viewer, bool) or viewer not in VIEWER_KEYS:
        raise ValueError(f"unknown viewer {viewer!r} (0, 1, 'spectator' or 'truth')")
    return VIEWER_KEYS[viewer]


def _entry(q: int, shown: str, fixed: bool = False, partner: int | None = None,
           code: str | None = None, bell: str | None = None) -> dict[str, Any]:
    return {"planet": q + 1, "shown": shown, "fixed": fixed,
            "entangled_with": None if partner is None else partner + 1,
            "code": code, "bell": bell}


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
                code, bell = pair_ket(els, a, b), bell_name(els, a, b)
                out[a] = _entry(a, "entangled", partner=b, code=code, bell=bell)
                out[b] = _entry(b, "entangled", partner=a, code=code, bell=bell)
                break
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


def shown(game: Any, viewer: Any) -> list[str]:
    """Just the icons, planet 1 first: ``["+", "+", "-", "-", "?", ...]``."""
    return [e["shown"] for e in view(game, viewer)]
