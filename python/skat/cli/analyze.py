"""``skat analyze``: PIPMA mistake rates per player name and per trick over ISS record files.

The analysis is :func:`skat.analysis.records.analyze_files`; this module checks the options,
shows a progress bar, prints the table and writes ``--json`` and ``--plot``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import defaults
from skat.analysis.pipma import TRICKS
from skat.cli import checks
from skat.display import progress_task, save_json

ANALYZE_HELP = """\
Perfect-information post-mortem analysis (PIPMA) of finished games: for every
card decision with more than one legal card, each legal card is classed as
winning or losing for the player's side with all hands open (the solver's
threshold search: does the declarer reach 61 / 90 / 120 card points, or take
no trick in null, under best play after that card). A decision with both
winning and losing cards is a mistake opportunity; playing a losing card there
is a mistake. Reported per player name (the records' P0..P2) and per trick:
opportunities, mistakes, and their ratio, the mistake rate.

Records that do not replay are skipped and listed; the others are analysed.

--thresholds also estimates each name's bidding threshold (the Kermit thesis's
section 8.3): the threshold T of least hinge loss over the inequalities of its
auctions, T <= P at its highest bid or hold and T > P at its pass, P the 10+2
win chance of its initial hand at that bid (defenders, and declarers of hand
games only).

--calibration also reports, per name, its declarer games' mean of won (1 or 0)
minus the 10+2 win chance of its initial hand at the final bid (the thesis's
Fig. 7.4: above 0 when it wins more often than its bidding predicted).
"""

ANALYZE_EPILOG = """\
JSON (--json): games (games with card decisions), records, skipped (where,
message), seconds, seconds_per_game, workers, players (per name: opportunities,
mistakes, rate, decisions, games, opportunities_by_trick, mistakes_by_trick,
rate_by_trick; lists of 10, trick 1 first; rate null without opportunities);
with --thresholds also thresholds (per name: threshold, loss, bids, passes,
curve: [T, loss] pairs); with --calibration also calibration (per name: games,
mean, stderr).

exit status: 0 done, 1 done but some records were skipped, 2 bad arguments.
"""


def _rate(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def cmd_analyze(args: argparse.Namespace, console: Console) -> int:
    from skat.analysis.records import analyze_files, plot_by_trick, plot_thresholds

    with progress_task(console, "analysing") as progress:
        report = analyze_files(
            args.records,
            workers=args.workers,
            progress=progress,
            thresholds=args.thresholds or bool(args.threshold_plot),
            calibration=args.calibration,
        )
    tally = report.tally
    per_game = report.seconds_per_game
    title = (
        f"PIPMA: {tally.games} games with card play of {report.records} records"
        f" ({report.seconds:.1f} s"
        + (f", {per_game:.3f} s per game" if per_game is not None else "")
        + f", {report.workers} worker(s))"
    )
    table = Table(title=escape(title))
    table.add_column("player")
    table.add_column("games", justify="right")
    table.add_column("opportunities", justify="right")
    table.add_column("mistakes", justify="right")
    table.add_column("rate", justify="right")
    tricks = Table(title="mistake rate per trick")
    tricks.add_column("player", overflow="fold")
    for t in range(1, TRICKS + 1):
        tricks.add_column(str(t), justify="right")
    for name in sorted(tally.players):
        p = tally.players[name]
        table.add_row(
            escape(name), str(p.games), str(p.opportunities), str(p.mistakes), _rate(p.rate)
        )
        tricks.add_row(escape(name), *(_rate(r, 2) for r in p.rate_by_trick()))
    console.print(table)
    console.print(tricks)
    for where, message in report.skipped:
        console.print(
            f"[yellow]skipped {escape(where)}: {escape(message)}[/yellow]", soft_wrap=True
        )
    if report.thresholds is not None:
        bidding = Table(title="bidding-threshold estimate (least hinge loss)")
        for col in ("player", "threshold", "loss", "bids", "passes"):
            bidding.add_column(col, justify="left" if col == "player" else "right")
        for name in sorted(report.thresholds):
            est = report.thresholds[name]
            threshold = est.estimate()
            bidding.add_row(
                escape(name),
                _rate(threshold),
                "-" if threshold is None else f"{est.loss(threshold):.3f}",
                str(len(est.bids)),
                str(len(est.passes)),
            )
        console.print(bidding)
        if args.threshold_plot:
            plot_thresholds(report.thresholds, args.threshold_plot)
            console.print(f"[dim]threshold plot: {escape(str(args.threshold_plot))}[/dim]")
    if report.calibration is not None:
        cal = Table(title="declarer calibration: won - predicted win chance at the final bid")
        for col in ("player", "declarer games", "won - predicted", "se"):
            cal.add_column(col, justify="left" if col == "player" else "right")
        for name in sorted(report.calibration):
            c = report.calibration[name]
            se = c.stderr
            cal.add_row(
                escape(name),
                str(c.games),
                "-" if c.mean is None else f"{c.mean:+.3f}",
                "-" if se is None else f"{se:.3f}",
            )
        console.print(cal)
    if args.json:
        save_json(args.json, report.as_dict())
    if args.plot:
        plot_by_trick(tally, args.plot)
        console.print(f"[dim]plot: {escape(str(args.plot))}[/dim]")
    return 1 if report.skipped else 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``analyze``."""
    a = sub.add_parser(
        "analyze",
        help="PIPMA mistake rates per player and per trick over ISS record files",
        description=ANALYZE_HELP,
        epilog=ANALYZE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument(
        "records", metavar="RECORDS", nargs="+", type=checks.in_file, help="ISS record files"
    )
    a.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results as JSON")
    a.add_argument(
        "--plot",
        metavar="PNG",
        type=checks.plot_file,
        help="write a PNG of each player's mistake rate per trick",
    )
    a.add_argument(
        "--workers",
        type=checks.integer(1, checks.WORKERS_MAX),
        default=defaults.ANALYZE_WORKERS,
        help=f"worker processes, 1..{checks.WORKERS_MAX} (default: {defaults.ANALYZE_WORKERS})",
    )
    a.add_argument(
        "--thresholds",
        action="store_true",
        help="also estimate each player's bidding threshold from its auctions",
    )
    a.add_argument(
        "--threshold-plot",
        metavar="PNG",
        type=checks.plot_file,
        help="write a PNG of each player's hinge loss against the threshold (implies --thresholds)",
    )
    a.add_argument(
        "--calibration",
        action="store_true",
        help="also report each player's declarer results against its predicted win chance",
    )
    a.set_defaults(func=cmd_analyze)
