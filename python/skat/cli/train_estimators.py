"""``skat train estimators``: the card-point estimators of the solver's ProbCut.

Generates labelled start-of-trick positions on every local core (or Ray; --samples keeps
them for later fits), fits one linear model per slot (class, cards per hand, leader's role)
and one small network per class shared by its slots, prints the held-out mean absolute error
of plain least squares (LR), LR clamped to the static bounds (LR+SA), the capped-residual
linear fit clamped (LRbdd+SA) and the network clamped (net+SA) beside the thesis's Table 7.3,
and writes the estimator file: the networks, or with --hidden 0 the LRbdd+SA linear models.
The build embeds ``crates/skat-core/data/estimators.bin``: write there and rebuild (``pip
install -e .``) to make a new file the one ProbCut uses.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_bar, save_json

HELP = __doc__.split("\n\n", 1)[1]

# Table 7.3 of the solver thesis, LRbdd+SA: mean absolute error by (class, tricks played,
# player to move); it has no estimators after the fourth trick.
THESIS_MAE = {
    ("suit", 1): (1.9, 3.0, 2.9),
    ("suit", 2): (1.9, 2.9, 2.8),
    ("suit", 3): (1.8, 2.5, 2.5),
    ("suit", 4): (1.6, 2.3, 2.2),
    ("grand", 1): (1.7, 3.0, 3.0),
    ("grand", 2): (1.8, 3.1, 3.0),
    ("grand", 3): (1.8, 3.0, 3.0),
    ("grand", 4): (1.7, 2.8, 2.8),
}


def check_estimators(args: argparse.Namespace) -> None:
    from skat.training.estimators import check_samples

    if args.samples and os.path.exists(args.samples):
        try:
            check_samples(args.samples, args.positions, args.seed)
        except (OSError, ValueError) as e:
            raise checks.OptionError("--samples", str(e)) from e


def _check_models(args: argparse.Namespace, linear: list[str], nets: list[str]) -> None:
    """An :class:`OptionError` (and no file written) unless the models to be written, the
    networks or with ``--hidden 0`` the linear models (given by their game classes), cover
    every game class: too few positions leave a slot without held-out positions to score it,
    and such a slot gets no model."""
    from skat.training.estimators import CLASSES

    have = nets if args.hidden > 0 else linear
    missing = [c for c in CLASSES if c not in have]
    if missing:
        raise checks.OptionError(
            "--positions",
            f"{args.positions} positions gave no {' or '.join(missing)} model (too few held-out"
            f" positions); nothing written to {args.out}, use more positions",
        )


def cmd_train_estimators(args: argparse.Namespace, console: Console) -> int:
    from skat.training.estimator_net import fit_nets
    from skat.training.estimators import (
        fit_all,
        generate,
        load_samples,
        report,
        save,
        save_samples,
    )

    start = time.time()
    with progress_bar(console) as bar:
        if args.samples and os.path.exists(args.samples):
            try:
                data = load_samples(args.samples, args.positions, args.seed)
            except (OSError, ValueError, KeyError) as e:
                raise checks.OptionError("--samples", f"{args.samples}: {e}") from e
        else:
            gen = bar.add_task("labelling positions", total=12 * args.positions)
            data = generate(
                args.positions,
                args.seed,
                workers=args.workers,
                ray=args.ray,
                progress=lambda n: bar.update(gen, completed=n),
            )
            if args.samples:
                save_samples(data, args.samples, args.positions, args.seed)
        label_s = time.time() - start
        fit = bar.add_task("fitting slots", total=len(data))
        fits = fit_all(
            data,
            cap=args.cap,
            steps=args.steps,
            progress=lambda n: bar.update(fit, completed=n),
        )
        nets = []
        if args.hidden > 0:
            task = bar.add_task("fitting networks", total=2 * args.epochs)
            nets = fit_nets(
                data,
                hidden=args.hidden,
                epochs=args.epochs,
                cap=args.cap,
                seed=args.seed,
                decay=args.decay,
                progress=lambda n: bar.update(task, completed=n),
            )
    _check_models(args, [f.game_class for f in fits], [n.game_class for n in nets])
    save(fits, args.out, nets=nets)
    out: dict[str, Any] = report(fits, nets)
    out.update(
        positions=args.positions,
        seed=args.seed,
        cap=args.cap,
        steps=args.steps,
        hidden=args.hidden,
        epochs=args.epochs if args.hidden > 0 else 0,
        decay=args.decay if args.hidden > 0 else None,
        model="net+SA" if args.hidden > 0 else "LRbdd+SA",
        file_bytes=os.path.getsize(args.out),
        label_seconds=round(label_s, 1),
        seconds=round(time.time() - start, 1),
    )

    t = Table(
        title=f"{args.out}: held-out mean absolute error (SD) in card points;"
        " thesis = Table 7.3, LRbdd+SA"
    )
    variants = ["LR", "LR+SA", "LRbdd+SA"] + (["net+SA"] if nets else [])
    for col in ("class", "tricks", "to move", "train", *variants, "thesis"):
        t.add_column(col, justify="left" if col in ("class", "to move") else "right")
    for s in out["slots"]:
        role = ("soloist", "left defender", "right defender").index(s["to_move"])
        thesis = THESIS_MAE.get((s["class"], s["tricks_played"]))
        t.add_row(
            s["class"],
            str(s["tricks_played"]),
            s["to_move"],
            f"{s['train']:,}",
            *(f"{s['mae'][v]:.2f} ({s['sd'][v]:.1f})" if v in s["mae"] else "" for v in variants),
            f"{thesis[role]:.1f}" if thesis else "",
        )
    console.print(t)
    console.print(f"labelled in {label_s:.0f} s, {out['seconds']:.0f} s in all")
    save_json(args.json, out)
    return 0


def add_parser(
    kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
    run_options: Callable[[argparse.ArgumentParser, str], None],
) -> None:
    """Adds ``train estimators``; ``run_options`` adds --seed, --workers and --ray."""
    e = kinds.add_parser(
        "estimators",
        help="learn the card-point estimators of the solver's ProbCut",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument(
        "--positions",
        type=checks.integer(10, checks.COUNT_MAX),
        default=defaults.ESTIMATOR_POSITIONS,
        help="labelled positions per class and hand size (4..9 cards; a tenth held out)"
        f" (default: {defaults.ESTIMATOR_POSITIONS})",
    )
    e.add_argument(
        "--cap",
        type=checks.real(0.1, 120.0),
        default=defaults.ESTIMATOR_CAP,
        help=f"residual cap in card points (default: {defaults.ESTIMATOR_CAP})",
    )
    e.add_argument(
        "--steps",
        type=checks.integer(1, 100_000),
        default=defaults.ESTIMATOR_STEPS,
        help=f"gradient steps per slot (default: {defaults.ESTIMATOR_STEPS})",
    )
    e.add_argument(
        "--hidden",
        type=checks.integer(0, 128),
        default=defaults.ESTIMATOR_HIDDEN,
        help="hidden width of the networks written (0: write the per-slot linear models)"
        f" (default: {defaults.ESTIMATOR_HIDDEN})",
    )
    e.add_argument(
        "--epochs",
        type=checks.integer(1, 1000),
        default=defaults.ESTIMATOR_EPOCHS,
        help="passes over the positions when fitting the networks"
        f" (default: {defaults.ESTIMATOR_EPOCHS})",
    )
    e.add_argument(
        "--decay",
        type=checks.real(0.01, 1.0),
        default=defaults.ESTIMATOR_DECAY,
        help="factor by which the networks' learning rate shrinks after each pass"
        f" (default: {defaults.ESTIMATOR_DECAY})",
    )
    e.add_argument(
        "--samples",
        metavar="FILE",
        type=checks.out_file,
        help="keep the labelled positions in FILE (.npz), or read them from it if it exists",
    )
    run_options(e, "position seed")
    e.add_argument("--out", type=checks.out_file, required=True, help="estimator file to write")
    e.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the report")
    e.set_defaults(func=cmd_train_estimators, check=check_estimators)
