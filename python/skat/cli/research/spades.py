"""``skat research spades``: Sturtevant and Bowling's three-player Spades experiments, Table 2
(max^n opponent models), Table 4 (soft-max^n with the generic model) and the inference
experiment of section 4.3."""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_outputs

HELP = """\
Three-player perfect-information Spades (7 cards each from a 52-card deck, spades trump, one
rule-based bidder for everybody; a made bid scores 10 x bid plus 1 per overtrick, every 10
accumulated overtricks cost 100, a missed bid costs 10 x bid; a game ends when someone
reaches 300). Players: MT maximises tricks, mOT minimises overtricks, each with a model of
its opponents (mOT_MT: assumes they maximise tricks) searched by max^n; mOT_g searches with
soft-max^n and the generic model (opponents only want to make their bids).

--table 2: rows a-f of Table 2; --table 4: rows a-d of Table 4 (%Gain and %Loss need the
Table 2 rows a-e, read from --reference, a --json file of --table 2). Each row plays --games
seeds in the six seatings of Table 1 (the same cards in each). --table inference: --games
hands for each of the nine pairs of opponent kinds (MT, mOT, ML), counting the kinds an
observer rules out from their decisions. The result does not depend on --workers.
"""


def _rows(text: str) -> list[str]:
    rows = [r.strip() for r in text.split(",") if r.strip()]
    if not rows or any(r not in "abcdef" or len(r) != 1 for r in rows):
        raise argparse.ArgumentTypeError(f"expected rows like 'a,d' (letters a-f), got {text!r}")
    if len(set(rows)) != len(rows):
        raise argparse.ArgumentTypeError(f"expected distinct rows, got {text!r}")
    return rows


