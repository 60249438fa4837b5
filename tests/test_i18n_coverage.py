"""Every word the box draws comes from the catalogs.

A pseudo-language stands in for a translation: every string that passes through
``_``/``ngettext``/``pgettext`` comes back with its letters turned full-width (its
``{placeholders}`` kept, so formatting still works). Random games then go through
every screen the session shows, and every text the OLED views draw is checked: a
run of plain ASCII letters there was never looked up in a catalog, unless it is one
of the words that read the same in every language (ship names, card codes, planet
symbols, button names; see ``NEUTRAL``). Numbers are not words and pass.

QNO and QLANET join as soon as their catalogs exist (they are translated in their
own catalogs), so the same test guards them from then on.
"""

from __future__ import annotations

import gettext
import json
import re

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.catalogs import LOCALE, template_path
from companion.inputs import Hold, Press
from companion.session import Session, SessionConfig
from companion.views import oled

from test_no_cut_text import REG, MemoryJournal, event, options_for, screens

GAMES = 12  # of each kind; every screen type and menu comes up within a few games

_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
_FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in
               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}


def mark(message: str) -> str:
    """``message`` with every letter outside its placeholders full-width."""
    return "".join(part if _PLACEHOLDER.fullmatch(part) else
                   "".join(_FULL_WIDTH.get(c, c) for c in part)
                   for part in _PLACEHOLDER.split(message))


class Pseudo(gettext.NullTranslations):
    """The pseudo-language of one catalog: it marks only the strings that catalog's
    template holds, so a string asked of the wrong catalog (a game's word looked up in
    the core one) stays plain and is caught like one that skipped the catalogs."""

    def __init__(self, name: str) -> None:
        super().__init__()
        with template_path(name).open("rb") as stream:
            self.known = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                          for m in read_po(stream) if m.id}

    def gettext(self, message):
        return mark(message) if (None, message) in self.known else message

    def ngettext(self, singular, plural, n):
        return mark(singular if n == 1 else plural) if (None, singular) in self.known \
            else (singular if n == 1 else plural)

    def pgettext(self, context, message):
        return mark(message) if (context, message) in self.known else message


# Words that are the same in every language: names (ships, games, the box), card and
# gate codes, planet symbols, dice, buttons printed on the box in English.
NEUTRAL = set("""
Mercurial Rubicon M R Entanglion QNO QLANET Companion Centarious Superious
X H CNOT SWAP PROBE PHI PSI OMEGA d d8 OK UP DOWN BACK RETRIEVE EXCHANGE
P q sqrt C CX SW BM Z Phi Psi
""".split())  # QNO: seats P1-P4, qubits q0/q1, sqrt2; QLANET: camps C0/C1, card and Bell codes
_ASCII_WORD = re.compile(r"[A-Za-z]+")
# The language picker lists each language in its own words, whatever the box speaks.
NEUTRAL |= {w for own in i18n.LANGUAGES.values() for w in _ASCII_WORD.findall(own)}


_CUT_WORD = re.compile(r"[A-Za-z]+…?")


def unmarked(text: str) -> list[str]:
    """The plain words of ``text``. A word cut short by ``fit`` (full-width letters take
    more room, so the pseudo-language cuts more than any real one) passes when it is the
    start of a neutral word: what was cut is checked by the no-cut test per language."""
    return [w for w in _CUT_WORD.findall(text)
            if w not in NEUTRAL
            and not (w.endswith("…") and any(n.startswith(w[:-1]) for n in NEUTRAL))]


def translated_games() -> list[str]:
    """Entanglion always; QNO and QLANET once their catalogs are in the repository."""
    return ["entanglion"] + [g for g in ("qno", "qlanet")
                             if any(LOCALE.glob(f"*/LC_MESSAGES/{g}.po"))]


@pytest.fixture
def pseudo(monkeypatch):
    catalogs = {name: Pseudo(name) for name in i18n.CATALOGS}
    monkeypatch.setattr(i18n, "translations", catalogs.__getitem__)
    drawn: list[str] = []
    real_text, real_centered = oled.draw_text, oled.draw_centered

    def draw_text(image, xy, text, *args, **kwargs):
        drawn.append(text)
        return real_text(image, xy, text, *args, **kwargs)

    def draw_centered(image, y, text, *args, **kwargs):
        drawn.append(text)
        return real_centered(image, y, text, *args, **kwargs)

    monkeypatch.setattr(oled, "draw_text", draw_text)
    monkeypatch.setattr(oled, "draw_centered", draw_centered)
    monkeypatch.setattr(oled, "_bars", {})  # every title bar drawn, not taken as kept
    return drawn


