"""The session's public surface: what is on show, and one input event at a time.

Menus may nest: a menu item's action, a tap's answer or a button's answer may be a
menu (``{"menu": kind, "title", "text", "items"}``), which opens in its place; BACK
closes the whole chain. A game without private OLEDs can offer a *peek*: an item
``{"session": "peek", "seat": s}`` shows a warning (``ui.peek_warning``), then the
seat's private screen on the shared OLED only while EXCHANGE is held (``Hold`` then
``Release``); any other button ends the peek.

Durability rule: an accepted input is committed to the journal *before* its outcome
becomes visible, so anything a player has seen survives a crash or a pulled plug.
If the journal cannot write, the input is taken back and the players are told.

The table's place survives too: the notices of the last input (or, for a new game, of
its setup: placements, first player, ship rolls, the deal) are rebuilt from the
journal on resume, less the ones the table had already read, which the journal's mark
records as each is dismissed.  A journal whose content is damaged makes the
constructor raise the damaged :class:`JournalError`, so the shell can salvage it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from ..games.common import Ruler, measure_with, ui_for
from ..inputs import (BACK, DOWN, EXCHANGE, OK, UP, Event, Hold, PinBurned, Press, Release,
                      RoomCommand, Tag, Tick)
from ..journal import Journal
from ..registry import Registry
from ..views import font, oled
from .menus import Menus, _Menu
from .notices import ROLL_FRAMES, ROLL_STEP, Notices, _detail_pages
from .play import Play
from .setup_steps import SetupSteps
from .tags import Tags

# The games fit their words by the views' font (they never import a view themselves).
measure_with(Ruler(font.text_width, font.wrap, oled.MENU_LABEL))

BLINK_STEP = 0.5  # seconds per blink phase
LIGHT_SHOW = 20  # blink phases of the win/loss show; then the LEDs rest


@dataclass
class SessionConfig:
    """What the box is set up with (the daemon reads it from the config file)."""

    pads: dict[int, str | None] = field(
        default_factory=lambda: {1: "mercurial", 2: "rubicon", 3: None})  # None: shared
    deck: str = "virtual"
    dice: str = "auto"
    start_space: int = 1
    qno_pads: dict[int, int | None] = field(default_factory=dict)  # pad -> player; shared
    private_screens: tuple[int, ...] = ()  # seats with their own small OLED (QLANET camps)
    # With web control on: makes a new pairing PIN, shown by the "Web PIN" menu item.
    web_pin: Callable[[], str] | None = field(default=None, compare=False)
    # With the web page on: its address, (url, "") or (None, why there is none), shown
    # by the "Web address" menu item as a QR code and as a line under the main menu.
    web_url: Callable[[], tuple[str | None, str]] | None = field(default=None, compare=False)
    # Keeps the language chosen in Settings across restarts (the shell writes it to the
    # state directory); None: the choice lasts until the box stops.
    save_language: Callable[[str], None] | None = field(default=None, compare=False)
    # A finished game's analysis (``analyses.Analyses.get``), told on its story's pages;
    # None: the box has none.
    analysis: Callable[[int], dict[str, Any] | None] | None = field(default=None, compare=False)
    # Set-up choices the room's broker asked for (game -> key -> value): the next game's
    # set-up starts on them instead of the choices above.
    room_rules: dict[str, dict[str, Any]] = field(default_factory=dict)


def random_seed() -> int:
    return int.from_bytes(os.urandom(6), "big")


class Session(Menus, SetupSteps, Play, Tags, Notices):
    """One box: the menu, at most one game in play, and what is on show."""

    def __init__(self, journal: Journal, registry: Registry,
                 config: SessionConfig | None = None,
                 seed_source: Callable[[], int] = random_seed):
        self.journal = journal
        self.registry = registry
        self.config = config or SessionConfig()
        self.seed_source = seed_source
        self.ui = ui_for("entanglion")  # the ui module of the game in play or in setup
        self.game: Any = None  # the engine of the game in play
        self.game_id: int | None = None
        self.mode = "menu"  # menu | setup | game
        self.setup_step = 0
        self.setup_choices: dict[str, Any] = {}
        self.menu: _Menu | None = None  # a menu opened over the game
        self.cursor = 0
        self._prompt_key: tuple[Any, ...] | None = None  # the prompt the cursor is in
        self.page = 0
        self.notices: list[dict[str, Any]] = []
        self.detail = 0  # the page of the front notice's details on show (0: the notice)
        self._story: dict[str, Any] | None = None  # the finished game's story, once told
        self.overlay: dict[str, Any] | None = None  # error, undo notice or info card
        self.anim = 0  # roll animation steps still to show
        self.phase = 0  # blink phase for the LEDs
        self.resumable: int | None = None  # the unfinished game the main menu offers
        self.peek: int | None = None  # the seat whose secret a peek is about
        self.peeking = False  # the secret is on the shared screen (EXCHANGE held)
        self.request: str | None = None  # "power_off": the players asked to switch off
        self.remote = False  # the input being handled came from a paired phone's page
        self.off_asked = False  # a page asked to switch off: the box's buttons answer
        self._shown: tuple[int, int, int] | None = None  # (game, entry, notices) on show
        self._alerts: list[dict[str, Any]] = []  # box alerts waiting behind the one shown
        self._tell_broken_catalogs()
        record = journal.unfinished()  # damage raises: the shell salvages
        if record is not None:
            self._try_resume(record.id, record, starting=True)

    # ------------------------------------------------------------------ outputs

    def screen(self) -> dict[str, Any]:
        if self.overlay is not None:
            return self.overlay
        if self.peek is not None:
            if self.peeking:
                return self.ui.private_screen(self.game, self.peek)
            return self.ui.peek_warning(self.game, self.peek)
        if self.notices:
            front = self.notices[0]
            if self.detail:
                return self._details(front)
            if front["screen"] == "roll" and self.anim:
                return {**front, "frame": ROLL_FRAMES - self.anim}
            return front
        return self._menu_screen(self._current_menu())

    def private_screens(self) -> dict[int, dict[str, Any]]:
        """The screen model of each seat's own OLED (none outside a game with secrets)."""
        if self.mode != "game" or not hasattr(self.ui, "private_screen"):
            return {}
        return {seat: self.ui.private_screen(self.game, seat)
                for seat in self.config.private_screens}

    def led_model(self) -> dict[str, Any]:
        if self.mode != "game":
            return {}
        # A notice carries the board as of what it has told: the LEDs never run ahead.
        front = self.notices[0] if self.notices else {}
        model = dict(front["leds"]) if "leds" in front else self.ui.leds(self.game)
        # The targets of the item under the cursor blink; the menu is built only when it
        # is on show (building a prompt's menu weighs its odds).
        if not self.notices and self.overlay is None and (menu := self._current_menu()):
            items = menu["items"]
            if items and 0 <= self.cursor < len(items) and items[self.cursor].targets:
                model["targets"] = list(items[self.cursor].targets)
        return model

    def animating(self) -> bool:
        """Whether a ``Tick`` steps the die's animation; otherwise it only moves the
        blink phase, which nothing but the LED frame shows."""
        return bool(self.anim and self.notices and self.overlay is None)

    def tick_interval(self, blinking: bool = False) -> float | None:
        """Seconds until the next ``Tick`` is wanted, or None (idle).

        ``blinking`` is whether the LED frame changes with the phase (the view knows).
        """
        if self.animating():
            return ROLL_STEP
        if blinking and self.game is not None and self.game.status in ("won", "lost") \
                and self.phase >= LIGHT_SHOW:
            return None
        return BLINK_STEP if blinking else None

    # ------------------------------------------------------------------ input

    def handle(self, event: Event) -> None:
        """Apply one input event. Never raises for a bad input: it shows why instead."""
        if isinstance(event, Tick):
            if self.animating():
                self.anim -= 1
            else:
                self.phase += 1
            return
        if isinstance(event, PinBurned):
            self._web_pin_burned()
            return
        if isinstance(event, RoomCommand):
            self._room_command(event)
            return
        self.remote = getattr(event, "remote", False)
        if self.off_asked:
            self._answer_off_on_box(event)
            return
        if self.peek is not None and self._peek_event(event):
            return
        if isinstance(event, Release):
            return  # only a peek waits for a button to be let go
        button = event.button if isinstance(event, (Press, Hold)) else None
        if isinstance(event, Hold) and button == BACK:
            self.overlay = None
            self._keeping_notices(self._undo)
            return
        if self.overlay is not None:
            self.overlay = self._alerts.pop(0) if self._alerts else None
            if button in (OK, BACK, UP, DOWN):
                return  # dismissing is all these do
        if self.notices:
            if button == OK:
                if self.notices[0]["screen"] == "roll" and self.anim and not self.detail:
                    self.anim = 0  # skip the animation
                else:
                    self._next_notice()
                return
            if button in (UP, DOWN):
                if self.notices[0].get("details"):
                    pages = len(_detail_pages(self.notices[0]))
                    self.detail = max(0, min(pages, self.detail + (1 if button == DOWN else -1)))
                return
            if button == BACK:
                # Skip to the summary (it tells the outcome); from it, past everything.
                summary = next((i for i, n in enumerate(self.notices)
                                if n.get("summary") or n.get("details")), 0)
                self.notices = self.notices[summary:] if summary and not self.detail else []
                self._start_front()
                self._note_read()
                return
        if isinstance(event, Tag):
            self._keeping_notices(lambda: self._tag(event))
        elif button is not None:
            self._keeping_notices(lambda: self._button(button))

    def _peek_event(self, event: Event) -> bool:
        """During a peek: EXCHANGE held shows the secret, let go hides it (a short press
        does nothing); anything else ends the peek, and a tap then goes on as usual.
        Returns whether the event is used up."""
        if isinstance(event, (Press, Hold, Release)) and event.button == EXCHANGE:
            if not isinstance(event, Press):  # a short press is not a hold: no change
                self.peeking = isinstance(event, Hold)
            return True
        self.peek, self.peeking = None, False
        return not isinstance(event, Tag)

    def _keeping_notices(self, act: Callable[[], None]) -> None:
        """Run ``act``: an accepted input moves on from the notices; one that only put
        up an error or an info card leaves them (and a rolling die) to read after it."""
        unread, anim, detail = self.notices, self.anim, self.detail
        self.notices, self.anim, self.detail = [], 0, 0
        act()
        if self.overlay is not None and not self.notices and self.overlay["screen"] != "undo":
            self.notices, self.anim, self.detail = unread, anim, detail
