"""``skat tables build``, ``info``, ``halve`` and ``check``: the solver's endgame lookup tables.

The building code is :mod:`skat.tables`; this module checks the options, shows the progress
and prints the summaries.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress, TaskID
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_json

BUILD_HELP = f"""\
Build the endgame lookup tables (solver thesis ch. 8): the exact value of every
start-of-trick position with 3..K cards per hand, per game class, as a few exact
"tentpole" valuations per canonical state. One file per class and size in DIR.

Resumable: finished tables are kept and finished shards of an interrupted table are kept
under DIR/parts. Runs on every local core (--workers) or on Ray (--ray). Point a player at
the directory with tables=DIR, the solver bench with --tables DIR, or everything with
${defaults.TABLES_ENV}=DIR. Sizes: suit-3 and grand-3 take minutes; null up to 4 seconds.
"""


def _classes(text: str) -> list[str]:
    from skat.tables import CLASSES

    out = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in out if c not in CLASSES]
    if bad or not out:
        raise argparse.ArgumentTypeError(f"expected classes from suit, grand, null; got {text!r}")
    return out


def _table_progress(bar: Progress) -> Callable[[str, int, int], None]:
    """A ``progress(label, rows_done, rows_total)`` callback with one bar per table."""
    tasks: dict[str, TaskID] = {}

    def progress(label: str, done: int, total: int) -> None:
        if label not in tasks:
            tasks[label] = bar.add_task(f"{label} rows", total=total)
        bar.update(tasks[label], completed=done)

    return progress


def cmd_tables_estimate(args: argparse.Namespace, console: Console) -> int:
    from skat.tables import MIN_CARDS, estimate

    t = Table(
        title=f"Projected cost of the tables, from {args.estimate} random rows each"
        " (built and discarded, one thread"
        + (", greedy" if args.no_walk else "")
        + (", full rows" if args.no_half else "")
        + (", pruned)" if args.prune else ")")
    )
    for col in ("table", "rows", "ms per row", "tentpoles per row", "CPU hours", "disk GB"):
        t.add_column(col, justify="right")
    seed = defaults.TABLES_SEED if args.seed is None else args.seed
    out = []
    for k in range(MIN_CARDS, args.cards + 1):
        for cls in args.classes:
            e = estimate(
                cls, k, args.estimate, seed, args.prune, not args.no_walk, not args.no_half
            )
            out.append(e)
            t.add_row(
                f"{cls}-{k}",
                f"{e['rows']:,}",
                f"{1000 * e['seconds_per_row']:.3f}",
                f"{e['tentpoles_per_row']:.1f}",
                f"{e['cpu_hours']:.2f}",
                f"{e['disk_bytes'] / 1e9:.2f}",
            )
    console.print(t)
    save_json(
        args.json,
        {
            "estimate_rows": args.estimate,
            "seed": seed,
            "prune": args.prune,
            "walk": not args.no_walk,
            "half": not args.no_half,
            "tables": out,
        },
    )
    return 0


def cmd_tables_build(args: argparse.Namespace, console: Console) -> int:
    from skat.tables import build

    if args.estimate:
        return cmd_tables_estimate(args, console)

    with progress_bar(console) as bar:
        progress = _table_progress(bar)
        built = build(
            args.out,
            args.cards,
            args.classes,
            workers=args.workers,
            ray=args.ray,
            shard_rows=args.shard_rows,
            prune=args.prune,
            walk=not args.no_walk,
            half=not args.no_half,
            progress=progress,
        )
    if not built:
        console.print(f"{args.out}: every table was already there")
    t = Table(title=f"{args.out}: tables built now")
    for col in ("table", "rows", "tentpoles", "per row", "seconds"):
        t.add_column(col, justify="right")
    for b in built:
        t.add_row(
            f"{b['class']}-{b['cards']}",
            f"{b['rows']:,}",
            f"{b['tentpoles']:,}",
            f"{b['tentpoles'] / max(1, b['rows']):.1f}",
            f"{b['seconds']:.0f}",
        )
    if built:
        console.print(t)
    save_json(args.json, {"out": args.out, "cards": args.cards, "built": built})
    return 0


def cmd_tables_info(args: argparse.Namespace, console: Console) -> int:
    from skat.tables import info, unfinished

    rows = info(args.dir)
    open_builds = unfinished(args.dir)
    t = Table(title=f"{args.dir}: endgame lookup tables")
    for col in ("table", "rows", "tentpoles", "memory MB", "disk MB", "complete"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(
            f"{r['class']}-{r['cards']}",
            f"{r['rows']:,}",
            f"{r['entries']:,}",
            f"{r['memory_bytes'] / 2**20:.1f}",
            f"{r['disk_bytes'] / 2**20:.1f}",
            "yes" if r["complete"] else "NO",
        )
    if rows:
        console.print(t)
    else:
        console.print(f"{args.dir}: no tables")
    if open_builds:
        u = Table(title="unfinished: 'skat tables build' or 'halve' resumes them")
        for col in ("task", "table", "shards kept", "rows done", "of rows"):
            u.add_column(col, justify="right")
        for b in open_builds:
            share = b["rows_done"] / b["rows"] if b["rows"] else 0.0
            u.add_row(
                b["task"],
                f"{b['class']}-{b['cards']}",
                f"{b['shards']:,}",
                f"{b['rows_done']:,} ({share:.1%})",
                f"{b['rows']:,}",
            )
        console.print(u)
    save_json(args.json, {"dir": args.dir, "tables": rows, "unfinished": open_builds})
    return 0


def cmd_tables_halve(args: argparse.Namespace, console: Console) -> int:
    from skat.tables import halve

    with progress_bar(console) as bar:
        progress = _table_progress(bar)
        done = halve(
            args.dir,
            workers=args.workers,
            ray=args.ray,
            shard_rows=args.shard_rows,
            progress=progress,
        )
    t = Table(title=f"{args.dir}: tables with half rows")
    for col in ("table", "rows", "tentpoles before", "after", "seconds"):
        t.add_column(col, justify="right")
    for d in done:
        t.add_row(
            f"{d['class']}-{d['cards']}",
            f"{d['rows']:,}",
            f"{d['tentpoles_before']:,}",
            f"{d['tentpoles_after']:,}",
            f"{d['seconds']:.0f}",
        )
    if done:
        console.print(t)
    else:
        console.print(f"{args.dir}: no complete suit or grand tables")
    save_json(args.json, {"dir": args.dir, "tables": done})
    return 0


def _check_check(args: argparse.Namespace) -> None:
    from skat.tables import complete_sizes

    if not complete_sizes(args.dir):
        raise OptionError("DIR", f"no complete tables in {args.dir} to check")


def cmd_tables_check(args: argparse.Namespace, console: Console) -> int:
    from skat.tables import check

    with console.status(f"solving {args.positions} positions per class, with and without"):
        rows = check(args.dir, args.positions, args.seed)
    t = Table(title=f"{args.dir}: the tables against the plain solver (seed {args.seed})")
    for col in ("class", "cards per hand", "positions", "values that differ"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(
            r["class"], "{}..{}".format(*r["cards"]), f"{r['positions']:,}", str(r["mismatches"])
        )
    console.print(t)
    save_json(args.json, {"dir": args.dir, "seed": args.seed, "classes": rows})
    return 1 if any(r["mismatches"] for r in rows) else 0


def _check_build(args: argparse.Namespace) -> None:
    from skat.tables import TablesError, check_method, check_parts, check_sizes

    if args.estimate is None and args.out is None:
        raise OptionError("--out", "a tables directory is required (unless --estimate)")
    if args.estimate is None and args.seed is not None:
        raise OptionError("--seed", "only with --estimate (a build tabulates every row)")
    try:
        check_sizes(args.classes, args.cards)
    except TablesError as e:
        raise OptionError("--cards", str(e)) from None
    if args.estimate is None:
        try:
            check_parts(args.out, args.cards, args.classes, args.shard_rows)
        except TablesError as e:
            raise OptionError("--shard-rows", str(e)) from None
        try:
            method = (args.prune, not args.no_walk, not args.no_half)
            check_method(args.out, args.cards, args.classes, method)
        except TablesError as e:
            raise OptionError("--prune/--no-walk/--no-half", str(e)) from None


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``tables`` with ``build``, ``info``, ``halve`` and ``check``."""
    from skat.tables import MAX_CARDS, MIN_CARDS

    t = sub.add_parser(
        "tables",
        help="build or inspect the solver's endgame lookup tables",
        description="Endgame lookup tables: 'skat tables build' makes them,"
        " 'skat tables info DIR' summarises a directory, 'skat tables halve DIR' stores its"
        " rows as half rows, 'skat tables check DIR' checks it against the plain solver.",
    )
    kinds = t.add_subparsers(dest="what", metavar="KIND", required=True)
    b = kinds.add_parser(
        "build",
        help="build the tables for 3..K cards per hand (resumable, parallel)",
        description=BUILD_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    b.add_argument(
        "--cards",
        type=checks.integer(MIN_CARDS, MAX_CARDS),
        required=True,
        help=f"largest cards per hand to tabulate, {MIN_CARDS}..{MAX_CARDS}",
    )
    b.add_argument(
        "--out",
        metavar="DIR",
        type=checks.out_dir,
        help="the tables directory (required unless --estimate)",
    )
    b.add_argument(
        "--classes",
        type=_classes,
        default=["suit", "grand", "null"],
        help="game classes, comma-separated (default: suit,grand,null)",
    )
    b.add_argument(
        "--shard-rows",
        type=checks.integer(1, checks.COUNT_MAX),
        default=None,
        help=f"rows per shard (default: {defaults.TABLES_SHARD_ROWS}, null"
        f" {defaults.TABLES_NULL_SHARD_ROWS:,})",
    )
    b.add_argument(
        "--prune",
        action="store_true",
        help="remove redundant tentpoles from each row (smaller tables with the same values),"
        " a longer build",
    )
    b.add_argument(
        "--no-walk",
        action="store_true",
        help="choose tentpoles greedily instead of by hard-edge walks: 10-20x more tentpoles"
        " and a slower build, the same values (for comparison)",
    )
    b.add_argument(
        "--no-half",
        action="store_true",
        help="store every row in full, not as its low half where that is smaller: more"
        " tentpoles, the same values (for comparison)",
    )
    b.add_argument(
        "--estimate",
        metavar="ROWS",
        type=checks.integer(1, checks.COUNT_MAX),
        help="instead of building: build ROWS random rows of each table (discarded) and"
        " project the CPU hours and disk size of the full build",
    )
    b.add_argument(
        "--seed",
        type=checks.seed,
        help=f"seed of --estimate's rows, 0..2**64-1 (default: {defaults.TABLES_SEED})",
    )
    b.add_argument("--json", metavar="FILE", type=checks.out_file, help="write a summary")
    checks.add_parallel_options(b)
    b.set_defaults(func=cmd_tables_build, check=_check_build)
    i = kinds.add_parser(
        "info",
        help="summarise a tables directory",
        description="Rows, tentpoles, memory and disk size of each table of DIR, and whether"
        " it holds every row of its class and size; then any interrupted build or halving"
        " (the shards kept under DIR/parts) and how far it got.",
    )
    i.add_argument("dir", metavar="DIR", type=checks.in_dir, help="the tables directory")
    i.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the summary")
    i.set_defaults(func=cmd_tables_info)
    h = kinds.add_parser(
        "halve",
        help="rewrite a directory's tables with half rows (same values, smaller)",
        description="Rewrites the complete suit and grand tables of DIR with every row"
        " stored as its low half where that has fewer tentpoles: only the tentpoles whose"
        " lower bounds reach each valuation's value, that bound then taken as exact (solver"
        " thesis ch. 8.5). Tables built without --no-half already are. Resumable; runs on"
        " every local core (--workers) or on Ray (--ray).",
    )
    h.add_argument("dir", metavar="DIR", type=checks.in_dir, help="the tables directory")
    h.add_argument(
        "--shard-rows",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.TABLES_SHARD_ROWS,
        help=f"rows per shard (default: {defaults.TABLES_SHARD_ROWS})",
    )
    h.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the summary")
    checks.add_parallel_options(h)
    h.set_defaults(func=cmd_tables_halve)
    c = kinds.add_parser(
        "check",
        help="check a tables directory against the plain solver",
        description="Solves random positions of each class of DIR with and without its"
        " complete tables (one or two cards per hand more than the tables hold, so that they"
        " are read inside the search) and counts the values that differ; exit status 1 if"
        " any does.",
    )
    c.add_argument("dir", metavar="DIR", type=checks.in_dir, help="the tables directory")
    c.add_argument(
        "--positions",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.TABLES_CHECK_POSITIONS,
        help=f"random positions per class (default: {defaults.TABLES_CHECK_POSITIONS})",
    )
    c.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.TABLES_SEED,
        help=f"seed, 0..2**64-1 (default: {defaults.TABLES_SEED})",
    )
    c.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the summary")
    c.set_defaults(func=cmd_tables_check, check=_check_check)
