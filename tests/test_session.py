"""The session through its public behaviour: events in; screen, LEDs, game and journal out.

Every test builds a real box (session + journal in tmp_path + the simulator's tag
registry + the display and LED fakes) and drives it only with the events the
hardware produces: ``Press``, ``Hold``, ``Tag`` and ``Tick``. Games are put into a
position by playing them through those same paths, never by touching engine state.

Seeds used below (fixed, so the positions are known):

* 2018: Mercurial starts at |0>, Rubicon at |1>; Mercurial holds CNOT H H, Rubicon
  SWAP X CNOT. Mercurial H then Rubicon CNOT enters Entanglion and is detected.
* 1: Mercurial H then Rubicon CNOT enters Entanglion and evades; a component is then
  under both ships, so RETRIEVE rolls the die at once.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.autoplay import AutoPlayer
from companion.box import Box
from companion.games.common import ui_for
from companion.games.entanglion import Entanglion
from companion.games.entanglion import board
from companion.hardware.display import dummy_display
from companion.hardware.leds import RecordingLeds
from companion.inputs import (
    BACK, BUTTONS, DOWN, EXCHANGE, OK, RETRIEVE, UP, Hold, Press, Tag, Tick,
)
from companion.journal import Journal, JournalError
from companion.registry import Card, Registry, default_sim_path
from companion.session import (
    BLINK_STEP, LIGHT_SHOW, ROLL_FRAMES, ROLL_STEP, Session, SessionConfig,
)
from companion.sim import build
from companion.views import oled
from companion.views.font import wrap
from companion.views.leds import (
    BOTH_VIOLET, COMPONENT_DIM, DETECTION_COLOURS, HIGHLIGHT_WARM, LOST_RED, MERCURIAL_BLUE,
    OFF, PLANETS, RUBICON_RED, TARGET_AMBER, TRACK_OFFSET, TURN_INDEX, WON_GREEN,
)

REG = Registry.load(default_sim_path())
M, R = "mercurial", "rubicon"
SESSION_ITEMS = ["Undo last action", "Main menu (keep)", "End this game"]


def uid(name: str, copy: int = 0) -> str:
    return (REG.find(name, "entanglion") or REG.find(name))[copy][0]


class Rig:
    """A box on a journal, driven by events through ``Box.handle`` (so every step renders)."""

    def __init__(self, path: Path, config: SessionConfig | None = None, seed: int = 2018,
                 registry: Registry = REG):
        self.journal = Journal(path)
        self.session = Session(self.journal, registry, config or SessionConfig(),
                               seed_source=lambda: seed)
        self.box = Box(self.session, dummy_display(keep=True), RecordingLeds())

    # ---------------------------------------------------------------- events

    def send(self, event: Any) -> None:
        self.box.handle(event)

    def press(self, *buttons: str) -> None:
        for b in buttons:
            self.send(Press(b))

    def hold(self, button: str = BACK) -> None:
        self.send(Hold(button))

    def tap(self, pad: int, name: str, copy: int = 0) -> None:
        self.send(Tag(pad, uid(name, copy)))

    def tick(self) -> None:
        self.send(Tick())

    def start(self, dismiss: bool = True) -> None:
        """Main menu -> New -> the three setup steps with their defaults -> the game."""
        assert self.session.mode == "menu"
        items = self.screen["items"]
        new = next(i for i, label in enumerate(items) if label.startswith("New"))
        self.press(*[DOWN] * new)
        self.press(OK, OK, OK, OK)
        assert self.session.mode == "game"
        if dismiss:
            self.press(BACK)  # skip the setup notices
            assert not self.session.notices

    def dismiss(self) -> None:
        """OK through notices and overlays, as far as they go."""
        for _ in range(200):
            if self.session.overlay is None and not self.session.notices:
                return
            self.press(OK)
        raise AssertionError("notices never end")

    def choose(self, label: str) -> None:
        """Move the menu cursor onto ``label`` with DOWN and press OK."""
        items = self.screen["items"]
        assert label in items, (label, items)
        target = items.index(label)
        self.press(*[DOWN] * ((target - self.screen["cursor"]) % len(items)))
        assert self.screen["cursor"] == target
        self.press(OK)

    # ---------------------------------------------------------------- outputs

    @property
    def screen(self) -> dict[str, Any]:
        return self.session.screen()

    @property
    def game(self) -> Entanglion:
        return self.session.game

    def entries(self, game_id: int | None = None) -> list:
        return self.journal.load(game_id or self.session.game_id).entries

    def snapshot(self) -> tuple:
        """Everything a refused input must leave alone: the engine and the journal."""
        g = self.session.game
        games = self.journal.games()
        return (json.dumps(g.to_dict(), sort_keys=True) if g is not None else None,
                self.session.game_id, self.session.mode,
                [(x.id, x.status, x.turns, x.inputs, x.reason) for x in games],
                [self.journal.load(x.id).entries for x in games])

    def led_frame(self) -> tuple:
        return self.box.leds.last

    def close(self) -> None:
        self.journal.close()


@pytest.fixture
def rigs(tmp_path):
    made: list[Rig] = []

    def make(config: SessionConfig | None = None, seed: int = 2018, name: str = "journal.db",
             **kwargs: Any) -> Rig:
        rig = Rig(tmp_path / name, config, seed, **kwargs)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()


@pytest.fixture
def rig(rigs) -> Rig:
    return rigs()


def planet_pixel(frame: tuple, planet: str) -> tuple:
    return frame[PLANETS.index(planet)]


def oled_lines(text: str) -> list[str]:
    """The lines an error screen shows (the OLED cuts the rest)."""
    return wrap(text, oled.WIDTH - 4)[:oled.BODY_LINES]


def assert_error(rig: Rig, contains: str = "", fits: bool = True) -> str:
    """An error screen with a one-line reason that fits the OLED."""
    screen = rig.screen
    assert screen["screen"] == "error", screen
    text = screen["text"]
    assert text and "\n" not in text, text
    assert contains in text, (contains, text)
    if fits:
        assert " ".join(oled_lines(text)).replace(" ", "") == text.replace(" ", ""), \
            f"cut on the OLED: {text!r}"
    return text


# ====================================================================== 1. menu and setup


def test_main_menu_on_a_fresh_box(rig):
    s = rig.session
    assert s.mode == "menu" and s.game is None
    assert rig.screen == {"screen": "menu", "title": "Companion", "text": ["Choose a game"],
                          "items": ["New Entanglion", "New QNO", "New QLANET", "Settings",
                                    "Switch the box off"], "cursor": 0}
    assert s.led_model() == {}
    assert rig.led_frame() == (OFF,) * 25
    assert rig.box.display.frames_sent == 1  # the menu was drawn once
    assert s.tick_interval() is None and rig.box.tick_interval() is None


def test_switching_off_asks_first_and_only_requests_it(rig):
    s = rig.session
    rig.press("UP")  # the last item
    rig.press("OK")
    assert rig.screen["title"] == "Switch off?" and rig.screen["cursor"] == 0
    rig.press("OK")  # "No, keep it on"
    assert s.request is None and rig.screen["title"] == "Companion"
    rig.press("UP")
    rig.press("OK")
    rig.press("BACK")  # BACK is "no" too
    assert s.request is None and rig.screen["title"] == "Companion"
    rig.press("UP")
    rig.press("OK")
    rig.press("DOWN")
    rig.press("OK")  # "Yes, switch off"
    assert s.request == "power_off" and s.mode == "menu"


def test_setup_steps_titles_and_defaults(rigs):
    rig = rigs(SessionConfig(start_space=4, deck="physical", dice="manual"))
    rig.press(OK)
    titles, cursors = [], []
    for _ in range(3):
        titles.append((rig.screen["title"], rig.screen["right"]))
        cursors.append(rig.screen["cursor"])
        rig.press(OK)
    # Every setup screen counts: 3 menus, 8 parts, the start, then with real cards and
    # dice 6 draws instead of the deal screen, and 4 setup rolls.
    assert titles == [("Difficulty", "Setup 1/22"), ("Cards", "Setup 2/22"),
                      ("Dice", "Setup 3/22")]
    assert cursors == [2, 1, 1]  # SessionConfig's choices are preselected
    assert rig.session.mode == "game"
    opts = rig.game.state.options
    assert (opts["start_space"], opts["deck"], opts["dice"]) == (4, "physical", "manual")
    record = rig.journal.load(rig.session.game_id)
    assert record.options == {"start_space": 4, "deck": "physical", "dice": "manual"}
    assert record.seed == 2018 and record.status == "playing" and record.entries == []


def test_setup_items_and_plain_defaults(rig):
    rig.press(OK)
    assert rig.screen["items"] == ["Easy: track at 1", "Easy: track at 2", "Hard: track at 3"]
    assert rig.screen["cursor"] == 0
    rig.press(OK)
    assert rig.screen["items"] == ["Box deals (virtual)", "Real cards"]
    rig.press(OK)
    assert rig.screen["items"] == ["Box rolls", "Real dice"]
    assert rig.session.led_model() == {}  # no LEDs before a game


def test_setup_back_goes_back_a_step_keeping_the_choice(rig):
    rig.press(OK)  # new game
    rig.press(DOWN)  # track at 2
    assert rig.screen["cursor"] == 1
    rig.press(OK)
    assert rig.screen["right"] == "Setup 2/13"
    rig.press(DOWN, OK)  # real cards: six draws instead of one deal screen
    assert rig.screen["right"] == "Setup 3/18"
    rig.press(BACK)
    assert rig.screen["right"] == "Setup 2/18" and rig.screen["cursor"] == 1
    rig.press(BACK)
    assert rig.screen["title"] == "Difficulty" and rig.screen["cursor"] == 1
    rig.press(BACK)
    assert rig.session.mode == "menu" and rig.screen["title"] == "Companion"
    assert rig.journal.games() == []
    # a new setup starts from the config's defaults again, not the abandoned choices
    rig.press(OK)
    assert rig.screen["right"] == "Setup 1/13" and rig.screen["cursor"] == 0


def test_setup_cursor_wraps(rig):
    rig.press(OK)
    rig.press(UP)
    assert rig.screen["cursor"] == 2
    rig.press(DOWN)
    assert rig.screen["cursor"] == 0


def test_setup_notices_place_components_then_detection_players_ships_deal(rig):
    """The guided set-up counts on from the menus (4/13 ... 13/13), and the LEDs only
    ever show what the screens have announced: each component lights as it is placed,
    ships and the track only once the start screen says where they are."""
    rig.start(dismiss=False)
    g = rig.game
    placements = []
    for i in range(1, 9):
        screen = rig.screen
        assert screen["screen"] == "text"
        assert (screen["title"], screen["right"]) == ("Parts", f"Setup {3 + i}/13")
        model = rig.session.led_model()
        (planet,) = model["highlight"]
        frame = rig.led_frame()
        assert planet_pixel(frame, planet) == HIGHLIGHT_WARM
        assert [p for p in PLANETS if planet_pixel(frame, p) == COMPONENT_DIM] == \
            [p for p in PLANETS if p in placements]  # only those already placed
        assert frame[TRACK_OFFSET:TRACK_OFFSET + 12] == (OFF,) * 12  # no track yet
        assert not model["ships"] and frame[TURN_INDEX] == OFF
        component = g.state.planet_components[planet]
        assert screen["lines"][0] == "Put " + component.replace("_", " ").title()
        assert screen["lines"][1] == "on " + planet.replace("_", " ")
        placements.append(planet)
        rig.press(OK)
    assert sorted(placements) == sorted(p for p, c in g.state.planet_components.items() if c)
    titles = []
    while rig.session.notices:
        screen = rig.screen
        assert "highlight" not in rig.session.led_model()
        assert HIGHLIGHT_WARM not in rig.led_frame()
        assert planet_pixel(rig.led_frame(), "ZERO") == MERCURIAL_BLUE  # ships announced
        titles.append((screen["title"], screen["right"], screen["lines"]))
        rig.press(OK)
    hands = g.state.hands
    assert titles == [
        ("Start", "Setup 12/13", ["Detection: space 1", "First roll M 7 R 4",
                                  "Mercurial starts", "Ships: M |0>, R |1>"]),
        ("Deal", "Setup 13/13", [f"Mercurial take {', '.join(hands[M])}",
                                 f"Rubicon take {', '.join(hands[R])}"])]
    assert rig.screen["screen"] == "status"
    assert rig.screen["turn"] == "Mercurial" and rig.screen["hand"] == f"Hand {' '.join(hands[M])}"
    assert rig.led_frame()[TURN_INDEX] == MERCURIAL_BLUE


def test_back_skips_all_setup_notices(rig):
    rig.start(dismiss=False)
    assert rig.screen["title"] == "Parts" and rig.screen["right"] == "Setup 4/13"
    rig.press(UP)  # UP/DOWN do nothing on a notice
    rig.press(DOWN)
    assert rig.screen["right"] == "Setup 4/13"
    rig.press(BACK)
    assert rig.screen["screen"] == "status" and not rig.session.notices


# ====================================================================== 2. taps


def test_tap_on_the_right_pad_navigates(rig):
    rig.start()
    before = rig.game.state.pos
    rig.tap(1, "CNOT")
    g = rig.game
    assert g.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]
    assert g.state.pos != before and g.turn_player == R
    entries = rig.entries()
    assert len(entries) == 1 and entries[0].kind == "input"
    assert Journal.effective_inputs(entries) == g.inputs
    summary = rig.journal.games()[0]
    assert (summary.status, summary.inputs, summary.turns) == ("playing", 1, g.state.turn_number)
    assert rig.screen["screen"] == "text" and rig.screen["title"] == "Mercurial plays CNOT"
    assert rig.screen["lines"][0] == "CNOT: |1>"


def test_shared_pad_serves_whoever_is_up(rig):
    rig.start()
    rig.tap(3, "CNOT")
    rig.dismiss()
    rig.tap(3, "SWAP")
    assert [(a["player"], a["card"]) for a in rig.game.inputs] == [(M, "CNOT"), (R, "SWAP")]
    assert Journal.effective_inputs(rig.entries()) == rig.game.inputs


@pytest.mark.parametrize("pad, what, reason", [
    (2, "CNOT", "Pad 2 is Rubicon's; Mercurial is up"),
    (1, "uid=04FFFFFFFFFFFF", "Unknown tag 04FFFFFFFFFFFF"),
    (1, "uid=not a uid!", "Unknown tag"),
    (1, "uid=", "Unknown tag"),
    (1, "uid=04E1010201000000000000", "Unknown tag"),  # 11 bytes: no UID size
    (4, "CNOT", "Tag on unknown pad 4"),
    (0, "CNOT", "Tag on unknown pad 0"),
    (1, "X", "Mercurial has no X in hand"),
    (1, "PROBE", "PROBE is never played"),
    (1, "bennett", "Mercurial does not hold Bennett"),
    (1, "quantum_tunnel", "does not hold Quantum Tunnel"),
])
def test_refused_taps_show_why_and_change_nothing(rig, pad, what, reason):
    rig.start()
    before = rig.snapshot()
    frames = rig.box.display.frames_sent
    tag = what[4:] if what.startswith("uid=") else uid(what)
    rig.send(Tag(pad, tag))
    assert_error(rig, reason)
    assert rig.snapshot() == before
    assert rig.box.display.frames_sent == frames + 1  # the error was drawn
    rig.press(OK)  # dismissing is all OK does
    assert rig.screen["screen"] == "status"
    assert rig.snapshot() == before


def test_pads_follow_the_config(rigs):
    rig = rigs(SessionConfig(pads={1: "rubicon", 2: "mercurial"}))
    rig.start()
    rig.tap(1, "CNOT")
    assert_error(rig, "Pad 1 is Rubicon's; Mercurial is up")
    rig.tap(3, "CNOT")
    assert_error(rig, "Tag on unknown pad 3")
    rig.tap(2, "CNOT")
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]


def test_a_tapped_tag_uid_is_normalised(rig):
    rig.start()
    rig.send(Tag(1, "04:e1:01:02:01:00:00"))  # the first CNOT, as a reader may spell it
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]


def test_tap_before_any_game_is_refused(rig):
    before = rig.snapshot()
    rig.tap(1, "CNOT")
    assert_error(rig, "Start a game first")
    assert rig.snapshot() == before
    rig.press(OK)
    assert rig.screen["title"] == "Companion"
    rig.press(OK)  # in setup
    rig.tap(2, "H")
    assert_error(rig, "Start a game first")
    rig.press(OK)
    assert rig.screen["right"] == "Setup 1/13"
    assert rig.journal.games() == []


def test_tap_of_a_component_shows_where_it_is(rig):
    rig.start()
    before = rig.snapshot()
    planet = next(p for p, c in rig.game.state.planet_components.items()
                  if c == "physical_qubits")
    rig.tap(1, "physical_qubits")
    screen = rig.screen
    assert screen["screen"] == "card" and screen["kind"] == "component"
    assert screen["name"] == "Physical Qubits"
    assert screen["footer"] == "now: " + {"OMEGA_ZERO": "OMEGA0"}.get(planet, planet)
    assert rig.snapshot() == before
    rig.press(OK)
    assert rig.screen["screen"] == "status"


def test_card_of_another_game_and_odd_registry_cards_are_refused(rigs):
    registry = Registry({
        "04AA0000000001": Card("qno", "engine", "X"),
        "04AA0000000002": Card("entanglion", "rules", "summary"),
        "04AA0000000003": Card("entanglion", "event", "mystery"),
        "04AA0000000004": Card("entanglion", "engine", "Y"),
        **{u: c for u, c in REG},
    })
    rig = rigs(registry=registry)
    rig.start()
    before = rig.snapshot()
    for tag, reason in [("04AA0000000001", "That card is from QNO"),
                        ("04AA0000000002", "summary"),
                        ("04AA0000000003", "mystery"),
                        ("04AA0000000004", "'Y'")]:
        rig.send(Tag(1, tag))
        assert_error(rig, reason)
        assert rig.snapshot() == before


def test_unknown_component_name_in_registry_is_refused_not_raised(rigs):
    """Found by this suite: a hand-edited registry typo used to raise KeyError."""
    registry = Registry({"04AA0000000005": Card("entanglion", "component", "flux_capacitor")})
    rig = rigs(registry=registry)
    rig.start()
    before = rig.snapshot()
    rig.send(Tag(1, "04AA0000000005"))  # must not raise
    assert_error(rig, "flux_capacitor")
    assert rig.snapshot() == before


def test_refused_tap_keeps_the_unread_setup_notices(rig):
    """Found by this suite: a refused tap used to throw the unread notices away."""
    rig.start(dismiss=False)
    rig.press(OK)
    assert rig.screen["right"] == "Setup 5/13"
    rig.send(Tag(1, "04FFFFFFFFFFFF"))
    assert_error(rig, "Unknown tag")
    rig.press(OK)
    assert rig.screen.get("right") == "Setup 5/13", rig.screen
    rig.press(RETRIEVE)  # a refused button too
    assert_error(rig, "retrieve needs")
    rig.press(OK)
    assert rig.screen.get("right") == "Setup 5/13", rig.screen
    assert rig.session.led_model()["highlight"] == rig.screen["leds"]["highlight"]


def test_component_info_tap_keeps_the_unread_setup_notices(rig):
    """Found by this suite: an info-card tap used to throw the unread notices away."""
    rig.start(dismiss=False)
    rig.press(OK)
    counter = rig.screen["right"]
    assert counter == "Setup 5/13"
    rig.tap(1, "physical_qubits")
    assert rig.screen["screen"] == "card"
    rig.press(OK)
    assert rig.screen.get("right") == counter, rig.screen


def test_refused_undo_keeps_the_unread_setup_notices(rig):
    """Found by this suite: a refused hold of BACK used to throw the notices away."""
    rig.start(dismiss=False)
    rig.hold()
    assert_error(rig, "Nothing to undo")
    rig.press(OK)
    assert rig.screen.get("right") == "Setup 4/13", rig.screen


def test_refused_tap_during_a_roll_keeps_the_animation(rigs):
    """Found by this suite: the notices came back after a refused tap, the animation not."""
    rig = rigs(seed=1)
    _play_a_little(rig)  # ships together on a planet with a component
    rig.press(RETRIEVE)
    rig.tick()
    assert rig.screen["frame"] == 1
    rig.send(Tag(1, "04FFFFFFFFFFFF"))
    assert_error(rig, "Unknown tag")
    assert rig.session.tick_interval() is None  # the die waits under the error
    rig.press(OK)
    assert rig.screen["screen"] == "roll" and rig.screen["frame"] == 1
    frames = []
    while rig.session.tick_interval() == ROLL_STEP:
        rig.tick()
        frames.append(rig.screen["frame"])
    assert frames == list(range(2, ROLL_FRAMES)) + [None]


def test_tap_during_notices_moves_on_to_the_new_action(rig):
    rig.start(dismiss=False)
    assert rig.session.notices
    rig.tap(1, "H")
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "H"}]
    assert rig.screen["title"] == "Mercurial plays H"


# ====================================================================== 3. buttons


def test_exchange_then_tap_exchanges(rig):
    rig.start()
    rig.press(EXCHANGE)
    screen = rig.screen
    assert screen["screen"] == "menu" and screen["title"] == "Mercurial: exchange"
    assert screen["text"] == ["Tap a card or choose"]
    assert screen["items"] == ["Exchange CNOT", "Exchange H"]
    rig.tap(1, "H")
    assert rig.game.inputs == [{"player": M, "do": "exchange", "card": "H"}]
    assert rig.session.menu is None
    assert Journal.effective_inputs(rig.entries()) == rig.game.inputs


def test_exchange_with_a_tap_on_the_wrong_pad_keeps_the_menu(rig):
    rig.start()
    rig.press(EXCHANGE)
    before = rig.snapshot()
    rig.tap(2, "H")
    assert_error(rig, "Pad 2 is Rubicon's")
    assert rig.snapshot() == before
    rig.press(OK)
    assert rig.screen["title"] == "Mercurial: exchange"  # still open
    rig.press(DOWN, OK)  # Exchange H by buttons
    assert rig.game.inputs == [{"player": M, "do": "exchange", "card": "H"}]


def test_exchange_with_a_card_not_in_hand_keeps_the_menu(rig):
    """Found by this suite: a refused tap used to close the exchange menu, so the
    next tap of the card meant for exchange navigated with it instead."""
    rig.start()
    rig.press(EXCHANGE)
    before = rig.snapshot()
    rig.tap(1, "X")
    assert_error(rig, "Mercurial has no X in hand")
    assert rig.snapshot() == before
    rig.tap(1, "H")  # the card they meant
    assert rig.game.inputs == [{"player": M, "do": "exchange", "card": "H"}]


def test_exchange_then_back_closes(rig):
    rig.start()
    before = rig.snapshot()
    rig.press(EXCHANGE)
    rig.press(BACK)
    assert rig.screen["screen"] == "status"
    assert rig.snapshot() == before


def test_retrieve_when_not_possible_shows_the_engines_reason(rig):
    rig.start()
    before = rig.snapshot()
    rig.press(RETRIEVE)
    reason = rig.game.check({"do": "retrieve"})
    assert reason
    assert assert_error(rig) == reason
    assert rig.snapshot() == before


def test_back_on_the_status_screen_says_hold_to_undo(rig):
    rig.start()
    rig.press(BACK)
    assert_error(rig, "Hold BACK to undo")


def test_up_down_page_through_the_components(rig):
    rig.start()
    rig.press(DOWN)
    assert rig.screen == {"screen": "text", "title": "Turn 1: where", "right": "1/2",
                          "lines": rig.screen["lines"], "hint": "UP/DOWN"}
    assert len(rig.screen["lines"]) == 5
    rig.press(DOWN)
    assert rig.screen["right"] == "2/2" and len(rig.screen["lines"]) == 3
    rig.press(DOWN)
    assert rig.screen["screen"] == "status"
    rig.press(UP)
    assert rig.screen["right"] == "2/2"
    rig.tap(1, "H")  # an action brings back the first page
    rig.dismiss()
    assert rig.screen["screen"] == "status"


def test_action_menu_lists_every_legal_action_and_the_session_items(rig):
    rig.start()
    legal = rig.game.legal_actions()
    rig.press(OK)
    screen = rig.screen
    assert screen["screen"] == "menu" and screen["title"] == "Mercurial: your move"
    assert len(screen["items"]) == len(legal) + 4
    assert screen["items"][-3:] == SESSION_ITEMS
    assert screen["items"][:len(legal) + 1] == ["Hint", "CNOT → |1>", "H → M|+> R|1>",
                                                "Exchange CNOT", "Exchange H"]
    assert screen["cursor"] == 0  # the Hint: one press away, and never a risk
    rig.press(UP)  # wraps to the last item
    assert rig.screen["cursor"] == len(legal) + 3
    rig.press(BACK)
    assert rig.screen["screen"] == "status" and rig.game.inputs == []


def test_every_action_menu_item_performs_its_action(rig):
    rig.start()
    legal = rig.game.legal_actions()
    for act in legal:
        rig.press(OK)
        i = next(i for i, item in enumerate(rig.session.menu.model["items"]) if item.action == act)
        rig.press(*[DOWN] * i)
        assert rig.screen["cursor"] == i
        rig.press(OK)
        assert rig.game.inputs == [act]
        assert Journal.effective_inputs(rig.entries()) == [act]
        rig.hold()
        assert rig.screen["screen"] == "undo"
        rig.press(OK)
        assert rig.game.inputs == []


def test_buttons_inside_the_action_menu(rig):
    rig.start()
    rig.press(OK)
    rig.press(EXCHANGE)  # closes the action menu and opens the exchange one
    assert rig.screen["title"] == "Mercurial: exchange"
    rig.press(BACK, OK)
    rig.press(RETRIEVE)  # closes the action menu, then refuses
    assert_error(rig, "retrieve needs")
    rig.press(OK)
    assert rig.screen["screen"] == "status"
    rig.press(OK)
    rig.tap(1, "CNOT")  # a tap while a menu is open acts and closes it
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]
    assert rig.session.menu is None


def test_undo_item_and_main_menu_item(rig):
    rig.start()
    rig.press(OK)
    rig.choose("Undo last action")
    assert_error(rig, "Nothing to undo")
    rig.press(OK)
    rig.tap(1, "H")
    rig.dismiss()
    rig.press(OK)
    rig.choose("Undo last action")
    assert rig.screen == {"screen": "undo", "text": "Mercurial: navigate H"}
    assert rig.game.inputs == []
    rig.press(OK)
    rig.press(OK)
    rig.choose("Main menu (keep)")
    assert rig.session.mode == "menu" and rig.session.game is None
    assert rig.screen["items"] == ["Resume game #1", "New Entanglion", "New QNO",
                                 "New QLANET", "Settings",
                                 "Switch the box off"]
    assert rig.journal.games()[0].status == "playing"
    assert rig.session.led_model() == {} and rig.led_frame() == (OFF,) * 25


# ====================================================================== 4. undo


def test_hold_back_undoes_the_last_input_and_keeps_history(rig):
    rig.start()
    rig.tap(1, "CNOT")
    rig.dismiss()
    rig.tap(2, "SWAP")
    after_two = rig.game.to_dict()
    rig.hold()
    assert rig.screen == {"screen": "undo", "text": "Rubicon: navigate SWAP"}
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]
    entries = rig.entries()
    assert [e.kind for e in entries] == ["input", "input", "undo"]
    assert entries[1].action == {"player": R, "do": "navigate", "card": "SWAP"}
    assert Journal.effective_inputs(entries) == rig.game.inputs
    assert rig.journal.games()[0].inputs == 1
    assert rig.game.turn_player == R
    rig.press(OK)
    assert rig.screen["screen"] == "status" and rig.screen["turn"] == "Rubicon"
    # the same tap again: the same dice, draws and log
    rig.tap(2, "SWAP")
    assert rig.game.to_dict() == after_two
    assert [e.kind for e in rig.entries()] == ["input", "input", "undo", "input"]
    assert Journal.effective_inputs(rig.entries()) == rig.game.inputs


def test_undo_then_redo_of_a_dice_roll_gives_the_same_outcome(rig):
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    rig.tap(2, "CNOT")  # orbital defence roll, detection jump roll and an event
    screens = []
    while rig.session.notices:
        screens.append(rig.screen)
        rig.press(OK)
    state = rig.game.to_dict()
    rolls = [e for e in rig.game.log if e["type"] == "roll"]
    rig.hold()
    assert rig.screen["text"] == "Rubicon: navigate CNOT"
    rig.press(OK)
    rig.tap(2, "CNOT")
    again = []
    while rig.session.notices:
        again.append(rig.screen)
        rig.press(OK)
    assert again == screens
    assert any(s["screen"] == "roll" for s in again)
    assert rig.game.to_dict() == state
    assert [e for e in rig.game.log if e["type"] == "roll"] == rolls


def test_hold_back_with_nothing_to_undo(rig):
    rig.hold()
    assert_error(rig, "Nothing to undo")  # in the menu
    rig.press(OK)
    rig.start()
    before = rig.snapshot()
    rig.hold()
    assert_error(rig, "Nothing to undo")
    assert rig.snapshot() == before
    rig.tap(1, "H")
    rig.hold()
    rig.press(OK)
    rig.hold()
    assert_error(rig, "Nothing to undo")
    assert [e.kind for e in rig.entries()] == ["input", "undo"]


def test_undo_clears_notices_and_menus(rig):
    rig.start()
    rig.tap(1, "H")
    assert rig.session.notices
    rig.hold()
    assert not rig.session.notices and rig.screen["screen"] == "undo"
    rig.press(OK)
    rig.tap(1, "H")
    rig.dismiss()
    rig.press(OK)  # action menu
    rig.hold()
    assert rig.session.menu is None and rig.screen["screen"] == "undo"


# ====================================================================== 5. physical deck


def test_physical_deck_deal_is_a_series_of_draw_prompts(rigs):
    rig = rigs(SessionConfig(deck="physical"))
    rig.start()
    g = rig.game
    assert g.pending["kind"] == "draw" and g.pending["player"] == M
    screen = rig.screen
    assert screen["screen"] == "menu" and screen["title"] == "Draw"
    assert screen["right"] == "Setup 13/18"  # menus, parts, the start: then six draws
    assert screen["text"] == ["Mercurial draws:", "tap it or choose"]
    assert screen["items"] == ["H", "CNOT", "X", "SWAP", "PROBE"]
    # the other player's pad is refused
    before = rig.snapshot()
    rig.tap(2, "SWAP")
    assert_error(rig, "Pad 2 is Rubicon's; Mercurial is up")
    assert rig.snapshot() == before
    rig.press(OK)
    # a card from the wrong deck is not a choice
    rig.tap(1, "bennett")
    assert_error(rig, "Bennett is not a choice here")
    assert rig.snapshot() == before
    rig.press(OK)
    # RETRIEVE and EXCHANGE do not answer a prompt
    rig.press(RETRIEVE)
    assert_error(rig, "Choose with UP/DOWN, OK")
    rig.press(OK)
    # Mercurial draws all three SWAPs by tapping them
    for copy in range(3):
        rig.tap(1, "SWAP", copy)
        assert not rig.session.overlay
    assert g.state.hands[M] == ["SWAP", "SWAP", "SWAP"]
    assert rig.game.pending == {"player": R, "kind": "draw",
                                "options": ["H", "CNOT", "X", "PROBE"], "deck": "engine"}
    # no SWAP is left in the deck
    before = rig.snapshot()
    rig.tap(2, "SWAP")
    assert_error(rig, "SWAP is not a choice here")
    assert rig.snapshot() == before
    rig.press(OK)
    rig.tap(1, "H")
    assert_error(rig, "Pad 1 is Mercurial's; Rubicon is up")
    rig.press(OK)
    # Rubicon answers by buttons: CNOT, then X (UP wraps), then a tap of H
    assert rig.screen["items"] == ["H", "CNOT", "X", "PROBE"]
    rig.press(DOWN, OK)
    rig.press(UP, UP, OK)  # 0 -> PROBE -> X
    rig.tap(3, "H")  # the shared pad
    assert g.pending is None
    assert g.state.hands == {M: ["SWAP", "SWAP", "SWAP"], R: ["CNOT", "X", "H"]}
    assert rig.screen["screen"] == "status"
    inputs = rig.game.inputs
    assert [a["value"] for a in inputs] == ["SWAP", "SWAP", "SWAP", "CNOT", "X", "H"]
    assert all(a["do"] == "choose" for a in inputs)
    assert Journal.effective_inputs(rig.entries()) == inputs
    # the status screen hides the hand: the players hold real cards
    assert rig.screen["hand"] == "Hand 3 cards"


def test_physical_deck_undo_takes_back_one_draw(rigs):
    rig = rigs(SessionConfig(deck="physical"))
    rig.start()
    rig.tap(1, "X")
    rig.tap(1, "H")
    rig.hold()
    assert rig.screen["screen"] == "undo"
    assert rig.game.state.hands[M] == ["X"]
    assert rig.game.pending["player"] == M
    rig.press(OK)
    rig.press(DOWN, OK)  # CNOT
    assert rig.game.state.hands[M] == ["X", "CNOT"]
    assert Journal.effective_inputs(rig.entries()) == rig.game.inputs


# ====================================================================== 6. manual dice


def test_manual_dice_prompts_are_answered_by_buttons(rigs):
    rig = rigs(SessionConfig(dice="manual"))
    rig.start()
    g = rig.game
    assert g.status == "setup"
    assert (rig.screen["title"], rig.screen["right"]) == ("Roll", "Setup 12/17")
    assert rig.screen["text"] == ["Mercurial: roll d8", "for First player"]
    assert rig.screen["items"] == [str(v) for v in range(1, 9)]
    assert rig.session.led_model()["ships"] == {}
    rig.tap(1, "H")  # taps do not roll dice
    assert_error(rig, "Choose with UP/DOWN, OK")
    rig.press(OK)
    rig.press(*[DOWN] * 6, OK)  # Mercurial rolls 7
    assert rig.screen["text"][0] == "Rubicon: roll d8" and rig.screen["right"] == "Setup 13/17"
    rig.press(*[UP] * 6, OK)  # 0 -> 7 -> ... -> 2: Rubicon rolls 3
    firsts = [e for e in g.log if e["type"] == "roll" and e["purpose"] == "first player"]
    assert [(e["player"], e["raw"], e["result"]) for e in firsts] == [
        (M, 7, "first"), (R, 3, "second")]
    assert rig.screen["text"] == ["Mercurial: roll Centarious", "for Ship placement"]
    assert rig.screen["items"] == ["0: |0>", "1: |1>"]
    rig.press(DOWN, OK)  # Mercurial's ship: 1
    assert rig.screen["right"] == "Setup 15/17"
    rig.press(OK)  # Rubicon's ship: 0
    assert (rig.screen["title"], rig.screen["right"]) == ("Start", "Setup 16/17")
    assert rig.screen["lines"][1:3] == ["First roll M 7 R 3", "Mercurial starts"]
    rig.dismiss()
    assert g.status == "playing" and g.state.pos == ("ONE", "ZERO")
    ships = [e for e in g.log if e["type"] == "roll" and e["purpose"] == "ship placement"]
    assert [(e["player"], e["raw"]) for e in ships] == [(M, 1), (R, 0)]
    assert Journal.effective_inputs(rig.entries()) == g.inputs
    assert [a["value"] for a in g.inputs] == [7, 3, 1, 0]


@pytest.mark.parametrize("value, result", [(8, "evaded"), (1, "detected")])
def test_manual_dice_in_play_log_the_chosen_number(rigs, value, result):
    rig = rigs(SessionConfig(dice="manual"))
    rig.start()
    for choice in ("7", "3", "0: |0>", "0: |0>"):  # Mercurial starts; both ships at |0>
        rig.choose(choice)
        rig.dismiss()
    g = rig.game
    assert g.state.pos == ("ZERO", "ZERO")
    rig.tap(1, "H")
    rig.dismiss()
    rig.tap(2, "CNOT")  # into Entanglion: the orbital defence roll is asked for
    assert g.pending["kind"] == "roll" and g.pending["purpose"] == "orbital defence"
    assert rig.screen["lines"][0] == "CNOT: PHI+"  # the move is told first
    rig.press(OK)
    assert rig.screen["title"] == "Rubicon: roll"
    assert rig.screen["text"] == ["Rubicon: roll d8", "for Orbital defence", "Need 2+ to evade"]
    rig.choose(f"{value}: {'evade' if result == 'evaded' else 'DETECTED'}")
    roll = next(e for e in reversed(g.log) if e["type"] == "roll"
                and e["purpose"] == "orbital defence")
    assert roll["raw"] == value and roll["result"] == result
    if result == "detected":  # the evasive jump is asked for next
        assert g.pending["die"] == "centarious"
        rig.dismiss()
        rig.choose("1: |1>")
        jump = next(e for e in reversed(g.log) if e["type"] == "roll")
        assert jump["raw"] == 1 and jump["result"] == "ONE"
    shown = [rig.screen] + rig.session.notices
    if result == "detected":  # the jump is told in the summary
        assert any("Jump to |1>" in n.get("lines", []) for n in shown)
    else:
        assert next(n for n in shown if n["screen"] == "roll")["value"] == value
    assert Journal.effective_inputs(rig.entries()) == g.inputs


def test_manual_dice_deal_notice_is_titled_deal(rigs):
    """Found by this suite: with real dice the deal was told under 'Setup: ships'."""
    rig = rigs(SessionConfig(dice="manual"))
    rig.start()
    for choice in ("7", "3", "0: |0>"):
        rig.choose(choice)
        rig.dismiss()
    rig.choose("0: |0>")  # the last ship roll deals the hands
    deal = [n for n in [rig.screen] + rig.session.notices[1:]
            if any("take" in line for line in n.get("lines", []))]
    # 3 menus, 8 parts, 4 setup rolls (no tie here), the start: the deal is 17 of 17
    assert deal and deal[0]["title"] == "Deal" and deal[0]["right"] == "Setup 17/17"


# ====================================================================== 7. journal failures


def _raise(*args: Any, **kwargs: Any) -> None:
    raise JournalError("journal /box/journal.db: disk I/O error")


def test_journal_failure_takes_the_input_back(rig, monkeypatch, caplog):
    rig.start()
    before = rig.snapshot()
    monkeypatch.setattr(rig.session.journal, "record", _raise)
    rig.tap(1, "CNOT")
    assert_error(rig, "Not saved, not done")
    assert "disk I/O error" in caplog.text  # the cause goes to the log
    assert rig.snapshot() == before
    assert rig.game.inputs == []
    rig.press(OK)
    rig.press(RETRIEVE)  # an engine refusal still comes first
    assert_error(rig, "retrieve needs")
    rig.press(OK)
    rig.press(OK, DOWN, OK)  # the action menu's first move, by buttons
    assert_error(rig, "Not saved, not done")
    assert rig.snapshot() == before
    monkeypatch.undo()
    rig.press(OK)
    rig.tap(1, "CNOT")
    assert rig.game.inputs == [{"player": M, "do": "navigate", "card": "CNOT"}]
    assert Journal.effective_inputs(rig.entries()) == rig.game.inputs


def test_journal_error_fits_the_oled_and_the_cause_is_logged(rig, monkeypatch, caplog):
    """Found by this suite: the error used to carry the journal's full path, so the
    OLED cut it before it said what went wrong."""
    rig.start()

    def full(*args: Any, **kwargs: Any) -> None:  # worded as Journal words it
        raise JournalError(f"journal {rig.journal.path}: database or disk is full")

    monkeypatch.setattr(rig.session.journal, "record", full)
    rig.tap(1, "CNOT")
    assert_error(rig, "Not saved, not done")  # fits the OLED
    assert "database or disk is full" in caplog.text and str(rig.journal.path) in caplog.text


def test_journal_failure_on_undo_keeps_the_input(rig, monkeypatch):
    rig.start()
    rig.tap(1, "CNOT")
    rig.dismiss()
    before = rig.snapshot()
    monkeypatch.setattr(rig.session.journal, "record_undo", _raise)
    rig.hold()
    assert_error(rig, "Not saved, not undone")
    assert rig.snapshot() == before
    monkeypatch.undo()
    rig.press(OK)
    rig.hold()
    assert rig.screen["screen"] == "undo" and rig.game.inputs == []


def test_journal_failure_starting_a_game(rig, monkeypatch):
    monkeypatch.setattr(rig.session.journal, "new_game", _raise)
    rig.press(OK, OK, OK, OK)
    assert_error(rig, "Not saved")
    assert rig.session.mode == "setup" and rig.session.game is None
    assert rig.journal.games() == []
    monkeypatch.undo()
    rig.press(OK)
    assert rig.screen["right"] == "Setup 3/13"
    rig.press(OK)
    assert rig.session.mode == "game" and rig.session.game_id == 1


def test_journal_failure_ending_a_game(rig, monkeypatch):
    rig.start()
    monkeypatch.setattr(rig.session.journal, "abandon", _raise)
    rig.press(OK)
    rig.choose("End this game")
    rig.choose("Yes, end it")
    assert_error(rig, "Not saved")
    assert rig.session.mode == "game" and rig.journal.games()[0].status == "playing"


def test_starting_a_game_needs_no_journal_read(rig, monkeypatch):
    """The main menu remembers what it offers to resume: no journal query per frame."""
    rig.press(OK, OK, OK)
    monkeypatch.setattr(rig.session.journal, "unfinished", _raise)
    monkeypatch.setattr(rig.session.journal, "load", _raise)
    rig.press(OK)
    assert rig.session.mode == "game"
    rig.press(BACK, OK)
    rig.choose("Main menu (keep)")
    assert rig.screen["items"] == ["Resume game #1", "New Entanglion", "New QNO",
                                 "New QLANET", "Settings",
                                 "Switch the box off"]


# ====================================================================== 8. resume


def _play_a_little(rig: Rig) -> None:
    """Setup, then Mercurial H and Rubicon CNOT, notices read."""
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    rig.tap(2, "CNOT")
    rig.dismiss()
    rig.tap(1, "CNOT")
    if rig.session.menu is not None:  # out of Entanglion: asked first
        rig.choose("Yes, leave")
    rig.hold()  # an undo in the history
    rig.press(OK)
    rig.tap(1, "H")
    rig.dismiss()


def test_a_new_session_resumes_the_unfinished_game(rigs):
    first = rigs()
    _play_a_little(first)
    second = rigs(seed=99)  # a reboot: same journal file, another seed source
    s = second.session
    assert s.mode == "game" and s.game_id == 1
    screen = second.screen
    n = len(first.game.inputs)
    assert screen == {"screen": "text", "title": "Game #1 resumed",
                      "lines": [f"Turn {first.game.state.turn_number}", f"{n} inputs replayed"],
                      "hint": "OK"}
    assert second.game.to_dict()["state"] == first.game.to_dict()["state"]
    assert second.game.inputs == first.game.inputs
    assert second.game.log == first.game.log
    assert second.session.led_model() == first.session.led_model()
    second.press(OK)
    assert second.screen == first.screen  # the same status screen
    # undo reaches back past the reboot
    last = second.game.inputs[-1]
    second.hold()
    assert second.screen["screen"] == "undo"
    assert second.entries()[-1].kind == "undo"
    assert Journal.effective_inputs(second.entries()) == second.game.inputs
    second.press(OK)
    second.send(Tag(1 if last["player"] == M else 2, uid(last["card"])))
    assert second.game.to_dict()["state"] == first.game.to_dict()["state"]
    second.dismiss()
    # play on in the resumed game
    second.tap(2, second.game.state.hands[R][0])
    assert len(second.game.inputs) == n + 1
    assert Journal.effective_inputs(second.entries()) == second.game.inputs


def test_a_journal_game_that_no_longer_replays_is_damage_the_shell_trims(tmp_path):
    """Found by this suite: a game that no longer replays used to crash Session(); then it
    said "cannot be resumed" at every start. Its entries verify, yet the engine refuses
    them: Session() raises it as damage, and the shell's salvage trims the game to what
    replays (here its set-up), telling the table once."""
    from companion import recovery

    path = tmp_path / "journal.db"
    with Journal(path) as journal:  # written by an older engine, say
        gid = journal.new_game("entanglion", 2018, {"start_space": 1, "deck": "virtual",
                                                    "dice": "auto"}, {})
        journal.record(gid, {"player": M, "do": "navigate", "card": "X"}, turns=2,
                       status="playing")
    with Journal(path) as journal, pytest.raises(JournalError, match="does not replay") as e:
        Session(journal, REG, SessionConfig())
    assert e.value.damaged
    for told in (True, False):  # the alert once; the next start just resumes
        session = recovery.open_session(path, REG, SessionConfig())
        try:
            assert (session.overlay is not None) == told
            if told:
                assert session.overlay["title"] == "Journal repaired"
            assert session.game_id == gid and session.game.inputs == []
        finally:
            recovery.shown(path)
            session.journal.close()


def test_resume_failure_message_fits_the_oled(tmp_path, caplog):
    """Found by this suite: the reason used to be too long for the OLED."""
    rig = Rig(tmp_path / "journal.db")
    try:
        gid = rig.journal.new_game("entanglion", 2018, {"start_space": 1, "deck": "virtual",
                                                        "dice": "auto"}, {})
        rig.journal.record(gid, {"player": M, "do": "navigate", "card": "X"}, turns=2,
                           status="playing")
        rig.session._try_resume(gid)  # as the main menu's "Resume" does
        assert_error(rig, "cannot be resumed")
        assert "Mercurial has no X in hand" in caplog.text
    finally:
        rig.close()


def test_main_menu_keep_resume_and_new_game_abandons_the_old(rigs):
    first = rigs()
    _play_a_little(first)
    state = first.game.to_dict()["state"]
    rig = rigs(seed=7)
    rig.press(OK)  # dismiss the resumed notice
    rig.press(OK)
    rig.choose("Main menu (keep)")
    assert rig.screen["items"] == ["Resume game #1", "New Entanglion", "New QNO",
                                 "New QLANET", "Settings",
                                 "Switch the box off"]
    assert rig.screen["cursor"] == 0
    rig.press(OK)  # resume
    assert rig.screen["title"] == "Game #1 resumed"
    assert rig.game.to_dict()["state"] == state
    rig.press(OK, OK)
    rig.choose("Main menu (keep)")
    rig.press(DOWN, OK)  # New Entanglion (which ends #1)
    assert rig.session.mode == "setup"
    assert rig.journal.load(1).status == "playing"  # not until setup finishes
    rig.press(BACK)
    assert rig.session.mode == "menu"
    assert rig.screen["items"][0] == "Resume game #1"
    rig.press(DOWN, OK, OK, OK, OK)
    assert rig.session.mode == "game" and rig.session.game_id == 2
    assert rig.journal.load(1).status == "abandoned"
    assert rig.journal.load(2).status == "playing" and rig.journal.load(2).seed == 7
    assert rig.screen["right"] == "Setup 4/13"
    rig.press(BACK)
    rig.press(OK)
    rig.choose("Main menu (keep)")
    assert rig.screen["items"] == ["Resume game #2", "New Entanglion", "New QNO",
                                 "New QLANET", "Settings",
                                 "Switch the box off"]


def test_a_finished_or_abandoned_game_is_not_resumed(rigs):
    rig = rigs()
    rig.start()
    rig.press(OK)
    rig.choose("End this game")
    rig.choose("Yes, end it")
    again = rigs()
    assert again.session.mode == "menu" and again.screen["items"] == [
        "New Entanglion", "New QNO", "New QLANET", "Settings", "Switch the box off"]


# ====================================================================== 9. end a game


def test_end_this_game_with_confirmation(rig):
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    rig.press(OK)
    rig.choose("End this game")
    screen = rig.screen
    assert screen["title"] == "End game #1?" and screen["text"] == ["It cannot be resumed"]
    assert screen["items"] == ["No, keep playing", "Yes, end it"] and screen["cursor"] == 0
    rig.press(EXCHANGE)  # no shortcuts out of the question
    assert_error(rig, "Choose with UP/DOWN, OK")
    rig.press(OK)
    rig.press(OK)  # No, keep playing
    assert rig.screen["screen"] == "status" and rig.journal.load(1).status == "playing"
    rig.press(OK)
    rig.choose("End this game")
    rig.choose("Yes, end it")
    assert rig.journal.load(1).status == "abandoned"
    assert rig.journal.load(1).finished is not None
    assert rig.session.mode == "menu" and rig.session.game is None
    assert rig.screen["items"] == ["New Entanglion", "New QNO", "New QLANET", "Settings",
                                 "Switch the box off"]
    assert rig.led_frame() == (OFF,) * 25


def test_confirm_back_returns_to_the_game(rig):
    rig.start()
    rig.press(OK)
    rig.choose("End this game")
    rig.press(BACK)
    assert rig.screen["screen"] == "status" and rig.journal.load(1).status == "playing"


# ====================================================================== 10. whole games


def check_led_frame(s: Session, frame: tuple) -> None:
    """The LED frame agrees with the game (ships, components, the detection track and
    whose turn it is), or, while notices are up, with the board as they have told it:
    never ahead of them (a notice's picture is never later than the game's)."""
    g = s.game
    st = g.state
    model = s.led_model()
    assert len(frame) == 25
    if s.notices and "leds" in s.notices[0]:
        told = s.notices[0]["leds"]
        assert model == {**told, **({"targets": model["targets"]} if "targets" in model
                                    else {})} or model.get("highlight")
        return
    assert model["detection"] == min(st.detection, 12)
    track = frame[TRACK_OFFSET:TRACK_OFFSET + 12]
    if g.status == "won":
        assert track == (WON_GREEN,) * 12
        return
    if g.status == "lost":
        assert track[:11] == (LOST_RED,) * 11
        return
    assert track == tuple(DETECTION_COLOURS[i] if i < st.detection else OFF
                          for i in range(12))
    want = {M: MERCURIAL_BLUE, R: RUBICON_RED}.get(st.turn_player, OFF)
    assert frame[TURN_INDEX] == (want if g.status == "playing" else OFF)
    if g.status != "playing" or model.get("highlight") or model.get("targets"):
        return
    m, r = st.pos
    for planet in PLANETS:
        want = OFF
        if planet == m == r:
            want = BOTH_VIOLET
        elif planet == m:
            want = MERCURIAL_BLUE
        elif planet == r:
            want = RUBICON_RED
        elif st.planet_components.get(planet):
            want = COMPONENT_DIM
        assert planet_pixel(frame, planet) == want, (planet, st.pos)


def play_to_the_end(sim: Any, player: AutoPlayer, limit: int = 5000) -> dict[str, Any]:
    s = sim.box.session
    seen = {"colours": set(), "ended_with_notices": False, "commands": 0}
    for _ in range(limit):
        cmd = player.next_command(s)
        if cmd is None:
            return seen
        was_playing = s.game is not None and s.game.status == "playing"
        sim.run(cmd)
        seen["commands"] += 1
        if s.mode == "game":
            frame = sim.box.leds.last
            check_led_frame(s, frame)
            seen["colours"].update(frame)
            if was_playing and s.game.status in ("won", "lost"):
                seen["ended_with_notices"] = bool(s.notices)
                if s.notices:
                    assert s.screen()["screen"] != "end"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [2018, 2019])
def test_autoplayer_plays_a_whole_game_by_taps_and_by_buttons_alike(tmp_path, seed):
    """The same player's game once with tags tapped and once with the buttons only:
    each is checked to its end, and both are the same inputs."""
    played = [a_whole_game_checked(tmp_path / str(taps), seed, taps) for taps in (True, False)]
    assert played[0] == played[1]


def a_whole_game_checked(folder: Path, seed: int, taps: bool) -> list[Any]:
    """Play ``seed``'s game to its end, checking the LEDs on the way, the end screen, the
    journal and the way back to the menu; returns the game's inputs."""
    sim, journal = build(folder, None, seed, SessionConfig(), None)
    try:
        s = sim.box.session
        seen = play_to_the_end(sim, AutoPlayer(seed - 2018, taps=taps))
        g = s.game
        assert g.status in ("won", "lost")
        assert seen["ended_with_notices"]  # the last notices came before the end screen
        assert {MERCURIAL_BLUE, BOTH_VIOLET, COMPONENT_DIM, DETECTION_COLOURS[0],
                DETECTION_COLOURS[1]} <= seen["colours"]
        end = s.screen()
        assert end["screen"] == "end" and end["result"] == g.status
        assert end["turns"] == g.state.turn_number
        assert end["reason"] == next(e["reason"] for e in reversed(g.log)
                                     if e["type"] == "game_over")
        assert sim.box.tick_interval() == BLINK_STEP  # the result blinks / cycles
        ticks = 0
        while sim.box.tick_interval() is not None:  # ... for a while, then the box idles
            sim.box.handle(Tick())
            ticks += 1
            assert ticks <= LIGHT_SHOW
            check_led_frame(s, sim.box.leds.last)
        assert s.tick_interval(True) is None and s.screen()["screen"] == "end"
        sent = sim.box.leds.frames_sent, sim.box.display.frames_sent
        sim.box.refresh()
        assert (sim.box.leds.frames_sent, sim.box.display.frames_sent) == sent
        summary = journal.games()[0]
        assert summary.status == g.status and summary.turns == g.state.turn_number
        assert summary.inputs == len(g.inputs) and summary.reason == end["reason"]
        assert summary.finished is not None
        record = journal.load(summary.id)
        assert Journal.effective_inputs(record.entries) == g.inputs
        replayed = Entanglion.replay(record.seed, record.options, {}, (), g.inputs)
        assert replayed.to_dict()["state"] == g.to_dict()["state"]
        # taps or buttons: a game ends the same way
        sim.run("press up")
        assert s.screen()["screen"] == "end"
        sim.run("press ok")
        assert s.mode == "menu" and s.screen()["items"] == [
            "New Entanglion", "New QNO", "New QLANET", "Settings",
                                 "Switch the box off"]
        assert sim.box.leds.last == (OFF,) * 25 and sim.box.tick_interval() is None
        return g.inputs
    finally:
        journal.close()


