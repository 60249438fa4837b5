"""The daemon with fake hardware, for the benchmarks and the reliability suite.

Two ways to run the box without a Raspberry Pi:

* :class:`Rig` builds the daemon in this process the way ``companion run`` builds it
  (``open_devices`` from a config file: mock GPIO buttons, the co-processor link to a
  :class:`~companion.hardware.fake_pico.FakePico` when given one; the tag registry, the
  SQLite journal, a :class:`~companion.session.Session`, a :class:`~companion.box.Box`
  and a :class:`~companion.daemon.Daemon`), with the OLED on luma's real SSD1306
  driver over a fake I2C bus that can fail, and a hand-driven clock. Inputs go in
  where the device threads put them: button edges through the mock pins (gpiozero
  calls ``GpioButtons``' callbacks, which stamp and queue an ``Edge``), tags on the
  event queue (as the link thread queues them). :meth:`Rig.settle` runs the loop's
  ``step`` until nothing is queued or due, so thousands of games take minutes, not
  days of debounce waits.
* :func:`spawn` starts ``bench/rundaemon.py``: the real ``companion run`` in its own
  process, under a notify socket (:class:`NotifySocket`), with mock GPIO and the
  OLED on a fake I2C bus whose frame counters it reports on ``SIGUSR1``.

Nothing here asserts anything: tests do, benchmarks print.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")  # never probe real pins from here

from companion import i18n  # noqa: E402
from companion.autoplay import AutoPlayer  # noqa: E402
from companion.inputs import BUTTONS, Hold, Press, Tag  # noqa: E402
from companion.session import ROLL_STEP  # noqa: E402

LONG = os.environ.get("COMPANION_LONG") == "1"  # the suite's switch for the full counts


def scale(ci: int, full: int) -> int:
    """``full`` with COMPANION_LONG=1, else the bounded ``ci`` count."""
    return full if LONG else ci


# The reference build's OLED (an SSD1306 at 0x3C), for luma's factory over fake buses.
OLED = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, spi_device=0,
                       dc_pin=24, rst_pin=25, rotate=0, contrast=255, width=128, height=64)


# ----------------------------------------------------------------------- files


def write_config(path: Path, *, state_dir: Path, pico: str | None = None,
                 registry: str | None = None, debounce: float | None = None,
                 language: str | None = None, extra: str = "") -> Path:
    """A config file for a box with fake hardware: no OLED driver (the harness brings
    its own fake panel), the co-processor at ``pico`` (or no readers and no LED chain),
    and the simulator's tag registry unless ``registry`` names another file; the box
    speaks ``language`` (a code) when given."""
    from companion.registry import default_sim_path

    lines = ['[oled]', 'driver = "none"']
    if pico is not None:
        lines += ['[link]', f'device = "{pico}"']
    else:
        lines += ['[reader]', 'kind = "none"', '[leds]', 'sink = "none"']
    if debounce is not None:
        lines += ['[buttons]', f'debounce = {debounce}']
    if language is not None:
        lines += ['[game]', f'language = "{language}"']
    lines += ['[paths]', f'state_dir = "{state_dir}"',
              f'registry = "{registry or default_sim_path()}"']
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


def write_web_config(state: Path, *, pico: str | None, web: str = "") -> Path:
    """``write_config`` for a box in ``state`` whose page listens on a free loopback port
    (``web``: more lines of its ``[web]`` section)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return write_config(state / "config.toml", state_dir=state / "state", pico=pico,
                        extra=f'[web]\nenabled = true\naddress = "127.0.0.1"\n'
                              f"port = {port}\n{web}")


def command_event(registry: Any, command: str, game: str = "entanglion") -> Press | Hold | Tag:
    """The input an AutoPlayer command stands for: ``press ok``, ``tap 1 H`` (a card
    of ``game``: the registry may hold cards of the same name for several games)."""
    words = command.split()
    if words[0] in ("press", "hold"):
        button = words[1].upper()
        assert button in BUTTONS, command
        return (Press if words[0] == "press" else Hold)(button)
    if words[0] == "tap":
        found = registry.find(" ".join(words[2:]).replace(" ", "_"))
        found = [f for f in found if f[1].game == game] or found
        assert found, command
        return Tag(int(words[1]), found[0][0])
    raise ValueError(f"not an input: {command!r}")


