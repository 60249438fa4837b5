"""A Polish, Czech or Japanese session shows no English: random games of all three games
are played through the simulator in each language, and every text the OLED draws,
every simulator screen and every page snapshot (its log, story, menu, odds and the
board's and charts' SVG text) is scanned for English words and raw identifiers.

An English word is a word of three or more ASCII letters that the English catalogs use
(any msgid) and the language's own catalog does not (none of its translations): so a
word both languages share ("Start" in Czech, "OK", a card's printed name kept in
Polish) passes, and an English sentence left untranslated fails on its first word.
``ALLOWED`` lists the few names that are the same in every edition, each with why. A
raw identifier is a lower-case word with an underscore (``wave_function_collapse``).
"""

from __future__ import annotations

import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import build
from companion.views import font
from companion.web import snapshot, stats, svg

from test_no_cut_text import options_for

LOCALE = Path(i18n.__file__).parent / "locale"
GAMES = int(os.environ.get("ENGLISHGAMES", 6 if os.environ.get("COMPANION_LONG") == "1" else 1))

ALLOWED = {
    # The games' and ships' names are printed in English on every edition's box and board.
    "entanglion", "qno", "qlanet", "mercurial", "rubicon", "companion",
    # Planet names as the Entanglion board prints them (OMEGA ZERO..., PSI PLUS).
    "omega", "zero", "one", "two", "three", "psi", "phi", "plus", "minus",
    # Gate and die symbols printed on the cards (H, X, CNOT, SWAP, PROBE, d8).
    "cnot", "swap", "probe",
    # The buttons' names as the box's caps and every language's hints print them
    # ("Podržet EXCHANGE", "RETRIEVE: 2+ 7/8").
    "up", "down", "back", "retrieve", "exchange",
}
WORD = re.compile(r"[A-Za-z]+")
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
TEXT_IN_SVG = re.compile(r"<(?:text|title|tspan)[^>]*>([^<]*)<")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text) if len(w) >= 3}


@cache
def english() -> frozenset[str]:
    words: set[str] = set()
    for pot in LOCALE.glob("*.pot"):
        with pot.open("rb") as f:
            for message in read_po(f):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                for text in ids:
                    words |= _words(re.sub(r"\{[^}]*\}", " ", text))
    return frozenset(words)


@cache
def own(code: str) -> frozenset[str]:
    words: set[str] = set()
    for po in (LOCALE / code / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as f:
            for message in read_po(f):
                if "expect screen" in str(message.id):
                    continue  # the simulator's command reference: the commands are typed in English
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in texts:
                    words |= _words(re.sub(r"\{[^}]*\}", " ", text or ""))
    return frozenset(words)


def english_in(text: str, code: str) -> list[str]:
    found = sorted((_words(text) & english()) - own(code) - ALLOWED)
    return found + IDENTIFIER.findall(text)


def page_texts(snap: dict[str, Any]) -> list[str]:
    """What the page writes out as text: the log, the story, the menu, the odds' moves,
    the quantum notes, and the text of the board's and charts' SVG."""
    out: list[str] = [*(snap.get("log") or []), *(snap.get("story") or [])]
    menu = snap.get("menu") or {}
    out += [menu.get("title") or "", *menu.get("text", []), *menu.get("items", [])]
    out += [o["move"] for o in snap.get("odds") or []]
    out += [v for v in (snap.get("quantum") or {}).values() if isinstance(v, str)]
    for chart in (snap.get("board_svg") or []) + (snap.get("end_svg") or []):
        out += TEXT_IN_SVG.findall(chart)
    return out


def play(game: str, code: str, seed: int, scanned: dict[str, int]
         ) -> list[tuple[str, str, list[str]]]:
    """Play one game in ``code``; every English find as (where, text, words), and how
    many texts each source gave in ``scanned``."""
    found: list[tuple[str, str, list[str]]] = []

    def scan(where: str, texts: list[str]) -> None:
        scanned[where] = scanned.get(where, 0) + len(texts)
        for text in texts:
            bad = english_in(text, code)
            if bad:
                found.append((where, text, bad))

    with tempfile.TemporaryDirectory() as tmp:
        sim, journal = build(Path(tmp), None, seed, SessionConfig(qno_pads={}), None)
        i18n.set_language(code)
        try:
            player = AutoPlayer(seed, taps=bool(seed % 2), game=game,
                                options=options_for(game, seed))
            for _step in range(20000):
                command = player.next_command(sim.box.session)
                if command is None:
                    break
                with font.drawn(pixels=False) as drawn:  # the words only
                    sim.run(command)
                scan("oled", [text for kind, text, _, _ in drawn if kind == "text"])
                scan("sim", [sim.render(colour=False)])
                snap = snapshot.build(sim.box.session)
                if snap.get("game") == "entanglion":  # as the server adds them
                    snap["board_svg"] = svg.entanglion_board_parts(snap)
                    if snap.get("end"):
                        snap["end_svg"] = svg.end_plots(snap["end"])
                scan("page", page_texts(snap))
            games = [dict(id=g.id, game=g.game, status=g.status, turns=g.turns,
                          options=journal.load(g.id).options)
                     for g in journal.games(limit=stats.HISTORY_GAMES)]
            charts = svg.history_plots(stats.history(games))
            scan("history", [t for chart in charts for t in TEXT_IN_SVG.findall(chart)])
        finally:
            journal.close()
            i18n.set_language("en")
    return found


def test_the_scan_finds_english_and_identifiers_and_passes_shared_names():
    assert english_in("Result: won, won by P2", "pl") == ["result", "won"]
    found = english_in("Detected: wave_function_collapse", "cs")
    assert "detected" in found and "wave_function_collapse" in found
    assert english_in("Mercurial: OMEGA ONE, CNOT", "ja") == []
    assert english_in("Start", "cs") == []  # Czech says Start too


@pytest.mark.parametrize("code", ["pl", "cs", "ja"])
@pytest.mark.parametrize("game", ["entanglion", "qno", "qlanet"])
def test_a_session_shows_no_english(game, code):
    found: list[tuple[str, str, list[str]]] = []
    scanned: dict[str, int] = {}
    first = {"pl": 4, "cs": 1, "ja": 2}[code]  # other options in each language (real
    # cards and dice, the track's start, the number of QNO players, QLANET's opening)
    for seed in range(first, first + GAMES):
        found += play(game, code, seed, scanned)
    distinct = sorted({(where, text, tuple(bad)) for where, text, bad in found})
    assert not distinct, f"{len(distinct)} texts with English: {distinct[:12]}"
    # every source was read: whole games on the OLED, the simulator and the page's log
    assert scanned["oled"] > 200 and scanned["sim"] > 50 and scanned["page"] > 100, scanned
    assert scanned["history"] > 0, scanned