def check(args: argparse.Namespace) -> None:
    from skat.research.spades import TABLE2, TABLE4

    if args.table == "inference":
        if args.rows or args.reference:
            raise OptionError("--rows/--reference", "only for --table 2 or 4")
        return
    spec = TABLE2 if args.table == "2" else TABLE4
    bad = [r for r in args.rows or [] if r not in spec]
    if bad:
        raise OptionError("--rows", f"Table {args.table} has rows {', '.join(spec)}, not {bad}")
    if args.reference and args.table != "4":
        raise OptionError("--reference", "only for --table 4")
    if args.games < 2:
        raise OptionError("--games", "at least 2 seeds per row (for standard errors)")
    if args.reference:
        try:
            with open(args.reference, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise OptionError("--reference", f"cannot read Table 2 JSON: {e}") from e
        if not isinstance(data, dict) or data.get("table") != 2:
            raise OptionError(
                "--reference", "not a --json file of 'skat research spades --table 2'"
            )
        _check_reference_rows(data.get("rows"), TABLE2)


def _check_reference_rows(rows: Any, table2: Mapping[str, Any]) -> None:
    """An :class:`OptionError` unless ``rows`` maps Table 2 row letters to rows with finite
    ``a_win`` and ``b_win`` percentages (what %Gain and %Loss read)."""
    if not isinstance(rows, dict):
        raise OptionError("--reference", 'no Table 2 rows (expected "rows": {"a": {...}})')
    for r, row in rows.items():
        if r not in table2:
            raise OptionError("--reference", f"Table 2 has rows {', '.join(table2)}, not {r!r}")
        for key in ("a_win", "b_win"):
            value = row.get(key) if isinstance(row, dict) else None
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if not number or not math.isfinite(float(value or 0)):
                raise OptionError(
                    "--reference", f"row {r!r} needs a number {key}, the win % of a Table 2 row"
                )


def _cell(row: dict[str, Any], key: str) -> str:
    se = row.get(f"{key}_se")
    err = f" ±{se:.1f}" if se is not None else ""
    return f"{row[key]:.1f}{err} [{row['paper'][key]:.1f}]"


def _print_rows(console: Console, table: str, rows: dict[str, dict[str, Any]]) -> None:
    t = Table(title=f"Table {table} (ours; the paper's in brackets)")
    for col in ("row", "A v. B", "A score", "A %win", "B score", "B %win", "games"):
        t.add_column(col, justify="right")
    if table == "4":
        t.add_column("%Gain", justify="right")
        t.add_column("%Loss", justify="right")
    for r, row in rows.items():
        p = row["paper"]
        cells = [
            f"({r})",
            " v. ".join(row["players"]),
            *(_cell(row, key) for key in ("a_score", "a_win", "b_score", "b_win")),
            str(row["games"]),
        ]
        if table == "4":
            for key in ("gain", "loss"):
                v = row.get(key)
                cells.append(("-" if v is None else f"{v:+.1f}") + f" [{p[key]:.1f}]")
        t.add_row(*cells)
    console.print(t)


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research import spades
    from skat.research.spades_plot import plot_spades

    start = time.time()
    if args.table == "inference":
        console.print(
            f"inference: {args.games} hands x 9 opponent pairs, seed {args.seed},"
            f" {checks.workers_text(args)}"
        )
        with progress_bar(console) as bar:
            task = bar.add_task("opponent pairs", total=9)
            res = spades.inference(
                args.games,
                args.seed,
                cards=args.cards,
                workers=args.workers,
                ray=args.ray,
                progress=lambda n: bar.advance(task, n),
            )
        ro = res["ruled_out"]
        console.print(
            f"{res['hands']} hands, {res['decisions']} opponent decisions checked:"
            f" {res['inferences']} inferences (paper: 423 in 900 hands); ruled out in"
            f" (hand, opponent) pairs: MT {ro['MT']}, mOT {ro['mOT']}, ML {ro['ML']}"
            f" (paper: 103, 106, 51); some kind ruled out in {res['hands_with_inference']};"
            f" true kinds ruled out: {res['wrong']}"
        )
        result: dict[str, Any] = {"table": "inference", **res}
    else:
        spec = spades.TABLE2 if args.table == "2" else spades.TABLE4
        rows = args.rows or list(spec)
        total = len(rows) * args.games * len(spades.ARRANGEMENTS)
        console.print(
            f"Table {args.table}, rows {','.join(rows)}: {total} games ({args.games} seeds x 6"
            f" seatings per row), seed {args.seed}, {checks.workers_text(args)}"
        )
        with progress_bar(console) as bar:
            task = bar.add_task("games", total=total)
            table_rows = spades.table_rows(
                int(args.table),
                rows,
                args.games,
                args.seed,
                cards=args.cards,
                target=args.target,
                workers=args.workers,
                ray=args.ray,
                progress=lambda n: bar.advance(task, n),
            )
        if args.table == "4":
            reference: dict[str, Any] = {}
            if args.reference:
                with open(args.reference, encoding="utf-8") as f:
                    reference = json.load(f)["rows"]
            spades.add_gain_loss(table_rows, reference)
        _print_rows(console, args.table, table_rows)
        result = {"table": int(args.table), "rows": table_rows, **table_rows}
    result["settings"] = {
        "games": args.games,
        "seed": args.seed,
        "cards": args.cards,
        "target": args.target,
        "seconds": round(time.time() - start, 1),
    }
    console.print(f"{result['settings']['seconds']} s")
    save_outputs(console, result, args.json, args.plot, plot_spades)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research spades``."""
    s = kinds.add_parser(
        "spades",
        help="soft-max^n and opponent models in three-player Spades (Sturtevant and Bowling)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--table", choices=("2", "4", "inference"), required=True, help="experiment")
    s.add_argument(
        "--games",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SPADES_GAMES,
        help="seeds per row (each in six seatings), or hands per opponent pair with"
        f" --table inference (default: {defaults.SPADES_GAMES}; the paper: 100)",
    )
    s.add_argument("--rows", type=_rows, help="only these rows, e.g. 'a,d' (default: all)")
    s.add_argument(
        "--reference",
        metavar="FILE",
        type=checks.in_file,
        help="--json of --table 2, for Table 4's %%Gain and %%Loss",
    )
    s.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results here")
    s.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write a plot here")
    s.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.SPADES_SEED,
        help=f"deal seed, 0..2**64-1 (default: {defaults.SPADES_SEED})",
    )
    s.add_argument(
        "--cards",
        type=checks.integer(1, 9),
        default=defaults.SPADES_CARDS,
        help=f"cards per player and hand, 1..9 (default: {defaults.SPADES_CARDS})",
    )
    s.add_argument(
        "--target",
        type=checks.integer(1, 100_000),
        default=defaults.SPADES_TARGET,
        help=f"score that ends a game (default: {defaults.SPADES_TARGET})",
    )
    checks.add_parallel_options(s)
    s.set_defaults(func=run, check=check)
