"""The README's page screenshot is the project's own (docs/make_web_screenshot.py)."""

from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_the_page_screenshot_the_project_makes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/web-board.png" in readme and "docs/make_web_screenshot.py" in readme
    script = (ROOT / "docs" / "make_web_screenshot.py").read_text(encoding="utf-8")
    assert "web-board.png" in script
    with Image.open(ROOT / "docs" / "web-board.png") as image:
        assert image.width == 1280 and image.height > 600  # the window less its frame
