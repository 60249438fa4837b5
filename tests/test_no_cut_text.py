"""Random games of every game through the session, in every language: no screen ever
cuts its text or draws a character without a glyph, and no input asks players to
acknowledge more than three screens.

Every distinct screen the session shows (menus, prompts, notices and every page of
their details, status pages, end pages, private screens) is laid out by the real
views inside ``font.truncations``, which reports any text that ``fit`` cuts, ``clip``
drops or ``draw_text`` draws past an edge or with the unknown box. Glyphs are not pasted (the layout is what
is checked), which keeps a thousand games of each kind within a minute or so;
the default run plays 32 of each in English and 8 in each translation,
``COMPANION_LONG=1`` 1,000 in English and 250 in each translation.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import pytest

from companion import i18n
from companion.autoplay import AutoPlayer
from companion.inputs import Hold, Press, Tag
from companion.journal import Entry, GameRecord
from companion.registry import Registry, default_sim_path
from companion.session import Session, SessionConfig
from companion.views import oled
from companion.views.font import truncations

GAMES = int(os.environ.get("CUTGAMES", 1000 if os.environ.get("COMPANION_LONG") == "1" else 32))
REG = Registry.load(default_sim_path())
MOST = 3  # screens to acknowledge after one input


@dataclass
class _Game:
    id: int
    game: str
    seed: int
    options: dict[str, Any]
    entries: list[Entry]
    status: str = "playing"


class MemoryJournal:
    """The journal's interface in memory: the session under test, not SQLite."""

    def __init__(self) -> None:
        self.games: dict[int, _Game] = {}
        self.clock = 0.0

    def unfinished(self) -> None:
        return None

    def new_game(self, game: str, seed: int, options: dict[str, Any], setup: Any = None,
                 meta: Any = None) -> int:
        gid = len(self.games) + 1
        self.games[gid] = _Game(gid, game, seed, dict(options), [])
        return gid

    def _add(self, gid: int, kind: str, action: Any, status: str) -> int:
        self.clock += 7.0
        g = self.games[gid]
        g.entries.append(Entry(len(g.entries) + 1, kind, action, self.clock))
        g.status = status
        return len(g.entries)

    def record(self, gid: int, action: dict[str, Any], *, turns: int, status: str,
               reason: str | None = None) -> int:
        return self._add(gid, "input", action, status)

    def record_undo(self, gid: int, *, turns: int, status: str) -> int:
        return self._add(gid, "undo", None, status)

    def abandon(self, gid: int) -> None:
        self.games[gid].status = "abandoned"

    def mark_read(self, gid: int, seq: int, read: int) -> None:
        """How far the table has read (only a restart needs it; there is none here)."""

    def load(self, gid: int) -> GameRecord:
        g = self.games[gid]
        return GameRecord(id=g.id, game=g.game, created=0.0, updated=self.clock, finished=None,
                          status=g.status, turns=0, reason=None, inputs=len(g.entries),
                          seed=g.seed, options=g.options, setup=None, meta=None,
                          entries=list(g.entries))


def event(command: str, game: str) -> Any:
    """The input event an autoplayer command stands for (as the simulator reads it)."""
    words = command.split()
    if words[0] == "press":
        return Press(words[1].upper())
    if words[0] == "hold":
        return Hold(words[1].upper())
    found = REG.find(" ".join(words[2:]).replace(" ", "_"), game)
    assert found, command
    return Tag(int(words[1]), found[0][0])


def options_for(game: str, i: int) -> dict[str, Any]:
    if game == "entanglion":
        return [{}, {"deck": "physical"}, {"dice": "manual"}, {"start_space": 4},
                {"start_space": 2, "deck": "physical", "dice": "manual"}][i % 5]
    if game == "qno":
        return {"players": 2 + i % 5, "hands": ("tracked", "honour")[i // 5 % 2]}
    return {"opening": ("hidden_centre", "public_centre")[i % 2], "hand_size": 3 + i % 4}


def screens(s: Session) -> list[dict[str, Any]]:
    """What the box shows now, and what a press of UP/DOWN would show."""
    out = [s.screen(), *s.private_screens().values()]
    front = s.notices[0] if s.notices and s.overlay is None else None
    if front and front.get("details"):
        detail = s.detail
        for page in range(1, 30):
            s.detail = page
            shown = s.screen()
            out.append(shown)
            if shown["right"].endswith(f"/{page}") or shown["right"].split("/")[0] != str(page):
                break
        s.detail = detail
    return out


def play(game: str, i: int, seen: set[str], cuts: list[tuple[str, dict[str, Any]]],
         busy: list[tuple[int, int]]) -> None:
    journal = MemoryJournal()
    session = Session(journal, REG, SessionConfig(qno_pads={}), seed_source=lambda: i)
    player = AutoPlayer(i, taps=bool(i % 2), game=game, options=options_for(game, i))
    ended = None
    for step in range(20000):
        command = player.next_command(session)
        if command is None:
            ended = step
            break
        g = session.game
        before = len(g.inputs) if g is not None else -1
        session.handle(event(command, game))
        g = session.game
        if g is not None and len(g.inputs) > before and session.ui.NAME == "entanglion":
            in_setup = not any(e["type"] == "turn" for e in g.log[:len(g.log) - 1])
            if not in_setup and len(session.notices) > MOST:
                busy.append((i, len(session.notices)))
        elif g is not None and len(g.inputs) > before and len(session.notices) > MOST:
            busy.append((i, len(session.notices)))
        for model in screens(session):
            key = json.dumps(model, sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            with truncations(draw=False) as cut:
                oled.render(model)
            cuts += [(text, model) for text in cut]
    assert ended is not None, f"{game} game {i} did not end"
    for page in range(8):  # every page of the story at the end
        session.handle(Press("DOWN"))
        with truncations(draw=False) as cut:
            oled.render(session.screen())
        cuts += [(text, session.screen()) for text in cut]


@pytest.mark.parametrize("speaking", list(i18n.LANGUAGES), indirect=True)
@pytest.mark.parametrize("game", ["entanglion", "qno", "qlanet"])
def test_random_games_never_cut_text_nor_ask_for_more_than_three_oks(game, speaking):
    # English gets the full count; each translation a quarter (different words, the
    # same layouts), which keeps the default run short.
    games = GAMES if speaking == "en" else max(1, GAMES // 4)
    seen: set[str] = set()
    cuts: list[tuple[str, dict[str, Any]]] = []
    busy: list[tuple[int, int]] = []
    for i in range(games):
        play(game, i, seen, cuts, busy)
    assert not cuts, f"{len(cuts)} cut texts, e.g. {cuts[:3]}"
    assert not busy, f"inputs with more than {MOST} screens to acknowledge: {busy[:5]}"
    assert len(seen) > games  # the games were varied enough to be worth checking
