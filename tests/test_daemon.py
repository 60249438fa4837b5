"""The daemon's loop with fakes for every device: mock GPIO pins, luma's real OLED
stack over a fake SMBus and simulated panel, a recording LED sink, a real notify socket."""

import queue
import socket
from types import SimpleNamespace

import pytest

from companion.box import Box
from companion.daemon import Daemon, paused_screen
from companion.hardware.buttons import Classifier, GpioButtons
from companion.hardware.leds import FirmwareLeds
from companion.hardware.fake_bus import FakeBuses
from companion.hardware.oled import open_display
from companion.inputs import Tag, Refresh
from companion.journal import Journal
from companion.notify import Notifier
from companion.registry import Registry, sim_registry
from companion.session import Session, SessionConfig
from companion.views import oled

H = "04E10101010000"  # the first H card in the simulator's registry
PINS = {"OK": 5, "BACK": 6, "UP": 13, "DOWN": 19, "RETRIEVE": 26, "EXCHANGE": 16}
OLED = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, rotate=0,
                       contrast=255, width=128, height=64)


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


class Link:
    def __init__(self):
        self.frames = []

    def send_leds(self, pixels):
        self.frames.append(list(pixels))

    def set_brightness(self, level):
        pass


@pytest.fixture
def gpio(monkeypatch):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


class Rig:
    def __init__(self, tmp_path, gpio, notifier=None, seed=6):
        self.clock = Clock()
        self.gpio = gpio
        self.events = queue.SimpleQueue()
        self.buses = FakeBuses(self.clock)
        self.panel = self.buses.i2c_panel()
        self.bus = self.buses.i2c[1]
        self.journal = Journal(tmp_path / "journal.db")
        self.registry = sim_registry()
        self.buttons = GpioButtons(PINS, self.events.put, clock=self.clock)
        self.link = Link()
        session = Session(self.journal, self.registry, SessionConfig(), lambda: seed)
        display = open_display(OLED, self.clock, self.buses)
        self.box = Box(session, display, FirmwareLeds(self.link))
        self.daemon = Daemon(self.box, self.events, Classifier(0.8, 0.03),
                             notifier or Notifier({}), [self.buttons.close], self.clock)

    @property
    def session(self):
        return self.box.session

    def settle(self, seconds=0.0):
        """Run the loop until nothing is queued, letting ``seconds`` of time pass."""
        end = self.clock.now + seconds
        while True:
            self.daemon.step(0)
            due = [t for t in (self.daemon._tick_at, self.daemon.classifier.deadline(),
                               self.box.display.retry_at, self.daemon._dim_at())
                   if t is not None and t <= end]
            if self.events.empty() and not due:
                break
            if self.events.empty():
                self.clock.now = min(due)
        self.clock.now = end

    def press(self, name, hold=0.1):
        pin = self.gpio.pin(PINS[name])
        pin.drive_low()
        self.settle(hold)
        pin.drive_high()
        self.settle(0.1)

    def screen(self):
        return self.session.screen()


def start_game(rig):
    """Main menu -> Entanglion -> defaults for setup -> the game is on."""
    for _ in range(4):
        rig.press("OK")  # New game, then difficulty, deck and dice at their defaults
    assert rig.session.mode == "game"
    rig.press("BACK")  # skip the setup notices
    assert rig.screen()["screen"] == "status"


def navigate(rig):
    """Mercurial taps an H (seed 6 deals one) on pad 1: a move with a defence roll."""
    rig.events.put(Tag(1, H))
    rig.settle()


