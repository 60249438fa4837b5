"""QLANET: two camps fix quantum planets on a 3x3 board with gate cards."""

from .engine import IllegalAction, Qlanet, QlanetError, SetupError
from .knowledge import view

ENGINE = Qlanet  # what the scenario runner builds

__all__ = ["ENGINE", "IllegalAction", "Qlanet", "QlanetError", "SetupError", "view"]
