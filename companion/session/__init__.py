"""The session: turns button presses and card taps into game actions.

It owns what players meet between the hardware and the engine: the game menu, the
guided setup, menus for every decision, the tag registry lookup, undo, and the
journal. It is single-threaded and has no clock: time reaches it only as ``Tick``
events, which the shell sends while :meth:`Session.tick_interval` asks for them (an
animation or a blink), so an idle box does nothing.

Outputs are plain data: :meth:`Session.screen` is the screen model that
``views.oled.render`` draws, :meth:`Session.led_model` what ``views.leds`` lights,
and :meth:`Session.private_screens` what each seat's own small OLED shows (a game
with secrets, such as QLANET, has a ``private_screen`` in its ui module).

One :class:`Session` object holds the state; its methods are written in a module
per concern, each a class that ``Session`` is built from:

* ``coordinator``: the public surface (outputs, ``handle``) and peeks at a secret;
* ``menus``: the main menu, menus over the game, and the cursor moving in them;
* ``setup_steps``: the guided setup of a new game;
* ``play``: each engine input journaled before it shows, undo, leaving, resuming;
* ``tags``: a card tapped on a pad;
* ``notices``: what happened, page by page, and errors and box alerts over it.
"""

from .coordinator import BLINK_STEP, LIGHT_SHOW, Session, SessionConfig, random_seed
from .notices import ROLL_FRAMES, ROLL_STEP

__all__ = ["BLINK_STEP", "LIGHT_SHOW", "ROLL_FRAMES", "ROLL_STEP", "Session", "SessionConfig",
           "random_seed"]
