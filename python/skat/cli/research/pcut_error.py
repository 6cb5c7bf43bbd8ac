"""``skat research pcut-error``: ProbCut with simulated better estimators.

The computation is :func:`skat.research.pcut_error.run`; this module checks the options,
shows progress, prints the table and writes ``--json`` and ``--plot``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_task, save_outputs

HELP = """\
How good must ProbCut's estimator be to reach the solver thesis's speed-up? For every
confidence of --pcuts and every scale of --errors, the ProbCut benchmark of 'skat bench solver
--pcut' on the same --positions random 30-card positions, with a simulated estimator whose
error is that scale times the shipped one's (the shipped estimate moved toward the exact value
as a calibrated second measurement would; scale 1 is the shipped estimator). Prints per class
the speed-up over the exact all-move analysis, the decision agreement, loss and error, and
whether the target (3.5x at agreement 0.95) is met; writes --json and --plot. The comparisons
are timings and run one after the other, position by position: each position is compared
under every confidence, scale and repeat before the next, so the exact values its simulations
need are found once.
"""


def check(args: argparse.Namespace) -> None:
    bad = [p for p in args.pcuts if not 0.0 < p < 1.0]
    if bad:
        raise OptionError("--pcuts", f"confidences must lie strictly between 0 and 1, got {bad[0]}")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat._core import estimator_layout
    from skat.research.pcut_error import plot
    from skat.research.pcut_error import run as run_grid

    if not estimator_layout()["builtin_slots"]:
        raise OptionError("--pcuts", "this build has no estimators: see 'skat train estimators'")
    points = len(args.pcuts) * len(args.errors) * args.repeat
    with progress_task(
        console, f"positions, {points} ProbCut comparisons each", args.positions
    ) as progress:
        out = run_grid(
            args.pcuts,
            args.errors,
            args.positions,
            args.seed,
            args.repeat,
            args.tt_mb,
            progress=progress,
        )
    t = Table(
        title=f"ProbCut with simulated estimators ({args.positions} positions, seed {args.seed},"
        f" speed-ups: median of {args.repeat})"
    )
    for col in ("pcut", "error scale", "class", "speed-up", "nodes", "agreement", "loss", "error"):
        t.add_column(col, justify="right")
    t.add_column("target")
    for c in out["configs"]:
        for r in c["classes"]:
            if not r["positions"]:
                continue  # too few positions to draw one of this class
            t.add_row(
                f"{c['pcut']:g}",
                f"{c['error_scale']:g}",
                r["class"],
                f"{r['speedup']:.2f}x",
                f"{r['nodes'] / r['exact_nodes'] - 1:+.0%}" if r["exact_nodes"] else "n/a",
                f"{r['decision_agreement']:.3f}",
                f"{r['decision_loss']:.2f}",
                f"{r['mean_abs_error']:.2f}",
                "met" if c["meets_target"][r["class"]] else "",
            )
    console.print(t)
    save_outputs(console, out, args.json, args.plot, plot, "figure")
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research pcut-error``."""
    p = kinds.add_parser(
        "pcut-error",
        help="ProbCut's speed and agreement with simulated better estimators (solver thesis ch. 7)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pcuts = ",".join(f"{x:g}" for x in defaults.PCUT_ERROR_PCUTS)
    scales = ",".join(f"{x:g}" for x in defaults.PCUT_ERROR_SCALES)
    p.add_argument(
        "--pcuts",
        type=checks.unit_list,
        default=list(defaults.PCUT_ERROR_PCUTS),
        help=f"ProbCut confidences, comma-separated, each strictly between 0 and 1"
        f" (default: {pcuts})",
    )
    p.add_argument(
        "--errors",
        type=checks.unit_list,
        default=list(defaults.PCUT_ERROR_SCALES),
        help=f"error scales of the simulated estimators, comma-separated, 0..1; 1 is the"
        f" shipped estimator, 0 the exact value (default: {scales})",
    )
    p.add_argument(
        "--positions",
        type=checks.integer(1, defaults.POSITIONS_MAX),
        default=defaults.PCUT_ERROR_POSITIONS,
        help=f"random 30-card positions per comparison (default: {defaults.PCUT_ERROR_POSITIONS})",
    )
    p.add_argument(
        "--repeat",
        type=checks.integer(1, 100),
        default=1,
        help="timed runs per comparison, the median reported (default: 1)",
    )
    p.add_argument(
        "--tt-mb",
        type=checks.integer(1, defaults.TT_MB_MAX),
        default=defaults.SOLVER_TT_MB,
        help=f"transposition table size in MB (default: {defaults.SOLVER_TT_MB})",
    )
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.BENCH_SEED,
        help=f"seed of the positions, 0..2**64-1 (default: {defaults.BENCH_SEED})",
    )
    p.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results here")
    p.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the figure here")
    p.set_defaults(func=run, check=check)
