"""Draw docs/architecture.svg and the "where each part lives" table of docs/design.md
from one declared model of the companion's parts, and check the model against the code.

The model below says which modules make up each part, which parts each may import, and
which third-party packages it may use. ``--check`` (and ``tests/test_docs.py``) fails
when the picture no longer matches the code:

* a module named in the model does not exist;
* a module of the package belongs to no part, or to two (so a new module must be placed),
  unless it is one of the few every part may use (``SHARED``), which import nothing of
  the package;
* a module imports a part it may not (the pure core importing the shell, say), or a
  third-party package its part may not use;
* a module imports a part on its own floor or a higher one: each part has a floor, and
  imports run only down (a game's screens never import a view, the web page never the
  simulator), so no two parts lean on each other;
* modules import each other round in a circle, through imports inside functions too;
* the committed SVG or the design's table is not what this script makes today.

Planned parts (drawn dashed) hold no modules yet; when one is built, give it its modules.

    python docs/make_architecture.py           # rewrite the SVG and the table
    python docs/make_architecture.py --check   # exit 1 and say why if anything is stale
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
SVG_FILE = ROOT / "docs" / "architecture.svg"
DESIGN_FILE = ROOT / "docs" / "design.md"
TABLE_START = "<!-- parts table: written by docs/make_architecture.py -->"
TABLE_END = "<!-- end of parts table -->"
ANY = None  # a part that may import any part, or use any third-party package


class Part(NamedTuple):
    key: str
    title: str
    role: str  # one line: what it does
    cell: tuple[int, int]  # (column, row) in the picture
    modules: tuple[str, ...] = ()
    devices: str = ""  # the outside world it talks to, if any
    may_import: tuple[str, ...] | None = ()  # other parts; ANY for all
    third_party: tuple[str, ...] | None = ()  # top-level package names; ANY for all
    floor: int = 0  # a part imports only parts on lower floors: no import runs back up
    planned: bool = False


def _in(folder: str, *names: str) -> tuple[str, ...]:
    return tuple(f"companion/{folder}{name}.py" for name in names)


ENGINE_MODULES = (
    _in("games/entanglion/", "board", "cards", "quantum", "options", "state", "engine",
        "report", "explain")
    + _in("games/qno/", "cards", "circuit", "options", "state", "engine", "table", "report",
          "explain")
    + _in("games/qlanet/", "cards", "quantum", "knowledge", "options", "state", "engine",
          "report")
    + _in("games/entanglion/", "odds", "words")
    + _in("games/", "rulings", "snapshots", "compiled") + _in("", "chance", "i18n")
)

PARTS = (
    Part("inputs", "Inputs", "device threads only enqueue events", (0, 1),
         _in("", "inputs") + _in("hardware/", "buttons", "link", "protocol", "rdm6300",
                                 "fake_pico"),
         devices="buttons, Pico reader pads, RDM6300",
         may_import=(), third_party=("gpiozero", "serial"), floor=0),
    Part("loop", "Event loop", "one thread takes one event at a time", (1, 1),
         _in("", "daemon", "sim", "box", "recovery", "language", "hintrate")
         + _in("hardware/", "inbox"),
         devices="systemd runs it; the simulator types events",
         may_import=ANY, third_party=ANY, floor=6),
    Part("session", "Session", "menus, set-up, undo, finished games' records: inputs to actions",
         (2, 1),
         _in("session/", "coordinator", "menus", "setup_steps", "play", "tags", "notices")
         + _in("", "registry", "parsing", "records", "analyses"),
         # views: the font's measure, which the session hands the games' screens
         may_import=("games", "engines", "journal", "inputs", "views", "hints"), floor=3),
    Part("games", "Game screens", "each game's words, menus and story (no view)", (3, 2),
         _in("games/", "common")
         + _in("games/entanglion/", "setup_steps", "story", "ui", "analysis")
         + _in("games/qno/", "story", "ui") + _in("games/qlanet/", "story", "ui"),
         may_import=("engines", "hints", "inputs"), floor=2),
    Part("engines", "Game engines", "the pure core: rules, chance in the state", (3, 1),
         ENGINE_MODULES, floor=0),
    Part("journal", "Journal", "SQLite: each input saved before it shows", (2, 0),
         _in("journal/", "store", "salvaging") + _in("", "statelock"), floor=0),
    Part("views", "Views", "pure: models to OLED image, LED colours", (2, 2),
         _in("views/", "oled", "leds", "terminal", "font", "qr"),
         may_import=("engines",), third_party=("PIL", "segno"), floor=1),
    Part("adapters", "Output adapters", "send only what changed; a fake for each", (1, 2),
         _in("hardware/", "display", "display_worker", "oled", "pages", "leds", "buzzer",
             "fake_bus")
         + _in("", "notify"),
         devices="OLED, LEDs via the Pico, buzzer, systemd",
         may_import=("views", "engines", "config"),
         third_party=("PIL", "luma", "gpiozero", "smbus2"), floor=5),
    Part("config", "Config", "settings, checked line by line at start", (0, 2),
         _in("config/", "schema", "loading", "key_lines", "reader", "values", "sections",
             "across", "skeleton", "command"),
         devices="/etc/companion/config.toml",
         # engines: i18n's list of the shipped languages
         may_import=("session", "engines"), floor=4),
    Part("tools", "Commands and tools", "the CLI around the box", (0, 3),
         _in("", "cli", "scenario", "doctor", "enroll", "selftest", "firmware",
             "autoplay", "catalogs", "compile_engine")
         + _in("printing/", "__init__", "sheet", "qno", "qlanet"),
         may_import=ANY, third_party=ANY, floor=7),
    Part("web", "Web page", "reads snapshots, enqueues inputs", (0, 0),
         _in("web/", "__init__", "gate", "publish", "server", "service", "shell", "snapshot",
             "stats", "svg", "patch", "address", "archive", "replay", "pages", "past", "handler",
             "static"),
         devices="phones, a laptop or a TV on the local network",
         may_import=ANY, third_party=("tornado", "PIL"), floor=4),
    Part("mqtt", "Room broker", "public state out, checked commands in", (1, -1),
         _in("mqtt/", "commands", "discovery", "link", "outbox", "service", "topics"),
         devices="the room's MQTT broker, Home Assistant",
         may_import=("web", "session", "journal", "inputs", "games", "engines", "views"),
         third_party=("paho",), floor=5),
    Part("room", "The room", "every table live, commands, the report", (2, -1),
         _in("room/", "client", "tables", "store", "report", "server", "service"),
         devices="the broker, the teacher's browser",
         may_import=("mqtt", "web", "config", "games", "engines", "hints"),
         third_party=("paho", "tornado"), floor=6),
    Part("hints", "Hints", "pure look-ahead on game copies", (3, 0),
         _in("games/entanglion/", "hint", "values"), may_import=("engines",), floor=1),
)

# Data flow: (from part, to part, label). These are the picture's arrows.
FLOWS = (
    ("inputs", "loop", "events, queued"),
    ("loop", "session", "one at a time"),
    ("session", "engines", "actions, state"),
    ("session", "journal", "input first"),
    ("session", "views", "screen and LED models"),
    ("views", "adapters", "image, LED frame"),
    ("web", "loop", "inputs"),
    ("mqtt", "loop", "room commands"),
    ("room", "mqtt", "commands, over the broker"),
    ("hints", "engines", "plays copies"),
    ("games", "engines", "reads the state"),
)

BY_KEY = {p.key: p for p in PARTS}

# Modules every part may import, as it may the standard library: a way of declaring plain
# data. They belong to no part, are drawn nowhere, and may import nothing of the package.
SHARED = _in("", "frozen")


# ---------------------------------------------------------------------- the check


def package_modules(root: Path = ROOT) -> list[str]:
    """Every module of the package that must sit in a part: all ``.py`` files except
    ``__main__.py`` and the ``__init__.py`` files that define nothing (re-exports)."""
    out = []
    for path in sorted((root / "companion").rglob("*.py")):
        if path.name == "__main__.py":
            continue
        if path.name == "__init__.py" and not _defines_something(path):
            continue
        out.append(path.relative_to(root).as_posix())
    return out


def _defines_something(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n in tree.body)


def _module_file(dotted: str, root: Path) -> Path | None:
    base = root.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imports_of(path: Path, root: Path = ROOT) -> tuple[set[str], set[str]]:
    """(package files, third-party top-level names) that ``path`` imports, lazily too."""
    stat = path.stat()
    inner, outer = _imports_of(path, root, stat.st_mtime_ns, stat.st_size)
    return set(inner), set(outer)


@functools.cache
def _imports_of(path: Path, root: Path, _mtime: int, _size: int
                ) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`imports_of`, parsed once per version of the file (the check asks often)."""
    package = list(path.relative_to(root).parts[:-1])  # what "from ." means here
    inner: set[str] = set()
    outer: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # "from .views import oled" imports the module companion/views/oled.py
            names = [f"{module}.{a.name}" if _module_file(f"{module}.{a.name}", root)
                     else module for a in node.names]
        for name in names:
            top = name.split(".")[0]
            if top == "companion":
                found = _module_file(name, root)
                if found is not None:
                    inner.add(found.relative_to(root).as_posix())
            elif top and top not in sys.stdlib_module_names:
                outer.add(top)
    return frozenset(inner), frozenset(outer)


