"""One writer per state directory, frames folders that are never wiped, and loaders that
answer bad files with one line and exit 2 (deep nesting, huge numbers, bad encodings,
out-of-range seeds and ids)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from companion import config, registry, scenario
from companion.journal import Journal

COMPANION = [sys.executable, "-m", "companion"]
DEEP_JSON = "[" * 50_000 + "]" * 50_000
HUGE = "9" * 5000


def run(args, stdin="", **kw):
    return subprocess.run(COMPANION + args, input=stdin, capture_output=True, timeout=120,
                          text=isinstance(stdin, str), **kw)


def one_line(err) -> str:
    text = err if isinstance(err, str) else err.decode()
    assert "Traceback" not in text and text.count("\n") <= 2, text
    return text


def test_a_second_writer_is_refused_and_games_still_reads(tmp_path):
    state = tmp_path / "state"
    first = subprocess.Popen(COMPANION + ["sim", "--script", "-", "--state-dir", str(state)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first.stdin.write("press ok\n")  # a new Entanglion game: the menu's first item
        first.stdin.flush()
        assert first.stdout.readline()
        second = run(["sim", "--script", "-", "--state-dir", str(state)], "press ok\n")
        assert second.returncode == 2
        assert f"pid {first.pid} (companion sim)" in one_line(second.stderr)
        listing = run(["games", "--state-dir", str(state)])
        assert listing.returncode == 0, listing.stderr
    finally:
        first.stdin.close()
        first.wait(30)
    assert run(["sim", "--script", "-", "--state-dir", str(state)], "").returncode == 0


def test_frames_never_wipe_a_folder(tmp_path):
    precious = tmp_path / "work"
    precious.mkdir()
    (precious / "thesis.txt").write_text("years of work")
    out = run(["sim", "--script", "-", "--state-dir", str(tmp_path / "s"),
               "--frames", str(precious)], "press down\n")
    assert out.returncode == 2 and "holds other files" in one_line(out.stderr)
    assert (precious / "thesis.txt").read_text() == "years of work"
    out = run(["sim", "--script", "-", "--state-dir", str(tmp_path / "s"), "--frames", "."],
              "press down\n", cwd=precious)
    assert out.returncode == 2 and (precious / "thesis.txt").exists()
    frames = tmp_path / "frames"
    for _ in range(2):  # a new folder, then one holding only its own earlier frames
        out = run(["sim", "--script", "-", "--state-dir", str(tmp_path / "s"),
                   "--frames", str(frames)], "press down\n")
        assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in frames.iterdir())[-1] == "oled-0002.png"


@pytest.mark.parametrize("name,text,words", [
    ("deep.json", '{"version": 1, "tags": ' + DEEP_JSON + "}", "nested too deeply"),
    ("deep.toml", "version = 1\ntags = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
    ("huge.json", '{"version": ' + HUGE + ', "tags": {}}', "line 1: a number too long"),
    ("huge.toml", "version = 1\n[tags.04A1]\nname = " + HUGE, "line 3: name: a number"),
    ("latin1.json", b'{"version": 1, "tags": {"\xe9": 1}}', "not UTF-8"),
])
def test_registry_files(tmp_path, name, text, words):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(registry.RegistryError, match=words) as exc:
        registry.Registry.load(path)
    assert str(path) in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize("text,words", [
    (DEEP_JSON, "nested too deeply"),
    ('{"seed": ' + HUGE + "}", "line 1: a number too long"),
    ('{"seed": 9223372036854775808}', "64 bits"),
    (b'{"description": "\xff"}', "line 1: not UTF-8"),
])
def test_scenario_files(tmp_path, text, words):
    path = tmp_path / "s.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    out = run(["scenario", str(path)])
    assert out.returncode == scenario.EXIT_MALFORMED and words in one_line(out.stderr)
    out = run(["scenario", "-"], path.read_bytes())
    assert out.returncode == scenario.EXIT_MALFORMED and words in one_line(out.stderr)


@pytest.mark.parametrize("text,words", [
    ("[oled]\naddress = " + HUGE + "\n", "line 2: address: a number too long"),
    ("[oled]\naddress = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
])
def test_config_files(tmp_path, text, words):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError, match=words) as exc:
        config.load(str(path))
    assert str(path) in str(exc.value)


def test_command_line_numbers_and_scripts(tmp_path):
    state = ["--state-dir", str(tmp_path)]
    out = run(["sim", "--script", "-", "--seed", str(2 ** 63), *state], "")
    assert out.returncode == 2 and "--seed" in out.stderr and "Traceback" not in out.stderr
    script = tmp_path / "script.txt"
    script.write_bytes(b"press down\npress \xff\n")
    out = run(["sim", "--script", str(script), *state])
    assert out.returncode == 2 and "line 2: not UTF-8" in one_line(out.stderr)
    out = run(["sim", "--script", "-", *state], "tap " + HUGE + " H\n")
    assert out.returncode == 2 and "line 1: tap needs" in one_line(out.stderr)
    out = run(["games", "export", str(2 ** 63), *state])
    assert out.returncode == 2 and "Traceback" not in out.stderr
    with Journal(tmp_path / "journal.db") as j:
        j.new_game("entanglion", 1, {})
    with sqlite3.connect(tmp_path / "journal.db") as db:
        db.execute("UPDATE games SET created = 1e300")  # hand-edited
    out = run(["games", *state])
    assert out.returncode == 0 and "Traceback" not in out.stderr
    out = run(["games", "export", "7", *state])
    assert out.returncode == 2 and "no game 7" in one_line(out.stderr)