def game_near_end(state_dir: Path, seed: int = 6) -> tuple[int, str]:
    """A game left unfinished one command before the AutoPlayer ends it; returns (game
    id, that command, e.g. "tap 1 H" or "press ok"). Played once to the end in a
    scratch journal, then again without its last command (the seed makes both the same)."""
    import tempfile

    from companion.journal import Journal

    with tempfile.TemporaryDirectory() as scratch:
        commands = _drive(Path(scratch), seed, None)
    _drive(state_dir, seed, commands[:-1])
    with Journal(state_dir / "journal.db") as journal:
        record = journal.unfinished()
    assert record is not None, "the game ended early"
    return record.id, commands[-1]


def _drive(state_dir: Path, seed: int, commands: list[str] | None) -> list[str]:
    """Play ``commands`` (None: the AutoPlayer's, until the game ends) on a box."""
    from companion.box import Box
    from companion.hardware.display import dummy_display
    from companion.hardware.leds import LedSink
    from companion.inputs import Tick
    from companion.journal import Journal
    from companion.registry import sim_registry
    from companion.session import Session, SessionConfig

    state_dir.mkdir(parents=True, exist_ok=True)
    registry = sim_registry()
    played: list[str] = []
    with Journal(state_dir / "journal.db") as journal:
        box = Box(Session(journal, registry, SessionConfig(), lambda: seed), dummy_display(),
                  LedSink())
        player = AutoPlayer(seed)
        todo = iter(commands) if commands is not None else None
        while True:
            s = box.session
            if todo is None:
                if s.mode == "game" and s.game.status != "playing":
                    break
                command = player.next_command(s)
            else:
                command = next(todo, None)
            if command is None:
                break
            box.handle(command_event(registry, command))
            played.append(command)
            while box.tick_interval() == ROLL_STEP:  # let a die roll finish
                box.handle(Tick())
    return played


def game_in_progress(state_dir: Path, seed: int = 6, inputs: int = 0) -> tuple[int, int]:
    """A game started (and set up) on an earlier run of the box, left unfinished in the
    journal with about ``inputs`` engine inputs played; returns (game id, inputs). A
    seed whose game ends sooner gives way to the next one, in a journal of its own."""
    state_dir.mkdir(parents=True, exist_ok=True)
    before = set(state_dir.iterdir())
    for attempt in range(seed, seed + 50):
        try:
            return _game_in_progress(state_dir, attempt, inputs)
        except _EndedEarly:
            for path in set(state_dir.iterdir()) - before:  # this attempt's journal
                path.unlink()
    raise RuntimeError(f"no seed from {seed} on plays {inputs} inputs unfinished")


class _EndedEarly(Exception):
    pass


def _game_in_progress(state_dir: Path, seed: int, inputs: int) -> tuple[int, int]:
    from companion.box import Box
    from companion.hardware.display import dummy_display
    from companion.hardware.leds import LedSink
    from companion.inputs import Tick
    from companion.journal import Journal
    from companion.registry import sim_registry
    from companion.session import Session, SessionConfig

    state_dir.mkdir(parents=True, exist_ok=True)
    registry = sim_registry()
    with Journal(state_dir / "journal.db") as journal:
        box = Box(Session(journal, registry, SessionConfig(), lambda: seed), dummy_display(),
                  LedSink())
        player = AutoPlayer(seed)
        while True:
            s = box.session
            if s.mode == "game" and (len(s.game.inputs) >= inputs or s.game.status != "playing"):
                break
            command = player.next_command(s)
            if command is None:
                break
            box.handle(command_event(registry, command))
            while box.tick_interval() == ROLL_STEP:  # let a die roll finish
                box.handle(Tick())
        s = box.session
        if s.game.status != "playing":
            raise _EndedEarly(seed)
        return s.game_id, len(s.game.inputs)



# ----------------------------------------------------------------------- /proc


def time_emulation(wire: Any) -> list[float]:
    """Count the CPU seconds this thread spends inside a fake bus's ``message`` (its
    byte-by-byte emulation of the panel: on a box, the controller's work), so a bench
    can take them out of the box's own time. Returns the running total, [seconds]."""
    emulating = [0.0]
    message = wire.message

    def timed_message(address: int, payload: bytes) -> None:
        start = time.thread_time()
        try:
            message(address, payload)
        finally:
            emulating[0] += time.thread_time() - start

    wire.message = timed_message
    return emulating


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """User + system CPU seconds of a process (ended threads included), in the 1/100 s
    ticks of ``stat``; of one thread, the scheduler's own count in nanoseconds
    (``schedstat``) where the kernel keeps it (an idle minute is only a few ticks)."""
    if tid is not None:
        try:
            return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            pass  # no schedstat in this kernel: the ticks
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_ids(pid: int) -> set[str]:
    return {task.name for task in Path(f"/proc/{pid}/task").iterdir()}


