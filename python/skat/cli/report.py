"""``skat report bidding`` and ``skat report inference``: how good the learned models are.

Each kind is its own subcommand with its own options and help. The reports are computed by
:mod:`skat.training.bidding_report` and :mod:`skat.inference.report`; this module checks the
options, prints the tables and writes the plot and ``--json``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat._core import Game, RecordError
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_task, save_outputs

BIDDING_HELP = """\
Calibration of a bidding model: on held-out games (--data), predicted against actual declarer
win rates per game type, Brier scores and log-loss, the open-handed solver's verdict on the
same deals, and PIMC's estimate at the declarer's first card (--pimc-games; the thesis's
Table 4.1 comparison); on real human games (--iss) the same where their declarations can be
scored. Writes a calibration plot (--plot PNG) and JSON (--json).
"""

INFERENCE_HELP = """\
How much probability the inference sampler puts on the truth: on played games (--data
FILE...), at the start of every trick and for every seat, the probability that each hidden card
is where it really is, under the inference-weighted candidates and under the same candidates
sampled uniformly; per game type, side and trick. Writes a plot (--plot PNG) and JSON (--json).
"""


def check_report_bidding(args: argparse.Namespace) -> None:
    if not args.data and not args.iss:
        raise OptionError("--data", "give held-out records (--data), human records (--iss) or both")
    if args.model:
        checks.check_model("--model", args.model)


def cmd_report_bidding(args: argparse.Namespace, console: Console) -> int:
    from skat.bidding.model import BiddingModel, default_model
    from skat.training.bidding_report import (
        ReportChecks,
        bidding_report,
        plot_calibration,
        report_tables,
    )

    model = BiddingModel.load(args.model) if args.model else default_model()
    checks = ReportChecks(
        solver_games=args.solver_games,
        pimc_games=args.pimc_games,
        pimc_worlds=args.pimc_worlds,
        seed=args.seed,
        workers=args.workers,
        ray=args.ray,
    )
    with progress_task(console, "solving") as progress:
        report = bidding_report(model, args.data or [], args.iss or [], checks, progress=progress)
    for name, option in (("held_out", "--data"), ("human", "--iss")):
        section = report["sections"].get(name)
        if section is not None and not section["games"]:
            raise OptionError(option, "no declared game in the records given")
    for table in report_tables(report):
        console.print(table)
    save_outputs(console, report, args.json, args.plot, plot_calibration, "calibration plot")
    return 0


def _games(paths: list[str], max_games: int) -> list[Game]:
    """The games of the ``--data`` record files (the first ``max_games``, 0 for all);
    :class:`OptionError` for a record that does not replay (with its file and line) or no
    record at all."""
    from skat.records import iter_records

    games: list[Game] = []
    for path, number, line in iter_records(paths):
        if max_games and len(games) == max_games:
            return games
        try:
            games.append(Game.from_iss(line))
        except RecordError as e:
            raise OptionError("--data", f"{path}:{number}: {e}") from e
    if not games:
        raise OptionError("--data", "no game in the records given")
    return games


def cmd_report_inference(args: argparse.Namespace, console: Console) -> int:
    from skat.inference import default_tables
    from skat.inference.report import inference_report, plot_report

    games = _games(args.data, args.max_games)
    inference = default_tables().compile(args.sides, args.candidates)
    with progress_task(console, f"{len(games)} games") as progress:
        report = inference_report(
            games, inference, candidates=args.candidates, seed=args.seed, progress=progress
        )
    t = Table(title=f"probability of the true holder of a hidden card ({report['views']} views)")
    for col in ("game type", "side", "views", "inference", "uniform", "log gain / card"):
        t.add_column(col, justify="right")
    for r in report["totals"]:
        t.add_row(
            r["game_type"],
            r["side"],
            str(r["views"]),
            f"{r['weighted']:.4f}",
            f"{r['uniform']:.4f}",
            f"{r['log_gain']:+.4f}",
        )
    console.print(t)
    if report["fallbacks"]:
        console.print(f"{report['fallbacks']} view(s) where every candidate had weight zero")
    save_outputs(console, report, args.json, args.plot, plot_report)
    return 0


def _outputs(p: argparse.ArgumentParser, plot: str) -> None:
    p.add_argument("--plot", metavar="PNG", type=checks.plot_file, help=f"write the {plot}")
    p.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the report as JSON")


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``report`` with its two kinds."""
    from skat.inference import SIDES

    r = sub.add_parser(
        "report",
        help="reports on learned models (bidding calibration, inference)",
        description="Reports on the learned models: 'skat report bidding' (calibration of the"
        " bidding evaluation) or 'skat report inference' (how much the inference sampler knows)."
        " 'skat report KIND --help' describes KIND.",
    )
    kinds = r.add_subparsers(dest="what", metavar="KIND", required=True)

    b = kinds.add_parser(
        "bidding",
        help="calibration of the bidding evaluation",
        description=BIDDING_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    b.add_argument(
        "--model",
        metavar="FILE",
        type=checks.in_file,
        help="bidding model (default: the packaged one)",
    )
    b.add_argument(
        "--data",
        nargs="*",
        metavar="PATH",
        type=checks.in_path,
        help="held-out self-play records (files or self-play directories)",
    )
    b.add_argument(
        "--iss",
        nargs="*",
        metavar="PATH",
        type=checks.in_path,
        help="human ISS records (files, gzip too, or directories of them)",
    )
    b.add_argument(
        "--solver-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=defaults.REPORT_SOLVER_GAMES,
        help=f"games checked by the solver (default: {defaults.REPORT_SOLVER_GAMES})",
    )
    b.add_argument(
        "--pimc-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=defaults.REPORT_PIMC_GAMES,
        help="games whose declarer's first card PIMC estimates (Kermit's Table 4.1)"
        f" (default: {defaults.REPORT_PIMC_GAMES})",
    )
    b.add_argument(
        "--pimc-worlds",
        type=checks.integer(1, defaults.WORLDS_MAX),
        default=defaults.REPORT_PIMC_WORLDS,
        help=f"worlds of that estimate, with kermit's inference"
        f" (default: {defaults.REPORT_PIMC_WORLDS})",
    )
    b.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.REPORT_SEED,
        help=f"sampling seed of the PIMC estimates (default: {defaults.REPORT_SEED})",
    )
    checks.add_parallel_options(b)
    _outputs(b, "calibration plot")
    b.set_defaults(func=cmd_report_bidding, check=check_report_bidding)

    i = kinds.add_parser(
        "inference",
        help="probability inference puts on the true cards",
        description=INFERENCE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    i.add_argument(
        "--data",
        nargs="+",
        metavar="PATH",
        type=checks.in_path,
        required=True,
        help="ISS records of played games (files or directories of them)",
    )
    i.add_argument(
        "--sides",
        choices=list(SIDES),
        default=defaults.REPORT_SIDES,
        help=f"inference sides: SD, S, D or NI (default: {defaults.REPORT_SIDES})",
    )
    i.add_argument(
        "--candidates",
        type=checks.integer(1, defaults.CANDIDATES_MAX),
        default=defaults.REPORT_CANDIDATES,
        help=f"candidate worlds, 1..{defaults.CANDIDATES_MAX:,}"
        f" (default: {defaults.REPORT_CANDIDATES})",
    )
    i.add_argument(
        "--max-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=0,
        help="games to read (default: 0, all)",
    )
    i.add_argument(
        "--seed",
        type=checks.integer(0, 2**63 - 1),
        default=defaults.REPORT_SEED,
        help=f"sampling seed, 0..2**63-1 (default: {defaults.REPORT_SEED})",
    )
    _outputs(i, "plot")
    i.set_defaults(func=cmd_report_inference)
