"""``skat tournament``: a duplicate-deal tournament between two player specs.

The tournament itself is :func:`skat.tournament.run`; this module checks the options (player
specs are built once, output directories must exist) before the first deal, prints the
statistics and writes ``--json``. The help and epilog are the command's documentation of its
modes, seeds, JSON keys and exit statuses.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.display import progress_bar


def check_tournament(args: argparse.Namespace) -> None:
    if args.mode == "clones" and args.workers not in (None, 1):
        raise checks.OptionError("--workers", "clones mode plays in one process: use 1")
    if args.mode == "clones" and args.ray:
        raise checks.OptionError("--ray", "clones mode plays in one process")
    checks.check_specs("A", [args.a], (1,))
    checks.check_specs("B", [args.b], (1,))
    if args.mode == "cardplay":
        checks.check_specs("--bidder", [_bidder(args)], (1,))
    elif args.bidder is not None:
        raise checks.OptionError(
            "--bidder", f"only in cardplay mode (in {args.mode} mode A and B bid themselves)"
        )
    if "bock" in args.variants.split():
        raise checks.OptionError(
            "--variants", "Bock rounds need a list played in order (skat play, skat serve)"
        )
    if args.variants and args.mode == "clones":
        raise checks.OptionError("--variants", "clones mode plays the International Skat Order")
    if args.resume and not args.records:
        raise checks.OptionError("--resume", "needs --records FILE, the file to resume from")
    if args.resume and args.seed is None:
        raise checks.OptionError("--resume", "needs the --seed of the tournament it resumes")
    if args.resume and args.mode == "clones":
        raise checks.OptionError("--resume", "clones mode plays its deals in order from the start")
    if args.resume:
        from skat.tournament_results import player_labels
        from skat.tournament_resume import ResumeError, games_by_deal

        labels = player_labels(args.a, args.b)
        try:
            games_by_deal(args.records, args.seed, args.deals, labels, args.mode, args.variants)
        except ResumeError as e:
            raise checks.OptionError("--resume", str(e)) from e


def _bidder(args: argparse.Namespace) -> str:
    """The bidder's spec: ``--bidder``, else the default bidder."""
    return defaults.TOURNAMENT_BIDDER if args.bidder is None else str(args.bidder)


def _fmt(value: float | None, spec: str = "+.1f") -> str:
    return "n/a" if value is None else format(value, spec)


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    from skat.tournament import run, write_json
    from skat.tournament_resume import ResumeError

    seed = checks.draw_seed(args.seed, console)
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
                bidder=_bidder(args),
                records=args.records,
                progress=on_progress,
                ray=args.ray,
                variants=args.variants,
                resume=args.resume,
            )
        except ResumeError as e:  # found once the deals are chosen (cardplay: another --bidder)
            raise checks.OptionError("--resume", str(e)) from e
    paired = result.paired_difference
    resumed = f", {result.resumed_deals} deals resumed" if result.resumed_deals else ""
    where = "1 process" if result.mode == "clones" else checks.workers_text(args)
    title = (
        f"{result.mode} tournament, seed {seed}: {paired.deals} deals in the statistics"
        f" ({result.games_played} games, {result.seconds:.1f} s, {where}{resumed})"
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
  clones    candidate A against two clones of B (Table 7.1 of the Kermit thesis):
            whole games in the seatings ABB BAB BBA, deal after deal, the same
            three player objects throughout so that modelling players (tracker,
            count) learn as they go; one process.

Deal j of the candidates is Deal.random(deal_seed(SEED, j)); players' seeds
derive from SEED too, and the results are the same for any --workers and on
Ray. The deals are shared among W worker processes (default: every local
core), each of which sets SKAT_THREADS to cpu_count // W; on Ray each deal is
a task of one CPU and one solver thread.

A player that raises or plays an illegal action is reported with the deal and
position; that deal is left out of the statistics and the tournament goes on.
Ctrl-C stops, shows and writes (--json, "complete": false) the statistics over
the deals finished so far. The same command with --resume then goes on: the
deals whose games are all in --records FILE are read back instead of played,
and the results are those of an uninterrupted run.
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
games_played, candidates and passed_out (cardplay), seconds, workers and
resumed_deals (the only fields that depend on the run rather than the
arguments).

exit status: 0 done, 1 done with player errors, 2 bad arguments or player
specs, 130 interrupted.
"""


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``tournament``."""
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
        choices=["cardplay", "full", "clones"],
        default=defaults.TOURNAMENT_MODE,
        help="cardplay: the bidder bids and declares, A and B play the cards; full: whole"
        " games in six seatings; clones: A against two clones of B in three seatings, in"
        f" deal order (default: {defaults.TOURNAMENT_MODE})",
    )
    t.add_argument(
        "--deals",
        type=checks.integer(1, checks.COUNT_MAX),
        default=defaults.TOURNAMENT_DEALS,
        help=f"deals to play (default: {defaults.TOURNAMENT_DEALS})",
    )
    t.add_argument(
        "--seed",
        type=checks.seed,
        help="tournament seed, 0..2**64-1; deals derive from it (default: drawn and printed)",
    )
    checks.add_parallel_options(t)
    t.add_argument(
        "--bidder",
        default=None,
        metavar="SPEC",
        help="cardplay only: the player spec that bids, discards and declares"
        f" (default: {defaults.TOURNAMENT_BIDDER})",
    )
    t.add_argument(
        "--variants",
        type=checks.variants,
        default="",
        help="table variants of every game, comma-separated: kontra, ramsch, schieberamsch"
        " (default: none, the International Skat Order; Bock rounds need a list)",
    )
    t.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the results as JSON")
    t.add_argument(
        "--records",
        metavar="FILE",
        type=checks.out_file,
        help="write every game as an ISS record line (deal order, then seating order;"
        " P0..P2 name the players); replay with 'skat replay FILE'",
    )
    t.add_argument(
        "--resume",
        action="store_true",
        help="go on from --records FILE: its finished deals are read back, the others played"
        " (needs --seed; a missing file starts afresh)",
    )
    t.set_defaults(func=cmd_tournament, check=check_tournament)
