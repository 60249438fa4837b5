"""QNO, QLANET and their print-and-play sheets in Polish, Czech and Japanese.

Whole games are played through the session (the autoplayer's button presses and
taps, as in ``test_no_cut_text``) with the box speaking each language. Every
distinct screen is laid out by the real views: none may cut its text, and none may
show an English word of these games' catalogs (a string that skipped translation,
or a catalog entry left empty). Numbers, seat and camp labels (P1, C0), card and
gate codes (CNOT, CX0, BM) and button names (OK, UP, DOWN, EXCHANGE) are the same
in every language and are not words here.
"""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator

import pytest

from companion import i18n, printing
from companion.autoplay import AutoPlayer
from companion.games.qlanet import ui as qlanet_ui
from companion.games.qno import ui as qno_ui
from companion.games.qno.table import Table
from companion.inputs import DOWN, EXCHANGE, OK, Hold, Press
from companion.printing import qlanet as qlanet_print
from companion.printing import qno as qno_print
from companion.printing import sheet
from companion.printing.sheet import Card
from companion.session import Session, SessionConfig
from companion.views import oled
from companion.views.font import truncations
from test_no_cut_text import REG, MemoryJournal, event, options_for, screens

LOCALE = Path(i18n.__file__).parent / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
CATALOGS = i18n.CATALOGS  # every catalog: a new English string without a translation fails
GAMES = 10  # per game and language: every table size and hand mode, both openings
NEUTRAL = {"QNO", "QLANET", "CNOT", "UP", "DOWN", "OK", "EXCHANGE", "RETRIEVE", "BACK"}
WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _catalog(path: Path, locale: str | None = None):
    """A .po or .pot through Babel (the catalog tool; without it these tests skip)."""
    pofile = pytest.importorskip("babel.messages.pofile")
    with path.open("rb") as stream:
        return pofile.read_po(stream, locale=locale)


def _compiled(code: str, name: str) -> dict[Any, str]:
    """msgid (or (msgid, form)) -> translation, from the .mo the box loads."""
    with (LOCALE / code / "LC_MESSAGES" / f"{name}.mo").open("rb") as stream:
        return dict(gettext.GNUTranslations(stream)._catalog)


def _texts(message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def _strings(message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


def english_words(code: str, names: tuple[str, ...] = ("qno", "qlanet")) -> set[str]:
    """Words of these games' English source strings that no translation into ``code``
    uses (an English word a translation keeps on purpose, such as Stop, is not counted)."""
    english: set[str] = set()
    for name in names:
        for key in _compiled(code, name):
            msgid = key[0] if isinstance(key, tuple) else key
            if msgid:  # not the header
                english |= set(WORD.findall(re.sub(r"\{\w+\}", "", msgid.split("\x04")[-1])))
    kept: set[str] = set()  # from every catalog: the box chains them all
    for mo in (LOCALE / code / "LC_MESSAGES").glob("*.mo"):
        for key, text in _compiled(code, mo.stem).items():
            if key:
                kept |= set(WORD.findall(text))
    return english - kept - NEUTRAL


def shown_strings(value: Any) -> Iterator[str]:
    """Every string in a screen model (labels, lines, titles, counters)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "screen":  # the layout's name, never drawn
                yield from shown_strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from shown_strings(item)


def _session_literals() -> set[str]:
    """The strings the session itself shows (its menus and counters): not these games'."""
    import ast

    import companion.session as session_module

    path = Path(session_module.__file__)
    files = sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path]
    trees = [ast.parse(f.read_text(encoding="utf-8")) for f in files]
    return {n.value for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


SESSION_OWN = _session_literals()


def play_through(game: str, code: str, seed: int) -> tuple[int, list[Any], list[Any]]:
    """One whole game in ``code``: (screens seen, cut texts, English words shown)."""
    i18n.set_language(code)
    english = english_words(code)
    session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}),
                      seed_source=lambda: seed)
    player = AutoPlayer(seed, taps=bool(seed % 2), game=game, options=options_for(game, seed))
    seen: set[str] = set()
    cuts: list[Any] = []
    words: list[Any] = []
    over = False

    def look(model: dict[str, Any], in_game: bool = True) -> None:
        key = json.dumps(model, sort_keys=True, default=str)
        if key in seen:
            return
        seen.add(key)
        with truncations(draw=False) as cut:
            oled.render(model)
        cuts.extend((text, model.get("title")) for text in cut)
        if not in_game:  # the main menu and the setup menus are the session's words
            return
        for text in shown_strings(model):
            if text in SESSION_OWN:
                continue
            found = set(WORD.findall(text)) & english
            if found:
                words.append((sorted(found), text))

    for _step in range(20000):
        command = player.next_command(session)
        if command is None:
            over = True
            break
        session.handle(event(command, game))
        for model in screens(session):
            look(model, session.mode == "game")
    assert over, f"{game} seed {seed} in {code} did not end"
    assert session.game.status == "won"
    for _page in range(4):  # the end screen and every page of the story
        session.handle(Press(DOWN))
        look(session.screen())
    return len(seen), cuts, words


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("game", ["qno", "qlanet"])
def test_whole_games_speak_the_language_without_cut_text(game, code):
    total = 0
    for seed in range(GAMES):
        seen, cuts, words = play_through(game, code, seed)
        assert not cuts, f"{game} in {code}, seed {seed}: cut text {cuts[:5]}"
        assert not words, f"{game} in {code}, seed {seed}: English on screen {words[:5]}"
        total += seen
    assert total > 40 * GAMES  # whole games, not a few screens


