"""Entanglion: IBM Research's cooperative two-qubit board game."""

from .engine import Entanglion, EntanglionError, IllegalAction, SetupError

__all__ = ["Entanglion", "EntanglionError", "IllegalAction", "SetupError"]
