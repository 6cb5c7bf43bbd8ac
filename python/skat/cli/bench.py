"""``skat bench KIND``: one subcommand per benchmark, each with only its own options.

``solver`` (open-handed solver at 30 cards, ablations, node signature), ``pimc`` (seconds per
PIMC decision in the first trick and per game), ``rules`` (random games per second, against
OpenSpiel if installed), ``bidding`` (milliseconds per bidding-tree evaluation) and
``inference`` (milliseconds per inference draw). The measuring code is :mod:`skat.bench` (and
the Rust core for the solver); this module parses, prints tables and writes ``--json``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_bar, save_json

R = TypeVar("R")

# The thesis's figures for each enhancement, shown beside our ablation rows.
THESIS_ABLATION = {
    "fastest-cut-first": "-39% nodes (MTD(f), synthetic trees)",
    "payoff-similarity": "-85% suit / -77% grand time at 30 cards",
    "endgame tables": "-38% suit / -47% grand time (4-card tables)",
    "static bounds": "about -1% nodes and time",
    "partition search (null) toggled": "-12% nodes and cycles (LWRS vs vanilla null)",
}


def _effect(with_: float, without: float) -> str:
    return f"{100 * (with_ - without) / without:+.0f}%" if without else "n/a"


def _ablation_table(out: dict[str, Any], positions: int) -> Table:
    classes = [r["class"] for r in out["classes"] if r["solve"]["count"] > 0]
    ab = Table(
        title=f"Ablations: solve over {positions} positions; each row: the change"
        " in nodes / time that the enhancement brings (against the same search without it,"
        " the two alternating position by position)"
    )
    ab.add_column("switched off")
    for c in classes:
        ab.add_column(c, justify="right")
    ab.add_column("thesis")
    rows: dict[str, dict[str, dict[str, float]]] = {}
    for a in out["ablations"]:
        rows.setdefault(a["switched_off"], {})[a["class"]] = a
    base = rows.get("all on", {})
    for name, per_class in rows.items():
        if name == "all on":
            cells = [
                f"{per_class[c]['nodes']:,} nodes, {per_class[c]['ms']:,.0f} ms" for c in classes
            ]
        else:
            # a "toggled" row switches on an enhancement that is off by default
            on, off = (per_class, base) if "toggled" in name else (base, per_class)
            cells = [
                _effect(on[c]["nodes"], off[c]["nodes"])
                + " / "
                + _effect(on[c]["ms"], off[c]["ms"])
                for c in classes
            ]
        ab.add_row(name, *cells, THESIS_ABLATION.get(name.replace(" toggled", ""), ""))
    return ab


def _repeated(console: Console, what: str, repeat: int, run: Callable[[int], R]) -> list[R]:
    """``run(i)`` for each of ``repeat`` runs, under a progress bar."""
    out: list[R] = []
    with progress_bar(console) as progress:
        task = progress.add_task(what, total=repeat)
        for i in range(repeat):
            out.append(run(i))
            progress.advance(task)
    return out


def cmd_bench_probcut(args: argparse.Namespace, console: Console) -> int:
    from skat._core import estimator_layout, probcut_benchmark
    from skat.bench import combine_probcut_runs, machine_description

    if not estimator_layout()["builtin_slots"]:
        raise OptionError("--pcut", "this build has no estimators: see 'skat train estimators'")
    runs = _repeated(
        console,
        f"{args.positions} random 30-card positions, analyze exact and with ProbCut"
        f" {args.pcut}, single thread",
        args.repeat,
        lambda _i: probcut_benchmark(
            args.positions, args.seed, args.pcut, args.tt_mb, args.pcut_error
        ),
    )
    out = combine_probcut_runs(runs)
    out.update(
        pcut=args.pcut,
        pcut_error=args.pcut_error,
        positions=args.positions,
        seed=args.seed,
        machine=machine_description(),
    )
    simulated = (
        f" (simulated estimator, {args.pcut_error} times the shipped error)"
        if args.pcut_error is not None
        else ""
    )
    table = Table(
        title=f"ProbCut {args.pcut}{simulated} against the exact solver, {args.positions}"
        f" positions, seed {args.seed} ({out['machine']}); worlds/s: median of"
        f" {out['repeat']} runs"
    )
    for col in (
        "class",
        "n",
        "exact worlds/s",
        "ProbCut worlds/s",
        "speed-up",
        "nodes",
        "decision agreement",
        "decision loss",
        "mean abs. error",
    ):
        table.add_column(col, justify="left" if col == "class" else "right")
    for r in out["classes"]:
        table.add_row(
            r["class"],
            str(r["positions"]),
            f"{r['exact_worlds_per_sec']:,.1f}",
            f"{r['worlds_per_sec']:,.1f}",
            f"{r['speedup']:.2f}x",
            _effect(r["nodes"], r["exact_nodes"]),
            f"{r['decision_agreement']:.3f}",
            f"{r['decision_loss']:.2f}",
            f"{r['mean_abs_error']:.2f}",
        )
    console.print(table)
    save_json(args.json, out)
    return 0


def cmd_bench_lookup(args: argparse.Namespace, console: Console) -> int:
    from skat._core import lookup_benchmark
    from skat.bench import combine_lookup_runs, machine_description
    from skat.tables import info

    tables = info(args.tables) if args.tables else []
    what = f"the tables of {args.tables}" if args.tables else f"the {args.oracle}-card oracle"
    runs = _repeated(
        console,
        f"{args.positions} random 30-card positions, solve and analyze without and with"
        f" {what}, single thread",
        args.repeat,
        lambda _i: lookup_benchmark(
            args.positions, args.seed, args.tables, args.oracle or 0, args.tt_mb
        ),
    )
    out = combine_lookup_runs(runs)
    out.update(
        tables=[
            {k: t[k] for k in ("class", "cards", "rows", "entries", "memory_bytes", "complete")}
            for t in tables
        ],
        oracle=args.oracle or 0,
        positions=args.positions,
        seed=args.seed,
        machine=machine_description(),
    )
    table = Table(
        title=f"{what[0].upper()}{what[1:]} against the plain solver,"
        f" {args.positions} positions, seed {args.seed} ({out['machine']}); time: median of"
        f" {out['repeat']} runs"
    )
    for col in ("class", "n", "question", "nodes without", "nodes with", "nodes", "time"):
        table.add_column(col, justify="left" if col in ("class", "question") else "right")
    for r in out["classes"]:
        for q in ("solve", "analyze"):
            table.add_row(
                r["class"],
                str(r["positions"]),
                q,
                f"{r[q + '_nodes'][0]:,}",
                f"{r[q + '_nodes'][1]:,}",
                _effect(r[q + "_nodes"][1], r[q + "_nodes"][0]),
                _effect(r[q + "_ms"][1], r[q + "_ms"][0]),
            )
    console.print(table)
    bad = sum(r["mismatches"] for r in out["classes"])
    console.print(f"positions whose values differed: {bad}")
    save_json(args.json, out)
    return 0 if bad == 0 else 1


def cmd_bench_solver(args: argparse.Namespace, console: Console) -> int:
    from skat._core import solver_benchmark
    from skat.bench import combine_solver_runs, machine_description

    chosen = [o for o in ("pcut", "tables", "oracle") if getattr(args, o) is not None]
    if len(chosen) > 1:
        raise OptionError(
            f"--{chosen[1]}", "compare one of ProbCut (--pcut), --tables or --oracle at a time"
        )
    if args.pcut_error is not None and args.pcut is None:
        raise OptionError("--pcut-error", "simulates ProbCut's estimator: give --pcut too")
    if args.pcut is not None:
        return cmd_bench_probcut(args, console)
    if args.tables is not None or args.oracle is not None:
        return cmd_bench_lookup(args, console)

    runs = _repeated(
        console,
        f"{args.positions} random 30-card positions (solve, reaches, analyze; ablations"
        f" over {args.ablation_positions} in the first run), single thread",
        args.repeat,
        lambda i: solver_benchmark(
            positions=args.positions,
            seed=args.seed,
            ablation_positions=args.ablation_positions if i == 0 else 0,
            tt_mb=args.tt_mb,
        ),
    )
    out = combine_solver_runs(runs)
    out["machine"] = machine_description()
    table = Table(
        title=f"Open-handed solver, {out['positions']} positions, seed {out['seed']}"
        f" ({out['machine']})"
        + (f"; worlds/s: median of {out['repeat']} runs" if out["repeat"] > 1 else "")
    )
    for col in ("class", "n", "question", "median ms", "mean ms", "p95 ms", "median nodes"):
        table.add_column(col, justify="left" if col in ("class", "question") else "right")
    for row in out["classes"]:
        target = "reaches(11)" if row["class"] == "null" else "reaches(61)"
        for q, key in (("solve", "solve"), (target, "reaches"), ("analyze", "analyze")):
            s = row[key]
            table.add_row(
                row["class"],
                str(s["count"]),
                q,
                f"{s['median_ms']:.3f}",
                f"{s['mean_ms']:.3f}",
                f"{s['p95_ms']:.3f}",
                f"{s['median_nodes']:,.0f}",
            )
        table.add_row(
            row["class"], "", "analyze worlds/s", f"{row['worlds_per_sec']:,.1f}", "", "", ""
        )
    console.print(table)
    if out["repeat"] > 1:
        rep = Table(title=f"analyze worlds/s in each of {out['repeat']} runs (same positions)")
        for col in ("class", "median", "min", "max", "runs"):
            rep.add_column(col, justify="left" if col in ("class", "runs") else "right")
        for row in out["classes"]:
            rates: list[float] = row["worlds_per_sec_runs"]
            rep.add_row(
                row["class"],
                f"{row['worlds_per_sec']:,.1f}",
                f"{min(rates):,.1f}",
                f"{max(rates):,.1f}",
                ", ".join(f"{x:,.1f}" for x in rates),
            )
        console.print(rep)
    if out["ablations"]:
        console.print(_ablation_table(out, args.ablation_positions))
    console.print(f"Nodes searched: {out['signature']}")
    save_json(args.json, out)
    return 0


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
        table.add_row(
            name,
            str(s["n"]),
            f"{s['median']:.3f}",
            f"{s['mean']:.3f}",
            f"{s['p95']:.3f}",
            f"{s['max']:.3f}",
        )
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
        t = out[key]
        table.add_row(
            label, f"{t['median']:.2f}", f"{t['mean']:.2f}", f"{t['p95']:.2f}", f"{t['max']:.2f}"
        )
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
        t = out[f"{side}_ms"]
        table.add_row(
            side,
            f"{t['median']:.2f}",
            f"{t['mean']:.2f}",
            f"{t['p95']:.2f}",
            f"{t['max']:.2f}",
            f"{out[f'{side}_nonzero_share']:.1%}",
            f"{out[f'{side}_effective']:.0f}",
            str(out[f"{side}_fallbacks"]),
        )
    console.print(table)
    save_json(args.json, out)
    return 0


def cmd_bench_rules(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_rules

    with console.status("measuring random games (Rust, Python API, OpenSpiel if installed)..."):
        out = bench_rules(games=args.games, repeat=args.repeat, seed=args.seed)
    table = Table(
        title=f"Random complete games per second ({out['repeat']} runs, {out['machine']})"
    )
    table.add_column("loop")
    table.add_column("games/run", justify="right")
    table.add_column("median games/s", justify="right")
    table.add_column("min .. max", justify="right")
    table.add_column("median actions/s", justify="right")
    for key in ("rust", "python_api", "openspiel"):
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


def _common(p: argparse.ArgumentParser, repeat: int | None) -> None:
    """--seed, --json and (when ``repeat`` is given) --repeat, on every benchmark."""
    if repeat is not None:
        p.add_argument(
            "--repeat",
            type=checks.integer(1, 1000),
            default=repeat,
            help=f"timed runs, median reported (default: {repeat})",
        )
    p.add_argument(
        "--seed",
        type=checks.seed,
        default=defaults.BENCH_SEED,
        help=f"seed, 0..2**64-1 (default: {defaults.BENCH_SEED})",
    )
    p.add_argument(
        "--json", metavar="FILE", type=checks.out_file, help="write the measurements as JSON"
    )


def _count(p: argparse.ArgumentParser, name: str, default: int, what: str) -> None:
    p.add_argument(
        name,
        type=checks.integer(1, checks.COUNT_MAX),
        default=default,
        help=f"{what} (default: {default:,})",
    )


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

    s = kinds.add_parser(
        "solver",
        help="open-handed solver at 30 cards: times, nodes, ablations",
        description="Times the open-handed solver (solve, reaches, analyze) on random 30-card"
        " positions per game class, single thread; ablations in the first run; prints the node"
        " signature.",
    )
    _count(s, "--positions", defaults.BENCH_SOLVER_POSITIONS, "random positions")
    s.add_argument(
        "--ablation-positions",
        type=checks.integer(0, checks.COUNT_MAX),
        default=defaults.BENCH_ABLATION_POSITIONS,
        help="positions per ablation row, 0 for none"
        f" (default: {defaults.BENCH_ABLATION_POSITIONS})",
    )
    s.add_argument(
        "--tt-mb",
        type=checks.integer(1, defaults.TT_MB_MAX),
        default=defaults.SOLVER_TT_MB,
        help=f"transposition table size in MB, 1..{defaults.TT_MB_MAX}"
        f" (default: {defaults.SOLVER_TT_MB})",
    )
    s.add_argument(
        "--pcut",
        type=checks.real(0.001, 1.0, below_hi=True),
        metavar="P",
        help="instead: compare ProbCut at confidence P (0.001..1, excluded) with the exact"
        " solver, analyze on the same positions: worlds/s of each, decision agreement,"
        " decision loss (exact card points given up), mean absolute error",
    )
    s.add_argument(
        "--pcut-error",
        type=checks.real(0.0, 1.0),
        metavar="K",
        help="with --pcut: ProbCut with a simulated estimator whose error is K (0..1) times"
        " the shipped one's, the shipped estimate moved toward the exact value as a calibrated"
        " second measurement would (research: how good an estimator ProbCut needs; the"
        " exact values it uses are found before the timed run and not timed)",
    )
    s.add_argument(
        "--tables",
        metavar="DIR",
        type=checks.in_dir,
        help="instead: compare the solver with the endgame lookup tables of DIR ('skat tables"
        " build') and without, solve and analyze on the same positions: nodes and time of"
        " each, and a check that every value agrees",
    )
    s.add_argument(
        "--oracle",
        metavar="K",
        type=checks.integer(1, 9),
        help="instead: the research oracle (solver thesis Fig. 8.1): trick starts with at most K"
        " cards per hand below the root get their exact value from a separate, uncounted"
        " search; the nodes that complete K-card tables would save (its time is not a"
        " table's)",
    )
    _common(s, defaults.BENCH_SOLVER_REPEAT)
    s.set_defaults(func=cmd_bench_solver)

    p = kinds.add_parser(
        "pimc",
        help="seconds per PIMC decision in the first trick, and per game",
        description="Times PIMC decisions in the first trick of deals bid by 'rules', and whole"
        " games of three pimc players.",
    )
    _count(p, "--deals", defaults.BENCH_PIMC_DEALS, "deals (3 decisions each)")
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
    _common(p, None)
    p.set_defaults(func=cmd_bench_pimc, check=check_bench_pimc)

    r = kinds.add_parser(
        "rules",
        help="random complete games per second",
        description="Random complete games per second: inside Rust, through the Python API,"
        " and over OpenSpiel's skat if installed, interleaved run by run.",
    )
    _count(r, "--games", defaults.BENCH_RULES_GAMES, "games per timed run")
    _common(r, defaults.BENCH_REPEAT)
    r.set_defaults(func=cmd_bench_rules)

    bd = kinds.add_parser(
        "bidding",
        help="milliseconds per bidding-tree evaluation",
        description="Times the bidding tree, the best hand game and the pick-up value on random"
        " hands, one thread.",
    )
    _count(bd, "--hands", defaults.BENCH_BIDDING_HANDS, "random hands to time")
    _common(bd, defaults.BENCH_REPEAT)
    bd.set_defaults(func=cmd_bench_bidding)

    i = kinds.add_parser(
        "inference",
        help="milliseconds per inference draw",
        description="Times inference draws at first-card positions: candidate worlds sampled and"
        f" weighted, {defaults.WORLDS} worlds drawn, one thread.",
    )
    _count(i, "--positions", defaults.BENCH_INFERENCE_POSITIONS, "first-card positions")
    i.add_argument(
        "--candidates",
        type=checks.integer(1, defaults.CANDIDATES_MAX),
        default=defaults.BENCH_INFERENCE_CANDIDATES,
        help=f"candidate worlds per draw, 1..{defaults.CANDIDATES_MAX:,}"
        f" (default: {defaults.BENCH_INFERENCE_CANDIDATES:,})",
    )
    _common(i, defaults.BENCH_REPEAT)
    i.set_defaults(func=cmd_bench_inference)