@pytest.mark.parametrize("code", TRANSLATED)
def test_qlanet_peek_and_undo_refusal_speak_the_language(code):
    """The screens no autoplayed game reaches: the peek at a secret, its warning and
    the secret itself, and the refusal to undo a measurement."""
    i18n.set_language(code)
    english = english_words(code)
    session = Session(MemoryJournal(), REG, SessionConfig(), seed_source=lambda: 3)
    player = AutoPlayer(3, taps=False, game="qlanet", options={})
    while session.mode != "game" or session.notices:
        session.handle(event(player.next_command(session), "qlanet"))
    shown = []
    session.handle(Press(EXCHANGE))  # the menu: whose secret?
    shown.append(session.screen())
    session.handle(Press(OK))  # camp 0's: the other camp is warned first
    shown.append(session.screen())
    session.handle(Hold(EXCHANGE))
    shown.append(session.screen())
    shown.append(qlanet_ui.status(session.game, 1))  # hands and last moves
    g = session.game
    while qlanet_ui.undo_block(g) is None:  # play on until an M or a BM is played
        acts = g.legal_actions()
        g.push(next((a for a in acts if a["card"] in ("M", "BM") and a["do"] == "play"),
                    acts[0]))
    shown.append({"screen": "error", "text": qlanet_ui.undo_block(g)})
    for model in shown:
        with truncations(draw=False) as cut:
            oled.render(model)
        assert not cut, (code, model)
        for text in shown_strings(model):
            assert not set(WORD.findall(text)) & english, (code, text)


def test_the_english_word_check_can_fail():
    """English screens fail the Polish check (so a passing game above means translated
    screens, not a blind check)."""
    i18n.set_language("pl")
    english = english_words("pl")
    i18n.set_language("en")  # as if the Polish catalogs were empty
    g = qno_ui.new_game(3, {"players": 3})
    shown = list(shown_strings(qno_ui.action_menu(g)))
    assert any(set(WORD.findall(text)) & english for text in shown)


# ---------------------------------------------------------------- the catalogs


