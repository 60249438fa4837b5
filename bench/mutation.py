"""Machine-made mutants: mutmut over every rules engine, each game against its own tests.

``bench/mutants.py`` plants rule changes we wrote ourselves; this one lets mutmut plant
every small change it can make (an operator, a number, a string, a call argument, a
``return``...) in the modules that decide a game's rules, one at a time, and runs the
game's tests against each::

    pip install -e '.[test,mutation]'
    python bench/mutation.py                       # QNO, then QLANET, then Entanglion
    python bench/mutation.py --game qno --jobs 2   # one game, two mutants at a time
    python bench/mutation.py --game qno --minutes 30   # stop after 30 minutes
    python bench/mutation.py --game qno --report-only  # the scores of what has run
    python bench/mutation.py --game qno --retest   # survivors again, after new tests
    python bench/mutation.py --game entanglion --only 'companion.games.entanglion.board.*'

Each game gets its own working folder (``build/mutation/<game>``): a copy of the
package, the tests and the examples, with a ``[tool.mutmut]`` section naming the
game's rule modules and its tests. mutmut first runs those tests once to learn which
tests reach which function; a mutant then runs only the tests that reach its function
(mutmut's test selection), quickest first, stopping at the first failure. mutmut keeps
every verdict in the folder, so a run stopped by ``--minutes`` or Ctrl-C resumes where
it stopped, and only mutants of functions whose source changed are tested again.

Against each mutant the random-game property tests play ``--games`` games (default 100)
instead of the default suite's thousands, and the hypothesis tests try ``--examples``
examples (default 50) instead of their hundreds, so the score is a lower bound of the
whole suite's. mutmut hands pytest a mutant's tests unordered; the working folder's
``conftest.py`` (``bench/mutation_conftest.py``) sorts them quickest first, so a mutant a
rules test kills costs well under a second, and caps each process's memory so a mutant
that loops while appending cannot take the machine's. The report counts mutants killed
(a test failed, or the tests' process crashed), timed out (the tests ran far longer
than unmutated: a hang, which counts as caught), survived, and not yet run. Survivors
that cannot change any rule are listed in ``bench/mutation-equivalent.txt`` with the
reason (one ``name : why`` a line); the score after triage leaves them out::

    score = (killed + timeout) / (tested - equivalent)

where *tested* counts the mutants no test reached too (they are not caught).

A name listed there that is no longer a survivor (a test now kills it, or its function
changed) is reported, so the list cannot rot silently.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutation"
EQUIVALENT = Path(__file__).resolve().with_name("mutation-equivalent.txt")

# The modules that decide each game's rules (not its screens, stories or reports), and
# the tests that play its engine directly (as bench/mutants.py runs them).
GAMES = {
    "qno": {"mutate": ["engine.py", "cards.py", "circuit.py"],
            "tests": ["tests/qno", "tests/test_examples.py"]},
    "qlanet": {"mutate": ["engine.py", "cards.py", "quantum.py", "knowledge.py"],
               "tests": ["tests/qlanet", "tests/test_examples.py"]},
    # Not the tests whose time goes to modules that are not mutated, playing the engine
    # only as a player: the hint's and the analysis' (minutes of hint.py's playouts, and
    # `games show --analysis` in a subprocess), the compiled build's guard (subprocesses
    # importing stand-in builds), and the sentence of every log entry of 300 games
    # (explain.py). They cost a surviving mutant 170 of its 270 s.
    "entanglion": {"mutate": ["engine.py", "board.py", "cards.py", "quantum.py", "odds.py"],
                   "tests": [f"tests/entanglion/{p.name}" for p in sorted(
                       (ROOT / "tests" / "entanglion").glob("test_*.py"))
                       if not any(w in p.name for w in ("hint", "analysis", "compiled_guard"))]
                   + ["tests/test_examples.py", "tests/test_scenario_cli.py"],
                   "deselect": ["tests/entanglion/test_explain.py::"
                                "test_every_log_entry_of_many_random_games_has_a_sentence"]},
}
# What the tests need: the package, the tests, the example scenarios; hardware/ because
# companion/data/led-map.json is a link into it.
COPIED = ("companion", "tests", "examples", "hardware")
# Runs each mutant's tests quickest first (mutmut passes them in no particular order).
ORDER = Path(__file__).resolve().with_name("mutation_conftest.py")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "*.so")
# One process per mutant (no xdist inside), a fixed hypothesis seed so a verdict
# is reproducible, and no cache of failures from one mutant to the next.
PYTEST_ARGS = ["-n", "0", "-p", "no:cacheprovider", "--hypothesis-seed=0"]
# The property tests' game counts (the default suite plays 2,000-3,000 of each game).
GAME_COUNTS = ("COMPANION_QNO_GAMES", "COMPANION_QLANET_GAMES", "COMPANION_PROPERTY_GAMES")
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
          34: "skipped", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout",
          255: "timeout", 37: "killed", None: "not run",
          # the tests' process crashed (a segfault, seen past the memory cap): noticed
          -11: "killed"}


def _sync(src: Path, dst: Path) -> None:
    """Make ``dst`` a copy of ``src``, touching only the files that differ (mutmut
    compares sources to decide what to test again)."""
    if src.is_symlink() or src.is_file():
        if not dst.exists() or not filecmp.cmp(src, dst, shallow=False):
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        return
    names = set(os.listdir(src)) - IGNORED(str(src), os.listdir(src))
    if dst.exists():
        for extra in set(os.listdir(dst)) - names - {"mutants", "pyproject.toml"}:
            path = dst / extra
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    dst.mkdir(parents=True, exist_ok=True)
    for name in names:
        _sync(src / name, dst / name)


def prepare(game: str) -> Path:
    """The game's working folder, up to date with the checkout."""
    work = WORK / game
    work.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        _sync(ROOT / name, work / name)
    _sync(ORDER, work / "conftest.py")
    spec = GAMES[game]
    config = {
        "source_paths": ["companion"],
        "only_mutate": [f"companion/games/{game}/{f}" for f in spec["mutate"]],
        "pytest_add_cli_args": PYTEST_ARGS,
        "pytest_add_cli_args_test_selection": spec["tests"] + [
            arg for test in spec.get("deselect", ()) for arg in ("--deselect", test)],
        "also_copy": ["examples", "hardware", "conftest.py"],
        # A mutant that makes a game hang is stopped after 8 x (its tests' recorded time
        # + 1 s) of wall clock; mutmut's default of 15 spends minutes on each hang.
        "timeout_multiplier": 8.0,
        # The tests' own data files change with the tests: mutmut need not re-run all.
        "on_dependency_change": "ignore",
        "use_git_change_detection": False,
    }
    body = "".join(f"{key} = {json.dumps(value)}\n" for key, value in config.items())
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    new = text + "\n[tool.mutmut]\n" + body
    target = work / "pyproject.toml"
    if not target.exists() or target.read_text(encoding="utf-8") != new:
        target.write_text(new, encoding="utf-8")
    return work


