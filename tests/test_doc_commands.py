"""Every command line docs/*.md shows is one the project has: each ``companion`` command
with its flags (as the README's are checked, against the CLI's own parsers), each
``python SCRIPT.py`` or ``python -m MODULE`` with the flags the script reads, and each
test file a ``pytest`` line names; and every file a doc names in code (``oled.py``,
``companion/web/snapshot.py``) is in the repository, and every ``companion.x.y`` it
spells out can be imported."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from test_readme import COMMAND, FLAG, _flags, _parsers

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^[ \t]*```\w*\n(.*?)\n[ \t]*```", re.M | re.S)
PYTHON = re.compile(r"(?:^|\s)python3? (-m [\w.]+|[\w/]+\.py)((?: [^#\n]*)?)")


def _spans(path: Path) -> list[str]:
    """The doc's fenced lines and inline code spans, comments dropped."""
    text = path.read_text(encoding="utf-8")
    fenced = [line for block in FENCE.findall(text) for line in block.splitlines()]
    return [span.split(" #")[0] for span in fenced + re.findall(r"`([^`\n]+)`",
                                                                 FENCE.sub("", text))]


def _source(target: str) -> tuple[str, Path] | None:
    """What a ``python`` line runs: (its name, its file); None when it is not ours."""
    if target.startswith("-m "):
        name = target[3:]
        if name.split(".")[0] not in ("companion", "bench"):
            return None  # pytest, venv, pip: not ours to check
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"no module {name}"
        origin = Path(spec.origin)
        if origin.name == "__init__.py" and (origin.parent / "__main__.py").is_file():
            origin = origin.parent / "__main__.py"
        return name, origin
    return target, ROOT / target


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_a_doc_shows_exists_with_its_flags(doc):
    parsers = _parsers()
    for span in _spans(doc):
        for command in COMMAND.findall(span):
            assert command in parsers, f"{doc.name}: companion {command} is no command ({span!r})"
            wrong = set(FLAG.findall(span)) - _flags(parsers[command]) - {"--help"}
            assert not wrong, f"{doc.name}: companion {command} has no {sorted(wrong)} ({span!r})"
        for target, rest in PYTHON.findall(span):
            found = _source(target)
            if found is None:
                continue
            name, path = found
            assert path.is_file(), f"{doc.name}: {name} does not exist ({span!r})"
            source = path.read_text(encoding="utf-8")
            for flag in FLAG.findall(rest):
                assert f'"{flag}"' in source, f"{doc.name}: {name} reads no {flag} ({span!r})"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_test_file_a_doc_names_exists(doc):
    for span in _spans(doc):
        if "pytest" not in span:
            continue
        for word in shlex.split(span.replace("[", "").replace("]", ""), comments=True):
            if word.startswith("tests/") and "*" not in word:
                assert (ROOT / word.split("::")[0]).exists(), f"{doc.name}: no {word} ({span!r})"


PATH = re.compile(r"`([\w./-]+\.(?:py|md|json|txt|toml|sh|conf|bin|png))`")
INSTALLED = "companion.service.d/"  # where systemd/install.sh puts a drop-in on the box


@functools.cache
def _repository() -> tuple[set[str], str]:
    """The names of the repository's files, and the package's source: a file the box
    writes at run time is named in the code that writes it."""
    names = {p.name for p in ROOT.rglob("*")
             if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)}
    return names, "".join(p.read_text(encoding="utf-8")
                          for p in (ROOT / "companion").rglob("*.py"))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_file_a_doc_names_exists(doc):
    names, written = _repository()
    for name in PATH.findall(doc.read_text(encoding="utf-8")):
        if name.startswith("/") or name.startswith(INSTALLED):
            continue  # a path on the box, not in the repository
        if "/" in name:
            assert any((base / name).exists() for base in (ROOT, ROOT / "companion", doc.parent)), \
                f"{doc.name} names {name}, which does not exist"
        else:
            assert name in names or f'"{name}"' in written, \
                f"{doc.name} names {name}, which is nowhere in the repository"


DOTTED = re.compile(r"`(companion(?:\.\w+)+)`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_module_and_name_a_doc_spells_out_exists(doc):
    for dotted in DOTTED.findall(doc.read_text(encoding="utf-8")):
        found = importlib.import_module("companion")
        for i, name in enumerate(dotted.split(".")[1:], 2):
            if not hasattr(found, name) and hasattr(found, "__path__"):  # a submodule
                importlib.import_module(".".join(dotted.split(".")[:i]))
            assert hasattr(found, name), f"{doc.name} names {dotted}, which does not exist"
            found = getattr(found, name)


def test_the_check_sees_the_doc_commands():
    seen = [span for doc in DOCS for span in _spans(doc)
            if COMMAND.search(span) or PYTHON.search(span)]
    assert len(seen) > 50
