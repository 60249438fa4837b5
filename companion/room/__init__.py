"""The room: ``companion room``, the teacher's side of a room of tables (docs/mqtt.md,
"The room"). It reads every table of a room from the MQTT broker, keeps the finished
games in a small store of its own and serves a page with every table at a glance, the
teacher's commands and the room's report.

The API others build on (kept stable):

* the command: ``companion room --config room.toml [--port N] [--state-dir DIR]
  [--no-analysis]``, the ``[mqtt]`` section as a box's (its ``table`` unused), the
  page on ``[web] address`` and ``port``; it prints the page's address with its key;
* in-process: ``companion.room.start(mqtt, state_dir, host, port, analyse=...)``
  returns a :class:`Room` (``.url``, ``.key_url``, ``.server.port``, ``.tables``,
  ``.store``, ``.stop()``); ``mqtt`` is a :class:`companion.config.MqttConfig`;
* the page's live stream: ``GET /events`` (server-sent events): a ``data:`` message
  with every table first (``{"tables": [...], "records": n, "store": {...}, "version":
  v}``), then an ``event: table`` message per table that changed (``{"name": ...,
  "state": {...}, "version": v, ...}``) and an ``event: records`` when a finished game
  arrives or the store's state changes (``store``: ``{"unsaved": n, "why": text or null,
  "archived": n}``, records the broker holds because they could not be saved, and why).
  ``GET /tables`` answers the same as the first message, ``GET /report`` the report
  (JSON), ``GET /report.csv`` its games as CSV.
"""

from .service import Room, main, start

__all__ = ["Room", "main", "start"]
