"""``skat train``: make training games and learn the models the players read. This module holds
``bidding``, ``curve``, ``knn`` and ``inference``; ``selfplay`` and ``estimators`` have their
own modules (:mod:`skat.cli.train_selfplay`, :mod:`skat.cli.train_estimators`).

Each kind is its own subcommand with its own options and help. The learning code is in
:mod:`skat.training`; this module checks the options, reports progress and writes the model.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat._core import Deal, Game, SkatError
from skat.cli import checks, train_estimators, train_selfplay
from skat.cli.checks import OptionError
from skat.display import progress_bar, progress_task, save_outputs
from skat.seeds import derive_seed

BIDDING_HELP = """\
Learn the 10+2 bidding evaluation from played games.

Generates training games (--games N): for each deal a declarer and a contract are chosen
(strongest-looking or random, so that losing contracts are seen too; with --guide MODEL the
contract is drawn around win probability 0.65 by that model), the auction is settled at 18 and
three pimc players (--worlds) play the cards. The records are appended to --records FILE
(resumable: the games already there, training games 0, 1, ... of --seed, are skipped; a last
record cut off in the middle of its line is dropped; the file's first line, a # comment, keeps
the --seed, --worlds and --guide it was started with, and a resume with others is refused).
Then fits the tables and weights to those games, any --data record files and any --iss human
record files, keeping a seeded share (--held-out) aside, written to --held-out-records for
'skat report bidding'.
"""

INFERENCE_HELP = """\
Learn the auction tables of card inference.

Deals --deals N random deals (deal j is Deal.random(derive_seed(SEED, j))), lets three --bidder
players bid (our kermit by default), counts the features of every seat's ten cards per auction
outcome, and writes the smoothed tables (--out, default inference.npz) that the players'
inference reads. The result is the same for any --workers.
"""


def _kept_games(path: str) -> int:
    """The records of ``path`` (checked by :func:`_check_appendable_records`), after dropping
    a last record cut off in the middle of its line (as a killed or disk-full run leaves it)
    or ending a whole last one with its newline, so that the next game starts its own line."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb+") as f:
        data = f.read()
        cut = data.rfind(b"\n") + 1
        if cut < len(data):
            try:
                Game.from_iss(data[cut:].decode("utf-8").strip())
                f.write(b"\n")
            except (SkatError, UnicodeDecodeError):
                f.truncate(cut)
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.strip() and not line.lstrip().startswith("#"))


RECORDS_HEADER = "# skat train bidding games:"
"""Starts the comment line that opens a --records file: the options its games were generated
with (``seed S, worlds W, guide sha256:H|none``), which a resume must repeat."""


def _generation(args: argparse.Namespace) -> dict[str, str]:
    """The options that decide the generated games: --seed, --worlds and --guide (by the
    first 16 hex digits of its file's SHA-256, so that a guide moved elsewhere still agrees)."""
    guide = "none"
    if args.guide:
        with open(args.guide, "rb") as f:
            guide = "sha256:" + hashlib.sha256(f.read()).hexdigest()[:16]
    return {"seed": str(args.seed), "worlds": str(args.worlds), "guide": guide}


def _header(generation: dict[str, str]) -> str:
    return RECORDS_HEADER + " " + ", ".join(f"{k} {v}" for k, v in generation.items())


def _check_header(path: str, number: int, line: str, generation: dict[str, str]) -> None:
    """Raises :class:`OptionError` naming the first option ``line`` (a header) records
    otherwise than ``generation``."""
    fields = {}
    for field in line.removeprefix(RECORDS_HEADER).split(","):
        key, _, value = field.strip().partition(" ")
        fields[key] = value.strip()
    for key, value in generation.items():
        if fields.get(key, value) != value:
            raise OptionError(
                f"--{key}",
                f"{path}:{number} holds games generated with {key} {fields[key]}, not {value}:"
                " resume with the options it was started with, or use another file",
            )


