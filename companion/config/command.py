"""``python -m companion.config``: check a file, or print the commented defaults."""

from __future__ import annotations

import argparse
import sys

from .loading import load
from .schema import DEFAULT_PATH
from .skeleton import dumps_defaults
from .values import ConfigError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.config",
        description="Check a config file, or print the commented defaults.")
    parser.add_argument("command", choices=("check", "defaults"))
    parser.add_argument("path", nargs="?",
                        help=f"the file to check (default: {DEFAULT_PATH} if it exists)")
    args = parser.parse_args(argv)
    if args.command == "defaults":
        if args.path is not None:
            parser.error("defaults takes no path")
        sys.stdout.write(dumps_defaults())
        return 0
    try:
        config = load(args.path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2  # the exit status the design gives a bad config file
    print(f"{config.path}: ok" if config.path else f"no {DEFAULT_PATH}: using the defaults")
    return 0
