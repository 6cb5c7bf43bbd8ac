"""``skat research prefix-trees``: fastest-cut-first on synthetic prefix-value trees (solver
thesis, chapter 3): nodes of NegaScout and MTD(f) with and without the ordering, against the
minimum proof-tree size."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_outputs

HELP = """\
Synthetic prefix-value game trees (solver thesis, sections 3.7-3.8): branching 4..12, edge
values -6..0 with one zero edge per node (so every node's exact value is known), evaluation
errors -4..4 above the leaves. Each tree is searched by NegaScout and MTD(f) with iterative
deepening to its leaves, with and without fastest-cut-first ordering (children that already
reached beta, fewest replies first), and its minimum minimax proof-tree size is computed.
Prints the nodes per search, their ratio to the minimum proof and the FCF reductions (the
thesis: -35% NegaScout, -39% MTD(f) at depth 10). Tree i uses seed SEED + i. A depth-10 tree
takes a few seconds. --solver-positions N also counts the Skat solver's nodes with its
fastest-cut-first term on and off on N random 30-card positions (about 0.1 s each).
"""


def _min_depth(args: argparse.Namespace) -> int:
    """The smallest depth run: ``--min-depth``, else ``--depth`` (that depth only)."""
    return int(args.depth if args.min_depth is None else args.min_depth)


def check(args: argparse.Namespace) -> None:
    if _min_depth(args) > args.depth:
        raise OptionError("--min-depth", f"must be at most --depth ({args.depth})")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.prefix_trees import plot
    from skat.research.prefix_trees import run as run_trees

    depths = list(range(_min_depth(args), args.depth + 1))
    with progress_bar(console) as bar:
        task = bar.add_task("trees", total=args.trees * len(depths))
        out = run_trees(
            args.trees,
            args.seed,
            depths,
            args.workers,
            ray=args.ray,
            progress=lambda n: bar.advance(task, n),
        )
    if args.solver_positions:
        from skat.research.prefix_trees import fcf_solver

        with progress_bar(console) as bar:
            task = bar.add_task("solver positions", total=args.solver_positions)
            out["solver"] = fcf_solver(
                args.solver_positions,
                args.seed,
                args.workers,
                ray=args.ray,
                progress=lambda n: bar.advance(task, n),
            )
    t = Table(title=f"Prefix-value trees ({args.trees} per depth, seed {args.seed})")
    for col in ("depth", "min proof", "NS", "NS+FCF", "MTD(f)", "MTD(f)+FCF", "FCF: NS", "MTD(f)"):
        t.add_column(col, justify="right")
    for d in depths:
        s = out["depths"][str(d)]
        m, r = s["mean_nodes"], s["reduction"]
        t.add_row(
            str(d),
            f"{m['min_proof']:,.0f}",
            *(
                f"{m[k]:,.0f} ({s['mean_over_min_proof'][k]:.1f}x)"
                for k in ("negascout", "negascout_fcf", "mtdf", "mtdf_fcf")
            ),
            f"{-r['negascout']:+.0%}",
            f"{-r['mtdf']:+.0%}",
        )
    console.print(t)
    console.print("[dim]the thesis at depth 10: FCF -35% (NegaScout), -39% (MTD(f))[/dim]")
    if args.solver_positions:
        st = Table(title="Skat solver at 30 cards: solve nodes, fastest-cut-first on / off")
        for col in ("class", "positions", "nodes on", "nodes off", "FCF"):
            st.add_column(col, justify="right")
        for c, row in out["solver"].items():
            st.add_row(
                c,
                str(row["positions"]),
                f"{row['nodes_on']:,}",
                f"{row['nodes_off']:,}",
                f"{-row['reduction']:+.1%}",
            )
        console.print(st)
    save_outputs(console, out, args.json, args.plot, plot, "figure")
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research prefix-trees``."""
    p = kinds.add_parser(
        "prefix-trees",
        help="fastest-cut-first on synthetic prefix-value trees (solver thesis ch. 3)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--trees",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.PREFIX_TREES,
        help=f"trees per depth (default: {defaults.PREFIX_TREES})",
    )
    p.add_argument(
        "--depth",
        type=checks.integer(1, 12),
        default=defaults.PREFIX_TREES_DEPTH,
        help=f"tree depth, 1..12 (default: {defaults.PREFIX_TREES_DEPTH})",
    )
    p.add_argument(
        "--min-depth",
        type=checks.integer(1, 12),
        default=None,
        help="also run every depth from this one up to --depth, for the plot"
        " (default: --depth only)",
    )
    p.add_argument(
        "--solver-positions",
        type=checks.integer(0, checks.COUNT_MAX),
        default=0,
        help="also solve this many random 30-card Skat positions with the solver's"
        " fastest-cut-first term on and off (default: 0, none)",
    )
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.PREFIX_TREES_SEED,
        help=f"seed of the first tree, 0..2**64-1 (default: {defaults.PREFIX_TREES_SEED})",
    )
    checks.add_parallel_options(p)
    p.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results here")
    p.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the figure here")
    p.set_defaults(func=run, check=check)
