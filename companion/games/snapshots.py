"""The one input/undo cycle of every game engine, and its playout mode.

Each engine keeps everything in a plain-data ``State`` with a cheap ``clone()``. An
input runs on a clone, so the state before it stays untouched and *is* the undo
snapshot: undo puts it back, chance included. A subclass supplies ``illegal`` (its
IllegalAction class), ``_normalise``, ``_reason``, ``_perform`` and ``_log``, and sets
``state``, ``log``, ``inputs`` and ``_history`` in its constructor. An engine that
keeps more than ``state`` between inputs (Entanglion's interrupted input and prompt)
widens ``_snapshot``/``_restore`` and runs the input in its own ``_apply``.

Playout mode (:meth:`SnapshotEngine.playout_copy`) is the same rules on the same state
for look-ahead: an input is trusted to be one of ``legal_actions()``, so it is neither
normalised nor checked, no log entry is kept, and no undo history is held.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Any, Iterable, Iterator


def _unlogged(type_: str, **data: Any) -> dict[str, Any]:
    # The playout mode's ``_log``: callers may still fill in the entry they get back.
    return data


class SnapshotEngine:
    illegal: type[Exception]
    state: Any
    log: list[dict[str, Any]]
    inputs: list[dict[str, Any]]
    _history: list[Any]  # one ``_snapshot()`` per accepted input
    # True in playout mode: ``_log`` keeps nothing, so hot callers may skip building
    # an entry. An engine whose ``legal_actions`` copies shared action dicts for its
    # callers supplies the uncopied list as ``_legal``, a playout copy's legal_actions.
    playout = False
    # Also supplied by the engine: _normalise(action) -> act, _reason(act) -> str | None,
    # _perform(act), _log(type_, **data) -> entry, to_dict() and classmethod from_dict(data).

    def push(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one input; returns the log entries it produced.

        Raises the engine's IllegalAction (state unchanged) when it is not allowed.
        """
        act = self._normalise(action)
        reason = self._reason(act)
        if reason:
            raise self.illegal(reason)
        snapshot = self._snapshot()
        start = len(self.log)
        try:
            self._apply(act)
        except BaseException:  # e.g. a forced outcome that cannot be used here
            self._restore(snapshot)
            raise
        self._history.append(snapshot)
        self.inputs.append(act)
        return self.log[start:]

    def pop(self) -> dict[str, Any]:
        """Undo the last input (chance comes back too); returns it."""
        if not self._history:
            raise self.illegal("nothing to undo")
        self._restore(self._history.pop())
        return self.inputs.pop()

    def last_entries(self) -> list[dict[str, Any]]:
        """The log entries of the last input (empty when there is none to undo)."""
        return self.log[self._history[-1][1]:] if self._history else []

    def check(self, action: dict[str, Any]) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        try:
            return self._reason(self._normalise(action))
        except self.illegal as exc:
            return str(exc)

    def copy(self) -> Any:
        """An independent game in the same position (its undo history starts empty)."""
        return type(self).from_dict(self.to_dict())

    def playout_copy(self) -> Any:
        """An independent copy in playout mode, for look-ahead and random playouts.

        Its ``push`` trusts that the input is one of ``legal_actions()`` (an input from
        anywhere else may corrupt the copy), builds no log, keeps no undo history and
        records no inputs; it returns an empty list. ``legal_actions``, ``status``,
        ``awaiting`` and ``turn_player`` behave exactly as in the normal engine, and the
        state reached is the same, except that the action dicts ``legal_actions``
        returns may be shared with other calls and games: read them, never change them
        (the list is the caller's). The original game is never touched.
        """
        g = self._bare_copy()
        g.push = g._push_trusted  # type: ignore[method-assign]
        if hasattr(g, "_legal"):  # an engine's legal_actions without the callers' copies
            g.legal_actions = g._legal  # type: ignore[method-assign]
        g._log = _unlogged  # type: ignore[method-assign]
        g.playout = True
        return g

    @classmethod
    def replay(cls, seed: int, options: dict[str, Any] | None, setup: dict[str, Any] | None,
               forced: Iterable[Any], inputs: Iterable[dict[str, Any]]) -> Any:
        g = cls(seed, options, setup, forced)
        for act in inputs:
            g.push(act)
        return g

    # ------------------------------------------------------------ the cycle's steps

    def _snapshot(self) -> Any:
        """What undo needs: the state (never mutated after this) and the log length."""
        return (self.state, len(self.log))

    def _restore(self, snapshot: Any) -> None:
        self.state, log_len = snapshot
        del self.log[log_len:]

    def _apply(self, act: dict[str, Any]) -> None:
        self.state = self.state.clone()
        self._perform(act)

    def _push_trusted(self, act: dict[str, Any]) -> list[dict[str, Any]]:
        self._apply(act)
        return []

    def _bare_copy(self) -> Any:
        """This game in the same position with an empty log, inputs and history.

        Cheap (one state clone, no JSON round trip): only for playout copies, whose
        log is never read."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.state = self.state.clone()
        g.log, g.inputs, g._history = [], [], []
        return g


@contextmanager
def playout_gc() -> Iterator[None]:
    """Fewer garbage collections while playouts run (their garbage has no cycles to
    speak of, so the default young-generation threshold only costs time). Restores the
    collector's thresholds on exit; the caller chooses when, as it is process-wide."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
