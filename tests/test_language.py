"""Choosing the table's language: the config's default, Settings > Language on the box
(remembered in the state directory), ``companion sim --lang``; and the committed
catalogs themselves (complete where they must be, compiled from their sources)."""

from __future__ import annotations

import gettext
import io

import pytest

from companion import catalogs, config as cfg, i18n, language
from companion.inputs import Press
from companion.session import Session, SessionConfig

from simscript import run_sim
from test_no_cut_text import REG, MemoryJournal


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


# ------------------------------------------------------------------ the config key


def test_the_config_sets_the_default_language(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[game]\nlanguage = 'pl'\n")
    assert cfg.load(path).game.language == "pl"
    (tmp_path / "empty.toml").write_text("")
    assert cfg.load(tmp_path / "empty.toml").game.language == "en"


def test_a_bad_language_code_is_one_line_naming_file_line_and_key(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[game]\n\nlanguage = 'de'\n")
    assert cfg.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f'{path} line 3: game.language: unknown language "de" '
                   f'(choose en, pl, cs or ja)\n')


# ------------------------------------------------------------------ remembered


def test_the_saved_choice_wins_over_the_default_and_a_forced_one_over_both(tmp_path):
    assert language.start(tmp_path, "cs") == "cs" and i18n.language() == "cs"
    language.save(tmp_path, "pl")
    assert (tmp_path / "language").read_text() == "pl\n"
    assert not list(tmp_path.glob(".*tmp"))  # written by rename: no leftovers
    assert language.start(tmp_path, "cs") == "pl"
    assert language.start(tmp_path, "cs", forced="ja") == "ja"


@pytest.mark.parametrize("content", [b"xx\n", b"", b"\xff\xfe", b"pl pl"])
def test_a_damaged_choice_falls_back_to_the_default(tmp_path, content):
    (tmp_path / "language").write_bytes(content)
    assert language.saved(tmp_path) is None
    assert language.start(tmp_path, "cs") == "cs"


def _session(saved: list[str]) -> Session:
    config = SessionConfig(save_language=saved.append)
    return Session(MemoryJournal(), REG, config, seed_source=lambda: 1)


def _choose(session: Session, label_start: str) -> None:
    items = session.screen()["items"]
    target = next(i for i, label in enumerate(items) if label.strip(" ●").startswith(label_start))
    while session.cursor != target:
        session.handle(Press("DOWN"))
    session.handle(Press("OK"))


def test_settings_language_switches_at_once_and_is_kept():
    saved: list[str] = []
    s = _session(saved)
    _choose(s, "Settings")
    assert s.screen()["title"] == "Language"
    assert s.screen()["items"] == ["● English", "  Polski", "  Čeština", "  日本語"]
    _choose(s, "Polski")
    assert saved == ["pl"] and i18n.language() == "pl"
    assert s.mode == "menu" and s.menu is None  # back at the main menu, now in Polish
    assert "Ustawienia" in s.screen()["items"]
    _choose(s, "Ustawienia")
    assert s.screen()["items"][1] == "● Polski"
    s.handle(Press("BACK"))
    assert s.menu is None


def test_a_choice_that_cannot_be_saved_still_holds_and_says_so():
    def refuse(code: str) -> None:
        raise OSError(28, "No space left on device")

    s = Session(MemoryJournal(), REG, SessionConfig(save_language=refuse),
                seed_source=lambda: 1)
    _choose(s, "Settings")
    _choose(s, "Čeština")
    assert i18n.language() == "cs"
    assert s.screen()["screen"] == "error"


def test_sim_lang_speaks_the_language_and_refuses_an_unknown_one(tmp_path):
    out = run_sim(["--state-dir", str(tmp_path), "--lang", "pl"],
                  "expect screen menu\npress down\n")
    assert out.returncode == 0, out.stderr
    bad = run_sim(["--state-dir", str(tmp_path), "--lang", "xx"], "")
    assert bad.returncode == 2 and "--lang" in bad.stderr


# ------------------------------------------------------------------ the catalogs


def _entries(po_path):
    from babel.messages.pofile import read_po

    with po_path.open("rb") as fh:
        return read_po(fh)


def _translations(mo_bytes):
    """What a compiled catalog says: every message and the plural rule, not its bytes.

    The header's Generated-By line carries the compiling tool's version, so comparing bytes
    would fail whenever pip resolves a newer Babel than the one that compiled the catalog.
    """
    table = gettext.GNUTranslations(io.BytesIO(mo_bytes))
    messages = {key: value for key, value in table._catalog.items() if key != ""}
    plural = [table.plural(n) for n in range(0, 230)]
    return messages, plural, table.charset()


@pytest.mark.parametrize("code", catalogs.translated_languages())
def test_every_compiled_catalog_matches_its_source(code):
    pytest.importorskip("babel")
    from babel.messages.mofile import write_mo

    for po in sorted((catalogs.LOCALE / code / "LC_MESSAGES").glob("*.po")):
        expected = io.BytesIO()
        write_mo(expected, _entries(po), use_fuzzy=False)
        assert _translations(po.with_suffix(".mo").read_bytes()) == \
            _translations(expected.getvalue()), \
            f"{po.with_suffix('.mo')} is stale: python -m companion.catalogs compile"


def test_the_templates_hold_every_string_the_code_marks():
    pytest.importorskip("babel")
    for name in catalogs.CATALOGS:
        template = catalogs.template_path(name)
        if not template.exists():
            continue
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in _entries(template) if m.id}
        want = {m.id if isinstance(m.id, str) else m.id[0]
                for m in catalogs.extract_catalog(name) if m.id}
        assert want <= have, f"{template} lacks {sorted(want - have)[:5]}: " \
                             "python -m companion.catalogs all"