def threads_cpu(pid: int, names: dict[str, str] | None = None) -> dict[str, float]:
    """CPU seconds per thread name (threads of one name added up); ``names`` maps
    thread ids to names (Python does not name its threads for the kernel)."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (names or {}).get(task.name) or (task / "comm").read_text().strip()
            out[name] = out.get(name, 0.0) + cpu_seconds(pid, int(task.name))
        except (OSError, ValueError):
            pass  # a thread that just ended
    return out


def memory_mb(pid: int | str = "self") -> dict[str, float]:
    """VmRSS (now) and VmHWM (peak) in MB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(rest.split()[0]) / 1024
    return found


# ----------------------------------------------------------------------- the rig


class Clock:
    """The rig's clock: moved by hand, or (after :meth:`follow_real_time`) running with
    ``time.monotonic`` for tests that run the loop on a thread in real time."""

    def __init__(self, now: float = 1000.0):
        self.now = now
        self._offset: float | None = None

    def follow_real_time(self) -> None:
        self._offset = self.now - time.monotonic()

    def __call__(self) -> float:
        if self._offset is not None:
            return time.monotonic() + self._offset
        return self.now


class Rig:
    """The daemon of ``companion run`` in this process, on fake hardware and a hand clock."""

    def __init__(self, config_path: Path, *, seed: int | Callable[[], int] = 6):
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        from companion import config as configuration
        from companion.box import Box
        from companion.daemon import WAKE, Daemon
        from companion.hardware.buttons import Classifier
        from companion.hardware.display_worker import DisplayWorker
        from companion.hardware.fake_bus import FakeBuses
        from companion.hardware.inbox import Inbox
        from companion.hardware.oled import open_display
        from companion.journal import Journal
        from companion.notify import Notifier
        from companion.registry import Registry
        from companion.session import Session

        self.clock = Clock()
        self.events = Inbox()
        self._previous_factory = Device.pin_factory
        self.gpio = MockFactory()
        Device.pin_factory = self.gpio
        self.config = configuration.load(str(config_path))
        i18n.set_language(self.config.game.language)  # as companion run speaks it
        self.devices = self._open_devices()
        # The OLED: luma's real factory, driver and i2c interface over a fake SMBus
        # whose wire (``self.bus``) fails on demand, with a simulated SSD1306 on it.
        self.buses = FakeBuses(self.clock)
        self.panel = self.buses.i2c_panel(OLED.driver, OLED.port, OLED.address)
        self.bus = self.buses.i2c[OLED.port]
        self.display = open_display(OLED, self.clock, self.buses)
        # As ``companion run`` drives it: on a worker thread the loop hands frames to.
        self.worker = DisplayWorker(self.display, lambda: self.events.put(WAKE))
        self.registry = Registry.load(self.config.paths.registry_path)
        Path(self.config.paths.state_dir).mkdir(parents=True, exist_ok=True)
        self.journal = Journal(Path(self.config.paths.state_dir) / "journal.db")
        seeds = seed if callable(seed) else (lambda: seed)
        session = Session(self.journal, self.registry,
                          configuration.session_config(self.config), seeds)
        self.box = Box(session, self.worker, self.devices.leds)
        self.daemon = Daemon(self.box, self.events,
                             Classifier(self.config.buttons.hold_time,
                                        self.config.buttons.debounce),
                             Notifier({}), self.devices.closers, self.clock)
        self.pins = self.config.buttons.pins
        self.closed = False

    def _open_devices(self) -> Any:
        """``companion.daemon.open_devices`` for this config, but with the buttons on the
        hand clock and the co-processor link on the real one: the link's reader thread
        runs in real time (heartbeats, staleness), the loop's time is the rig's."""
        from companion.daemon import Devices
        from companion.hardware.buttons import GpioButtons
        from companion.hardware.display import dummy_display
        from companion.hardware.leds import (FirmwareLeds, LedSink, default_led_map_path,
                                             load_led_map)
        from companion.hardware.link import SerialLink

        c = self.config
        assert c.oled.driver == "none" and c.leds.sink in ("firmware", "none"), \
            "the rig brings its own OLED and drives LEDs through the co-processor only"
        buttons = GpioButtons(c.buttons.pins, self.events.put, pull_up=c.buttons.pull_up,
                              clock=self.clock)
        closers = [buttons.close]
        link = None
        if "firmware" in (c.reader.kind, c.leds.sink):
            link = SerialLink(c.link.device, c.link.baud, self.events.put)
            closers.append(link.close)
        leds: Any = LedSink()
        if c.leds.sink == "firmware":
            leds = FirmwareLeds(link, load_led_map(c.leds.map or default_led_map_path()),
                                c.leds.brightness, c.leds.off_at_exit)
        return Devices(dummy_display(), leds, closers, None, link)

    @property
    def session(self) -> Any:
        return self.box.session

    def settle(self, seconds: float = 0.0, max_steps: int = 100_000) -> None:
        """Run the loop until nothing is queued or due within ``seconds`` of hand-clock
        time, then let the clock reach the end of those seconds. Ticks, holds, OLED
        retries and refreshes that fall due in between happen at their time, as on
        the box."""
        end = self.clock.now + seconds
        d = self.daemon
        for _ in range(max_steps):
            d.step(0)
            self.worker.flush(30)  # what the step handed the OLED is on the glass
            due = [t for t in (d._tick_at, d.classifier.deadline(), self.box.display.due_at)
                   if t is not None and t <= end]
            if self.events.empty() and not due:
                break
            if self.events.empty():
                self.clock.now = max(self.clock.now, min(due))
        else:
            raise RuntimeError("the loop never settled")
        self.clock.now = max(self.clock.now, end)

    def finish_animations(self, limit: float = 30.0) -> None:
        """Let a die roll (a tick every ROLL_STEP) run to its end; blinking may go on."""
        start = self.clock.now
        while self.box.tick_interval() == ROLL_STEP and self.clock.now - start < limit:
            self.settle(ROLL_STEP)

    def pin(self, button: str) -> Any:
        return self.gpio.pin(self.pins[button])

    def press(self, button: str, down: float = 0.05, gap: float = 0.05) -> None:
        """A finger on the button for ``down`` s: edges come from gpiozero's callbacks."""
        pin = self.pin(button)
        pin.drive_low()  # pull-up wiring: pressed = low
        self.settle(down)
        pin.drive_high()
        self.settle(gap)
        pin.clear_states()  # a mock pin records every level for asserts: not the daemon's memory

    def hold(self, button: str) -> None:
        self.press(button, down=self.config.buttons.hold_time + 0.1)

    def tap(self, pad: int, uid: str) -> None:
        """A tag on a pad, queued as the link's reader thread queues it."""
        self.events.put(Tag(pad, uid))
        self.settle()

    def input(self, event: Press | Hold | Tag) -> None:
        if isinstance(event, Tag):
            self.tap(event.pad, event.uid)
        elif isinstance(event, Hold):
            self.hold(event.button)
        else:
            self.press(event.button)
        self.finish_animations()

    def input_command(self, player: AutoPlayer) -> str | None:
        """One move of ``player`` (None, and nothing done, when its game is over)."""
        command = player.next_command(self.session)
        if command is not None:
            game = self.session.ui.NAME if self.session.mode == "game" else player_game(player)
            self.input(command_event(self.registry, command, game))
        return command

    def play(self, player: AutoPlayer, limit: int = 5000) -> int:
        """Let ``player`` play until its game ends; returns the commands it typed."""
        for n in range(limit):
            if self.input_command(player) is None:
                return n
        raise RuntimeError(f"no end after {limit} commands")

    def new_game_from_the_end(self) -> None:
        """From a finished game's screens back to the main menu (OK until it is there)."""
        for _ in range(50):
            if self.session.mode == "menu" and self.session.overlay is None \
                    and not self.session.notices:
                return
            self.press("OK")
            self.finish_animations()
        raise RuntimeError("never got back to the main menu")

    def run_loop(self) -> Callable[[], None]:
        """Run the daemon's loop on a thread in real time, as ``Daemon.run`` does (without
        its signal handlers and READY); returns a function that stops it and re-raises
        whatever escaped the loop."""
        import threading

        self.clock.follow_real_time()
        failure: list[BaseException] = []

        def loop() -> None:
            try:
                while not self.daemon.stopping:
                    self.daemon.step(self.daemon.timeout())
            except BaseException as exc:  # noqa: BLE001 - handed to the stopper
                failure.append(exc)

        thread = threading.Thread(target=loop, name="daemon-loop", daemon=True)
        thread.start()

        def stop() -> None:
            self.daemon.request_stop()
            thread.join(30)
            if thread.is_alive():
                raise RuntimeError("the daemon loop did not stop")
            self.daemon.stopping = False
            if failure:
                raise failure[0]

        return stop

    def close(self) -> None:
        from gpiozero import Device

        from companion.daemon import close_devices

        if self.closed:
            return
        self.closed = True
        close_devices(self.devices)
        self.worker.close()
        self.journal.close()
        self.gpio.reset()
        Device.pin_factory = self._previous_factory

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def player_game(player: AutoPlayer) -> str:
    return getattr(player, "game", "entanglion")


