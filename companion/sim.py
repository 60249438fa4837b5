"""``companion sim``: the whole box in a terminal, no Raspberry Pi needed.

The simulator is a shell like the daemon: it builds the same :class:`~companion.box.Box`
(session, journal, views) with the display and LED fakes, and turns typed commands
into the same input events the buttons and reader pads produce:

    press ok | back | up | down | retrieve | exchange
    hold back | hold exchange | release exchange
    tap PAD CARD | tap PAD uid=HEX | tap PAD top | hand
    wait SECONDS | expect FIELD VALUE | show | help | quit

``help`` in the simulator explains each (in the language the box speaks).

Interactively the simulator fits the terminal: the OLED in half blocks beside the
board map from 173x37, in braille beside a compact map down to 80x24 (smaller, it
says what it needs). Without ``--seed`` every new game is dealt at random.

``--script FILE`` (or ``-`` for standard input) runs commands from a file, writes
every distinct OLED frame to ``--frames DIR`` as a numbered PNG and every LED frame
as a JSON line, and exits 2 on a script error, 1 on a failed ``expect``.  DIR must be
new, empty, or hold only frames of an earlier run (which are replaced): anything else
in it is refused, never deleted.  Like the box, the simulator holds the state
directory's lock: a second one on the same journal is refused.
"""

from __future__ import annotations

import functools
import json
import os
import queue
import re
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from .box import Box
from .hardware.oled import simulated_display
from .hardware.leds import RecordingLeds
from .inputs import BUTTONS, Hold, Press, Refresh, Release, Tag, Tick
from . import language, parsing, recovery, statelock
from .i18n import N_, _
from .journal import CHECKPOINT_IDLE, Journal, JournalError
from .registry import Registry, RegistryError, default_sim_path, normalise_uid
from .session import ROLL_STEP, SessionConfig
from .views.terminal import board_compact, board_map, braille, halfblocks

EXIT_OK, EXIT_EXPECT, EXIT_SCRIPT = 0, 1, 2
MAX_TICKS = 10_000  # a "wait" never spins forever
WIDE = (173, 37)  # columns, rows of the big layout (half blocks beside the board map)
SMALL = (80, 22)  # the braille layout, a help line and the prompt
# Fits an 80-column terminal (with the cursor's column to spare).
PROMPT = "press ok|back|up|down|retrieve|exchange  hold back  tap PAD CARD hand help quit"


class ScriptError(Exception):
    """A command the simulator cannot run (not a game error: those go on screen)."""


class ExpectationFailed(Exception):
    pass


def default_state_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                            ".local", "share")
    return Path(base) / "companion"