@pytest.mark.parametrize("options", [
    {"deck": "physical"}, {"dice": "manual"}, {"deck": "physical", "dice": "manual",
                                               "start_space": 4}])
def test_autoplayer_with_real_cards_and_dice(tmp_path, options):
    sim, journal = build(tmp_path, None, 102, SessionConfig(), None)
    try:
        play_to_the_end(sim, AutoPlayer(2, taps=True, options=options))
        g = sim.box.session.game
        for key, value in options.items():
            assert g.state.options[key] == value
        summary = journal.games()[0]
        assert summary.status == g.status and summary.turns == g.state.turn_number
        assert Journal.effective_inputs(journal.load(1).entries) == g.inputs
    finally:
        journal.close()


def test_undo_of_the_last_input_reopens_a_finished_game(tmp_path):
    # Seed 2018's game: the shortest of the whole games above (any finished game will do).
    sim, journal = build(tmp_path, None, 2018, SessionConfig(), None)
    try:
        s = sim.box.session
        play_to_the_end(sim, AutoPlayer(0, taps=True))
        status = s.game.status
        assert journal.games()[0].status == status
        sim.run("hold back")
        assert s.screen()["screen"] == "undo"
        assert s.game.status == "playing"
        summary = journal.games()[0]
        assert summary.status == "playing" and summary.finished is None
        assert journal.load(1).entries[-1].kind == "undo"
        assert Journal.effective_inputs(journal.load(1).entries) == s.game.inputs
    finally:
        journal.close()


