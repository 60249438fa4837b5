"""Keep the translation catalogs in step with the code: ``python -m companion.catalogs``.

    extract   scan the code for marked strings into one template (.pot) per catalog
    update    merge each template into every language's .po (new strings come in
              untranslated, vanished ones are kept as obsolete comments)
    compile   write the .mo the box loads beside each .po
    all       the three in order (what a developer runs after changing strings)

A catalog covers one area of the code (``CATALOGS``), so people translating different
parts never edit the same file. Babel does the extraction and the .po/.mo formats; it
is a development tool (the ``test`` extra), never needed on the box, which reads the
committed .mo files with the standard library's gettext.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from pathlib import Path

from .i18n import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parent
LOCALE = ROOT / "locale"

# catalog -> the paths (relative to the companion package) whose strings it holds.
# A path is a file, or a folder taken with everything below it.
CATALOGS: dict[str, tuple[str, ...]] = {
    "core": ("session", "sim.py", "daemon.py", "recovery.py", "views", "web", "room",
             "games/common.py"),
    "entanglion": ("games/entanglion",),
    "qno": ("games/qno",),
    "qlanet": ("games/qlanet",),
    "printing": ("printing",),
}

# Only the player-facing strings are marked; these are the marking functions (i18n.py).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "NC_": ((1, "c"), 2)}
# index.html marks its own words: data-t (the element's text), data-t-alt (its alt).
_HTML_TEXT = re.compile(r"<(\w+)\b[^>]*\bdata-t\b(?!-)[^>]*>([^<]+)</\1>")
_HTML_ALT = re.compile(r'data-t-alt="([^"]+)"')
SUFFIXES = (".py", ".js", ".html")
# One translator comment for every message of a context, said once here rather than
# above each of the rulings' hundred words (games/*/options.py).
CONTEXT_NOTES = {
    "ruling": "Translators: a ruling's short name or one of its values (games/*/options.py "
              "explains each ruling). Shown in the story's \"Options:\" list as \"name: "
              "value\" and on the page's win-rate charts; at most about 20 characters.",
}


class BabelMissing(RuntimeError):
    pass


def _babel():
    try:
        from babel.messages import catalog, extract, mofile, pofile
    except ImportError:
        raise BabelMissing("Babel is not installed: pip install -e '.[test]' "
                           "(it is only needed to change the catalogs)") from None
    return catalog, extract, pofile, mofile


def translated_languages() -> list[str]:
    return [code for code in LANGUAGES if code != DEFAULT]


def template_path(name: str) -> Path:
    return LOCALE / f"{name}.pot"


def po_path(code: str, name: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{name}.po"


def _files(name: str) -> list[Path]:
    out: list[Path] = []
    for rel in CATALOGS[name]:
        path = ROOT / rel
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES)
        elif path.exists():
            out.append(path)
        else:  # a module moved or renamed: its strings must not silently drop out
            raise FileNotFoundError(f"catalog {name!r} names {rel}, which does not exist")
    return out


def table_comments(source: str) -> dict[int, str]:
    """Line -> the ``# Translators:`` comment written just above the simple statement
    (a table, a return) or the function (a screen) that spans that line: one comment
    says what all the labels of a table or a screen are, where Babel would give it to
    the first message only. A message's own comment still comes first."""
    blocks: dict[int, list[str]] = {}  # last line of a comment block -> its text
    start = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        text = tok.string.lstrip("#").strip()
        row = tok.start[0]
        if text.startswith("Translators:"):
            start, blocks[row] = row, [text]
        elif start is not None and row - 1 in blocks and tok.line.strip().startswith("#"):
            blocks[row] = blocks.pop(row - 1) + [text]
    out: dict[int, str] = {}
    simple = (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr, ast.FunctionDef,
              ast.AsyncFunctionDef)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, simple) and node.lineno - 1 in blocks:
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                out.setdefault(line, " ".join(blocks[node.lineno - 1]))
    return out


def extract_catalog(name: str):
    """The template of one catalog, straight from the code."""
    catalog, extract, _, _ = _babel()
    template = catalog.Catalog(project="companion", charset="utf-8", fuzzy=False)
    for path in _files(name):
        method = {".js": "javascript", ".html": _extract_html}.get(path.suffix, "python")
        tables = table_comments(path.read_text("utf-8")) if method == "python" else {}
        with path.open("rb") as stream:
            for line, message, comments, context in extract.extract(
                    method, stream, keywords=KEYWORDS, comment_tags=("Translators:",)):
                if not comments and line in tables:
                    comments = [tables[line]]
                note = CONTEXT_NOTES.get(context)
                template.add(message, None, [(str(path.relative_to(ROOT)), line)],
                             auto_comments=[*comments, *([note] if note else [])],
                             context=context)
    return template


