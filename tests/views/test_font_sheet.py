"""The font review sheet of each script, pixel for pixel against a golden PNG.

A glyph changed on purpose: run ``pytest tests/views/test_font_sheet.py
--update-goldens``, look at the new PNGs, and commit them with the change.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.views.font import missing, truncations

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("font_sheet", ROOT / "bench" / "font_sheet.py")
font_sheet = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(font_sheet)


@pytest.mark.parametrize("script", sorted(font_sheet.SAMPLES))
def test_sheet_matches_golden(script, request):
    image = font_sheet.sheet(script)
    path = GOLDEN / f"font-{script}.png"
    if request.config.getoption("--update-goldens"):
        image.save(path)
        return
    assert path.exists(), f"no golden {path.name}: run pytest with --update-goldens"
    golden = Image.open(path).convert("1")
    assert image.size == golden.size
    diff = ImageChops.logical_xor(image, golden).getbbox()
    assert diff is None, f"the {script} sheet differs from its golden in the box {diff}"


@pytest.mark.parametrize("script", sorted(font_sheet.SAMPLES))
def test_sheet_text_fits_and_has_no_box_glyph(script):
    with truncations() as cuts:
        font_sheet.sheet(script)
    assert cuts == []
    text = "".join(font_sheet.SAMPLES[script]) + font_sheet.KANJI + font_sheet.BAR[script]
    assert missing(text) == []
