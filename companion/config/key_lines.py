"""Where each key of a config file is written, so a message can name the line.

tomllib gives the values but no positions (only a syntax error has a line). So the
text is cut into statements (a table header, or a key and its value, which an array
or a multi-line string may spread over several lines), and tomllib parses each one
on its own: the keys it finds are exactly the ones it found in the whole file, and
each gets the line its statement starts on. Only called on text tomllib accepted;
should a statement still not parse alone, the later keys just have no line.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

# What can hide a newline or a bracket from the cut: strings (a multi-line one may
# end with up to two quotes of its own) and comments. Brackets nest arrays and inline
# tables; a newline outside all of them ends a statement.
_TOKEN = re.compile(r'''
    """(?:\\[\s\S]|[^\\])*?"""{1,3} | \'\'\'[\s\S]*?\'\'\'{1,3}  # multi-line strings
  | "(?:\\.|[^"\\\n])*" | '[^'\n]*'                         # one-line strings
  | \#[^\n]* | [\[{] | [\]}] | \n | [^"'#\[\]{}\n]+
''', re.VERBOSE)


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Dotted key path -> the line where the file first writes it (or a table header)."""
    found: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for line, statement in _statements(text):
        try:
            tree = tomllib.loads(statement)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            break
        if statement.lstrip().startswith("["):
            table = _header(tree)
            _note(found, table, {}, line)
        else:
            _note(found, table, tree, line)
    return found


def _statements(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each statement (a blank or comment line is one too)."""
    out: list[tuple[int, str]] = []
    depth, start, line, first = 0, 0, 1, 1
    for token in _TOKEN.finditer(text):
        t = token.group()
        if t in "[{":
            depth += 1
        elif t in "]}":
            depth -= 1
        elif t == "\n" and depth <= 0:
            out.append((first, text[start:token.end()]))
            start, first = token.end(), line + 1
        line += t.count("\n")
    out.append((first, text[start:]))
    return out


def _header(tree: dict[str, Any]) -> tuple[str, ...]:
    """The table a header opens: ``[a.b]`` parses to {"a": {"b": {}}}, ``[[a.b]]`` to
    {"a": {"b": [{}]}}."""
    path: list[str] = []
    node: Any = tree
    while isinstance(node, dict) and node:
        (key, node), = node.items()
        path.append(key)
    return tuple(path)


def _note(found: dict[tuple[str, ...], int], table: tuple[str, ...], tree: dict[str, Any],
          line: int) -> None:
    """``a.b.c = 1`` under [t] writes t, t.a, t.a.b and t.a.b.c (an inline table's keys too)."""
    for n in range(1, len(table) + 1):
        found.setdefault(table[:n], line)
    for key, value in tree.items():
        path = table + (key,)
        found.setdefault(path, line)
        if isinstance(value, dict):
            _note(found, path, value, line)
