"""Options and helpers shared by the ``skat bench`` subcommands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from rich.console import Console

from skat import defaults
from skat.cli import checks
from skat.display import progress_bar

R = TypeVar("R")


def repeated(console: Console, what: str, repeat: int, run: Callable[[int], R]) -> list[R]:
    """``run(i)`` for each of ``repeat`` runs, under a progress bar."""
    out: list[R] = []
    with progress_bar(console) as progress:
        task = progress.add_task(what, total=repeat)
        for i in range(repeat):
            out.append(run(i))
            progress.advance(task)
    return out


def common_options(p: argparse.ArgumentParser, repeat: int | None) -> None:
    """--seed, --json and (when ``repeat`` is given) --repeat, on every benchmark."""
    if repeat is not None:
        p.add_argument(
            "--repeat",
            type=checks.integer(1, 1000),
            default=repeat,
            help=f"timed runs, median reported (default: {repeat})",
        )
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.BENCH_SEED,
        help=f"seed, 0..2**64-1 (default: {defaults.BENCH_SEED})",
    )
    p.add_argument(
        "--json", metavar="FILE", type=checks.out_file, help="write the measurements as JSON"
    )


def count_option(
    p: argparse.ArgumentParser, name: str, default: int, what: str, most: int = checks.COUNT_MAX
) -> None:
    """A count option ``name`` (positions, deals, hands, games) of 1..``most`` described as
    ``what``."""
    p.add_argument(
        name,
        type=checks.integer(1, most),
        default=default,
        help=f"{what} (default: {default:,})",
    )
