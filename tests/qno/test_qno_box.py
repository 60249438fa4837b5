"""QNO on the box: the session, screens, LEDs and the simulator, end to end."""

from __future__ import annotations

import json
from pathlib import Path
import re
import subprocess

from simscript import COMPANION, record_game, run_sim

from companion.box import Box
from companion.games.qno import Qno
from companion.games.qno import ui
from companion.games.qno.cards import label
from companion.hardware.display import dummy_display
from companion.hardware.leds import RecordingLeds
from companion.inputs import BACK, DOWN, OK, UP, Hold, Press, Tag
from companion.journal import Journal
from companion.registry import Registry, default_sim_path
from companion.session import Session, SessionConfig
from companion.views import leds, oled
from qno_helpers import dealt

REG = Registry.load(default_sim_path())
SEED = 4


def uid(name: str) -> str:
    return REG.find(name, "qno")[0][0]


class Rig:
    def __init__(self, tmp_path, config: SessionConfig | None = None, seed: int = 11):
        self.journal = Journal(tmp_path / "journal.db")
        self.session = Session(self.journal, REG, config or SessionConfig(),
                               seed_source=lambda: seed)
        self.box = Box(self.session, dummy_display(keep=True), RecordingLeds())

    def press(self, *buttons: str) -> None:
        for b in buttons:
            self.box.handle(Press(b))

    def tap(self, name: str, pad: int = 1) -> None:
        self.box.handle(Tag(pad, uid(name)))

    def start(self, players: int = 2, hands: str = "tracked") -> None:
        self.press(DOWN, OK)  # New QNO
        self.press(*[DOWN] * (players - 2), OK)
        self.press(*([DOWN] if hands == "honour" else []), OK)
        assert self.session.mode == "game" and self.session.ui.NAME == "qno"

    @property
    def screen(self):
        return self.session.screen()

    def dismiss(self) -> None:
        while self.session.notices or self.session.overlay:
            self.press(OK)


def test_new_qno_game_from_the_menu_asks_for_the_deal(tmp_path):
    rig = Rig(tmp_path)
    assert rig.screen["items"] == ["New Entanglion", "New QNO", "New QLANET", "Settings",
                                   "Switch the box off"]
    rig.start(players=3)
    assert rig.session.game.players == 3
    assert rig.screen["title"] == "Deal P1" and rig.screen["text"][0] == "P1: 5 more cards"
    assert rig.screen["right"] == "Setup 3/18"  # 2 menus, 15 cards, the start card
    for n in range(5):
        rig.tap(f"00_{n + 1}")
    assert rig.screen["title"] == "Deal P2" and rig.screen["right"] == "Setup 8/18"
    assert rig.journal.games()[0].game == "qno"


def play_to_turn(rig: Rig) -> None:
    """Deal 2 players (P1: |00> 1-5, P2: |01> 1-5) and turn up |00> 9."""
    rig.start()
    for p in ("00", "01"):
        for n in range(1, 6):
            rig.tap(f"{p}_{n}")
    rig.tap("00_9")
    rig.dismiss()


def test_the_status_screen_shows_the_top_and_counts_never_a_hand(tmp_path):
    rig = Rig(tmp_path)
    play_to_turn(rig)
    s = rig.screen
    assert s == {"screen": "qno", "turn": "P1", "number": 1, "state": "00", "value": "9",
                 "direction": 1, "counts": [5, 5], "current": 1, "pile": 101, "discards": 1}
    rig.tap("00_3")
    rig.dismiss()
    assert rig.screen["state"] == "00" and rig.screen["value"] == "3"
    assert rig.screen["counts"] == [4, 5] and rig.screen["turn"] == "P2"
    frame = rig.box.leds.last
    assert frame[12:24] == (leds.QNO_STATE_COLOURS["00"],) * 12
    assert frame[leds.TURN_INDEX] == leds.QNO_STATE_COLOURS["00"]  # the turn pixel
    assert frame[1] == leds.QNO_STATE_COLOURS["00"] and frame[0] == leds.SEAT_DIM


