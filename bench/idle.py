"""Idle cost of the running daemon: does a box with a game on the table sleep?

Each run starts the real ``companion run`` (through ``bench/rundaemon.py``: mock GPIO
buttons, the OLED on luma's SSD1306 driver over a fake I2C bus) with the fake Pico on
a pty sending a heartbeat every second as the real firmware does, under a notify
socket with the unit's watchdog (WatchdogSec=15, so a ping every 7.5 s). The journal
holds an unfinished game, which the daemon resumes, and the mock buttons bring it to
the state measured:

- ``status``: the resumed game's screen, nothing moving;
- ``menu``: the move menu open, its target planets blinking on the LEDs (a tick and
  an LED frame every 0.5 s, the OLED unchanged);
- ``end``: the game's last move made, then the end-of-game light show (10 s) and the
  rest after it.

Once the state is reached and 2 s (for ``end``: the whole show) have passed, nobody
touches it for ``--seconds``; the run reports the CPU seconds it used (per thread too)
scaled to one minute, and the OLED frames it sent meanwhile. Prints the median of
``--runs`` runs and peak RSS. Goals: <= 0.1 CPU-second per idle minute in every state
and 0 OLED frames. Linux only (reads /proc). Exits non-zero only if the daemon fails.

    python bench/idle.py [--seconds 60] [--runs 3] [--states status,menu,end]
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import (NotifySocket, cpu_seconds, game_in_progress,  # noqa: E402
                           game_near_end, median, memory_mb, read_counters, spawn,
                           threads_cpu, write_config)
from companion.hardware.fake_pico import FakePico  # noqa: E402

WATCHDOG_USEC = 15_000_000  # systemd/companion.service: WatchdogSec=15


SHOW_SECONDS = 12  # the win/loss light show: 20 blink phases of 0.5 s, and a margin


def one_run(seconds: float, inputs: int, state: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp_name, FakePico(hb_interval=1.0) as pico:
        tmp = Path(tmp_name)
        press, settle = "", 2.0
        if state == "end":
            game_id, last = game_near_end(tmp / "state", seed=3)
            played = -1
            if not last.startswith("press "):
                raise RuntimeError(f"the last move is {last!r}: pick a seed that ends on a press")
            press, settle = "OK " + last.split()[1], 3.0 + SHOW_SECONDS
        else:
            game_id, played = game_in_progress(tmp / "state", seed=3, inputs=inputs)
            if state == "menu":
                press = "OK OK"  # past the "resumed" notice, then the move menu
        config = write_config(tmp / "config.toml", state_dir=tmp / "state", pico=pico.path)
        notify = NotifySocket(tmp / "notify")
        counters = tmp / "counters.json"
        proc = spawn(config, notify, counters, WATCHDOG_USEC, press=press)
        try:
            notify.ready(60)
            if not pico.wait_until(lambda: pico.frame is not None, 30):
                raise RuntimeError("the daemon never drove the LEDs")
            time.sleep(settle + (4.0 if press else 0.0))  # start-up and presses are not idling
            before = read_counters(proc, counters)
            names = before.get("threads", {})
            cpu0, threads0 = cpu_seconds(proc.pid), threads_cpu(proc.pid, names)
            frames0 = len(pico.frames)
            time.sleep(seconds)
            led_frames = len(pico.frames) - frames0
            cpu1, threads1 = cpu_seconds(proc.pid), threads_cpu(proc.pid, names)
            after = read_counters(proc, counters)
            memory = memory_mb(proc.pid)
            if proc.poll() is not None:
                raise RuntimeError(f"the daemon exited with {proc.returncode}")
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
            notify.close()
        if proc.returncode != 0:
            raise RuntimeError(f"the daemon exited with {proc.returncode} on SIGTERM")
        if state == "end":
            from companion.journal import Journal

            with Journal(tmp / "state" / "journal.db") as journal:
                if journal.load(game_id).status == "playing":
                    raise RuntimeError("the last move did not end the game")
    per_minute = 60 / seconds
    return {
        "cpu": (cpu1 - cpu0) * per_minute,
        "threads": {name: (threads1.get(name, 0.0) - threads0.get(name, 0.0)) * per_minute
                    for name in threads1},
        "frames": after["frames_sent"] - before["frames_sent"],
        "i2c": after["data_calls"] - before["data_calls"],
        "rss": memory["VmHWM"], "game": game_id, "inputs": played,
        "led_frames": led_frames,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="idle time per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--inputs", type=int, default=40,
                        help="inputs already played in the resumed game")
    parser.add_argument("--states", default="status,menu,end",
                        help="which idle states to measure (status, menu, end)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    for state in args.states.split(","):
        runs = []
        for r in range(args.runs):
            result = one_run(args.seconds, args.inputs, state)
            runs.append(result)
            busy = ", ".join(f"{name} {cpu:.3f}" for name, cpu in
                             sorted(result["threads"].items(), key=lambda kv: -kv[1]) if cpu)
            print(f"{state} run {r + 1}: {result['cpu']:.3f} CPU-s per idle minute "
                  f"({busy or 'no thread ran long enough to count'}); "
                  f"OLED frames {result['frames']} (I2C data transfers {result['i2c']}); "
                  f"LED frames {result['led_frames']}; peak RSS {result['rss']:.1f} MB",
                  flush=True)
        print(f"{state}: game #{runs[0]['game']} resumed, {args.seconds:g} s per run, median "
              f"of {args.runs} runs (CPU time is counted in 1/100 s ticks): "
              f"{median(r['cpu'] for r in runs):.3f} CPU-s per idle minute (goal <= 0.1); "
              f"OLED frames {median(r['frames'] for r in runs):g} (goal 0); "
              f"peak RSS {median(r['rss'] for r in runs):.1f} MB (goal <= 60)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
