"""The web tests' shared fixtures: ``rig``, a simulated box serving its page on
loopback, and the end of the one browser the tests of a process share."""

import pytest

import browser
from web_rig import rig  # noqa: F401 - a fixture, found here by name


@pytest.fixture(scope="session", autouse=True)
def _shared_browser():
    yield
    browser.close_shared()