class Sim:
    """Runs commands against a box; ``frames`` (a directory) records every output."""

    def __init__(self, box: Box, registry: Registry, frames: Path | None = None,
                 sleep: Callable[[float], None] | None = None):
        self.box = box
        self.registry = registry
        self.frames = frames
        self.sleep = sleep  # None: animations run instantly (scripts)
        self._written = 0
        self._leds_written = 0
        self.messages: list[str] = []  # answers to ``hand``, printed by the shell
        self._checkpoint: threading.Timer | None = None
        if frames is not None:
            prepare_frames(frames)
            (frames / "leds.jsonl").write_text("")
        self._record()

    # ------------------------------------------------------------------ commands

    def run(self, line: str) -> bool:
        """Run one command line; returns False for ``quit``."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("press", "hold", "release", "tap"):
            return self.take(self.event(line))
        elif cmd == "wait":
            try:
                seconds = float(args[0]) if len(args) == 1 else -1.0
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 600:
                raise ScriptError("wait needs a number of seconds (0-600)")
            self._wait(seconds)
        elif cmd == "expect":
            if len(args) < 2:
                raise ScriptError("expect needs a field and a value")
            self._expect(args[0].lower(), " ".join(args[1:]))
        elif cmd == "hand":
            self.messages.append(self._hand())
        elif cmd in ("show", "help"):
            pass  # the interactive loop prints the box (and help) after every command
        elif cmd in ("quit", "exit"):
            return False
        else:
            raise ScriptError(f"unknown command {cmd!r} (try help)")
        return True

    def event(self, line: str) -> Press | Hold | Release | Tag:
        """The input event a ``press``, ``hold``, ``release`` or ``tap`` command stands for."""
        words = line.split("#", 1)[0].split()
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("press", "hold", "release"):
            if len(args) != 1 or args[0].upper() not in BUTTONS:
                raise ScriptError(f"{cmd} needs one of: {', '.join(b.lower() for b in BUTTONS)}")
            kind = {"press": Press, "hold": Hold, "release": Release}[cmd]
            return kind(args[0].upper())
        if cmd == "tap":
            if len(args) < 2 or not (args[0].isascii() and args[0].isdigit()) or \
                    len(args[0]) > 6:
                raise ScriptError("tap needs a pad number and a card name or uid=HEX")
            return Tag(int(args[0]), self._uid(" ".join(args[1:])))
        raise ScriptError(f"{cmd!r} is not an input")

    def _uid(self, what: str) -> str:
        if what.lower().startswith("uid="):
            raw = what[4:]
            try:
                return normalise_uid(raw)
            except RegistryError:
                return raw  # a garbage UID is the box's problem to report, as from a reader
        if what.strip().lower() == "top":
            found = self.registry.find(self._table().next_card(), "qno")
            if not found:
                raise ScriptError("the top card has no tag in the registry")
            return found[0][0]
        name = _qno_name(what.strip()) or what.strip().replace(" ", "_")
        # Names repeat across games (an H in Entanglion and in QNO): prefer the game
        # on the box, so a script taps the card its players would hold.
        session = self.box.session
        found = (session.mode != "menu" and self.registry.find(name, session.ui.NAME)) \
            or self.registry.find(name)
        if not found:
            raise ScriptError(f"no card named {what!r} in the tag registry")
        return found[0][0]

    def _table(self) -> Any:
        """QNO's simulated table of real cards (the box itself never sees them)."""
        from .games.qno.table import Table

        session = self.box.session
        if session.mode != "game" or session.ui.NAME != "qno":
            raise ScriptError("top and hand are for a QNO game in play")
        # The game's own seed deals the table: a random game gets random hands.
        return Table.of(session.game, session.game.seed)

    # Translators: The simulator's hand line: the game is over, or the hand is empty.
    def _hand(self) -> str:
        """The cards of the player the box waits for, as ``tap`` names them."""
        from .games.qno.cards import label

        g = self.box.session.game
        table = self._table()
        p = g.awaiting()
        if p is None:
            return _("The game is over")
        cards = sorted(table.hands[p - 1])
        listed = ", ".join(f"{c} ({label(c)})" if c != label(c) else c for c in cards)
        return _("P{player}'s hand: {cards}").format(player=p, cards=listed or _("empty"))

    def take(self, event: Any) -> bool:
        """One input event, typed or from the page; False once the players chose to
        switch the box off (the simulator stops there, as the box would)."""
        self._input(event)
        if self.box.session.request == "power_off":
            self.box.session.request = None
            self.messages.append(_("The box would switch itself off now (the game is "
                                   "saved); the simulator stops here."))
            return False
        return True

    def _input(self, event: Any) -> None:
        if isinstance(event, Refresh):  # a web page opened: publish the box as it is
            self.box.refresh()
            return
        self.box.handle(event)
        self._record()
        self.settle()
        self._idle_checkpoint()

    def _idle_checkpoint(self) -> None:
        """As the daemon does: a few seconds after the last input, fold the WAL into the
        journal file, so a WAL deleted or damaged while the simulator waits for a typed
        line costs nothing.  A timer, because the simulator blocks reading its input."""
        self.stop_checkpoints()
        self._checkpoint = threading.Timer(CHECKPOINT_IDLE, self.box.session.journal.checkpoint)
        self._checkpoint.daemon = True
        self._checkpoint.start()

    def stop_checkpoints(self) -> None:
        if self._checkpoint is not None:
            self._checkpoint.cancel()
            self._checkpoint = None

    def settle(self) -> None:
        """Play a die animation to its end (the box would show it over ~0.5 s)."""
        for _ in range(MAX_TICKS):
            if self.box.tick_interval() != ROLL_STEP:
                return
            if self.sleep:
                self.sleep(ROLL_STEP)
                print(self.render(), flush=True)
            self.box.handle(Tick())
            self._record()

    def _wait(self, seconds: float) -> None:
        elapsed = 0.0
        for _ in range(MAX_TICKS):
            step = self.box.tick_interval()
            if step is None or elapsed + step > seconds + 1e-9:
                break
            elapsed += step
            self.box.handle(Tick())
            self._record()
        if self.sleep:
            self.sleep(max(0.0, seconds - elapsed) if elapsed < seconds else 0.0)

    def _expect(self, field: str, want: str) -> None:
        s = self.box.session
        screen = s.screen()
        g = s.game
        facts: dict[str, str] = {"screen": screen["screen"]}
        if g is not None and s.ui.NAME == "qno":
            facts.update(status=g.status, turn=f"P{g.state.turn}")
        elif g is not None and s.ui.NAME == "qlanet":
            facts.update(status=g.status, turn=str(g.state.turn_player),
                         planets=" ".join(s.ui.cells(g)),
                         costs=" ".join(map(str, g.state.costs)))
        elif g is not None:
            st = g.state
            facts.update(status=st.status, turn=str(st.turn_player),
                         detection=str(st.detection), ships=" ".join(st.pos),
                         hand=" ".join(st.hands[st.turn_player]) if st.turn_player else "")
        if field == "text":
            words = json.dumps(screen, ensure_ascii=False)
            if want.lower() not in words.lower():
                raise ExpectationFailed(f"expected {want!r} on screen, got {words}")
            return
        if field not in ("screen", "status", "turn", "detection", "ships", "hand", "planets",
                         "costs"):
            raise ScriptError(f"expect cannot check {field!r}")
        got = facts.get(field)
        if got is None or got.lower() != want.lower():
            raise ExpectationFailed(f"expected {field} {want!r}, got {got!r}")

    # ------------------------------------------------------------------ output

    def _record(self) -> None:
        if self.frames is None:
            return
        frames = self.box.display.frames
        while self._written < len(frames):
            self._written += 1
            frames[self._written - 1].save(self.frames / f"oled-{self._written:04d}.png")
        leds = self.box.leds.frames  # type: ignore[attr-defined]
        if self._leds_written < len(leds):
            with open(self.frames / "leds.jsonl", "a") as fh:
                for frame in leds[self._leds_written:]:
                    fh.write(json.dumps([list(p) for p in frame]) + "\n")
            self._leds_written = len(leds)

    def render(self, colour: bool = True, size: tuple[int, int] | None = None) -> str:
        """The OLED beside the board map with its LEDs: half blocks and the big map
        when ``size`` (columns, rows) allows or is not given, braille and a compact
        map down to 80x24, else a line saying what size is needed."""
        image = self.box.display.image
        frame = self.box.leds.last or ((0, 0, 0),) * 25
        if size is None or (size[0] >= WIDE[0] and size[1] >= WIDE[1]):
            left = halfblocks(image, border=True) if image is not None else []
            right, gap = board_map(frame, colour=colour), 130
        elif size[0] >= SMALL[0] and size[1] >= SMALL[1]:
            left = braille(image, border=True) if image is not None else []
            right, gap = board_compact(frame, colour=colour), 66
        else:
            return (f"companion sim needs a terminal of at least {SMALL[0]}x{SMALL[1] + 2}"
                    f" (this one is {size[0]}x{size[1]}); {WIDE[0]}x{WIDE[1]} shows the OLED"
                    " large")
        lines = []
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else " " * gap
            b = right[i] if i < len(right) else ""
            lines.append(f"{a}  {b}")
        return "\n".join(lines)


