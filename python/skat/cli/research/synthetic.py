"""``skat research synthetic``: PIMC and random play against an equilibrium on the thesis's
synthetic trees (Figs. 5.5-5.7), over grids of leaf correlation, bias and disambiguation."""

from __future__ import annotations

import argparse
import os
import time

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_json

HELP = """\
Random synthetic trees (section 5.4.1: one chance node dealing W private worlds to each player,
--depth alternating binary public moves, +-1 leaves in sibling pairs correlated with
probability lc, both +1 with probability b, information sets halved with probability df at
each move) on the grids of Figs. 5.5-5.7: panel a varies lc and b at df 0.3, panel b lc and
df at b 0.75, panel c b and df at lc 0.5, --steps points per axis (lc and df over 0..1, b over
0.5..1). Each tree is solved by CFR+ (to --tolerance) or by the sequence-form linear program
(--equilibrium lp), and PIMC (every consistent world) and uniformly random play are scored
exactly against that equilibrium, as player 1 and as player 2 (the mean is reported). Prints
the panels, writes --json and the three figures as PNG heatmaps in --plot DIR. Tree k of grid
point t is drawn from a seed derived from (--seed, t, k): the result does not depend on
--workers.
"""


def check(args: argparse.Namespace) -> None:
    if args.equilibrium == "lp":
        try:
            import scipy  # noqa: F401
        except ImportError as e:
            raise OptionError("--equilibrium", "'lp' needs scipy (pip install scipy)") from e
    if args.plot and not os.path.isdir(args.plot):
        raise OptionError("--plot", f"expected an existing directory, no {args.plot!r}")
    if args.trees < 2:
        raise OptionError("--trees", "at least 2 trees per point (for standard errors)")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.synthetic import grid_points, plot, run_grid, triples

    panels = list(args.panels)
    total = len(triples(args.steps, panels)) * args.trees
    console.print(
        f"{total} trees (depth {args.depth}, W {args.worlds}, {args.trees} per point),"
        f" seed {args.seed}, {checks.workers_text(args)}"
    )
    start = time.time()
    with progress_bar(console) as bar:
        task = bar.add_task("trees", total=total)
        result = run_grid(
            args.steps,
            args.trees,
            args.seed,
            depth=args.depth,
            worlds=args.worlds,
            workers=args.workers,
            ray=args.ray,
            panels=panels,
            options={
                "tolerance": args.tolerance,
                "ties": args.ties,
                "rule": args.rule,
                "equilibrium": args.equilibrium,
            },
            progress=lambda n: bar.advance(task, n),
        )
    result["seconds"] = round(time.time() - start, 1)
    for name, panel in result["panels"].items():
        ((z, zv),) = panel["fixed"].items()
        t = Table(title=f"panel {name} ({z} = {zv}): PIMC / random payoff against equilibrium")
        t.add_column(f"{panel['y']} \\ {panel['x']}", justify="right")
        for xv in grid_points(args.steps, panel["x"]):
            t.add_column(f"{xv:g}", justify="right")
        for j, yv in enumerate(grid_points(args.steps, panel["y"])):
            cells = [
                f"{p:+.2f} / {r:+.2f}"
                for p, r in zip(panel["pimc"][j], panel["random"][j], strict=True)
            ]
            t.add_row(f"{yv:g}", *cells)
        console.print(t)
    console.print(f"{result['seconds']} s")
    save_json(args.json, result)
    if args.plot:
        for path in plot(result, args.plot):
            console.print(f"figure: {path}")
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research synthetic``."""
    from skat.research.solvers import PIMC_RULES, TIE_RULES
    from skat.research.synthetic import EQUILIBRIA, PANELS

    s = kinds.add_parser(
        "synthetic",
        help="PIMC on synthetic trees against equilibrium (Figs. 5.5-5.7)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results here")
    s.add_argument("--plot", metavar="DIR", help="write the figures' PNGs into this directory")
    s.add_argument(
        "--trees",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SYNTHETIC_TREES,
        help=f"trees per grid point (default: {defaults.SYNTHETIC_TREES}; the thesis: 10000)",
    )
    s.add_argument(
        "--steps",
        type=checks.integer(2, 101),
        default=defaults.SYNTHETIC_STEPS,
        help=f"grid points per axis, 2..101 (default: {defaults.SYNTHETIC_STEPS})",
    )
    s.add_argument(
        "--panels",
        default="".join(PANELS),
        type=_panels,
        help="the panels to compute, a subset of 'abc' (default: abc)",
    )
    s.add_argument(
        "--depth",
        type=checks.integer(1, 12),
        default=defaults.SYNTHETIC_DEPTH,
        help=f"moves below the chance node, 1..12 (default: {defaults.SYNTHETIC_DEPTH})",
    )
    s.add_argument(
        "--worlds",
        type=checks.integer(1, 32),
        default=defaults.SYNTHETIC_WORLDS,
        help=f"private worlds per player, 1..32 (default: {defaults.SYNTHETIC_WORLDS})",
    )
    s.add_argument(
        "--tolerance",
        type=checks.real(0.0, 1.0, below_hi=True),
        default=defaults.SYNTHETIC_TOLERANCE,
        help=f"CFR+'s target exploitability (default: {defaults.SYNTHETIC_TOLERANCE:g})",
    )
    s.add_argument(
        "--equilibrium",
        choices=EQUILIBRIA,
        default="cfr",
        help="the equilibrium player: CFR+'s average strategy or the sequence-form linear"
        " program's, needs scipy (default: cfr)",
    )
    s.add_argument(
        "--ties",
        choices=TIE_RULES,
        default=defaults.PIMC_TIES,
        help=f"PIMC's tie-breaking (default: {defaults.PIMC_TIES})",
    )
    s.add_argument(
        "--rule",
        choices=PIMC_RULES,
        default=defaults.PIMC_RULE,
        help=f"PIMC's action score over worlds (default: {defaults.PIMC_RULE})",
    )
    s.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.RESEARCH_SEED,
        help=f"tree seed, 0..2**64-1 (default: {defaults.RESEARCH_SEED})",
    )
    checks.add_parallel_options(s)
    s.set_defaults(func=run, check=check)


def _panels(text: str) -> str:
    from skat.research.synthetic import PANELS

    if not text or any(c not in PANELS for c in text) or len(set(text)) != len(text):
        raise argparse.ArgumentTypeError(f"expected distinct letters of 'abc', got {text!r}")
    return text
