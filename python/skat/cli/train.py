"""``skat train bidding`` and ``skat train inference``: learn the models the players read.

Each kind is its own subcommand with its own options and help. The learning code is in
:mod:`skat.training`; this module checks the options, reports progress and writes the model.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar

BIDDING_HELP = """\
Learn the 10+2 bidding evaluation from played games.

Generates training games (--games N): for each deal a declarer and a contract are chosen
(strongest-looking or random, so that losing contracts are seen too; with --guide MODEL the
contract is drawn around win probability 0.65 by that model), the auction is settled at 18 and
three pimc players (--worlds) play the cards. The records are appended to --records FILE
(resumable: games already there are skipped). Then fits the tables and weights to those games,
any --data record files and any --iss human record files, keeping a seeded share
(--held-out) aside, written to --held-out-records for 'skat report bidding'.
"""

INFERENCE_HELP = """\
Learn the auction tables of card inference.

Deals --deals N random deals (deal j is Deal.random(derive_seed(SEED, j))), lets three --bidder
players bid (our kermit by default), counts the features of every seat's ten cards per auction
outcome, and writes the smoothed tables (--out, default inference.npz) that the players'
inference reads. The result is the same for any --workers.
"""


def _command_line() -> str:
    return "skat " + " ".join(sys.argv[1:]) if sys.argv and "skat" in sys.argv[0] else ""


def _count_lines(path: str) -> int:
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def check_bidding(args: argparse.Namespace) -> None:
    if args.games and not args.records:
        raise OptionError("--games", "needs --records FILE to keep the generated games")
    if not args.games and not args.data and not args.iss:
        raise OptionError("--games/--data/--iss", "nothing to learn from: give at least one")


def cmd_train_bidding(args: argparse.Namespace, console: Console) -> int:
    from skat.training.fit import fit, samples_with_records, split
    from skat.training.generate import generate, read_records

    files: list[str] = list(args.data or [])
    if args.games:
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
        "command": _command_line(),
        "sources": [os.path.basename(f) for f in files + list(args.iss or [])],
        "seed": args.seed,
        "worlds": args.worlds,
        "held_out": args.held_out,
        "training_games": len(train),
    }
    try:
        model = fit(train, note)
    except Exception as e:  # any failure of the numerics is reported in one line
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


def check_inference(args: argparse.Namespace) -> None:
    checks.check_specs("--bidder", [args.bidder], (1,))


def cmd_train_inference(args: argparse.Namespace, console: Console) -> int:
    from skat.inference import InferenceTables, outcome_name
    from skat.training.inference_tables import count_auctions

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
        "command": _command_line(),
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


def _seed_and_workers(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.TRAIN_SEED,
        help=f"{seed_help}, 0..2**64-1 (default: {defaults.TRAIN_SEED})",
    )
    p.add_argument(
        "--workers",
        type=checks.integer(1, checks.WORKERS_MAX),
        default=defaults.TRAIN_WORKERS,
        help=f"worker processes, 1..{checks.WORKERS_MAX} (default: {defaults.TRAIN_WORKERS})",
    )


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``train`` with its two kinds."""
    t = sub.add_parser(
        "train",
        help="learn the bidding evaluation or the inference tables",
        description="Learn a model: 'skat train bidding' (the 10+2 bidding evaluation from"
        " self-play or human games) or 'skat train inference' (the auction tables of card"
        " inference). 'skat train KIND --help' describes KIND.",
    )
    kinds = t.add_subparsers(dest="what", metavar="KIND", required=True)

    b = kinds.add_parser(
        "bidding",
        help="learn the 10+2 bidding evaluation",
        description=BIDDING_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    b.add_argument(
        "--games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=0,
        help="training games to have in --records (default: 0, none generated)",
    )
    b.add_argument(
        "--records",
        metavar="FILE",
        type=checks.out_file,
        help="generated games (ISS records, appended)",
    )
    _seed_and_workers(b, "generation and split seed")
    b.add_argument(
        "--worlds",
        type=checks.integer(1, defaults.WORLDS_MAX),
        default=defaults.TRAIN_WORLDS,
        help=f"pimc worlds per decision, 1..{defaults.WORLDS_MAX}"
        f" (default: {defaults.TRAIN_WORLDS})",
    )
    b.add_argument(
        "--guide", metavar="MODEL", type=checks.in_file, help="choose contracts with this model"
    )
    b.add_argument(
        "--data",
        nargs="*",
        metavar="FILE",
        type=checks.in_file,
        help="more record files to learn from",
    )
    b.add_argument(
        "--iss", nargs="*", metavar="FILE", type=checks.in_file, help="human ISS record files"
    )
    b.add_argument(
        "--held-out",
        type=checks.real(0.0, 1.0, below_hi=True),
        default=defaults.TRAIN_HELD_OUT,
        help=f"share kept aside, 0..1 (default: {defaults.TRAIN_HELD_OUT})",
    )
    b.add_argument(
        "--held-out-records",
        metavar="FILE",
        type=checks.out_file,
        help="write the held-out records here",
    )
    b.add_argument("--out", type=checks.out_file, help="model file to write (default: bidding.npz)")
    b.set_defaults(func=cmd_train_bidding, check=check_bidding)

    i = kinds.add_parser(
        "inference",
        help="learn the auction tables of card inference",
        description=INFERENCE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    i.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        required=True,
        help="random deals to bid",
    )
    i.add_argument(
        "--bidder",
        default=defaults.TRAIN_BIDDER,
        metavar="SPEC",
        help=f"the player whose auctions are learned (default: {defaults.TRAIN_BIDDER})",
    )
    i.add_argument(
        "--smoothing",
        type=checks.real(0.0),
        default=defaults.TRAIN_SMOOTHING,
        help=f"prior weight, >= 0 (default: {defaults.TRAIN_SMOOTHING:g})",
    )
    _seed_and_workers(i, "deal seed")
    i.add_argument(
        "--out", type=checks.out_file, help="tables file to write (default: inference.npz)"
    )
    i.set_defaults(func=cmd_train_inference, check=check_inference)
