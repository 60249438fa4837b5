"""The box on the room's MQTT broker (``[mqtt]``, docs/mqtt.md): its public view, each
finished game's record, its availability, and the room's commands. Nothing here runs
unless ``[mqtt] enabled = true``; the engines and the session never import it."""