def _check_appendable_records(path: str, generation: dict[str, str]) -> None:
    """Raises :class:`OptionError` for ``--records`` if ``path`` exists but is no plain ISS
    record file that generated games can be appended to (gzip, not UTF-8, other lines), or its
    records are not training games 0, 1, ... of the seed (another --seed, a game lost), or its
    header (:data:`RECORDS_HEADER`) records another --seed, --worlds or --guide (a file without
    one is taken as it is). A last record cut off in the middle of its line is allowed
    (:func:`_kept_games` drops it)."""
    if not os.path.exists(path):
        return
    seed = int(generation["seed"])
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            raise OptionError("--records", f"{path} is gzip-compressed: games are appended as text")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except UnicodeDecodeError as e:
        raise OptionError("--records", f"{path} is no ISS record file (not UTF-8 text)") from e
    index = 0
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text.startswith(RECORDS_HEADER):
            _check_header(path, number, text, generation)
        if not text or text.startswith("#"):
            continue
        try:
            game = Game.from_iss(text) if text.startswith("(;") else None
        except SkatError:
            game = None
        if game is None and number == len(lines):
            break  # the last line, with no newline after it: cut off
        if game is None:
            raise OptionError(
                "--records", f"{path}:{number}: not an ISS record line (one (;GM[Skat]...;))"
            )
        if game.deal != Deal.random(derive_seed(seed, index)):
            raise OptionError(
                "--records",
                f"{path}:{number}: not training game {index} of seed {seed} (written with"
                " another --seed, or a game was lost or repeated); use another file",
            )
        index += 1


def check_bidding(args: argparse.Namespace) -> None:
    if args.games and not args.records:
        raise OptionError("--games", "needs --records FILE to keep the generated games")
    if not args.games and not args.data and not args.iss:
        raise OptionError("--games/--data/--iss", "nothing to learn from: give at least one")
    if args.guide and not args.games:
        raise OptionError("--guide", "only with --games (it chooses the generated contracts)")
    if args.guide:
        checks.check_model("--guide", args.guide)
    if args.games:
        _check_appendable_records(args.records, _generation(args))


def cmd_train_bidding(args: argparse.Namespace, console: Console) -> int:
    from skat.bidding.model import ModelError
    from skat.records import read_records
    from skat.training.fit import fit, samples_with_records, split
    from skat.training.generate import generate

    files: list[str] = list(args.data or [])
    if args.games:
        have = _kept_games(args.records)
        todo = max(0, args.games - have)
        console.print(
            f"training games: {have} in {args.records}, generating {todo} more"
            f" (seed {args.seed}, {args.worlds} worlds, {checks.workers_text(args)})"
        )
        if todo:
            with progress_bar(console) as bar, open(args.records, "a", encoding="utf-8") as out:
                if out.tell() == 0:
                    out.write(_header(_generation(args)) + "\n")
                task = bar.add_task("playing", total=todo)
                for record in generate(
                    todo,
                    args.seed,
                    start=have,
                    worlds=args.worlds,
                    workers=args.workers,
                    model_path=args.guide,
                    progress=lambda n: bar.advance(task, n),
                    ray=args.ray,
                ):
                    out.write(record + "\n")
                    out.flush()
        files.append(args.records)
    errors: list[str] = []
    lines = read_records(files)
    if args.max_games:
        lines = lines[: args.max_games]
    pairs = samples_with_records(
        lines + read_records(list(args.iss or [])), on_error=lambda line, e: errors.append(str(e))
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
        "command": checks.command_line(),
        "sources": [os.path.basename(f) for f in files + list(args.iss or [])],
        "seed": args.seed,
        "worlds": args.worlds,
        "held_out": args.held_out,
        "training_games": len(train),
    }
    try:
        model = fit(train, note)
    except SkatError:
        raise  # too few games of a family: one line on stderr (skat.cli.main)
    except Exception as e:  # any other failure of the numerics, in one line too
        raise ModelError(f"fitting failed: {e}") from e
    out_path = args.out or "bidding.npz"
    model.save(out_path)
    t = Table(title=f"fitted {out_path} ({Path(out_path).stat().st_size // 1024} KB)")
    for col in ("family", "games", "win rate", "Brier (out of fold)"):
        t.add_column(col, justify="right")
    for fam, info in model.meta["fit"].items():
        t.add_row(fam, str(info["games"]), f"{info['win_rate']:.3f}", f"{info['brier_oof']:.4f}")
    console.print(t)
    return 0


CURVE_HELP = """\
The learning curve of the bidding evaluation: the declared games of --data are split once
(--held-out share, --seed) into a training pool and a test set; a model is fitted on the first
N games of the pool for each N of --sizes (a size above the pool fits the whole pool) and
scored on the test set: log-loss, Brier score and mean predicted against actual win rate, per
game family. --reference models (default: the packaged one) are scored on the same test set.
Writes --json and a plot (--plot PNG).
"""