# ====================================================================== 11. ticks and frames


def test_roll_animation_ticks(rigs):
    rig = rigs(seed=2018)
    rig.start()
    rig.tap(1, "H")
    rig.dismiss()
    assert rig.session.tick_interval() is None and rig.box.tick_interval() is None
    sent = rig.box.display.frames_sent
    rig.tap(2, "CNOT")  # into Entanglion: the orbital check rolls at once
    assert rig.screen["screen"] == "roll"
    frames = []
    for _ in range(ROLL_FRAMES + 5):
        frames.append(rig.screen["frame"])
        if rig.session.tick_interval() is None:
            break
        assert rig.session.tick_interval() == ROLL_STEP == rig.box.tick_interval()
        rig.tick()
    assert frames == list(range(ROLL_FRAMES)) + [None]
    assert rig.box.display.frames_sent == sent + ROLL_FRAMES + 1  # each step was drawn
    assert rig.screen["value"] == 1 and rig.screen["result"] == "DETECTED"
    assert rig.screen["need"] == 2  # the value to beat was 1
    # ticks while idle move nothing on the OLED
    rig.tick()
    assert rig.box.display.frames_sent == sent + ROLL_FRAMES + 1
    rig.press(OK)  # the summary: the jump is told, not another die to wait for (a busy
    # input's summary keeps four lines on screen, the rest a press of DOWN away)
    assert rig.screen["screen"] == "text" and rig.session.tick_interval() is None
    told = rig.screen["lines"] + rig.screen.get("details", [])
    assert any(line.startswith("Jump to") or "Evasive jump" in line for line in told)


