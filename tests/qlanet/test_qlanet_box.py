"""QLANET on the box: menus, screens, LEDs, the private channel, the simulator end to end."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from qlanet_rig import REG, Rig, pin
from simscript import COMPANION, record_game, run_sim

from companion.games.qlanet import ui
from companion.inputs import BACK, DOWN, EXCHANGE, OK, UP, Hold, Press, Release, Tag
from companion.journal import Journal
from companion.views import leds, oled

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_game_shows_the_public_board_on_the_oled_and_the_leds(tmp_path):
    rig = Rig(tmp_path, seed=3)
    rig.press(DOWN, DOWN, OK, OK, OK)
    first = rig.screen
    assert first["title"] == "Start" and first["right"] == "Setup 3/3" and first["lines"][:3] == [
        "C0 takes X SW Z Z", "C1 takes CX0 BM CX0 M", "Camp 1 starts"]
    rig.dismiss()
    g = rig.game
    assert rig.screen == {"screen": "qlanet", "turn": 1, "number": 1,
                          "planets": ["-", "-", "-", "+", "?", "+", "-", "-", "-"],
                          "costs": [0, 0], "fixed": [0, 0], "last": ""}
    assert ui.cells(g, "truth")[4] != "?"  # the box knows the centre; the table does not
    frame = rig.box.leds.last
    assert frame[0] == leds.QLANET_COLOURS["-"] and frame[3] == leds.QLANET_COLOURS["+"]
    assert frame[4] == leds.QLANET_COLOURS["?"]
    assert frame[9:12] == (leds.SEAT_DIM, leds.QLANET_CAMPS[1], leds.OFF)
    assert frame[12:24] == (leds.QLANET_CAMPS[1],) * 12
    assert frame[leds.TURN_INDEX] == leds.QLANET_CAMPS[1]  # the turn pixel: camp 1 to play
    assert rig.journal.games()[0].game == "qlanet"


def test_a_move_is_a_tap_then_planets_then_confirm(tmp_path, monkeypatch):
    pin(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.tap("CX0")
    assert rig.screen["title"] == "C0 CX0: control?"
    assert rig.screen["items"][:2] == ["Planet 1  +", "Planet 2  +"]
    assert rig.screen["items"][4] == "Planet 5  ?"
    assert rig.session.led_model()["targets"] == ["1"]  # the planet under the cursor blinks
    assert rig.box.tick_interval() is not None
    rig.press(DOWN, DOWN, DOWN, OK)  # control: planet 4
    assert rig.screen["title"] == "C0 CX0: target of 4?"
    assert "Planet 4  -" not in rig.screen["items"] and len(rig.screen["items"]) == 8
    rig.choose("Planet 5  ?")
    assert rig.screen["title"] == "C0: CX0 4->5?" and rig.screen["text"] == ["Cost 3: total 3"]
    assert rig.session.led_model()["targets"] == ["4", "5"]
    assert rig.game.inputs == []
    rig.press(OK)
    assert rig.game.inputs == [{"player": 0, "do": "play", "card": "CX0", "planets": [4, 5]}]
    refill = rig.game.state.hands[0][-1]
    assert rig.screen["lines"] == ["C0: CX0 4->5 (+3=3)", f"C0: take a {refill}", "Next: Camp 1"]
    rig.dismiss()
    assert rig.screen["turn"] == 1 and rig.screen["costs"] == [3, 0]
    assert rig.screen["last"] == "C0 CX0 4->5"
    assert oled.render(rig.screen)


def test_back_or_cancel_leave_the_game_untouched(tmp_path, monkeypatch):
    pin(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.tap("H")
    rig.press(OK)  # planet 1
    rig.choose("Cancel")
    assert rig.screen["screen"] == "qlanet" and rig.game.inputs == []
    rig.tap("BM")
    rig.press(OK, BACK)
    assert rig.screen["screen"] == "qlanet" and rig.game.inputs == []
    rig.tap("X")  # a new tap while a menu is open starts over with that card
    rig.tap("H")
    assert rig.screen["title"] == "C0 H: which planet?"


def test_sw_and_bm_take_their_two_planets_in_either_order(tmp_path, monkeypatch):
    pin(monkeypatch, first=1)
    rig = Rig(tmp_path)
    rig.start()
    rig.play("SW", 6, 4)
    assert rig.game.inputs[-1]["planets"] == [4, 6]
    assert [e["planets"] for e in rig.game.log if e["type"] == "play"] == [[4, 6]]


def test_refusals_say_why_from_public_facts_only(tmp_path, monkeypatch):
    pin(monkeypatch, planets=["F0", "+", "-", "-", "+", "-", "-", "+", "F1"])
    rig = Rig(tmp_path)
    rig.start()
    rig.tap("M")
    assert rig.screen == {"screen": "error", "text": "Camp 0 has no M (hand: X H CX0 BM)"}
    rig.press(OK)
    rig.send(Tag(1, REG.find("CNOT", "entanglion")[0][0]))
    assert rig.screen == {"screen": "error", "text": "That card is from Entanglion"}
    rig.press(OK)
    rig.tap("H")
    assert "Planet 1  F0" not in rig.screen["items"]  # fixed planets are never offered
    assert len(rig.screen["items"]) == 7


def test_buttons_alone_can_play_and_discard_when_stuck(tmp_path, monkeypatch):
    pin(monkeypatch, planets=["F0", "F1", "F0", "F1", "+", "F0", "F1", "F0", "F1"],
        hands=[["SW", "BM", "CX0", "CX1"], ["X", "H", "Z", "M"]])
    rig = Rig(tmp_path)
    rig.start()
    rig.press(OK)
    assert rig.screen["title"] == "Camp 0: your move"
    assert rig.screen["items"][:4] == ["Discard SW (4)", "Discard BM (8)", "Discard CX0 (3)",
                                       "Discard CX1 (3)"]
    rig.choose("Discard CX0 (3)")
    assert rig.screen["text"] == ["No card can be played", "Cost 3: total 3"]
    rig.press(OK)
    assert rig.game.inputs == [{"player": 0, "do": "discard", "card": "CX0"}]
    rig.dismiss()
    rig.press(OK)  # camp 1: a one-planet card goes on to its planet menu
    rig.choose("Play Z (2)")
    assert rig.screen["items"] == ["Planet 5  ?"]
    rig.press(OK, OK)
    assert rig.game.inputs[-1] == {"player": 1, "do": "play", "card": "Z", "planets": [5]}


def test_undo_takes_back_a_gate_but_not_a_measurement_or_a_bell_measurement(tmp_path,
                                                                          monkeypatch):
    pin(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.play("H", 1)
    rig.send(Hold(BACK))
    assert rig.screen == {"screen": "undo", "text": "C0: H on 1"}
    assert rig.game.inputs == []
    rig.press(OK)
    rig.play("BM", 2, 3)
    rig.send(Hold(BACK))
    assert rig.screen == {"screen": "error", "text": "A BM secret was made: no undo"}
    rig.press(OK)
    rig.play("M", 7)  # camp 1 (0 < 8)
    rig.send(Hold(BACK))
    assert rig.screen == {"screen": "error", "text": "An M result was shown: no undo"}
    assert len(rig.game.inputs) == 2


def test_the_second_page_lists_hands_and_moves(tmp_path, monkeypatch):
    pin(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.play("X", 1)
    rig.press(DOWN)
    assert rig.screen["title"] == "Hands and last moves"
    assert rig.screen["lines"][2:] == ["C0 X on 1"]
    rig.press(DOWN)
    assert rig.screen["screen"] == "qlanet"


def near_win(monkeypatch) -> None:
    """Camp 1 BMs 4 and 6 (8), then camp 0's M on the certain 0 at planet 3 wins."""
    pin(monkeypatch, planets=["F0", "F0", "0", "-", "+", "-", "+", "+", "+"],
        hands=[["M", "X", "H", "Z"], ["BM", "SW", "M", "CX1"]], first=1)


