"""QNO: quantum UNO for 2-6 players (Q-Philia's game, with the recommended rulings)."""

from .engine import IllegalAction, Qno, QnoError, SetupError, playable

ENGINE = Qno  # what the scenario runner builds

__all__ = ["ENGINE", "Qno", "QnoError", "IllegalAction", "SetupError", "playable"]
