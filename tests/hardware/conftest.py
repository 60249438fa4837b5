"""Fixtures for hardware adapters: a fresh gpiozero MockFactory per test."""

import os

import pytest

# Belt and braces: a device built by accident at import time must never probe for
# real pins on a developer's Pi.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture
def gpio():
    """A PWM-capable MockFactory, installed as the default and reset afterwards
    (pins and reservations live at class level, so a plain close() leaks them)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous
