"""An OLED on a loose wire: I2C errors on every Nth frame, or for seconds on end.

The daemon is built as ``companion run`` builds it (``bench.harness.Rig``), its OLED
on luma's real SSD1306 driver over a fake I2C bus that raises ``OSError(EREMOTEIO)``
on demand. The game must go on at full speed (the loop never waits for the panel)
and the panel must come back by itself showing the current screen.
"""

from __future__ import annotations

import pytest

from bench.harness import ErrorLog, Rig, write_config
from companion.autoplay import AutoPlayer
from companion.hardware.display import MAX_BACKOFF
from companion.views import oled


def shows_the_current_screen(rig: Rig) -> bool:
    image = rig.display.image
    return image is not None and \
        image.tobytes() == oled.render(rig.session.screen()).tobytes()


def recover(rig: Rig) -> None:
    """Faults over: within the longest back-off the panel is re-initialised."""
    rig.bus.every = 0
    rig.bus.down_until = float("-inf")
    rig.settle(MAX_BACKOFF + 1)
    assert rig.display.failures == 0
    assert shows_the_current_screen(rig)


@pytest.mark.parametrize("every", [3, 7])
def test_every_nth_frame_failing_costs_no_input(fast_dir, every):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    with ErrorLog() as errors, Rig(config, seed=3) as rig:
        rig.bus.every = every
        commands = rig.play(AutoPlayer(3))
        game = rig.session.game
        assert game.status in ("won", "lost") and commands > 100
        assert rig.bus.failed > 0 and rig.bus.opens > 1  # it did fail, and re-opened
        recover(rig)
        record = rig.journal.load(rig.session.game_id)
        assert record.inputs == len(game.inputs) and record.status == game.status
        assert not errors.records, errors.text()  # warnings only: never an input lost


def test_a_burst_of_seconds_without_the_panel(fast_dir):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    with ErrorLog() as errors, Rig(config, seed=3) as rig:
        player = AutoPlayer(3)
        for _ in range(30):  # into the game
            rig.input_command(player)
        assert rig.session.mode == "game"
        before = len(rig.session.game.inputs)
        sent = rig.display.frames_sent
        rig.bus.down_until = rig.clock.now + 6.0  # the wire is off for 6 s
        while rig.clock.now < rig.bus.down_until:
            rig.input_command(player)
        during = len(rig.session.game.inputs) - before
        assert during > 0, "the game stopped while the panel was away"
        assert rig.display.frames_sent == sent  # none got through...
        assert rig.display.failures > 0  # ...and it kept trying, with back-off
        assert rig.bus.failed < 20  # back-off: not one attempt per input
        recover(rig)
        # The newest frame went out, not a backlog of every one missed.
        assert rig.display.frames_sent - sent <= 2
        assert not errors.records, errors.text()


def test_a_panel_that_never_answers_never_stops_the_game(fast_dir):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    with ErrorLog() as errors, Rig(config, seed=3) as rig:
        rig.bus.down_until = float("inf")
        rig.play(AutoPlayer(3))
        assert rig.session.game.status in ("won", "lost")
        assert rig.display.frames_sent == 0 or rig.display.failures > 0
        assert not errors.records, errors.text()
        recover(rig)
