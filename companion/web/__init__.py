"""The table's big screen: a live page served by the box on the local network.

``snapshot`` turns the game thread's state into the public, JSON-ready picture a
browser may see (pure); ``publish`` hands the latest one across threads; ``server``
serves the page, pushes snapshots with server-sent events and turns allowed taps
and presses into the box's own input events; ``svg`` draws the board and the plots
from ``stats``' numbers; ``shell`` is ``companion sim --web`` and ``service`` the
daemon's ``[web]``. See docs/web.md.
"""