def test_retrieve_roll_animates_at_once(rigs):
    rig = rigs(seed=1)
    _play_a_little(rig)  # ships together on a planet with a component
    assert any(a["do"] == "retrieve" for a in rig.game.legal_actions())
    rig.press(RETRIEVE)
    assert rig.game.inputs[-1] == {"player": M, "do": "retrieve"}
    assert rig.screen["screen"] == "roll" and rig.screen["purpose"] == "Ground defence"
    assert rig.session.tick_interval() == ROLL_STEP
    for frame in range(ROLL_FRAMES):
        assert rig.screen["frame"] == frame
        rig.tick()
    assert rig.screen["frame"] is None and rig.session.tick_interval() is None
    rig.press(OK)
    assert rig.screen["title"] == "Mercurial retrieves"
    assert "Error Correct. aboard" in rig.screen["lines"]
    rig.press(OK)
    assert rig.screen["screen"] == "card" and rig.screen["title"] == "Retrieved!"
    rig.press(OK)
    assert rig.game.state.ship_components[M] == ["quantum_error_correction"]
    assert rig.screen["parts"] == "Parts 1/8"


def test_idle_box_sends_nothing(rig):
    rig.start()
    assert rig.screen["screen"] == "status"
    assert rig.session.tick_interval() is None and rig.box.tick_interval() is None
    oled_sent, leds_sent = rig.box.display.frames_sent, rig.box.leds.frames_sent
    rig.box.refresh()
    rig.box.refresh()
    assert rig.box.display.frames_sent == oled_sent
    assert rig.box.leds.frames_sent == leds_sent
    image = rig.box.display.image
    assert image is not None and image.tobytes() == oled.render(rig.screen).tobytes()
    assert rig.box.display.frames[-1].tobytes() == image.tobytes()


