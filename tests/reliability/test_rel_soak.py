"""Soak: random complete games through the daemon's input path, with fake hardware.

The daemon is built as ``companion run`` builds it (``bench.harness.Rig``): presses
are edges on mock GPIO pins that gpiozero hands to the buttons' callbacks, taps are
tag events on the loop's queue, and the loop's own ``step`` dispatches them through
the debouncer into the session, the journal, the OLED driver and the LEDs. The
AutoPlayer plays every game to its end with random setups, with and without RFID,
and noise is thrown in between its moves: unknown tags, tags on a pad nobody has,
cards of another game, stray arrows and undos. Not a single input may fail (the
daemon logs an error and reloads the game when one does), and every finished game
replays from its journal to the same state. CI plays a few games;
``COMPANION_LONG=1`` plays 10,000.
"""

from __future__ import annotations

import random

import pytest

from bench.harness import ErrorLog, Rig, command_event, scale, write_config
from companion.autoplay import AutoPlayer
from companion.inputs import Tag
from companion.journal import Journal

GAMES = scale(6, 10_000)
OTHER_GAMES = scale(3, 1_000)  # each of QNO and QLANET
UNKNOWN = "04FFFFFFFFFF00"  # a tag in no registry


def noise(rig: Rig, rnd: random.Random) -> None:
    """One input a player or a flaky reader might produce at any moment."""
    kind = rnd.randrange(6)
    if kind == 0:
        rig.tap(rnd.choice((1, 2, 3)), UNKNOWN)
    elif kind == 1:
        uid = rig.registry.find("H")[0][0]
        rig.tap(7, uid)  # a pad that is not configured
    elif kind == 2:
        playing = rig.session.ui.NAME if rig.session.mode != "menu" else "entanglion"
        other = [uid for uid, card in rig.registry if card.game != playing]
        if other:
            rig.tap(rnd.choice((1, 2)), rnd.choice(other))
    elif kind == 3:
        rig.press(rnd.choice(("UP", "DOWN")))
    elif kind == 4:
        rig.hold("BACK")  # undo
    else:
        rig.press("BACK")
    rig.finish_animations()


def play(rig: Rig, player: AutoPlayer, rnd: random.Random, limit: int = 20_000) -> int:
    for n in range(limit):
        if not player._plan and rnd.random() < 0.03:
            noise(rig, rnd)
        command = player.next_command(rig.session)
        if command is None:
            return n
        rig.input(command_event(rig.registry, command, player.game))
    raise AssertionError(f"no end after {limit} commands")


def test_random_complete_games_through_the_daemon_input_path(fast_dir):
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    rnd = random.Random(20260806)
    seeds = iter(range(7_000_000, 8_000_000))
    outcomes: dict[str, int] = {}
    with ErrorLog() as errors, Rig(config, seed=lambda: next(seeds)) as rig:
        for n in range(GAMES):
            options = {"start_space": rnd.choice((1, 2, 4)),
                       "deck": rnd.choice(("virtual", "physical")),
                       "dice": rnd.choice(("auto", "auto", "manual"))}
            player = AutoPlayer(rnd.randrange(2**32), taps=rnd.random() < 0.8,
                                options=options)
            play(rig, player, rnd)
            s = rig.session
            game = s.game
            assert game.status in ("won", "lost"), n
            outcomes[game.status] = outcomes.get(game.status, 0) + 1
            record = rig.journal.load(s.game_id)
            assert record.status == game.status
            replayed = s.ui.replay(record.seed, record.options, record.setup,
                                   Journal.effective_inputs(record.entries))
            assert replayed.to_dict() == game.to_dict(), f"game {n} does not replay"
            rig.new_game_from_the_end()
        assert not errors.records, errors.text()
        assert rig.display.failures == 0
    assert sum(outcomes.values()) == GAMES


@pytest.mark.parametrize("name, options", [
    ("qno", lambda rnd: {"players": rnd.choice((2, 3, 4, 5, 6)),
                         "hands": rnd.choice(("tracked", "honour"))}),
    ("qlanet", lambda rnd: {})])
def test_qno_and_qlanet_games_through_the_daemon_input_path(fast_dir, name, options):
    """The same soak for the two other games, with the same noise between moves."""
    config = write_config(fast_dir / "config.toml", state_dir=fast_dir / "state")
    rnd = random.Random(20261122)
    seeds = iter(range(9_000_000, 10_000_000))
    with ErrorLog() as errors, Rig(config, seed=lambda: next(seeds)) as rig:
        for n in range(OTHER_GAMES):
            player = AutoPlayer(rnd.randrange(2**32), taps=rnd.random() < 0.8,
                                options=options(rnd), game=name)
            play(rig, player, rnd)
            s = rig.session
            assert s.ui.NAME == name and s.game.status == "won", n
            record = rig.journal.load(s.game_id)
            replayed = s.ui.replay(record.seed, record.options, record.setup,
                                   Journal.effective_inputs(record.entries))
            assert replayed.to_dict() == s.game.to_dict(), f"{name} game {n} does not replay"
            rig.new_game_from_the_end()
        assert not errors.records, errors.text()


def test_a_tag_event_for_every_kind_of_garbage_uid_is_refused_calmly(tmp_path):
    """What a reader could deliver, straight onto the queue: nothing raises."""
    config = write_config(tmp_path / "config.toml", state_dir=tmp_path / "state")
    with ErrorLog() as errors, Rig(config) as rig:
        for _ in range(4):
            rig.press("OK")
        for uid in ("", "0", "zz", "04", "04E1010101000000000000000000", "04e10101010000",
                    "04:E1:01:01:01:00:00", " 04E10101010000 ", "\x00" * 7, "04E1" * 40):
            for pad in (0, 1, 2, 3, 9, -1):
                rig.events.put(Tag(pad, uid))
        rig.settle()
        assert not errors.records, errors.text()
