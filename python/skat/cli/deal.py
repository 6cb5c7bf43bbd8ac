"""``skat deal``, ``skat replay`` and ``skat random-games``: deals, records and random games.

``skat deal --seed S`` shows game 1 of a list played with seed ``S``:
``Deal.random(deal_seed(S, 0))``, the deal that ``skat play --seed S`` (and ``--watch``) starts
from and the tournament's first candidate deal. ``random-games N --seed S`` plays
``random_game(S + i)`` for ``i < N`` (seeds taken modulo 2**64).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat._core import Deal, random_game
from skat.cli import checks
from skat.display import SEAT_NAMES, hand_markup, progress_bar, result_line
from skat.records import ReplaySummary, replay_file
from skat.seeds import deal_seed, wrap_seed


def first_deal(seed: int) -> Deal:
    """Game 1 of the list (or tournament) of ``seed``: what ``skat deal`` shows."""
    return Deal.random(deal_seed(seed, 0))


def cmd_deal(args: argparse.Namespace, console: Console) -> int:
    seed = checks.draw_seed(args.seed, console)
    deal = first_deal(seed)
    table = Table(title=f"Deal of seed {seed} (game 1 of 'skat play --seed {seed}')")
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
        out: dict[str, Any] = {
            "records": summary.records,
            "complete": summary.complete,
            "passed": summary.passed,
            "in_progress": summary.in_progress,
            "errors": summary.errors,
            "mismatches": summary.mismatches,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
    return 0 if summary.ok else 1


def _contract_key(r: Any) -> str:
    if r.contract is None:
        return "passed" if r.passed else str(r.end)
    gt = r.contract.game_type
    key = str(gt) + (" ouvert" if r.contract.ouvert else "")
    return key + (" hand" if r.contract.hand and not (r.contract.ouvert and gt != gt.NULL) else "")


def cmd_random_games(args: argparse.Namespace, console: Console) -> int:
    seed = checks.draw_seed(args.seed, console)
    types: Counter[str] = Counter()
    won: Counter[str] = Counter()
    values: Counter[str] = Counter()
    overbid = 0
    with progress_bar(console) as progress:
        task = progress.add_task("random games", total=args.n)
        for i in range(args.n):
            r = random_game(wrap_seed(seed + i)).result
            assert r is not None
            key = _contract_key(r)
            types[key] += 1
            won[key] += int(r.won)
            values[key] += r.value
            overbid += int(r.overbid)
            if i % 256 == 0:
                progress.update(task, completed=i)
    table = Table(title=f"{args.n} random games (seeds {seed}..{wrap_seed(seed + args.n - 1)})")
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


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``deal``, ``replay`` and ``random-games``."""
    d = sub.add_parser(
        "deal",
        help="show a random deal",
        description="Show a random deal, sorted and grouped: with --seed S, game 1 of the list"
        " that 'skat play --seed S' plays (Deal.random(deal_seed(S, 0))).",
    )
    d.add_argument("--seed", type=checks.seed, help="seed, 0..2**64-1 (default: drawn and printed)")
    d.set_defaults(func=cmd_deal)

    r = sub.add_parser(
        "replay",
        help="replay ISS records and check their results",
        description="Replay every record of ISS files through the rules; exit 1 on any mismatch.",
    )
    r.add_argument("files", nargs="+", metavar="FILE", type=checks.in_file)
    r.add_argument(
        "--json", metavar="FILE", type=checks.out_file, help="also write the summary as JSON"
    )
    r.set_defaults(func=cmd_replay)

    g = sub.add_parser(
        "random-games",
        help="play games with random legal actions",
        description="Play N games with uniformly random legal actions (game i from seed"
        " SEED + i); show game types and results.",
    )
    g.add_argument("n", type=checks.integer(1, checks.COUNT_MAX), metavar="N")
    g.add_argument(
        "--seed", type=checks.seed, help="first seed, 0..2**64-1 (default: drawn and printed)"
    )
    g.add_argument("--show", action="store_true", help="print the first game as an ISS record")
    g.set_defaults(func=cmd_random_games)
