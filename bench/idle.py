"""Idle cost of the running daemon: does a box with a game on the table sleep?

Each run starts the real ``companion run`` (through ``bench/rundaemon.py``: mock GPIO
buttons, the OLED on luma's SSD1306 driver over a fake I2C bus) with the fake Pico on
a pty sending a heartbeat every second as the real firmware does, under a notify
socket with the unit's watchdog (WatchdogSec=15, so a ping every 7.5 s). The journal
holds an unfinished game, which the daemon resumes (showing again the notices nobody
read), and OK is pressed on the mock pins until the box shows the state measured (on
the move menu, DOWN until the item under the cursor has targets to blink):

- ``status``: the resumed game's own screen, nothing moving;
- ``menu``: the move menu open from it, its target planets blinking on the LEDs (the
  fake Pico announces protocol 1.1 and runs the blink itself from one BLINK line;
  with ``--old-firmware`` it announces 1.0 and the host sends a tick and an LED frame
  every 0.5 s; the OLED unchanged either way);
- ``end``: the game's last move made, then the end-of-game light show (10 s) and the
  analysis after the game (a one-off job the box runs while nobody plays; its CPU
  time and duration are printed apart), and the rest after them.

Once the state is reached and 2 s (for ``end``: the whole show) have passed, nobody
touches it for ``--seconds``; the run reports the CPU seconds it used (per thread too)
scaled to one minute (each thread's time as the scheduler counts it, in nanoseconds,
where the kernel keeps that count), and the OLED and LED frames sent meanwhile. With
``--web`` each state is measured with the web page off and on (``[web] enabled``,
nobody's browser open), the runs alternating. Prints the median of ``--runs`` runs
and peak RSS. Goals: <= 0.05 CPU-second per idle minute in every state with the page
off, <= 0.1 with it on, and 0 OLED frames.

The bench fails loudly (exit 1) when the box did not reach the state it claims to
measure or left it while idle: the menu must blink (the Pico running a blink of two
different frames all along, or the host's LED frames for old firmware), the status and end
screens must be the ones shown, and with the page on it must be listening with no page
open. Linux only (reads /proc).

    python bench/idle.py [--seconds 60] [--runs 3] [--states status,menu,end] [--web]
                         [--old-firmware]
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import (NotifySocket, cpu_seconds, game_in_progress,  # noqa: E402
                           game_near_end, median, memory_mb, read_counters, spawn,
                           thread_ids, threads_cpu, write_config)
from companion.hardware.fake_pico import FakePico  # noqa: E402

WATCHDOG_USEC = 15_000_000  # systemd/companion.service: WatchdogSec=15
SHOW_SECONDS = 12  # the win/loss light show: 20 blink phases of 0.5 s, and a margin
ANALYSIS_WAIT = 900  # seconds the analysis after the game may take before the idle time
GOAL = {False: 0.05, True: 0.1}  # CPU-s per idle minute, page off / on


class WrongState(RuntimeError):
    """The box was not in the state the run claims to measure."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check(state: str, shown: dict, when: str) -> None:
    from bench.rundaemon import reached

    if not reached(state, shown):
        raise WrongState(f"{when}, the box shows {shown.get('screen')!r} "
                         f"({shown.get('title')!r}, mode {shown.get('mode')}, game "
                         f"{shown.get('status')}, blinking {shown.get('blinking')}), "
                         f"not the {state} state")