class ErrorLog(logging.Handler):
    """Collects every record at ERROR or above (the daemon logs its recoveries there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> ErrorLog:
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self)

    def text(self) -> str:
        return "\n".join(self.format(r) if self.formatter else
                         f"{r.name}: {r.getMessage()}" for r in self.records[:5])


# ----------------------------------------------------------------------- a real process


class NotifySocket:
    """systemd's end of ``NOTIFY_SOCKET``: collects datagrams with their arrival time."""

    def __init__(self, path: Path):
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages: list[tuple[float, str]] = []

    def wait(self, predicate: Callable[[str], bool], timeout: float = 30.0,
             after: int = 0) -> tuple[float, str]:
        deadline = time.monotonic() + timeout
        while True:
            for stamp, message in self.messages[after:]:
                if predicate(message):
                    return stamp, message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such notification; got {self.messages}")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            self.messages.append((time.monotonic(), data.decode()))

    def ready(self, timeout: float = 30.0) -> float:
        """When READY=1 arrived."""
        return self.wait(lambda m: "READY=1" in m.splitlines(), timeout)[0]

    def close(self) -> None:
        self.sock.close()


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a measured child process. Byte-code caching stays on even
    if this shell turned it off: an installed box has its .pyc files (pip compiles
    them), and compiling every module at each start would be measured instead."""
    env = {**os.environ, **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def web_child(script: str, seed: int, state_dir: str, pico: str) -> tuple[subprocess.Popen, int]:
    """Start ``script --child`` (a web bench's box in a process of its own, so its CPU is
    measured apart) and wait for the port its page serves on, which it prints first."""
    proc = subprocess.Popen(
        [sys.executable, script, "--child", "--seed", str(seed), "--state-dir", state_dir,
         "--pico", pico], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env=child_env())
    return proc, json.loads(proc.stdout.readline())["port"]


def spawn(config: Path, notify: NotifySocket | None, counters: Path | None = None,
          watchdog_usec: int | None = None, cwd: Path | None = None,
          stderr: Any = subprocess.DEVNULL, reach: str = "",
          modules: Path | None = None) -> subprocess.Popen:
    """``companion run --config config`` (through bench/rundaemon.py: mock GPIO and the
    OLED on a fake I2C bus whose counters go to ``counters`` on SIGUSR1 and at exit;
    the modules imported at READY=1 to ``modules``)."""
    env = child_env(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    env.pop("NOTIFY_SOCKET", None)
    env.pop("WATCHDOG_USEC", None)
    if notify is not None:
        env["NOTIFY_SOCKET"] = notify.path
    if watchdog_usec:
        env["WATCHDOG_USEC"] = str(watchdog_usec)
    argv = [sys.executable, str(ROOT / "bench" / "rundaemon.py"), "--config", str(config)]
    if counters is not None:
        argv += ["--counters", str(counters)]
    if reach:
        argv += ["--reach", reach]
    if modules is not None:
        argv += ["--modules", str(modules)]
    return subprocess.Popen(argv, env=env, cwd=cwd or config.parent, stderr=stderr,
                            stdout=subprocess.DEVNULL)


def read_counters(proc: subprocess.Popen, counters: Path, timeout: float = 10.0) -> dict:
    """Ask a spawned daemon for its OLED counters (SIGUSR1) and read the fresh report."""
    def current() -> dict:
        try:
            return json.loads(counters.read_text())
        except (OSError, ValueError):
            return {}

    seen = current().get("reports", 0)
    proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = current()
        if data.get("reports", 0) > seen:
            return data
        time.sleep(0.02)
    raise TimeoutError("the daemon did not report its counters")


def median(values: Iterable[float]) -> float:
    import statistics

    return statistics.median(list(values))
