"""The ``companion`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import scenario


def _scenario(args: argparse.Namespace) -> int:
    source = args.file
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
        data = scenario.load(text, source)
        status, result = scenario.run(data, source)
    except OSError as exc:
        print(f"companion scenario: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return scenario.EXIT_MALFORMED
    except scenario.MalformedScenario as exc:
        print(f"companion scenario: {exc}", file=sys.stderr)
        return scenario.EXIT_MALFORMED
    if args.text:
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


def _rules(args: argparse.Namespace) -> int:
    from .games.entanglion.options import describe

    print(describe())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Raspberry Pi companion for Entanglion (and friends).")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("scenario", help="play a JSON scenario and print the resulting state")
    p.add_argument("file", help="scenario file (- for standard input)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--compact", action="store_true", help="one-line JSON")
    out.add_argument("--text", action="store_true",
                     help="narrate the game in plain English instead of printing JSON")
    p.set_defaults(func=_scenario)
    p = sub.add_parser("rules", help="list the rule options (rulings) with their defaults")
    p.set_defaults(func=_rules)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (e.g. "| head"): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
