"""``skat research kontra``: how far PIMC's win estimate can be trusted for Kontra and Re.

The computation is :func:`skat.research.kontra.study`; this module checks the options, shows
progress, prints the tables and writes ``--json``/``--plot``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_outputs

HELP = """\
Self-play games of --player on a table with Kontra (nobody doubles), and at each defender's
Kontra moment and the declarer's first card the estimate of --judge: the share of sampled
worlds its side wins after its best card, which the PIMC players compare with their kontra
and re thresholds. Prints the calibration of those estimates (bins against the share actually
won) and, for every threshold of --thresholds, what doubling from that estimate on would have
gained the doubling side in list points per game; writes --json and --plot (PNG).
"""


def check(args: argparse.Namespace) -> None:
    checks.check_specs("--player", [args.player], (1,))
    checks.check_specs("--judge", [args.judge], (1,))
    from skat.players import PlayerSpecError, make_player
    from skat.players.pimc import PimcPlayer
    from skat.research.kontra import _quiet

    try:
        make_player(_quiet(args.player))  # the games are played with the player's doubling off
    except PlayerSpecError as e:
        raise checks.OptionError(
            "--player", f"needs kontra and re thresholds to switch off (pimc, kermit): {e}"
        ) from e

    if not isinstance(make_player(args.judge), PimcPlayer):
        raise checks.OptionError("--judge", "the judge must be a PIMC player (pimc, kermit)")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.kontra import plot_study, study

    seed = checks.draw_seed(args.seed, console)
    with progress_task(console, "games", args.games) as progress:
        result = study(
            args.player,
            args.judge,
            args.games,
            seed,
            args.thresholds,
            workers=args.workers,
            ray=args.ray,
            progress=progress,
        )
    for kind, side in (("kontra", "defenders"), ("re", "declarer")):
        t = Table(title=f"{side}: estimate against outcome, seed {seed}")
        for col in ("estimate", "n", "mean estimate", "actually won"):
            t.add_column(col, justify="right")
        for b in result["calibration"][kind]:
            t.add_row(
                f"{b['from']:.1f}-{b['to']:.1f}",
                str(b["n"]),
                f"{b['mean_estimate']:.3f}" if b["mean_estimate"] is not None else "-",
                f"{b['actual']:.3f}" if b["actual"] is not None else "-",
            )
        console.print(t)
        g = Table(title=f"{kind}: gain of the {side} by threshold (points per game)")
        for col in ("threshold", "doublings", "gain / game"):
            g.add_column(col, justify="right")
        for row in result["gains"][kind]:
            gain = f"{row['gain_per_game']:+.2f}"
            g.add_row(f"{row['threshold']:g}", str(row["decisions"]), gain)
        console.print(g)
    save_outputs(console, result, args.json, args.plot, plot_study)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research kontra``."""
    k = kinds.add_parser(
        "kontra",
        help="calibration of PIMC's win estimate for Kontra and Re, and the gain per threshold",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--player",
        default=defaults.KONTRA_STUDY_PLAYER,
        metavar="SPEC",
        help=f"who plays the games (default: {defaults.KONTRA_STUDY_PLAYER})",
    )
    k.add_argument(
        "--judge",
        default=defaults.KONTRA_STUDY_JUDGE,
        metavar="SPEC",
        help=f"the PIMC player whose estimates are judged (default: {defaults.KONTRA_STUDY_JUDGE})",
    )
    k.add_argument(
        "--games",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.KONTRA_STUDY_GAMES,
        help=f"self-play games (default: {defaults.KONTRA_STUDY_GAMES})",
    )
    k.add_argument(
        "--thresholds",
        type=checks.unit_list,
        default=list(defaults.KONTRA_STUDY_THRESHOLDS),
        metavar="T,T,...",
        help="thresholds in 0..1 (default: "
        + ",".join(f"{t:g}" for t in defaults.KONTRA_STUDY_THRESHOLDS)
        + ")",
    )
    k.add_argument("--seed", type=checks.seed, help="seed, 0..2**64-1 (default: drawn and printed)")
    checks.add_parallel_options(k)
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the study as JSON")
    k.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the plot")
    k.set_defaults(func=run, check=check)
