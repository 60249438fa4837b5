"""Copied by bench/mutation.py to the root of each game's mutmut folder as conftest.py.

mutmut hands a mutant's tests to pytest as a set, so their order is arbitrary and a
100-game property test can run before the rules test that fails in milliseconds. With
``-x`` the first failure ends the run: run the quickest tests first (the durations
mutmut recorded when it learned which tests reach which function).

Like the random-game property tests' ``--games``, the hypothesis tests try at most
``COMPANION_MUTATION_EXAMPLES`` examples each (``--examples``) instead of their hundreds."""

import json
import os
import signal
from pathlib import Path

import pytest

# A test that runs HANG_FACTOR times its recorded time plus HANG_GRACE seconds of CPU
# under a mutant has hung: the process ends with mutmut's own timeout code. mutmut
# itself only stops a mutant after 8 x the recorded time of ALL its tests, which spent
# over 5 minutes on each hang of a function every test reaches; the first test that
# meets the hang is one of the quickest, so this stops it in seconds. CPU time, not wall
# clock, so a loaded machine does not turn a slow survivor into a "hang".
HANG_FACTOR = 10
HANG_GRACE = 2.0
MUTMUT_TIMEOUT = 36  # the exit code mutmut (and bench/mutation.py) read as a timeout
_durations: dict[str, float] = {}


def pytest_collection_modifyitems(session, config, items):
    _cap_examples(items)
    try:
        durations = json.loads(Path("mutmut-stats.json").read_text(encoding="utf-8"))["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return  # the recording run itself: nothing measured yet
    _durations.update(durations)
    items.sort(key=lambda item: durations.get(item.nodeid, 0.0))


def _hung(signum, frame):
    os._exit(MUTMUT_TIMEOUT)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    recorded = _durations.get(item.nodeid)
    # Only while a mutant is tested (not while recording, nor for the unchanged code).
    if recorded is None or "__mutmut_" not in os.environ.get("MUTANT_UNDER_TEST", ""):
        yield
        return
    previous = signal.signal(signal.SIGPROF, _hung)
    signal.setitimer(signal.ITIMER_PROF, HANG_FACTOR * recorded + HANG_GRACE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _cap_examples(items):
    cap = int(os.environ.get("COMPANION_MUTATION_EXAMPLES", "0"))
    if cap <= 0:
        return
    from hypothesis import settings
    for item in items:
        test = getattr(item, "obj", None)
        # Where @settings keeps a test's own settings; hypothesis reads it at each call.
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > cap:
            test._hypothesis_internal_use_settings = settings(own, max_examples=cap)


# Memo tables an engine fills as it plays, and the board's navigation tables (built on
# first use), are emptied before every test: a mutant's process is forked from one that
# has played the unchanged code, and would read its answers instead of running the
# mutant; and while mutmut records which tests reach which function, only the test that
# first fills a table would be recorded as reaching the code that builds it (the board's
# _compute was mapped to two tests, neither of which looks at most of its squares).
CACHES = {"companion.games.entanglion.engine": ("_SHARED_ACTIONS", "_CARD_ACTIONS"),
          "companion.games.entanglion.board": ("NAVIGATION",)}


def pytest_runtest_setup(item):
    import sys
    for module, names in CACHES.items():
        for name in names:
            getattr(sys.modules.get(module), name, {}).clear()


def pytest_configure(config):
    # While mutmut records which tests reach which function, a test's subprocess (the CLI,
    # the simulator) inherits MUTANT_UNDER_TEST=stats and records too, into a process
    # nobody reads, many times slower: Entanglion's `games show --analysis` then ran
    # past its 120 s and the recording stopped. This process keeps recording (mutmut
    # also holds the mode in memory); its subprocesses run the unchanged code. While a
    # mutant is tested the variable names the mutant and is left alone, so subprocesses
    # run the mutant too.
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        del os.environ["MUTANT_UNDER_TEST"]
    # A mutant that loops while appending (an index set instead of stepped) would eat
    # the machine's memory before mutmut's CPU limit stops it: cap each process at 3 GiB.
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = 3 << 30
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass
