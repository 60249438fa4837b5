"""The session's menus: the main menu, the setup step's choices, the menus opened over
a game (actions, a game's own choices, confirmations), and the cursor moving in them.

A menu is a model (``{"title", "text", "items"}``, items being ``games.common.Item``);
choosing an item with OK hands its action to whichever part of the session it names.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .. import i18n
from ..games.common import GAMES, HARMFUL, SAFE, WASTED, Item, default_cursor, ui_for
from ..i18n import _
from ..inputs import BACK, DOWN, EXCHANGE, OK, RETRIEVE, UP, Press, Release

log = logging.getLogger(__name__)


@dataclass
class _Menu:
    kind: str  # main | setup | actions | exchange | confirm_end | confirm_off | settings
    model: dict[str, Any]


class Menus:
    """The session's menus (a part of :class:`~companion.session.Session`): the menu
    open over the game (``menu``) and the ``cursor`` in whichever menu is on show."""

    def _current_menu(self) -> dict[str, Any] | None:
        if self.mode == "menu":
            return self.menu.model if self.menu is not None else self._main_menu()
        if self.mode == "setup":
            step = self.ui.SETUP_STEPS[self.setup_step]
            own = i18n.for_catalog(self.ui.NAME)[0]  # the game's words, from its catalog
            return {"title": own(step.title),
                    "right": _("Setup {index}/{total}").format(index=self.setup_step + 1,
                                                              total=self._setup_total()),
                    "text": [], "items": [Item(own(label), None) for label, _value in step.choices]}
        if self.menu is not None:
            return self.menu.model
        g = self.game
        if g.status in ("won", "lost"):
            return None
        if g.pending:
            menu = self.ui.prompt_menu(g)
            key = (self.game_id, len(g.inputs))
            if self._prompt_key != key:  # a new prompt: its cursor starts on the default
                self._prompt_key, self.cursor = key, default_cursor(menu["items"])
            return menu
        return None

    def _menu_screen(self, menu: dict[str, Any] | None) -> dict[str, Any]:
        if menu is None:
            g = self.game
            if g.status in ("won", "lost"):
                return self.ui.end_screen(g, self.page, self._game_story())
            return self.ui.status(g, self.page)
        out = {"screen": "menu", "title": menu["title"], "text": list(menu["text"]),
               "items": [i.label for i in menu["items"]], "cursor": self.cursor}
        for key in ("right", "bar"):  # a setup counter; the turn's title bar
            if menu.get(key):
                out[key] = menu[key]
        return out

    # Translators: The main menu; each item is an item of an OLED menu (20 characters;
    # Japanese 16 full-width).
    def _main_menu(self) -> dict[str, Any]:
        items = []
        gid = self.resumable
        if gid is not None:
            items.append(Item(_("Resume game #{number}").format(number=gid), {"resume": gid}))
        for game in GAMES:
            items.append(Item(_("New {game}").format(game=ui_for(game).TITLE), {"new": game}))
        if self.config.web_url is not None:
            items.append(Item(_("Web address"), {"session": "web_address"}))
        if self.config.web_pin is not None:
            items.append(Item(_("Web PIN"), {"session": "web_pin"}))
        items.append(Item(_("Settings"), {"session": "settings"}))
        items.append(Item(_("Switch the box off"), {"session": "confirm_off"}))
        text = [_("Choose a game")] + (
            [_("A new game ends #{number}").format(number=gid)] if gid is not None else [])
        url = self.config.web_url()[0] if self.config.web_url is not None else None
        if url is not None:  # where to point a phone, in sight whenever the box is idle
            # Translators: the main menu's line with the web page's address (host:port)
            text.append(_("Page {address}").format(
                address=url.removeprefix("http://").rstrip("/")))
        return {"title": "Companion", "text": text, "items": items}

    # Translators: The settings menu; each item is an item of an OLED menu (20 characters;
    # Japanese 16 full-width).
    def _settings_menu(self) -> dict[str, Any]:
        """Settings: for now the language, each listed in its own words."""
        current = i18n.language()
        items = [Item(("● " if code == current else "  ") + own, {"session": "language",
                                                                   "code": code})
                 for code, own in i18n.LANGUAGES.items()]
        return {"title": _("Language"), "text": [], "items": items}

    def _set_language(self, code: str) -> None:
        i18n.set_language(code)
        self._tell_broken_catalogs()
        if self.config.save_language is not None:
            try:
                self.config.save_language(code)
            except OSError as exc:  # the choice still holds until the box stops
                log.error("language choice not saved: %s", exc)
                self._error(_("Language set, but not saved (see the log)"))

    # Translators: The title of the screen that says a catalog is damaged (a title bar).
    def _tell_broken_catalogs(self) -> None:
        """A catalog that could not be read leaves its words English (i18n logs the
        file and why): the players see an alert instead of wondering."""
        if i18n.broken():
            self.alert(_("Translation damaged"), _("Some words show in English."),
                       _("The log says which file."))

    def _open(self, kind: str, model: dict[str, Any]) -> None:
        self.menu, self.cursor = _Menu(kind, model), default_cursor(model["items"])

    def _close(self) -> None:
        # A prompt shown again (after a menu opened over it) starts on its default again.
        self.menu, self.cursor, self._prompt_key = None, 0, None

    # Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width):
    # how to undo, at the foot of a screen.
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

    # Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width):
    # how to undo, at the foot of a menu.
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

    # Translators: The box's questions and their answers (web PIN, switch off, end a game);
    # text lines are a line of the box's OLED screen (21 characters; Japanese 16
    # full-width), answers an item of an OLED menu (20 characters; Japanese 16 full-width).
    # "Type it on the page" / "within 2 minutes." is one sentence over two lines.
    def _select(self, item: Item) -> None:
        act = item.action
        if act and act.get("session") == "web_address":
            self._close()
            self._show_web_address()
            return
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
                              Item(_("Yes, switch off"), {"session": "power_off"}, risk=HARMFUL)]})
            elif what == "settings":
                self._open("settings", self._settings_menu())
            elif what == "language":
                self._close()
                self._set_language(act["code"])
            elif what == "power_off" and self.remote:
                self._close()
                self._ask_off_on_box()
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
                          Item(_("Yes, end it"), {"session": "end"}, risk=HARMFUL)]})
        elif what == "end":
            self._abandon()
        elif what == "peek":
            if act["seat"] in self.config.private_screens:
                self._error(_("That secret is on its own screen"))
            else:
                self.peek, self.peeking = act["seat"], False
        # "keep": closing the menu was all

    # Translators: The title of the question before switching off (a title bar).
    def _ask_off_on_box(self) -> None:
        """A phone's page chose "Yes, switch off": only the box's own buttons may
        confirm, so a page can never take the box away from the table."""
        self.off_asked = True
        self.overlay = {"screen": "text", "title": _("Switch off?"),
                        "lines": [_("A web page asks to switch off."),
                                  _("OK on the box: switch off"),
                                  _("Other buttons: keep it on")], "hint": "OK"}

    def _answer_off_on_box(self, event: Any) -> None:
        """While :meth:`_ask_off_on_box` waits: a page's presses do nothing; on the box,
        OK switches off and any other press, hold or tap keeps the box on."""
        if self.remote or isinstance(event, Release):
            return
        self.off_asked = False
        self.overlay = self._alerts.pop(0) if self._alerts else None
        if isinstance(event, Press) and event.button == OK:
            self.request = "power_off"

    # Translators: The title of the screen with the web page's address and QR code (a title
    # bar).
    def _show_web_address(self) -> None:
        """The page's address as a QR code to scan, or why there is none; any button
        takes it away."""
        url, why = self.config.web_url()  # type: ignore[misc]
        if url is None:
            self.alert(_("Web page"), why)
            return
        self.overlay = {"screen": "web_address", "title": _("Web page"), "url": url,
                        "hint": "OK"}

    # Translators: The web PIN screens' title and lines; each is a line of the box's OLED
    # screen (21 characters; Japanese 16 full-width).
    def _web_pin_burned(self) -> None:
        """Too many wrong PINs were typed on pages: the PIN on show (if any) is void."""
        self.alert(_("Web PIN blocked"), _("Too many wrong PINs were typed."),
                   _("Web PIN in the menu makes a new one."), replaces=(_("Web PIN"),))

    # Translators: The menu during a game; each item is an item of an OLED menu (20
    # characters; Japanese 16 full-width).
    def _actions_menu(self) -> dict[str, Any]:
        model = self.ui.action_menu(self.game)
        # The pre-selected item must never harm: with no safe move to offer, it is "back".
        safe = any(item.risk == SAFE for item in model["items"])
        first = [] if safe else [Item(_("Back to the game"), {"session": "keep"})]
        model["items"] = first + model["items"] + [
            Item(_("Undo last action"), {"session": "undo"}, risk=HARMFUL),
            Item(_("Main menu (keep)"), {"session": "leave"}, risk=WASTED),
            Item(_("End this game"), {"session": "confirm_end"}, risk=HARMFUL),
        ] + ([Item(_("Web address"), {"session": "web_address"}, risk=WASTED)]
             if self.config.web_url else []) \
            + ([Item(_("Web PIN"), {"session": "web_pin"}, risk=WASTED)]
               if self.config.web_pin else [])
        return model
