"""Room commands on the box: told on the OLED, rules only for the next game's set-up."""

from __future__ import annotations

from web_rig import make_sim, play

from companion.autoplay import AutoPlayer
from companion.inputs import Press, RoomCommand


def start_game(sim) -> None:
    for _ in range(5):  # main menu, the three set-up steps, the game begins
        sim.box.handle(Press("OK"))


def test_rules_wait_for_the_next_game_and_its_set_up_starts_on_them(tmp_path):
    sim = make_sim(tmp_path, 3)
    s = sim.box.session
    told = []

    def mid_game(sim):
        if s.mode == "game" and not told and len(s.game.inputs) >= 3:
            before = s.game.to_dict()
            sim.box.handle(RoomCommand("rules", game="entanglion",
                                       rules=(("dice", "manual"), ("start_space", 4))))
            told.append(s.screen())
            sim.box.handle(Press("OK"))  # read
            assert s.game.to_dict() == before and s.overlay is None

    play(sim, AutoPlayer(3), each=mid_game)
    assert told[0]["title"] == "Room rules"
    assert told[0]["lines"][1:] == ["Real dice", "Hard: track at 3"]
    assert s.game.state.options["start_space"] == 1  # the game in play kept its rules
    for _ in range(200):  # past the end screens to the main menu
        if s.mode == "menu":
            break
        sim.box.handle(Press("OK"))
    sim.box.handle(Press("OK"))  # a new game: each set-up step starts on the room's choice
    assert s.mode == "setup" and s.screen()["items"][s.cursor] == "Hard: track at 3"
    sim.box.handle(Press("OK"))
    sim.box.handle(Press("OK"))
    assert s.screen()["items"][s.cursor] == "Real dice"


def test_a_message_and_a_pause_show_on_the_oled_and_ok_goes_on(tmp_path):
    sim = make_sim(tmp_path, 3)
    s = sim.box.session
    start_game(sim)
    inputs = len(s.game.inputs)
    sim.box.handle(RoomCommand("message", text="Five minutes left"))
    assert s.screen()["title"] == "Message from the room"
    assert s.screen()["lines"] == ["Five minutes left"]
    sim.box.handle(RoomCommand("pause"))  # waits behind the message
    sim.box.handle(Press("OK"))
    assert s.screen()["title"] == "Pause"
    sim.box.handle(Press("OK"))
    assert s.overlay is None and len(s.game.inputs) == inputs  # dismissing plays nothing


def test_rules_already_in_force_are_taken_silently(tmp_path):
    """The room sends its rules again when a table joins: a table that has them is not
    shown them a second time; a change is shown."""
    sim = make_sim(tmp_path, 3)
    s = sim.box.session
    rules = RoomCommand("rules", game="entanglion", rules=(("start_space", 4),))
    sim.box.handle(rules)
    assert s.screen()["title"] == "Room rules"
    sim.box.handle(Press("OK"))
    sim.box.handle(rules)
    assert s.overlay is None
    sim.box.handle(RoomCommand("rules", game="entanglion", rules=(("start_space", 2),)))
    assert s.screen()["title"] == "Room rules"
    assert s.config.room_rules == {"entanglion": {"start_space": 2}}
