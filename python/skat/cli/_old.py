"""The ``skat`` command line.

Commands: ``deal``, ``play``, ``serve``, ``replay``, ``random-games``, ``bench``,
``tournament``. Every command has ``--help``. Every random choice comes from a seed; when none
is given one is drawn and printed, so any run can be repeated.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import __version__
from skat._core import Deal, random_game
from skat.display import SEAT_NAMES, hand_markup, progress_bar, result_line, save_json
from skat.records import ReplaySummary, replay_file


def _seed(value: int | None, console: Console) -> int:
    if value is not None:
        return value
    seed = int.from_bytes(os.urandom(4), "little")
    console.print(f"[dim]seed {seed} (repeat with --seed {seed})[/dim]")
    return seed


def cmd_deal(args: argparse.Namespace, console: Console) -> int:
    seed = _seed(args.seed, console)
    deal = Deal.random(seed)
    table = Table(title=f"Deal {seed}", show_header=True)
    table.add_column("seat")
    table.add_column("cards")
    table.add_column("points", justify="right")
    for seat, hand in enumerate(deal.hands):
        table.add_row(f"{seat} {SEAT_NAMES[seat]}", hand_markup(hand), str(hand.points))
    table.add_row("skat", hand_markup(deal.skat), str(deal.skat.points))
    console.print(table)
    console.print(f"[dim]ISS: {deal.to_iss()}[/dim]", soft_wrap=True)
    return 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    summary = ReplaySummary()
    for path in args.files:
        if not os.path.exists(path):
            console.print(f"[red]no such file: {path}[/red]")
            return 2
        replay_file(path, summary)
    table = Table(title="ISS replay")
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("records read", str(summary.records))
    table.add_row("complete games checked", str(summary.complete))
    table.add_row("  of which passed", str(summary.passed))
    for end, n in sorted(summary.by_end.items()):
        table.add_row(f"  ended: {end}", str(n))
    table.add_row("games in progress", str(summary.in_progress))
    table.add_row("records with errors", str(len(summary.errors)))
    table.add_row("mismatches", str(len(summary.mismatches)))
    console.print(table)
    for where, message in summary.errors:
        console.print(f"[red]error[/red] {escape(where)}: {escape(message)}")
    for rid, diffs in summary.mismatches:
        console.print(f"[red]mismatch[/red] record {escape(rid)}: {escape('; '.join(diffs))}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "records": summary.records,
                    "complete": summary.complete,
                    "passed": summary.passed,
                    "in_progress": summary.in_progress,
                    "errors": summary.errors,
                    "mismatches": summary.mismatches,
                },
                f,
                indent=2,
            )
    return 0 if summary.ok else 1


def cmd_random_games(args: argparse.Namespace, console: Console) -> int:
    if args.n < 1:
        console.print("[red]N must be at least 1[/red]")
        return 2
    seed = _seed(args.seed, console)
    types: Counter[str] = Counter()
    won: Counter[str] = Counter()
    values: Counter[str] = Counter()
    overbid = 0
    with progress_bar(console) as progress:
        task = progress.add_task("random games", total=args.n)
        for i in range(args.n):
            r = random_game(seed + i).result
            assert r is not None
            if r.contract is None:
                key = "passed" if r.passed else r.end
            else:
                gt = r.contract.game_type
                key = str(gt) + (" ouvert" if r.contract.ouvert else "")
                key += (
                    " hand" if r.contract.hand and not (r.contract.ouvert and gt != gt.NULL) else ""
                )
            types[key] += 1
            won[key] += int(r.won)
            values[key] += r.value
            overbid += int(r.overbid)
            if i % 256 == 0:
                progress.update(task, completed=i)
    table = Table(title=f"{args.n} random games (seeds {seed}..{seed + args.n - 1})")
    table.add_column("contract")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    table.add_column("declarer won", justify="right")
    table.add_column("mean value", justify="right")
    for key, n in sorted(types.items(), key=lambda kv: -kv[1]):
        table.add_row(
            key,
            str(n),
            f"{100 * n / args.n:.1f}%",
            f"{100 * won[key] / n:.1f}%",
            f"{values[key] / n:+.1f}",
        )
    console.print(table)
    console.print(f"overbid games: {overbid} ({100 * overbid / args.n:.1f}%)")
    if args.show:
        g = random_game(seed)
        assert g.result is not None
        console.print(f"first game: {result_line(g.result)}")
        console.print(f"[dim]{escape(g.to_iss())}[/dim]", soft_wrap=True)
    return 0


# The thesis's figures for each enhancement, shown beside our ablation rows.
THESIS_ABLATION = {
    "fastest-cut-first": "-39% nodes (MTD(f), synthetic trees)",
    "payoff-similarity": "-85% suit / -77% grand time at 30 cards",
    "endgame tables": "-38% suit / -47% grand time (4-card tables)",
    "static bounds": "about -1% nodes and time",
    "partition search (null) toggled": "-12% nodes and cycles (LWRS vs vanilla null)",
}


def repeat_of(args: argparse.Namespace, default: int = 5) -> int:
    """The timed runs a benchmark makes: ``--repeat`` when given, else ``default``."""
    return max(1, args.repeat if args.repeat is not None else default)


def cmd_bench_solver(args: argparse.Namespace, console: Console) -> int:
    from skat._core import solver_benchmark
    from skat.bench import combine_solver_runs, machine_description

    repeat = repeat_of(args, default=1)
    runs: list[dict[str, Any]] = []
    with progress_bar(console) as progress:
        task = progress.add_task(
            f"{args.positions} random 30-card positions (solve, reaches, analyze; ablations"
            f" over {args.ablation_positions} in the first run), single thread",
            total=repeat,
        )
        for i in range(repeat):
            runs.append(
                solver_benchmark(
                    positions=args.positions,
                    seed=args.seed,
                    ablation_positions=args.ablation_positions if i == 0 else 0,
                    tt_mb=args.tt_mb,
                )
            )
            progress.advance(task)
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
        classes = [r["class"] for r in out["classes"] if r["solve"]["count"] > 0]
        ab = Table(
            title=f"Ablations: solve over {args.ablation_positions} positions; each row: the change"
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

        def effect(with_: float, without: float) -> str:
            return f"{100 * (with_ - without) / without:+.0f}%" if without else "n/a"

        for name, per_class in rows.items():
            if name == "all on":
                cells = [
                    f"{per_class[c]['nodes']:,} nodes, {per_class[c]['ms']:,.0f} ms"
                    for c in classes
                ]
            else:
                # a "toggled" row switches on an enhancement that is off by default
                on, off = (per_class, base) if "toggled" in name else (base, per_class)
                cells = [
                    effect(on[c]["nodes"], off[c]["nodes"])
                    + " / "
                    + effect(on[c]["ms"], off[c]["ms"])
                    for c in classes
                ]
            key = name.replace(" toggled", "")
            ab.add_row(name, *cells, THESIS_ABLATION.get(key, ""))
        console.print(ab)
    console.print(f"Nodes searched: {out['signature']}")
    save_json(args.json, out)
    return 0


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
        )
    table = Table(
        title=f"PIMC decisions in trick 1: {args.worlds} worlds, {args.threads} thread(s),"
        f" points {'on' if points else 'off'}, {args.deals} deals bid by 'rules', seed {args.seed}"
    )
    for col in ("decision", "n", "median s", "mean s", "p95 s", "max s"):
        table.add_column(col, justify="left" if col == "decision" else "right")
    names = ["first card (lead)", "second card", "third card"]
    rows = list(zip(names, out["trick1_seconds"], strict=True))
    rows.append(("all trick-1 decisions", out["trick1_all"]))
    rows += [(f"  {k}", v) for k, v in out["by_game_type"].items()]
    if out["game_seconds"]:
        rows.append(("full game, three pimc players", out["game_seconds"]))
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
        out = bench_bidding(hands=args.hands, seed=args.seed, repeat=repeat_of(args))
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
            repeat=repeat_of(args),
            candidates=args.candidates,
        )
    table = Table(
        title=f"Inference draw, ms per decision, one thread: {out['candidates']:,} candidates"
        f" sampled and weighted, 160 worlds drawn (best of {out['repeat']}; {out['machine']})"
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


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    from skat.bench import bench_rules

    if args.what == "solver":
        return cmd_bench_solver(args, console)
    if args.what == "pimc":
        return cmd_bench_pimc(args, console)
    if args.what == "bidding":
        return cmd_bench_bidding(args, console)
    if args.what == "inference":
        return cmd_bench_inference(args, console)
    with console.status("measuring random games (Rust, Python API, OpenSpiel if installed)..."):
        out = bench_rules(games=args.games, repeat=repeat_of(args), seed=args.seed)
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


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from skat._core import Action, Game
    from skat.display import card_markup
    from skat.match import PlayerFailure, play
    from skat.players import PlayerSpecError, make_player

    if not args.watch:
        return _play_interactive(args, console)
    specs = [s.strip() for s in args.players.split(",")]
    if len(specs) == 1:
        specs = specs * 3
    if len(specs) != 3:
        console.print("[red]--players takes one spec or three, separated by commas[/red]")
        return 2
    try:
        players = [make_player(s) for s in specs]
    except PlayerSpecError as e:
        console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    seed = _seed(args.seed, console)
    deal = Deal.random(seed)
    console.print(f"[bold]Deal {seed}[/bold]: players {', '.join(specs)}")
    for seat, hand in enumerate(deal.hands):
        console.print(f"  {seat} {SEAT_NAMES[seat]:<11} {hand_markup(hand)}")
    console.print(f"  skat         {hand_markup(deal.skat)}")

    def on_action(game: Game, seat: int, action: Action) -> None:
        kind = action.kind
        if kind in ("bid", "hold", "pass") and game.contract is None:
            word = {"hold": "holds", "pass": "passes"}.get(kind, f"bids {action}")
            console.print(f"  seat {seat} {word}")
        elif kind == "pickup":
            console.print(f"  seat {seat} picks up the skat: {hand_markup(game.deal.skat)}")
        elif kind == "discard" and action.cards is not None:
            console.print(f"  seat {seat} discards {hand_markup(action.cards)}")
        elif kind == "declare":
            k = action.contract
            console.print(f"[bold]  seat {seat} declares {k} ({k!r}) at bid {game.bid}[/bold]")
        elif kind == "play" and not game.trick and game.tricks:
            leader, cards, winner = game.tricks[-1]
            shown = "  ".join(f"{(leader + i) % 3}:{card_markup(c)}" for i, c in enumerate(cards))
            pts = sum(c.points for c in cards)
            console.print(f"  trick {len(game.tricks):>2}: {shown}  -> seat {winner} ({pts})")

    try:
        game = play(players, deal, seed=seed, on_action=on_action)
    except PlayerFailure as e:
        console.print(f"[red]{escape(str(e))}[/red]")
        return 1
    assert game.result is not None
    console.print(f"[bold]Result:[/bold] {result_line(game.result)}")
    console.print(f"Scores (Seeger-Fabian): {game.result.scores}")
    console.print(f"[dim]{escape(game.to_iss())}[/dim]", soft_wrap=True)
    return 0


def _play_interactive(args: argparse.Namespace, console: Console) -> int:
    from skat.players import PlayerSpecError
    from skat.ui import terminal
    from skat.ui.common import UiError
    from skat.ui.session import Session

    seat = _seat_arg(args.seat)
    if seat is None:
        console.print("[red]--seat is 0, 1, 2 or forehand, middlehand, rearhand[/red]")
        return 2
    specs = [s.strip() for s in args.opponents.split(",")] if args.opponents else []
    seed = _seed(args.seed, console)
    try:
        session = Session(
            seat=seat,
            opponents=specs or [_default_opponent()],
            seed=seed,
            games=args.games,
        )
    except (PlayerSpecError, UiError) as e:
        console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    return terminal.run(session, console, records=args.records)


def _seat_arg(text: str) -> int | None:
    names = {"forehand": 0, "middlehand": 1, "rearhand": 2, "0": 0, "1": 1, "2": 2}
    return names.get(text.strip().lower())


def _default_opponent() -> str:
    from skat.ui.common import DEFAULT_OPPONENT

    return DEFAULT_OPPONENT


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    from skat.web.server import serve

    return serve(
        host=args.host,
        port=args.port,
        opponents=args.opponents,
        pace=args.pace,
        console=console,
    )


def _fmt(value: float | None, spec: str = "+.1f") -> str:
    return "n/a" if value is None else format(value, spec)


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    from skat.players import PlayerSpecError
    from skat.tournament import run, write_json

    if args.deals < 1 or args.workers < 1:
        console.print("[red]--deals and --workers must be at least 1[/red]")
        return 2
    seed = _seed(args.seed, console)
    with progress_bar(console) as progress:
        what = "auction: choosing deals" if args.mode == "cardplay" else "tournament"
        task = progress.add_task(what, total=args.deals)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, description="tournament", completed=done, total=total)

        try:
            result = run(
                args.a,
                args.b,
                mode=args.mode,
                deals=args.deals,
                seed=seed,
                workers=args.workers,
                bidder=args.bidder,
                records=args.records,
                progress=on_progress,
            )
        except PlayerSpecError as e:
            console.print(f"[red]{escape(str(e))}[/red]")
            return 2
        except ValueError as e:
            console.print(f"[red]{escape(str(e))}[/red]")
            return 2
    paired = result.paired_difference
    title = (
        f"{result.mode} tournament, seed {seed}: {paired.deals} deals in the statistics"
        f" ({result.games_played} games, {result.seconds:.1f} s)"
    )
    if result.mode == "cardplay":
        title += f", bidder {result.bidder}"
    table = Table(title=escape(title))
    table.add_column("player")
    table.add_column("points/list", justify="right")
    table.add_column("games", justify="right")
    table.add_column("declarer win rate", justify="right")
    for label, stats in result.players.items():
        rate = stats.declarer_win_rate
        table.add_row(
            escape(label),
            f"{_fmt(stats.points_per_list)} ± {_fmt(stats.stderr, '.1f')}",
            str(stats.games),
            "n/a" if rate is None else f"{100 * rate:.1f}% of {stats.declarer_games}",
        )
    console.print(table)
    interval = (
        f"95% interval [{paired.ci95[0]:+.1f}, {paired.ci95[1]:+.1f}]"
        if paired.ci95 is not None
        else "no interval (fewer than 2 deals)"
    )
    console.print(
        f"paired difference {escape(result.a)} - {escape(result.b)}:"
        f" {_fmt(paired.mean)} points/list (mean over {paired.deals} deals), {interval}"
    )
    for err in result.errors:
        console.print(
            f"[red]error[/red] deal {err.deal}, seating {err.seating}, seat {err.seat}"
            f" ({escape(err.player)}): {escape(err.message)}",
            soft_wrap=True,
        )
    if result.excluded_deals:
        console.print(
            f"[yellow]{len(result.excluded_deals)} deal(s) left out of the statistics because"
            f" a player failed: {', '.join(map(str, result.excluded_deals))}[/yellow]"
        )
    if not result.complete:
        console.print(
            f"[yellow]interrupted: statistics over the {result.deals_played} deal(s) finished"
            f" of {result.deals}[/yellow]"
        )
    if args.json:
        write_json(result, args.json)
    if args.records:
        console.print(f"[dim]records: {escape(str(args.records))}[/dim]")
    if not result.complete:
        return 130
    return 1 if result.errors else 0


TOURNAMENT_HELP = """\
Play a duplicate-deal tournament between players A and B, scored Seeger-Fabian
(declarer: value + 50 when won, -(2 x value) - 50 when lost; each defender +40
when the declarer loses), reported in points per list of 36 games.

