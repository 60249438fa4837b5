"""The command line builds only the parser of the command given (a few ms of every
start): what it parses, and what it says on a mistake, must not change for that."""

from __future__ import annotations

import pytest

from companion import cli

COMMANDS = ["scenario", "hint", "rules", "sim", "games", "stats", "run", "room", "enroll",
            "cards", "selftest", "doctor", "firmware", "blank"]
ARGV = {"scenario": ["x.json", "--text"], "hint": ["-", "--budget", "5"], "rules": [],
        "sim": ["--seed", "3"], "games": ["show", "2"], "stats": [], "run": ["--config", "c"],
        "room": ["--port", "0"], "enroll": ["--game", "qno"], "cards": ["a", "--b"],
        "selftest": ["--seconds", "2"], "doctor": ["--bench"], "firmware": ["check"],
        "blank": []}


def test_every_command_is_covered():
    full = cli.build_parser()
    sub = next(a for a in full._actions if a.dest == "command")  # noqa: SLF001
    assert list(sub.choices) == COMMANDS == list(ARGV)


@pytest.mark.parametrize("command", COMMANDS)
def test_one_command_parses_as_with_all(command):
    argv = [command, *ARGV[command]]
    alone = vars(cli.build_parser(command).parse_args(argv))
    assert alone == vars(cli.build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [["run", "--bogus"], ["nope"], ["doctor", "--what"], []])
def test_mistakes_read_as_before(argv, capsys):
    with pytest.raises(SystemExit) as alone:
        cli.build_parser(argv[0] if argv else None).parse_args(argv)
    said = capsys.readouterr().err
    with pytest.raises(SystemExit) as full:
        cli.build_parser().parse_args(argv)
    assert (alone.value.code, said) == (full.value.code, capsys.readouterr().err)
    assert alone.value.code == 2 and ",".join(COMMANDS) in said
