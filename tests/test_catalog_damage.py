"""A damaged translation catalog never stops the box: flip bits in every shipped .mo.

Whatever one flipped bit does to a catalog (the magic number, an offset, the header's
charset or plural rule, a translation's bytes or its ``{fields}``), choosing the
language still works, every other catalog still speaks, the damaged one either reads
(the flip only changed a word) or is left out and its words show in English, the box
raises one alert, ``doctor`` names the file, and the screens still draw. The default
run flips a bounded sample of bits in each file (the header's bits and some
others); ``COMPANION_LONG=1`` flips many more.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from companion import doctor, i18n
from companion.autoplay import AutoPlayer
from companion.inputs import Press
from companion.session import Session, SessionConfig
from companion.views import oled

from test_no_cut_text import REG, MemoryJournal, event, screens

LOCALE = Path(i18n.__file__).parent / "locale"
LONG = os.environ.get("COMPANION_LONG") == "1"
FLIPS = 400 if LONG else 12  # per file, beyond the 28-byte header's bits sampled below
SHIPPED = [(code, name) for code in i18n.LANGUAGES if code != i18n.DEFAULT
           for name in i18n.CATALOGS]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """A copy of the shipped locale folder the box reads instead of its own."""
    shutil.copytree(LOCALE, tmp_path / "companion" / "locale")
    monkeypatch.setattr(i18n, "locale_root", lambda: tmp_path / "companion" / "locale")
    i18n.set_language("en")  # the patched folder is read at the next change
    return tmp_path / "companion" / "locale"


def _bits(size: int, seed: str) -> list[int]:
    rnd = random.Random(seed)
    header = rnd.sample(range(28 * 8), 16 if not LONG else 28 * 8)
    return header + [rnd.randrange(size * 8) for _ in range(FLIPS)]


def _flip(path: Path, bit: int) -> None:
    data = bytearray(path.read_bytes())
    data[bit // 8] ^= 1 << (bit % 8)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("code,name", SHIPPED)
def test_one_flipped_bit_never_stops_the_language(copy, code, name):
    mo = copy / code / "LC_MESSAGES" / f"{name}.mo"
    pristine = mo.read_bytes()
    others = [n for n in i18n.CATALOGS if n != name]
    left_out = 0
    for bit in _bits(len(pristine), f"{code}/{name}"):
        mo.write_bytes(pristine)
        _flip(mo, bit)
        i18n.set_language("en")
        i18n.set_language(code)  # never raises
        assert i18n.language() == code
        if i18n.broken():
            assert i18n.broken() == [name]
            assert isinstance(i18n.translations(name), type(i18n.translations("nothing")))
            left_out += 1
        for other in others:
            assert i18n.translations(other) is not i18n.translations("nothing")
        found = list(doctor._catalogs())
        assert (found[0].level == doctor.FAIL) == bool(i18n.broken())
        if i18n.broken():
            assert f"language {code}: cannot load {name}.mo" in found[0].what
    assert left_out  # the header flips at least leave some out: the check is live


def test_a_broken_catalog_raises_one_alert_and_the_games_still_play(copy):
    _flip(copy / "cs" / "LC_MESSAGES" / "core.mo", 3)  # the magic number
    session = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}), seed_source=lambda: 1)
    # Settings > Language > Čeština, from the main menu
    for button in ["UP", "UP", "OK"]:
        session.handle(Press(button))
    items = session.screen()["items"]
    for _ in range(items.index(next(i for i in items if "e\u0161tina" in i))):
        session.handle(Press("DOWN"))
    session.handle(Press("OK"))
    assert i18n.language() == "cs" and i18n.broken() == ["core"]
    shown = session.screen()
    assert shown["title"] == "Translation damaged"  # core is English: so is its alert
    session.handle(Press("OK"))
    assert session.screen().get("title") != "Translation damaged"
    for game in ("entanglion", "qno", "qlanet"):
        s = Session(MemoryJournal(), REG, SessionConfig(qno_pads={}), seed_source=lambda: 2)
        player = AutoPlayer(2, taps=True, game=game)
        for _step in range(3000):
            for model in screens(s):
                oled.render(model)
            command = player.next_command(s)
            if command is None:
                break
            s.handle(event(command, game))


def test_doctor_passes_the_shipped_catalogs():
    (finding,) = doctor._catalogs()
    assert finding.level == doctor.OK and str(len(SHIPPED)) in finding.what
