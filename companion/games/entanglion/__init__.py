"""Entanglion: IBM Research's cooperative two-qubit board game."""

from .engine import Entanglion, EntanglionError, IllegalAction, SetupError

ENGINE = Entanglion  # what the scenario runner builds

__all__ = ["ENGINE", "Entanglion", "EntanglionError", "IllegalAction", "SetupError"]
