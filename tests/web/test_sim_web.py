"""``companion sim --web`` as a person runs it: a real process, typed lines on stdin
and the page's presses on one queue."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def _until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_sim_web_serves_the_box_and_takes_typed_lines(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "sim", "--state-dir",
                             str(tmp_path), "--seed", "6", "--web", "127.0.0.1:0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "the box is on http://127.0.0.1:" in line, line
        url = line.split("the box is on ", 1)[1].strip()
        assert _get(url + "snapshot")["mode"] == "menu"
        proc.stdin.write("press ok\n")
        proc.stdin.flush()
        _until(lambda: _get(url + "snapshot")["mode"] == "setup")
        proc.stdin.write("tap 9 nothing\n")  # a typed mistake is reported, not fatal
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=15)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("args,message", [
    (["--web", "nonsense"], "--web wants [HOST:]PORT"),
    (["--web", "127.0.0.1:99999"], "--web wants [HOST:]PORT"),
    (["--web", "8080", "--script", "-"], "does not run a --script"),
])
def test_sim_web_refuses_bad_arguments_in_one_line(tmp_path, args, message):
    result = subprocess.run([sys.executable, "-m", "companion", "sim", "--state-dir",
                             str(tmp_path), *args], capture_output=True, text=True,
                            timeout=30, input="")
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_switching_off_from_the_page_stops_the_simulator_at_once(tmp_path):
    """The page is the box's own buttons here: its "Switch the box off" is obeyed then,
    not left for the next typed press to trip over."""
    from web_rig import Client

    proc = subprocess.Popen([sys.executable, "-m", "companion", "sim", "--state-dir",
                             str(tmp_path), "--seed", "6", "--web", "127.0.0.1:0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stderr.readline().split("the box is on ", 1)[1].strip()

        class Server:
            port = int(url.rstrip("/").rsplit(":", 1)[1])

        page = Client(Server)
        token = page.csrf()
        # The main menu's last item, then "Yes, switch off" under "No, keep it on".
        for button in ("UP", "OK", "DOWN", "OK"):
            assert page.post_input({"kind": "press", "button": button}, token)[0] == 200
        out, err = proc.communicate(timeout=15)  # stdin stays open: the page stopped it
        assert proc.returncode == 0, err
        assert "would switch itself off now" in out
        assert "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
