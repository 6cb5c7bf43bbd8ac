"""``skat play``: a person plays a list of games against two AI players in the terminal.

The table is drawn with rich: the hand sorted and grouped by the current game's trump order,
the auction as it happens, the skat, the declaration, each trick with who takes it, the result
with its full valuation and the running Seeger-Fabian score sheet. Every prompt ends in ``> ``
and lists what may be typed; anything else gets a message and the same prompt again, so the
command can be driven by a program through a pseudo-terminal.

Words understood at every prompt: ``hint`` (or ``?``), ``sheet``, ``table``, ``help``,
``quit`` (or ``q``); in card play also ``undo`` (take back your last card), ``claim`` (the
declarer claims the rest) and ``concede`` (a defender gives the rest up; the declarer
resigns), the last two accepted only when certain (:mod:`skat.ui.claims`). After a game: Enter
for the next game, ``a`` for the analysis, ``save [FILE]`` for the ISS records of the list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat._core import Action, Card, Cards, GameType, Phase, matadors
from skat.display import card_markup, hand_markup
from skat.ui.common import (
    SEAT_NAMES,
    TYPE_NAMES,
    InputError,
    UiError,
    action_text,
    contract_name,
    parse_action,
    ramsch_seats,
    result_text,
    valuation,
    verb,
)
from skat.ui.session import Session

__all__ = ["TerminalGame", "run"]

HELP = """\
Type the action shown in the prompt: a bid (18), y to hold, p to pass, s to pick up the skat,
a contract (G, C, S, H, D, N, NO; hand: GH, CHS, NOH, ...), two cards to put away (CJ ST), or
a card to play: its number in the prompt, or its name (CJ, HT or H10, ♥10).
Also at any prompt: hint (or ?) for the AI's advice, sheet for the score sheet, table to show
the table again, help, quit (or q). In card play: undo takes back your last card, claim (as
declarer) claims the rest, concede gives the rest up (as declarer: resign); a claim or a
concession is accepted only when it is certain with every card known."""

Reader = Callable[[str], str]


class _Quit(Exception):
    """The person asked to stop."""


class TerminalGame:
    """Draws a :class:`Session` on a rich console and reads the person's moves.

    ``read(prompt)`` returns one line of input (``EOFError`` ends the session); the default
    reads the console.
    """

    def __init__(
        self,
        session: Session,
        console: Console,
        read: Reader | None = None,
        records: str | None = None,
    ) -> None:
        self.s = session
        self.console = console
        self.read: Reader = read if read is not None else self._console_read
        self.records_path = records
        self._shown_notes = 0

    def _console_read(self, prompt: str) -> str:
        return self.console.input(prompt)

    # ----- output ------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """``You`` or the AI's name with its seat, as markup."""
        if seat == self.s.human_seat:
            return "[bold cyan]You[/]"
        name = self.s.names[self.s.chair_at(seat)]
        return f"[bold magenta]{escape(name)}[/] [dim]({SEAT_NAMES[seat]})[/]"

    def game_type(self) -> GameType | None:
        contract = self.s.game.contract
        return None if contract is None else contract.game_type

    def show_hand(self) -> None:
        view = self.s.view()
        contract = self.s.game.contract
        gt = None if contract is None else contract.game_type
        label = "Your hand" if contract is None else f"Your hand ({contract_name(contract)})"
        self.console.print(f"{label}: {hand_markup(view.hand, gt)}")

    def show_start(self) -> None:
        s = self.s
        self.console.rule(f"Game {s.index + 1} of {s.games}")
        dealer = s.names[s.chair_at(2)]
        self.console.print(
            f"You are [bold]{SEAT_NAMES[s.human_seat]}[/bold]; {escape(dealer)} dealt."
            f" Seats: "
            + ", ".join(f"{SEAT_NAMES[i]} {escape(n)}" for i, n in enumerate(s.seat_names()))
        )
        self.show_hand()

    def show_table(self) -> None:
        """The whole state: contract, open hand, the trick so far, the hand."""
        s = self.s
        g = s.game
        view = s.view()
        if g.contract is not None and g.declarer is not None:
            self.console.print(
                f"{self.who(g.declarer)} {verb('play', g.declarer == s.human_seat)}"
                f" {contract_name(g.contract)} (bid {g.bid});"
                f" tricks so far: {len(g.tricks)}"
            )
        if view.open_hand is not None and g.declarer != s.human_seat and g.declarer is not None:
            self.console.print(f"Open hand: {hand_markup(view.open_hand, self.game_type())}")
        if view.trick:
            self.console.print("Trick: " + self._trick_markup(view.leader, view.trick))
        self.show_hand()

    def _trick_markup(self, leader: int, cards: Sequence[Card]) -> str:
        parts = []
        for i, c in enumerate(cards):
            seat = (leader + i) % 3
            name = self.s.names[self.s.chair_at(seat)]
            parts.append(f"{escape(name)} {card_markup(c)}")
        return ", ".join(parts)

    def show_action(self, seat: int, action: Action) -> None:
        """One line for an action just taken (the person's or an AI's)."""
        g = self.s.game
        you = seat == self.s.human_seat
        kind = action.kind
        if kind == "discard" and not you:
            self.console.print(f"{self.who(seat)} puts two cards away")
        elif kind == "play" and action.card is not None:
            self.console.print(f"  {self.who(seat)} {verb('play', you)} {card_markup(action.card)}")
        elif kind == "declare" and action.contract is not None:
            c = action.contract
            self.console.print(
                f"{self.who(seat)} {verb('declare', you)} [bold]{contract_name(c)}[/] (bid {g.bid})"
            )
            if c.ouvert and not you and g.declarer is not None:
                hand = self.s.view().open_hand
                if hand is not None:
                    self.console.print(f"Open hand: {hand_markup(hand, c.game_type)}")
        elif kind == "pickup" and you:
            view = self.s.view()
            skat = view.skat
            shown = hand_markup(skat) if skat is not None else ""
            self.console.print(f"You pick up the skat: {shown}")
        else:
            text = action_text(action, you=you)
            self.console.print(f"{self.who(seat)} {escape(text)}")
        if kind == "play" and not g.trick and g.tricks:
            _, cards, winner = g.tricks[-1]
            pts = sum(c.points for c in cards)
            takes = verb("take", winner == self.s.human_seat)
            self.console.print(
                f"  -> {self.who(winner)} {takes} trick {len(g.tricks)} ({pts} points)"
            )

    def show_notes(self) -> None:
        for note in self.s.notes[self._shown_notes :]:
            self.console.print(f"[yellow]{escape(note)}[/yellow]")
        self._shown_notes = len(self.s.notes)

    def show_result(self) -> None:
        g = self.s.game
        r = g.result
        assert r is not None
        self.console.rule("Result")
        named = ramsch_seats(r)
        if named:
            me = self.s.human_seat
            who = " & ".join(self.who(x) for x in named)
            self.console.print(result_text(r, who, me in named or len(named) > 1))
        if r.declarer is not None and r.contract is not None:
            you = r.declarer == self.s.human_seat
            outcome = verb("win" if r.won else "lose", you)
            verdict = f"[green]{outcome}[/green]" if r.won else f"[red]{outcome}[/red]"
            self.console.print(
                f"{self.who(r.declarer)} {verdict} {contract_name(r.contract)}: {r.value:+d}"
            )
        skat = g.deal.skat
        self.console.print(
            f"Skat dealt: {hand_markup(skat)}"
            + (f"; put away: {hand_markup(g.skat)}" if g.picked_up and g.skat else "")
        )
        for line in valuation(r).lines:
            self.console.print(f"  {escape(line)}")
        self.show_sheet()

    def show_sheet(self) -> None:
        sheet = self.s.sheet()
        table = Table(
            title=f"Score sheet (Seeger-Fabian), {len(sheet.rows)} of {sheet.games} games"
        )
        table.add_column("#", justify="right")
        table.add_column("declarer")
        table.add_column("game")
        table.add_column("value", justify="right")
        for name in sheet.names:
            table.add_column(escape(name), justify="right")
        for row in sheet.rows:
            who = "" if row.declarer is None else sheet.names[row.declarer]
            table.add_row(
                str(row.number),
                escape(who),
                escape(row.contract),
                f"{row.value:+d}" if row.declarer is not None else "",
                *(f"{t}" for t in row.totals),
            )
        tally = [sheet.tally(c) for c in range(3)]
        table.add_row(
            "", "", "won / lost", "", *(f"{w} / {lo}" for w, lo in tally), end_section=True
        )
        self.console.print(table)

    def show_analysis(self, index: int) -> None:
        s = self.s
        with self.console.status("analysing every card with all hands open..."):
            report = s.analysis(index)
        you = s.seat_of(s.human_chair, index)
        self.console.rule(f"Analysis of game {index + 1}")
        table = Table(show_lines=False)
        for col in ("trick", "player", "card", "best", "verdict"):
            table.add_column(col)
        for m in report.moves:
            name = s.names[s.chair_at(m.seat, index)]
            if m.forced:
                verdict = "[dim]forced[/dim]"
            elif m.hinted:
                verdict = "[cyan]followed the hint[/cyan]"
            elif m.flipped:
                verdict = "[bold red]turned a won game into a lost one[/]"
            elif m.points_lost:
                verdict = f"[yellow]-{m.points_lost} card points[/]"
            else:
                verdict = "[green]best[/green]"
            style = "bold" if m.seat == you else ""
            table.add_row(
                str(m.trick),
                f"[{style}]{escape(name)}[/]" if style else escape(name),
                card_markup(m.card),
                " ".join(card_markup(c) for c in m.best),
                verdict,
            )
        if report.moves:
            self.console.print(table)
        names = ["You" if seat == you else n for seat, n in enumerate(s.seat_names(index))]
        for line in report.summary(you, names):
            self.console.print(escape(line))

    # ----- input -------------------------------------------------------------------------

    def prompt_for(self, legal: list[Action]) -> tuple[str, dict[str, Action]]:
        """The prompt for the person's move and the numbered shortcuts it offers."""
        view = self.s.view()
        phase = view.phase
        numbers: dict[str, Action] = {}
        if phase == Phase.PLAY:
            cards = [a for a in legal if a.card is not None]
            order = view.hand.sorted(self.game_type())
            cards.sort(key=lambda a: order.index(a.card) if a.card in order else 99)
            for i, a in enumerate(cards, 1):
                numbers[str(i)] = a
            shown = "  ".join(
                f"{i}:{card_markup(a.card)}" for i, a in numbers.items() if a.card is not None
            )
            doubling = [a.kind for a in legal if a.kind in ("kontra", "re")]
            say = f" (or {doubling[0]})" if doubling else ""
            return f"Play a card{say}: {shown} > ", numbers
        if phase == Phase.BIDDING:
            bids = [a.bid for a in legal if a.kind == "bid"]
            if any(a.kind == "hold" for a in legal):
                return f"Hold {view.bid}? (y = hold, p = pass) > ", numbers
            first = " ".join(str(b) for b in bids[:6])
            more = " ..." if len(bids) > 6 else ""
            return f"Your bid (bid {first}{more}, p = pass) > ", numbers
        if phase == Phase.SKAT:
            return "Pick up the skat (s) or play hand (see the list, e.g. GH) > ", numbers
        if phase == Phase.DISCARD:
            example = " ".join(str(c) for c in view.hand.sorted(self.game_type())[-2:])
            return f"Put two cards away (e.g. {example}) > ", numbers
        if phase == Phase.DECLARE:
            tokens = " ".join(str(a) for a in legal)
            return f"Declare ({tokens}) > ", numbers
        return "> ", numbers

    def show_contract_options(self, legal: list[Action]) -> None:
        """The contracts the person may declare, grouped by game, with their values (the
        person's matadors, no level beyond the announced ones; ``!`` below the bid)."""
        view = self.s.view()
        known = view.hand | (view.discard if view.discard is not None else Cards())
        groups: dict[str, list[str]] = {}
        matador_note: dict[str, str] = {}
        below = False
        for a in legal:
            c = a.contract
            if c is None:
                continue
            gt = c.game_type
            if gt == GameType.NULL:
                value = c.base_value
            else:
                mats = matadors(gt, known)
                value = c.value(mats)
                matador_note[gt.letter] = f"{'with' if mats > 0 else 'without'} {abs(mats)}"
            flag = "!" if value < view.bid else ""
            below = below or bool(flag)
            groups.setdefault(gt.letter, []).append(f"{a!s} {value}{flag}")
        if not groups:
            return
        hand = view.phase == Phase.SKAT
        title = "Hand games" if hand else "Games"
        extra = " (matadors without the skat)" if hand else ""
        self.console.print(f"{title}: token and value if won{extra}; your bid is {view.bid}")
        for letter, items in groups.items():
            note = f" ({matador_note[letter]})" if letter in matador_note else ""
            head = f"{TYPE_NAMES[letter]}{note}"
            self.console.print(escape(f"  {head:<22} " + "   ".join(items)))
        if below:
            self.console.print("  ! below your bid: lost unless a level reached in play lifts it")

    def ask(self) -> None:
        """Reads and applies one move of the person, handling commands and bad input."""
        legal = self.s.legal_actions()
        if self.s.view().phase in (Phase.SKAT, Phase.DECLARE):
            self.show_contract_options(legal)
        prompt, numbers = self.prompt_for(legal)
        while True:
            text = self.read(prompt).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise _Quit
            if low in ("?", "hint"):
                self.show_hint()
                continue
            if low == "help":
                self.console.print(HELP, markup=False, highlight=False)
                continue
            if low == "sheet":
                self.show_sheet()
                continue
            if low == "table":
                self.show_table()
                continue
            if low in ("undo", "claim", "concede"):
                try:
                    if low == "undo":
                        taken = self.s.undo()
                        self.console.print(f"You took back {escape(action_text(taken, True))}.")
                        self.show_table()
                    else:
                        self.s.claim() if low == "claim" else self.s.concede()
                except InputError as e:
                    self.console.print(f"[red]{escape(str(e))}[/red]")
                    continue
                return
            try:
                if text.isdigit() and numbers and text not in numbers:
                    raise InputError(f"there is no card {text} here; type 1 to {len(numbers)}")
                action = numbers.get(text) or parse_action(text, legal)
                seat = self.s.human_seat
                self.s.act(action)
            except InputError as e:
                self.console.print(f"[red]{escape(str(e))}[/red] (help lists what you can type)")
                continue
            self.show_action(seat, action)
            return

    def show_hint(self) -> None:
        with self.console.status("the AI is thinking about your move..."):
            try:
                hint = self.s.hint()
            except UiError as e:
                self.console.print(f"[red]{escape(str(e))}[/red]")
                return
        self.console.print(f"[bold]Hint:[/bold] {escape(hint.text)}")
        if hint.cards:
            table = Table()
            table.add_column("card")
            table.add_column("win chance", justify="right")
            table.add_column("your card points", justify="right")
            for c in hint.cards:
                table.add_row(
                    card_markup(c.card),
                    f"{100 * c.win:.0f}%",
                    "" if c.points is None else f"{c.points:.1f}",
                )
            self.console.print(table)

    # ----- the loop ----------------------------------------------------------------------

    def play_game(self) -> None:
        """Plays the current game to its end."""
        s = self.s
        self.show_start()
        shown_trick_start = -1
        while not s.game.is_over:
            if s.ai_to_move:
                seat = s.game.to_move
                assert seat is not None
                if (
                    s.game.phase == Phase.PLAY
                    and not s.game.trick
                    and len(s.game.tricks) != shown_trick_start
                ):
                    shown_trick_start = len(s.game.tricks)
                    self.console.print(f"[bold]Trick {shown_trick_start + 1}[/bold]")
                with self.console.status(f"{escape(s.names[s.chair_at(seat)])} is thinking..."):
                    seat, action = s.ai_step()
                self.show_action(seat, action)
                self.show_notes()
                continue
            phase = s.game.phase
            if phase == Phase.PLAY and not s.game.trick and len(s.game.tricks) != shown_trick_start:
                shown_trick_start = len(s.game.tricks)
                self.console.print(f"[bold]Trick {shown_trick_start + 1}[/bold]")
            if phase == Phase.PLAY:
                declarer = s.game.declarer
                open_hand = s.view().open_hand
                if open_hand is not None and declarer is not None and declarer != s.human_seat:
                    shown = hand_markup(open_hand, self.game_type())
                    self.console.print(f"Open hand of {self.who(declarer)}: {shown}")
            if phase == Phase.SKAT:
                self.console.print(f"[bold]You win the auction at {s.game.bid}.[/bold]")
                self.show_hand()
            if phase in (Phase.PLAY, Phase.DISCARD):
                self.show_hand()
            self.ask()
        self.show_result()

    def after_game(self) -> bool:
        """The prompt between games; False when the person is done."""
        s = self.s
        index = len(s.finished) - 1
        last = s.list_over
        prompt = (
            "List complete. a = analysis, save [FILE] = ISS records, Enter or q = quit > "
            if last
            else "Enter = next game, a = analysis, save [FILE] = ISS records, sheet, q = quit > "
        )
        while True:
            text = self.read(prompt).strip()
            low = text.lower()
            if low == "" or low in ("n", "next"):
                return not last
            if low in ("q", "quit", "exit"):
                return False
            if low in ("a", "analysis"):
                self.show_analysis(index)
            elif low == "sheet":
                self.show_sheet()
            elif low == "help":
                self.console.print(HELP, markup=False, highlight=False)
            elif low.split()[0] == "save":
                parts = text.split(maxsplit=1)
                path = parts[1] if len(parts) > 1 else f"skat-list-{s.seed}.iss"
                self.save(path)
            else:
                self.console.print(f"[red]{escape(text)!s} is not understood here[/red]")

    def save(self, path: str) -> None:
        try:
            Path(path).write_text(self.s.records(), encoding="utf-8")
        except OSError as e:
            self.console.print(f"[red]cannot write {escape(path)}: {escape(str(e))}[/red]")
            return
        self.console.print(
            f"{len(self.s.finished)} game(s) written to {escape(path)} (ISS records)"
        )

    def run(self) -> int:
        """Plays the list; returns the exit status (0, or 130 after Ctrl-C)."""
        s = self.s
        d = s.describe()
        self.console.print(
            f"[bold]Skat[/bold]: a list of {s.games} game(s), seed {s.seed}; opponents "
            f"{escape(', '.join(d['opponents']))}. Type help at any prompt."
        )
        code = 0
        try:
            while True:
                self.play_game()
                if not self.after_game():
                    break
                s.next_game()
        except _Quit:
            self.console.print(
                "Stopped." + ("" if s.game.is_over else " The game in progress is not scored.")
            )
            if s.finished:
                self.show_sheet()
        except EOFError:
            self.console.print("\nEnd of input: stopped.")
        except KeyboardInterrupt:
            self.console.print("\nInterrupted.")
            code = 130
        if self.records_path and s.finished:
            self.save(self.records_path)
        return code


def run(session: Session, console: Console, records: str | None = None) -> int:
    """Plays ``session`` in the terminal; returns the exit status."""
    return TerminalGame(session, console, records=records).run()
