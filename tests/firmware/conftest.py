"""The firmware under CPython: fake MicroPython modules and the Pico's import path.

On the Pico, ``firmware/*.py`` and ``protocol.py`` sit side by side at the top of
the file system and import each other by bare name (``import protocol``). Here
``firmware/`` goes on ``sys.path`` and ``companion/hardware/protocol.py`` is
loaded, unchanged, as the bare module ``protocol`` (only that file: its
neighbours ``leds.py`` and ``link.py`` would shadow the firmware's). The fakes in
``fw_fakes.py`` stand in for ``machine``, ``neopixel`` and ``micropython``.
"""

import importlib.util
import os
import sys

import pytest

import fw_fakes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
PROTOCOL = os.path.join(ROOT, "companion", "hardware", "protocol.py")

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
if "protocol" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("protocol", PROTOCOL)
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["protocol"] = _module
    _spec.loader.exec_module(_module)

fw_fakes.install()


@pytest.fixture(autouse=True)
def fake_board():
    """A clean fake board (pins, SPI buses, watchdog, records) for every test."""
    return fw_fakes.reset_state()
