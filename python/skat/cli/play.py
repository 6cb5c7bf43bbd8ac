"""``skat play`` (a list in the terminal, or ``--watch`` one game) and ``skat serve`` (browser).

Game ``i`` of a list with seed ``S`` is ``Deal.random(deal_seed(S, i))``; ``--watch`` plays
game 1 of that list, the deal ``skat deal --seed S`` shows. Every option, player specs
included, is checked before the first card is dealt or the server listens, and so is that the
console can show the suit symbols (one line and exit status 1 in an ASCII or Latin-1 locale).
"""

from __future__ import annotations

import argparse
import os

from rich.console import Console
from rich.markup import escape

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.cli.deal import first_deal
from skat.display import SEAT_NAMES, SUIT_SYMBOLS, hand_markup, result_line
from skat.ui.common import UiError, contract_name
from skat.ui.words import LANGS

SEATS = {"forehand": 0, "middlehand": 1, "rearhand": 2, "0": 0, "1": 1, "2": 2}


# options of a list that watching one game has no use for (their defaults are ``None``)
LIST_ONLY = ("seat", "opponents", "games", "lang")


def check_play(args: argparse.Namespace) -> None:
    if args.watch:
        for name in LIST_ONLY:
            if getattr(args, name) is not None:
                raise OptionError(f"--{name}", "chooses how a list is played, not --watch")
        checks.check_specs("--players", _players(args), (1, 3))
        return
    if args.players is not None:
        raise OptionError("--players", "only with --watch (a list's AI players are --opponents)")
    if args.seat is not None and args.seat.strip().lower() not in SEATS:
        raise OptionError("--seat", "expected 0, 1, 2, forehand, middlehand or rearhand")
    checks.check_specs("--opponents", _opponents(args), (1, 2))


def _players(args: argparse.Namespace) -> list[str]:
    """The watched game's player specs as given (``--players``, or the default; an empty
    value gives none, which the check refuses)."""
    return checks.split_specs(defaults.WATCH_PLAYERS if args.players is None else args.players)


def _opponents(args: argparse.Namespace) -> list[str]:
    """The AI players' specs of a list or a server (``--opponents``, or the default; an empty
    value gives none, which the check refuses)."""
    if args.opponents is None:
        return [defaults.DEFAULT_OPPONENT]
    return checks.split_specs(args.opponents)


def _check_console(console: Console) -> None:
    """Raises :class:`UiError` when the console's encoding (an ASCII or Latin-1 locale) cannot
    show the suit symbols of the cards, before anything is dealt."""
    try:
        "".join(SUIT_SYMBOLS.values()).encode(console.encoding)
    except (UnicodeEncodeError, LookupError):
        raise UiError(
            f"the terminal's encoding {console.encoding} cannot show the suit symbols of the"
            " cards; use a UTF-8 locale (LANG=C.UTF-8) or PYTHONIOENCODING=utf-8"
        ) from None


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    _check_console(console)
    if not args.watch:
        return _play_interactive(args, console)
    from skat._core import Action, Game
    from skat.display import card_markup
    from skat.match import PlayerFailure, play
    from skat.players import make_player

    specs = _players(args)
    if len(specs) == 1:
        specs = specs * 3
    players = [make_player(s) for s in specs]
    seed = checks.draw_seed(args.seed, console)
    deal = first_deal(seed)
    console.print(f"[bold]Deal of seed {seed}[/bold]: players {escape(', '.join(specs))}")
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
            named = escape(contract_name(k)) if k is not None else "?"
            console.print(f"[bold]  seat {seat} declares {k} ({named}) at bid {game.bid}[/bold]")
        elif kind == "play" and not game.trick and game.tricks:
            leader, cards, winner = game.tricks[-1]
            shown = "  ".join(f"{(leader + i) % 3}:{card_markup(c)}" for i, c in enumerate(cards))
            pts = sum(c.points for c in cards)
            console.print(f"  trick {len(game.tricks):>2}: {shown}  -> seat {winner} ({pts})")

    try:
        game = play(players, deal, seed=seed, on_action=on_action, variants=args.variants)
    except PlayerFailure as e:
        console.print(f"[red]{escape(str(e))}[/red]")
        return 1
    assert game.result is not None
    console.print(f"[bold]Result:[/bold] {result_line(game.result)}")
    console.print(f"Scores (Seeger-Fabian): {game.result.scores}")
    console.print(f"[dim]{escape(game.to_iss())}[/dim]", soft_wrap=True)
    if args.records:
        with open(args.records, "w", encoding="utf-8") as f:
            f.write(game.to_iss() + "\n")
    return 0


def _play_interactive(args: argparse.Namespace, console: Console) -> int:
    from skat.ui import terminal
    from skat.ui.session import Session

    seed = checks.draw_seed(args.seed, console)
    session = Session(
        seat=defaults.PLAY_SEAT if args.seat is None else SEATS[args.seat.strip().lower()],
        opponents=_opponents(args),
        seed=seed,
        games=args.games or defaults.PLAY_GAMES,
        variants=args.variants,
    )
    return terminal.run(session, console, records=args.records, lang=args.lang or defaults.LANG)


SQLITE_MAGIC = b"SQLite format 3\x00"
"""How every SQLite database file starts."""