def test_buttons_drive_the_session_through_the_loop(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    assert rig.screen()["screen"] == "menu"
    rig.press("OK")
    assert rig.session.mode == "setup" and rig.screen()["cursor"] == 0
    rig.press("DOWN")
    assert rig.screen()["cursor"] == 1
    rig.press("UP")
    assert rig.screen()["cursor"] == 0
    assert rig.box.display.frames_sent >= 3 and rig.bus.data_transfers >= 3


def test_a_held_back_is_an_undo_without_letting_go(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    start_game(rig)
    before = len(rig.session.game.inputs)
    navigate(rig)
    rig.settle(3)  # the roll animation plays out on ticks
    after = len(rig.session.game.inputs)
    assert after > before
    rig.gpio.pin(PINS["BACK"]).drive_low()
    rig.settle(1.0)  # past hold_time: the loop fires Hold on its own deadline
    assert rig.screen()["screen"] == "undo"
    assert len(rig.session.game.inputs) == before
    rig.gpio.pin(PINS["BACK"]).drive_high()
    rig.settle(0.1)
    assert rig.screen()["screen"] == "undo"  # the release did not also press BACK


def test_animation_ticks_come_from_the_loop_and_stop_when_idle(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    start_game(rig)
    navigate(rig)
    for _ in range(10):
        if rig.screen()["screen"] == "roll":
            break
        shown = rig.screen()
        if shown["screen"] == "menu" and shown["items"][shown["cursor"]] == "Hint":
            rig.press("DOWN")  # the move menu opens on its Hint: the first move is below
        rig.press("OK")
    frames = rig.box.display.frames_sent
    rig.settle(2)
    assert rig.box.display.frames_sent > frames + 3  # the die tumbled
    assert rig.daemon._tick_at is None or rig.box.tick_interval() is not None
    idle = rig.box.display.frames_sent
    rig.settle(60)
    assert rig.box.display.frames_sent == idle  # nothing changes, nothing is sent


def test_a_tag_from_a_reader_is_an_input(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    rig.events.put(Tag(1, H))  # an H card, with no game: refused kindly
    rig.settle()
    assert rig.screen()["screen"] == "error"


def test_link_events_tell_the_players_and_never_block(tmp_path, gpio):
    from companion.hardware.link import LinkEvent

    rig = Rig(tmp_path, gpio)
    rig.events.put(LinkEvent("up", "fw=1.0"))
    rig.settle()
    assert rig.screen()["screen"] == "menu"  # first contact is not news
    rig.events.put(LinkEvent("down", "device unplugged"))
    rig.settle()
    assert rig.screen()["title"] == "Readers lost"
    assert "reader link down" in rig.daemon.status_text()
    rig.press("OK")  # dismissed; the buttons still work
    assert rig.screen()["screen"] == "menu"
    rig.events.put(LinkEvent("up", "fw=1.0"))
    rig.settle()
    assert rig.screen()["title"] == "Readers back"


def test_each_reader_port_is_tracked_on_its_own(tmp_path, gpio):
    """RDM6300 builds have a port per pad: one coming up must not hide another down."""
    from companion.hardware.link import LinkEvent

    rig = Rig(tmp_path, gpio)
    for source in ("/dev/ttyUSB0", "/dev/ttyUSB1"):
        rig.events.put(LinkEvent("up", "", source))
    rig.events.put(LinkEvent("down", "unplugged", "/dev/ttyUSB1"))
    rig.events.put(LinkEvent("up", "", "/dev/ttyUSB0"))
    rig.settle()
    assert rig.daemon.status_text() == "Main menu; reader link down: /dev/ttyUSB1"


def test_an_unexpected_failure_reloads_the_game_from_the_journal(tmp_path, gpio, caplog):
    rig = Rig(tmp_path, gpio)
    start_game(rig)
    game_id, inputs = rig.session.game_id, list(rig.session.game.inputs)

    def explode(event):
        raise RuntimeError("bug in a rule")

    rig.session.handle = explode
    navigate(rig)
    assert "bug in a rule" in caplog.text
    assert rig.session.game_id == game_id and rig.session.game.inputs == inputs
    assert rig.screen()["title"] == "Sorry: a hiccup"
    rig.press("OK")
    navigate(rig)  # the fresh session plays on
    assert len(rig.session.game.inputs) == len(inputs) + 1


def test_switch_off_from_the_menu_asks_systemd_then_stops_with_a_blank_screen(
        tmp_path, gpio, monkeypatch):
    from companion import daemon as daemon_module

    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    rig = Rig(tmp_path, gpio)
    for button in ("UP", "OK", "DOWN", "OK"):  # the last item, then "Yes, switch off"
        rig.press(button)
    assert (runtime / daemon_module.POWER_OFF_FILE).exists()
    assert rig.daemon.stopping and rig.daemon.powering_off
    rig.daemon.shutdown()
    assert not rig.panel.lit  # dark, not a "Paused" screen left to burn in
    assert set(rig.link.frames[-1]) == {(0, 0, 0)}


def test_switch_off_outside_the_service_says_why_and_keeps_running(tmp_path, gpio,
                                                                  monkeypatch):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    rig = Rig(tmp_path, gpio)
    for button in ("UP", "OK", "DOWN", "OK"):
        rig.press(button)
    assert not rig.daemon.stopping
    assert rig.screen()["title"] == "Cannot switch off"


def test_shutdown_pauses_the_screen_turns_leds_off_and_closes(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    start_game(rig)
    rig.daemon.request_stop()
    rig.daemon.shutdown()
    assert rig.box.display.image.tobytes() == oled.render(paused_screen(rig.session)).tobytes()
    assert rig.panel.image().tobytes() == rig.box.display.image.tobytes()  # on the glass
    assert rig.box.display.device.persist and rig.bus.closes == rig.bus.opens
    assert set(rig.link.frames[-1]) == {(0, 0, 0)}
    assert not rig.buttons.buttons  # released
    assert "saved" in paused_screen(rig.session)["lines"][0]
    with pytest.raises(Exception):
        rig.journal.games()  # closed


def test_run_sends_ready_watchdog_and_stopping(tmp_path, gpio):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"})
    rig = Rig(tmp_path, gpio, notifier)
    rig.daemon.clock = __import__("time").monotonic  # real time for a real loop
    stopper = __import__("threading").Timer(0.5, rig.daemon.request_stop)
    stopper.start()
    assert rig.daemon.run() == 0
    got = []
    try:
        while True:
            got.append(sock.recv(4096).decode())
            if got[-1].startswith("STOPPING=1"):
                break
    finally:
        sock.close()
    assert got[0] == "READY=1\nSTATUS=Main menu"
    assert got.count("WATCHDOG=1") >= 2  # every 0.1 s from the loop itself
    assert got[-1] == "STOPPING=1\nSTATUS=Pausing"


def test_status_line_follows_the_game(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    assert rig.daemon.status_text() == "Main menu"
    start_game(rig)
    assert rig.daemon.status_text().startswith(f"Game #{rig.session.game_id}: turn 1, ")


def test_a_registry_without_tags_still_plays(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    rig.session.registry = Registry()
    rig.events.put(Tag(1, H))
    rig.settle()
    assert rig.screen()["screen"] == "error"
    rig.press("OK")
    rig.press("OK")
    assert rig.session.mode == "setup"


def test_open_devices_for_the_build_without_a_co_processor(tmp_path, gpio):
    """No Pico: RDM6300 readers on serial ports, the track on GPIO, a buzzer. A tag on
    pad 2's reader arrives as Tag(2, uid); everything closes again."""
    import os
    import pty
    import time

    from companion.config import (BuzzerConfig, Config, LedsConfig, OledConfig,
                                  ReaderConfig)
    from companion.daemon import close_devices, open_devices
    from companion.hardware import rdm6300
    from companion.hardware.leds import GpioLeds
    from companion.hardware.link import LinkEvent

    ports = [pty.openpty() for _ in range(2)]
    try:
        config = Config(
            oled=OledConfig(driver="none"),
            reader=ReaderConfig(kind="rdm6300",
                                rdm6300=tuple(os.ttyname(slave) for _, slave in ports)),
            leds=LedsConfig(sink="gpio", track_pins=(20, 21, 22, 23)),
            buzzer=BuzzerConfig(pin=12))
        events = queue.SimpleQueue()
        devices = open_devices(config, events.put)
        assert isinstance(devices.leds, GpioLeds) and devices.link is None

        def wait_for(wanted):
            deadline, got = time.monotonic() + 5, []
            while time.monotonic() < deadline and wanted not in got:
                try:
                    got.append(events.get(timeout=0.1))
                except queue.Empty:
                    pass
            assert wanted in got

        # Opening sets the tty raw; bytes written before that may be cooked away.
        wait_for(LinkEvent("up", "RDM6300 reader for pad 2", os.ttyname(ports[1][1])))
        os.write(ports[1][0], rdm6300.frame("67003B51C6") * 2)  # a resting card repeats
        wait_for(Tag(2, "67003B51C6"))
        devices.buzzer.play("refused")
        close_devices(devices)
        assert gpio.pin(5).function == "input"  # buttons released
    finally:
        for master, slave in ports:
            os.close(master)
            os.close(slave)


def test_a_gpio_that_cannot_be_opened_leaves_nothing_open(tmp_path, gpio):
    from gpiozero import Button
    from gpiozero.exc import GPIOPinInUse

    from companion.config import Config, LedsConfig, OledConfig, ReaderConfig
    from companion.daemon import open_devices

    squatter = Button(16)  # EXCHANGE's pin, held by "another program"
    config = Config(oled=OledConfig(driver="none"), reader=ReaderConfig(kind="none"),
                    leds=LedsConfig(sink="none"))
    with pytest.raises(GPIOPinInUse):
        open_devices(config, lambda e: None)
    squatter.close()
    open_devices(config, lambda e: None).closers[0]()  # every pin was freed


def test_private_oleds_are_opened_shown_and_retried(tmp_path, gpio):
    """QLANET's camp screens: opened from [private_oled], given to the box, and part of
    the loop's retry schedule like the main OLED."""
    from companion.config import Config, LedsConfig, OledConfig, PrivateOledConfig, ReaderConfig
    from companion.daemon import close_devices, open_devices

    config = Config(oled=OledConfig(driver="none"), reader=ReaderConfig(kind="none"),
                    leds=LedsConfig(sink="none"),
                    private_oled=PrivateOledConfig(addresses=(0x3D, 0x3E)))
    devices = open_devices(config, lambda e: None)
    try:
        assert sorted(devices.private) == [0, 1]
        assert all(d is not devices.display for d in devices.private.values())
    finally:
        close_devices(devices)


def test_the_oled_dims_when_nobody_plays_and_wakes_with_the_next_press(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    rig.daemon.dim_after = 300.0
    rig.daemon._input_at = rig.clock.now
    start_game(rig)
    assert rig.panel.contrast == 255
    rig.settle(299)
    assert rig.panel.contrast == 255 and not rig.box.display.dimmed
    rig.settle(2)  # the loop woke for it: nothing else was due
    assert rig.box.display.dimmed and rig.panel.contrast == 1 and rig.panel.lit
    rig.press("DOWN")
    assert not rig.box.display.dimmed and rig.panel.contrast == 255


def test_a_dimmed_panel_that_reconnects_stays_dim(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    rig.box.display.dim(True)
    rig.bus.down = True
    rig.session.alert("Readers lost")  # a new screen without anyone at the table
    rig.box.refresh()  # its frame fails: the panel is being retried
    assert rig.box.display.failures
    rig.panel.power_cycle()
    rig.bus.down = False
    rig.settle(1.0)
    assert rig.box.display.failures == 0 and rig.panel.lit
    assert rig.panel.contrast == 1  # still dim after the fresh init


def test_the_paused_screen_is_left_dimmed(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    rig.daemon.request_stop()
    rig.daemon.shutdown()
    assert rig.panel.lit and rig.panel.contrast == 1


def test_an_idle_box_checkpoints_the_journal(tmp_path, gpio):
    """A few seconds after the last input the WAL is folded into the journal file, so a
    damaged WAL frame can cost at most one burst of play."""
    import os

    from companion.daemon import CHECKPOINT_IDLE

    rig = Rig(tmp_path, gpio)
    start_game(rig)
    navigate(rig)
    wal = tmp_path / "journal.db-wal"
    assert wal.stat().st_size > 0
    assert rig.daemon.timeout() <= CHECKPOINT_IDLE  # the loop wakes for it
    rig.clock.now += CHECKPOINT_IDLE
    rig.daemon.step(0)
    assert os.path.getsize(wal) == 0 and not rig.journal._dirty
    rig.journal.close()


def test_a_refresh_asked_by_a_web_page_publishes_the_box_and_changes_nothing(tmp_path, gpio):
    rig = Rig(tmp_path, gpio)
    seen = []
    rig.box.observers.append(lambda box, image: seen.append(box.session.screen()))
    start_game(rig)
    inputs, frames = len(rig.session.game.inputs), rig.box.display.frames_sent
    seen.clear()
    rig.events.put(Refresh())
    rig.settle()
    assert seen == [rig.screen()]  # published once, as it is
    assert len(rig.session.game.inputs) == inputs and rig.box.display.frames_sent == frames