def test_every_distinct_screen_is_one_frame(rig):
    rig.press(OK)
    sent = rig.box.display.frames_sent
    rig.press(UP, DOWN)  # away and back: two new frames
    assert rig.box.display.frames_sent == sent + 2
    rig.press(BACK)
    assert rig.box.display.frames_sent == sent + 3


# ====================================================================== 12. targets


def test_menu_cursor_on_a_navigate_item_blinks_its_destination(rig):
    rig.start()
    g = rig.game
    st = g.state
    rig.press(OK)
    assert rig.screen["items"][0] == "Hint" and "targets" not in rig.session.led_model()
    rig.press(DOWN)
    legal = g.legal_actions()
    for i, act in enumerate(legal, 1):
        assert rig.screen["cursor"] == i
        model = rig.session.led_model()
        if act["do"] == "navigate":
            dest = board.navigate(act["card"], M, st.pos, st.options["cnot_phase_kickback"])
            assert model["targets"] == list(dict.fromkeys(dest))
            assert rig.box.tick_interval() == BLINK_STEP
            frame = rig.led_frame()
            for planet in model["targets"]:
                assert planet_pixel(frame, planet) == TARGET_AMBER
        else:
            assert "targets" not in model
            assert rig.box.tick_interval() is None
        rig.press(DOWN)
    # the blink: phase 1 shows what is under the targets
    rig.press(*[UP] * len(legal))
    assert rig.session.led_model()["targets"] == ["ONE"]  # CNOT: both ships to |1>
    assert planet_pixel(rig.led_frame(), "ONE") == TARGET_AMBER
    rig.tick()
    assert planet_pixel(rig.led_frame(), "ONE") == RUBICON_RED
    rig.tick()
    assert planet_pixel(rig.led_frame(), "ONE") == TARGET_AMBER
    # no targets once the menu is gone
    rig.press(BACK)
    assert "targets" not in rig.session.led_model()
    assert rig.box.tick_interval() is None
    # an accepted input restarts the blink: targets come on at once in the next menu
    rig.press(OK, DOWN)
    rig.tick()
    assert planet_pixel(rig.led_frame(), "ONE") == RUBICON_RED
    rig.press(BACK)
    rig.tap(1, "H")
    rig.dismiss()
    rig.tap(2, "SWAP")
    rig.dismiss()
    rig.press(OK, DOWN)
    model = rig.session.led_model()
    assert model["targets"]
    frame = rig.led_frame()
    assert all(planet_pixel(frame, p) == TARGET_AMBER for p in model["targets"])


