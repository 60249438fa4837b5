"""The README's OLED screenshot is made by the project, not drawn: it must be exactly
what ``docs/make_screenshot.py`` produces from a simulated game today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[1]


def test_readme_screenshot_is_current():
    spec = importlib.util.spec_from_file_location("make_screenshot",
                                                  ROOT / "docs" / "make_screenshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.sheet(module.tour())
    committed = Image.open(ROOT / "docs" / "oled-tour.png").convert("L")
    assert made.size == committed.size
    assert ImageChops.difference(made, committed).getbbox() is None, (
        "docs/oled-tour.png is stale: run python docs/make_screenshot.py")
    assert "docs/oled-tour.png" in (ROOT / "README.md").read_text(encoding="utf-8")
