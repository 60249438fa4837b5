"""The reader the section functions ask for values: it checks each one, remembers
every key asked for (so unknown keys and "did you mean" can be told), and keeps the
problems, to report the earliest line first."""

from __future__ import annotations

import os
from typing import Any, Callable

from .key_lines import key_lines
from .values import ConfigError, _Bad, _key, _quote, _show


class _Reader:
    """Hands out checked values and keeps the problems, to report the earliest line."""

    def __init__(self, name: str, text: str, data: dict[str, Any]):
        self.name = name
        self.base = os.path.dirname(os.path.abspath(name))
        self.data = data
        self.lines = key_lines(text)
        self.tables: dict[str, dict[str, Any]] = {}
        self.known: dict[str, list[str]] = {}  # every key asked for: what "did you mean" knows
        self.problems: list[ConfigError] = []

    def line(self, *path: str) -> int | None:
        return self.lines.get(path)

    def report(self, text: str, line: int | None, key: str | None) -> None:
        where = f"{self.name} line {line}" if line else self.name
        self.problems.append(ConfigError(f"{where}: {text}", line=line, key=key))

    def problem(self, path: tuple[str, ...], text: str, line: int | None = None) -> None:
        key = _key(*path)
        self.report(f"{key}: {text}", line or self.lines.get(path), key)

    def raise_first(self) -> None:
        if self.problems:
            # The earliest line first: people fix a file from the top down.
            raise min(self.problems, key=lambda e: (e.line is None, e.line or 0))

    def table(self, name: str) -> dict[str, Any]:
        if name not in self.tables:
            self.known.setdefault(name, [])
            value = self.data.get(name, {})
            if not isinstance(value, dict):
                self.problem((name,), f"expected a table like [{name}], got {_show(value)}")
                value = {}
            self.tables[name] = value
        return self.tables[name]

    def get(self, table: str, key: str, check: Callable[[Any], Any], default: Any) -> Any:
        values = self.table(table)
        self.known[table].append(key)
        if key not in values:
            return default
        try:
            return check(values[key])
        except _Bad as bad:
            self.problem((table, key), str(bad))
            return default

    def path(self, value: Any, *, urls: bool = False) -> str:
        """A non-empty path; relative ones are relative to the config file's folder."""
        if not isinstance(value, str) or not value or "\0" in value:
            raise _Bad(f"expected a path, got {_show(value)}")
        if urls and "://" in value:
            return value  # a pyserial URL such as socket://host:port
        return os.path.normpath(os.path.join(self.base, value))

    def check_unknown(self) -> None:
        for name, value in self.data.items():
            if name not in self.known:
                kind = "table" if isinstance(value, dict) else "key"
                self.report(f"unknown {kind} {_quote(_key(name))}{self._hint(None, name)}",
                            self.line(name), _key(name))
            elif isinstance(value, dict):
                for key in value:
                    if key not in self.known[name]:
                        dotted = _key(name, key)
                        self.report(f"unknown key {_quote(dotted)}{self._hint(name, key)}",
                                    self.line(name, key), dotted)

    def _hint(self, table: str | None, key: str) -> str:
        """' (did you mean "buttons.exchange"?)' for a likely typo, else ''."""
        import difflib  # only for a file with a mistake: not on every start

        here = self.known[table] if table is not None else list(self.known)
        folded = {k.casefold(): k for k in here}
        close = difflib.get_close_matches(key.casefold(), folded, n=1, cutoff=0.6)
        if close:
            match = folded[close[0]]
            guess = _key(table, match) if table is not None else _key(match)
        else:  # the right key in the wrong table, e.g. ``driver`` above any [oled]
            guess = next((_key(t, key) for t, keys in self.known.items()
                          if t != table and key in keys), None)
            if guess is None and table is not None and key in self.known:
                guess = _key(key)
        return f" (did you mean {_quote(guess)}?)" if guess else ""
