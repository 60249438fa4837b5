"""Suite-wide options, and the tests folder on the import path so every test can use
the shared helpers (``waiting``, ``simscript``) whichever folder it lives in."""

import os
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


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores. A worker waiting on a broker, a
    browser or a booted subprocess leaves its core idle; the extra worker fills those
    waits (on two cores: 3 min 45 s with two workers, 3 min 14 s with three, 3 min 18 s
    with four)."""
    return (os.cpu_count() or 1) + 1