def run(game: str, work: Path, jobs: int, minutes: float | None, games: int, examples: int,
        names: list[str] = ()) -> float:
    """``mutmut run`` in the game's folder (stopped after ``minutes``); seconds taken."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    # The property tests would start a process per core for each mutant: one is enough.
    env.update(COMPANION_PROPERTY_WORKERS="1", COMPANION_QLANET_WORKERS="1")
    # Each random-game test plays ``games`` games, not the default suite's thousands: a
    # surviving mutant runs every test that reaches it, and under mutmut's trampolines
    # the default count costs minutes per survivor.
    env.update({var: str(games) for var in GAME_COUNTS})
    env["COMPANION_MUTATION_EXAMPLES"] = str(examples)
    mutmut = Path(sys.executable).with_name("mutmut")
    cmd = [str(mutmut) if mutmut.exists() else "mutmut", "run", "--max-children", str(jobs),
           *names]
    log = open(work / "mutmut.log", "a", encoding="utf-8")
    t0 = time.perf_counter()
    # SIGINT stops mutmut cleanly (it keeps its verdicts): a shell's background job
    # starts with SIGINT ignored, so give mutmut the default back.
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        proc.wait(timeout=None if minutes is None else minutes * 60)
    except subprocess.TimeoutExpired:
        print(f"  [{game}] stopped after {minutes:g} minutes; the next run resumes", flush=True)
        os.killpg(proc.pid, signal.SIGINT)  # mutmut keeps the verdicts so far
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    finally:
        log.close()
    return time.perf_counter() - t0


def verdicts(game: str) -> dict[str, str]:
    """Every mutant of the game's rule modules and its status."""
    out = {}
    for name in GAMES[game]["mutate"]:
        meta = WORK / game / "mutants" / "companion" / "games" / game / f"{name}.meta"
        if meta.exists():
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            out.update({k: STATUS.get(v, "suspicious") for k, v in codes.items()})
    return out