def _sizes(text: str) -> list[int]:
    parse = checks.integer(1, checks.COUNT_MAX)
    try:
        sizes = [parse(part.strip()) for part in text.split(",") if part.strip()]
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError(f"comma-separated sizes: {e}") from None
    if not sizes:
        raise argparse.ArgumentTypeError(f"expected comma-separated sizes, got {text!r}")
    return sizes


def check_curve(args: argparse.Namespace) -> None:
    for path in args.reference or []:
        checks.check_model("--reference", path)


def cmd_train_curve(args: argparse.Namespace, console: Console) -> int:
    from skat.bidding.model import BiddingModel, default_model
    from skat.records import read_records
    from skat.training.curve import curve_sizes, learning_curve, plot_curve
    from skat.training.fit import samples_from_records, split

    lines = read_records(args.data)
    samples = samples_from_records(lines[: args.max_games] if args.max_games else lines)
    train, test = split(samples, args.held_out, args.seed)
    if not test and samples:
        raise OptionError("--held-out", f"keeps none of the {len(samples)} declared games as tests")
    if not train or not test:
        raise OptionError("--data", f"{len(samples)} declared games: too few to split")
    refs = {os.path.basename(path): BiddingModel.load(path) for path in args.reference or []} or {
        "packaged": default_model()
    }
    fits = curve_sizes(args.sizes, len(train))
    console.print(f"{len(samples)} declared games: pool {len(train)}, test {len(test)}")
    with progress_bar(console) as bar:
        task = bar.add_task("fitting", total=len(fits))
        curve = learning_curve(
            train, test, args.sizes, refs, progress=lambda n: bar.advance(task, 1)
        )
    curve["command"] = checks.command_line()
    t = Table(title=f"held-out scores on {len(test)} games (lower is better)")
    t.add_column("model")
    for col in ("log-loss", "Brier", *(f"{f} pred/actual" for f in ("suit", "grand", "null"))):
        t.add_column(col, justify="right")
    rows = [(f"{pt['training_games']} games", pt) for pt in curve["points"]]
    rows += list(curve["references"].items())
    for name, pt in rows:
        cal = [
            f"{pt['families'][f]['predicted']:.3f}/{pt['families'][f]['actual']:.3f}"
            if f in pt["families"]
            else "-"
            for f in ("suit", "grand", "null")
        ]
        t.add_row(name, f"{pt['log_loss']:.4f}", f"{pt['brier']:.4f}", *cal)
    console.print(t)
    save_outputs(console, curve, args.json, args.plot, plot_curve)
    return 0


KNN_HELP = """\
Label deals double-dummy for the k-NN bidding of the 'knn' player (a KNNDDSS-style baseline):
for every seat of --deals deals and every suit and grand, the seat picks up the skat, puts
away two cards by the rule-based heuristic, and the open-handed solver gives her card points;
the ten dealt cards' features with those points make one labelled hand. Writes the model
(--out FILE, k = --k) for 'knn:model=FILE'. The labels do not depend on --workers.
"""


def cmd_train_knn(args: argparse.Namespace, console: Console) -> int:
    from skat.training.knn import build_model

    with progress_task(console, "labelling deals", args.deals) as progress:
        model = build_model(
            args.deals,
            args.seed,
            args.k,
            workers=args.workers,
            ray=args.ray,
            progress=progress,
            note={"command": checks.command_line()},
        )
    model.save(args.out)
    t = Table(title=f"{args.out}: {len(model.y)} labelled hands from {args.deals} deals")
    for col in ("kind", "hands", "mean card points", "share at 61+"):
        t.add_column(col, justify="right")
    from skat.bidding.knn import KNN_TYPES

    for i, gt in enumerate(KNN_TYPES):
        ys = model.y[model.kind == i]
        t.add_row(gt.letter, str(len(ys)), f"{ys.mean():.1f}", f"{(ys >= 61).mean():.1%}")
    console.print(t)
    return 0


def check_inference(args: argparse.Namespace) -> None:
    if not args.smoothing > 0:
        raise checks.OptionError("--smoothing", f"expected a number > 0, got {args.smoothing:g}")
    checks.check_specs("--bidder", [args.bidder], (1,))


def cmd_train_inference(args: argparse.Namespace, console: Console) -> int:
    from skat.inference import InferenceTables, outcome_name
    from skat.training.inference_tables import count_auctions

    start = time.time()
    with progress_task(console, "auctions", args.deals) as progress:
        counts, hands = count_auctions(
            args.deals,
            seed=args.seed,
            bidder=args.bidder,
            workers=args.workers,
            progress=progress,
            ray=args.ray,
        )
    note = {
        "command": checks.command_line(),
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


def _run_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.TRAIN_SEED,
        help=f"{seed_help}, 0..2**64-1 (default: {defaults.TRAIN_SEED})",
    )
    checks.add_parallel_options(p)


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``train`` with its kinds."""
    t = sub.add_parser(
        "train",
        help="make self-play games, learn the bidding evaluation or the inference tables",
        description="Make training data or learn a model: 'skat train selfplay' (self-play"
        " games in shards, locally or on Ray), 'skat train bidding' (the 10+2 bidding"
        " evaluation from self-play or human games), 'skat train curve' (its learning curve),"
        " 'skat train knn' (the knn player's double-dummy labels),"
        " 'skat train estimators' (the solver's card-point estimators for ProbCut)"
        " or 'skat train inference' (the auction tables of card inference)."
        " 'skat train KIND --help' describes KIND.",
    )
    kinds = t.add_subparsers(dest="what", metavar="KIND", required=True)
    train_estimators.add_parser(kinds, _run_options)
    train_selfplay.add_parser(kinds, _run_options)

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
    _run_options(b, "generation and split seed")
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
        metavar="PATH",
        type=checks.in_path,
        help="more records to learn from: ISS files (gzip too) or self-play directories",
    )
    b.add_argument(
        "--max-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=0,
        help="use only the first N records of --data and --records, in file and line order"
        " (self-play directories: games 0..N-1; default: 0, all)",
    )
    b.add_argument(
        "--iss",
        nargs="*",
        metavar="PATH",
        type=checks.in_path,
        help="human ISS records (files, gzip too, or directories of them)",
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

    c = kinds.add_parser(
        "curve",
        help="learning curve of the bidding evaluation",
        description=CURVE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument(
        "--data",
        nargs="+",
        required=True,
        metavar="PATH",
        type=checks.in_path,
        help="records: ISS files (gzip too) or self-play directories",
    )
    c.add_argument(
        "--max-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=0,
        help="use only the first N records of --data (default: 0, all)",
    )
    c.add_argument(
        "--sizes",
        type=_sizes,
        default=list(defaults.CURVE_SIZES),
        help="training games per fit, comma-separated"
        f" (default: {','.join(str(n) for n in defaults.CURVE_SIZES)})",
    )
    c.add_argument(
        "--held-out",
        type=checks.real(0.0, 1.0, below_hi=True),
        default=defaults.CURVE_HELD_OUT,
        help=f"test share, 0..1 (default: {defaults.CURVE_HELD_OUT})",
    )
    c.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.TRAIN_SEED,
        help=f"split seed (default: {defaults.TRAIN_SEED})",
    )
    c.add_argument(
        "--reference",
        nargs="*",
        metavar="MODEL",
        type=checks.in_file,
        help="models to score on the same test set (default: the packaged one)",
    )
    c.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the curve plot")
    c.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the curve as JSON")
    c.set_defaults(func=cmd_train_curve, check=check_curve)

    kn = kinds.add_parser(
        "knn",
        help="label deals double-dummy for the knn player's bidding",
        description=KNN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kn.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.KNN_DEALS,
        help=f"deals to label (default: {defaults.KNN_DEALS})",
    )
    kn.add_argument(
        "--k", type=checks.integer(1, 10_000), default=defaults.KNN_K, help="neighbours"
    )
    _run_options(kn, "deal seed")
    kn.add_argument("--out", type=checks.out_file, required=True, help="model file to write")
    kn.set_defaults(func=cmd_train_knn)

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
        help=f"prior weight, > 0 (default: {defaults.TRAIN_SMOOTHING:g})",
    )
    _run_options(i, "deal seed")
    i.add_argument(
        "--out", type=checks.out_file, help="tables file to write (default: inference.npz)"
    )
    i.set_defaults(func=cmd_train_inference, check=check_inference)
