"""``companion run``: the box on a Raspberry Pi, headless under systemd.

One thread does everything that touches the game. Device threads (gpiozero's,
the serial readers') only put events in an :class:`~.hardware.inbox.Inbox` (bounded
for tags, which coalesce; buttons never wait behind them); the loop here takes
them one at a time, and between events sleeps until the next thing that is due:
a hold reaching its time, an animation tick, an OLED retry, a watchdog ping. An
idle box therefore wakes only for the watchdog.

Shutdown (SIGTERM from systemd, SIGINT from a terminal) only sets a flag and wakes
the loop (the inbox's ``put`` of a non-tag is a ``SimpleQueue.put``, safe in a
signal handler); the loop then stops the
readers, leaves a "paused" screen on the OLED, turns the LEDs off if configured,
closes the journal and exits 0. Every input is already in the journal before its
outcome was shown, so there is nothing else to save.
"""

from __future__ import annotations

import faulthandler
import functools
import logging
import os
import queue
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import language
from .i18n import _
from .box import Box
from .hardware.buttons import PEEK, Classifier, Edge
from .hardware.display import Display
from .hardware.display_worker import DisplayWorker
from .hardware.inbox import Inbox
from .hardware.leds import LedSink
from .hardware.link import LinkEvent
from .inputs import Hold, PinBurned, Press, Refresh, Release, RoomWaiting, Tag, Tick
from .journal import CHECKPOINT_IDLE
from .notify import Notifier
from .session import Session
from .views import oled

log = logging.getLogger(__name__)

_STOP = object()  # put on the queue to wake the loop for shutdown
# Put by a display's worker after a retry: the loop, asleep until what it knew was
# due, looks at the display's next time again.
WAKE = object()
IDLE_WAKE = 60.0  # even with nothing due, look at the stop flag this often
ANALYSIS_QUIET = 2.0  # seconds without an input before the analysis after a game goes on
# "Switch the box off" from the menu: the service may only create this file in its
# runtime directory; companion-poweroff.path (root's) sees it and powers off. No
# polkit rule, no sudo, no D-Bus access: the one thing the box can ask is that.
POWER_OFF_FILE = "poweroff"


def request_power_off(environ: Any = os.environ) -> None:
    """Ask systemd (through companion-poweroff.path) to switch the machine off."""
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if not runtime:
        raise OSError("not running as the companion service (no RUNTIME_DIRECTORY)")
    Path(runtime, POWER_OFF_FILE).write_text("requested from the menu\n")


@dataclass
class Devices:
    """What the daemon opened, so it can close it all (in reverse order)."""

    display: Display | DisplayWorker
    leds: LedSink
    closers: list[Callable[[], None]] = field(default_factory=list)
    buzzer: Any = None  # a hardware.buzzer.Buzzer
    link: Any = None  # the co-processor link, when there is one
    # QLANET camps' own OLEDs
    private: dict[int, Display | DisplayWorker] = field(default_factory=dict)
    lock: Any = None  # the state directory's one-writer lock, released last