def test_draws_are_tapped_and_never_shown(tmp_path):
    rig = Rig(tmp_path)
    play_to_turn(rig)
    rig.tap("00_3")
    rig.dismiss()
    rig.press(OK)  # P2 cannot play |00>/3 with |01> 1-5 except 01_3: must play
    assert rig.screen["items"][0] != "Draw a card"
    rig.press(BACK)
    rig.tap("01_3")
    rig.dismiss()
    rig.press(OK)
    assert rig.screen["items"][0] == "Draw a card"  # P1 holds |00> 1,2,4,5: nothing fits
    rig.press(BACK)
    rig.tap("10_3")  # not in P1's hand
    assert rig.screen["screen"] == "error" and "not in your hand" in rig.screen["text"]
    screens = json.dumps([rig.screen])
    assert "00_1" not in screens and "|00> 1" not in screens


def test_gate_prompt_previews_and_h_cannot_be_undone_after_the_reveal(tmp_path):
    rig = Rig(tmp_path)
    rig.start()
    for c in ("H", "00_1", "00_2", "00_4", "00_5", "01_1", "01_2", "01_4", "01_5", "11_1"):
        rig.tap(c)
    rig.tap("10_9")
    rig.dismiss()
    rig.tap("H")
    assert rig.screen["title"] == "P1: H on which qubit?"
    assert rig.screen["items"] == ["q1 left: |00>/|10>", "q0 right: |10>/|11>"]
    rig.press(DOWN, OK)  # q0
    assert rig.screen["title"] == "H: measured"
    rig.press(OK)
    assert rig.screen["title"] == "P1: guess" and rig.screen["items"] == ["|10>", "|11>"]
    rig.press(OK)
    assert rig.screen["title"].startswith("H fell")
    rig.box.handle(Hold(BACK))
    assert rig.screen == {"screen": "error", "text": "An H outcome was shown: no undo"}


def test_the_circuit_pages_with_up_and_down(tmp_path):
    rig = Rig(tmp_path)
    play_to_turn(rig)
    rig.tap("00_3")
    rig.dismiss()
    rig.tap("01_3")  # value match: X on q0
    rig.dismiss()
    rig.press(DOWN)
    assert rig.screen == {"screen": "circuit", "columns": [["X", ""]], "first": 1, "last": 1,
                          "total": 1}
    rig.press(DOWN)
    assert rig.screen["screen"] == "qno"
    rig.press(UP)
    assert rig.screen["screen"] == "circuit"
    oled.render(rig.screen)


def test_pads_can_belong_to_players(tmp_path):
    rig = Rig(tmp_path, SessionConfig(pads={1: None, 2: None}, qno_pads={1: 1, 2: 2}))
    play_to_turn(rig)
    rig.tap("00_3", pad=2)
    assert rig.screen == {"screen": "error", "text": "Pad 2 is P2's; P1 is up"}
    rig.tap("00_3", pad=1)
    assert rig.session.game.state.turn == 2


def screens_until_guess(outcome: int) -> list:
    g = dealt([["H", "00_1"], ["00_2"]], "10_5", forced=[outcome])
    seen = [ui.status(g), ui.leds(g)]
    for act in ({"do": "play", "card": "H"}, {"do": "choose", "value": 0}):
        entries = g.push(act)
        seen += [ui.notices(g, entries), ui.status(g), ui.leds(g), ui.prompt_menu(g),
                 ui.status_line(g), g.legal_actions(), g.check({"do": "draw"})]
    return seen


def test_nothing_shared_depends_on_the_hidden_h_outcome_before_the_guess():
    assert screens_until_guess(0) == screens_until_guess(1)