HELP = N_("""\
    press ok | back | up | down | retrieve | exchange
    hold back                      (hold = undo on BACK)
    hold exchange | release exchange   (QLANET's peek: the secret shows while held)
    tap 1 CNOT                     (the registry card named CNOT, on pad 1)
    tap 2 quantum tunnel           (names are case-insensitive; spaces or _)
    tap 2 uid=04E10101010000       (a raw tag UID, known or not)
    tap 1 top                      (QNO: the top card of the simulated draw pile)
    tap 1 01_7  or  tap 1 |01> 7   (QNO: a card by its tag name or as the screen shows it)
    hand                           (QNO: the hand of the player the box waits for, as
                                   tap names them)
    wait 1.5                       (let 1.5 s of animation and blinking pass)
    expect screen status           (script checks: screen, status, turn, detection,
    expect text DETECTED            ships, hand, planets, costs, or text = any
                                   word on screen)
    show | help | quit""")  # the commands are typed in English in every language
_QNO_VALUE = {"+2": "draw_two", "skip": "skip", "rev": "reverse", "reverse": "reverse",
              "draw two": "draw_two"}


def _qno_name(what: str) -> str | None:
    """A QNO card typed as the screen and ``hand`` show it ("|01> 7", "|10> Skip") as
    its tag name ("01_7", "10_skip"); None if it is not written that way."""
    m = re.fullmatch(r"\|([01]{2})>\s*(.+)", what)
    if m is None:
        return None
    value = m.group(2).strip().lower()
    return f"{m.group(1)}_{_QNO_VALUE.get(value, value)}"