class Daemon:
    """The event loop around a :class:`Box`."""

    def __init__(self, box: Box, events: Inbox, classifier: Classifier,
                 notifier: Notifier | None = None, closers: list[Callable[[], None]] = (),
                 clock: Callable[[], float] = time.monotonic,
                 power_off: Callable[[], None] = request_power_off,
                 dim_after: float = 0.0, analyst: Any = None):
        self.box = box
        self.events = events
        self.classifier = classifier
        self.notifier = notifier or Notifier({})
        self.closers = list(closers)
        self.clock = clock
        self.stopping = False
        self.powering_off = False
        self._power_off = power_off
        self.dim_after = dim_after  # seconds without an input before the OLEDs dim; 0: never
        self._input_at = clock()
        self.links: dict[str, str] = {}  # reader link (port path) -> its last state
        self._tick_at: float | None = None
        self._ping_at: float | None = None
        self._checkpoint_at: float | None = None
        self._status = ""
        self._status_stale = True  # an input or a link change may have changed it
        self.analyst = analyst  # the analysis after the game (``analyses.Analyst``), or None

    # ------------------------------------------------------------------ loop

    def request_stop(self, *_: object) -> None:
        """Signal-handler safe: a flag and a reentrant queue put."""
        self.stopping = True
        self.events.put(_STOP)

    def run(self) -> int:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self.request_stop)
        self.notifier.ready(self.status_text())
        self._ping_at = self.clock()
        while not self.stopping:
            self.step(self.timeout())
        self.shutdown()
        return 0

    def timeout(self) -> float:
        """Seconds the loop may sleep: until the earliest thing that is due."""
        retries = [d.due_at for d in self._displays()]
        due = [t for t in (self._tick_at, self._ping_at, self._checkpoint_at,
                           self.classifier.deadline(), self._dim_at(), self._analysis_at(),
                           *retries)
               if t is not None]
        if not due:
            return IDLE_WAKE
        return max(0.0, min(min(due) - self.clock(), IDLE_WAKE))

    def step(self, timeout: float = 0.0) -> None:
        """Take at most one event (waiting up to ``timeout``), then do what is due."""
        try:
            event = self.events.get(timeout=timeout) if timeout > 0 else \
                self.events.get_nowait()
        except queue.Empty:
            event = None
        if event is not None and event is not _STOP and event is not WAKE:
            self.dispatch(event)
        now = self.clock()
        for e in self.classifier.due(now):
            self.handle(e)
        if self._tick_at is not None and now >= self._tick_at:
            self._tick_at = None
            self.handle(Tick())
        if self.box.display.retry():
            log.info("OLED frame restored")
        for seat, display in self.box.private_displays.items():
            if display.retry():
                log.info("private OLED %s restored", seat)
        dim_at = self._dim_at()
        if dim_at is not None and now >= dim_at:
            for display in self._displays():
                display.dim(True)
        if self._ping_at is not None and now >= self._ping_at:
            self.notifier.watchdog()
            interval = self.notifier.watchdog_interval
            self._ping_at = now + interval if interval else None
        self._schedule_tick(now)
        self._idle_checkpoint(now)
        if event is None:  # nothing waiting: the box's own work may go on
            self._analyse(now)
        self._update_status()

    def _analysis_at(self) -> float | None:
        """When the analysis after the game may do its next step (None: nothing to do,
        or a game is in play: a new game never waits for it)."""
        if self.analyst is None:
            return None
        session = self.box.session
        if session.mode == "game" and session.game.status not in ("won", "lost"):
            return None
        if not self.analyst.pending():
            return None
        return self._input_at + ANALYSIS_QUIET

    def _analyse(self, now: float) -> None:
        due = self._analysis_at()
        if due is None or now < due:
            return
        try:
            done = self.analyst.work()
        except Exception:  # noqa: BLE001 - the analysis is a guest: the box plays on
            log.exception("the analysis after the game failed; it is given up")
            self.analyst = None
            return
        if done is not None:
            log.info("game #%s analysed", done)
            self.box.session.analysis_ready(done)
            self.box.refresh()  # a story on show tells it now (a blink tick redraws nothing)

    def _displays(self) -> list[Display | DisplayWorker]:
        return [self.box.display, *self.box.private_displays.values()]

    def _dim_at(self) -> float | None:
        """When the OLEDs dim, unless an input comes first (None: not planned)."""
        if not self.dim_after or self.box.display.dimmed:
            return None
        return self._input_at + self.dim_after

    def _woken(self) -> None:
        """Someone is at the table: full contrast again."""
        self._input_at = self.clock()
        for display in self._displays():
            display.dim(False)

    def _idle_checkpoint(self, now: float) -> None:
        """A few seconds after the last input, fold the WAL into the journal file: what a
        damaged WAL frame can cost is then bounded by one burst of play."""
        if self._checkpoint_at is not None and now >= self._checkpoint_at:
            self._checkpoint_at = None
            self.box.session.journal.checkpoint()

    def dispatch(self, event: Any) -> None:
        self._status_stale = True
        if isinstance(event, Edge):
            for e in self.classifier.feed(event):
                self.handle(e)
        elif isinstance(event, (Tag, Press, Hold, Release, PinBurned)):  # a reader, a page
            self.handle(event)
        elif isinstance(event, LinkEvent):
            self.link_changed(event)
        elif isinstance(event, Refresh):  # a web page opened: publish the box as it is
            self.box.refresh()
        elif isinstance(event, RoomWaiting):  # the room's broker: between inputs only
            for command in event.take():
                self.handle(command)
        # Anything else (a tag lifted off a pad) changes nothing in these games.

    def handle(self, event: Any) -> None:
        """One input into the box; an unexpected failure reloads the game instead of
        ending the evening (the journal has every accepted input)."""
        if not isinstance(event, Tick):
            self._status_stale = True
            self._woken()
            if self.analyst is not None:
                self.analyst.poke()  # this input may end a game
        try:
            self.box.handle(event)
        except Exception:  # noqa: BLE001 - the daemon never dies from an input
            log.exception("input %r failed; reloading the game from the journal", event)
            self.recover()
        self._tick_at = None  # re-planned from the new state below
        self._checkpoint_at = self.clock() + CHECKPOINT_IDLE
        if self.box.session.request == "power_off":
            self.power_off()

    # Translators: The title of the screen when the box cannot switch itself off (a title
    # bar).
    def power_off(self) -> None:
        """The players chose "Switch the box off": ask for it, then stop."""
        session = self.box.session
        session.request = None
        try:
            self._power_off()
        except OSError as exc:
            log.error("cannot switch off: %s", exc)
            session.alert(_("Cannot switch off"), _("See the log; unplug when the LEDs are off."))
            self.box.refresh()
            return
        log.warning("switching the box off, as asked from the menu")
        self.powering_off = True
        self.request_stop()

    # Translators: The title of the screen after an unexpected error the box recovered from
    # (a title bar).
    def recover(self) -> None:
        self._status_stale = True
        old = self.box.session
        try:
            self.box.session = Session(old.journal, old.registry, old.config, old.seed_source)
            self.box.session.alert(_("Sorry: a hiccup"), _("That input was not used."),
                                   _("The game was reloaded from its journal."))
            self.box.refresh()
        except Exception:  # noqa: BLE001
            log.exception("reloading failed; carrying on with the previous session")
            self.box.session = old

    # Translators: The screens when the card readers go or come back; each line is a line of
    # the box's OLED screen (21 characters; Japanese 16 full-width).
    def link_changed(self, event: LinkEvent) -> None:
        """Tell the table when a reader goes away or comes back; never block on it."""
        state, detail = event.state, event.detail
        previous = self.links.get(event.source)
        self.links[event.source] = state
        session = self.box.session
        if state == "up":
            if previous in ("down", "stale"):
                session.alert(_("Readers back"), _("Tap cards again."),
                              replaces=(_("Readers lost"),))
        elif state in ("down", "stale"):
            if previous == "up":
                session.alert(_("Readers lost"),
                              _("Buttons still work; the box reconnects by itself."),
                              replaces=(_("Readers back"),))
        elif state == "version":
            session.alert(_("Reader firmware"), _("Unsupported version: update the firmware."))
            log.error("the Pico's firmware speaks another protocol (%s): run "
                      "'companion firmware install'", detail)
        log.info("reader %s %s: %s", event.source or "link", state, detail)
        if session.overlay is not None:
            self._woken()  # an alert on a dimmed screen would go unread
        self.box.refresh()

    def _schedule_tick(self, now: float) -> None:
        if self._tick_at is None:
            interval = self.box.tick_interval()
            if interval is not None:
                self._tick_at = now + interval

    def status_text(self) -> str:
        session = self.box.session
        if session.mode == "game" and session.game is not None:
            text = f"Game #{session.game_id}: {session.ui.status_line(session.game)}"
        elif session.mode == "setup":
            text = "Setting up a game"
        else:
            text = "Main menu"
        down = [source for source, state in self.links.items() if state in ("down", "stale")]
        if down:
            text += "; reader link down: " + ", ".join(down)
        return text

    def _update_status(self) -> None:
        if not self._status_stale:  # a blink or a ping changes nothing it says
            return
        self._status_stale = False
        text = self.status_text()
        if text != self._status:
            self._status = text
            self.notifier.status(text)

    # ------------------------------------------------------------------ stop

    def shutdown(self) -> None:
        self.notifier.stopping("Pausing")
        session = self.box.session
        if self.powering_off:
            _quietly(self.box.display.close)  # blank: nothing burns in on a dark box
        else:
            # Dimmed: the "Paused" screen may stay lit for hours on a panel left powered.
            _quietly(lambda: self.box.display.dim(True))
            _quietly(lambda: self.box.display.pause(oled.render(paused_screen(session))))
        _quietly(self.box.leds.close)  # before the link closes: "all off" goes over it
        for close in reversed(self.closers):
            _quietly(close)
        _quietly(session.journal.close)
        self.notifier.close()
        log.info("stopped")