def test_a_blink_tick_shows_what_a_full_refresh_would(rig):
    # A tick that only moves the blink phase skips the screen, the LED model and the
    # observers: the LEDs, the OLED and what a page is handed must come out the same.
    rig.start()
    rig.press(OK, DOWN)
    assert rig.session.led_model()["targets"] and not rig.session.animating()
    seen: list[int] = []
    rig.box.observers.append(lambda box, image: seen.append(box.session.phase))
    oled_sent = rig.box.display.frames_sent
    for _ in range(4):
        rig.tick()
        after_tick = (rig.led_frame(), rig.box.leds.frames_sent)
        rig.box.refresh()  # everything drawn again from the session
        assert (rig.led_frame(), rig.box.leds.frames_sent) == after_tick
    assert rig.box.display.frames_sent == oled_sent  # the OLED never changed
    assert seen == [1, 2, 3, 4]  # only the full refreshes: the page shows no blink
    assert len({rig.box.leds.frames[i] for i in range(-4, 0)}) == 2  # it blinks


def test_retrieve_item_targets_the_planet(rigs):
    rig = rigs(seed=1)
    _play_a_little(rig)  # ships together on a planet with a component
    rig.press(OK)
    items = rig.screen["items"]
    i = next(k for k, label in enumerate(items) if label.startswith("Retrieve"))
    assert items[i] == "Retrieve need 2+ 7/8" and i == 1  # the most useful move first
    assert rig.screen["text"] == ["Here: Error Correct."]
    rig.press(*[DOWN] * i)
    assert rig.session.led_model()["targets"] == [rig.game.state.pos[0]]
    rig.press(OK)
    assert rig.game.inputs[-1]["do"] == "retrieve"


