"""``skat tournament-table``: every candidate against two clones of every benchmark (the Kermit
thesis's Table 7.1), each cell a clones-mode tournament on the same deals.

The table is :func:`skat.tournament_table.run_table`; this module checks the options (every
spec is built once), shows progress, prints the table and writes ``--json``.
"""

from __future__ import annotations

import argparse
import os

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_json

TABLE_HELP = """\
Every candidate plays the same deals against two clones of every benchmark
player: whole games in the seatings ABB, BAB and BBA (A the candidate), deal
after deal, the same player objects throughout (skat tournament --mode clones),
so that modelling players (tracker, count) learn as they go. Each cell is
one process; cells run side by side in --workers processes (default: every
local core), or as Ray tasks with --ray.

Each cell shows, as the thesis's Table 7.1: row - col / row (se) / col (se), in
points per list of 36 games, row = the benchmark clones' mean, col = the
candidate, standard errors over deals.
"""

TABLE_EPILOG = """\
JSON (--json): candidates, benchmarks, deals, seed, seconds, workers, cells (per
cell: candidate, benchmark, row, row_se, col, col_se, row_minus_col,
row_minus_col_se, deals, col_by_deal: the candidate's points per list per deal,
tournament: the cell's 'skat tournament --json' report), paired (per benchmark,
each candidate minus the first, deal by deal: benchmark, candidate, against,
mean, stderr, ci95, deals).

example (Table 7.1 with our players):
  skat tournament-table --deals 2000 --seed 71 --workers 2 \\
    --candidates kermit tracker tracker:rm36=true count count:rm36=true \\
    --benchmarks mistake:rate=0.03 mistake:rate=0.1 mistake:rate=0.25 rules
"""


def check_table(args: argparse.Namespace) -> None:
    checks.check_specs("--candidates", args.candidates, range(1, 101))
    checks.check_specs("--benchmarks", args.benchmarks, range(1, 101))


def _se(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def cmd_table(args: argparse.Namespace, console: Console) -> int:
    from skat.tournament_table import run_table

    seed = checks.draw_seed(args.seed, console)
    if args.records_dir:
        os.makedirs(args.records_dir, exist_ok=True)
    cells = len(args.candidates) * len(args.benchmarks)
    with progress_task(console, "cells", cells) as progress:
        result = run_table(
            args.candidates,
            args.benchmarks,
            deals=args.deals,
            seed=seed,
            workers=args.workers,
            records_dir=args.records_dir,
            progress=progress,
            ray=args.ray,
        )
    table = Table(
        title=escape(
            f"row - col / row (se) / col (se), points per list; {args.deals} deals, seed {seed}"
            f" ({result.seconds:.0f} s)"
        )
    )
    table.add_column("benchmark \\ candidate", overflow="fold")
    for cand in result.candidates:
        table.add_column(escape(cand), justify="right", overflow="fold")
    for bench in result.benchmarks:
        row = [escape(bench)]
        for cand in result.candidates:
            c = result.cell(cand, bench)
            row.append(
                f"{c.row_minus_col:+.0f} ({_se(c.row_minus_col_se)})\n"
                f"{c.row:.0f} ({_se(c.row_se)}) / {c.col:.0f} ({_se(c.col_se)})"
            )
        table.add_row(*row)
    console.print(table)
    for p in result.paired():
        if p["mean"] is None:
            continue
        ci = p["ci95"]
        interval = f", 95% [{ci[0]:+.0f}, {ci[1]:+.0f}]" if ci else ""
        console.print(
            escape(
                f"against {p['benchmark']}: {p['candidate']} - {p['against']}"
                f" {p['mean']:+.1f} points per list{interval} ({p['deals']} deals, paired)"
            )
        )
    if args.json:
        save_json(args.json, result.as_dict())
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``tournament-table``."""
    t = sub.add_parser(
        "tournament-table",
        help="candidates against two clones of each benchmark (Kermit thesis Table 7.1)",
        description=TABLE_HELP,
        epilog=TABLE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument(
        "--candidates", nargs="+", required=True, metavar="SPEC", help="the column players"
    )
    t.add_argument(
        "--benchmarks", nargs="+", required=True, metavar="SPEC", help="the row players (cloned)"
    )
    t.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.TOURNAMENT_DEALS,
        help=f"deals per cell, 3 games each (default: {defaults.TOURNAMENT_DEALS})",
    )
    t.add_argument(
        "--seed",
        type=checks.seed,
        help="the deals' seed, 0..2**64-1, the same for every cell (default: drawn and printed)",
    )
    t.add_argument(
        "--workers",
        type=checks.integer(1, checks.WORKERS_MAX),
        default=None,
        help="cells played side by side, or the most Ray tasks at once (default: every local"
        " core, or every CPU of the Ray cluster)",
    )
    t.add_argument("--ray", metavar="ADDRESS", type=checks.ray_address, help=checks.RAY_HELP)
    t.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results as JSON")
    t.add_argument(
        "--records-dir",
        metavar="DIR",
        type=checks.out_dir,
        help="write each cell's games to DIR/cell-I-J.sgf (candidate I, benchmark J); DIR is"
        " made if its parent exists",
    )
    t.set_defaults(func=cmd_table, check=check_table)
