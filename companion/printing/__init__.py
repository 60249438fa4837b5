"""Print-and-play card sheets: ``python -m companion.printing GAME --out DIR``.

Writes 300 dpi sheets (PDF and/or one PNG per page, A4 and/or Letter) of every card
of a game, nine poker-size cards a page with cut marks, each card numbered ("17/112")
and marked where its NFC sticker goes, plus ``GAME-registry-template.json``: the
cards in printed order, for enrolment. See :mod:`companion.printing.sheet`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import DEFAULT, LANGUAGES, language, set_language

GAMES = ("qno", "qlanet")
PAPER_CHOICES = {"a4": ("a4",), "letter": ("letter",), "both": ("a4", "letter")}
FORMAT_CHOICES = {"pdf": ("pdf",), "png": ("png",), "both": ("pdf", "png")}
EXIT_BAD_OUT = 2


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog or "python -m companion.printing",
        description="Print-and-play sheets (300 dpi, nine 63 x 88 mm cards a page) of a "
                    "game's cards, and a registry template listing them in printed order.")
    parser.add_argument("game", metavar="GAME", choices=GAMES, help="one of: " + ", ".join(GAMES))
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="folder to write into (made if missing)")
    parser.add_argument("--paper", choices=tuple(PAPER_CHOICES), default="both",
                        help="paper size (default: both)")
    parser.add_argument("--format", choices=tuple(FORMAT_CHOICES), default="pdf",
                        help="pdf (one multi-page file), png (one file a page) or both "
                             "(default: pdf)")
    parser.add_argument("--tokens", action="store_true",
                        help="qlanet: add a page of the nine round planet tokens")
    parser.add_argument("--lang", metavar="CODE", choices=tuple(LANGUAGES), default=DEFAULT,
                        help="language of the words on the cards: "
                             + ", ".join(LANGUAGES) + f" (default: {DEFAULT})")
    return parser


def make_deck(game: str, tokens: bool = False):
    """The :class:`~companion.printing.sheet.Deck` of ``game``."""
    if game == "qno":
        from . import qno

        return qno.make_deck()
    if game == "qlanet":
        from . import qlanet

        return qlanet.make_deck(tokens)
    raise ValueError(f"no printable cards for {game!r}")


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Run the command; returns the exit status (2 for bad arguments or a bad --out)."""
    parser = build_parser(prog)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage line
        return exc.code if isinstance(exc.code, int) else 2
    if args.tokens and args.game != "qlanet":
        print(f"{parser.prog}: error: --tokens is for qlanet only", file=sys.stderr)
        return 2
    from . import sheet

    deck = make_deck(args.game, args.tokens)
    previous = language()
    set_language(args.lang)  # the faces are drawn while writing, in this language
    try:
        sheet.write(deck, Path(args.out), PAPER_CHOICES[args.paper], FORMAT_CHOICES[args.format])
    except sheet.OutError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_OUT
    except OSError as exc:
        where = exc.filename or args.out
        print(f"{parser.prog}: error: cannot write {where}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_BAD_OUT
    finally:
        set_language(previous)
    return 0
