"""The MQTT tests reuse the web page's rig and secrecy checks (the state is its snapshot)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))