def test_the_end_reveals_the_true_board_and_every_secret(tmp_path, monkeypatch):
    near_win(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.play("BM", 4, 6)
    assert rig.screen["planets"][3] == "?" and rig.screen["planets"][5] == "?"
    code = rig.game.state.bells[0]["code"]
    rig.tap("M")
    rig.choose("Planet 3  0")
    rig.press(OK)
    assert rig.screen["title"] == "What happened"
    assert "Planet 3 fixed: F0" in rig.screen["lines"]
    rig.press(OK)
    assert rig.screen == {"screen": "text", "title": "Secrets revealed",
                          "lines": [f"C1 BM 4+6: {code}"], "hint": "OK next"}
    rig.press(OK)
    end = rig.screen
    assert end["screen"] == "qlanet_end" and end["winners"] == [0]
    assert end["reason"] == "line 1-2-3"
    assert end["planets"][3] == "~6" and end["planets"][5] == "~4"  # the truth, revealed
    assert rig.buzzer.played == ["won"]
    model = rig.session.led_model()
    assert model["line"] == [1, 2, 3] and model["planets"] == end["planets"]
    assert leds.blinking(model)
    assert leds.frame(model, 1)[0] == leds.OFF and leds.frame(model, 0)[0] == \
        leds.QLANET_CAMPS[0]
    assert rig.box.leds.last[12:24] == (leds.QLANET_CAMPS[0],) * 12
    assert rig.box.leds.last[leds.TURN_INDEX] == leds.OFF  # nobody's turn any more
    assert rig.journal.games()[0].status == "won"
    assert rig.journal.games()[0].reason == "camp 0: line 1-2-3"
    rig.press(OK)
    assert rig.session.mode == "menu"


# ------------------------------------------------------------------ the private channel


def test_private_oleds_show_each_camp_its_own_view_and_redraw_every_move(tmp_path,
                                                                        monkeypatch):
    near_win(monkeypatch)
    rig = Rig(tmp_path, private=(0, 1))
    rig.start()
    sent = [d.frames_sent for d in rig.private.values()]
    rig.play("BM", 4, 6)
    code = rig.game.state.bells[0]["code"]
    mine, theirs = rig.session.private_screens()[1], rig.session.private_screens()[0]
    assert mine["pairs"] == [{"planets": [4, 6], "code": ui.view(rig.game, 1)[3]["code"],
                              "bell": code}]
    assert mine["planets"][3:6] == ["~6", "?", "~4"]
    assert theirs["pairs"] == [] and theirs["planets"][3] == "?"
    assert [d.frames_sent for d in rig.private.values()] == [n + 1 for n in sent]
    assert rig.private[1].image.tobytes() == oled.render(mine).tobytes()
    rig.tap("H")
    rig.press(OK, OK)  # camp 0's H on planet 1: both private screens redraw
    assert [d.frames_sent for d in rig.private.values()] == [n + 2 for n in sent]
    rig.press(EXCHANGE, OK)
    assert rig.screen == {"screen": "error", "text": "That secret is on its own screen"}


def test_without_a_private_oled_the_secret_shows_only_while_exchange_is_held(tmp_path,
                                                                          monkeypatch):
    near_win(monkeypatch)
    rig = Rig(tmp_path)
    rig.start()
    rig.play("BM", 4, 6)
    board, frame = rig.screen, rig.box.leds.last
    rig.press(EXCHANGE)
    assert rig.screen["title"] == "Peek at a secret"
    rig.choose("Camp 1's secret")
    warning = rig.screen
    assert warning["title"] == "Camp 1's secret" and warning["lines"][0] == "Camp 0: look away!"
    rig.press(EXCHANGE)  # a short press is not a hold: still the warning
    assert rig.screen == warning
    rig.send(Hold(EXCHANGE))
    assert rig.screen == ui.private_screen(rig.game, 1) and rig.screen["pairs"]
    assert rig.box.leds.last == frame  # the LEDs never show a secret
    rig.send(Release(EXCHANGE))
    assert rig.screen == warning
    rig.send(Hold(EXCHANGE), Release(EXCHANGE), Hold(EXCHANGE))
    rig.press(OK)  # any other button ends the peek
    assert rig.screen == board
    rig.send(Release(EXCHANGE))  # a late release does nothing
    assert rig.screen == board
    rig.press(EXCHANGE, OK)
    rig.tap("M")  # a tap ends the peek and goes on
    assert rig.screen["title"] == "C0 M: which planet?"


# ------------------------------------------------------------------ the simulator


def test_a_whole_game_through_the_simulator(tmp_path):
    commands, states = record_game(5, game="qlanet")
    assert any(c.startswith("tap 1 ") for c in commands)
    script = "\n".join(commands + ["expect screen qlanet_end", "expect status won"])
    out = run_sim(["--state-dir", str(tmp_path / "s"), "--seed", "5"], script)
    assert out.returncode == 0, out.stderr
    journal = Journal(tmp_path / "s" / "journal.db")
    record = journal.load(journal.games()[0].id)
    journal.close()
    g = ui.replay(record.seed, record.options, record.setup,
                  Journal.effective_inputs(record.entries))
    assert record.game == "qlanet" and record.status == "won" and g.status == "won"
    assert g.to_dict()["state"] == states[max(states)]
    export = subprocess.run(COMPANION + ["games", "export", str(record.id), "--state-dir",
                                         str(tmp_path / "s")], capture_output=True, text=True)
    replayed = subprocess.run(COMPANION + ["scenario", "-"], input=export.stdout,
                              capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["winner"] == g.winners


def test_buttons_alone_play_a_whole_game():
    commands, _ = record_game(8, taps=False, game="qlanet")
    assert not any(c.startswith("tap") for c in commands)
    assert commands[-1] == "press ok"


def test_the_example_sim_script_plays_the_bm_cx_m_combo(tmp_path):
    script = (ROOT / "examples" / "qlanet-combo.sim").read_text()
    out = run_sim(["--state-dir", str(tmp_path / "s"), "--seed", "2823",
                   "--frames", str(tmp_path / "f")], script)
    assert out.returncode == 0, out.stderr
    journal = Journal(tmp_path / "s" / "journal.db")
    record = journal.load(journal.games()[0].id)
    journal.close()
    cards = [a["card"] for a in Journal.effective_inputs(record.entries)]
    assert cards == ["BM", "X", "X", "CX0", "M"]
    assert len(list((tmp_path / "f").glob("oled-*.png"))) > 30


@pytest.mark.parametrize("name", ["qlanet-combo.json"])
def test_the_combo_scenario_is_the_same_game(name):
    data = json.loads((ROOT / "examples" / name).read_text())
    assert data["seed"] == 2823 and [a["card"] for a in data["actions"]] == [
        "BM", "X", "X", "CX0", "M"]


# ------------------------------------------------------------------ views


def test_the_led_frame_paints_planets_seats_and_track():
    model = {"game": "qlanet", "planets": ["F0", "0", "+", "-", "1", "F1", "?", "~9", "~8"],
             "turn": 0, "result": None, "winners": [], "line": []}
    frame = leds.frame(model)
    assert len(frame) == leds.FRAME_LENGTH and frame[leds.TURN_INDEX] == leds.QLANET_CAMPS[0]
    assert frame[:7] == tuple(leds.QLANET_COLOURS[s] for s in ("F0", "0", "+", "-", "1", "F1",
                                                               "?"))
    assert frame[7] == frame[8] == leds.QLANET_ENTANGLED
    assert len(set(frame[:8])) == 8  # every state its own colour
    assert frame[9:12] == (leds.QLANET_CAMPS[0], leds.SEAT_DIM, leds.OFF)
    assert not leds.blinking(model)
    blinking = {**model, "targets": ["4", "5"]}
    assert leds.blinking(blinking)
    assert leds.frame(blinking, 0)[3:5] == (leds.TARGET_AMBER,) * 2
    assert leds.frame(blinking, 1) == frame
    both = {**model, "turn": None, "result": "won", "winners": [0, 1]}
    assert leds.frame(both)[12:24] == (leds.QLANET_CAMPS[0],) * 6 + (leds.QLANET_CAMPS[1],) * 6
    with pytest.raises(ValueError):
        leds.frame({**model, "planets": ["entangled"] * 9})
    with pytest.raises(ValueError):
        leds.frame({**model, "planets": ["?"] * 8})


def test_private_oleds_are_blank_outside_a_game(tmp_path):
    rig = Rig(tmp_path, private=(0, 1))
    assert rig.session.private_screens() == {}
    assert rig.private[0].image.getbbox() is None
    rig.start()
    assert rig.private[0].image.tobytes() == oled.render(
        ui.private_screen(rig.game, 0)).tobytes()
    rig.box.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_events_in_a_qlanet_game_never_raise_and_replay(tmp_path, seed):
    import random

    from companion.inputs import BUTTONS, Tick

    rnd = random.Random(seed)
    rig = Rig(tmp_path, seed=seed, private=(1,) if seed == 2 else ())
    rig.start()
    uids = [u for u, card in REG if card.game == "qlanet"] + [REG.find("CNOT")[0][0]]
    for _ in range(400):
        r = rnd.random()
        event = (Press(OK) if r < 0.3 else Press(rnd.choice(BUTTONS)) if r < 0.55 else
                 rnd.choice([Hold, Release])(rnd.choice(BUTTONS)) if r < 0.65 else
                 Tick() if r < 0.7 else Tag(rnd.randrange(1, 4), rnd.choice(uids)))
        rig.send(event)
        assert rig.screen["screen"] in oled.LAYOUTS
        if rig.session.mode != "game":
            rig.start()
    record = rig.journal.load(rig.session.game_id)
    g = ui.replay(record.seed, record.options, record.setup,
                  Journal.effective_inputs(record.entries))
    assert g.to_dict()["state"] == rig.game.to_dict()["state"]
    assert sum(len(rig.journal.load(s.id).entries) for s in rig.journal.games()) >= 3
