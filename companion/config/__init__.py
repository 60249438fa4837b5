"""The box's config file: which pins, which screen, which readers, which defaults.

The file is TOML, ``/etc/companion/config.toml`` unless ``--config`` names another,
and every key in it is optional: the defaults are the reference build (docs/design.md).
A maker edits it with a text editor on a box with no keyboard or screen attached,
so loading is strict and every problem is ONE line naming the file, the line and
the dotted key::

    /etc/companion/config.toml line 7: buttons.ok: expected a GPIO number 0-27, got "five"
    /etc/companion/config.toml line 12: unknown key "buttons.exchnage" (did you mean "buttons.exchange"?)

Unknown tables and keys are errors, because a typo that is silently ignored leaves
a box wired one way and configured another.

``dumps_defaults()`` is the commented skeleton ``install.sh`` writes (and
``examples/config.toml``): every key, commented out at its default, so an installed
file changes nothing until someone uncomments a line. ``python -m companion.config
check [PATH]`` validates a file; ``python -m companion.config defaults`` prints the
skeleton.

The modules, in the order a file goes through them:

* ``schema``: every setting, its default and the limits the checks use;
* ``loading``: reading the file (tomllib gives the values), then the checks;
* ``key_lines``: where each key is written, for the messages;
* ``reader``: hands each section its checked values, keeps the problems;
* ``values``: the checks of single values, and the message wording;
* ``sections``: one function per table, reading and checking its keys;
* ``across``: the checks that need several keys (pins used twice, screens);
* ``skeleton``: the commented defaults; ``command``: ``python -m companion.config``.
"""

from .command import main
from .loading import load, session_config
from .schema import (
    BAUD_RATES, BUTTON_KEYS, DEFAULT_PATH, DEFAULT_STATE_DIR, GPIO_MAX, MAX_PADS,
    OLED_DRIVERS, PLANET_ORDER, QNO_SEATS, SEATS, START_SPACES, TRACK_SPACES, ButtonsConfig,
    BuzzerConfig, Config, GameConfig, LedsConfig, LinkConfig, OledConfig, PathsConfig,
    MqttConfig, PrivateOledConfig, ReaderConfig, WebConfig,
)
from .skeleton import dumps_defaults
from .values import ConfigError

__all__ = [
    "BAUD_RATES", "BUTTON_KEYS", "DEFAULT_PATH", "DEFAULT_STATE_DIR", "GPIO_MAX", "MAX_PADS",
    "OLED_DRIVERS", "PLANET_ORDER", "QNO_SEATS", "SEATS", "START_SPACES", "TRACK_SPACES",
    "ButtonsConfig", "BuzzerConfig", "Config", "ConfigError", "GameConfig", "LedsConfig",
    "LinkConfig", "MqttConfig", "OledConfig", "PathsConfig", "PrivateOledConfig",
    "ReaderConfig", "WebConfig", "dumps_defaults", "load", "main", "session_config",
]
