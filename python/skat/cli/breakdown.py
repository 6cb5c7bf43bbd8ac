"""``skat tournament-breakdown``: where each player's points per list come from.

The computation is :func:`skat.tournament_breakdown.breakdown`; this module reads the file
once while checking the options (a bad record is a bad option), prints one table per player
and writes ``--json``.
"""

from __future__ import annotations

import argparse
import os
from functools import partial
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat._core import RecordError
from skat.cli import checks
from skat.display import save_outputs

HELP = """\
Splits each player's points per list in a record file (those of 'skat tournament --records'
or any ISS record file) by what its seats did: declared a grand, suit or null game (hand or
pick-up: games, share won, points), defended (against another player, or against a seat of
its own when a full tournament seats it twice), or passed out. The parts add up to the
player's points per list (36 x the mean, over its games, of its seats' mean Seeger-Fabian
score), the measure of 'skat tournament'. --player limits the tables and the JSON to the
named players (an ISS archive can hold thousands); --plot draws the parts as bars.

--open-hand also judges every declared game at its first card with all hands open: could the
declarer win it with best play by all three seats from there? Per role it counts the games
open-handed won and lost and how many of each the declarer won: a declarer losing games she
could win open-handed lost them in the play; defenders letting open-handed lost games go lost
them to what they could not see (one solver search a game; 'open_hand' in the JSON). For each
of those a PIPMA replay (searches up to that card) names the defender whose card first let the
declarer win open-handed ('first_losing_card': of a player's open-handed lost games the
declarer won, those in which its seat played that card; 'first_losing_by_card': those cards
by their number in the game, 1..30, so that index 0 is the opening lead; printed as trick 1
and place in the trick). It also gives every player's points per list had the named player's
card play never fallen short of that verdict: its lost winnable contracts scored as won, the
open-handed lost contracts others won against its defence scored as lost, at the same game
value ('open_hand_headroom').
"""


def check(args: argparse.Namespace) -> None:
    from skat.tournament_breakdown import breakdown

    try:
        args.result = breakdown(args.records)
    except (ValueError, RecordError, OSError) as e:
        raise checks.OptionError("RECORDS", str(e)) from e
    players = args.result["players"]
    unknown = [name for name in args.player or () if name not in players]
    if unknown:
        found = ", ".join(sorted(players)[:10]) + (", ..." if len(players) > 10 else "")
        raise checks.OptionError("--player", f"no games of {unknown[0]!r} (players: {found})")
    if args.player:
        args.result["players"] = {name: players[name] for name in args.player}
    if args.open_hand:
        from skat.analysis.verdicts import judge, verdicts
        from skat.tournament_breakdown import headroom

        judged = list(judge(args.records))
        try:
            counts = verdicts(judged)
        except ValueError as e:
            raise checks.OptionError("--open-hand", str(e)) from e
        for name, player in args.result["players"].items():
            player["open_hand"] = counts["players"].get(name, {"roles": []})["roles"]
            player["open_hand_headroom"] = headroom(judged, name)


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.tournament_breakdown import part_name, plot_breakdown

    result = args.result
    for label, player in result["players"].items():
        table = Table(title=escape(f"{label}: {player['points_per_list']:.1f} points per list"))
        table.add_column("role")
        table.add_column("seat-games", justify="right")
        table.add_column("won", justify="right")
        table.add_column("points per list", justify="right")
        for part in player["parts"]:
            won = part["won"]
            share = f"{won / part['seats']:.1%}" if won is not None and part["seats"] else ""
            table.add_row(
                part_name(part), str(part["seats"]), share, f"{part['points_per_list']:+.1f}"
            )
        console.print(table)
        if "open_hand" in player:
            console.print(open_hand_table(label, player["open_hand"]))
            for row in player["open_hand"]:
                if row["first_losing_card"]:
                    console.print(f"{escape(label)}, {row['role']}: {where_first_losing(row)}")
            better = ", ".join(
                f"{escape(name)} {points:.1f}"
                for name, points in player["open_hand_headroom"].items()
            )
            console.print(
                f"had {escape(label)}'s card play never fallen short of the open-handed verdict:"
                f" {better} points per list"
            )
    title = os.path.basename(args.records)
    save_outputs(console, result, args.json, args.plot, partial(plot_breakdown, title=title))
    return 0


def where_first_losing(row: dict[str, Any]) -> str:
    """Where a role's first losing cards fell: in the first trick (the opening lead among
    them) and by place in the trick.

    >>> row = {"first_losing_by_card": [2, 1, 0, 3] + [0] * 26}
    >>> where_first_losing(row)
    'first losing cards: 3 in trick 1 (2 the opening lead); 5 leading, 1 second, 0 third'
    """
    cards = row["first_losing_by_card"]
    places = [sum(cards[p::3]) for p in range(3)]
    return (
        f"first losing cards: {sum(cards[:3])} in trick 1 ({cards[0]} the opening lead);"
        f" {places[0]} leading, {places[1]} second, {places[2]} third"
    )


def open_hand_table(label: str, roles: list[dict[str, Any]]) -> Table:
    """The ``--open-hand`` counts of one player as a table."""

    def share(won: int, games: int) -> str:
        return f"{won} ({won / games:.1%})" if games else "0"

    table = Table(title=escape(f"{label}: declared games judged open-handed at the first card"))
    for column in ("role", "games", "open-hand won", "declarer won", "open-hand lost"):
        table.add_column(column, justify="left" if column == "role" else "right")
    table.add_column("declarer won ", justify="right")
    table.add_column("first losing card", justify="right")
    for row in roles:
        defending = row["role"].startswith("defender")
        table.add_row(
            row["role"],
            str(row["games"]),
            str(row["open_won"]),
            share(row["open_won_declarer_won"], row["open_won"]),
            str(row["open_lost"]),
            share(row["open_lost_declarer_won"], row["open_lost"]),
            share(row["first_losing_card"], row["open_lost_declarer_won"]) if defending else "",
        )
    return table


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``tournament-breakdown``."""
    c = sub.add_parser(
        "tournament-breakdown",
        help="each player's points per list split by declared games, defence and passes",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("records", metavar="RECORDS", type=checks.in_file, help="an ISS record file")
    c.add_argument(
        "--player",
        action="append",
        metavar="NAME",
        help="only this player (repeatable; default: every player in the file)",
    )
    c.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the breakdown")
    c.add_argument(
        "--plot", metavar="FILE", type=checks.plot_file, help="a PNG bar chart of the parts"
    )
    c.add_argument(
        "--open-hand",
        action="store_true",
        help="also judge each declared game open-handed at its first card (one search a game)"
        " and name the defender who first let an open-handed lost game go (a PIPMA replay)",
    )
    c.set_defaults(func=run, check=check)
