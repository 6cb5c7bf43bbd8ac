"""``skat tournament-compare``: two tournaments on the same deals, compared deal by deal.

The computation is :func:`skat.tournament_records.compare`; this module checks the options,
prints the difference and writes ``--json``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape

from skat.cli import checks
from skat.display import save_json

HELP = """\
Compares a player in one tournament's records with a player in another's, deal by deal:
per deal, each player's points per list (36 x the mean Seeger-Fabian score of its seats
over the deal's games), and the mean difference over the deals both files have with its
standard error and 95% interval. Only whole deals count: a file that stops after some of a
deal's games loses that deal. The tournaments must share their seed
(cardplay: and their bidder), so that deal j is the same deal in both; the record files are
those of 'skat tournament --records' or 'skat tournament-table --records-dir'.

--margin compares each player's lead over its opponent in its own tournament instead (per
deal, its points minus the other player's: the tournament's paired difference). That is the
measure for two variants of a player, each played against the same opponent on the same deals.
"""


def check(args: argparse.Namespace) -> None:
    from skat.tournament_records import deal_margins, deal_points, record_seed

    per_deal = deal_margins if args.margin else deal_points
    seeds: list[str] = []
    for option, path, player in (("--a", args.records_a, args.a), ("--b", args.records_b, args.b)):
        try:
            seeds.append(record_seed(path))
            per_deal(path, player)
        except (ValueError, OSError) as e:
            raise checks.OptionError(option, str(e)) from e
    if seeds[0] != seeds[1]:
        raise checks.OptionError(
            "RECORDS_B",
            f"played with seed {seeds[1]}, RECORDS_A with seed {seeds[0]}: the tournaments must"
            " share their seed, so that deal j is the same deal in both",
        )


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.tournament_records import compare

    r = compare(args.records_a, args.a, args.records_b, args.b, margin=args.margin)
    if r["mean"] is None:
        console.print("no deal in common")
        return 1
    ci = r["ci95"]
    interval = f", 95% [{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else ""
    console.print(
        escape(
            f"{args.a} ({args.records_a}) - {args.b} ({args.records_b}):"
            f" {r['mean']:+.1f} points per list{interval}, {r['deals']} deals"
            + (" (leads over the opponents)" if args.margin else "")
        )
    )
    save_json(args.json, r)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``tournament-compare``."""
    c = sub.add_parser(
        "tournament-compare",
        help="a player in one tournament against a player in another, deal by deal",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument(
        "records_a",
        metavar="RECORDS_A",
        type=checks.in_file,
        help="the first tournament's records",
    )
    c.add_argument(
        "records_b",
        metavar="RECORDS_B",
        type=checks.in_file,
        help="the second tournament's records",
    )
    c.add_argument("--a", required=True, metavar="NAME", help="the player in RECORDS_A")
    c.add_argument("--b", required=True, metavar="NAME", help="the player in RECORDS_B")
    c.add_argument(
        "--margin",
        action="store_true",
        help="compare each player's lead over its opponent, not its points",
    )
    c.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the comparison")
    c.set_defaults(func=run, check=check)