Modes:
  cardplay  three instances of --bidder bid, take the skat, discard and declare;
            deals that all pass are skipped. Each deal is played twice from the
            first card: A as declarer against two B, then B against two A.
  full      each deal is played whole (auction included) in the six seatings
            ABB BAB BBA AAB ABA BAA; all-pass games score 0.

Deal j of the candidates is Deal.random(deal_seed(SEED, j)); players' seeds
derive from SEED too, and the results are the same for any --workers.

A player that raises or plays an illegal action is reported with the deal and
position; that deal is left out of the statistics and the tournament goes on.
Ctrl-C stops, shows and writes (--json, "complete": false) the statistics over
the deals finished so far.
"""

TOURNAMENT_EPILOG = """\
player specs: a registered name with options (rules, random:seed=3, cheater,
pimc:worlds=20 when available), package.module:Class[:key=value,...] or
path/to/file.py:Class[:key=value,...]. When A and B are the same spec they are
named "A: SPEC" and "B: SPEC".

JSON (--json): mode, seed, deals, bidder (cardplay), a, b, players (per player:
spec, points_per_list, stderr, games, declarer_games, declarer_win_rate),
paired_difference (mean, stderr, ci95, deals), errors (deal, seating, seat,
player, message), complete, deals_played, deals_scored, excluded_deals,
games_played, candidates and passed_out (cardplay), seconds and workers (the
only fields that depend on the run rather than the arguments).