def check(root: Path = ROOT) -> list[str]:
    """Every way the model and the code disagree, one line each (none: they agree)."""
    problems: list[str] = []
    owner: dict[str, str] = {}
    for part in PARTS:
        if part.planned and part.modules:
            problems.append(f"{part.key} is planned but lists modules: drop planned=True")
        if not part.planned and not part.modules:
            problems.append(f"{part.key} has no modules")
        for module in part.modules:
            if not (root / module).is_file():
                problems.append(f"{module} (part {part.key}) does not exist")
            if module in owner:
                problems.append(f"{module} is in both {owner[module]} and {part.key}")
            owner.setdefault(module, part.key)
    for module in SHARED:
        if module in owner:
            problems.append(f"{module} is shared by every part and also in {owner[module]}")
        if (root / module).is_file() and imports_of(root / module, root)[0] - {module}:
            problems.append(f"{module} is shared by every part: it may import nothing of "
                            "the package")
    for module in package_modules(root):
        if module not in owner and module not in SHARED:
            problems.append(f"{module} is in no part of docs/make_architecture.py: add it "
                            "to the part it belongs to")
    for flow in FLOWS:
        for key in flow[:2]:
            if key not in BY_KEY:
                problems.append(f"flow {flow} names an unknown part {key!r}")
    for part in PARTS:
        for module in part.modules:
            if not (root / module).is_file():
                continue
            inner, outer = imports_of(root / module, root)
            problems += _import_problems(part, module, inner, outer, owner, root)
    problems += [f"an import circle: {' -> '.join(c + c[:1])}" for c in circles(root)]
    return problems