def test_no_targets_under_an_overlay(rig):
    rig.start()
    rig.press(OK, DOWN)  # the first move, under the Hint
    assert rig.session.led_model().get("targets")
    rig.press(RETRIEVE)  # closes the menu; the error shows
    assert "targets" not in rig.session.led_model()


# ====================================================================== 13. random events


GARBAGE = ["", "zz", "04", "DEADBEEF", "04E1FFFF010000", "0102030405060708090A0B",
           "04:e1:01:02:01:00:00", "  ", "not a uid", "04E10102010000FF"]
UIDS = [u for u, _ in REG]


def random_event(rnd: random.Random) -> Any:
    r = rnd.random()
    if r < 0.35:
        return Press(OK)
    if r < 0.55:
        return Press(rnd.choice(BUTTONS))
    if r < 0.60:
        return Hold(BACK if rnd.random() < 0.7 else rnd.choice(BUTTONS))
    if r < 0.88:
        return Tag(rnd.randrange(0, 5), rnd.choice(UIDS))
    if r < 0.94:
        return Tag(rnd.randrange(0, 5), rnd.choice(GARBAGE))
    return Tick()


@pytest.mark.parametrize("seed, config", [
    (1, SessionConfig()),
    (2, SessionConfig(deck="physical")),
    (3, SessionConfig(dice="manual")),
    (4, SessionConfig(deck="physical", dice="manual", start_space=4)),
    (5, SessionConfig(pads={1: "mercurial", 2: "rubicon"})),
])
def test_random_events_never_raise_and_the_journal_replays(rigs, seed, config):
    rnd = random.Random(seed)
    rig = rigs(config, seed=seed)
    s = rig.session
    accepted = 0
    for _ in range(300):
        inputs = len(s.game.inputs) if s.game is not None else 0
        rig.send(random_event(rnd))  # never raises (Box renders screen and LEDs too)
        screen = s.screen()
        assert screen["screen"] in oled.LAYOUTS
        if screen["screen"] == "error":
            assert screen["text"] and len(screen["text"]) <= 100
        if s.game is not None:
            accepted += len(s.game.inputs) > inputs
        interval = rig.box.tick_interval()
        assert interval in (None, ROLL_STEP, BLINK_STEP)
    # every game in the journal replays; the live one to exactly the live state
    for summary in rig.journal.games():
        record = rig.journal.load(summary.id)
        inputs = Journal.effective_inputs(record.entries)
        replayed = ui_for(record.game).replay(record.seed, record.options, record.setup,
                                              inputs)  # any game the random presses began
        assert summary.inputs == len(inputs)
        if summary.id == s.game_id:
            assert inputs == s.game.inputs
            assert replayed.to_dict()["state"] == s.game.to_dict()["state"]
            assert summary.status == (s.game.status if s.game.status in ("won", "lost")
                                      else "playing")
    assert rig.journal.games(), "the random events never started a game"
    assert accepted, "no random input was accepted"
    # a reboot resumes exactly the unfinished game
    if s.game is not None and s.game.status not in ("won", "lost"):
        again = rigs(config, seed=seed)
        assert again.session.game_id == s.game_id
        assert again.game.to_dict()["state"] == s.game.to_dict()["state"]


