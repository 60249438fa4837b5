"""Suite-wide options, and the tests folder on the import path so every test can use
the shared helpers (``waiting``, ``simscript``) whichever folder it lives in."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# As on the box, the session hands the games the views' measure for words: a test that
# calls a game's screens directly gets the same labels the box shows.
import companion.session  # noqa: E402,F401
from companion import i18n  # noqa: E402


@pytest.fixture
def speaking(request):
    """The box's language set to the test's parameter (``indirect=True``), English after."""
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens", action="store_true", default=False,
        help="rewrite the golden OLED images from the current renderer (deliberately!)")
