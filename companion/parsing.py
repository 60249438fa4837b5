"""Reading what people hand the ``companion`` commands, as one line a person can act on.

Files are read with a size limit (:func:`read_limited`, :func:`limited_lines`), so
``/dev/zero`` or endless standard input gets :class:`TooLarge` (one line) instead of
filling the memory. Python's parsers recurse once per nesting level (a file nested
thousands deep raises RecursionError) and refuse integers of more than 4300 digits
(ValueError, a guard against slow conversions): :func:`problem` words these, and every
loader turns them into its own one-line error.
"""

from __future__ import annotations

import os
import re
import sys
from typing import BinaryIO, Iterator

# Far above any real file of each kind (examples/ are a few KiB each), far below trouble.
SCENARIO_LIMIT = 4 << 20
SCRIPT_LIMIT = 4 << 20
CONFIG_LIMIT = 256 << 10


class TooLarge(ValueError):
    """A file or stream past its size limit; the message is the line to show."""


def _too_large(name: str, limit: int) -> TooLarge:
    size = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
    return TooLarge(f"{name}: more than {size}, too large to be what it should be "
                    "(is it the right file?)")


def read_limited(source: str | os.PathLike[str] | BinaryIO, limit: int, name: str) -> bytes:
    """All the bytes of ``source`` (a path, or an open binary file such as standard
    input); :class:`TooLarge` past ``limit``, having read at most one byte more."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            return read_limited(fh, limit, name)
    data = source.read(limit + 1)
    if len(data) > limit:
        raise _too_large(name, limit)
    return data


def limited_lines(fh: BinaryIO, limit: int, name: str) -> Iterator[bytes]:
    """The lines of ``fh`` as they come (a script on standard input runs as it is
    typed), :class:`TooLarge` once they pass ``limit`` bytes in all (or in one line)."""
    total = 0
    while line := fh.readline(limit - total + 1):
        total += len(line)
        if total > limit:
            raise _too_large(name, limit)
        yield line

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