def _check_host(host: str) -> None:
    """Raises :class:`OptionError` for a ``--host`` that is empty (which would listen on
    every interface) or names no address."""
    import socket

    if not host.strip():
        raise OptionError("--host", "expected an address or host name to listen on, got ''")
    try:
        socket.getaddrinfo(host, None)
    except (OSError, ValueError) as e:  # no such name; a malformed one (idna)
        raise OptionError("--host", f"expected an address or host name, {host!r}: {e}") from e


def check_serve(args: argparse.Namespace) -> None:
    _check_host(args.host)
    checks.check_specs("--opponents", _opponents(args), (1, 2))
    from skat.web.store import StoreError, db_target, postgres_driver

    try:
        target = db_target(args.db)
        if target.kind == "postgresql":
            postgres_driver()
    except StoreError as e:
        raise checks.OptionError("--db", str(e)) from e
    if target.kind == "sqlite" and target.target != ":memory:":
        try:
            checks.out_file(target.target)
        except argparse.ArgumentTypeError as e:
            raise checks.OptionError("--db", str(e)) from e
        if os.path.isfile(target.target) and os.path.getsize(target.target) > 0:
            with open(target.target, "rb") as f:
                if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
                    raise OptionError(
                        "--db", f"expected a SQLite database file, {target.target!r} is not one"
                    )


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    from skat.web.server import serve

    return serve(
        host=args.host,
        port=args.port,
        opponents=args.opponents or "",
        pace=args.pace,
        console=console,
        db=args.db,
    )


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``play`` and ``serve``."""
    pl = sub.add_parser(
        "play",
        help="play a list of games against two AI players, or watch one (--watch)",
        description="Play Skat in the terminal against two AI players: bid, take the skat,"
        " declare and play the tricks; results with their valuation and a Seeger-Fabian score"
        " sheet; hints and an open-handed analysis of every card after each game. Type help at"
        " any prompt. With --watch, watch one game between three players instead. Game i of the"
        " list is Deal.random(deal_seed(SEED, i)): game 1 (and the --watch game) is the deal"
        " 'skat deal --seed SEED' shows.",
    )
    pl.add_argument(
        "--seat",
        help="your seat in the first game: 0/forehand, 1/middlehand, 2/rearhand; it moves"
        f" round the table from game to game (default: {defaults.PLAY_SEAT})",
    )
    pl.add_argument(
        "--opponents",
        metavar="SPEC[,SPEC]",
        help="the AI players: one spec for both or two comma-separated (default:"
        f" {defaults.DEFAULT_OPPONENT})",
    )
    pl.add_argument(
        "--games",
        type=checks.integer(1, checks.COUNT_MAX),
        help=f"length of the list (default: {defaults.PLAY_GAMES}, one round in which each"
        " player deals once; a tournament list has 36)",
    )
    pl.add_argument(
        "--records",
        metavar="FILE",
        type=checks.out_file,
        help="write the ISS records of the list (or of the --watch game) at the end",
    )
    pl.add_argument("--variants", type=checks.variants, default="", help=checks.VARIANTS_HELP)
    pl.add_argument(
        "--lang",
        choices=LANGS,
        help=f"the terminal's language: en (English) or de (German); default: {defaults.LANG}",
    )
    pl.add_argument("--watch", action="store_true", help="watch three AI players")
    pl.add_argument(
        "--players",
        help="with --watch: one spec or three comma-separated player specs"
        f" (e.g. cheater,rules,rules; default: {defaults.WATCH_PLAYERS})",
    )
    pl.add_argument(
        "--seed",
        type=checks.seed,
        help="seed of the deals, 0..2**64-1 (default: drawn and printed)",
    )
    pl.set_defaults(func=cmd_play, check=check_play)

    sv = sub.add_parser(
        "serve",
        help="play in the browser: a small web server",
        description="Serve the Skat table to the browser: every browser session plays its own"
        " list against two AI players, with hints, analysis and ISS downloads, saved in --db so"
        " that it can be resumed (also after a restart); a record viewer at /viewer. Prints"
        " the address to open.",
    )
    sv.add_argument(
        "--host",
        default=defaults.SERVE_HOST,
        help=f"address to listen on (default: {defaults.SERVE_HOST})",
    )
    sv.add_argument(
        "--port",
        type=checks.port,
        default=defaults.SERVE_PORT,
        help="port, 0..65535 (default: 0, a free port, printed)",
    )
    sv.add_argument(
        "--opponents",
        metavar="SPEC[,SPEC]",
        help=f"the AI players of new sessions (default: {defaults.DEFAULT_OPPONENT})",
    )
    sv.add_argument(
        "--pace",
        type=checks.real(0.0, 60.0),
        default=defaults.SERVE_PACE,
        help="seconds between two AI cards, so that people can follow, 0..60"
        f" (default: {defaults.SERVE_PACE})",
    )
    sv.add_argument(
        "--db",
        default=defaults.SERVE_DB,
        metavar="URL",
        help="where every list is saved, so that it survives a restart: a SQLite file (or"
        " sqlite:///PATH), or postgresql://USER:PASSWORD@HOST/DATABASE for a server that"
        " several tables share (pip install 'skat[postgres]'); :memory: keeps nothing"
        f" (default: {defaults.SERVE_DB})",
    )
    sv.set_defaults(func=cmd_serve, check=check_serve)