def timing(game: str) -> str:
    """What the tested mutants cost, and a projection for those not run yet: each one
    costs either a killed mutant's mean time or, at the survivors' rate so far, every
    test that reaches its function (their times as recorded, which is slower than a
    mutant's run: the projection leans high)."""
    spent, by_verdict, left = 0.0, {}, []
    try:
        stats = json.loads((WORK / game / "mutants" / "mutmut-stats.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stats = {}
    recorded = stats.get("duration_by_test", {})
    tests_of = stats.get("tests_by_mangled_function_name", {})
    for name in GAMES[game]["mutate"]:
        meta = WORK / game / "mutants" / "companion" / "games" / game / f"{name}.meta"
        if not meta.exists():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        took = data.get("durations_by_key", {})
        for key, code in data["exit_code_by_key"].items():
            verdict = STATUS.get(code, "suspicious")
            if verdict == "not run":
                function = key.rsplit("__mutmut_", 1)[0]
                left.append(sum(recorded.get(t, 0.0) for t in tests_of.get(function, ())))
            elif key in took:
                spent += took[key]
                by_verdict.setdefault(verdict, []).append(took[key])
    mean = {v: sum(t) / len(t) for v, t in by_verdict.items()}
    tested = sum(len(t) for t in by_verdict.values())
    rate = len(by_verdict.get("survived", ())) / tested if tested else 0.0
    projected = sum(rate * e + (1 - rate) * mean.get("killed", 0.0) for e in left)
    return (f"{game:10} {spent / 60:.0f} min of tests for {tested} mutants (killed "
            f"{mean.get('killed', 0):.1f} s, survived {mean.get('survived', 0):.1f} s, timed out "
            f"{mean.get('timeout', 0):.1f} s on average); {len(left)} not run: about "
            f"{projected / 3600:.1f} h of one job at the survivors' rate so far ({100 * rate:.1f}%)")


def equivalents(path: Path = EQUIVALENT) -> dict[str, str]:
    """``name : why`` lines (``#`` comments and blank lines skipped)."""
    out = {}
    if path.exists():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, why = line.partition(" : ")
            if not sep or not why.strip() or " " in name.strip():
                raise ValueError(f"{path.name}:{n}: expected 'mutant.name : why it changes no rule'")
            out[name.strip()] = why.strip()
    return out


def diff(game: str, name: str) -> str:
    """mutmut's diff of one mutant (for the report of survivors)."""
    mutmut = Path(sys.executable).with_name("mutmut")
    proc = subprocess.run([str(mutmut) if mutmut.exists() else "mutmut", "show", name],
                          cwd=WORK / game, capture_output=True, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if re.match(r"[-+](?![-+])", ln)]
    return "\n".join(lines)


def summary(game: str, seconds: float | None = None) -> tuple[dict[str, int], list[str], list[str]]:
    """Counts, survivors not yet explained, and equivalence entries gone stale."""
    got = verdicts(game)
    eq = {k: v for k, v in equivalents().items() if k.startswith(f"companion.games.{game}.")}
    counts = Counter(got.values())
    survivors = sorted(k for k, v in got.items() if v == "survived")
    counts["equivalent"] = sum(1 for k in survivors if k in eq)
    unexplained = [k for k in survivors if k not in eq]
    # (a mutant not tested yet is neither: a partial run keeps its entries)
    stale = sorted(k for k in eq if got.get(k, "gone") not in ("survived", "not run"))
    counts["total"] = len(got)
    return counts, unexplained, stale


def unreached(game: str) -> list[str]:
    """Mutants no test reached (worth a new run once a test reaches their function)."""
    return sorted(k for k, v in verdicts(game).items() if v == "no tests")


def scores(counts: dict[str, int]) -> tuple[float, float]:
    """(raw, after triage) in percent. A mutant no test reached counts as tested and
    not caught: the function it bends is never run by the game's tests."""
    caught = counts["killed"] + counts["timeout"]
    tested = caught + counts["survived"] + counts["suspicious"] + counts["no tests"]
    judged = tested - counts["equivalent"]
    return (100.0 * caught / tested if tested else 0.0,
            100.0 * caught / judged if judged else 0.0)


def score_line(game: str, counts: dict[str, int]) -> str:
    raw, after = scores(counts)
    return (f"{game:10} {counts['total']:5} mutants: {counts['killed']} killed, "
            f"{counts['timeout']} timed out, {counts['survived']} survived "
            f"({counts['equivalent']} equivalent), {counts['suspicious']} suspicious, "
            f"{counts['no tests']} reached by no test, {counts['not run']} not run yet; "
            f"score {raw:.1f}% raw, {after:.1f}% after triage")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="only this game (repeatable; default: qno, qlanet, entanglion)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants at a time (default 2)")
    parser.add_argument("--games", type=int, default=100,
                        help="random games per property test for each mutant (default 100)")
    parser.add_argument("--examples", type=int, default=50,
                        help="examples per hypothesis test for each mutant (default 50)")
    parser.add_argument("--minutes", type=float,
                        help="stop each game's run after this long (it resumes next time)")
    parser.add_argument("--only", action="append", default=[], metavar="PATTERN",
                        help="only the mutants whose names match (mutmut's wildcards, e.g. "
                        "'companion.games.entanglion.engine.*'; repeatable), tested again "
                        "even if they have a verdict")
    parser.add_argument("--retest", action="store_true",
                        help="run only the unexplained survivors and the mutants no test "
                        "reached again (after new tests)")
    parser.add_argument("--report-only", action="store_true",
                        help="do not run: report what the working folders hold")
    parser.add_argument("--survivors", action="store_true",
                        help="print each unexplained survivor's diff")
    args = parser.parse_args(argv)
    try:
        equivalents()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    games = args.game or list(GAMES)
    worst = 100.0
    for game in games:
        if not args.report_only:
            work = prepare(game)
            print(f"[{game}] mutmut in {work.relative_to(ROOT)} (log: mutmut.log)", flush=True)
            names = summary(game)[1] + unreached(game) if args.retest else args.only
            if args.retest and not names:
                print(f"[{game}] no unexplained survivors to test again")
                continue
            seconds = run(game, work, args.jobs, args.minutes, args.games, args.examples, names)
            print(f"  [{game}] {seconds / 60:.1f} minutes", flush=True)
        counts, unexplained, stale = summary(game)
        print(score_line(game, counts), flush=True)
        print(timing(game), flush=True)
        for name in unexplained:
            print(f"  survived: {name}")
            if args.survivors:
                print("    " + diff(game, name).replace("\n", "\n    "))
        for name in stale:
            print(f"  listed as equivalent but not a survivor now: {name}")
        worst = min(worst, scores(counts)[1])
    return 0 if worst >= 95.0 else 1


if __name__ == "__main__":
    sys.exit(main())
