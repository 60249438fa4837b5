"""The room's tests reuse the MQTT rig (a real Mosquitto, simulated boxes) and the web
tests' browser and snapshot helpers."""

import sys
from pathlib import Path

for folder in ("mqtt", "web"):
    sys.path.insert(0, str(Path(__file__).parent.parent / folder))
