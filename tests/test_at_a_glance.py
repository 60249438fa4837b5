"""Decisions at a glance, through the box's own inputs: odds and the number to beat on
every roll, safe pre-selected items, at most three screens to acknowledge, LEDs that
never run ahead of the OLED, and the story of the game at the end.

Seeds (fixed, so positions are known; see also test_session.py):

* 2018: Mercurial H, then Rubicon CNOT enters Entanglion at PSI PLUS, rolls a 1 and is
  detected: the ships jump to |1>, the track goes 1 -> 2, and a Bit Flip Error drawn
  as the quantum event puts it on space 6.
* 1: Mercurial H, Rubicon CNOT enters and evades; the ships are inside Entanglion on a
  planet with a component.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.games.entanglion import odds
from companion.inputs import BACK, DOWN, OK, RETRIEVE, UP
from companion.session import SessionConfig
from companion.views.leds import (
    BOTH_VIOLET, DETECTION_COLOURS, MERCURIAL_BLUE, OFF, PLANETS, RUBICON_RED, TRACK_OFFSET,
    TURN_INDEX,
)
from test_session import M, R, Rig, _play_a_little


@pytest.fixture
def rigs(tmp_path):
    made: list[Rig] = []

    def make(seed: int = 2018, config: SessionConfig | None = None) -> Rig:
        rig = Rig(tmp_path / f"j{len(made)}.db", config, seed)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()


def track(frame: tuple) -> int:
    """How many track spaces are lit."""
    return sum(1 for rgb in frame[TRACK_OFFSET:TRACK_OFFSET + 12] if rgb != OFF)


def pixel(frame: tuple, planet: str) -> tuple:
    return frame[PLANETS.index(planet)]


def detected_move(rig: Rig) -> None:
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    rig.tap(2, "CNOT")


# ------------------------------------------------------------------ LEDs in step


def test_the_leds_step_with_the_notices(rigs):
    """The roll screen shows the ships arrived and the track as it was; only the
    summary, which tells the jump and both detections, moves them on."""
    rig = rigs()
    detected_move(rig)
    g = rig.game
    assert rig.screen["screen"] == "roll" and g.state.detection == 6
    frame = rig.led_frame()
    assert pixel(frame, "PSI_PLUS") == BOTH_VIOLET  # arrived (the player's own move)
    assert track(frame) == 1 and frame[TRACK_OFFSET] == DETECTION_COLOURS[0]
    assert frame[TURN_INDEX] == RUBICON_RED  # still Rubicon's turn
    rig.press(OK)  # skip the animation
    rig.press(OK)
    assert rig.screen["title"] == "Rubicon plays CNOT"
    assert rig.screen["lines"][1:4] == ["Jump to |1>", "Det 1→2 orbital", "Det 2→6 Bit Flip"]
    frame = rig.led_frame()
    assert pixel(frame, "ONE") == BOTH_VIOLET and pixel(frame, "PSI_PLUS") != BOTH_VIOLET
    assert track(frame) == 6 and frame[TURN_INDEX] == MERCURIAL_BLUE
    rig.dismiss()
    assert rig.led_frame() == frame  # the resting board is what the summary told


def test_at_most_three_screens_and_details_a_press_away(rigs):
    rig = rigs()
    detected_move(rig)
    notices = [n["screen"] for n in rig.session.notices]
    assert notices == ["roll", "text", "card"]  # roll, summary, the event drawn
    rig.press(OK, OK)
    summary = rig.screen
    assert summary["hint"] == "▼ more  OK" and summary["details"]
    rig.press(DOWN)
    first = rig.screen
    assert first["title"] == "Details" and first["right"].startswith("1/")
    pages = int(first["right"].split("/")[1])
    text = []
    for _ in range(pages + 2):  # DOWN stops at the last page
        text += rig.screen["lines"]
        rig.press(DOWN)
    assert rig.screen["right"] == f"{pages}/{pages}"
    told = " ".join(text)
    assert "needs more than 1): detected" in told and "Bit Flip Error" in told
    rig.press(*[UP] * (pages + 1))
    assert rig.screen == summary  # back on the summary, still unread
    rig.press(DOWN, OK)  # OK from the details moves on, as from the summary
    assert rig.screen["screen"] == "card"


def test_back_skips_to_the_summary_not_past_the_outcome(rigs):
    rig = rigs()
    detected_move(rig)
    assert rig.screen["screen"] == "roll"
    rig.press(BACK)
    assert rig.screen["title"] == "Rubicon plays CNOT"  # the outcome is still told
    assert "Orbital 1: DETECTED" in rig.screen["lines"]
    rig.press(BACK)
    assert rig.screen["screen"] == "status" and not rig.session.notices


# ------------------------------------------------------------------ odds on screen


def test_the_status_screen_says_the_value_to_beat_and_what_to_do(rigs):
    rig = rigs(seed=1)
    _play_a_little(rig)
    s = rig.screen
    assert s["screen"] == "status" and s["detection"]["value"] == 1
    o = odds.action_odds(rig.game, {"player": M, "do": "retrieve"})
    assert (o.need, o.chance) == (2, Fraction(7, 8))
    assert s["next"] == "RETRIEVE: need 2+ 7/8"
    other = rigs(seed=2018)
    other.start()
    assert other.screen["next"] == "Tap a card; OK: moves"


def test_a_move_into_entanglion_says_what_it_needs(rigs):
    rig = rigs()
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    rig.press(OK)
    items = rig.screen["items"]
    assert "CNOT → PSI+ 2+ 7/8" in items  # detection space 1: beat 1, need 2+
    assert items.index("CNOT → PSI+ 2+ 7/8") == 1  # into Entanglion: the most useful (under
    # the Hint, which heads the move menu)


def test_leaving_entanglion_asks_and_is_never_pre_selected(rigs):
    rig = rigs(seed=1)
    _play_a_little(rig)
    rig.tap(1, "CNOT")  # a move out of Entanglion: asked first, "stay" pre-selected
    assert rig.screen["title"] == "Leave Entanglion?" and rig.screen["cursor"] == 0
    assert rig.screen["items"] == ["No, stay", "Yes, leave"]
    inputs = list(rig.game.inputs)
    rig.press(OK)
    assert rig.game.inputs == inputs and rig.screen["screen"] == "status"
    rig.press(OK)  # the move menu: leaving comes last and asks too
    items = rig.session.menu.model["items"]
    assert items[0].action["menu"] == "hint" and items[1].action == {"player": M,
                                                                     "do": "retrieve"}
    leaving = [i for i in items if isinstance(i.action, dict) and i.action.get("menu")
               == "confirm"]
    assert leaving and items.index(leaving[0]) > max(
        k for k, i in enumerate(items) if isinstance(i.action, dict) and i.action.get("do"))


def test_magnetic_shielding_and_tunnel_prompts_say_what_a_choice_changes(rigs, monkeypatch):
    """A roll prompt's items say what each answer gives (forced dice: a 1, then 3)."""
    from companion.games.entanglion import engine as engine_module

    real = engine_module.Entanglion.__init__

    def setup(self, seed=0, options=None, setup=None, dice=()):
        real(self, seed, options, {
            "first_player": M, "ships": {M: "OMEGA_ONE", R: "OMEGA_ONE"},
            "components": {"OMEGA_ONE": "quantum_gates"}, "detection_space": 6,
            "ship_components": {M: ["magnetic_shielding"]},
            "held_events": {M: ["quantum_tunnel"]}}, [1, 3])

    monkeypatch.setattr(engine_module.Entanglion, "__init__", setup)
    rig = rigs()
    rig.start()
    rig.press(RETRIEVE)
    assert rig.screen["title"] == "Quantum Tunnel?"
    assert rig.screen["items"] == ["Use Tunnel: no roll", "Roll: 5+ 75%", "Hint"]
    rig.choose("Roll: 5+ 75%")
    assert rig.screen["title"] == "Magnetic Shielding"
    assert rig.screen["text"] == ["Ground roll: 1", "Need 5+ to retrieve"]
    assert rig.screen["items"] == ["Keep: DETECTED", "Re-roll: 4/8", "Hint"]
    assert rig.screen["cursor"] == 1  # a failed roll is never kept by pressing OK