def test_the_pseudo_language_marks_letters_and_keeps_placeholders():
    assert mark("Turn {number}: {ship}") == "Ｔｕｒｎ {number}: {ship}"
    assert mark("{n:+d} left").format(n=2) == "+2 ｌｅｆｔ"
    assert unmarked(mark("Hold BACK to undo")) == []
    assert unmarked("Hold BACK to undo") == ["Hold", "to", "undo"]


def test_an_unwrapped_string_is_caught(pseudo):
    """The check itself: a screen with a literal that skipped the catalogs fails it."""
    oled.render({"screen": "text", "title": i18n._("Details"), "lines": ["Not wrapped"],
                 "hint": "OK"})
    assert [w for text in pseudo for w in unmarked(text)] == ["Not", "wrapped"]


def _play(game: str, i: int, seen: set[str], drawn: list[str],
          found: dict[str, dict]) -> None:
    session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}), seed_source=lambda: i)
    player = AutoPlayer(i, taps=bool(i % 2), game=game, options=options_for(game, i))

    def look() -> None:
        for model in screens(session):
            key = json.dumps(model, sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            drawn.clear()
            oled.render(model)
            for text in drawn:
                for word in unmarked(text):
                    found.setdefault(word, model)

    undone = 0  # inputs made when the last undo came: one undo per 8 new inputs
    for _step in range(20000):
        look()
        made = len(session.game.inputs) if session.mode == "game" else 0
        if made >= undone + 8:
            session.handle(Hold("BACK"))  # the undo notice names what was taken back
            look()
            undone = made
        command = player.next_command(session)
        if command is None:
            break
        session.handle(event(command, game))
    for _page in range(8):  # the story pages
        session.handle(Press("DOWN"))
        look()


@pytest.mark.parametrize("game", translated_games())
def test_every_word_on_every_screen_comes_from_the_catalogs(game, pseudo):
    seen: set[str] = set()
    found: dict[str, dict] = {}
    for i in range(GAMES):
        _play(game, i, seen, pseudo, found)
    assert len(seen) > 100  # the games went through many screens
    assert any('"screen": "undo"' in key for key in seen)  # undo notices among them
    assert not found, "words drawn without a catalog lookup: " + "; ".join(
        f"{word!r} in {model}" for word, model in list(found.items())[:5])


def test_the_main_menu_settings_and_box_screens_come_from_the_catalogs(pseudo):
    session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}), seed_source=lambda: 1)
    shown = []
    for button in ["UP", "OK", "DOWN", "BACK", "UP", "UP", "OK", "BACK", "BACK"]:
        shown.append(session.screen())
        session.handle(Press(button))
    session._error(i18n._("Nothing to undo"))
    shown.append(session.screen())
    for model in shown:
        pseudo.clear()
        oled.render(model)
        assert not [w for text in pseudo for w in unmarked(text)], model


def test_the_simulators_board_and_help_come_from_the_catalogs(pseudo):
    from companion import sim
    from companion.views import leds, terminal

    frame = [(0, 0, 0)] * leds.FRAME_LENGTH
    escape = re.compile(r"\x1b\[[0-9;]*m")  # colours drawn, so no LED letter codes
    for lines in (terminal.board_map(frame), terminal.board_compact(frame)):
        words = [w for line in lines for w in unmarked(escape.sub("", line))]
        assert not words, words
    assert "ｔｈｅ ｒｅｇｉｓｔｒｙ ｃａｒｄ" in i18n._(sim.HELP)  # the help is a catalog string


def _page_words(snap: dict) -> list[str]:
    """The words of a snapshot the page shows as text: the log, the story, the menu."""
    menu = snap.get("menu") or {}
    return [*(snap.get("log") or []), *(snap.get("story") or []), menu.get("title") or "",
            *menu.get("text", []), *menu.get("items", [])]


@pytest.mark.parametrize("game", ["entanglion", "qno", "qlanet"])
def test_the_pages_log_story_and_menus_come_from_the_catalogs(game, pseudo):
    from companion.web import snapshot

    found: dict[str, str] = {}
    logged = 0
    for i in range(3):
        session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}),
                          seed_source=lambda: i)
        player = AutoPlayer(i, taps=bool(i % 2), game=game, options=options_for(game, i))
        for _step in range(20000):
            snap = snapshot.build(session)
            logged += len(snap.get("log") or [])
            for text in _page_words(snap):
                for word in unmarked(text):
                    found.setdefault(word, text)
            command = player.next_command(session)
            if command is None:
                break
            session.handle(event(command, game))
        for text in _page_words(snapshot.build(session)):
            for word in unmarked(text):
                found.setdefault(word, text)
    assert logged  # the games logged something to check
    assert not found, "English on the page: " + "; ".join(
        f"{w!r} in {t!r}" for w, t in list(found.items())[:8])
