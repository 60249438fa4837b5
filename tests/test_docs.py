"""The documentation stands on its own and says what the code does.

* Nothing in the repository points outside it (a folder beside the clone, an issue
  number): a clone alone must be enough.
* docs/rules/*.md list every option of each game's RULINGS with its default and every
  alternative, and their board and transition tables are what the engines compute.
* docs/scenarios.md documents, for each game, the inputs, prompts, set-up keys, output
  keys and log entries the engine has, and every example on it plays as it says.
* docs/architecture.svg and the parts table of docs/design.md match the code.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import math
import re
from pathlib import Path

import pytest

from companion import scenario
from companion.games.entanglion import board, quantum
from companion.games.entanglion.cards import ENGINE_COUNTS, TRACK
from companion.games.qlanet import Qlanet
from companion.games.qno import circuit

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GAMES = ("entanglion", "qno", "qlanet")
SECTION = {"entanglion": "Entanglion", "qno": "QNO", "qlanet": "QLANET"}

# ------------------------------------------------------------ nothing outside the repo

# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join((
    r"\.\./" + "shared",
    "shared/" + "reference",
    "shared/" + "DESIGN",
    "/" + "work/",
    "[Ii]ssue" + r"s? #?[0-9]+",
)))
NOT_OURS = {".git", ".venv", ".venv-lowest", "venv", "__pycache__", ".pytest_cache",
            ".hypothesis", "build", "dist", "node_modules"}


def _text_files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if not path.is_file() or any(part in NOT_OURS or part.endswith(".egg-info")
                                     for part in rel.parts):
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            yield rel.as_posix(), data.decode("utf-8")
        except UnicodeDecodeError:
            continue


def test_nothing_points_outside_the_repository():
    found = [f"{rel} line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
             for rel, text in _text_files() for m in OUTSIDE.finditer(text)]
    assert not found, ("these refer to things a clone does not have (say it here, in docs/, "
                       "instead):\n" + "\n".join(found))


def test_the_outside_check_would_catch_one(tmp_path):
    for bad in ("see ../" + "shared/x.md", "as in iss" + "ue 8", "/" + "work/shared"):
        assert OUTSIDE.search(bad), bad


# ------------------------------------------------------------ markdown helpers


def _doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    """A markdown table row's cells (escaped pipes stay inside a cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def _table_after(text: str, header: str) -> list[list[str]]:
    """The body rows of the table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(_cells(line))
    return rows


def _section(text: str, title: str, level: int = 2) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    marks = "#" * level
    m = re.search(rf"^{marks} {re.escape(title)}\n(.*?)(?=^#{{1,{level}}} |\Z)", text, re.M | re.S)
    assert m, f"no section {title!r}"
    return m.group(1)


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# ------------------------------------------------------------ rules: options


def _option_rows(game: str) -> dict[str, list[str]]:
    rows = {}
    for line in _doc(f"rules/{game}.md").splitlines():
        if line.startswith("|"):
            cells = _cells(line)
            if len(cells) == 5 and re.fullmatch(r"`\w+`", cells[1]):
                name = cells[1].strip("`")
                assert name not in rows, f"{game}: option {name} is documented twice"
                rows[name] = cells
    return rows


@pytest.mark.parametrize("game", GAMES)
def test_every_option_is_documented_with_its_default_and_alternatives(game):
    rulings = importlib.import_module(f"companion.games.{game}.options").RULINGS
    rows = _option_rows(game)
    assert set(rows) == set(rulings), (
        f"docs/rules/{game}.md and {game}'s RULINGS differ: only in the docs "
        f"{sorted(set(rows) - set(rulings))}, only in the code {sorted(set(rulings) - set(rows))}")
    for name, choice in rulings.items():
        _, _, default, alternatives, why = rows[name]
        assert default == f"`{json.dumps(choice.default)}`", (name, default)
        others = [json.dumps(v) for v in choice.allowed if v != choice.default
                  or type(v) is not type(choice.default)]
        assert _names(alternatives) == others, (name, alternatives)
        assert len(why) > 20, f"{name}: say why"


# ------------------------------------------------------------ rules: Entanglion's board

ENTANGLION = _doc("rules/entanglion.md")


def _paths(heading: str) -> set[tuple]:
    rows = _table_after(_section(ENTANGLION, heading, 3), "| path |")
    out = set()
    for path_id, a, b, cards, ships in rows:
        who = board.SHIPS if ships == "both" else (ships,)
        out.add((path_id, a, b, tuple(cards.split(", ")), who))
    return out


def test_the_documented_paths_are_the_boards():
    assert _paths("Paths outside Entanglion") == {tuple(p) for p in board.OUTSIDE_PATHS}
    assert _paths("Paths inside Entanglion") == {tuple(p) for p in board.ENTANGLION_PATHS}


def test_the_documented_cnot_entry_is_the_boards():
    rows = _table_after(_section(ENTANGLION, "CNOT into and out of Entanglion", 3),
                        "| CNOT player's ship on |")
    assert {(a, b): c for a, b, c in rows} == board.CNOT_ENTRY


def test_the_documented_lookup_table_is_the_boards():
    rows = _table_after(ENTANGLION, "| planet | X, Mercurial |")
    assert [r[0] for r in rows] == list(board.RING)
    plays = [(card, ship) for card in ("X", "H", "CNOT") for ship in board.SHIPS]
    for planet, *cells in rows:
        for (card, ship), cell in zip(plays + [("SWAP", board.MERCURIAL)], cells):
            m, r = board.navigate(card, ship, (planet, planet))
            want = "-" if m == r == planet else m if m == r else f"M {m}, R {r}"
            assert cell == want, (planet, card, ship)
            if card == "SWAP":
                assert board.navigate(card, board.RUBICON, (planet, planet)) == (m, r)


def test_the_documented_ring_and_galaxies_are_the_boards():
    rows = _table_after(ENTANGLION, "| planet | galaxy |")
    assert [r[0].strip("`") for r in rows] == list(board.PLANETS)
    for planet, galaxy, _, roll in rows:
        planet = planet.strip("`")
        assert board.GALAXY[planet] == galaxy.lower()
        if roll:  # a roll of r lands on the r-th planet clockwise from OMEGA ZERO
            assert board.RING[int(roll) % len(board.RING)] == planet


def test_the_documented_track_and_deck_are_the_games():
    row = next(_cells(line) for line in ENTANGLION.splitlines() if line.startswith("| value |"))
    assert tuple(int(v) if v.isdigit() else v for v in row[1:]) == TRACK
    counts = dict(re.findall(r"\b([A-Z]+) x(\d+)", _section(ENTANGLION, "What is in the box")))
    assert {card: int(n) for card, n in counts.items()} == ENGINE_COUNTS


def test_the_documented_states_are_the_models():
    rows = _table_after(_section(ENTANGLION, "Why the board looks like this (the two-qubit "
                                             "model)", 3), "| planet | state |")
    assert {r[0] for r in rows} == set(board.RING)
    for planet, text in rows:
        numbers, scale = re.fullmatch(r"\(([-\d, ]+)\)/(sqrt2|2)", text).groups()
        divisor = math.sqrt(2) if scale == "sqrt2" else 2
        vector = tuple(int(n) / divisor for n in numbers.split(","))
        assert all(math.isclose(a, b) for a, b in zip(vector, quantum.ENTANGLED[planet]))


# ------------------------------------------------------------ rules: QNO's gates


def _ket(cell: str) -> str:
    return re.fullmatch(r"\\\|(\d\d)>", cell).group(1)


def test_the_documented_gate_table_is_the_circuits():
    rows = _table_after(_doc("rules/qno.md"), "| top | X on q0 |")
    assert len(rows) == 4
    for top, x0, x1, c0, c1, h0, h1 in rows:
        state = _ket(top)
        assert [_ket(x0), _ket(x1)] == [circuit.apply_x(state, 0), circuit.apply_x(state, 1)]
        assert [_ket(c0), _ket(c1)] == [circuit.apply_cnot(state, 0),
                                        circuit.apply_cnot(state, 1)]
        for cell, qubit in ((h0, 0), (h1, 1)):
            assert tuple(_ket(k) for k in cell.split(" / ")) == circuit.h_outcomes(state, qubit)


# ------------------------------------------------------------ rules: QLANET's cards

QLANET = _doc("rules/qlanet.md")


def _after_move(planets: list[str], card: str, targets: list[int]) -> str:
    """What the true board shows on the targets after ``card``: "0, +" or a Bell name."""
    g = Qlanet(0, None, {"first_player": 0, "planets": planets + ["0"] * (9 - len(planets)),
                         "hidden": [], "hands": [[card, "Z", "Z", "Z"], ["Z"] * 4]})
    g.push({"player": 0, "do": "play", "card": card, "planets": targets})
    view = g.view("truth")
    if view[0]["bell"]:
        return view[0]["bell"]
    return ", ".join(view[t - 1]["shown"] for t in targets)


def test_the_documented_one_planet_table_is_the_engines():
    rows = _table_after(QLANET, "| before | X | Z | H |")
    assert len(rows) == 4
    for before, *after in rows:
        assert after == [_after_move([before], card, [1]) for card in ("X", "Z", "H")]


def test_the_documented_cx_table_is_the_engines():
    rows = _table_after(QLANET, "| a | b | CX1 | CX0 |")
    assert len(rows) >= 12
    for a, b, cx1, cx0 in rows:
        assert [cx1, cx0] == [_after_move([a, b], card, [1, 2]) for card in ("CX1", "CX0")]


# ------------------------------------------------------------ scenarios.md

SCENARIOS = _doc("scenarios.md")


def _game_section(game: str) -> str:
    return _section(SCENARIOS, SECTION[game])


def _first_column(game: str, table: str) -> set[str]:
    section = _section(_game_section(game), f"{SECTION[game]} {table}", 3)
    rows = _table_after(section, "|")
    return {name for row in rows for name in _names(row[0])}


def _json_examples() -> list[str]:
    return re.findall(r"```json\n(.*?)\n```", SCENARIOS, re.S)


def test_every_example_on_the_page_plays_as_it_says():
    blocks = _json_examples()
    games = [json.loads(b).get("game", "entanglion") for b in blocks]
    assert sorted(games) == sorted(GAMES), "one example per game"
    for block in blocks:
        data = scenario.load(block)
        status, result = scenario.run(data)
        assert status == scenario.EXIT_OK, result["error"]
        assert data.get("expect"), "an example says what it produces"
        for key, want in data["expect"].items():
            assert result[key] == want, key


def test_every_example_file_the_page_names_exists():
    named = re.findall(r"\]\(\.\./(examples/[\w.-]+)\)", SCENARIOS)
    assert len(named) >= 3
    for path in named:
        assert (ROOT / path).is_file(), path


@pytest.mark.parametrize("game", GAMES)
def test_every_log_entry_type_is_documented(game):
    source = (ROOT / "companion" / "games" / game / "engine.py").read_text(encoding="utf-8")
    assert _first_column(game, "log entries") == set(re.findall(r'_log\(\s*"(\w+)"', source))


@pytest.mark.parametrize("game", GAMES)
def test_every_output_key_is_documented(game):
    engine = importlib.import_module(f"companion.games.{game}").ENGINE
    report = importlib.import_module(f"companion.games.{game}.report").report
    keys = set(report(engine(0)))
    documented = _first_column(game, "output")
    assert documented == keys


@pytest.mark.parametrize("game", GAMES)
def test_every_action_is_documented(game):
    actions = importlib.import_module(f"companion.games.{game}.engine").ACTIONS
    assert _first_column(game, "actions") == set(actions)


def test_every_prompt_is_documented():
    from companion.games.entanglion.engine import Entanglion
    from companion.games.qno.engine import Qno

    asked = set(re.findall(r'_ask\(\s*\w+,\s*"(\w+)"', inspect.getsource(Entanglion)))
    assert _first_column("entanglion", "prompts and their `choose` values") == asked
    kinds = set(re.findall(r'"kind": "(\w+)"', inspect.getsource(Qno)))
    assert _first_column("qno", "prompts") == kinds
    assert Qlanet(0).pending is None and "pending` is always null" in _game_section("qlanet")


def test_every_setup_key_is_documented():
    from companion.games.entanglion.engine import Entanglion
    from companion.games.qlanet.engine import SETUP_KEYS

    source = inspect.getsource(Entanglion._validate_setup)
    known = set(re.findall(r'"(\w+)"', re.search(r"known = \{(.*?)\}", source, re.S).group(1)))
    assert _first_column("entanglion", "set-up keys") == known
    assert _first_column("qlanet", "set-up keys") == set(SETUP_KEYS)
    with pytest.raises(scenario.MalformedScenario):
        scenario.run({"game": "qno", "setup": {"players": 2}})


def test_every_top_level_key_is_documented():
    rows = _table_after(_section(SCENARIOS, "Keys every scenario may have"), "| key |")
    assert {n for row in rows for n in _names(row[0])} == scenario.TOP_KEYS


# ------------------------------------------------------------ the architecture picture


@pytest.fixture(scope="module")
def architecture():
    """docs/make_architecture.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("make_architecture",
                                                  DOCS / "make_architecture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_architecture_model_matches_the_code(architecture):
    assert architecture.check() == []


def test_the_architecture_picture_and_table_are_current(architecture):
    assert architecture.stale() == [], "run python docs/make_architecture.py"
    design = _doc("design.md")
    assert design.startswith("# ") and "](architecture.svg)" in design.split("\n\n")[1]


def _package_copy(root):
    for module in (ROOT / "companion").rglob("*.py"):
        target = root / module.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(module.read_text(encoding="utf-8"), encoding="utf-8")


def _append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_architecture_check_catches_a_misplaced_module(architecture, tmp_path):
    # A copy of the package where the pure core imports the shell, and a stray module.
    _package_copy(tmp_path)
    chance = tmp_path / "companion" / "chance.py"
    chance.write_text(chance.read_text(encoding="utf-8") + "\nfrom .session import Session\n"
                      "import serial\n", encoding="utf-8")
    (tmp_path / "companion" / "stray.py").write_text("", encoding="utf-8")
    problems = "\n".join(architecture.check(tmp_path))
    # The session is a package: the import is judged by what its __init__ re-exports.
    assert "companion/chance.py (engines) imports companion/session/__init__.py (session)" \
        in problems
    assert "companion/chance.py (engines) imports serial" in problems
    assert "companion/stray.py is in no part" in problems


def test_the_architecture_check_forbids_circles_and_imports_that_run_up(architecture,
                                                                         tmp_path):
    # Each of these was in the code once: a game's screens measuring words with the
    # views' font, the web page reaching back into the simulator that starts it, and a
    # story importing from the screens that import it (inside a function).
    _package_copy(tmp_path)
    games = tmp_path / "companion" / "games"
    _append(games / "qno" / "ui.py", "\nfrom ...views.font import text_width\n")
    _append(tmp_path / "companion" / "web" / "shell.py",
            "\n\ndef _codes():\n    from ..sim import EXIT_OK\n    return EXIT_OK\n")
    _append(games / "qno" / "story.py",
            "\n\ndef _late():\n    from .ui import TITLE\n    return TITLE\n")
    problems = architecture.check(tmp_path)
    # games may not import views at all; the web page may import anything but not up
    assert "companion/games/qno/ui.py (games) imports companion/views/font.py (views); " \
        "games may import only engines, hints, inputs" in problems
    assert "companion/web/shell.py (web, floor 4) imports companion/sim.py (loop, floor 6): " \
        "an import runs only down to a lower floor" in problems
    circles = [p for p in problems if p.startswith("an import circle")]
    assert circles == ["an import circle: companion/games/qno/story.py -> "
                       "companion/games/qno/ui.py -> companion/games/qno/story.py",
                       "an import circle: companion/sim.py -> companion/web/shell.py -> "
                       "companion/sim.py"], problems
    assert len(problems) == 4, problems  # these four lines and nothing else


def test_the_model_has_one_way_down(architecture):
    # Floors make "lower" mean something: every part a part may import sits lower.
    for part in architecture.PARTS:
        for key in part.may_import or ():
            assert architecture.BY_KEY[key].floor < part.floor, (part.key, key)
