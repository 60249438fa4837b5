"""Mutation testing: does the test suite notice when a rule is bent?

Every line of ``bench/mutants.txt`` plants one rule change (a *mutant*) in the rules
engines: a piece of source text and what it becomes, and why the change breaks a rule.
This script applies each mutant, on its own, to a temporary copy of the package, runs
the game's tests against the copy and reports whether they failed (the mutant is
*caught*) or still passed (it *survived*), then the score per game::

    python bench/mutants.py                      # every mutant (tens of minutes)
    python bench/mutants.py --game qno           # one game's mutants
    python bench/mutants.py --only E01,E07       # chosen mutants
    python bench/mutants.py --check              # only check that each still applies

The tests run for a game's mutants are that game's tests plus the example scenarios
(``suite()``): every test that plays the engine directly. The rest of the
suite (session, views, simulator, daemon) only reaches the engines through these, so
it could catch more mutants, never fewer: the score printed is a lower bound of the
whole suite's. pytest runs with ``-x`` (the first failure is enough) and a fixed
hypothesis seed, so a run is reproducible; ``COMPANION_LONG`` is cleared, so it is the
default suite's score. A mutant whose tests run longer than ``--timeout`` is counted
apart, as a hang. Before the mutants, the unchanged copy must pass the same tests.

The file format (also checked by ``tests/test_mutants.py``, so the list cannot rot
silently when the engines change): ``[game]`` starts a game's section; a mutant is

    ID FILE "old text" -> "new text" : why this breaks a rule

with FILE relative to ``companion/`` and the two texts as JSON strings (``\\n`` for a
line break). The old text must occur exactly once in the file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = Path(__file__).resolve().with_name("mutants.txt")
GAMES = ("entanglion", "qno", "qlanet")
# Beyond the game's own folder: the example scenarios, and for Entanglion the
# scenario runner's tests.
EXTRA = {"entanglion": ["tests/test_examples.py", "tests/test_scenario_cli.py"],
         "qno": ["tests/test_examples.py"], "qlanet": ["tests/test_examples.py"]}
# What the copy needs for those tests: the package, the tests, their data files.
COPIED = ("companion", "tests", "examples", "pyproject.toml")
PYTEST = ["-x", "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0"]
_DECODE = json.JSONDecoder()


class ListError(ValueError):
    """A malformed line in the mutants file (the message names the line)."""


@dataclass(frozen=True)
class Mutant:
    id: str
    game: str
    file: str  # relative to companion/
    old: str
    new: str
    why: str
    line: int  # in the mutants file

    def apply(self, source: str) -> str:
        """The mutated source; ListError if the old text is not there exactly once."""
        n = source.count(self.old)
        if n != 1:
            where = "not found" if n == 0 else f"found {n} times"
            raise ListError(f"{LIST.name}:{self.line}: {self.id}: old text {where} in {self.file}")
        return source.replace(self.old, self.new)


def _string(line: str, pos: int, what: str, lineno: int) -> tuple[str, int]:
    """A JSON string at ``pos``; the old text may not be empty (the new one may)."""
    pos = len(line) - len(line[pos:].lstrip())
    try:
        value, end = _DECODE.raw_decode(line, pos)
    except json.JSONDecodeError:
        raise ListError(f"{LIST.name}:{lineno}: the {what} text must be a JSON string") from None
    if not isinstance(value, str) or (what == "old" and not value):
        raise ListError(f"{LIST.name}:{lineno}: the {what} text must be a "
                        f"{'non-empty ' if what == 'old' else ''}string")
    return value, end


def parse(text: str) -> list[Mutant]:
    mutants: list[Mutant] = []
    game = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = re.fullmatch(r"\[(\w+)\]", line)
        if header:
            game = header.group(1)
            if game not in GAMES:
                raise ListError(f"{LIST.name}:{lineno}: unknown game [{game}]")
            continue
        m = re.match(r"(\S+)\s+(\S+)\s+", line)
        if game is None or not m:
            raise ListError(f"{LIST.name}:{lineno}: expected [game] or "
                            "'ID FILE \"old\" -> \"new\" : why'")
        old, end = _string(line, m.end(), "old", lineno)
        arrow = re.match(r"\s*->\s*", line[end:])
        if not arrow:
            raise ListError(f"{LIST.name}:{lineno}: expected -> after the old text")
        new, end = _string(line, end + arrow.end(), "new", lineno)
        why = re.match(r"\s*:\s*(\S.*)$", line[end:])
        if not why:
            raise ListError(f"{LIST.name}:{lineno}: expected ': why it breaks a rule'")
        mutants.append(Mutant(m.group(1), game, m.group(2), old, new, why.group(1), lineno))
    ids = [mu.id for mu in mutants]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ListError(f"{LIST.name}: repeated mutant ids {', '.join(dupes)}")
    return mutants


def load() -> list[Mutant]:
    return parse(LIST.read_text(encoding="utf-8"))


def mutated_source(mutant: Mutant, package: Path = ROOT / "companion") -> str:
    """The mutated file's text; ListError if it does not apply or does not compile."""
    path = package / mutant.file
    if not path.is_file():
        raise ListError(f"{LIST.name}:{mutant.line}: {mutant.id}: no file companion/{mutant.file}")
    new = mutant.apply(path.read_text(encoding="utf-8"))
    try:
        compile(new, str(path), "exec")
    except SyntaxError as exc:
        raise ListError(f"{LIST.name}:{mutant.line}: {mutant.id}: the mutated file does not "
                        f"compile: {exc.msg} (line {exc.lineno})") from None
    return new