def paused_screen(session: Session) -> dict[str, Any]:
    if session.mode == "game" and session.game_id is not None:
        lines = [f"Game #{session.game_id} is saved.", "It resumes when the box starts."]
    else:
        lines = ["Nothing in play.", "Games are saved as they go."]
    return {"screen": "text", "title": "Paused", "lines": lines}


def _quietly(action: Callable[[], Any]) -> None:
    """Shutdown goes on whatever one device does."""
    try:
        action()
    except Exception:  # noqa: BLE001
        log.exception("during shutdown")


# ---------------------------------------------------------------------- building


def open_devices(config: Any, put: Callable[[Any], None],
                 clock: Callable[[], float] = time.monotonic,
                 background: bool = False) -> Devices:
    """Open everything the config names. Readers that are missing do not stop the box
    (they reconnect by themselves); GPIO that cannot be opened does (see ``doctor``).
    ``background``: each OLED on a worker thread of its own (``companion run``: the
    loop never waits for the bus), which wakes the loop with ``put(WAKE)``."""
    from .hardware.buttons import GpioButtons
    from .hardware.buzzer import Buzzer, GpioBuzzer
    from .hardware.leds import FirmwareLeds, GpioLeds, default_led_map_path, load_led_map
    from .hardware.display import RETRY_WAIT
    from .hardware.oled import open_display, open_private_displays

    # A stuck bus hangs each transfer for the kernel's timeout: re-opens wait on a
    # thread of their own, costing the loop at most RETRY_WAIT each.
    def wake() -> None:
        put(WAKE)

    display: Display | DisplayWorker = open_display(config.oled, clock, retry_wait=RETRY_WAIT)
    if background:
        display = DisplayWorker(display, wake)
    closers: list[Callable[[], None]] = []
    link = None
    try:
        # A camp's own OLED clears when the box stops (a secret is not left on show).
        private: dict[int, Display | DisplayWorker] = dict(open_private_displays(
            config.oled, config.private_oled, clock, retry_wait=RETRY_WAIT))
        if background:
            private = {camp: DisplayWorker(d, wake, f"camp-{camp}")
                       for camp, d in private.items()}
        closers += [d.close for d in private.values()]
        buttons = GpioButtons(config.buttons.pins, put, pull_up=config.buttons.pull_up,
                              clock=clock)
        closers.append(buttons.close)
        if "firmware" in (config.reader.kind, config.leds.sink):
            from .hardware.link import SerialLink

            link = SerialLink(config.link.device, config.link.baud, put, clock=clock)
            closers.append(link.close)
        if config.reader.kind == "rdm6300":
            from .hardware.rdm6300 import Rdm6300Reader

            for pad, path in enumerate(config.reader.rdm6300, 1):
                reader = Rdm6300Reader(path, pad, put, baud=config.reader.rdm6300_baud,
                                       clock=clock)
                closers.append(reader.close)
        buzzer = Buzzer()
        if config.buzzer.pin is not None:
            buzzer = GpioBuzzer(config.buzzer.pin)
            closers.append(buzzer.close)
        leds: LedSink
        if config.leds.sink == "firmware":
            chain = load_led_map(config.leds.map or default_led_map_path())
            leds = FirmwareLeds(link, chain, config.leds.brightness, config.leds.off_at_exit)
        elif config.leds.sink == "gpio":
            leds = GpioLeds(config.leds.track_pins, config.leds.planets,
                            config.leds.brightness, config.leds.off_at_exit)
        else:
            leds = LedSink()
    except BaseException:
        for close in reversed(closers):
            _quietly(close)
        display.close()
        raise
    return Devices(display, leds, closers, buzzer, link, private)


