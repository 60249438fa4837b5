"""Endless or enormous input to the commands that read files: one line and exit 2,
never a MemoryError traceback. ``/dev/zero`` stands for a file that never ends (a
device, a FIFO, a log growing as it is read), as standard input too."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from companion import config, parsing

COMPANION = [sys.executable, "-m", "companion"]
ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}


def _run(args, tmp_path, stdin=subprocess.DEVNULL):
    return subprocess.run(COMPANION + args, stdin=stdin, capture_output=True, text=True,
                          timeout=60, env=ENV, cwd=tmp_path)


def _one_line(result, limit: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and limit in lines[0] and "right file" in lines[0], lines


@pytest.mark.parametrize("args,limit", [
    (["scenario", "/dev/zero"], "4 MiB"),
    (["hint", "/dev/zero"], "4 MiB"),
    (["sim", "--state-dir", "state", "--script", "/dev/zero"], "4 MiB"),
    (["run", "--config", "/dev/zero"], "256 KiB"),
])
def test_a_file_that_never_ends_gets_one_line(tmp_path, args, limit):
    _one_line(_run(args, tmp_path), limit)


@pytest.mark.parametrize("args", [["scenario", "-"], ["hint", "-"],
                                  ["sim", "--state-dir", "state", "--script", "-"]])
def test_endless_standard_input_gets_one_line(tmp_path, args):
    with open("/dev/zero", "rb") as zero:
        _one_line(_run(args, tmp_path, stdin=zero), "4 MiB")


def test_doctor_reports_an_endless_config_as_its_problem(tmp_path):
    result = _run(["doctor", "--config", "/dev/zero"], tmp_path)
    assert "Traceback" not in result.stderr + result.stdout
    assert "/dev/zero: more than 256 KiB" in result.stdout


def test_the_config_loader_refuses_past_its_limit(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("# " + "x" * parsing.CONFIG_LIMIT + "\n")
    with pytest.raises(config.ConfigError, match="more than 256 KiB"):
        config.load(path)


def test_a_script_on_standard_input_still_runs_as_it_comes():
    """The limit counts what was read so far: a script typed or piped line by line is
    run line by line, and only a stream past the limit is refused."""
    lines = parsing.limited_lines(io.BytesIO(b"press ok\n" * 4), 40, "<stdin>")
    assert next(lines) == b"press ok\n"
    assert list(lines) == [b"press ok\n"] * 3
    with pytest.raises(parsing.TooLarge):
        list(parsing.limited_lines(io.BytesIO(b"x" * 41), 40, "<stdin>"))
    with pytest.raises(parsing.TooLarge):
        parsing.read_limited(io.BytesIO(b"x" * 41), 40, "f")
    assert parsing.read_limited(io.BytesIO(b"x" * 40), 40, "f") == b"x" * 40
