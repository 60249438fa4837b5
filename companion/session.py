"""The session: turns button presses and card taps into game actions.

It owns what players meet between the hardware and the engine: the game menu, the
guided setup, menus for every decision, the tag registry lookup, undo, and the
journal. It is single-threaded and has no clock: time reaches it only as ``Tick``
events, which the shell sends while :meth:`Session.tick_interval` asks for them (an
animation or a blink), so an idle box does nothing.

Outputs are plain data: :meth:`Session.screen` is the screen model that
``views.oled.render`` draws, :meth:`Session.led_model` what ``views.leds`` lights,
and :meth:`Session.private_screens` what each seat's own small OLED shows (a game
with secrets, such as QLANET, has a ``private_screen`` in its ui module).

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

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from . import i18n
from .games.common import GAMES, Item, ui_for
from .i18n import N_, _, ngettext
from .inputs import (
    BACK, DOWN, EXCHANGE, OK, RETRIEVE, UP, Event, Hold, Press, Release, Tag, Tick,
)
from .journal import Journal, JournalError
from .registry import Registry
from .views.font import wrap

log = logging.getLogger(__name__)

ROLL_FRAMES = 6  # animation steps before a die shows its number
ROLL_STEP = 0.08  # seconds per animation step
BLINK_STEP = 0.5  # seconds per blink phase
LIGHT_SHOW = 20  # blink phases of the win/loss show; then the LEDs rest
SEATS = ("mercurial", "rubicon")


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
    # Keeps the language chosen in Settings across restarts (the shell writes it to the
    # state directory); None: the choice lasts until the box stops.
    save_language: Callable[[str], None] | None = field(default=None, compare=False)


def random_seed() -> int:
    return int.from_bytes(os.urandom(6), "big")


@dataclass
class _Menu:
    kind: str  # main | setup | actions | exchange | confirm_end | confirm_off
    model: dict[str, Any]


class Session:
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
        self._shown: tuple[int, int, int] | None = None  # (game, entry, notices) on show
        self._alerts: list[dict[str, Any]] = []  # box alerts waiting behind the one shown
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

    def _details(self, notice: dict[str, Any]) -> dict[str, Any]:
        """A page of a notice's details: every line of what happened, a press away."""
        pages = _detail_pages(notice)
        page = min(self.detail, len(pages))
        return {"screen": "text", "title": _("Details"), "right": f"{page}/{len(pages)}",
                "lines": pages[page - 1], "hint": "▲▼ OK"}

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
        menu = self._current_menu()
        if menu and not self.notices and self.overlay is None:
            items = menu["items"]
            if items and 0 <= self.cursor < len(items) and items[self.cursor].targets:
                model["targets"] = list(items[self.cursor].targets)
        return model

    def tick_interval(self, blinking: bool = False) -> float | None:
        """Seconds until the next ``Tick`` is wanted, or None (idle).

        ``blinking`` is whether the LED frame changes with the phase (the view knows).
        """
        if self.anim and self.notices and self.overlay is None:
            return ROLL_STEP
        if blinking and self.game is not None and self.game.status in ("won", "lost") \
                and self.phase >= LIGHT_SHOW:
            return None
        return BLINK_STEP if blinking else None

    # ------------------------------------------------------------------ input

    def handle(self, event: Event) -> None:
        """Apply one input event. Never raises for a bad input: it shows why instead."""
        if isinstance(event, Tick):
            if self.anim and self.notices and self.overlay is None:
                self.anim -= 1
            else:
                self.phase += 1
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

    # ------------------------------------------------------------------ menus

    def _current_menu(self) -> dict[str, Any] | None:
        if self.mode == "menu":
            return self.menu.model if self.menu is not None else self._main_menu()
        if self.mode == "setup":
            step = self.ui.SETUP_STEPS[self.setup_step]
            return {"title": _(step.title),
                    "right": _("Setup {index}/{total}").format(index=self.setup_step + 1,
                                                              total=self._setup_total()),
                    "text": [], "items": [Item(_(label), None) for label, _value in step.choices]}
        if self.menu is not None:
            return self.menu.model
        g = self.game
        if g.status in ("won", "lost"):
            return None
        if g.pending:
            return self.ui.prompt_menu(g)
        return None

    def _menu_screen(self, menu: dict[str, Any] | None) -> dict[str, Any]:
        if menu is None:
            g = self.game
            if g.status in ("won", "lost"):
                return self.ui.end_screen(g, self.page, self._game_story())
            return self.ui.status(g, self.page)
        out = {"screen": "menu", "title": menu["title"], "text": list(menu["text"]),
               "items": [i.label for i in menu["items"]], "cursor": self.cursor}
        if menu.get("right"):
            out["right"] = menu["right"]
        return out

    def _main_menu(self) -> dict[str, Any]:
        items = []
        gid = self.resumable
        if gid is not None:
            items.append(Item(_("Resume game #{number}").format(number=gid), {"resume": gid}))
        for game in GAMES:
            items.append(Item(_("New {game}").format(game=ui_for(game).TITLE), {"new": game}))
        if self.config.web_pin is not None:
            items.append(Item(_("Web PIN"), {"session": "web_pin"}))
        items.append(Item(_("Settings"), {"session": "settings"}))
        items.append(Item(_("Switch the box off"), {"session": "confirm_off"}))
        text = [_("Choose a game")] + (
            [_("A new game ends #{number}").format(number=gid)] if gid is not None else [])
        return {"title": "Companion", "text": text, "items": items}

    def _settings_menu(self) -> dict[str, Any]:
        """Settings: for now the language, each listed in its own words."""
        current = i18n.language()
        items = [Item(("● " if code == current else "  ") + own, {"session": "language",
                                                                   "code": code})
                 for code, own in i18n.LANGUAGES.items()]
        return {"title": _("Language"), "text": [], "items": items}

    def _set_language(self, code: str) -> None:
        i18n.set_language(code)
        if self.config.save_language is not None:
            try:
                self.config.save_language(code)
            except OSError as exc:  # the choice still holds until the box stops
                log.error("language choice not saved: %s", exc)
                self._error(_("Language set, but not saved (see the log)"))

    def _open(self, kind: str, model: dict[str, Any]) -> None:
        self.menu, self.cursor = _Menu(kind, model), 0

    def _close(self) -> None:
        self.menu, self.cursor = None, 0

    def _button(self, button: str) -> None:
        menu = self._current_menu()
        if menu is not None:
            self._menu_button(menu, button)
            return
        g = self.game
        if g.status in ("won", "lost"):
            if button == OK:
                self._leave()
            elif button in (UP, DOWN):  # the story of the game, page by page
                self.page += 1 if button == DOWN else -1
            return
        if button in (UP, DOWN):
            self.page += 1 if button == DOWN else -1
        elif button == OK:
            self._open("actions", self._actions_menu())
        elif button in (RETRIEVE, EXCHANGE):
            result = self.ui.button(g, button)  # the game's own use of these buttons
            if isinstance(result, str):
                self._error(result)
            elif "menu" in result:
                self._open(result["menu"], result)
            else:
                self._apply(result)
        elif button == BACK:
            self._error(_("Hold BACK to undo"))

    def _menu_button(self, menu: dict[str, Any], button: str) -> None:
        items = menu["items"]
        if button in (UP, DOWN):
            if items:
                self.cursor = (self.cursor + (1 if button == DOWN else -1)) % len(items)
            return
        if button == BACK:
            if self.menu is not None:
                self._close()
            elif self.mode == "setup":
                self._setup_back()
            elif self.mode == "game":
                self._error(_("Hold BACK to undo"))
            return
        if button in (RETRIEVE, EXCHANGE):
            if self.mode == "game" and self.menu is not None and self.menu.kind != "confirm_end":
                self._close()
                self._button(button)
            else:
                self._error(_("Choose with UP/DOWN, OK"))
            return
        # OK: take the item under the cursor
        if not items:
            return
        self._select(items[min(self.cursor, len(items) - 1)])

    def _select(self, item: Item) -> None:
        act = item.action
        if act and act.get("session") == "web_pin":
            self._close()
            self.alert(_("Web PIN"), self.config.web_pin(),  # type: ignore[misc]
                       _("Type it on the page"), _("within 2 minutes."))
            self.overlay["private"] = True  # type: ignore[index]  # never sent to a page
            return
        if self.mode == "menu":
            what = act.get("session")
            if what == "confirm_off":
                self._open("confirm_off", {
                    "title": _("Switch off?"), "text": [_("Games are saved")],
                    "items": [Item(_("No, keep it on"), {"session": "keep"}),
                              Item(_("Yes, switch off"), {"session": "power_off"})]})
            elif what == "settings":
                self._open("settings", self._settings_menu())
            elif what == "language":
                self._close()
                self._set_language(act["code"])
            elif what in ("keep", "power_off"):
                self._close()
                # The session does no I/O: whoever runs it (the daemon, the
                # simulator) acts on the request.
                self.request = "power_off" if what == "power_off" else None
            elif "resume" in act:
                self._try_resume(act["resume"])
            else:
                self.ui = ui_for(act["new"])
                self.mode, self.setup_step, self.setup_choices = "setup", 0, {}
                self.cursor = self._setup_default()
            return
        if self.mode == "setup":
            step = self.ui.SETUP_STEPS[self.setup_step]
            self.setup_choices[step.key] = step.choices[self.cursor][1]
            if self.setup_step + 1 < len(self.ui.SETUP_STEPS):
                self.setup_step += 1
                self.cursor = self._setup_default()
            else:
                self._start_game()
            return
        self._close()
        if "menu" in act:  # a menu leading to another (a choice in several steps)
            self._open(act["menu"], act)
            return
        what = act.get("session")
        if what is None:
            self._apply(act)  # an engine input
        elif what == "undo":
            self._undo()
        elif what == "leave":
            self._leave()
        elif what == "confirm_end":
            self._open("confirm_end", {
                "title": _("End game #{number}?").format(number=self.game_id),
                "text": [_("It cannot be resumed")],
                "items": [Item(_("No, keep playing"), {"session": "keep"}),
                          Item(_("Yes, end it"), {"session": "end"})]})
        elif what == "end":
            self._abandon()
        elif what == "peek":
            if act["seat"] in self.config.private_screens:
                self._error(_("That secret is on its own screen"))
            else:
                self.peek, self.peeking = act["seat"], False
        # "keep": closing the menu was all

    def _actions_menu(self) -> dict[str, Any]:
        model = self.ui.action_menu(self.game)
        # The pre-selected item must never harm: with no move to offer, it is "back".
        first = [] if model["items"] else [Item(_("Back to the game"), {"session": "keep"})]
        model["items"] = first + model["items"] + [
            Item(_("Undo last action"), {"session": "undo"}),
            Item(_("Main menu (keep)"), {"session": "leave"}),
            Item(_("End this game"), {"session": "confirm_end"}),
        ] + ([Item(_("Web PIN"), {"session": "web_pin"})] if self.config.web_pin else [])
        return model

    # ------------------------------------------------------------------ setup

    def _setup_total(self) -> int:
        """Every setup screen, the game's own after these menus included (it may
        depend on the choices: real cards or dice add screens)."""
        if not hasattr(self.ui, "setup_total"):
            return len(self.ui.SETUP_STEPS)
        options = {step.key: self.setup_choices.get(step.key, self._step_default(step))
                   for step in self.ui.SETUP_STEPS}
        return self.ui.setup_total(options)

    def _step_default(self, step: Any) -> Any:
        return getattr(self.config, step.key, step.default)

    def _setup_default(self) -> int:
        step = self.ui.SETUP_STEPS[self.setup_step]
        want = self.setup_choices.get(step.key, self._step_default(step))
        values = [v for _, v in step.choices]
        return values.index(want) if want in values else 0

    def _setup_back(self) -> None:
        if self.setup_step == 0:
            self.mode, self.cursor = "menu", 0
        else:
            self.setup_step -= 1
            self.cursor = self._setup_default()

    def _start_game(self) -> None:
        seed = self.seed_source()
        options = dict(self.setup_choices)
        g = self.ui.new_game(seed, options)
        try:
            if self.resumable is not None:
                self.journal.abandon(self.resumable)
                self.resumable = None
            game_id = self.journal.new_game(self.ui.NAME, seed, options, {})
        except JournalError as exc:
            self._journal_error(_("Not saved"), exc)
            return
        self.game, self.game_id, self.mode = g, game_id, "game"
        self._close()
        self.page = 0
        self._show(self.ui.notices(g, g.log), entry=0)

    def _try_resume(self, game_id: int, record: Any = None, starting: bool = False) -> None:
        try:
            self._resume(record or self.journal.load(game_id))
        except JournalError as exc:
            if starting and exc.damaged:
                raise
            self._unresumable(game_id, exc)
        except Exception as exc:  # noqa: BLE001 - whatever it is, the box must go on
            self._unresumable(game_id, exc)

    def _unresumable(self, game_id: int, exc: Exception) -> None:
        # The game stays in the journal untouched ('companion games export').
        self.mode, self.game, self.game_id, self.resumable = "menu", None, None, None
        self._shown = None
        log.error("game #%s cannot be resumed: %s: %s", game_id, type(exc).__name__, exc)
        self._error(_("Game #{number} cannot be resumed (see the log)").format(number=game_id))

    def _resume(self, record: Any) -> None:
        inputs = Journal.effective_inputs(record.entries)
        self.ui = ui_for(record.game)
        last = record.entries[-1] if record.entries else None
        if last is not None and last.kind == "undo":  # its notice was the undo card
            g, notices = self.ui.replay(record.seed, record.options, record.setup, inputs), []
        else:  # the notices of the last input, or of the setup: what the table was reading
            g = self.ui.replay(record.seed, record.options, record.setup, inputs[:-1])
            notices = self.ui.notices(g, g.push(inputs[-1]) if inputs else g.log)
        entry = last.seq if last is not None else 0
        game, seq, read = self.journal.read_mark()
        read = read if (game, seq) == (record.id, entry) else 0
        self.game, self.game_id, self.mode, self.resumable = g, record.id, "game", None
        self._close()
        self.page = 0
        self._show([{"screen": "text",
                     "title": _("Game #{number} resumed").format(number=record.id),
                     "lines": [_("Turn {number}").format(number=self.ui.turns(self.game)),
                               ngettext("{n} input replayed", "{n} inputs replayed",
                                        len(inputs)).format(n=len(inputs))], "hint": "OK"},
                    *notices[read:]], entry=entry, of=len(notices))

    def _leave(self) -> None:
        """Back to the main menu; an unfinished game stays in the journal to resume."""
        self.resumable = self.game_id if self._status() == "playing" else None
        self.mode, self.game, self.game_id, self._shown = "menu", None, None, None
        self.peek, self.peeking = None, False
        self._close()

    def _abandon(self) -> None:
        try:
            self.journal.abandon(self.game_id)
        except JournalError as exc:
            self._journal_error(_("Not saved"), exc)
            return
        self._leave()
        self.resumable = None

    # ------------------------------------------------------------------ game inputs

    def _tag(self, event: Tag) -> None:
        card = self.registry.lookup(event.uid)
        if card is None:
            self._error(_("Unknown tag {uid}").format(uid=event.uid[:14]))
            return
        if event.pad not in self.config.pads:
            self._error(_("Tag on unknown pad {pad}").format(pad=event.pad))
            return
        if self.mode != "game":
            self._error(_("Start a game first"))
            return
        if card.game != self.ui.NAME:
            self._error(_("That card is from {game}").format(game=ui_for(card.game).TITLE
                                                          if card.game in GAMES else card.game))
            return
        if not self.ui.card_from_tag(card):  # e.g. a typo in a hand-edited registry
            self._error(_("Registry card {card} is not in {game}").format(
                card=repr(card.name), game=self.ui.TITLE))
            return
        exchange = self.menu is not None and self.menu.kind == "exchange"
        if self.menu is not None and self.menu.kind != "exchange":
            self._close()
        result = self.ui.tag_action(self.game, card, self.ui.seat(self.config, event.pad),
                                    event.pad, exchange)
        if isinstance(result, str):
            self._error(result)
        elif "screen" in result:
            self.overlay = result
        elif "menu" in result:
            self._open(result["menu"], result)
        elif self._apply(result):
            self._close()  # a refused exchange keeps its menu open for the right card

    def _apply(self, act: dict[str, Any]) -> bool:
        """Push an engine input, journal it, then show it; False if it was refused."""
        g = self.game
        reason = g.check(act)
        if reason is not None:
            self._error(reason)
            return False
        try:
            entries = g.push(act)
        except self.ui.IllegalAction as exc:  # e.g. a forced die that cannot be used
            self._error(str(exc))
            return False
        self.phase = 0  # blinking and the end-of-game show start afresh
        try:
            seq = self.journal.record(self.game_id, g.inputs[-1], turns=self.ui.turns(g),
                                      status=self._status(), reason=self.ui.result_reason(g))
        except JournalError as exc:
            g.pop()
            self._journal_error(_("Not saved, not done"), exc)
            return False
        self.page = 0
        self._show(self.ui.notices(g, entries), entry=seq)
        return True

    def _undo(self) -> None:
        if self.mode != "game":
            self._error(_("Nothing to undo"))
            return
        g = self.game
        if not g.inputs:
            self._error(_("Nothing to undo"))
            return
        refusal = self.ui.undo_block(g)
        if refusal is not None:
            self._error(refusal)
            return
        act = g.pop()
        try:
            self.journal.record_undo(self.game_id, turns=self.ui.turns(g), status=self._status())
        except JournalError as exc:
            g.push(act)  # deterministic: the same outcome comes back
            self._journal_error(_("Not saved, not undone"), exc)
            return
        self._shown = None
        self._close()
        self._story = None
        describe = getattr(self.ui, "describe", _describe)  # a game may word it itself
        self.overlay = {"screen": "undo", "text": describe(act)}

    def _game_story(self) -> dict[str, Any] | None:
        """The finished game's story (told once; the journal adds the time played)."""
        if self._story is None and hasattr(self.ui, "story"):
            try:
                record = self.journal.load(self.game_id)
            except JournalError as exc:
                log.error("story of game #%s without its journal record: %s", self.game_id, exc)
                record = None
            self._story = self.ui.story(self.game, record)
        return self._story

    def _status(self) -> str:
        status = self.game.status
        return status if status in ("won", "lost") else "playing"

    # ------------------------------------------------------------------ showing

    def _show(self, notices: list[dict[str, Any]], entry: int, of: int | None = None) -> None:
        """Show ``notices``, the last ``of`` of which (all, by default) belong to journal
        entry ``entry`` of the game in play (0: its setup)."""
        self.notices = notices
        self._shown = (self.game_id, entry, len(notices) if of is None else of)
        self._story = None  # a new input: the story (if the game ended) is told afresh
        self._start_front()

    def _next_notice(self) -> None:
        self.notices.pop(0)
        self._start_front()
        self._note_read()

    def _note_read(self) -> None:
        """Tell the journal how many notices of the entry on show the table has read."""
        if self._shown is not None and self._shown[0] is not None:
            game_id, entry, total = self._shown
            self.journal.mark_read(game_id, entry, max(0, total - len(self.notices)))

    def _start_front(self) -> None:
        self.detail = 0
        self.anim = ROLL_FRAMES if self.notices and self.notices[0]["screen"] == "roll" else 0
        if not self.notices:
            self.phase = 0  # the end-of-game show starts with the end screen

    def alert(self, title: str, *lines: str, replaces: tuple[str, ...] = ()) -> None:
        """A message from the box itself (a reader unplugged, a broken tag file): shown
        over whatever is on screen until any button, changing nothing in the game.  An
        alert raised while another is showing waits for it to be dismissed, unless it
        is news on the same subject: an alert replaces any shown or waiting one with its
        own title or a title in ``replaces`` (a flapping cable is one screen to read,
        not hundreds)."""
        alert = {"screen": "text", "title": title, "lines": list(lines), "hint": "OK"}
        subject = {title, *replaces}
        self._alerts = [a for a in self._alerts if a["title"] not in subject]
        showing = self.overlay is not None and self.overlay.get("hint") == "OK" and \
            self.overlay["screen"] == "text"
        if showing and self.overlay["title"] not in subject:
            self._alerts.append(alert)
        else:
            self.overlay = alert

    def _error(self, text: str) -> None:
        self.overlay = {"screen": "error", "text": text}

    def _journal_error(self, what: str, exc: Exception) -> None:
        """The OLED gets the gist; the log (journald) gets the file and the cause."""
        log.error("%s: %s", what, exc)
        self._error(_("{what}: the journal cannot be written (see the log)").format(what=what))