def circles(root: Path = ROOT) -> list[list[str]]:
    """Every set of the package's modules that import each other round in a circle
    (imports inside functions too: they run later, but they still tie the two together),
    each as one circle through them, from its first module in name order."""
    files = sorted(p.relative_to(root).as_posix() for p in (root / "companion").rglob("*.py"))
    graph = {f: sorted(imports_of(root / f, root)[0] - {f}) for f in files}
    found = []
    for group in _strongly_connected(graph):
        if len(group) > 1:
            found.append(_circle_through(min(group), set(group), graph))
    return sorted(found)


def _strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(graph.get(step, ()))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(group)
    return groups


def _circle_through(start: str, group: set[str], graph: dict[str, list[str]]) -> list[str]:
    """The shortest way from ``start`` back to itself inside ``group``."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for step in graph[node]:
                if step not in group:
                    continue
                if step == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                if step not in came_from:
                    came_from[step] = node
                    nxt.append(step)
        frontier = nxt
    return [start]  # not reached: a strongly connected group has a way back


def _import_problems(part: Part, module: str, inner: set[str], outer: set[str],
                     owner: dict[str, str], root: Path) -> list[str]:
    problems = []
    for target in sorted(inner):
        for key in sorted(_parts_behind(target, owner, root) - {part.key}):
            if part.may_import is not ANY and key not in part.may_import:
                problems.append(f"{module} ({part.key}) imports {target} ({key}); "
                                f"{part.key} may import only {_list(part.may_import)}")
            elif BY_KEY[key].floor >= part.floor:
                problems.append(f"{module} ({part.key}, floor {part.floor}) imports {target} "
                                f"({key}, floor {BY_KEY[key].floor}): an import runs only "
                                "down to a lower floor")
    if part.third_party is not ANY:
        for name in sorted(outer - set(part.third_party)):
            problems.append(f"{module} ({part.key}) imports {name}; {part.key} may use only "
                            f"{_list(part.third_party)}")
    return problems


def _parts_behind(target: str, owner: dict[str, str], root: Path) -> set[str]:
    """The part of an imported module; a package re-export counts as what it re-exports."""
    if target in owner:
        return {owner[target]}
    if target.endswith("__init__.py"):
        inner, _ = imports_of(root / target, root)
        return set().union(*(_parts_behind(t, owner, root) for t in inner if t != target))
    return set()


def _list(keys: tuple[str, ...]) -> str:
    return ", ".join(keys) if keys else "nothing"


# ---------------------------------------------------------------------- the picture

COL_W, COL_GAP, ROW_GAP, MARGIN, TOP = 270, 110, 70, 30, 70
LINE, TITLE_H, CHARS = 15, 44, 38
INK, GREY, CORE, SHELL, PLANNED = "#1f2933", "#616e7c", "#e3f2e6", "#e8eef7", "#ffffff"


def module_lines(part: Part) -> list[str]:
    """The part's modules as short lines: top-level files by name, then each folder
    on a line of its own with its modules' names below it (or with its one module)."""
    folders: dict[str, list[str]] = {}
    for module in part.modules:
        path = Path(module).relative_to("companion")
        folder = "" if path.parent == Path(".") else f"{path.parent.as_posix()}/"
        folders.setdefault(folder, []).append(path.stem if folder else path.name)
    lines = []
    for folder, names in sorted(folders.items(), key=lambda item: item[0] != ""):
        if folder and len(names) == 1:
            lines.append(f"{folder}{names[0]}.py")
            continue
        if folder:
            lines.append(folder)
        indent = "  " if folder else ""
        line = ""
        for name in names:
            if line and len(indent) + len(line) + len(name) + 1 > CHARS:
                lines.append(indent + line)
                line = ""
            line = f"{line} {name}" if line else name
        lines.append(indent + line)
    return lines


