"""``skat research bcd``: Fig. 9.1 of the solver thesis, the exploitability of PIMC (R0) and its
recursions R1 .. Rk (IIMC) on Long et al.'s BCD synthetic trees, over a corr x bias x dis grid.

The computation is :mod:`skat.research.bcd_grid` (exact policies and best responses per tree,
:mod:`skat.research.bcd`); this module checks the options, shows progress, prints the per-dis
summary and writes the JSON and the heatmaps.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_json

HELP = f"""\
Exploitability of R0 (PIMC) and R1 .. Rk (IIMC with the level below as playout player) on
synthetic BCD trees (height --height, --worlds x --worlds worlds at the root chance node),
--trees trees per cell of the grid --corr x --bias x --dis. Every policy and both seats' best
responses are computed exactly on every tree; exploitability is the sum of both seats' best
response gains, 0..4. Prints, per dis, the mean over the cells and the number of cells where R1
is significantly more (less) exploitable than R0; --json writes every cell, --plot heatmaps in
the manner of Fig. 9.1. --equilibrium also solves every tree with CFR+ (to exploitability
{defaults.SYNTHETIC_TOLERANCE:g}) and reports each level's payoff against that equilibrium,
the mean of both seats (the Kermit thesis's chapter 5 measure; about 0.3 s a tree at height 8,
8 worlds). The result does not depend on --workers. The default grid
({len(defaults.BCD_CORR)} x {len(defaults.BCD_BIAS)} x {len(defaults.BCD_DIS)} cells, \
{defaults.BCD_TREES} trees each) takes 10 to 20 CPU minutes.
"""


def _numbers(values: tuple[float, ...]) -> str:
    return ",".join(f"{v:g}" for v in values)


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.bcd_grid import grid, run_grid

    cells = grid(args.corr, args.bias, args.dis)
    total = len(cells) * args.trees
    console.print(
        f"{len(cells)} cells x {args.trees} trees, R0..R{args.levels}, height {args.height},"
        f" {args.worlds}x{args.worlds} worlds (seed {args.seed}, {checks.workers_text(args)})"
    )
    start = time.time()
    with progress_task(console, "trees", total) as progress:
        result = run_grid(
            cells,
            args.trees,
            args.seed,
            levels=args.levels,
            worlds=args.worlds,
            height=args.height,
            workers=args.workers,
            ray=args.ray,
            progress=progress,
            equilibrium=args.equilibrium,
        )
    seconds = time.time() - start
    result["meta"]["seconds"] = round(seconds, 1)
    result["meta"]["command"] = checks.command_line()
    t = Table(title=f"mean exploitability over the corr x bias cells ({seconds:.0f} s)")
    t.add_column("dis", justify="right")
    for k in range(args.levels + 1):
        t.add_column(f"R{k}", justify="right")
    if args.levels:
        t.add_column("cells R1 > R0", justify="right")
        t.add_column("cells R1 < R0", justify="right")
    for row in result["by_dis"]:
        extra = [str(row["r1_above_r0"]), str(row["r1_below_r0"])] if args.levels else []
        t.add_row(f"{row['dis']:g}", *(f"{v:.3f}" for v in row["exploitability"]), *extra)
    console.print(t)
    if args.equilibrium:
        v = Table(title="mean payoff against CFR+'s equilibrium over the corr x bias cells")
        v.add_column("dis", justify="right")
        for k in range(args.levels + 1):
            v.add_column(f"R{k}", justify="right")
        for row in result["by_dis"]:
            v.add_row(f"{row['dis']:g}", *(f"{x:+.4f}" for x in row["versus_equilibrium"]))
        console.print(v)
    save_json(args.json, result)
    if args.plot:
        from skat.research.bcd_plot import plot_heatmaps

        plot_heatmaps(result, args.plot)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research bcd``."""
    from skat.research.bcd import HEIGHT_MAX, WORLDS_MAX

    b = kinds.add_parser(
        "bcd",
        help="PIMC and recursive PIMC on BCD synthetic trees (solver thesis Fig. 9.1)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    b.add_argument("--json", metavar="FILE", type=checks.out_file, help="write every cell here")
    b.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write heatmaps here")
    b.add_argument(
        "--trees",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.BCD_TREES,
        help=f"trees per cell (default: {defaults.BCD_TREES})",
    )
    b.add_argument(
        "--levels",
        type=checks.integer(0, 16),
        default=defaults.BCD_LEVELS,
        help=f"recursion levels after R0, 0..16 (default: {defaults.BCD_LEVELS})",
    )
    for name, values in (
        ("corr", defaults.BCD_CORR),
        ("bias", defaults.BCD_BIAS),
        ("dis", defaults.BCD_DIS),
    ):
        b.add_argument(
            f"--{name}",
            type=checks.unit_list,
            default=list(values),
            metavar="X,Y,...",
            help=f"{name} values in 0..1 (default: {_numbers(values)})",
        )
    b.add_argument(
        "--height",
        type=checks.integer(1, HEIGHT_MAX),
        default=defaults.BCD_HEIGHT,
        help=f"plies below the chance node, 1..{HEIGHT_MAX} (default: {defaults.BCD_HEIGHT})",
    )
    b.add_argument(
        "--worlds",
        type=checks.integer(1, WORLDS_MAX),
        default=defaults.BCD_WORLDS,
        help=f"worlds per player, a power of two up to {WORLDS_MAX}"
        f" (default: {defaults.BCD_WORLDS})",
    )
    b.add_argument(
        "--equilibrium",
        action="store_true",
        help="also score every level against CFR+'s equilibrium of each tree",
    )
    b.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.BCD_SEED,
        help=f"tree seed, 0..2**64-1 (default: {defaults.BCD_SEED})",
    )
    checks.add_parallel_options(b)
    b.set_defaults(func=run, check=check)


def check(args: argparse.Namespace) -> None:
    from skat.cli.checks import OptionError

    if args.worlds & (args.worlds - 1):
        raise OptionError("--worlds", f"expected a power of two, got {args.worlds}")