EVENTS = st.one_of(
    st.sampled_from(BUTTONS).map(Press),
    st.just(Press(OK)),
    st.sampled_from(BUTTONS).map(Hold),
    st.builds(Tag, st.integers(0, 4), st.sampled_from(UIDS)),
    st.builds(Tag, st.integers(0, 4), st.sampled_from(GARBAGE) | st.text(max_size=24)),
    st.just(Tick()),
)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.sampled_from(["virtual", "physical"]), dice=st.sampled_from(["auto", "manual"]),
       events=st.lists(EVENTS, max_size=150))
def test_hypothesis_events_never_raise_and_replay(tmp_path_factory, deck, dice, events):
    path = tmp_path_factory.mktemp("fuzz") / "journal.db"
    rig = Rig(path, SessionConfig(deck=deck, dice=dice), seed=len(events))
    try:
        rig.press(OK, OK, OK, OK)  # a game from the start, so the events reach it
        for event in events:
            rig.send(event)
            assert rig.screen["screen"] in oled.LAYOUTS
        s = rig.session
        if s.game is not None:
            record = rig.journal.load(s.game_id)
            inputs = Journal.effective_inputs(record.entries)
            assert inputs == s.game.inputs
            replayed = Entanglion.replay(record.seed, record.options, {}, (), inputs)
            assert replayed.to_dict()["state"] == s.game.to_dict()["state"]
    finally:
        rig.close()


def test_box_alerts_wait_in_turn_but_news_on_one_subject_replaces_the_old(rig):
    rig.session.alert("Tag file broken", "Cards cannot be tapped;")
    rig.session.alert("Journal repaired", "See the log.")  # waits behind the first
    for i in range(50):  # a flapping reader cable
        rig.session.alert(*(("Readers lost", "x"), ("Readers back", "y"))[i % 2],
                          replaces=(("Readers back",), ("Readers lost",))[i % 2])
    seen = []
    while rig.session.overlay is not None:
        seen.append(rig.screen["title"])
        rig.press(OK)
    assert seen == ["Tag file broken", "Journal repaired", "Readers back"]
    # News on the subject on show replaces it at once.
    rig.session.alert("Readers lost", "x", replaces=("Readers back",))
    rig.session.alert("Readers back", "y", replaces=("Readers lost",))
    assert rig.screen["title"] == "Readers back" and not rig.session._alerts