_HTML_NOTE = ("Translators: a heading, button or label of the table's web page "
              "(index.html); the browser wraps a long one.")


def _extract_html(stream, keywords, comment_tags, options):
    """The words index.html marks for translation (the page swaps them in on load)."""
    text = stream.read().decode("utf-8")
    for pattern in (_HTML_TEXT, _HTML_ALT):
        for m in pattern.finditer(text):
            message = " ".join(next(g for g in reversed(m.groups()) if g).split())
            yield text.count("\n", 0, m.start()) + 1, "_", message, [_HTML_NOTE]


def _write_po(path: Path, cat) -> None:
    _, _, pofile, _ = _babel()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        pofile.write_po(stream, cat, width=96, omit_header=False, sort_output=False,
                        ignore_obsolete=False, include_previous=False)


def _read_po(path: Path, locale: str | None = None):
    _, _, pofile, _ = _babel()
    with path.open("rb") as stream:
        return pofile.read_po(stream, locale=locale)


def extract() -> list[Path]:
    written = []
    for name in CATALOGS:
        template = extract_catalog(name)
        if not len(template):
            continue
        _write_po(template_path(name), template)
        written.append(template_path(name))
    return written


def update() -> list[Path]:
    catalog, _, _, _ = _babel()
    written = []
    for name in CATALOGS:
        if not template_path(name).exists():
            continue
        template = _read_po(template_path(name))
        for code in translated_languages():
            path = po_path(code, name)
            if path.exists():
                cat = _read_po(path, locale=code)
            else:
                cat = catalog.Catalog(locale=code, project="companion", charset="utf-8",
                                      fuzzy=False)
            cat.update(template, no_fuzzy_matching=True)
            _write_po(path, cat)
            written.append(path)
    return written


# The catalogs the page reads: its own words (core) and the games' (names it shows).
WEB_CATALOGS = ("core", "entanglion", "qno", "qlanet")


def web_catalog(code: str) -> dict[str, dict]:
    """The page's words in one language, kept apart by catalog as on the box (the page
    asks the game on show first, then core): ``{catalog: {msgid: text}}``. A counted
    message maps to its forms; a message with a context is keyed ``context\x04msgid``
    (gettext's own way). Under ``""`` (where gettext keeps its header) is how the page
    picks a form: ``Intl.PluralRules``' category -> the form's index."""
    out: dict[str, dict] = {"": {"plural": plural_categories(code)}}
    for name in WEB_CATALOGS:
        path = po_path(code, name)
        messages: dict[str, object] = {}
        if path.exists():
            for m in _read_po(path, locale=code):
                if not m.id or m.fuzzy:
                    continue
                key = m.id if isinstance(m.id, str) else m.id[0]
                if m.context:
                    key = f"{m.context}\x04{key}"
                value = m.string if isinstance(m.string, str) else list(m.string)
                if value and all(value):
                    messages[key] = value
        out[name] = messages
    return out


def plural_categories(code: str) -> dict[str, int]:
    """CLDR's plural category of a count (what ``Intl.PluralRules`` answers in the
    browser) -> the index of the form the catalog's own plural rule picks for it.
    Raises ValueError if the two rules disagree on any whole count up to 1,000."""
    import gettext

    from babel import Locale

    rule = gettext.c2py(_read_po(po_path(code, "core"), locale=code).plural_expr)
    locale = Locale.parse(code)
    out: dict[str, int] = {}
    for n in range(1001):
        category, form = locale.plural_form(n), rule(n)
        if out.setdefault(category, form) != form:
            raise ValueError(f"{code}: plural rules disagree at {n}")
    return out


def web_catalog_path(code: str) -> Path:
    return LOCALE / code / "web.json"


def dumps_web_catalog(code: str) -> str:
    return json.dumps(web_catalog(code), ensure_ascii=False, sort_keys=True, indent=0) + "\n"


def compile_all() -> list[Path]:
    _, _, _, mofile = _babel()
    written = []
    for code in translated_languages():
        for po in sorted((LOCALE / code / "LC_MESSAGES").glob("*.po")):
            cat = _read_po(po, locale=code)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as stream:
                mofile.write_mo(stream, cat, use_fuzzy=False)
            written.append(mo)
        web_catalog_path(code).write_text(dumps_web_catalog(code), encoding="utf-8")
        written.append(web_catalog_path(code))
    return written


COMMANDS = {"extract": extract, "update": update, "compile": compile_all}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in (*COMMANDS, "all"):
        print("usage: python -m companion.catalogs extract|update|compile|all", file=sys.stderr)
        return 2
    steps = list(COMMANDS.values()) if args[0] == "all" else [COMMANDS[args[0]]]
    try:
        for step in steps:
            for path in step():
                print(path.relative_to(ROOT.parent))
    except BabelMissing as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
