"""``skat research threshold-estimate``: how many auctions the bidding-threshold estimate needs.

The computation is :func:`skat.research.threshold_estimate.study`; this module checks the
options, shows progress, prints the table and writes ``--json``/``--plot``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_outputs

HELP = """\
Three players bid deal after deal (rotated through the seats; the auction, the skat and the
declaration only, no card play). After 10, 20, 50, 100, ... auctions each player's bidding
threshold is estimated from its own auctions (the threshold of least hinge loss, as
'skat analyze --thresholds' does). Prints each player's truth (its threshold option, if it
has one), the estimates and the number of auctions from which the estimate stays within
--tol of the truth; writes --json and --plot PNG.
"""


def check(args: argparse.Namespace) -> None:
    checks.check_specs("--players", args.players, (3,))
    if len(set(args.players)) != 3:
        raise checks.OptionError("--players", "expected three different specs")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.threshold_estimate import plot_convergence, study

    seed = checks.draw_seed(args.seed, console)
    with progress_task(console, "auctions", args.auctions) as progress:
        result = study(args.players, args.auctions, seed, tol=args.tol, progress=progress)
    table = Table(title=f"bidding-threshold estimate by auctions, seed {seed}")
    table.add_column("player", overflow="fold")
    table.add_column("truth", justify="right")
    marks = [c["auctions"] for c in result["players"][0]["checkpoints"]]
    for m in marks:
        table.add_column(str(m), justify="right")
    table.add_column(f"within {args.tol:g} from", justify="right")
    for p in result["players"]:
        truth = "-" if p["truth"] is None else f"{p['truth']:.3f}"
        ests = ["-" if c["estimate"] is None else f"{c['estimate']:.3f}" for c in p["checkpoints"]]
        within = "-" if p["games_within"] is None else str(p["games_within"])
        table.add_row(escape(p["spec"]), truth, *ests, within)
    console.print(table)
    save_outputs(console, result, args.json, args.plot, plot_convergence)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research threshold-estimate``."""
    k = kinds.add_parser(
        "threshold-estimate",
        help="how many auctions the bidding-threshold estimate needs (Kermit thesis 8.3)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--players",
        nargs="+",
        default=list(defaults.THRESHOLD_ESTIMATE_PLAYERS),
        metavar="SPEC",
        help="three different bidders (default: "
        + ", ".join(defaults.THRESHOLD_ESTIMATE_PLAYERS)
        + ")",
    )
    k.add_argument(
        "--auctions",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.THRESHOLD_ESTIMATE_AUCTIONS,
        help=f"deals bid (default: {defaults.THRESHOLD_ESTIMATE_AUCTIONS})",
    )
    k.add_argument(
        "--tol",
        type=checks.real(0.0, 1.0),
        default=defaults.THRESHOLD_ESTIMATE_TOL,
        help=f"distance from the truth that counts as found (default: "
        f"{defaults.THRESHOLD_ESTIMATE_TOL})",
    )
    k.add_argument("--seed", type=checks.seed, help="seed (default: drawn and printed)")
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the study as JSON")
    k.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write a plot")
    k.set_defaults(func=run, check=check)
