"""A QLANET box for the tests: session, journal, displays, LEDs and buzzer fakes, and a
way to start games from a pinned position."""

from __future__ import annotations

from typing import Any

from companion.box import Box
from companion.games.qlanet import Qlanet
from companion.games.qlanet import ui
from companion.hardware.buzzer import RecordingBuzzer
from companion.hardware.display import dummy_display
from companion.hardware.leds import RecordingLeds
from companion.inputs import DOWN, OK, Press, Tag
from companion.journal import Journal
from companion.registry import Registry, default_sim_path
from companion.session import Session, SessionConfig

REG = Registry.load(default_sim_path())
OPENING = ["+", "+", "-", "-", "+", "-", "-", "+", "+"]
HANDS = [["X", "H", "CX0", "BM"], ["Z", "SW", "M", "CX1"]]


def uid(name: str) -> str:
    return REG.find(name, "qlanet")[0][0]


def pin(monkeypatch, planets=OPENING, hands=HANDS, hidden=(5,), first=0, forced=(),
        options=None) -> None:
    """New QLANET games on the box start from this position (the seed still deals chance)."""
    setup = {"first_player": first, "planets": list(planets), "hidden": list(hidden),
             "hands": [list(h) for h in hands]}
    monkeypatch.setattr(ui, "new_game", lambda seed, opts: Qlanet(
        seed, {**opts, **(options or {})}, setup, forced))


class Rig:
    def __init__(self, tmp_path, config: SessionConfig | None = None, seed: int = 7,
                 private: tuple[int, ...] = ()):
        self.journal = Journal(tmp_path / "journal.db")
        config = config or SessionConfig(private_screens=private)
        self.session = Session(self.journal, REG, config, seed_source=lambda: seed)
        self.buzzer = RecordingBuzzer()
        self.private = {seat: dummy_display(keep=True) for seat in private}
        self.box = Box(self.session, dummy_display(keep=True), RecordingLeds(), self.buzzer,
                       private_displays=self.private)

    def send(self, *events: Any) -> None:
        for e in events:
            self.box.handle(e)

    def press(self, *buttons: str) -> None:
        self.send(*(Press(b) for b in buttons))

    def tap(self, name: str, pad: int = 1) -> None:
        self.send(Tag(pad, uid(name)))

    def start(self) -> None:
        self.press(DOWN, DOWN, OK)  # the third game, after Entanglion and QNO
        assert self.session.ui.NAME == "qlanet"
        self.press(OK, OK)  # hidden centre, 4 cards each
        assert self.session.mode == "game"
        self.dismiss()

    def dismiss(self) -> None:
        while self.session.notices or self.session.overlay:
            self.press(OK)

    def choose(self, label: str) -> None:
        items = self.screen["items"]
        target = items.index(label)
        self.press(*[DOWN] * ((target - self.screen["cursor"]) % len(items)), OK)

    def play(self, card: str, *planets: int) -> None:
        self.tap(card)
        for q in planets:
            self.choose(next(i for i in self.screen["items"] if i.startswith(f"Planet {q} ")))
        assert self.screen["items"] == ["Play it", "Cancel"], self.screen
        self.press(OK)
        self.dismiss()

    @property
    def screen(self) -> dict[str, Any]:
        return self.session.screen()

    @property
    def game(self) -> Qlanet:
        return self.session.game
