"""``skat bench KIND``: one subcommand per benchmark, each with only its own options.

``solver`` (open-handed solver at 30 cards, ablations, node signature), ``pimc`` (seconds per
PIMC decision in the first trick and per game), ``rules`` (random games per second, against
OpenSpiel if installed), ``bidding`` (milliseconds per bidding-tree evaluation) and
``inference`` (milliseconds per inference draw). The measuring code is :mod:`skat.bench` (and
the Rust core for the solver); this module parses, prints tables and writes ``--json``
(``solver``: :mod:`skat.cli.bench_solver`).
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.bench_options import common_options, count_option
from skat.cli.bench_solver import add_solver_command
from skat.display import progress_bar, save_json


def _spread(s: dict[str, float], digits: int) -> list[str]:
    """The median, mean, 95th percentile and maximum of a timing summary, as table cells."""
    return [f"{s[k]:.{digits}f}" for k in ("median", "mean", "p95", "max")]


def check_bench_pimc(args: argparse.Namespace) -> None:
    if args.game_player is not None:
        checks.check_specs("--game-player", [args.game_player], (1,))


def cmd_bench_pimc(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_pimc

    points = not args.no_points
    with progress_bar(console) as progress:
        task = progress.add_task(
            f"PIMC, {args.worlds} worlds, {args.threads} thread(s)",
            total=args.deals + args.full_games,
        )
        out = bench_pimc(
            deals=args.deals,
            worlds=args.worlds,
            threads=args.threads,
            points=points,
            seed=args.seed,
            games=args.full_games,
            on_step=lambda _what: progress.advance(task),
            pcut=args.pcut,
            tables=args.tables,
            game_player=args.game_player,
        )
    table = Table(
        title=f"PIMC decisions in trick 1: {args.worlds} worlds, {args.threads} thread(s),"
        f" points {'on' if points else 'off'}, {args.deals} deals bid by 'rules', seed {args.seed}"
        + (f", ProbCut {args.pcut}" if args.pcut else "")
        + (f", tables {args.tables}" if args.tables else "")
    )
    for col in ("decision", "n", "median s", "mean s", "p95 s", "max s"):
        table.add_column(col, justify="left" if col == "decision" else "right")
    names = ["first card (lead)", "second card", "third card"]
    rows = list(zip(names, out["trick1_seconds"], strict=True))
    rows.append(("all trick-1 decisions", out["trick1_all"]))
    rows += [(f"  {k}", v) for k, v in out["by_game_type"].items()]
    if out["game_seconds"]:
        rows.append((f"full game, three {out['player']}", out["game_seconds"]))
    for name, s in rows:
        table.add_row(name, str(s["n"]), *_spread(s, 3))
    console.print(table)
    save_json(args.json, out)
    return 0


def cmd_bench_bidding(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_bidding

    with console.status(f"timing the bidding tree on {args.hands} hands..."):
        out = bench_bidding(hands=args.hands, seed=args.seed, repeat=args.repeat)
    table = Table(
        title=f"Bidding evaluation, ms per hand, one thread ({args.hands} random hands, best of"
        f" {out['repeat']} runs per hand; {out['machine']})"
    )
    for col in ("search", "median", "mean", "p95", "max"):
        table.add_column(col, justify="right")
    names = {
        "tree_ms": f"bidding tree at bid 18 (at most {out['leaves_max']:,} leaves)",
        "tree_all_bids_ms": "bidding tree, all 63 bids at once",
        "hand_game_ms": "best hand game (all hand contracts x 231 skats)",
        "pickup_value_ms": "pick-up value (231 skats x 66 discards x 7 contracts)",
    }
    for key, label in names.items():
        table.add_row(label, *_spread(out[key], 2))
    console.print(table)
    save_json(args.json, out)
    return 0


def cmd_bench_inference(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_inference

    with console.status(f"timing inference draws at {args.positions} first-card positions..."):
        out = bench_inference(
            positions=args.positions,
            seed=args.seed,
            repeat=args.repeat,
            candidates=args.candidates,
        )
    table = Table(
        title=f"Inference draw, ms per decision, one thread: {out['candidates']:,} candidates"
        f" sampled and weighted, {out['worlds']} worlds drawn (best of {out['repeat']};"
        f" {out['machine']})"
    )
    for col in ("seat", "median", "mean", "p95", "max", "nonzero", "effective", "fallbacks"):
        table.add_column(col, justify="right")
    for side in ("declarer", "defender"):
        table.add_row(
            side,
            *_spread(out[f"{side}_ms"], 2),
            f"{out[f'{side}_nonzero_share']:.1%}",
            f"{out[f'{side}_effective']:.0f}",
            str(out[f"{side}_fallbacks"]),
        )
    console.print(table)
    save_json(args.json, out)
    return 0


def cmd_bench_rules(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_rules

    with console.status(
        "measuring random games (Rust, Python API, PettingZoo and OpenSpiel if installed)..."
    ):
        out = bench_rules(games=args.games, repeat=args.repeat, seed=args.seed)
    table = Table(
        title=f"Random complete games per second ({out['repeat']} runs, {out['machine']})"
    )
    table.add_column("loop")
    table.add_column("games/run", justify="right")
    table.add_column("median games/s", justify="right")
    table.add_column("min .. max", justify="right")
    table.add_column("median actions/s", justify="right")
    for key in ("rust", "python_api", "pettingzoo", "openspiel"):
        t = out.get(key)
        if t:
            table.add_row(
                key,
                str(t["games"]),
                f"{t['median']:,.0f}",
                f"{t['min']:,.0f} .. {t['max']:,.0f}",
                f"{t['actions_median']:,.0f}",
            )
    console.print(table)
    ratio = out.get("python_over_openspiel")
    if ratio:
        console.print(
            f"Python API / OpenSpiel: median {ratio['median']:.2f}x"
            f" (runs {ratio['min']:.2f}..{ratio['max']:.2f}); per action:"
            f" {out['python_over_openspiel_actions']['median']:.2f}x"
        )
    else:
        console.print("[dim]open_spiel not installed: no OpenSpiel comparison[/dim]")
    save_json(args.json, out)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``bench`` with its five kinds."""
    b = sub.add_parser(
        "bench",
        help="benchmarks",
        description="Benchmarks: 'rules' (random games per second, against OpenSpiel if "
        "installed), 'solver' (open-handed solver at 30 cards, ablations, node signature), "
        "'pimc' (seconds per PIMC decision in the first trick, and per game of three pimc "
        "players), 'bidding' (milliseconds per bidding-tree evaluation) and 'inference' "
        "(milliseconds per inference draw). 'skat bench KIND --help' lists KIND's options.",
    )
    kinds = b.add_subparsers(dest="what", metavar="KIND", required=True)

    add_solver_command(kinds)

    p = kinds.add_parser(
        "pimc",
        help="seconds per PIMC decision in the first trick, and per game",
        description="Times PIMC decisions in the first trick of deals bid by 'rules', and whole"
        " games of three pimc players.",
    )
    count_option(p, "--deals", defaults.BENCH_PIMC_DEALS, "deals (3 decisions each)")
    p.add_argument(
        "--worlds",
        type=checks.integer(1, defaults.WORLDS_MAX),
        default=defaults.WORLDS,
        help=f"worlds per decision, 1..{defaults.WORLDS_MAX} (default: {defaults.WORLDS})",
    )
    p.add_argument(
        "--threads",
        type=checks.integer(1, defaults.THREADS_MAX),
        default=defaults.BENCH_PIMC_THREADS,
        help=f"solver threads, 1..{defaults.THREADS_MAX} (default: {defaults.BENCH_PIMC_THREADS})",
    )
    p.add_argument(
        "--no-points", action="store_true", help="win and schneider only, no card points"
    )
    p.add_argument(
        "--full-games",
        type=checks.integer(0, checks.COUNT_MAX),
        default=defaults.BENCH_PIMC_GAMES,
        help=f"games of three pimc players to time (default: {defaults.BENCH_PIMC_GAMES})",
    )
    p.add_argument(
        "--game-player",
        metavar="SPEC",
        help="time the full games with three of this player instead (e.g. kermit: the whole"
        " game, auction included; default: pimc with the options above)",
    )
    p.add_argument(
        "--pcut",
        type=checks.real(0.0, 1.0, below_hi=True),
        default=0.0,
        metavar="P",
        help="ProbCut at confidence P in the solver (default: 0, the exact solver)",
    )
    p.add_argument(
        "--tables",
        metavar="DIR",
        type=checks.in_dir,
        help="endgame lookup tables for the solver ('skat tables build'; default: none)",
    )
    common_options(p, None)
    p.set_defaults(func=cmd_bench_pimc, check=check_bench_pimc)

    r = kinds.add_parser(
        "rules",
        help="random complete games per second",
        description="Random complete games per second: inside Rust, through the Python API,"
        " and over OpenSpiel's skat if installed, interleaved run by run.",
    )
    count_option(r, "--games", defaults.BENCH_RULES_GAMES, "games per timed run")
    common_options(r, defaults.BENCH_REPEAT)
    r.set_defaults(func=cmd_bench_rules)

    bd = kinds.add_parser(
        "bidding",
        help="milliseconds per bidding-tree evaluation",
        description="Times the bidding tree, the best hand game and the pick-up value on random"
        " hands, one thread.",
    )
    count_option(bd, "--hands", defaults.BENCH_BIDDING_HANDS, "random hands to time")
    common_options(bd, defaults.BENCH_REPEAT)
    bd.set_defaults(func=cmd_bench_bidding)

    i = kinds.add_parser(
        "inference",
        help="milliseconds per inference draw",
        description="Times inference draws at first-card positions: candidate worlds sampled and"
        f" weighted, {defaults.WORLDS} worlds drawn, one thread.",
    )
    count_option(i, "--positions", defaults.BENCH_INFERENCE_POSITIONS, "first-card positions")
    i.add_argument(
        "--candidates",
        type=checks.integer(1, defaults.CANDIDATES_MAX),
        default=defaults.BENCH_INFERENCE_CANDIDATES,
        help=f"candidate worlds per draw, 1..{defaults.CANDIDATES_MAX:,}"
        f" (default: {defaults.BENCH_INFERENCE_CANDIDATES:,})",
    )
    common_options(i, defaults.BENCH_REPEAT)
    i.set_defaults(func=cmd_bench_inference)
