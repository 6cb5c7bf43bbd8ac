"""``skat research softmaxn``: how well the ``softmaxn`` player's inference reads its opponents.

The computation is :func:`skat.research.softmaxn.study`; this module checks the options, shows
progress, prints the table and writes ``--json``.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_task, save_json

HELP = """\
Whole games of an observer (a softmaxn player that infers its opponents' kinds) against two
opponents of known kinds (softmaxn players with infer=false), for each line-up. Prints, per
line-up and role, how often the observer had ruled out each candidate kind by the end of the
game: ruling out the true kind is an error, ruling out the other one is the point.
"""


def check(args: argparse.Namespace) -> None:
    from skat.players import SoftmaxnPlayer, make_player
    from skat.research.softmaxn import true_kinds

    checks.check_specs("--observer", [args.observer], (1,))
    observer = make_player(args.observer)
    if not isinstance(observer, SoftmaxnPlayer) or not observer.infer:
        raise checks.OptionError(
            "--observer",
            f"expected a softmaxn player that infers (infer=true), got {args.observer!r}",
        )
    lineups = args.opponents or list(defaults.SOFTMAXN_STUDY_LINEUPS)
    checks.check_specs("--opponents", lineups, tuple(range(1, 11)))
    for spec in lineups:
        try:
            true_kinds(spec)
        except ValueError as e:
            raise checks.OptionError("--opponents", str(e)) from e
    args.opponents = lineups


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.softmaxn import study

    seed = checks.draw_seed(args.seed, console)
    with progress_task(console, "games", args.games * len(args.opponents)) as progress:
        result = study(
            args.observer,
            args.opponents,
            args.games,
            seed,
            workers=args.workers,
            ray=args.ray,
            progress=progress,
        )
    table = Table(title=f"{args.observer}: kinds ruled out by the end of the game, seed {seed}")
    for col in ("opponents", "role", "true kind", "opponent-games", "ruled out"):
        table.add_column(col)
    for lineup in result["lineups"]:
        for role, c in lineup["counts"].items():
            ruled = ", ".join(f"{k} {n}" for k, n in c["ruled_out"].items())
            table.add_row(
                lineup["opponents"], role, c["true_kind"], str(c["opponent_games"]), ruled
            )
    console.print(table)
    save_json(args.json, result)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research softmaxn``."""
    k = kinds.add_parser(
        "softmaxn",
        help="the softmaxn player's inference of its opponents' kinds",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "--observer",
        default=defaults.SOFTMAXN_STUDY_OBSERVER,
        metavar="SPEC",
        help=f"the inferring player (default: {defaults.SOFTMAXN_STUDY_OBSERVER})",
    )
    k.add_argument(
        "--opponents",
        nargs="+",
        metavar="SPEC",
        help="line-ups, one softmaxn spec with infer=false each (default: "
        + " and ".join(defaults.SOFTMAXN_STUDY_LINEUPS)
        + ")",
    )
    k.add_argument(
        "--games",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SOFTMAXN_STUDY_GAMES,
        help=f"games per line-up (default: {defaults.SOFTMAXN_STUDY_GAMES})",
    )
    k.add_argument("--seed", type=checks.seed, help="seed (default: drawn and printed)")
    checks.add_parallel_options(k)
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the study as JSON")
    k.set_defaults(func=run, check=check)