exit status: 0 done, 1 done with player errors, 2 bad arguments or player
specs, 130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="skat", description="An expert-level computer Skat player.")
    p.add_argument("--version", action="version", version=f"skat {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser(
        "deal", help="show a random deal", description="Show a random deal, sorted and grouped."
    )
    d.add_argument("--seed", type=int, help="deal seed (default: drawn and printed)")
    d.set_defaults(func=cmd_deal)

    pl = sub.add_parser(
        "play",
        help="play a list of games against two AI players, or watch one (--watch)",
        description="Play Skat in the terminal against two AI players: bid, take the skat,"
        " declare and play the tricks; results with their valuation and a Seeger-Fabian score"
        " sheet; hints and an open-handed analysis of every card after each game. Type help at"
        " any prompt. With --watch, watch one game between three players instead.",
    )
    pl.add_argument(
        "--seat",
        default="0",
        help="your seat in the first game: 0/forehand, 1/middlehand, 2/rearhand; it moves"
        " round the table from game to game (default: 0)",
    )
    pl.add_argument(
        "--opponents",
        default="",
        metavar="SPEC[,SPEC]",
        help="the AI players: one spec for both or two comma-separated (default: the"
        " strongest available player, see 'skat.ui.common.DEFAULT_OPPONENT')",
    )
    pl.add_argument(
        "--games",
        type=int,
        default=3,
        help="length of the list (default: 3, one round in which each player deals once;"
        " a tournament list has 36)",
    )
    pl.add_argument("--records", metavar="FILE", help="write the list's ISS records at the end")
    pl.add_argument("--watch", action="store_true", help="watch three AI players")
    pl.add_argument(
        "--players",
        default="rules,rules,rules",
        help="with --watch: one spec or three comma-separated player specs"
        " (e.g. cheater,rules,rules)",
    )
    pl.add_argument("--seed", type=int, help="seed of the deals (default: drawn and printed)")
    pl.set_defaults(func=cmd_play)

    sv = sub.add_parser(
        "serve",
        help="play in the browser: a small web server",
        description="Serve the Skat table to the browser: every browser session plays its own"
        " list against two AI players, with hints, analysis and ISS downloads. Prints the"
        " address to open.",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    sv.add_argument("--port", type=int, default=0, help="port (default: a free port, printed)")
    sv.add_argument(
        "--opponents",
        default="",
        metavar="SPEC[,SPEC]",
        help="the AI players of new sessions (default: the strongest available player)",
    )
    sv.add_argument(
        "--pace",
        type=float,
        default=0.5,
        help="seconds between two AI cards, so that people can follow (default: 0.5)",
    )
    sv.set_defaults(func=cmd_serve)

    r = sub.add_parser(
        "replay",
        help="replay ISS records and check their results",
        description="Replay every record of ISS files through the rules; exit 1 on any mismatch.",
    )
    r.add_argument("files", nargs="+", metavar="FILE")
    r.add_argument("--json", metavar="FILE", help="also write the summary as JSON")
    r.set_defaults(func=cmd_replay)

    g = sub.add_parser(
        "random-games",
        help="play games with random legal actions",
        description="Play N games with uniformly random legal actions; "
        "show game types and results.",
    )
    g.add_argument("n", type=int, metavar="N")
    g.add_argument("--seed", type=int, help="first seed (default: drawn and printed)")
    g.add_argument("--show", action="store_true", help="print the first game as an ISS record")
    g.set_defaults(func=cmd_random_games)

    b = sub.add_parser(
        "bench",
        help="benchmarks",
        description="Benchmarks: 'rules' (random games per second, against OpenSpiel if "
        "installed), 'solver' (open-handed solver at 30 cards, ablations, node signature) and "
        "'pimc' (seconds per PIMC decision in the first trick, and per game of three pimc "
        "players), 'bidding' (milliseconds per bidding-tree evaluation) and 'inference' "
        "(milliseconds per inference draw of 10,000 candidate worlds).",
    )
    b.add_argument(
        "what", choices=["rules", "solver", "pimc", "bidding", "inference"], help="what to measure"
    )
    b.add_argument(
        "--candidates", type=int, default=10_000, help="inference: candidate worlds per draw"
    )
    b.add_argument("--hands", type=int, default=200, help="bidding: random hands to time")
    b.add_argument("--games", type=int, default=2000, help="rules: games per timed run")
    b.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="timed runs, median reported (rules, bidding, inference: default 5; solver:"
        " default 1, ablations in the first run only)",
    )
    b.add_argument("--positions", type=int, default=100, help="solver and inference: positions")
    b.add_argument(
        "--ablation-positions", type=int, default=40, help="solver: positions per ablation row"
    )
    b.add_argument("--tt-mb", type=int, default=32, help="solver: transposition table size")
    b.add_argument("--deals", type=int, default=10, help="pimc: deals (3 decisions each)")
    b.add_argument("--worlds", type=int, default=160, help="pimc: worlds per decision")
    b.add_argument("--threads", type=int, default=1, help="pimc: solver threads")
    b.add_argument(
        "--no-points", action="store_true", help="pimc: win and schneider only, no card points"
    )
    b.add_argument(
        "--full-games", type=int, default=1, help="pimc: games of three pimc players to time"
    )
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--json", metavar="FILE", help="write the measurements as JSON")
    b.set_defaults(func=cmd_bench)

    t = sub.add_parser(
        "tournament",
        help="duplicate-deal tournament between two players",
        description=TOURNAMENT_HELP,
        epilog=TOURNAMENT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("a", metavar="A", help="player A's spec (e.g. rules, random:seed=3)")
    t.add_argument("b", metavar="B", help="player B's spec")
    t.add_argument(
        "--mode",
        choices=["cardplay", "full"],
        default="cardplay",
        help="cardplay: the bidder bids and declares, A and B play the cards; full: whole"
        " games in six seatings (default: cardplay)",
    )
    t.add_argument("--deals", type=int, default=100, help="deals to play (default: 100)")
    t.add_argument(
        "--seed",
        type=int,
        help="tournament seed; deals derive from it (default: drawn and printed)",
    )
    t.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes; each sets SKAT_THREADS to cpu_count // W (default: 1)",
    )
    t.add_argument(
        "--bidder",
        default="rules",
        metavar="SPEC",
        help="cardplay: the player spec that bids, discards and declares (default: rules)",
    )
    t.add_argument("--json", metavar="FILE", help="write the results as JSON")
    t.add_argument(
        "--records",
        metavar="FILE",
        help="write every game as an ISS record line (deal order, then seating order;"
        " P0..P2 name the players); replay with 'skat replay FILE'",
    )
    t.set_defaults(func=cmd_tournament)

    from skat.bidding.cli import add_commands

    add_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    code: int = args.func(args, console)
    return code


if __name__ == "__main__":
    sys.exit(main())
