"""The analysis after the game: every decision of a finished game weighed by the hint's
own search, the way a chess site's computer analysis reviews a game.

Honest by construction: each decision is judged in the position as it stood then, by
:func:`hint.hints`, which reads nothing hidden (it re-deals the unseen cards and rolls
its own dice), so a choice is never blamed on a card or a die the players could not
know. A decision is an input chosen among two or more that do something (a real die or
a real card typed in is not a decision).

For each decision it keeps the chance to win of the input played and of the search's
best, both from the same search; the win chance along the game is the best's at each
decision (what the position was worth to a team playing well from there). The choice
that cost most is the decision whose input fell furthest below the best.

An :class:`Analysis` works one decision per :meth:`Analysis.step`, so whoever runs it
(the daemon while the box is idle) can stop between any two and go on later. Pure: no
I/O, no clock; labels are in the language in use when it runs.
"""

from __future__ import annotations

from typing import Any, Iterator

from . import hint
from .engine import Entanglion
from .ui import input_names  # the words of the box's menus

DATA_ENTRY = ("roll", "draw")  # prompts where players type what a real die or card showed


def _same(g: Entanglion, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two forms of an input are the same choice (a prompt's answer may be
    journaled by its index or by its value)."""
    def norm(act: dict[str, Any]) -> dict[str, Any]:
        act = {k: v for k, v in act.items() if k != "player"}
        if act.get("do") == "choose" and "index" in act and g.pending:
            act["value"] = g.pending["options"][act.pop("index")]
        return act
    return norm(a) == norm(b)


class Analysis:
    """The analysis of one game, one decision at a time."""

    def __init__(self, seed: int, options: dict[str, Any] | None, setup: dict[str, Any] | None,
                 inputs: list[dict[str, Any]], budget: int = hint.DEFAULT_BUDGET):
        self.budget = budget
        self.inputs = list(inputs)
        self.decisions: list[dict[str, Any]] = []
        self._positions = self._walk(seed, options, setup)
        self._next: tuple[int, Entanglion] | None = next(self._positions, None)

    def _walk(self, seed: int, options: Any, setup: Any) -> Iterator[tuple[int, Entanglion]]:
        g = Entanglion.replay(seed, options, setup, (), [])
        for i, act in enumerate(self.inputs):
            if g.state.status == "playing" and not (
                    g.pending and g.pending["kind"] in DATA_ENTRY) \
                    and len(hint.candidates(g)) > 1:
                yield i, Entanglion.from_dict(g.to_dict())  # the position as it stood
            g.push(act)

    @property
    def done(self) -> bool:
        return self._next is None

    def step(self) -> bool:
        """Weigh the next decision; True when none is left."""
        if self._next is None:
            return True
        i, g = self._next
        self.decisions.append(judge(g, self.inputs[i], i, self.budget))
        self._next = next(self._positions, None)
        return self._next is None

    def result(self) -> dict[str, Any]:
        return summary(self.decisions, self.budget)


def judge(g: Entanglion, played: dict[str, Any], index: int, budget: int) -> dict[str, Any]:
    """One decision: the input played and the best, with their chances to win."""
    found = hint.hints(g, budget, seed=index)
    best = found[0]
    mine = next((h for h in found if _same(g, h["action"], played)), None)
    return {
        "input": index, "turn": g.state.turn_number, "player": g.awaiting(),
        "played": input_names(g, played)[0],
        "played_win": None if mine is None else mine["win"],  # None: it did nothing
        "best": input_names(g, best["action"])[0], "best_win": best["win"],
        "same": mine is best,
    }


def summary(decisions: list[dict[str, Any]], budget: int) -> dict[str, Any]:
    """The analysis as plain data: every decision, the chart, the costliest choice."""
    def cost(d: dict[str, Any]) -> float:
        # An input that did nothing while another did something was not searched: it
        # is charged against the best, as if it had no chance of its own.
        return 0.0 if d["same"] else d["best_win"] - (d["played_win"] or 0.0)

    costliest = max(decisions, key=cost, default=None)
    if costliest is not None and cost(costliest) < 0.005:
        costliest = None  # every choice was as good as the search's (to the point)
    return {"budget": budget, "decisions": decisions,
            "chart": [round(100 * d["best_win"]) for d in decisions],
            "costliest": costliest}


def analyse(seed: int, options: Any, setup: Any, inputs: list[dict[str, Any]],
            budget: int = hint.DEFAULT_BUDGET) -> dict[str, Any]:
    """The whole analysis at once (the command line's)."""
    a = Analysis(seed, options, setup, inputs, budget)
    while not a.step():
        pass
    return a.result()