def one_run(seconds: float, inputs: int, state: str, web: bool, old_firmware: bool = False
            ) -> dict:
    proto = {"proto": "1"} if old_firmware else {}
    with tempfile.TemporaryDirectory() as tmp_name, FakePico(hb_interval=1.0, **proto) as pico:
        tmp = Path(tmp_name)
        settle = 2.0
        if state == "end":
            game_id, last = game_near_end(tmp / "state", seed=3)
            played = -1
            if last != "press ok":
                raise RuntimeError(f"the last move is {last!r}: pick a seed that ends on OK")
            settle += SHOW_SECONDS
        else:
            game_id, played = game_in_progress(tmp / "state", seed=3, inputs=inputs)
        port = free_port() if web else None
        extra = (f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'
                 if web else "")
        config = write_config(tmp / "config.toml", state_dir=tmp / "state", pico=pico.path,
                              extra=extra)
        notify = NotifySocket(tmp / "notify")
        counters = tmp / "counters.json"
        proc = spawn(config, notify, counters, WATCHDOG_USEC, reach=state)
        try:
            notify.ready(60)
            if not pico.wait_until(lambda: pico.frame is not None, 30):
                raise RuntimeError("the daemon never drove the LEDs")
            deadline = time.monotonic() + 60
            while "reached" not in (shown := read_counters(proc, counters)):
                if time.monotonic() > deadline:
                    raise WrongState("the presses to reach the state never finished")
                time.sleep(0.5)
            if not shown["reached"]:
                check(state, shown, f"after {shown['presses']} presses")
            time.sleep(settle)  # the presses' own work, and the show, are not idling
            analysis = analysis_cpu = 0.0
            if state == "end":  # the analysis after the game: a one-off job, not idling
                start, cpu = time.monotonic(), cpu_seconds(proc.pid)
                while read_counters(proc, counters)["analysing"]:
                    if time.monotonic() - start > ANALYSIS_WAIT:
                        raise WrongState("the analysis after the game never finished")
                    time.sleep(1.0)
                analysis = time.monotonic() - start + settle
                analysis_cpu = cpu_seconds(proc.pid) - cpu
            if web:  # the page is on: its port answers (a connection, no page opened)
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
            before = read_counters(proc, counters)
            check(state, before, "before the idle time")
            names = before.get("threads", {})
            tids0 = thread_ids(proc.pid)
            cpu0, threads0 = cpu_seconds(proc.pid), threads_cpu(proc.pid, names)
            frames0, blinks0, blinking0 = len(pico.frames), pico.blinks, pico.blinking
            time.sleep(seconds)
            led_frames = len(pico.frames) - frames0
            blink_lines = pico.blinks - blinks0
            pico_blinked = blinking0 is not None and pico.blinking == blinking0 \
                and blinking0[1] != blinking0[2]
            cpu1, threads1 = cpu_seconds(proc.pid), threads_cpu(proc.pid, names)
            if tids0 <= thread_ids(proc.pid):  # no thread ended: its threads' exact sum
                cpu0, cpu1 = sum(threads0.values()), sum(threads1.values())
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
        check(state, after, "after the idle time")
        if state == "menu" and not (led_frames or pico_blinked):
            raise WrongState("the move menu sent no LED frame while idle and the Pico ran "
                             "no blink of its own: nothing blinks")
        if state == "menu" and old_firmware and pico.blinks:
            raise WrongState("a BLINK line reached firmware that cannot run it")
        if web and after["pages"]:
            raise WrongState(f"{after['pages']} pages were open: not an idle page")
        if state == "end":
            if after["analysing"]:
                raise WrongState("the analysis after the game ran while idle")
            from companion.journal import Journal

            with Journal(tmp / "state" / "journal.db") as journal:
                if journal.load(game_id).status == "playing":
                    raise WrongState("the last move did not end the game")
    per_minute = 60 / seconds
    return {
        "cpu": (cpu1 - cpu0) * per_minute,
        "threads": {name: (threads1.get(name, 0.0) - threads0.get(name, 0.0)) * per_minute
                    for name in threads1},
        "frames": after["frames_sent"] - before["frames_sent"],
        "i2c": after["data_calls"] - before["data_calls"],
        "built": after["built"] - before["built"],
        "rss": memory["VmHWM"], "game": game_id, "inputs": played,
        "led_frames": led_frames, "blink_lines": blink_lines, "pico_blinked": pico_blinked,
        "presses": shown["presses"], "screen": after["screen"],
        "analysis": analysis, "analysis_cpu": analysis_cpu,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="idle time per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--inputs", type=int, default=40,
                        help="inputs already played in the resumed game")
    parser.add_argument("--states", default="status,menu,end",
                        help="which idle states to measure (status, menu, end)")
    parser.add_argument("--web", action="store_true",
                        help="measure each state with the web page off and on")
    parser.add_argument("--old-firmware", action="store_true",
                        help="the fake Pico speaks protocol 1.0: the host blinks the LEDs")
    args = parser.parse_args()
    print(f"machine: {machine()}; the fake Pico speaks protocol "
          f"{'1.0 (the host blinks)' if args.old_firmware else '1.1 (it blinks by itself)'}")
    pages = (False, True) if args.web else (False,)
    try:
        for state in args.states.split(","):
            runs: dict[bool, list[dict]] = {page: [] for page in pages}
            for r in range(args.runs):
                for page in pages:  # alternating: a shared machine's load hits both alike
                    result = one_run(args.seconds, args.inputs, state, page, args.old_firmware)
                    runs[page].append(result)
                    busy = ", ".join(f"{name} {cpu:.3f}" for name, cpu in
                                     sorted(result["threads"].items(), key=lambda kv: -kv[1])
                                     if cpu)
                    print(f"{state} page {'on ' if page else 'off'} run {r + 1}: "
                          f"{result['cpu']:.3f} CPU-s per idle minute "
                          f"({busy or 'no thread ran long enough to count'}); reached the "
                          f"{result['screen']} screen after {result['presses']} presses; OLED "
                          f"frames {result['frames']} (I2C data transfers {result['i2c']}); "
                          f"LED frames {result['led_frames']}, BLINK lines "
                          f"{result['blink_lines']}, the Pico blinking by itself all along: "
                          f"{'yes' if result['pico_blinked'] else 'no'}; web snapshots built "
                          f"{result['built']}; peak RSS {result['rss']:.1f} MB"
                          + (f"; before it, the analysis after the game: "
                             f"{result['analysis_cpu']:.1f} CPU-s over "
                             f"{result['analysis']:.0f} s" if state == "end" else ""),
                          flush=True)
            for page in pages:
                done = runs[page]
                print(f"{state}, page {'on' if page else 'off'}: game #{done[0]['game']} "
                      f"resumed, {args.seconds:g} s per run, median of {args.runs} runs: "
                      f"{median(r['cpu'] for r in done):.3f} CPU-s per idle minute (goal <= "
                      f"{GOAL[page]}); OLED frames {median(r['frames'] for r in done):g} (goal "
                      f"0); LED frames {median(r['led_frames'] for r in done):g}; snapshots "
                      f"built {median(r['built'] for r in done):g}; peak RSS "
                      f"{median(r['rss'] for r in done):.1f} MB (goal <= 60)", flush=True)
    except WrongState as exc:
        print(f"bench/idle.py: not measured: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