def test_a_whole_game_through_the_simulator_with_qasm_export(tmp_path):
    commands, states = record_game(SEED, options={"players": 3}, game="qno")
    script = "\n".join(commands + ["press back", "expect screen qno_end"])
    out = run_sim(["--state-dir", str(tmp_path / "s"), "--seed", str(SEED),
                   "--frames", str(tmp_path / "f")], script)
    assert out.returncode == 0, out.stderr
    journal = Journal(tmp_path / "s" / "journal.db")
    record = journal.load(journal.games()[0].id)
    journal.close()
    g = Qno.replay(record.seed, record.options, record.setup, (),
                   Journal.effective_inputs(record.entries))
    assert record.game == "qno" and record.status == "won" and g.status == "won"
    assert g.to_dict()["state"] == states[max(states)]
    assert len(list((tmp_path / "f").glob("oled-*.png"))) > 20
    qasm = subprocess.run(COMPANION + ["games", "export", str(record.id), "--qasm",
                                       "--state-dir", str(tmp_path / "s")],
                          capture_output=True, text=True)
    assert qasm.returncode == 0, qasm.stderr
    text = qasm.stdout
    assert text.startswith(f"// QNO game #{record.id} (won)\nOPENQASM 2.0;")
    hs = sum(1 for op in g.state.circuit if op["op"] == "h")
    assert len(re.findall(r"^creg m\d+\[2\];$", text, re.M)) == hs
    assert len(re.findall(r"^(x|cx|h) q\[", text, re.M)) == len(g.state.circuit) - hs
    export = subprocess.run(COMPANION + ["games", "export", str(record.id), "--state-dir",
                                         str(tmp_path / "s")], capture_output=True, text=True)
    replayed = subprocess.run(COMPANION + ["scenario", "-"], input=export.stdout,
                              capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["winners"] == g.state.winners


def test_labels_are_what_the_cards_print():
    assert label("11_draw_two") == "|11> +2" and label("X") == "X"


def test_the_example_sim_script_deals_a_game(tmp_path):
    script = (Path(__file__).parents[2] / "examples" / "qno-start.sim").read_text()
    out = run_sim(["--state-dir", str(tmp_path / "s"), "--seed", "3"], script)
    assert out.returncode == 0, out.stderr
    hand = re.search(r"^    P\d's hand: (.*)$", out.stdout, re.M)
    assert hand, out.stdout
    cards = hand.group(1).split(", ")
    assert len(cards) == 5
    for card in cards:  # each written as 'tap' takes it, the screen's words beside
        assert re.fullmatch(r"(\d\d_\w+ \(\|\d\d> \S+\))|H|X|CNOT", card), card


def test_hand_names_are_what_tap_takes_and_an_unseeded_deal_is_random(tmp_path):
    """'hand' names the cards as 'tap' wants them ('tap' also takes the screen's
    '|01> 7'), and without --seed two fresh state folders are dealt differently."""
    from companion.registry import Registry, default_sim_path
    from companion.sim import _qno_name

    script = "press down\npress ok\npress ok\npress ok\n" + "tap 1 top\n" * 4 + "hand\n"
    hands = []
    for n in range(2):
        out = run_sim(["--state-dir", str(tmp_path / str(n))], script)
        assert out.returncode == 0, out.stderr
        hands.append(re.findall(r"P\d's hand: (.*)", out.stdout)[-1])
    assert hands[0] != hands[1]
    registry = Registry.load(default_sim_path())
    for shown in hands[0].split(", "):
        name = shown.split(" ")[0]
        assert registry.find(name, "qno"), name
        if "(" in shown:  # the screen's words name the same card
            assert _qno_name(shown[shown.index("(") + 1:-1]) == name
    assert _qno_name("|10> Skip") == "10_skip" and _qno_name("|11> +2") == "11_draw_two"
    assert _qno_name("CNOT") is None


def test_table_follows_taps_of_any_card_and_undo():
    from companion.games.qno.table import Table

    g = Qno(0, {"players": 2})
    g.push({"do": "take", "card": "11_9"})
    table = Table.of(g)
    assert table.hands[0] == ["11_9"] and len(table.pile) == 111
    g.pop()
    assert Table.of(g).hands[0] == []