# ------------------------------------------------------------------------- running


def make_copy() -> Path:
    where = Path(tempfile.mkdtemp(prefix="companion-mutants-"))
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, where / name, ignore=ignore)
        else:
            shutil.copy2(src, where / name)
    return where


def suite(game: str) -> list[str]:
    """The game's test files, the long property tests last: with ``-x`` a mutant that
    a quick rules test catches is done in seconds."""
    files = sorted((ROOT / "tests" / game).glob("test_*.py"),
                   key=lambda p: ("property" in p.name, p.name))
    return [str(p.relative_to(ROOT)) for p in files] + EXTRA[game]


def run_tests(copy: Path, tests: list[str], timeout: float) -> tuple[str, str, float]:
    """Run ``tests`` in ``copy``: (outcome, detail, seconds).

    outcome is "passed", "failed" (detail: the first failing test) or "timeout"."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    # The copy first on the path (python -m puts the working directory first too), no
    # stale bytecode from the previous mutant of the same file.
    env.update(PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    # Nor hypothesis examples saved by a previous run: each run starts from nothing.
    # Files the tests leave for a failing game (repro inputs) stay inside the copy.
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)
    (copy / "tmp").mkdir(exist_ok=True)
    env["TMPDIR"] = str(copy / "tmp")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", *PYTEST, *tests],
                            cwd=copy, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timeout", f"over {timeout:.0f} s", time.perf_counter() - t0
    except BaseException:  # Ctrl-C: the tests run in their own session, stop them too
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    seconds = time.perf_counter() - t0
    if proc.returncode == 0:
        return "passed", "", seconds
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", out, re.M)
    detail = failed.group(1) if failed else out.strip().splitlines()[-1] if out.strip() else ""
    why = re.search(r"^E +(\S.*)$", out, re.M)  # pytest's first error line: how it failed
    if why:
        detail += f"  ({why.group(1)[:100]})"
    return "failed", detail, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="only this game's mutants (repeatable)")
    parser.add_argument("--only", help="comma-separated mutant ids")
    parser.add_argument("--check", action="store_true",
                        help="only check that every mutant applies and compiles")
    parser.add_argument("--tests", help="comma-separated test paths to run instead of the "
                        "game's own (for a quick look while writing a test; not a score)")
    parser.add_argument("--timeout", type=float, default=1200,
                        help="seconds per mutant before it counts as a hang (default 1200)")
    args = parser.parse_args(argv)
    try:
        mutants = load()
        for mu in mutants:
            mutated_source(mu)
    except ListError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.game:
        mutants = [mu for mu in mutants if mu.game in args.game]
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {mu.id for mu in mutants}
        if unknown:
            print(f"unknown mutant id(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        mutants = [mu for mu in mutants if mu.id in wanted]
    if args.check:
        print(f"{len(mutants)} mutants apply cleanly and compile")
        return 0

    copy = make_copy()
    t0 = time.perf_counter()
    results: dict[str, list[tuple[Mutant, str]]] = {g: [] for g in GAMES}
    try:
        for game in GAMES:
            mine = [mu for mu in mutants if mu.game == game]
            if not mine:
                continue
            tests = args.tests.split(",") if args.tests else suite(game)
            outcome, detail, seconds = run_tests(copy, tests, args.timeout)
            print(f"[{game}] tests: {' '.join(tests)}\n  unchanged copy: {outcome} in "
                  f"{seconds:.0f} s", flush=True)
            if outcome != "passed":
                print(f"the unchanged engines fail their own tests ({detail}): fix that first",
                      file=sys.stderr)
                return 1
            for mu in mine:
                path = copy / "companion" / mu.file
                original = path.read_text(encoding="utf-8")
                path.write_text(mutated_source(mu, copy / "companion"), encoding="utf-8")
                try:
                    outcome, detail, seconds = run_tests(copy, tests, args.timeout)
                finally:
                    path.write_text(original, encoding="utf-8")
                verdict = {"failed": "caught", "passed": "SURVIVED", "timeout": "hang"}[outcome]
                results[game].append((mu, verdict))
                print(f"  {mu.id:4} {verdict:8} {seconds:6.0f} s  {detail or '-'}", flush=True)
    finally:
        shutil.rmtree(copy, ignore_errors=True)

    print(f"\nmutation score ({time.perf_counter() - t0:.0f} s in all)")
    worst = 100.0
    for game in GAMES:
        rows = results[game]
        if not rows:
            continue
        caught = sum(1 for _, v in rows if v == "caught")
        hangs = sum(1 for _, v in rows if v == "hang")
        score = 100.0 * caught / len(rows)
        worst = min(worst, score)
        survivors = [mu.id for mu, v in rows if v == "SURVIVED"]
        print(f"  {game:10} {caught:3} caught of {len(rows):3} = {score:5.1f}%"
              + (f", {hangs} hang(s)" if hangs else "")
              + (f"; survived: {', '.join(survivors)}" if survivors else ""))
    return 0 if worst == 100.0 else 1


if __name__ == "__main__":
    sys.exit(main())
