"""Every screen type in every language, compared pixel for pixel with a golden PNG.

The screens are not written by hand: fixed-seed games of each game are played through
the session in each language, and the first screen of each kind is kept (the main
menu, settings, set-up, the status and move menus, a roll, a summary and its details,
a card, a prompt, an error, an undo, the end and its story, and each QNO and QLANET
layout). Goldens live in ``tests/views/golden/<language>/``; after a change on purpose
run ``pytest tests/views/test_oled_golden_languages.py --update-goldens``, look at the
new PNGs and commit them with the change.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.games.common import GAMES
from companion.inputs import Hold, Press
from companion.session import Session, SessionConfig
from companion.views import oled

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_no_cut_text import REG, MemoryJournal, event, options_for  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
SEED = 6


def _kind(session: Session, game: str, model: dict[str, Any]) -> str:
    screen = model["screen"]
    if screen == "menu":
        if session.mode == "menu":
            return "menu-settings" if session.menu is not None else "menu-main"
        if session.mode == "setup":
            return "menu-setup"
        return f"{game}-menu-{'moves' if session.menu is not None else 'prompt'}"
    if screen == "text":
        if model["title"] == i18n._("Details"):
            return "details"
        if model.get("summary"):
            return f"{game}-summary"
        if session.mode == "game" and model.get("right") and not model.get("leds"):
            return f"{game}-text-pages"
        return f"{game}-text"
    if screen in ("end", "qno_end", "qlanet_end") and model.get("page"):
        return f"{game}-{screen}-story"
    if screen in ("error", "undo"):
        return screen
    return f"{game}-{screen}"


def collect(code: str) -> dict[str, dict[str, Any]]:
    """The first screen model of each kind, in the language ``code``."""
    i18n.set_language(code)
    found: dict[str, dict[str, Any]] = {}
    try:
        for game in GAMES:
            private = (0, 1) if game == "qlanet" else ()  # each camp's own OLED
            session = Session(MemoryJournal(), REG,
                              SessionConfig(qno_pads={}, private_screens=private),
                              seed_source=lambda: SEED)
            player = AutoPlayer(SEED, taps=False, game=game, options=options_for(game, SEED))

            def look() -> None:
                for model in [session.screen(), *session.private_screens().values()]:
                    found.setdefault(_kind(session, game, model), model)

            if game == GAMES[0]:  # the box's own screens, once
                session.handle(Press("UP"))  # the last item: switch off; the one above it:
                session.handle(Press("UP"))  # Settings
                session.handle(Press("OK"))
                look()
                session.handle(Press("BACK"))
                session.handle(Press("DOWN"))
                session.handle(Press("DOWN"))
                # The web page's address (a box with the page on; its menu item's screen).
                session.config.web_url = lambda: ("http://192.168.178.23:8080/", "")
                session._show_web_address()
                look()
                session.handle(Press("OK"))
                session.config.web_url = None
            for _step in range(20000):
                look()
                front = session.notices[0] if session.notices else None
                if front and front.get("details") and "details" not in found:
                    session.detail = 1
                    look()
                    session.detail = 0
                command = player.next_command(session)
                if command is None:
                    break
                resting = session.mode == "game" and not session.notices and \
                    session.menu is None and session.overlay is None and not session.game.pending
                if resting and f"{game}-circuit" not in found and game == "qno":
                    session.handle(Press("DOWN"))  # QNO's second page: the circuit
                    look()
                    session.handle(Press("UP"))
                if session.mode == "game" and "error" not in found and not session.notices \
                        and session.menu is None and session.overlay is None:
                    session.handle(Press("BACK"))  # "Hold BACK to undo"
                    look()
                    session.handle(Press("OK"))
                if session.mode == "game" and "undo" not in found and session.game is not None \
                        and len(session.game.inputs) > 3 and session.overlay is None:
                    session.handle(Hold("BACK"))
                    look()
                    session.handle(Press("OK"))
                    continue  # the player replays the move it had made
                session.handle(event(command, game))
            for _page in range(2):
                session.handle(Press("DOWN"))
                look()
    finally:
        i18n.set_language("en")
    return found


_COLLECTED: dict[str, dict[str, dict[str, Any]]] = {}


def screens(code: str) -> dict[str, dict[str, Any]]:
    if code not in _COLLECTED:
        _COLLECTED[code] = collect(code)
    return _COLLECTED[code]


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_every_screen_type_is_collected(code):
    kinds = {m["screen"] for m in screens(code).values()}
    assert kinds == set(oled.LAYOUTS), set(oled.LAYOUTS) - kinds


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_every_screen_in_every_language_matches_its_golden(code, request):
    folder = GOLDEN / code
    update = request.config.getoption("--update-goldens")
    if update:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()
    models = screens(code)  # collecting ends in English: speak the language after it
    i18n.set_language(code)
    try:
        images = {name: oled.render(model) for name, model in models.items()}
    finally:
        i18n.set_language("en")
    differing = []
    for name, image in sorted(images.items()):
        path = folder / f"{name}.png"
        if update:
            image.save(path)
            continue
        assert path.exists(), f"no golden {code}/{path.name}: run pytest with --update-goldens"
        golden = Image.open(path).convert("1")
        if ImageChops.logical_xor(image, golden).getbbox() is not None:
            differing.append(name)
    assert not differing, f"{code}: {differing} differ from their goldens"
    assert {p.stem for p in folder.glob("*.png")} == set(images), "stale goldens in " + code
