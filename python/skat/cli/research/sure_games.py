"""``skat research sure-games``: how often paranoid search proves a hand game sure in bidding.

The computation is :func:`skat.research.sure_games.survey`; this module checks the options,
shows progress, prints the table and writes ``--json``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_json

HELP = """\
For every seat of --deals random deals, the kermit bidder's paranoid test at the lowest bid:
null always, a suit or grand game when it is the learned best hand game with a win
probability of at least 0.9, each search cut off after --budget nodes. Prints the sure games
found by contract and the time per hand; writes --json.
"""


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.sure_games import survey

    seed = checks.draw_seed(args.seed, console)
    with progress_task(console, "deals", args.deals) as progress:
        result = survey(args.deals, seed, args.budget, progress=progress)
    t = Table(title=f"sure hand games in {result['hands']} hands (seed {seed})")
    t.add_column("contract")
    t.add_column("hands", justify="right")
    for contract, n in result["sure"].items():
        t.add_row(contract, str(n))
    if not result["sure"]:
        t.add_row("none", "0")
    console.print(t)
    s = result["seconds"]
    console.print(
        f"seconds per hand: mean {s['mean']:.4f}, median {s['median']:.4f},"
        f" 99th percentile {s['p99']:.3f}, max {s['max']:.3f}"
    )
    save_json(args.json, result)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research sure-games``."""
    k = kinds.add_parser(
        "sure-games",
        help="how often paranoid search proves a hand game sure in bidding, and its cost",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SURE_GAMES_DEALS,
        help=f"random deals (three hands each; default: {defaults.SURE_GAMES_DEALS})",
    )
    k.add_argument(
        "--budget",
        type=checks.integer(1, 2**64 - 1),
        default=defaults.PARANOID_BID_NODES,
        help=f"search nodes per test (default: {defaults.PARANOID_BID_NODES})",
    )
    k.add_argument("--seed", type=checks.seed, help="seed, 0..2**64-1 (default: drawn and printed)")
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the survey")
    k.set_defaults(func=run)
