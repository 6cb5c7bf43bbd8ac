"""``skat research thresholds``: the bidding-threshold sweep of a Kermit-style bidder.

The tournaments are :func:`skat.tournament.run` in full-game mode; this module checks the
options, shows progress, prints the table and writes ``--json``/``--plot``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_outputs

HELP = """\
The bidding-threshold sweep: for every --against spec and every threshold t of --thresholds,
a full-game duplicate tournament (six seatings, --deals deals, the same deals for every t) of
PLAYER,threshold=t against that opponent. Prints and writes (--json, --plot PNG) the paired
difference in points per list with its 95% interval, the candidate's share of games declared
and its declarer win rate.
"""


def check(args: argparse.Namespace) -> None:
    from skat.research.thresholds import with_threshold

    name, sep, options = args.player.partition(":")
    if not name.strip():
        raise OptionError("--player", "expected a player spec")
    if sep and any(part.split("=")[0].strip() == "threshold" for part in options.split(",")):
        raise OptionError("--player", "leave out its threshold option: --thresholds sets it")
    for t in args.thresholds:
        checks.check_specs("--player", [with_threshold(args.player, t)], (1,))
    checks.check_specs("--against", args.against, tuple(range(1, 17)))


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.thresholds import plot_sweep, sweep

    seed = checks.draw_seed(args.seed, console)
    with progress_bar(console) as bar:
        task = bar.add_task("tournament", total=args.deals)

        def on_progress(opponent: str, t: float, done: int, total: int) -> None:
            bar.update(task, description=f"t={t:g} vs {opponent}", completed=done, total=total)

        result = sweep(
            args.player,
            args.against,
            args.thresholds,
            args.deals,
            seed,
            workers=args.workers,
            ray=args.ray,
            progress=on_progress,
        )
    t = Table(title=f"{args.player}: threshold sweep, {args.deals} deals x 6 seatings, seed {seed}")
    for col in ("against", "threshold", "difference / list", "95% interval", "declared", "won"):
        t.add_column(col, justify="right")
    for row in result["rows"]:
        d = row["difference"]
        ci = d["ci95"]
        rate = row["player"]["declarer_win_rate"]
        t.add_row(
            row["opponent"],
            f"{row['threshold']:g}",
            f"{d['mean']:+.1f}" if d["mean"] is not None else "-",
            f"[{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "-",
            f"{row['declared_share']:.1%}" if row["declared_share"] is not None else "-",
            f"{rate:.1%}" if rate is not None else "-",
        )
    console.print(t)
    save_outputs(console, result, args.json, args.plot, plot_sweep)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research thresholds``."""
    k = kinds.add_parser(
        "thresholds",
        help="bidding-threshold sweep of a kermit-style player in full-game tournaments",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--player",
        default=defaults.SWEEP_PLAYER,
        metavar="SPEC",
        help="the candidate, a player with a threshold option; only the threshold is swept, so"
        " a kermit without unopposed=none keeps opening at its unopposed value"
        f" (default: {defaults.SWEEP_PLAYER})",
    )
    k.add_argument(
        "--against",
        nargs="+",
        default=list(defaults.SWEEP_OPPONENTS),
        metavar="SPEC",
        help=f"opponents (default: {' '.join(defaults.SWEEP_OPPONENTS)})",
    )
    k.add_argument(
        "--thresholds",
        type=checks.unit_list,
        default=list(defaults.SWEEP_THRESHOLDS),
        metavar="T,T,...",
        help="thresholds in 0..1 (default: "
        + ",".join(f"{t:g}" for t in defaults.SWEEP_THRESHOLDS)
        + ")",
    )
    k.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SWEEP_DEALS,
        help=f"deals per tournament (default: {defaults.SWEEP_DEALS})",
    )
    k.add_argument(
        "--seed",
        type=checks.seed,
        help="tournament seed, 0..2**64-1 (default: drawn and printed)",
    )
    checks.add_parallel_options(k)
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the sweep here")
    k.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the plot here")
    k.set_defaults(func=run, check=check)
