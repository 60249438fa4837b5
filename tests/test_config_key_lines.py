"""Where a config file writes each key: the line a message names.

Documents are built statement by statement, so the line each key starts on is known,
from the TOML that can hide a header or a newline: headers and keys inside
multi-line strings, brackets and quotes inside strings and comments, arrays over
several lines, inline tables, quoted and dotted keys, CRLF line ends.
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.config.key_lines import key_lines

# Values that span lines or hold what a naive cut would take for a header, a comment,
# a bracket or the end of a string.
VALUES = [
    "1", "-7", "true", "1979-05-27", '"[oled]"', '"a # b = c"', r'"q\"]"', "'lit ] # ['",
    '"""\n[oled]\ncontrast = 1\n"""', '"""x\\\n  [y] ""\n"""', '"""ends in quotes"""""',
    "'''\n# not a comment\n[[not]] = '''", "'''a'''''", '"""a"""" # "[', "'''a'''' # '{",
    "[\n  17,  # space 1 ]\n  \"]\",\n  [1, [2]],\n]", "[ ]", "[\n]",
    '{ a = 1, b = "}", c = { d = [1, 2] } }', "{}", '[{ x = "[" }, { y = 2 }]',
]
KEYS = ["k", '"quoted key"', "'lit key'", "d . e", '"d" . e']


def _path(tree: dict) -> tuple[str, ...]:
    (name, value), = tree.items()
    return (name, *_path(value)) if isinstance(value, dict) and value else (name,)


def _inline_paths(prefix: tuple[str, ...], value: object) -> list[tuple[str, ...]]:
    if not isinstance(value, dict):
        return []
    out = []
    for name, inner in value.items():
        out += [prefix + (name,), *_inline_paths(prefix + (name,), inner)]
    return out


statement = st.one_of(
    st.tuples(st.just("header"), st.sampled_from(["[t]", '[ "t" ]  # a [table]', "[t.u]",
                                                   "[[t]]"])),
    st.tuples(st.just("key"), st.tuples(st.sampled_from(KEYS), st.sampled_from(VALUES))),
    st.tuples(st.just("blank"), st.sampled_from(["", "   ", "# [oled] in a comment",
                                                 "  # k = 1 '''"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(statement, max_size=12), st.booleans())
def test_every_key_gets_the_line_its_statement_starts_on(statements, crlf):
    lines: list[str] = []
    expected: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for i, (kind, what) in enumerate(statements):
        line = len(lines) + 1
        if kind == "header":
            text = what.replace("t", f"t{i}", 1).replace("u", f"u{i}")
            table = _path(tomllib.loads(text.replace("[[", "[").replace("]]", "]")))
            for n in range(1, len(table) + 1):
                expected.setdefault(table[:n], line)
        elif kind == "key":
            key, value = what
            key = key.replace("k", f"k{i}", 1).replace("d", f"d{i}", 1)
            text = f"{key} = {value}"
            path = table + _path(tomllib.loads(f"{key} = 0"))
            for n in range(1, len(path) + 1):
                expected.setdefault(path[:n], line)
            parsed = tomllib.loads(f"v = {value}")["v"]
            for inner in _inline_paths(path, parsed):
                expected.setdefault(inner, line)
        else:
            text = what
        lines += text.split("\n")
    document = ("\r\n" if crlf else "\n").join(lines) + "\n"
    tomllib.loads(document)  # the generator writes valid TOML
    assert key_lines(document) == expected


@pytest.mark.parametrize("value", VALUES)
def test_each_value_ends_where_tomllib_ends_it(value):
    text = f"[t]\na = {value}\n[u]\nb = 1\n"
    last = 2 + value.count("\n")
    lines = key_lines(text)
    assert [lines[k] for k in [("t",), ("t", "a"), ("u",), ("u", "b")]] == [1, 2, last + 1,
                                                                          last + 2]


def test_a_statement_that_does_not_parse_alone_ends_the_scan():
    # Not TOML a loader would pass on, but the scan must stop, not guess.
    assert key_lines('a = 1\nb = "\nc = 2\n') == {("a",): 1}


def test_a_long_array_of_arrays_is_one_statement():
    text = "x = [\n" + "[1],\n" * 3000 + "]\ny = 2\n"
    assert key_lines(text) == {("x",): 1, ("y",): 3003}