_OWN_FRAME = re.compile(r"oled-\d{4,}\.png|leds\.jsonl")


def prepare_frames(folder: Path) -> None:
    """Make ``folder`` ready for frames: created if new; an earlier run's frames
    removed; refused (ScriptError) if it holds anything else, which is never touched."""
    if folder.exists() and not folder.is_dir():
        raise ScriptError(f"--frames {folder} is a file, not a folder")
    if folder.is_dir():
        names = [entry.name for entry in os.scandir(folder)]
        foreign = [name for name in names if not _OWN_FRAME.fullmatch(name)]
        if foreign:
            raise ScriptError(f"--frames {folder} holds other files ({foreign[0]}...); "
                              "give a new or empty folder")
        for name in names:
            os.unlink(folder / name)
    folder.mkdir(parents=True, exist_ok=True)


# Translators: The screen after an unexpected error in the simulator; each line is a line of
# the box's OLED screen (21 characters; Japanese 16 full-width).
def build(state_dir: Path, registry_path: str | None, seed: int | None,
          config: SessionConfig, frames: Path | None,
          sleep: Callable[[float], None] | None = None) -> tuple[Sim, Journal]:
    registry = Registry.load(registry_path or default_sim_path())
    kwargs: dict[str, Any] = {}
    if seed is not None:
        kwargs["seed_source"] = lambda: seed
    session = recovery.open_session(state_dir / "journal.db", registry, config, **kwargs)
    from .games import compiled

    if (line := compiled.alert_line()) is not None:  # the simulator's log is stderr
        print(f"companion sim: {line}", file=sys.stderr)
        session.alert(_("Sorry: a hiccup"), _("See the log."))
    keep = frames is not None or sleep is not None
    display = simulated_display(keep)[0]
    box = Box(session, display, RecordingLeds())
    recovery.shown(state_dir / "journal.db")
    try:
        return Sim(box, registry, frames, sleep), session.journal
    except BaseException:
        session.journal.close()
        raise


def run_script(sim: Sim, lines: Iterable[str], source: str, out: IO[str]) -> int:
    """Run a script; one progress line per command on ``out`` (flushed: a test may kill us).
    ``lines`` may be bytes (a file or stdin read raw): each is decoded as UTF-8 here, so
    a bad line is reported with its number."""
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                print(f"companion sim: {source} line {number}: not UTF-8 text", file=sys.stderr)
                return EXIT_SCRIPT
        if not line.split("#", 1)[0].strip():
            continue
        try:
            more = sim.run(line)
        except ScriptError as exc:
            print(f"companion sim: {source} line {number}: {exc}", file=sys.stderr)
            return EXIT_SCRIPT
        except ExpectationFailed as exc:
            print(f"companion sim: {source} line {number}: {exc}", file=sys.stderr)
            return EXIT_EXPECT
        screen = sim.box.session.screen()
        g = sim.box.session.game
        inputs = len(g.inputs) if g is not None else 0
        out.write(f"{number}: {line.strip()} -> {screen['screen']} (inputs {inputs})\n")
        for message in sim.messages:
            out.write(f"    {message}\n")
        sim.messages.clear()
        out.flush()
        if not more:
            break
    return EXIT_OK


