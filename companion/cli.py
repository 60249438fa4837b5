"""The ``companion`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import parsing, scenario
from .games.common import GAMES
from .i18n import LANGUAGES


def _load_scenario(source: str) -> dict:
    """A scenario file (or - for standard input), loaded; OSError or MalformedScenario."""
    raw = parsing.read_limited(sys.stdin.buffer if source == "-" else source,
                               parsing.SCENARIO_LIMIT, source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise scenario.MalformedScenario(f"{source} line {line}: not UTF-8 text") from None
    return scenario.load(text, source)


def _from_file(command: str, source: str, work: Callable[[], Any]) -> Any:
    """``work()`` on the scenario file ``source``, or None after one line on stderr when
    the file cannot be read or is malformed (the caller exits with EXIT_MALFORMED)."""
    try:
        return work()
    except OSError as exc:
        print(f"companion {command}: cannot read {source}: {exc.strerror}", file=sys.stderr)
    except (scenario.MalformedScenario, parsing.TooLarge) as exc:
        print(f"companion {command}: {exc}", file=sys.stderr)
    return None


def _scenario(args: argparse.Namespace) -> int:
    source = args.file
    ran = _from_file("scenario", source, lambda: scenario.run(_load_scenario(source), source))
    if ran is None:
        return scenario.EXIT_MALFORMED
    status, result = ran
    if args.text and result["game"] == "qlanet":
        print("companion scenario: --text narrates Entanglion and QNO games; a QLANET game "
              "prints as JSON (leave out --text)", file=sys.stderr)
        return scenario.EXIT_MALFORMED
    if args.text and result["game"] == "qno":
        from .games.qno.explain import narrate

        for line in narrate(result):
            print(line)
    elif args.text:
        from .games.entanglion.explain import narrate

        for line in narrate(result["log"]):
            print(line)
        if result["pending"]:
            p = result["pending"]
            print(f"Waiting for {p['player'].capitalize()} to choose ({p['kind']}): "
                  f"{json.dumps(p['options'])}")
    else:
        json.dump(result, sys.stdout, indent=None if args.compact else 2, ensure_ascii=False)
        sys.stdout.write("\n")
    if result["error"]:
        print(f"companion scenario: action {result['error']['index']} is illegal: "
              f"{result['error']['reason']}", file=sys.stderr)
    return status


def _hint(args: argparse.Namespace) -> int:
    from .games.entanglion import hint

    source = args.file

    def play() -> tuple[Any, Any]:
        data = _load_scenario(source)
        if data.get("game", "entanglion") != "entanglion":
            raise scenario.MalformedScenario(f"{source}: hints are for Entanglion games, "
                                             f"not {data['game']}")
        return scenario.play(data, source)

    played = _from_file("hint", source, play)
    if played is None:
        return scenario.EXIT_MALFORMED
    game, error = played
    if error:
        print(f"companion hint: action {error['index']} is illegal: {error['reason']}",
              file=sys.stderr)
        return scenario.EXIT_ILLEGAL
    budget = args.budget
    if budget is None:  # thinking time on this machine, at the rate the box measured here
        from . import hintrate
        from .sim import default_state_dir

        rate = hintrate.here(Path(args.state_dir or default_state_dir()))
        budget = hint.budget_for_ms(args.budget_ms or hint.DEFAULT_BUDGET_MS, rate)
    found = hint.hints(game, budget, args.seed)
    json.dump({"hints": found, "budget": budget}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _rules(args: argparse.Namespace) -> int:
    import importlib

    print(importlib.import_module(f"companion.games.{args.game}.options").describe())
    return 0


def _sim(args: argparse.Namespace) -> int:
    from . import sim

    return sim.main(args)


def _journal_path(args: argparse.Namespace, prog: str) -> str | None:
    """The journal of ``--state-dir`` (or the default), or None after saying it is not there."""
    from .sim import default_state_dir

    path = os.path.join(args.state_dir or default_state_dir(), "journal.db")
    if not os.path.exists(path):
        print(f"{prog}: no journal at {path} (no game played yet)", file=sys.stderr)
        return None
    return path


def _games(args: argparse.Namespace) -> int:
    from .journal import Journal, JournalError

    path = _journal_path(args, "companion games")
    if path is None:
        return 2
    try:
        # Read-only: it works beside a running box and never changes its journal.
        with Journal(path, readonly=True) as journal:
            if args.action == "export":
                return _export(journal, args.id, args.qasm)
            if args.action == "show":
                status = _show(journal, args.id)
                if status == 0 and args.analysis:
                    return _analysis(journal, args.id, Path(path).parent)
                return status
            rows = journal.games()
            stories = {g.id: _story(journal, g.id) for g in rows}
    except JournalError as exc:
        print(f"companion games: {exc}", file=sys.stderr)
        return 2
    print(f"{'id':>4}  {'date':16}  {'game':10}  {'result':9}  {'turns':>5}  {'inputs':>6}  story")
    for g in rows:
        date = _date(g.created)
        told = stories[g.id]
        line = _story_module(g.game).line(told) if told else "(does not replay)"
        print(f"{g.id:>4}  {date:16}  {g.game:10}  {g.status:9}  {g.turns:>5}  {g.inputs:>6}  "
              f"{line}")
    return 0


def _story_module(game: str):
    import importlib

    return importlib.import_module(f"companion.games.{game}.story")


def _story(journal, game_id: int) -> dict | None:
    """The story of a journal game (replayed), or None if it no longer replays."""
    from . import records
    from .journal import JournalError

    try:
        return records.story(journal.load(game_id))
    except JournalError:  # a damaged game: listed (and reported by doctor), not told
        return None


def _show(journal, game_id: int | None) -> int:
    """The whole story of one game."""
    if game_id is None:
        print("companion games show: which game? (an id from 'companion games')",
              file=sys.stderr)
        return 2
    record = journal.load(game_id)
    told = _story(journal, game_id)
    date = _date(record.created)
    print(f"Game #{record.id}: {record.game}, started {date}")
    if told is None:
        print(f"companion games show: game #{game_id} does not replay with this version "
              "('companion games export' still prints its inputs)", file=sys.stderr)
        return 2
    for line in _story_module(record.game).text(told):
        print(line)
    return 0


def _analysis(journal, game_id: int, state_dir: Path) -> int:
    """``games show ID --analysis``: the box's analysis after the game, or (none kept
    yet) worked out now the same way; read-only, like the rest of the command."""
    from .analyses import FILE, Analyses
    from .games.entanglion.analysis import analyse
    from .games.entanglion.story import analysis_text
    from .journal import Journal

    record = journal.load(game_id)
    if record.game != "entanglion":
        print(f"companion games show: the analysis is for Entanglion games; #{game_id} is "
              f"{record.game}", file=sys.stderr)
        return 2
    found = Analyses(state_dir / FILE).get(game_id)
    if found is None:
        print("(no analysis kept by the box yet: worked out now)")
        found = analyse(record.seed, record.options, record.setup,
                        Journal.effective_inputs(record.entries))
    for line in analysis_text(found):
        print(line)
    return 0


def _stats(args: argparse.Namespace) -> int:
    """Every game of the journal summed up, per kind of game."""
    from .games.common import GAMES
    from .journal import Journal, JournalError

    path = _journal_path(args, "companion stats")
    if path is None:
        return 2
    try:
        with Journal(path, readonly=True) as journal:
            stories = [s for g in journal.games() if (s := _story(journal, g.id))]
    except JournalError as exc:
        print(f"companion stats: {exc}", file=sys.stderr)
        return 2
    if not stories:
        print("No games yet.")
        return 0
    for game in GAMES:
        mine = [s for s in stories if s["game"] == game]
        if mine:
            for line in _story_module(game).aggregate(mine):
                print(line)
    return 0


def _date(created: float) -> str:
    from . import records

    return records.date(created)


def _export(journal, game_id: int | None, qasm: bool = False) -> int:
    """A finished or unfinished game as a scenario file: replayable, a bug report.
    ``qasm``: a QNO game's circuit as OpenQASM 2 instead."""
    from . import records

    if game_id is None:
        print("companion games export: which game? (an id from 'companion games')",
              file=sys.stderr)
        return 2
    record = journal.load(game_id)  # JournalError (no such game, damage): one line
    if qasm:
        if record.game != "qno":
            print(f"companion games export: game #{game_id} is {record.game}; only QNO "
                  "games have a circuit to export", file=sys.stderr)
            return 2
        sys.stdout.write(records.qasm(record))
        return 0
    json.dump(records.scenario(record), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def _int64(what: str, low: int, high: int = 2 ** 63 - 1):
    """An argparse type: a whole number that fits the journal's 64-bit integers."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}")
        if not low <= value <= high:
            top = "2^63-1" if high == 2 ** 63 - 1 else high
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {top}")
        return value
    return parse


def _cards(args: argparse.Namespace) -> int:
    from . import printing

    return printing.main(args.rest, prog="companion cards")


def _run(args: argparse.Namespace) -> int:
    from . import daemon

    return daemon.main(args.config)


def _room(args: argparse.Namespace) -> int:
    from . import room

    return room.main(args)


def _enroll(args: argparse.Namespace) -> int:
    from . import enroll

    return enroll.main(args.config, args.game)


def _selftest(args: argparse.Namespace) -> int:
    from . import selftest

    return selftest.main(args.config, args.seconds)


def _doctor(args: argparse.Namespace) -> int:
    from . import doctor

    if args.bench:
        return doctor.bench(args.config)
    return doctor.main(args.config)


def _firmware(args: argparse.Namespace) -> int:
    from . import firmware

    return firmware.main(args.action, args.config, args.device, args.source)


def _blank(args: argparse.Namespace) -> int:
    from . import config as configuration
    from .hardware.oled import blank_panels

    try:
        config = configuration.load(args.config)
    except configuration.ConfigError as exc:
        print(f"companion blank: {exc}", file=sys.stderr)
        return 2
    failures = blank_panels(config)
    for failure in failures:
        print(f"companion blank: {failure}", file=sys.stderr)
    return 1 if failures else 0


def _config_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE",
                   help="config file (default: /etc/companion/config.toml if present, "
                        "else the reference build)")


class _Skipped:
    """The parser of a command that was not given: its arguments are never read."""

    def __getattr__(self, name: str) -> Callable[..., _Skipped]:
        return lambda *args, **kwargs: self


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``command``, only that command's parser is built (each
    costs a fraction of a millisecond, all of them a few ms of every box's start), or
    all of them if it names none (so that the error lists them)."""
    parser = argparse.ArgumentParser(
        prog="companion", description="Raspberry Pi companion for Entanglion (and friends).")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser, names, built = sub.add_parser, [], []

    def add(name: str, **kwargs: Any) -> argparse.ArgumentParser | _Skipped:
        names.append(name)
        if command is not None and name != command:
            return _Skipped()
        built.append(name)
        return add_parser(name, **kwargs)

    sub.add_parser = add  # type: ignore[method-assign]
    p = sub.add_parser("scenario", help="play a JSON scenario and print the resulting state")
    p.add_argument("file", help="scenario file (- for standard input)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--compact", action="store_true", help="one-line JSON")
    out.add_argument("--text", action="store_true",
                     help="narrate the game in plain English instead of printing JSON")
    p.set_defaults(func=_scenario)
    p = sub.add_parser("hint", help="every legal Entanglion input of a scenario's position "
                                    "with its estimated chance to win, best first (JSON)")
    p.add_argument("file", help="scenario file (- for standard input)")
    think = p.add_mutually_exclusive_group()
    think.add_argument("--budget-ms", type=_int64("--budget-ms", 1, 600_000), metavar="N",
                       help="thinking time on this machine, at the search speed kept in the "
                            "state directory or measured now (default: the box's, just "
                            "under a second)")
    think.add_argument("--budget", type=_int64("--budget", 1, 10 ** 9), metavar="INPUTS",
                       help="work in engine inputs instead: the same seed and budget give "
                            "the same answer on any machine (the output names the budget)")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the box keeps its measured speed (default: the simulator's)")
    p.add_argument("--seed", type=_int64("--seed", -2 ** 63), default=0,
                   help="seed of the hint's own dice and deals (default 0)")
    p.set_defaults(func=_hint)
    p = sub.add_parser("rules", help="list the rule options (rulings) with their defaults")
    p.add_argument("--game", default="entanglion", choices=scenario.CHANCE)
    p.set_defaults(func=_rules)
    p = sub.add_parser("sim", help="the whole box in a terminal (or run a command script)")
    p.add_argument("--script", metavar="FILE", help="run commands from FILE (- for stdin)")
    p.add_argument("--frames", metavar="DIR",
                   help="write every OLED frame as a PNG and the LED frames as JSON lines")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the journal lives (default: ~/.local/share/companion)")
    p.add_argument("--registry", metavar="FILE", help="tag registry (default: one tag per card)")
    p.add_argument("--seed", type=_int64("--seed", 0),
                   help="seed every new game with this number")
    p.add_argument("--deck", choices=("virtual", "physical"), default="virtual")
    p.add_argument("--dice", choices=("auto", "manual"), default="auto")
    p.add_argument("--start-space", type=int, choices=(1, 2, 4), default=1)
    p.add_argument("--no-colour", action="store_true", help="letters instead of colours")
    p.add_argument("--lang", choices=tuple(LANGUAGES), metavar="CODE",
                   help="the language to speak (" + ", ".join(LANGUAGES) + "; default: the "
                        "one chosen in Settings, else English)")
    p.add_argument("--web", metavar="[HOST:]PORT",
                   help="also serve the box as a web page (host 127.0.0.1 by default)")
    p.set_defaults(func=_sim)
    p = sub.add_parser("games", help="list the games in the journal with their story, "
                                     "show one, or export one")
    p.add_argument("action", nargs="?", choices=("list", "show", "export"), default="list")
    p.add_argument("id", nargs="?", type=_int64("the game id", 1),
                   help="game id (for show and export)")
    p.add_argument("--qasm", action="store_true",
                   help="export a QNO game's circuit as OpenQASM 2 instead of a scenario")
    p.add_argument("--analysis", action="store_true",
                   help="with show: every decision of an Entanglion game weighed by the "
                        "hint's search, and the choice that cost most")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the journal lives (default: ~/.local/share/companion)")
    p.set_defaults(func=_games)
    p = sub.add_parser("stats", help="every game in the journal summed up: win rates by "
                                     "difficulty and options, turns, causes of loss")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the journal lives (default: ~/.local/share/companion)")
    p.set_defaults(func=_stats)
    p = sub.add_parser("run", help="the box on the Raspberry Pi (what the systemd service runs)")
    _config_arg(p)
    p.set_defaults(func=_run)
    p = sub.add_parser("room", help="the teacher's page for a room of tables on an MQTT "
                                    "broker: every table live, commands, the room's report")
    _config_arg(p)
    p.add_argument("--port", type=_int64("--port", 0, 65535), metavar="N",
                   help="serve the page on this port (default: [web] port; 0: any free one)")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the room keeps its records (default: ~/.local/share/companion)")
    p.add_argument("--no-analysis", action="store_true",
                   help="do not analyse the room's Entanglion games (no costliest choices)")
    p.set_defaults(func=_room)
    p = sub.add_parser("enroll", help="tag the cards: the OLED asks for each card in turn")
    _config_arg(p)
    p.add_argument("--game", default="entanglion", choices=GAMES,
                   help="whose cards to enrol")
    p.set_defaults(func=_enroll)
    p = sub.add_parser("cards", help="print-and-play card sheets (PDF/PNG, 300 dpi) and "
                                     "their registry template", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=_cards)
    p = sub.add_parser("selftest", help="LED chase, OLED test pattern, button and tag echo")
    _config_arg(p)
    p.add_argument("--seconds", type=float, default=60.0,
                   help="how long to echo inputs (hold BACK to stop sooner)")
    p.set_defaults(func=_selftest)
    p = sub.add_parser("doctor", help="check I2C, the OLED, readers, groups and pins; "
                                      "print a fix for each problem")
    _config_arg(p)
    p.add_argument("--bench", action="store_true",
                   help="instead, measure how fast this box searches hints (a few seconds)")
    p.set_defaults(func=_doctor)
    p = sub.add_parser("firmware", help="install the firmware shipped with this package on "
                                        "the Pico, or check the version it runs")
    p.add_argument("action", choices=("install", "check"))
    _config_arg(p)
    p.add_argument("--device", help="the Pico's serial port (default: link.device from the "
                                    "config, /dev/companion-io)")
    p.add_argument("--source", help="firmware folder (default: the copy shipped with this "
                                    "package)")
    p.set_defaults(func=_firmware)
    p = sub.add_parser("blank", help="switch every OLED off (run by companion-blank.service "
                                     "as the machine shuts down)")
    _config_arg(p)
    p.set_defaults(func=_blank)
    if not built:
        return build_parser()
    if command is not None:  # the usage line on an error names every command still
        sub.metavar = "{" + ",".join(names) + "}"
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (e.g. "| head"): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
