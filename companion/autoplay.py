"""A player that plays the box through its inputs, one simulator command at a time.

It reads the screen the way a person would (what is shown, whose turn, what is
asked) and answers with a command: ``tap 1 H``, ``press exchange``, ``press down``.
So a game it plays goes through exactly the path real presses and taps take. Tests
use it to write end-to-end scripts, ``bench/latency.py`` to drive a long game, and
the reliability suite to soak the box.

With ``taps=False`` it uses the buttons alone, which proves that every action is
reachable on a box without RFID.
"""

from __future__ import annotations

import random
from typing import Any

from .games.entanglion import board
from .games.qno.table import Table
from .session import Session

TAPPED_PROMPTS = ("draw", "mechanic", "quantum_gates", "discard")


class AutoPlayer:
    def __init__(self, seed: int = 0, taps: bool = True, options: dict[str, Any] | None = None,
                 game: str = "entanglion"):
        self.game = game
        self.rnd = random.Random(seed)
        self.taps = taps
        self.options = options or {}  # setup choices: start_space, deck, dice, players...
        self._plan: list[str] = []
        self.seed = seed
        self.table: Table | None = None  # QNO's real cards (the box never sees them)
        self._move: dict[str, Any] | None = None  # the QLANET move being made
        self._goal: dict[str, Any] | None = None  # the Entanglion input being made

    def next_command(self, s: Session) -> str | None:
        """The next command to type, or None when the game is over."""
        if self._plan:
            return self._plan.pop(0)
        screen = s.screen()
        if s.overlay is not None or s.notices:
            return "press ok"
        if s.mode == "menu":
            if s.menu is not None:  # settings, or a confirm: not where a new game starts
                return "press back"
            items = s._main_menu()["items"]  # found by what it does: labels are translated
            target = next(i for i, item in enumerate(items) if item.action == {"new": self.game})
            return self._move_to(screen["cursor"], target, len(items))
        if s.mode == "setup":
            step = s.ui.SETUP_STEPS[s.setup_step]
            values = [v for _, v in step.choices]
            want = self.options.get(step.key, values[s.cursor])
            return self._move_to(screen["cursor"], values.index(want), len(values))
        g = s.game
        if g.status in ("won", "lost"):
            return None
        if s.ui.NAME == "qno":
            return self._qno(s, screen)
        if s.ui.NAME == "qlanet":
            return self._qlanet(s, screen)
        pads = {seat: pad for pad, seat in sorted(s.config.pads.items(), reverse=True)}
        if s.menu is not None:  # a menu on the way to the move (the actions, a confirm)
            items = s.menu.model["items"]
            target = next((i for i, item in enumerate(items) if _leads_to(item, self._goal)),
                          None)
            if target is None:
                return "press back"
            return self._move_to(screen["cursor"], target, len(items))
        if g.pending:
            options = g.pending["options"]
            i = self.rnd.randrange(len(options))
            player = g.pending["player"]
            if self.taps and g.pending["kind"] in TAPPED_PROMPTS and options[i] != "stop":
                self._goal = {"player": player, "do": "choose", "value": options[i]}
                return f"tap {pads[player]} {options[i]}"  # (leaving Entanglion asks)
            self._goal = {"player": player, "do": "choose", "index": i}
            return self._move_to(screen["cursor"], i, len(screen["items"]))
        act = self._choose(g)
        self._goal = act
        pad = pads[act["player"]]
        if self.taps and act["do"] in ("navigate", "event"):
            return f"tap {pad} {act['card']}"  # a move out of Entanglion then asks
        if self.taps and act["do"] == "exchange":
            self._plan = [f"tap {pad} {act['card']}"]
            return "press exchange"
        if act["do"] == "retrieve":
            return "press retrieve"
        return "press ok"  # buttons alone: the action menu (then its items lead there)

    def _qno(self, s: Session, screen: dict[str, Any]) -> str:
        """QNO: the table deals real cards; taps for cards, menus for the rest."""
        g = s.game
        # Rebuilt from the log each time, so an undo puts the cards back too.
        self.table = Table.of(g, self.seed)
        self.table.rng ^= len(g.inputs) + 1  # varied choices; the cards are the same
        act = self.table.choose(g)
        if s.menu is not None:  # the action menu, opened to make ``act``
            items = s.menu.model["items"]
            target = next((i for i, item in enumerate(items) if item.action == act), None)
            if target is None:
                return "press back"
            return self._move_to(screen["cursor"], target, len(items))
        pad = next((pad for pad, p in s.config.qno_pads.items() if p == act.get("player")),
                   min(s.config.pads))
        if act["do"] in ("take", "turn_up", "play"):
            return f"tap {pad} {act['card']}"
        if g.pending:  # a prompt menu: qubit (q1 listed first), guess, or keep
            labels = [i.action for i in s.ui.prompt_menu(g)["items"]]
            return self._move_to(screen["cursor"], labels.index(act), len(labels))
        return "press ok"  # the action menu, where the move is chosen

    def _qlanet(self, s: Session, screen: dict[str, Any]) -> str:
        """QLANET: a random legal move, made as a player would: tap the card (or OK
        and choose it), pick its planets in the menus, confirm."""
        g = s.game
        if s.menu is None:
            self._move = self.rnd.choice(g.legal_actions())
            if self.taps and self._move["do"] == "play":
                return f"tap 1 {self._move['card']}"
            return "press ok"  # the action menu lists the hand
        items = s.menu.model["items"]
        index = _qlanet_item(items, self._move) if self._move else None
        if index is None:
            return "press back"  # a menu we did not mean to open
        return self._move_to(screen["cursor"], index, len(items))

    def _choose(self, g: Any) -> dict[str, Any]:
        """Retrieve when possible, else fly towards a component, else anything."""
        acts = g.legal_actions()
        for a in acts:
            if a["do"] == "retrieve":
                return a
        s = g.state
        towards = []
        for a in acts:
            if a["do"] == "navigate":
                dest = board.navigate(a["card"], a["player"], s.pos,
                                      s.options["cnot_phase_kickback"])
                if dest[0] == dest[1] and s.planet_components.get(dest[0]):
                    towards.append(a)
        return self.rnd.choice(towards or acts)

    def _moves(self, cursor: int, target: int, n: int) -> list[str]:
        down = (target - cursor) % n
        return ["press down"] * down if down <= n - down else ["press up"] * (n - down)

    def _move_to(self, cursor: int, target: int, n: int) -> str:
        moves = self._moves(cursor, target, n)
        if not moves:
            return "press ok"
        self._plan = moves[1:] + ["press ok"]
        return moves[0]


def _leads_to(item: Any, goal: dict[str, Any] | None) -> bool:
    """Whether choosing ``item`` plays ``goal`` (at once, or through the menus it opens)."""
    act = item.action
    if goal is None or not isinstance(act, dict) or act.get("menu") == "hint":
        return False  # (a hint is worked out when opened: never opened on the way)
    if "menu" in act:
        return any(_leads_to(i, goal) for i in act["items"])
    return act == goal


def _qlanet_item(items: list[Any], move: dict[str, Any]) -> int | None:
    """Which item of a QLANET menu leads towards ``move``: the move itself (confirm),
    a planet whose pick matches the move's planets so far, or the card's entry in the
    action menu."""
    for i, item in enumerate(items):
        if item.action == move:
            return i
    want = [str(p) for p in move.get("planets", [])]
    for i, item in enumerate(items):
        if not isinstance(item.action, dict) or "menu" not in item.action:
            continue
        picked = list(item.targets)
        if picked:
            if picked == want[:len(picked)] or (
                    move["card"] in ("SW", "BM") and set(picked) <= set(want)):
                return i
        elif _leads_to(item, move):  # the card's entry (its label is in any language)
            return i
    return None