def test_qubit_interconnect_is_an_item_not_a_prompt(rigs, monkeypatch):
    from companion.games.entanglion import engine as engine_module

    real = engine_module.Entanglion.__init__

    def setup(self, seed=0, options=None, setup=None, dice=()):
        real(self, seed, options, {
            "first_player": M, "ships": {M: "PSI_PLUS", R: "PSI_PLUS"},
            "hands": {M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
            "ship_components": {M: ["qubit_interconnect"]}}, dice)

    monkeypatch.setattr(engine_module.Entanglion, "__init__", setup)
    rig = rigs()
    rig.start()
    assert rig.game.pending is None and rig.screen["screen"] == "status"
    rig.press(OK)
    rig.choose("Qubit Interconnect")
    assert rig.screen["title"] == "Qubit Interconnect"
    assert rig.screen["items"][0] == "Give X, get CNOT"
    rig.press(OK)
    assert rig.game.inputs == [{"player": M, "do": "interconnect", "give": "X",
                                "take": "CNOT"}]
    rig.dismiss()
    assert rig.game.turn_player == M  # free: the turn's move is still to come
    rig.press(OK)
    assert "Qubit Interconnect" not in rig.screen["items"]  # once a turn


def test_a_menu_with_nothing_to_offer_pre_selects_going_back(rigs):
    """QNO with tracked hands and a playable card: plays are taps, so the menu has no
    move; the pre-selected item must not be Undo."""
    session = rigs().session

    class Empty:
        @staticmethod
        def action_menu(g):
            return {"title": "P1: your move", "text": ["Tap a card to play it"], "items": []}

    session.ui = Empty  # a game with no move for the buttons right now
    session.game = object()
    items = session._actions_menu()["items"]
    assert [i.label for i in items][:2] == ["Back to the game", "Undo last action"]
    assert items[0].action == {"session": "keep"}


# ------------------------------------------------------------------ the story


def test_the_end_screen_pages_through_the_story(rigs):
    from companion.autoplay import AutoPlayer

    rig = rigs(seed=5)
    player = AutoPlayer(5, taps=True)
    for _ in range(3000):
        if rig.session.game is not None and rig.session.game.status in ("won", "lost") \
                and not rig.session.notices:
            break
        cmd = player.next_command(rig.session)
        words = cmd.split()
        if words[0] == "press":
            rig.press(words[1].upper())
        else:
            rig.tap(int(words[1]), words[2])
    end = rig.screen
    assert end["screen"] == "end" and end["page"] == 0 and end["pages"] >= 3
    assert end["time"]  # the journal's timestamps: time played
    titles = []
    for _ in range(end["pages"] - 1):
        rig.press(DOWN)
        titles.append(rig.screen["title"])
        assert rig.screen["screen"] == "end"
    assert titles[:2] == ["The story", "Detected by"]
    assert any(t.endswith(" got") for t in titles)
    rig.press(DOWN)
    assert rig.screen["page"] == 0  # round again
    rig.press(UP)
    assert rig.screen["page"] == end["pages"] - 1
    rig.press(OK)
    assert rig.session.mode == "menu"


@pytest.mark.parametrize("game, seed", [("entanglion", 2), ("qno", 3), ("qlanet", 4)])
def test_notices_are_a_function_of_the_game_and_the_inputs_entries(rigs, game, seed):
    """After a restart the notices of the last input are rebuilt from a replayed game
    and that input's log entries; they must be exactly what was shown."""
    from companion.autoplay import AutoPlayer

    rig = rigs(seed=seed)
    s = rig.session
    player = AutoPlayer(seed, game=game, taps=True)
    checked = 0
    for _ in range(400):
        cmd = player.next_command(s)
        if cmd is None:
            break
        g = s.game
        before = (len(g.inputs), len(g.log)) if g is not None else None
        words = cmd.split()
        if words[0] == "press":
            rig.press(words[1].upper())
        else:
            from test_session import REG
            from companion.inputs import Tag
            rig.send(Tag(int(words[1]), REG.find(words[2], game)[0][0]))
        g = s.game
        if before is None or g is None or len(g.inputs) != before[0] + 1:
            continue
        replayed = s.ui.replay(g.seed, dict(g.state.options), {}, list(g.inputs))
        rebuilt = s.ui.notices(replayed, replayed.log[before[1]:])
        assert rebuilt == s.notices, (cmd, rebuilt, s.notices)
        checked += 1
    assert checked > 20


def test_a_risky_move_is_never_pre_selected(rigs, monkeypatch):
    """Detection at space 11 (beat 7): a move into Entanglion needs an 8, so the
    exchanges come before it and the pre-selected item is harmless."""
    from companion.games.entanglion import engine as engine_module

    real = engine_module.Entanglion.__init__

    def setup(self, seed=0, options=None, setup=None, dice=()):
        real(self, seed, options, {"first_player": R, "ships": {M: "PLUS", R: "ZERO"},
                                   "hands": {R: ["CNOT", "X", "SWAP"], M: ["H", "H", "H"]},
                                   "detection_space": 11}, dice)

    monkeypatch.setattr(engine_module.Entanglion, "__init__", setup)
    rig = rigs()
    rig.start()
    rig.press(OK)
    items = rig.screen["items"]
    risky = next(i for i in items if i.endswith(" 1/8"))
    assert items.index(risky) > items.index("Exchange CNOT") and rig.screen["cursor"] == 0
    assert not items[0].endswith("/8")
