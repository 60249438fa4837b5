"""What JSON and TOML parsers raise besides syntax errors, as one line a person can act on.

Python's parsers recurse once per nesting level (a file nested thousands deep raises
RecursionError) and refuse integers of more than 4300 digits (ValueError, a guard
against slow conversions). Every loader turns these into its own one-line error.
"""

from __future__ import annotations

import re
import sys

_LONG_NUMBER = re.compile(r"[-+]?\d[\d_]{%d,}" % (sys.get_int_max_str_digits() or 4300))


def problem(exc: BaseException, text: str) -> str | None:
    """The one-line problem behind a parser's RecursionError or oversized-integer
    ValueError (with its line, and the TOML key when there is one); None for others."""
    if isinstance(exc, RecursionError):
        return "values nested too deeply"
    if isinstance(exc, ValueError) and "digits" in str(exc):
        found = _LONG_NUMBER.search(text)
        if found is None:
            return "a number too long to read"
        line = text.count("\n", 0, found.start()) + 1
        start = text.rfind("\n", 0, found.start()) + 1
        key = re.match(r"\s*([\w.\"'-]+)\s*=", text[start:found.start()])
        where = f"line {line}" + (f": {key[1]}" if key else "")
        return f"{where}: a number too long to read ({found.end() - found.start()} digits)"
    return None
