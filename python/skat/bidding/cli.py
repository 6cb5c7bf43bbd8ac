"""``skat train bidding`` and ``skat report bidding``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat.display import progress_bar, save_json
from skat.inference.cli import REPORT_HELP as INF_REPORT_HELP
from skat.inference.cli import TRAIN_HELP as INF_TRAIN_HELP

TRAIN_HELP = """\
Learn the 10+2 bidding evaluation from played games.

Generates training games (--games N): for each deal a declarer and a contract are chosen
(strongest-looking or random, so that losing contracts are seen too; with --guide MODEL the
contract is drawn around win probability 0.65 by that model), the auction is settled at 18 and
three pimc players (--worlds) play the cards. The records are appended to --records FILE
(resumable: games already there are skipped). Then fits the tables and weights to those games,
any --data record files and any --iss human record files, keeping a seeded share
(--held-out) aside, written to --held-out-records for 'skat report bidding'.
"""

REPORT_HELP = """\
Calibration of a bidding model: on held-out games (--data), predicted against actual declarer
win rates per game type, Brier scores, and the open-handed solver's verdict on the same deals
(the thesis's Table 4.1 comparison); on real human games (--iss) the same where their
declarations can be scored. Writes a calibration plot (--plot PNG) and JSON (--json).
"""


def _count_lines(path: str) -> int:
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def cmd_train(args: argparse.Namespace, console: Console) -> int:
    from skat.bidding.fit import fit, samples_with_records, split
    from skat.bidding.generate import generate, read_records

    if args.what == "inference":
        from skat.inference.cli import cmd_train_inference

        return cmd_train_inference(args, console)
    files: list[str] = list(args.data or [])
    if args.games:
        if not args.records:
            console.print("[red]--games needs --records FILE to keep the generated games[/red]")
            return 2
        have = _count_lines(args.records)
        todo = max(0, args.games - have)
        console.print(
            f"training games: {have} in {args.records}, generating {todo} more"
            f" (seed {args.seed}, {args.worlds} worlds, {args.workers} workers)"
        )
        if todo:
            with progress_bar(console) as bar, open(args.records, "a", encoding="utf-8") as out:
                task = bar.add_task("playing", total=todo)
                for record in generate(
                    todo,
                    args.seed,
                    start=have,
                    worlds=args.worlds,
                    workers=args.workers,
                    model_path=args.guide,
                    progress=lambda n: bar.advance(task, n),
                ):
                    out.write(record + "\n")
                    out.flush()
        files.append(args.records)
    if not files and not args.iss:
        console.print("[red]nothing to learn from: give --games, --data or --iss[/red]")
        return 2
    errors: list[str] = []
    pairs = samples_with_records(
        read_records(files + list(args.iss or [])), on_error=lambda line, e: errors.append(str(e))
    )
    if errors:
        console.print(f"[yellow]{len(errors)} unreadable record(s) skipped[/yellow]")
    train_pairs, held_pairs = split(pairs, args.held_out, args.seed)
    train = [s for s, _ in train_pairs]
    console.print(f"{len(pairs)} declared games: {len(train)} to fit, {len(held_pairs)} held out")
    if args.held_out_records and held_pairs:
        with open(args.held_out_records, "w", encoding="utf-8") as f:
            f.writelines(line + "\n" for _, line in held_pairs)
    note = {
        "command": "skat " + " ".join(sys.argv[1:]) if sys.argv and "skat" in sys.argv[0] else "",
        "sources": [os.path.basename(f) for f in files + list(args.iss or [])],
        "seed": args.seed,
        "worlds": args.worlds,
        "held_out": args.held_out,
        "training_games": len(train),
    }
    try:
        model = fit(train, note)
    except Exception as e:
        console.print(f"[red]fitting failed: {escape(str(e))}[/red]")
        return 1
    out_path = args.out or "bidding.npz"
    model.save(out_path)
    t = Table(title=f"fitted {out_path} ({Path(out_path).stat().st_size // 1024} KB)")
    for col in ("family", "games", "win rate", "Brier (out of fold)"):
        t.add_column(col, justify="right")
    for fam, info in model.meta["fit"].items():
        t.add_row(fam, str(info["games"]), f"{info['win_rate']:.3f}", f"{info['brier_oof']:.4f}")
    console.print(t)
    return 0


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    from skat.bidding.model import BiddingModel, default_model
    from skat.bidding.report import bidding_report, plot_calibration, report_tables

    if args.what == "inference":
        from skat.inference.cli import cmd_report_inference

        return cmd_report_inference(args, console)
    model = BiddingModel.load(args.model) if args.model else default_model()
    with progress_bar(console) as bar:
        task = bar.add_task("solving", total=None)
        report = bidding_report(
            model,
            args.data or [],
            args.iss or [],
            solver_games=args.solver_games,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    for table in report_tables(report):
        console.print(table)
    if args.plot:
        plot_calibration(report, args.plot)
        console.print(f"calibration plot: {args.plot}")
    save_json(args.json, report)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``train`` and ``report`` to the ``skat`` command line."""
    t = sub.add_parser(
        "train",
        help="learn the bidding evaluation or the inference tables",
        description=TRAIN_HELP + "\n" + INF_TRAIN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("what", choices=["bidding", "inference"], help="what to train")
    t.add_argument("--deals", type=int, default=0, help="inference: random deals to bid")
    t.add_argument(
        "--bidder",
        default="kermit:worlds=1,threads=1",
        help="inference: the player whose auctions are learned (default kermit)",
    )
    t.add_argument(
        "--smoothing", type=float, default=30.0, help="inference: prior weight (default 30)"
    )
    t.add_argument("--games", type=int, default=0, help="training games to have in --records")
    t.add_argument("--records", metavar="FILE", help="generated games (ISS records, appended)")
    t.add_argument("--seed", type=int, default=1, help="generation and split seed (default 1)")
    t.add_argument("--worlds", type=int, default=8, help="pimc worlds per decision (default 8)")
    t.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    t.add_argument("--guide", metavar="MODEL", help="choose contracts with this model")
    t.add_argument("--data", nargs="*", metavar="FILE", help="more record files to learn from")
    t.add_argument("--iss", nargs="*", metavar="FILE", help="human ISS record files")
    t.add_argument("--held-out", type=float, default=0.2, help="share kept aside (default 0.2)")
    t.add_argument("--held-out-records", metavar="FILE", help="write the held-out records here")
    t.add_argument("--out", help="file to write (default bidding.npz or inference.npz)")
    t.set_defaults(func=cmd_train)

    r = sub.add_parser(
        "report",
        help="reports on learned models (bidding calibration, inference)",
        description=REPORT_HELP + "\n" + INF_REPORT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("what", choices=["bidding", "inference"], help="what to report on")
    r.add_argument("--sides", default="SD", help="inference: SD, S, D or NI (default SD)")
    r.add_argument(
        "--candidates", type=int, default=2000, help="inference: candidate worlds (default 2000)"
    )
    r.add_argument("--max-games", type=int, default=0, help="inference: games to read (0: all)")
    r.add_argument("--seed", type=int, default=0, help="inference: sampling seed (default 0)")
    r.add_argument("--model", metavar="FILE", help="bidding model (default: the packaged one)")
    r.add_argument("--data", nargs="*", metavar="FILE", help="held-out self-play records")
    r.add_argument("--iss", nargs="*", metavar="FILE", help="human ISS record files")
    r.add_argument(
        "--solver-games", type=int, default=1000, help="games checked by the solver (default 1000)"
    )
    r.add_argument("--plot", metavar="PNG", help="write the calibration plot")
    r.add_argument("--json", metavar="FILE", help="write the report as JSON")
    r.set_defaults(func=cmd_report)
