"""``skat train inference`` and ``skat report inference`` (wired in by ``skat.bidding.cli``)."""

from __future__ import annotations

import argparse
import sys
import time

from rich.console import Console
from rich.table import Table

from skat.display import progress_bar, save_json

TRAIN_HELP = """\
inference (--deals N): deal random hands, let three --bidder players bid (our kermit by
default), count the features of every seat's ten cards per auction outcome, and write the
tables (--out, default inference.npz) that the players' inference reads.
"""

REPORT_HELP = """\
inference (--data FILE...): on played games, at the start of every trick and for every seat,
how much probability the inference sampler puts on the true holder of each hidden card,
against uniform sampling of the same candidates; per game type, side and trick.
"""


def cmd_train_inference(args: argparse.Namespace, console: Console) -> int:
    from skat.inference import InferenceTables, outcome_name
    from skat.inference.learn import count_auctions

    if args.deals <= 0:
        console.print("[red]give --deals N (random deals to bid)[/red]")
        return 2
    start = time.time()
    with progress_bar(console) as bar:
        task = bar.add_task("auctions", total=args.deals)
        counts, hands = count_auctions(
            args.deals,
            seed=args.seed,
            bidder=args.bidder,
            workers=args.workers,
            progress=lambda n: bar.update(task, completed=n),
        )
    note = {
        "command": "skat " + " ".join(sys.argv[1:]) if sys.argv and "skat" in sys.argv[0] else "",
        "deals": args.deals,
        "seed": args.seed,
        "bidder": args.bidder,
        "seconds": round(time.time() - start, 1),
    }
    tables = InferenceTables(counts, hands, note, smoothing=args.smoothing)
    out = args.out or "inference.npz"
    tables.save(out)
    t = Table(title=f"{out}: {int(hands.sum())} hands from {args.deals} deals")
    t.add_column("auction outcome")
    t.add_column("hands", justify="right")
    for o in sorted(range(len(hands)), key=lambda o: -hands[o])[:15]:
        t.add_row(outcome_name(o), str(int(hands[o])))
    console.print(t)
    return 0


def cmd_report_inference(args: argparse.Namespace, console: Console) -> int:
    from skat._core import Game
    from skat.inference import default_tables
    from skat.inference.report import inference_report, plot_report

    if not args.data:
        console.print("[red]give --data FILE... (ISS records of played games)[/red]")
        return 2
    games = []
    for path in args.data:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    games.append(Game.from_iss(line.strip()))
                if args.max_games and len(games) >= args.max_games:
                    break
        if args.max_games and len(games) >= args.max_games:
            break
    inference = default_tables().compile(args.sides, args.candidates)
    with progress_bar(console) as bar:
        task = bar.add_task(f"{len(games)} games", total=None)
        report = inference_report(
            games,
            inference,
            candidates=args.candidates,
            seed=args.seed,
            progress=lambda n: bar.update(task, completed=n),
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
    if args.plot:
        plot_report(report, args.plot)
        console.print(f"plot: {args.plot}")
    save_json(args.json, report)
    return 0
