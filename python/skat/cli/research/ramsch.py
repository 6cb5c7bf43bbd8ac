"""``skat research ramsch``: a player's Ramsch play against a baseline on the same cards.

The computation is :func:`skat.research.ramsch.study`; this module checks the options, shows
progress, prints the result and writes ``--json``.
"""

from __future__ import annotations

import argparse

from rich.console import Console

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_json

HELP = """\
Every deal played as a Ramsch (all three pass; with --variants schieberamsch the skat round
first): once with --player in each seat and --baseline in the other two, once with the
baseline in all three. Prints the player's mean gain per game over the baseline in its seat
(Ramsch scores; a 95% interval over the deals) and how often each lost a Ramsch; writes --json.
"""


def check(args: argparse.Namespace) -> None:
    checks.check_specs("--player", [args.player], (1,))
    checks.check_specs("--baseline", [args.baseline], (1,))
    if "ramsch" not in args.variants.split() and "schieberamsch" not in args.variants.split():
        raise checks.OptionError("--variants", "needs ramsch or schieberamsch")


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.ramsch import study

    seed = checks.draw_seed(args.seed, console)
    with progress_task(console, "deals", args.deals) as progress:
        result = study(
            args.player,
            args.baseline,
            args.deals,
            seed,
            variants=args.variants,
            workers=args.workers,
            ray=args.ray,
            progress=progress,
        )
    ci = result["ci95"]
    interval = f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""
    console.print(
        f"{args.player} against {args.baseline}, {args.deals} Ramsch deals, seed {seed}:"
        f" gain {result['gain_per_game']:+.2f} points per game{interval}; lost"
        f" {result['candidate_loser_rate']:.1%} of its Ramsch (the baseline in its seats"
        f" {result['baseline_loser_rate']:.1%}), {result['candidate_durchmarsch']} Durchmarsch"
    )
    save_json(args.json, result)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research ramsch``."""
    k = kinds.add_parser(
        "ramsch",
        help="a player's Ramsch play against a baseline on the same cards",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--player",
        default=defaults.RAMSCH_STUDY_PLAYER,
        metavar="SPEC",
        help=f"the candidate (default: {defaults.RAMSCH_STUDY_PLAYER})",
    )
    k.add_argument(
        "--baseline",
        default="rules",
        metavar="SPEC",
        help="the baseline in the other seats and in the all-baseline game (default: rules)",
    )
    k.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.RAMSCH_STUDY_DEALS,
        help=f"deals, four games each (default: {defaults.RAMSCH_STUDY_DEALS})",
    )
    k.add_argument(
        "--variants",
        type=checks.variants,
        default="ramsch",
        help="ramsch or schieberamsch (default: ramsch)",
    )
    k.add_argument("--seed", type=checks.seed, help="seed (default: drawn and printed)")
    checks.add_parallel_options(k)
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the study as JSON")
    k.set_defaults(func=run, check=check)