def _title_h(part: Part) -> int:
    return TITLE_H + (LINE if part.devices else 0)


def box_height(part: Part) -> int:
    return _title_h(part) + LINE * max(1, len(module_lines(part))) + 12


def layout() -> tuple[dict[str, tuple[int, int, int, int]], int, int]:
    """Each part's (x, y, w, h), and the picture's width and height."""
    grid_rows = sorted({p.cell[1] for p in PARTS if p.key != "tools"})
    heights = {r: max(box_height(p) for p in PARTS if p.cell[1] == r) for r in grid_rows}
    tops, y = {}, TOP
    for r in grid_rows:
        tops[r] = y
        y += heights[r] + ROW_GAP
    columns = max(p.cell[0] for p in PARTS) + 1
    width = 2 * MARGIN + columns * COL_W + (columns - 1) * COL_GAP
    boxes = {}
    for p in PARTS:
        if p.key == "tools":
            continue
        col, row = p.cell
        boxes[p.key] = (MARGIN + col * (COL_W + COL_GAP), tops[row], COL_W, heights[row])
    tools_h = TITLE_H + LINE + 12
    boxes["tools"] = (MARGIN, y, width - 2 * MARGIN, tools_h)
    return boxes, width, y + tools_h + MARGIN


def _text(x: float, y: float, s: str, size: int = 12, *, mono: bool = False,
          anchor: str = "start", weight: str = "normal", colour: str = INK) -> str:
    family = "monospace" if mono else "sans-serif"
    return (f'<text x="{x:g}" y="{y:g}" font-family="{family}" font-size="{size}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{colour}">{escape(s)}</text>')


def _arrow(boxes: dict, a: str, b: str, label: str, dashed: bool) -> list[str]:
    ax, ay, aw, ah = boxes[a]
    bx, by, bw, bh = boxes[b]
    style = ' stroke-dasharray="6 4"' if dashed else ""
    if BY_KEY[a].cell[1] == BY_KEY[b].cell[1]:  # same row: horizontal, at the title
        y = ay + 24
        x1, x2 = (ax + aw, bx) if ax < bx else (ax, bx + bw)
        points = [(x1, y), (x2, y)]
        at = ((x1 + x2) / 2, y - 8, "middle")
    elif BY_KEY[a].cell[0] == BY_KEY[b].cell[0]:  # same column: vertical
        x = ax + aw / 2
        y1, y2 = (ay + ah, by) if ay < by else (ay, by + bh)
        points = [(x, y1), (x, y2)]
        at = (x + 8, (y1 + y2) / 2 + 4, "start")
    else:  # an elbow: across from a's side, then down into b's top
        y = ay + 24
        x2 = bx + bw / 2
        x1 = ax + aw if ax < bx else ax
        points = [(x1, y), (x2, y), (x2, by)]
        at = ((x1 + x2) / 2, y - 8, "middle")
    path = " ".join(f"{x:g},{y:g}" for x, y in points)
    return [f'<polyline points="{path}" fill="none" stroke="{INK}" stroke-width="1.6"'
            f'{style} marker-end="url(#head)"/>',
            _text(at[0], at[1], label, 11, anchor=at[2], colour=GREY)]


