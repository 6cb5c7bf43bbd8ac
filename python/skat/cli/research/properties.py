"""``skat research properties``: leaf correlation, bias and disambiguation of real Skat games
from the start of card play (the thesis's Fig. 5.8)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_bar, save_json

HELP = """\
Measures the game-tree properties of section 5.3.1 in real Skat. Random deals (deal j from a
seed derived from --seed and j) are bid and declared by three --bidder players; the first
--games games of each type (suit, grand, null) are kept (at most --max-deals deals are bid).
With --records, the self-play games are instead the first --games of each type in those files
(ISS records, gzip too, or 'skat train selfplay' directories) and nothing is bid. The games of
any --iss record files are added as a separate source. From the start of card play of each game,
--samples random walks reach pre-terminal nodes (every move ends the game; chains of single
moves collapsed): lc is the share of nodes whose moves all give the soloist the same result, b
the share of those the soloist wins. --rollouts random playouts measure how the number of
worlds consistent with a player's view shrinks between his turns, converted to the synthetic
trees' df (see docs/pimc-theory.md). Prints per type mean, sd and quartiles; writes --json
(every game's values) and a Fig. 5.8-like scatter (--plot PNG).
"""


def check(args: argparse.Namespace) -> None:
    checks.check_specs("--bidder", [args.bidder], (1,))
    if args.games == 0 and not args.iss:
        raise checks.OptionError(
            "--games", "0 self-play games and no --iss records: nothing to measure"
        )
    if args.records and args.games > 0:
        _check_records(args.records, args.games)


def _check_records(paths: list[str], games: int) -> None:
    """An :class:`OptionError` naming the file and line of the first record that cannot be
    read among those the run takes (the first ``games`` declared games of each type), or
    when ``paths`` hold no declared game at all."""
    from skat._core import RecordError
    from skat.records import iter_records
    from skat.research.properties import record_games

    where = ["", 0]

    def lines() -> Iterator[str]:
        for path, number, line in iter_records(paths):
            where[:] = [path, number]
            yield line

    try:
        chosen = record_games(lines(), games)
    except (OSError, RecordError) as e:
        at = f"{where[0]}:{where[1]}: " if where[0] else ""
        raise checks.OptionError("--records", f"{at}{e}") from e
    if not any(chosen.values()):
        raise checks.OptionError(
            "--records", f"no declared game in {', '.join(paths)}: nothing to measure"
        )


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.records import read_iss, read_records
    from skat.research.properties import (
        TYPES,
        choose_games,
        game_kind,
        measure_games,
        plot,
        record_games,
        start_of_play,
        summary,
    )

    start = time.time()
    chosen: dict[str, list[tuple[int, str]]] = {t: [] for t in TYPES}
    if args.records:
        chosen = record_games(read_records(args.records), args.games)
    elif args.games:
        limit = args.max_deals or 60 * args.games
        with progress_bar(console) as bar:
            task = bar.add_task("bidding deals", total=limit)
            chosen = choose_games(
                args.games,
                args.seed,
                args.bidder,
                workers=args.workers,
                ray=args.ray,
                max_deals=limit,
                progress=lambda n: bar.advance(task, n),
            )
    console.print("self-play games: " + ", ".join(f"{t} {len(chosen[t])}" for t in TYPES))
    human: dict[str, list[tuple[int, str]]] = {t: [] for t in TYPES}
    for path in args.iss or []:
        for k, game in enumerate(read_iss(path)):
            g = start_of_play(game)
            if g is not None:
                human[game_kind(g)].append((-1 - k, g.to_iss()))
    total = sum(len(v) for v in chosen.values()) + sum(len(v) for v in human.values())
    with progress_bar(console) as bar:
        task = bar.add_task("measuring games", total=total)
        results: dict[str, Any] = {}
        for source, games in (("self-play", chosen), ("iss", human)):
            if any(games.values()):
                results[source] = measure_games(
                    games,
                    args.samples,
                    args.rollouts,
                    args.seed,
                    workers=args.workers,
                    ray=args.ray,
                    progress=lambda n: bar.advance(task, n),
                )
    out: dict[str, Any] = {
        "seed": args.seed,
        "bidder": None if args.records else args.bidder,
        "records": list(args.records or []),
        "samples": args.samples,
        "rollouts": args.rollouts,
        "seconds": 0.0,
    }
    for source, measured in results.items():
        summ = summary(measured)
        t = Table(title=f"{source}: game-tree properties from the start of card play")
        for col in ("type", "games", "lc mean (sd)", "lc q1..q3", "b mean (sd)", "df mean (sd)"):
            t.add_column(col, justify="right")
        for kind in TYPES:
            e = summ[kind]

            def cell(key: str, e: dict[str, Any] = e) -> str:
                v = e.get(key)
                return "-" if v is None else f"{v['mean']:.3f} ({v['sd']:.3f})"

            lc = e.get("lc")
            quart = "-" if lc is None else f"{lc['q1']:.2f}..{lc['q3']:.2f}"
            t.add_row(kind, str(e["games"]), cell("lc"), quart, cell("b"), cell("df"))
        console.print(t)
        out[source] = {"summary": summ, "games": measured}
    out["seconds"] = round(time.time() - start, 1)
    save_json(args.json, out)
    if args.plot:
        everything = [m for measured in results.values() for m in measured]
        plot(everything, args.plot)
        console.print(f"figure: {args.plot}")
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research properties``."""
    p = kinds.add_parser(
        "properties",
        help="leaf correlation, bias and disambiguation of Skat games (Fig. 5.8)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=defaults.PROPERTIES_GAMES,
        help=f"self-play games per game type (default: {defaults.PROPERTIES_GAMES};"
        " the thesis: 10000)",
    )
    p.add_argument(
        "--max-deals",
        type=checks.integer(1, checks.COUNT_MAX),
        help="the most deals to bid (default: 60 x --games)",
    )
    p.add_argument(
        "--samples",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.PROPERTIES_SAMPLES,
        help=f"pre-terminal samples per game (default: {defaults.PROPERTIES_SAMPLES};"
        " the thesis: 1000)",
    )
    p.add_argument(
        "--rollouts",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.PROPERTIES_ROLLOUTS,
        help=f"disambiguation playouts per game (default: {defaults.PROPERTIES_ROLLOUTS})",
    )
    p.add_argument(
        "--bidder",
        default=defaults.TRAIN_BIDDER,
        metavar="SPEC",
        help=f"the player bidding and declaring the deals (default: {defaults.TRAIN_BIDDER})",
    )
    p.add_argument(
        "--records",
        nargs="+",
        metavar="PATH",
        type=checks.in_path,
        help="take the self-play games from these record files or self-play directories"
        " instead of bidding deals",
    )
    p.add_argument(
        "--iss", nargs="*", metavar="FILE", type=checks.in_file, help="human ISS record files"
    )
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.RESEARCH_SEED,
        help=f"deal and playout seed, 0..2**64-1 (default: {defaults.RESEARCH_SEED})",
    )
    checks.add_parallel_options(p)
    p.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results here")
    p.add_argument("--plot", metavar="PNG", type=checks.plot_file, help="write the scatter here")
    p.set_defaults(func=run, check=check)
