"""The input/undo cycle shared by engines whose whole state is one cloneable object.

QNO and QLANET keep everything in a plain-data ``State`` with ``clone()``; an input
runs on a clone, and the state before it is the undo snapshot. A subclass supplies
``illegal`` (its IllegalAction class), ``_normalise``, ``_reason`` and ``_perform``,
and sets ``state``, ``log``, ``inputs`` and ``_history`` in its constructor.
(Entanglion re-runs an interrupted input with its answers, so it has its own cycle.)
"""

from __future__ import annotations

from typing import Any, Iterable


class SnapshotEngine:
    illegal: type[Exception]
    state: Any
    log: list[dict[str, Any]]
    inputs: list[dict[str, Any]]
    _history: list[tuple[Any, int]]  # (state before, log length before) per input
    # Also supplied by the engine: _normalise(action) -> act, _reason(act) -> str | None,
    # _perform(act), to_dict() and the classmethod from_dict(data).

    def push(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one input; returns the log entries it produced.

        Raises the engine's IllegalAction (state unchanged) when it is not allowed.
        """
        act = self._normalise(action)
        reason = self._reason(act)
        if reason:
            raise self.illegal(reason)
        before, start = self.state, len(self.log)
        self.state = before.clone()
        try:
            self._perform(act)
        except BaseException:  # e.g. a forced outcome that cannot be used here
            self.state = before
            del self.log[start:]
            raise
        self._history.append((before, start))
        self.inputs.append(act)
        return self.log[start:]

    def pop(self) -> dict[str, Any]:
        """Undo the last input (chance comes back too); returns it."""
        if not self._history:
            raise self.illegal("nothing to undo")
        self.state, start = self._history.pop()
        del self.log[start:]
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

    @classmethod
    def replay(cls, seed: int, options: dict[str, Any] | None, setup: dict[str, Any] | None,
               forced: Iterable[Any], inputs: Iterable[dict[str, Any]]) -> Any:
        g = cls(seed, options, setup, forced)
        for act in inputs:
            g.push(act)
        return g
