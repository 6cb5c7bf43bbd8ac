"""The ``skat`` command line: :func:`main` and :func:`build_parser`.

Commands, one module per group: ``deal``, ``replay``, ``random-games`` (:mod:`.deal`);
``play``, ``serve`` (:mod:`.play`); ``bench KIND`` (:mod:`.bench`); ``tournament``
(:mod:`.tournament`); ``tournament-compare`` (:mod:`.compare`); ``tournament-breakdown``
(:mod:`.breakdown`); ``train KIND`` (:mod:`.train`); ``report KIND`` (:mod:`.report`). Every
command has ``--help``. Every random choice comes from a seed; when none is given one is drawn
and printed, so any run can be repeated.

Bad input never ends in a traceback: every option is checked before any work starts (argparse
types, the check that no output overwrites another output or an input, and each command's
``check``, see :mod:`.checks`), and a bad one ends the command with
exit status 2 and one line on stderr naming the option and what it accepts. A
:class:`skat.SkatError` or ``OSError`` that still escapes a command ends it with one line and
exit status 1; Ctrl-C that no command handles itself (while players are built, in a watched
game) with one line and exit status 130.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from skat import __version__
from skat._core import SkatError
from skat.cli import (
    analyze,
    bench,
    breakdown,
    compare,
    deal,
    play,
    report,
    research,
    tables,
    tournament,
    tournament_table,
    train,
)
from skat.cli.checks import ArgumentParser, OptionError, UsageError, check_paths

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command (each subparser's ``func`` runs it, ``check`` checks it)."""
    p = ArgumentParser(prog="skat", description="An expert-level computer Skat player.")
    p.add_argument("--version", action="version", version=f"skat {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    deal.add_commands(sub)
    analyze.add_commands(sub)
    play.add_commands(sub)
    bench.add_commands(sub)
    tournament.add_commands(sub)
    tournament_table.add_commands(sub)
    compare.add_commands(sub)
    breakdown.add_commands(sub)
    train.add_commands(sub)
    report.add_commands(sub)
    research.add_commands(sub)
    tables.add_commands(sub)
    return p


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _command(args: argparse.Namespace) -> str:
    """The command's name for its error line: ``skat train bidding``, ``skat deal``."""
    words = (getattr(args, dest, None) for dest in ("command", "kind", "what"))
    return " ".join(["skat", *(w for w in words if isinstance(w, str))])


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status.

    ``--help`` and ``--version`` exit through ``SystemExit(0)`` as argparse does.
    """
    command = "skat"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = _command(args)
        func: Callable[[argparse.Namespace, Console], int] | None = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return 0
        check_paths(parser, args)
        check: Callable[[argparse.Namespace], None] | None = getattr(args, "check", None)
        if check is not None:
            check(args)
        return func(args, Console())
    except UsageError as e:
        print(_one_line(str(e)), file=sys.stderr)
        return 2
    except OptionError as e:
        print(f"{command}: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except (SkatError, OSError) as e:
        print(f"{command}: error: {_one_line(str(e)) or type(e).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{command}: interrupted", file=sys.stderr)
        return 130
