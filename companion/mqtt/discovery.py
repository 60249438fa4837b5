"""Home Assistant's MQTT discovery: retained config messages that make a box appear in
Home Assistant as a device with three sensors (status, whose turn, detection), read
from the table's retained ``state`` and ``availability`` topics. Home Assistant's
layout: ``homeassistant/<component>/<node_id>/<object_id>/config``, each config naming
its state topic, a template picking the value out of the JSON, the availability topic
and the device the sensors belong to."""

from __future__ import annotations

import json

from . import topics

PREFIX = "homeassistant"  # Home Assistant's default discovery prefix

# object id -> (name, value template over the table's public snapshot)
SENSORS = {
    "status": ("Status", "{{ value_json.status | default(value_json.mode) }}"),
    "turn": ("Whose turn", "{{ value_json.turn.player if value_json.turn is defined "
                           "else 'none' }}"),
    "detection": ("Detection", "{{ value_json.detection.space if value_json.detection "
                               "is defined else 'none' }}"),
}


def node_id(room: str, table: str) -> str:
    return f"companion_{room}_{table}"


def messages(room: str, table: str) -> list[tuple[str, bytes]]:
    """(topic, payload) of each sensor's config, to publish retained on each connect."""
    node = node_id(room, table)
    device = {"identifiers": [node], "name": f"Companion {room} {table}",
              "manufacturer": "companion", "model": "Board game companion box"}
    out = []
    for object_id, (name, template) in SENSORS.items():
        config = {"name": name, "unique_id": f"{node}_{object_id}",
                  "state_topic": topics.table(room, table, "state"),
                  "value_template": template,
                  "availability_topic": topics.table(room, table, "availability"),
                  "payload_available": "online", "payload_not_available": "offline",
                  "device": device}
        out.append((f"{PREFIX}/sensor/{node}/{object_id}/config",
                    json.dumps(config, separators=(",", ":")).encode()))
    return out
