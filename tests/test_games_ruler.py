"""The games' screens fit their words by the views' font, which the session hands them
(a game never imports a view): the same widths, the same wrapping, the same menu room."""

import pytest

from companion.games import common
from companion.views import font, oled


def test_the_games_measure_words_as_the_views_draw_them():
    for text in ("Play Heisenberg PROBE 1/3", "ハイゼンベルク", "Zahraj Schrödinger"):
        assert common.text_width(text) == font.text_width(text)
        assert common.wrap(text * 3) == font.wrap(text * 3)
    room = oled.MENU_LABEL // font.CELL_W
    assert common.fits_menu("x" * room) and not common.fits_menu("x" * (room + 1))


def test_without_the_views_measure_a_game_says_so(monkeypatch):
    monkeypatch.setattr(common, "_ruler", [])
    with pytest.raises(RuntimeError, match="companion.session"):
        common.fits_menu("OK")
