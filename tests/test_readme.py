"""The README's two set-up commands stay true: CI runs the same test command, and the
main command's files exist."""

from __future__ import annotations

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