DETAIL_LINES = 5


def _detail_pages(notice: dict[str, Any]) -> list[list[str]]:
    """A notice's details in pages that fit the OLED, a sentence never split over two
    unless it is longer than a page."""
    pages: list[list[str]] = [[]]
    for text in notice.get("details", []):
        lines = wrap(text)
        if pages[-1] and len(pages[-1]) + len(lines) > DETAIL_LINES:
            pages.append([])
        while len(lines) > DETAIL_LINES:
            pages[-1] += lines[:DETAIL_LINES]
            pages.append([])
            lines = lines[DETAIL_LINES:]
        pages[-1] += lines
    return pages


_DOES = {  # an input's verb, as the undo notice says it
    "navigate": N_("navigate"), "exchange": N_("exchange"), "retrieve": N_("retrieve"),
    "event": N_("event"), "pass": N_("pass"), "interconnect": N_("Qubit Interconnect"),
}


def _describe(act: dict[str, Any]) -> str:
    player = act.get("player")
    who = f"P{player}" if isinstance(player, int) else (player or "").capitalize()
    do = act["do"]
    if do == "choose":
        value = act.get("value")
        return _("{player}'s choice ({value})").format(
            player=who, value=value if isinstance(value, (str, int)) else _("option"))
    does = _(_DOES[do]) if do in _DOES else do
    if "card" in act:
        card = act["card"]
        return f"{who}: {does} {card if card.isupper() else card.replace('_', ' ')}"
    return f"{who}: {does}"
