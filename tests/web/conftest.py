"""The web tests' shared fixture: ``rig``, a simulated box serving its page on loopback."""

from web_rig import rig  # noqa: F401 - a fixture, found here by name
