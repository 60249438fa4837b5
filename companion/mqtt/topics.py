"""The topic layout (docs/mqtt.md), in one place for the box and the room's side."""

from __future__ import annotations

ROOT = "companion"


def table(room: str, name: str, leaf: str) -> str:
    """A table's own topic: ``state`` (retained snapshot), ``record`` (finished games,
    QoS 1), ``availability`` (retained "online"/"offline", the last will) or ``info``
    (retained: the address of the table's web page)."""
    return f"{ROOT}/{room}/{name}/{leaf}"


def command(room: str) -> str:
    """The room's commands, read by every table of the room."""
    return f"{ROOT}/{room}/command"
