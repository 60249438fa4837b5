"""``companion doctor`` finds the package's own data missing or damaged: the LED map the
box reads at start and the catalogs of the table's language (an install that lost them
starts a box that exits at once or speaks half English)."""

import shutil
from pathlib import Path

import pytest

from companion import doctor, i18n, language
from companion.config import Config, GameConfig, LedsConfig, PathsConfig
from companion.doctor import FAIL, OK, WARN

PACKAGE = Path(doctor.__file__).parent


def config(tmp_path, **kw):
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    return Config(**{"paths": PathsConfig(state_dir=str(state)), **kw})


def levels(findings):
    return [(f.level, f.what, f.fix) for f in findings]


def test_the_shipped_led_map_loads(tmp_path):
    [(level, what, _)] = levels(doctor._led_map(config(tmp_path)))
    assert level == OK and "25 pixels" in what


def test_a_missing_led_map_fails_and_says_which_file(tmp_path):
    gone = tmp_path / "led-map.json"
    [(level, what, fix)] = levels(doctor._led_map(
        config(tmp_path, leds=LedsConfig(sink="firmware", map=str(gone)))))
    assert level == FAIL and str(gone) in what and "cannot read" in what
    assert "[leds] map" in fix


def test_a_broken_led_map_fails(tmp_path):
    bad = tmp_path / "led-map.json"
    bad.write_text('{"chain": ["ZERO"]}', encoding="utf-8")
    [(level, what, _)] = levels(doctor._led_map(
        config(tmp_path, leds=LedsConfig(sink="firmware", map=str(bad)))))
    assert level == FAIL and "missing pixels" in what


def test_no_led_map_is_needed_without_the_co_processors_chain(tmp_path):
    assert list(doctor._led_map(config(tmp_path, leds=LedsConfig(sink="none")))) == []


def damaged_copy(tmp_path, *remove):
    copy = tmp_path / "companion"
    shutil.copytree(PACKAGE / "locale", copy / "locale")
    for name in remove:
        (copy / "locale" / name).unlink()
    return copy


def test_every_shipped_catalog_loads(tmp_path):
    cfg = config(tmp_path, game=GameConfig(language="pl"))
    assert levels(doctor._catalogs(cfg)) == [
        (OK, f"the table's language loads: pl ({len(i18n.CATALOGS) * 3} catalogs checked)", "")]


def test_a_missing_catalog_of_the_configured_language_fails(tmp_path):
    package = damaged_copy(tmp_path, "ja/LC_MESSAGES/qno.mo")
    cfg = config(tmp_path, game=GameConfig(language="ja"))
    [(level, what, fix)] = levels(doctor._catalogs(cfg, package))
    assert level == FAIL and what.startswith("language ja: cannot load qno.mo")
    assert "install.sh" in fix


def test_the_language_chosen_in_settings_counts_as_needed(tmp_path):
    package = damaged_copy(tmp_path, "cs/web.json")
    cfg = config(tmp_path)
    language.save(Path(cfg.paths.state_dir), "cs")
    [(level, what, _)] = levels(doctor._catalogs(cfg, package))
    assert (level, what) == (FAIL, "language cs: cannot load web.json (missing) "
                             "(its words show in English)")


def test_a_language_nobody_chose_only_warns(tmp_path):
    package = damaged_copy(tmp_path, "pl/LC_MESSAGES/core.mo")
    found = levels(doctor._catalogs(config(tmp_path), package))
    assert [f[0] for f in found] == [WARN, OK]
    assert found[0][1].startswith("language pl: cannot load core.mo")


@pytest.mark.parametrize("damage", [b"not a catalog", b"", "truncated"])
def test_a_corrupt_catalog_is_named(tmp_path, damage):
    package = damaged_copy(tmp_path)
    mo = package / "locale/pl/LC_MESSAGES/qno.mo"
    mo.write_bytes(mo.read_bytes()[:40] if damage == "truncated" else damage)
    cfg = config(tmp_path, game=GameConfig(language="pl"))
    [(level, what, _)] = levels(doctor._catalogs(cfg, package))
    assert level == FAIL and "qno.mo" in what
