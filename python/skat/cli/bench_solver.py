"""``skat bench solver``: the open-handed solver at 30 cards (times, nodes, ablations, node
signature), and instead of that ProbCut against the exact solver (``--pcut``, ``--pcut-error``),
the endgame lookup tables (``--tables``) or the table oracle (``--oracle``). The measuring code
is in the Rust core; this module parses, prints tables and writes ``--json``.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.bench_options import common_options, count_option, repeated
from skat.cli.checks import OptionError
from skat.display import save_json

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


def cmd_bench_probcut(args: argparse.Namespace, console: Console) -> int:
    from skat._core import estimator_layout, probcut_benchmark
    from skat.bench import combine_probcut_runs, machine_description

    if not estimator_layout()["builtin_slots"]:
        raise OptionError("--pcut", "this build has no estimators: see 'skat train estimators'")
    # without --pcut-window the core's default (zero-window probes)
    window = {} if args.pcut_window is None else {"pcut_window": args.pcut_window}
    runs = repeated(
        console,
        f"{args.positions} random 30-card positions, analyze exact and with ProbCut"
        f" {args.pcut}, single thread",
        args.repeat,
        lambda _i: probcut_benchmark(
            args.positions, args.seed, args.pcut, args.tt_mb, args.pcut_error, **window
        ),
    )
    out = combine_probcut_runs(runs)
    out.update(
        pcut=args.pcut,
        pcut_error=args.pcut_error,
        pcut_window=args.pcut_window,
        positions=args.positions,
        seed=args.seed,
        machine=machine_description(),
    )
    simulated = (
        f" (simulated estimator, {args.pcut_error} times the shipped error)"
        if args.pcut_error is not None
        else ""
    ) + (f", {args.pcut_window}-point windows" if args.pcut_window is not None else "")
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
    runs = repeated(
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


def check_bench_solver(args: argparse.Namespace) -> None:
    chosen = [o for o in ("pcut", "tables", "oracle") if getattr(args, o) is not None]
    if len(chosen) > 1:
        raise OptionError(
            f"--{chosen[1]}", "compare one of ProbCut (--pcut), --tables or --oracle at a time"
        )
    if args.pcut_error is not None and args.pcut is None:
        raise OptionError("--pcut-error", "simulates ProbCut's estimator: give --pcut too")
    if args.pcut_window is not None and args.pcut is None:
        raise OptionError("--pcut-window", "is ProbCut's probe window: give --pcut too")
    if args.tables is not None:
        from skat.tables import complete_sizes

        if not complete_sizes(args.tables):
            raise OptionError("--tables", f"no complete tables in {args.tables} to compare with")


def cmd_bench_solver(args: argparse.Namespace, console: Console) -> int:
    from skat._core import solver_benchmark
    from skat.bench import combine_solver_runs, machine_description

    check_bench_solver(args)
    if args.pcut is not None:
        return cmd_bench_probcut(args, console)
    if args.tables is not None or args.oracle is not None:
        return cmd_bench_lookup(args, console)

    runs = repeated(
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


def add_solver_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``bench solver``."""
    s = kinds.add_parser(
        "solver",
        help="open-handed solver at 30 cards: times, nodes, ablations",
        description="Times the open-handed solver (solve, reaches, analyze) on random 30-card"
        " positions per game class, single thread; ablations in the first run; prints the node"
        " signature.",
    )
    count_option(
        s,
        "--positions",
        defaults.BENCH_SOLVER_POSITIONS,
        "random positions",
        most=defaults.POSITIONS_MAX,
    )
    s.add_argument(
        "--ablation-positions",
        type=checks.integer(0, defaults.POSITIONS_MAX),
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
        "--pcut-window",
        type=checks.integer(1, 120),
        metavar="W",
        help="with --pcut: MTD(f) probes with windows W card points wide (1..120) in the"
        " ProbCut search instead of zero windows (1), so that a probe can settle a value"
        " inside its window instead of stopping at its threshold",
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
    common_options(s, defaults.BENCH_SOLVER_REPEAT)
    s.set_defaults(func=cmd_bench_solver, check=check_bench_solver)