def test_placeholders_survive_translation():
    """A translation that loses or misspells a {placeholder} would crash format()."""
    pytest.importorskip("babel")
    import re

    field = re.compile(r"\{([a-z_]*)[^{}]*\}")
    for code in catalogs.translated_languages():
        for po in (catalogs.LOCALE / code / "LC_MESSAGES").glob("*.po"):
            for m in _entries(po):
                if not m.id or not m.string:
                    continue
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strings = m.string if isinstance(m.string, tuple) else (m.string,)
                want = set(field.findall(ids[-1]))
                for s in strings:
                    if s:
                        assert set(field.findall(s)) <= want | set(field.findall(ids[0])), \
                            (po.name, m.id, s)


def test_the_catalogs_of_a_language_load_with_the_standard_library():
    for code in catalogs.translated_languages():
        for mo in (catalogs.LOCALE / code / "LC_MESSAGES").glob("*.mo"):
            with mo.open("rb") as fh:
                assert gettext.GNUTranslations(fh).info()["language"] == code


def test_catalogs_without_babel_say_so_in_one_line(monkeypatch, capsys):
    def missing():
        raise catalogs.BabelMissing("Babel is not installed: pip install -e '.[test]'")

    monkeypatch.setattr(catalogs, "_babel", missing)
    assert catalogs.main(["compile"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Babel is not installed" in err
    assert catalogs.main(["nonsense"]) == 2


# ------------------------------------------------------------------ a whole game


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_a_whole_entanglion_game_plays_in_the_simulator_in_every_language(code, tmp_path,
                                                                           monkeypatch):
    """Every screen of a game, from the main menu to the story, in ``code``: the game
    ends, and (once the font has them) every character drawn has a glyph."""
    from companion.autoplay import AutoPlayer
    from companion.sim import build
    from companion.views import font, oled

    drawn: set[str] = set()
    real = oled.draw_text

    def draw_text(image, xy, text, *args, **kwargs):
        drawn.add(text)
        return real(image, xy, text, *args, **kwargs)

    monkeypatch.setattr(oled, "draw_text", draw_text)
    # Title bars are kept as drawn: one an earlier test drew would not be drawn again.
    monkeypatch.setattr(oled, "_bars", {})
    i18n.set_language(code)
    sim, journal = build(tmp_path, None, 6, SessionConfig(), None)
    try:
        player = AutoPlayer(6, taps=True)
        for _step in range(5000):
            command = player.next_command(sim.box.session)
            if command is None:
                break
            sim.run(command)
        session = sim.box.session
        assert session.game.status in ("won", "lost")
        for _page in range(8):
            sim.run("press down")
        assert session.screen()["screen"] == "end"
    finally:
        journal.close()
    assert len(drawn) > 100
    game_word = i18n.for_catalog("entanglion")[0]
    said = {i18n._("Choose a game")} | {game_word(w) for w in ("What happened", "The story")}
    assert said <= drawn  # the menu, the notices and the end in the language chosen
    assert (said == {"Choose a game", "What happened", "The story"}) == (code == "en")
    missing = getattr(font, "missing", None)
    if missing is not None:
        assert not [t for t in drawn if missing(t)], "characters without a glyph"


def test_every_catalog_names_code_that_exists(monkeypatch):
    """A module moved into a package (as the session was) must take its strings along:
    a catalog naming a path that is gone is an error, not a quietly smaller template."""
    for name, paths in catalogs.CATALOGS.items():
        for rel in paths:
            assert (catalogs.ROOT / rel).exists(), f"{name}: {rel}"
    monkeypatch.setitem(catalogs.CATALOGS, "core", ("session.py",))
    with pytest.raises(FileNotFoundError, match="session.py"):
        catalogs._files("core")