def next_inputs(events: Any, classifier: Classifier, wait: float,
                clock: Callable[[], float] = time.monotonic) -> list[Any]:
    """For the small loops of ``enroll`` and ``selftest``: wait up to ``wait`` s (less if
    a hold falls due) for one queued event; return the presses, holds and tags it and
    the passing time complete. Link events and lifted tags are dropped."""
    deadline = classifier.deadline()
    if deadline is not None:
        wait = min(wait, max(0.0, deadline - clock()))
    try:
        event = events.get(timeout=wait)
    except queue.Empty:
        event = None
    found = classifier.feed(event) if isinstance(event, Edge) else \
        [event] if isinstance(event, Tag) else []
    return found + classifier.due(clock())


def open_for(command: str, config_path: str | None,
             events: Inbox) -> tuple[Any, Devices] | int:
    """Config and devices for a hands-on command, or its exit status with the reason
    printed: 2 for a bad config file, 1 when the hardware cannot be opened."""
    from . import config as configuration
    from . import statelock
    from .hardware.leds import LedMapError

    lock = None
    try:
        config = configuration.load(config_path)
        if command in ("run", "enroll"):  # they write the state directory: one at a time
            try:
                lock = statelock.acquire(config.paths.state_dir, command)
            except OSError as exc:  # not the hardware's fault: say which folder and why
                print(f"companion {command}: cannot use the state directory "
                      f"{config.paths.state_dir}: {exc.strerror or exc} (paths.state_dir in "
                      "the config; it must be a folder this user may write)", file=sys.stderr)
                return 2
        devices = open_devices(config, events.put, background=command == "run")
        devices.lock = lock
        return config, devices
    except (configuration.ConfigError, LedMapError, statelock.Locked) as exc:
        if lock is not None:
            lock.release()
        print(f"companion {command}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - one line; doctor has the details
        if lock is not None:
            lock.release()
        print(f"companion {command}: cannot open the hardware: {type(exc).__name__}: {exc} "
              "(is the service running? sudo systemctl stop companion; then companion "
              "doctor)", file=sys.stderr)
        return 1


def close_devices(devices: Devices) -> None:
    """LEDs first (their "all off" may travel over the link), then inputs and links."""
    _quietly(devices.leds.close)
    _quietly(devices.display.close)
    for close in reversed(devices.closers):
        _quietly(close)
    if devices.lock is not None:
        devices.lock.release()


# Translators: Titles of the screens when a file or the web page failed at start (a title
# bar).
def main(config_path: str | None) -> int:
    """``companion run``. Exit 2: bad config file or LED map; 1: the hardware or the
    journal cannot be opened (2 if it is not a companion journal this version can
    use); a damaged journal is salvaged. A broken tag file only disables tapping."""
    from . import config as configuration
    from . import recovery
    from .journal import JournalError
    from .registry import Registry, RegistryError

    _log_to_stderr()
    # A watchdog abort (SIGABRT from systemd) or a fatal error leaves every thread's
    # traceback on stderr, which is the journal under systemd.
    faulthandler.enable()
    events = Inbox()
    opened = open_for("run", config_path, events)
    if isinstance(opened, int):
        return opened
    config, devices = opened
    notifier = Notifier()
    started = notifier.keep_starting()  # the journal's replay or salvage may take long
    alerts: list[tuple[str, ...]] = []
    state_dir = Path(config.paths.state_dir)
    language.start(state_dir, config.game.language)  # before any alert is worded
    alerts += engine_build_alerts()
    try:
        registry = Registry.load(config.paths.registry_path)
    except RegistryError as exc:
        # No tags is a playable box (buttons only); a broken file is kept for fixing.
        missing = not Path(config.paths.registry_path).exists()
        if not missing:
            log.error("%s", exc)
            alerts.append((_("Tag file broken"),
                           _("Cards cannot be tapped; buttons work. See the log.")))
        else:
            log.info("no tag registry at %s yet: 'companion enroll' makes one",
                     config.paths.registry_path)
        registry = Registry()
    # A damaged journal (a worn SD card, a torn write) must neither stop the evening
    # nor lose a game quietly: recovery salvages it, and the log and the OLED say
    # what was kept and lost. A journal that is sound but not ours to change (a newer
    # schema, another program's database) stops the box with exit 2, like a bad
    # config; a system problem (permissions, a full or failing disk) with exit 1.
    session_config = configuration.session_config(config)
    pairing = None
    if config.web.enabled:
        from .web import service

        pairing = service.pairing_for(config.web, events.put, state_dir)
        session_config.web_pin = pairing.new_pin if pairing else None
    try:
        # 0700: games and tags are the service user's only, even where no systemd
        # StateDirectoryMode= made the folder first (an existing one is left as it is).
        state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        session_config.save_language = functools.partial(language.save, state_dir)
        session = recovery.open_session(state_dir / "journal.db", registry, session_config)
    except (OSError, JournalError) as exc:
        status = 2 if isinstance(exc.__cause__, JournalError) else 1
        print(f"companion: journal: {exc}", file=sys.stderr)
        devices.display.pause(oled.render({"screen": "error",
                                           "text": _("The journal cannot be opened (see the log)")}))
        close_devices(devices)
        return status
    for alert in alerts:
        session.alert(*alert)
    box = Box(session, devices.display, devices.leds, devices.buzzer,
              private_displays=devices.private)
    if config.web.enabled:
        try:  # the page is a guest: the box plays on without it
            server = service.start(config.web, box, events.put, pairing)
            devices.closers.append(server.stop)
            from .web.address import PageAddress

            session.config.web_url = PageAddress(config.web.address, server.port)
        except OSError as exc:
            log.error("web page: cannot listen on %s port %s: %s (under systemd, "
                      "install.sh adds the unit's web drop-in when [web] is enabled: "
                      "run it again)", config.web.address, config.web.port, exc)
            session.alert(_("Web page off"), _("It cannot listen; see the log."))
    if config.mqtt.enabled:
        try:  # the broker is a guest too: the box plays on without it
            from .mqtt import service as mqtt_service

            devices.closers.append(mqtt_service.start(config.mqtt, box, events.put))
        except (OSError, sqlite3.Error) as exc:  # the password file, the outbox
            log.error("MQTT: cannot start: %s", exc)
            session.alert(_("MQTT off"), _("It cannot start; see the log."))
    recovery.shown(state_dir / "journal.db")  # the alerts are on the OLED now
    # EXCHANGE also reports its release, so QLANET's peek shows only while it is held.
    classifier = Classifier(config.buttons.hold_time, config.buttons.debounce, releasing=PEEK)
    from .analyses import FILE, Analyses, Analyst

    analyses = Analyses(state_dir / FILE)
    session.config.analysis = analyses.get
    daemon = Daemon(box, events, classifier, notifier, devices.closers,
                    dim_after=config.oled.dim_after,
                    analyst=Analyst(session.journal, analyses))
    started()
    from . import hintrate

    hintrate.start(state_dir)  # the hint's budget from this box's speed (kept after once)
    try:
        return daemon.run()
    finally:
        if devices.lock is not None:
            devices.lock.release()  # after the journal is closed


# Translators: The screen when the compiled engine could not be built; each line is a line
# of the box's OLED screen (21 characters; Japanese 16 full-width).
def engine_build_alerts() -> list[tuple[str, str]]:
    """A compiled engine on disk that was refused (see ``companion.games.compiled``):
    the box plays on in pure Python, with one log line and an alert saying so."""
    from .games import compiled

    line = compiled.alert_line()
    if line is None:
        return []
    log.warning("%s", line)
    return [(_("Sorry: a hiccup"), _("See the log."))]


class _JournaldFormatter(logging.Formatter):
    """``<N>`` priority prefixes: journald strips them and files the line at that level."""

    PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
                logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{self.PRIORITY.get(record.levelno, 6)}>"
        return "\n".join(prefix + line for line in text.splitlines())


def _log_to_stderr() -> None:
    handler = logging.StreamHandler(sys.stderr)
    # Under systemd stderr is the journal (JOURNAL_STREAM is set): priorities, no times.
    journald = "JOURNAL_STREAM" in os.environ
    handler.setFormatter(_JournaldFormatter("%(name)s: %(message)s") if journald
                         else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