def svg() -> str:
    boxes, width, height = layout()
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">',
           "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
           "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">"
           f"<path d=\"M0,0 L10,5 L0,10 z\" fill=\"{INK}\"/></marker></defs>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
           _text(MARGIN, 34, "companion: the parts and where they live", 18, weight="bold"),
           _text(MARGIN, 54, "Arrows are data flow. Green: the pure core (no I/O, no "
                 "threads, no clock). Dashed: planned, not built yet. Generated by "
                 "docs/make_architecture.py.", 12, colour=GREY)]
    for a, b, label in FLOWS:
        out += _arrow(boxes, a, b, label, BY_KEY[a].planned or BY_KEY[b].planned)
    for part in PARTS:
        x, y, w, h = boxes[part.key]
        fill = PLANNED if part.planned else CORE if part.key in ("engines", "hints") else SHELL
        dash = ' stroke-dasharray="6 4"' if part.planned else ""
        out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{fill}" '
                   f'stroke="{INK}" stroke-width="1.4"{dash}/>')
        title = part.title + (" (planned)" if part.planned else "")
        out.append(_text(x + 10, y + 20, title, 14, weight="bold"))
        out.append(_text(x + 10, y + 36, part.role, 11, colour=GREY))
        if part.devices:
            out.append(_text(x + 10, y + 51, part.devices, 11, colour=GREY))
        lines = module_lines(part) or ["(not built yet)"]
        if part.key == "tools":
            lines = ["  ".join(line.strip() for line in lines)]
        for i, line in enumerate(lines):
            out.append(_text(x + 10, y + _title_h(part) + 8 + i * LINE, line, 11, mono=True))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- the table


def table() -> str:
    """The markdown table of docs/design.md: each part, what it does, where it lives."""
    rows = ["| part | floor | what it does | where it lives | may import |",
            "|---|---|---|---|---|"]
    for part in sorted(PARTS, key=lambda p: -p.floor):
        folders: dict[str, list[str]] = {}
        for module in part.modules:
            folder, _, name = module.rpartition("/")
            folders.setdefault(folder, []).append(name)
        where = "; ".join(f"`{folder}/`: " + ", ".join(names) for folder, names in folders.items())
        imports = ("-" if part.planned else "anything" if part.may_import is ANY
                   else ", ".join(BY_KEY[k].title.lower() for k in part.may_import) or "nothing")
        where = where or "not built yet"
        role = f"{part.role} ({part.devices})" if part.devices else part.role
        rows.append(f"| {part.title} | {part.floor} | {role} | {where} | {imports} |")
    return "\n".join(rows)


def fill_design(text: str) -> str:
    start, end = text.index(TABLE_START), text.index(TABLE_END)
    return text[: start + len(TABLE_START)] + "\n" + table() + "\n" + text[end:]


def stale(root: Path = ROOT) -> list[str]:
    """The generated files that differ from what this script makes now."""
    out = []
    if not SVG_FILE.is_file() or SVG_FILE.read_text(encoding="utf-8") != svg():
        out.append(f"{SVG_FILE.relative_to(root)} is stale")
    design = DESIGN_FILE.read_text(encoding="utf-8")
    if fill_design(design) != design:
        out.append(f"the parts table in {DESIGN_FILE.relative_to(root)} is stale")
    return out


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        problems = check() + [f"{s}: run python docs/make_architecture.py" for s in stale()]
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    if argv:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    problems = check()
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1
    SVG_FILE.write_text(svg(), encoding="utf-8")
    DESIGN_FILE.write_text(fill_design(DESIGN_FILE.read_text(encoding="utf-8")),
                           encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
