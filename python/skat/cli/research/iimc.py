"""``skat research iimc speed|soloist|plot|profile``: the recursive Monte Carlo measurements.

The computations are :mod:`skat.research.iimc`; this module checks the options, shows
progress, prints the tables and writes ``--json``/``--plot``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from typing import Any

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, progress_task, save_json, save_outputs

HELP = """\
Recursive Monte Carlo (IIMC, Recursive Kermit) measurements of the solver thesis's chapter 9.
'speed SPEC...': seconds per card decision of each player (first trick at every seat, later as
declarer) and per game as declarer. 'soloist A B': a duplicate card-play tournament (each deal
declared by --bidder and played twice, A declaring against two B, then B against two A); the
mean soloist score of each with its standard error and the paired difference; --records
writes every game. 'plot JSON...': soloist results as a PNG (soloist score against the first
number in A's spec). 'profile RECORDS...': where the open-hand (PIPMA) errors fall, per trick,
for the soloist and the defenders of each line-up (Fig. 9.6).
"""


def check(args: argparse.Namespace) -> None:
    if args.what == "speed":
        checks.check_specs("SPEC", args.specs, tuple(range(1, 33)))
        checks.check_specs("--defenders", [args.defenders], (1,))
        checks.check_specs("--bidder", [args.bidder], (1,))
    elif args.what == "soloist":
        checks.check_specs("A", [args.a], (1,))
        checks.check_specs("B", [args.b], (1,))
        checks.check_specs("--bidder", [args.bidder], (1,))
    elif args.what == "plot":
        for path in args.files:
            _check_plot_input(path)
    else:
        from skat._core import RecordError
        from skat.records import read_iss

        for path in args.files:
            try:
                for _ in read_iss(path):
                    pass
            except (OSError, RecordError) as e:
                raise OptionError("RECORDS", str(e)) from e


def _check_plot_input(path: str) -> None:
    """An :class:`OptionError` unless ``path`` holds a soloist result that can be plotted: A's
    and B's specs, A's spec with a positive number (the worlds, on a log axis), A's mean
    soloist score as a finite number (its standard error, null after one deal, may be
    missing: the point is drawn without an error bar)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        a, b, mean, se = data["a"], data["b"], data["a_soloist"], data["a_soloist_se"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise OptionError("JSON", f"{path}: not a soloist result ({e})") from e
    if not isinstance(a, str) or not isinstance(b, str):
        raise OptionError("JSON", f"{path}: not a soloist result (a and b must be player specs)")
    worlds = re.search(r"(\d+)", a)
    if worlds is None or int(worlds.group(1)) < 1:
        raise OptionError(
            "JSON", f"{path}: A's spec {a!r} has no number of worlds (a positive number to plot)"
        )
    if not _finite(mean):
        raise OptionError("JSON", f"{path}: a_soloist is {mean!r}, not a number")
    if se is not None and not isinstance(se, (int, float)):
        raise OptionError("JSON", f"{path}: a_soloist_se is {se!r}, not a number")


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.iimc import plot_soloist, soloist, speed

    result: Any
    if args.what == "profile":
        return _profile(args, console)
    if args.what == "plot":
        results = []
        for path in args.files:
            with open(path, encoding="utf-8") as f:
                results.append(json.load(f))
        plot_soloist(results, args.out)
        console.print(f"plot: {args.out}")
        return 0
    if args.what == "speed":
        result = []
        t = Table(title="seconds per card decision with a choice")
        for col in ("player", "first trick", "later", "per game as declarer"):
            t.add_column(col, justify="right")
        with console.status("timing decisions..."):
            for spec in args.specs:
                r = speed(spec, args.games, args.seed, args.defenders, args.bidder)
                result.append(r)
                t.add_row(
                    spec,
                    _num(r["seconds_first_trick"]),
                    _num(r["seconds_later"]),
                    _num(r["seconds_per_game"]),
                )
        console.print(t)
    else:
        with progress_task(console, "tournament", args.deals) as progress:
            result = soloist(
                args.a,
                args.b,
                args.deals,
                args.seed,
                args.bidder,
                workers=args.workers,
                ray=args.ray,
                progress=progress,
                records=args.records,
            )
        t = Table(title=f"soloist scores per game, {result['deals']} deals, seed {args.seed}")
        for col in ("player", "mean", "± SE"):
            t.add_column(col, justify="right")
        t.add_row(f"A: {args.a}", _num(result["a_soloist"]), _num(result["a_soloist_se"]))
        t.add_row(f"B: {args.b}", _num(result["b_soloist"]), _num(result["b_soloist_se"]))
        t.add_row("A - B", _num(result["difference"]), _num(result["difference_se"]))
        console.print(t)
    save_json(args.json, result)
    return 0


def _profile(args: argparse.Namespace, console: Console) -> int:
    from skat.records import read_records
    from skat.research.error_profile import error_profile, plot_profile

    with progress_bar(console) as bar:
        task = bar.add_task("analysing games", total=len(read_records(args.files)))
        result = error_profile(
            args.files,
            workers=args.workers,
            ray=args.ray,
            progress=lambda n: bar.advance(task, n),
        )
    t = Table(title="open-hand errors per game, by trick (PIPMA)")
    t.add_column("soloist")
    t.add_column("games", justify="right")
    t.add_column("side")
    for k in range(1, 11):
        t.add_column(str(k), justify="right")
    t.add_column("all", justify="right")
    t.add_column("rate", justify="right")
    for name, entry in result["lineups"].items():
        for role in ("soloist", "defenders"):
            e = entry[role]
            t.add_row(
                name,
                str(entry["games"]),
                role,
                *(f"{x / entry['games']:.2f}" for x in e["errors"]),
                _num(e["errors_per_game"]),
                _num(e["rate"]),
            )
    console.print(t)
    save_outputs(console, result, args.json, args.plot, plot_profile)
    return 0


def _num(x: float | None) -> str:
    return "-" if x is None or x != x else f"{x:.2f}"


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research iimc``."""
    k = kinds.add_parser(
        "iimc",
        help="recursive Monte Carlo: decision times and soloist tournaments (ch. 9)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    what = k.add_subparsers(dest="what", metavar="speed|soloist|plot|profile", required=True)
    sp = what.add_parser("speed", help="decision times of players", description=HELP)
    sp.add_argument("specs", nargs="+", metavar="SPEC")
    sp.add_argument(
        "--games", type=checks.integer(1, 10_000), default=1, help="games per player (default 1)"
    )
    sp.add_argument(
        "--defenders",
        default=defaults.IIMC_DEFENDERS,
        metavar="SPEC",
        help=f"who plays the other cards (default: {defaults.IIMC_DEFENDERS})",
    )
    so = what.add_parser("soloist", help="soloist scores of a duplicate tournament")
    so.add_argument("a", metavar="A")
    so.add_argument("b", metavar="B")
    so.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.IIMC_DEALS,
        help=f"deals (default: {defaults.IIMC_DEALS})",
    )
    checks.add_parallel_options(so)
    so.add_argument(
        "--records", metavar="FILE", type=checks.out_file, help="write every game as an ISS record"
    )
    for p in (sp, so):
        p.add_argument(
            "--seed",
            type=checks.seed,
            default=defaults.IIMC_SEED,
            help=f"deal seed (default: {defaults.IIMC_SEED})",
        )
        p.add_argument(
            "--bidder",
            default=defaults.IIMC_BIDDER,
            metavar="SPEC",
            help=f"who bids and declares (default: {defaults.IIMC_BIDDER})",
        )
        p.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the result")
        p.set_defaults(func=run, check=check)
    pl = what.add_parser("plot", help="soloist results as a PNG")
    pl.add_argument("files", nargs="+", metavar="JSON", type=checks.in_file)
    pl.add_argument("--out", metavar="PNG", type=checks.plot_file, required=True)
    pl.set_defaults(func=run, check=check)
    pr = what.add_parser(
        "profile", help="where the open-hand errors fall, per trick and side (Fig. 9.6)"
    )
    pr.add_argument("files", nargs="+", metavar="RECORDS", type=checks.in_file)
    checks.add_parallel_options(pr)
    pr.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the result")
    pr.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the figure")
    pr.set_defaults(func=run, check=check)