def _run_script_file(sim: Sim, path: str) -> int:
    """``--script PATH`` (``-``: standard input, run line by line as it comes)."""
    source = "<stdin>" if path == "-" else path
    try:
        fh = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        print(f"companion sim: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_SCRIPT
    try:
        return run_script(sim, parsing.limited_lines(fh, parsing.SCRIPT_LIMIT, source),
                          source, sys.stdout)
    except parsing.TooLarge as exc:
        print(f"companion sim: {exc}", file=sys.stderr)
        return EXIT_SCRIPT
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def interactive(sim: Sim, colour: bool) -> int:
    tty = sys.stdout.isatty()
    while True:
        if tty:
            sys.stdout.write("\x1b[H\x1b[2J")
        size = tuple(shutil.get_terminal_size()) if tty else None
        print(sim.render(colour=colour, size=size))  # type: ignore[arg-type]
        for message in sim.messages:
            print(message)
        sim.messages.clear()
        print(PROMPT)
        try:
            line = input("> ")
        except (EOFError, KeyboardInterrupt):
            print()
            return EXIT_OK
        if line.strip().lower() == "help":
            print(_(HELP))
            input("(enter) ")
            continue
        try:
            if not sim.run(line):
                for message in sim.messages:
                    print(message)
                return EXIT_OK
        except (ScriptError, ExpectationFailed) as exc:
            print(f"  {exc}")
            if tty:
                input("(enter) ")


# ``--web``: typed commands and the page's presses and taps meet on one queue, taken in
# order by the main thread (the game thread): a tap in the browser is the same ``Tag``
# event a reader pad would produce and goes through the same session and journal as
# ``tap`` typed in the terminal. Standard input ending (``< /dev/null``) does not stop
# the box: the browser may still be playing; ``quit``, Ctrl-C or SIGTERM do.
_STOP = object()
POLL = 0.5  # seconds: how often the loop looks up from the queue (signals, stop)


def _read_into(lines: Iterable[str], events: queue.SimpleQueue) -> None:
    for line in lines:
        events.put(line)


def serve_web(sim: Sim, events: queue.SimpleQueue, lines: IO[str], out: IO[str],
              render: bool) -> int:
    """Take typed lines and the page's events in order until ``quit`` or a signal."""
    def stop(*_: object) -> None:
        events.put(_STOP)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    threading.Thread(target=_read_into, args=(lines, events), daemon=True,
                     name="companion-stdin").start()
    while True:
        if render:
            out.write("\x1b[H\x1b[2J" + sim.render() + "\n> ")
            out.flush()
        try:
            item = events.get(timeout=POLL) if not render else events.get()
        except queue.Empty:
            continue
        if item is _STOP:
            return EXIT_OK
        try:
            # A page's press or tap takes the same path as a typed one, switching off too.
            more = sim.run(item) if isinstance(item, str) else sim.take(item)
        except (ScriptError, ExpectationFailed) as exc:
            print(f"  {exc}", file=out, flush=True)
            continue
        for message in sim.messages:
            print(message, file=out, flush=True)
        sim.messages.clear()
        if not more:
            return EXIT_OK


def web(sim: Sim, address: str, script: str | None = None) -> int:
    """``companion sim --web [HOST:]PORT``: serve, then take typed lines and the page's
    inputs until ``quit`` or a signal."""
    if script:
        print("companion sim: --web plays live; it does not run a --script", file=sys.stderr)
        return EXIT_SCRIPT
    from .web import shell  # tornado, only for --web

    events: queue.SimpleQueue = queue.SimpleQueue()
    try:
        server = shell.start(sim, address, events)
    except (ValueError, OSError) as exc:
        print(f"companion sim: --web: {exc}", file=sys.stderr)
        return EXIT_SCRIPT
    print(f"companion sim: the box is on {server.url}", file=sys.stderr, flush=True)
    try:
        return serve_web(sim, events, sys.stdin, sys.stdout, render=sys.stdout.isatty())
    finally:
        server.stop()


def main(args: Any) -> int:
    config = SessionConfig(deck=args.deck, dice=args.dice, start_space=args.start_space)
    state_dir = Path(args.state_dir) if args.state_dir else default_state_dir()
    config.save_language = functools.partial(language.save, state_dir)
    frames = Path(args.frames) if args.frames else None
    try:
        lock = statelock.acquire(state_dir, "sim")
    except (statelock.Locked, OSError) as exc:
        print(f"companion sim: {exc}", file=sys.stderr)
        return EXIT_SCRIPT
    try:
        language.start(state_dir, language.i18n.DEFAULT, getattr(args, "lang", None))
        try:
            sim, journal = build(state_dir, args.registry, args.seed, config, frames,
                                 sleep=None if args.script else time.sleep)
        except (JournalError, RegistryError, ScriptError, OSError) as exc:  # one line, exit 2
            print(f"companion sim: {exc}", file=sys.stderr)
            return EXIT_SCRIPT
        try:
            if getattr(args, "web", None):
                return web(sim, args.web, script=args.script)
            if args.script:
                return _run_script_file(sim, args.script)
            return interactive(sim, colour=not args.no_colour and sys.stdout.isatty())
        finally:
            sim.stop_checkpoints()
            journal.close()
    finally:
        lock.release()
