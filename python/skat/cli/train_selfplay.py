"""``skat train selfplay``: complete games played into resumable shards of gzip ISS records,
on local processes or on Ray, for ``skat train bidding --data DIR``.

The shards themselves are written by :mod:`skat.training.selfplay`; this module checks the
options (a directory made by another configuration is refused before any game is played),
reports progress and prints the run's throughput.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import progress_task

if TYPE_CHECKING:
    from skat.training.selfplay import SelfplayConfig


SELFPLAY_HELP = """\
Play self-play games into a directory of shards, for 'skat train bidding --data DIR'.

Games 0..N-1 of the run (--games N): game i deals Deal.random(derive_seed(SEED, i)) and is
played by three --players (one spec for all seats, or three), or with --contracts as a training
contract (declarer and contract chosen so that losing contracts are seen too, optionally
--guide MODEL; three pimc players with --worlds). DIR/shard-KKKKK.iss.gz holds --shard-games
games as gzip ISS records; DIR/manifest.json the configuration and each shard's CPU time.
Resumable: games already in DIR are skipped, a stopped run loses at most its unfinished
shards. Runs on --workers local processes (default: every core), or on a Ray cluster with
--ray auto|ray://HOST:PORT|local (pip install "skat[ray]"). The shards are the same for any
--workers and with or without Ray.
"""


def check_selfplay(args: argparse.Namespace) -> None:
    specs = checks.split_specs(args.players)
    checks.check_specs("--players", specs, (1, 3))
    if args.contracts and args.players != defaults.SELFPLAY_PLAYERS:
        raise OptionError("--players", "not used with --contracts (pimc with --worlds plays)")
    if args.guide and not args.contracts:
        raise OptionError("--guide", "only with --contracts")
    if args.worlds != defaults.TRAIN_WORLDS and not args.contracts:
        raise OptionError("--worlds", "only with --contracts (full games are played by --players)")
    if args.guide:
        checks.check_model("--guide", args.guide)
    from skat.training.selfplay import SelfplayError, check_directory

    try:
        check_directory(args.out, _selfplay_config(args))
    except SelfplayError as e:
        raise OptionError("--out", str(e)) from e


def _selfplay_config(args: argparse.Namespace) -> SelfplayConfig:
    from skat.training.selfplay import SelfplayConfig

    specs = checks.split_specs(args.players)
    players = (specs[0],) * 3 if len(specs) == 1 else (specs[0], specs[1], specs[2])
    return SelfplayConfig(
        seed=args.seed,
        players=players,
        contracts=args.contracts,
        worlds=args.worlds,
        guide=args.guide,
        shard_games=args.shard_games,
    )


def cmd_train_selfplay(args: argparse.Namespace, console: Console) -> int:
    from skat.training.selfplay import selfplay

    config = _selfplay_config(args)
    console.print(
        f"self-play into {args.out}: games 0..{args.games - 1}, seed {args.seed},"
        f" {checks.workers_text(args)}"
    )
    with progress_task(console, "playing") as progress:
        try:
            summary = selfplay(
                args.out,
                args.games,
                config,
                workers=args.workers,
                ray=args.ray,
                progress=progress,
                command=checks.command_line(),
            )
        except KeyboardInterrupt:
            console.print(
                f"stopped: the finished shards are kept in {args.out};"
                " the same command resumes the run"
            )
            return 130
    t = Table(title=f"{summary.directory}: {summary.games} games in {len(summary.shards)} shards")
    for col in ("played now", "CPU s", "wall s", "games / CPU s", "declared", "declarer won"):
        t.add_column(col, justify="right")
    rate = summary.won / summary.declared if summary.declared else 0.0
    t.add_row(
        str(summary.played),
        f"{summary.cpu_seconds:.0f}",
        f"{summary.wall_seconds:.0f}",
        f"{summary.games_per_cpu_second:.2f}",
        f"{summary.declared} of {summary.games}",
        f"{rate:.1%}",
    )
    console.print(t)
    return 0


def add_parser(
    kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
    run_options: Callable[[argparse.ArgumentParser, str], None],
) -> None:
    """Adds ``train selfplay``; ``run_options`` adds --seed, --workers and --ray."""
    s = kinds.add_parser(
        "selfplay",
        help="play self-play games into shards (local cores or Ray)",
        description=SELFPLAY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument(
        "--games", type=checks.integer(1, checks.COUNT_MAX), required=True, help="games 0..N-1"
    )
    s.add_argument(
        "--out", metavar="DIR", type=checks.out_dir, required=True, help="the run's directory"
    )
    s.add_argument(
        "--players",
        default=defaults.SELFPLAY_PLAYERS,
        metavar="SPECS",
        help=f"one spec for every seat or three, comma-separated"
        f" (default: {defaults.SELFPLAY_PLAYERS})",
    )
    s.add_argument(
        "--contracts", action="store_true", help="training contracts instead of full games"
    )
    s.add_argument(
        "--worlds",
        type=checks.integer(1, defaults.WORLDS_MAX),
        default=defaults.TRAIN_WORLDS,
        help=f"with --contracts: pimc worlds per decision (default: {defaults.TRAIN_WORLDS})",
    )
    s.add_argument(
        "--guide", metavar="MODEL", type=checks.in_file, help="with --contracts: guiding model"
    )
    s.add_argument(
        "--shard-games",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.SELFPLAY_SHARD_GAMES,
        help=f"games per shard (default: {defaults.SELFPLAY_SHARD_GAMES})",
    )
    run_options(s, "the run's seed")
    s.set_defaults(func=cmd_train_selfplay, check=check_selfplay)