@pytest.mark.parametrize("name", CATALOGS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(code, name):
    template = {m.id if isinstance(m.id, str) else m.id[0]: m
                for m in _catalog(LOCALE / f"{name}.pot") if m.id}
    catalog = _catalog(LOCALE / code / "LC_MESSAGES" / f"{name}.po", code)
    forms = {"pl": 3, "cs": 3, "ja": 1}[code]
    assert catalog.num_plurals == forms
    done = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        strings = _strings(message)
        assert all(strings), f"{code}/{name}: {key!r} is not translated"
        assert not message.fuzzy, f"{code}/{name}: {key!r} is fuzzy"
        if isinstance(message.id, tuple):
            assert len(strings) == forms, f"{code}/{name}: {key!r} needs {forms} forms"
        wanted = set(re.findall(r"\{\w+\}", " ".join(_texts(message))))
        for text in strings:
            assert set(re.findall(r"\{\w+\}", text)) == wanted, (code, key, text)
        done[key] = message
    assert set(done) == set(template), f"{code}/{name} differs from {name}.pot"


@pytest.mark.parametrize("name", CATALOGS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_matches_its_source(code, name):
    """The committed .mo is the .po compiled (a .po edited without recompiling shows
    the old words on the box)."""
    folder = LOCALE / code / "LC_MESSAGES"
    with (folder / f"{name}.mo").open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    for message in _catalog(folder / f"{name}.po", code):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n, want in zip((1, 2, 5), _plural_samples(message, code)):
                assert compiled.ngettext(*message.id, n) == want
        elif message.context:
            assert compiled.pgettext(message.context, message.id) == message.string
        else:
            assert compiled.gettext(message.id) == message.string


def _plural_samples(message, code: str) -> list[str]:
    """The translated forms for n = 1, 2 and 5 under ``code``'s plural rule."""
    strings = _strings(message)
    index = {"pl": (0, 1, 2), "cs": (0, 1, 2), "ja": (0, 0, 0)}[code]
    return [strings[i] for i in index]


@pytest.mark.parametrize("code, draw_two, reverse, camp", [
    ("pl", "Weź dwie", "Zmiana kierunku", "Obóz 1"),
    ("cs", "Ber dvě", "Změna směru", "Tábor 1"),
    ("ja", "ドロー2", "リバース", "1じんえい"),  # the rules' 陣営 is a blot at 8x8 (docs/fonts.md)
])
def test_the_glossary_terms_reach_the_screens(code, draw_two, reverse, camp):
    """A few terms the glossary fixes, as the box words them."""
    i18n.set_language(code)
    assert qno_ui.value_text("draw_two") == draw_two
    assert qno_ui.said(qno_ui.VALUE_WORDS, "reverse") == reverse
    assert qlanet_ui.camp(1) == camp
    assert qlanet_ui.reason_text("line 1-5-9").endswith("1-5-9")
    assert qlanet_ui.reason_text("line 1-5-9") != "line 1-5-9"
    assert qno_ui.reason_text("empty hand") != "empty hand"


def test_reasons_from_the_log_stay_english_in_the_game():
    """Translation is at the edge: the log (replayed, journaled) keeps its English keys."""
    i18n.set_language("cs")
    g = qlanet_ui.new_game(5, {})
    assert all(isinstance(e["type"], str) for e in g.log)
    assert qlanet_ui.reason_text("five fixed") == "většina (5 planet)"
    assert qlanet_ui.reason_text("move cap 60") == "limit tahů 60"
    assert qlanet_ui.reason_text("something new") == "something new"


# ---------------------------------------------------------------- print-and-play


@pytest.mark.parametrize("code", TRANSLATED)
def test_sheets_draw_their_words_in_every_language(code):
    """The faces with words differ from the English ones, and no translated word is
    drawn as the unknown-glyph box of either font."""
    faces = [(qno_print.face, Card("gate", "H", "H")), (qno_print.face, Card("gate", "CNOT", "")),
             (qlanet_print.face, Card("gate", "BM", "BM")),
             (qlanet_print.face, Card("gate", "CX0", "CX0")),
             (qlanet_print.face, Card("gate", "M", "M"))]
    english = [draw(card).tobytes() for draw, card in faces]
    i18n.set_language(code)
    for (draw, card), before in zip(faces, english):
        assert draw(card).tobytes() != before, (code, card.name)
    for message in _catalog(LOCALE / code / "LC_MESSAGES" / "printing.po", code):
        if message.id:
            assert sheet.text_width(message.string, 40) > 0


def test_the_bitmap_fallback_draws_ink_for_non_ascii_words():
    from PIL import Image

    for words in ("zamień 0 i 1", "prohoďte dvě planety"):
        image = Image.new("RGB", (1200, 200), sheet.WHITE)
        sheet.text(image, (600, 100), words, 40, fill=sheet.INK)
        box = image.getbbox()
        assert box is not None
        assert sheet.text_width(words, 40) > sheet.text_width(words, 20) > 0


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_print_command_draws_in_the_language_asked_for(tmp_path, code, monkeypatch):
    drawn_in = []
    monkeypatch.setattr(sheet, "write", lambda deck, *args: drawn_in.append(i18n.language()))
    assert printing.main(["qlanet", "--out", str(tmp_path), "--lang", code]) == 0
    assert drawn_in == [code]
    assert i18n.language() == "en"  # the command leaves the process's language as it was


def test_the_print_command_refuses_an_unknown_language(tmp_path, capsys):
    assert printing.main(["qno", "--out", str(tmp_path), "--lang", "xx"]) == 2
    assert "--lang" in capsys.readouterr().err


# ---------------------------------------------------------------- refusals


def _engine_refusals() -> list[str]:
    """Every sentence the QNO engine's checks can refuse with, its placeholders filled
    with a sample ("7"), read from the engine's source (so a new refusal needs words)."""
    import ast

    from companion.games.qno import engine

    tree = ast.parse(Path(engine.__file__).read_text(encoding="utf-8"))
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in (
                "_reason", "_draw_reason", "_call_reason", "undo_refusal"):
            returned = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return) and r.value]
            nodes = [n for value in returned for n in ast.walk(value)]
            inner = {id(part) for n in nodes if isinstance(n, ast.JoinedStr) for part in n.values}
            for node in (n for n in nodes if id(n) not in inner):
                if isinstance(node, ast.JoinedStr):
                    out.append("".join(v.value if isinstance(v, ast.Constant) else "7"
                                       for v in node.values))
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and " " in node.value and node.value[0].isupper():
                    out.append(node.value)
    return out


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_qno_refusal_is_said_in_the_language(code):
    refusals = _engine_refusals()
    assert len(refusals) > 15
    i18n.set_language(code)
    english = english_words(code)
    for reason in refusals:
        said = qno_ui.refusal_text(reason)
        assert said != reason and not set(WORD.findall(said)) & english, (reason, said)


def test_a_refused_tap_is_worded_in_the_language():
    i18n.set_language("pl")
    g = qno_ui.new_game(7, {"players": 2, "hands": "honour"})
    table = Table(2, 7)
    while g.state.status == "setup":
        g.push(table.choose(g))
    top = g.state.top_state
    other = next(s for s in ("00", "01", "10", "11") if s != top)
    value = "0" if g.state.top_value != "0" else "1"
    said = qno_ui.tag_action(g, SimpleNamespace(name=f"{other}_{value}"), None, 1)
    assert said.startswith("Nie pasuje do |" + top + ">"), said
    assert qno_ui.refusal_text("Something new") == "Something new"
