"""The README stays true: its two set-up commands (CI runs the same test command, and the
main command's files exist), every ``companion`` command and flag it names (each exists in
the CLI, and each of the CLI's is named), and what it says about the simulator."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_starts_with_a_main_command_and_a_test_command():
    main, test = _commands()[:2]
    assert main.startswith("python3 -m venv .venv") and "companion sim" in main
    assert test.startswith("python3 -m venv .venv") and "pytest" in test
    for path in re.findall(r"\b(examples/\S+\.json)", main):
        assert (ROOT / path).is_file(), path


def test_ci_runs_the_readme_test_command_and_fails_on_no_tests():
    test = _commands()[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()
    assert '"$status" -eq 5' in ci


def test_console_script_and_package_are_named_companion():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["companion"] == "companion.cli:main"
    assert project["requires-python"] == ">=3.11"


# ------------------------------------------------------------ commands and flags


def _code_spans() -> list[str]:
    """Every command-like piece of the README: fenced lines and inline code spans."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    fence = re.compile(r"^[ \t]*```\w*\n(.*?)\n[ \t]*```", re.M | re.S)  # indented in lists too
    fenced = fence.findall(text)
    rest = fence.sub("", text)
    return [line for block in fenced for line in block.splitlines()] + re.findall(
        r"`([^`]+)`", rest)


# "companion SUB" where companion is the command (not "sudo -u companion ...").
COMMAND = re.compile(r"(?<!-u )(?:^|(?<=\s)|(?<=bin/))companion ([a-z]+)")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _parsers() -> dict[str, argparse.ArgumentParser]:
    from companion.cli import build_parser
    from companion.printing import build_parser as cards_parser

    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    parsers = dict(sub.choices)
    parsers["cards"] = cards_parser()  # "companion cards" hands its arguments on
    return parsers


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings if s.startswith("--")}


def test_every_companion_command_in_the_readme_exists_with_its_flags():
    parsers = _parsers()
    seen = 0
    for span in _code_spans():
        commands = COMMAND.findall(span)
        for command in commands:
            assert command in parsers, f"README: companion {command} is no command ({span!r})"
        if len(commands) == 1:
            seen += 1
            wrong = set(FLAG.findall(span)) - _flags(parsers[commands[0]]) - {"--help"}
            assert not wrong, f"README: companion {commands[0]} has no {sorted(wrong)}"
    assert seen > 10


def test_every_command_and_flag_of_the_cli_is_in_the_readme():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, parser in _parsers().items():
        assert f"companion {name}" in text, f"README does not mention companion {name}"
        for flag in sorted(_flags(parser) - {"--help"}):
            assert flag in text, f"README does not mention companion {name} {flag}"


# ------------------------------------------------------------ the simulator's facts


def test_the_simulator_needs_the_terminal_the_readme_names(tmp_path, monkeypatch, capsys):
    from companion import sim
    from companion.session import SessionConfig

    box, journal = sim.build(tmp_path, None, 1, SessionConfig(), None)

    def no_more_input(prompt: str = "") -> str:
        print(prompt, end="")
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more_input)
    try:
        sim.interactive(box, colour=True)
    finally:
        journal.close()
    lines = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out).split("\n")
    screen = lines[:-1]  # the last is the newline printed after the end of input
    width, height = max(len(line) for line in screen), len(screen)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{width} columns wide and {height} lines high" in text, (width, height)


def test_the_readme_names_the_pads_as_the_simulator_has_them():
    from companion.session import SessionConfig

    assert SessionConfig().pads == {1: "mercurial", 2: "rubicon", 3: None}
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "pad 1 is Mercurial's, pad 2 is Rubicon's and pad 3 (the centre pad) is shared" in text


def test_the_readme_gives_qno_the_players_of_the_rules():
    from companion.games.qno.options import RULINGS

    players = RULINGS["players"]
    assert players.default == 2 and {2, 3, 4} < set(players.allowed)
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    extra = ", ".join(str(n) for n in players.allowed if n > 4).replace(", ", " and ")
    assert f"(2-4, as the rules say; {extra} are extra seats, the `players` option)" in text
