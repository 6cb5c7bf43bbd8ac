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

Input is read a line at a time from standard input, a terminal or a pipe alike. ``quit`` and the
end of input (Ctrl-D, a closed standard input) stop with exit status 0, Ctrl-C with 130, at any
prompt and while an AI thinks, in one line and without a traceback.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skat._core import Action, Card, Cards, Contract, GameType, Phase, matadors
from skat.defaults import LANG
from skat.display import card_markup, hand_markup
from skat.ui import words
from skat.ui.common import InputError, UiError, clipped, parse_action, quoted, ramsch_seats
from skat.ui.session import Session
from skat.ui.terminal_words import TERMINAL_WORDS

__all__ = ["TerminalGame", "run"]

Reader = Callable[[str], str]


class _Quit(Exception):
    """The person asked to stop."""


def _lenient_stdin() -> None:
    """Lets standard input decode bytes that are not text in its encoding as U+FFFD (a bad
    line, answered with a message) instead of raising ``UnicodeDecodeError``, which in a pipe
    would also lose the lines read with it. Possible only before the first read."""
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper) and stdin.errors == "strict":
        with contextlib.suppress(OSError, ValueError):  # UnsupportedOperation: already read
            stdin.reconfigure(errors="replace")


class TerminalGame:
    """Draws a :class:`Session` on a rich console and reads the person's moves.

    ``read(prompt)`` returns one line of input (``EOFError`` ends the session); the default
    shows the prompt on the console and reads standard input. ``lang``: ``en`` or ``de``
    (:mod:`skat.ui.terminal_words`).
    """

    def __init__(
        self,
        session: Session,
        console: Console,
        read: Reader | None = None,
        records: str | None = None,
        lang: str = LANG,
    ) -> None:
        self.lang = words.check_lang(lang)
        self.t = TERMINAL_WORDS[self.lang]
        self.s = session
        self.console = console
        self.read: Reader = read if read is not None else self._console_read
        self.records_path = records
        self._shown_notes = 0

    def _console_read(self, prompt: str) -> str:
        # stdin.readline, not input(): on a terminal input() drops a line that starts with a
        # NUL byte (Ctrl-Space) without a word and reads on; without stdin it raises
        stdin = sys.stdin
        if stdin is None:  # standard input closed (``skat play <&-``): nothing can be typed
            raise EOFError
        _lenient_stdin()
        try:
            line = self.console.input(prompt, stream=stdin)
        except UnicodeDecodeError:  # bytes that are no text in the terminal's encoding
            return "\ufffd"
        if not line:
            raise EOFError
        return line.removesuffix("\n")

    # ----- output ------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """``You`` or the AI's name with its seat, as markup."""
        if seat == self.s.human_seat:
            return self.t["you"]
        name = words.display_name(self.s.names[self.s.chair_at(seat)], self.lang)
        return f"[bold magenta]{escape(name)}[/] [dim]({words.seat_name(seat, self.lang)})[/]"

    def verb(self, base: str, seat: int) -> str:
        """``base`` agreeing with the player at ``seat`` (the person or not)."""
        return words.verb(base, seat == self.s.human_seat, self.lang)

    def contract(self, contract: Contract) -> str:
        return words.contract_text(contract, self.lang)

    def game_type(self) -> GameType | None:
        contract = self.s.game.contract
        return None if contract is None else contract.game_type

    def show_hand(self) -> None:
        view = self.s.view()
        contract = self.s.game.contract
        gt = None if contract is None else contract.game_type
        label = (
            self.t["your_hand"]
            if contract is None
            else self.t["your_hand_in"].format(contract=self.contract(contract))
        )
        self.console.print(f"{label}: {hand_markup(view.hand, gt)}")

    def show_start(self) -> None:
        s = self.s
        self.console.rule(self.t["game_rule"].format(n=s.index + 1, total=s.games))
        dealer = words.display_name(s.names[s.chair_at(2)], self.lang)
        seats = ", ".join(
            f"{words.seat_name(i, self.lang)} {escape(words.display_name(n, self.lang))}"
            for i, n in enumerate(s.seat_names())
        )
        self.console.print(
            self.t["you_are"].format(
                seat=words.seat_name(s.human_seat, self.lang), dealer=escape(dealer), seats=seats
            )
        )
        self.show_hand()

    def show_table(self) -> None:
        """The whole state: contract, open hand, the trick so far, the hand."""
        s = self.s
        g = s.game
        view = s.view()
        if g.contract is not None and g.declarer is not None:
            self.console.print(
                self.t["plays_line"].format(
                    who=self.who(g.declarer),
                    verb=self.verb("play", g.declarer),
                    contract=self.contract(g.contract),
                    bid=g.bid,
                    n=len(g.tricks),
                )
            )
        if view.open_hand is not None and g.declarer != s.human_seat and g.declarer is not None:
            cards = hand_markup(view.open_hand, self.game_type())
            self.console.print(self.t["open_hand"].format(cards=cards))
        if view.trick:
            cards = self._trick_markup(view.leader, view.trick)
            self.console.print(self.t["trick_so_far"].format(cards=cards))
        self.show_hand()

    def _trick_markup(self, leader: int, cards: Sequence[Card]) -> str:
        parts = []
        for i, c in enumerate(cards):
            seat = (leader + i) % 3
            name = words.display_name(self.s.names[self.s.chair_at(seat)], self.lang)
            parts.append(f"{escape(name)} {card_markup(c)}")
        return ", ".join(parts)

    def show_action(self, seat: int, action: Action) -> None:
        """One line for an action just taken (the person's or an AI's)."""
        g = self.s.game
        you = seat == self.s.human_seat
        kind = action.kind
        if kind == "discard" and not you:
            self.console.print(self.t["puts_away"].format(who=self.who(seat)))
        elif kind == "play" and action.card is not None:
            card = card_markup(action.card)
            self.console.print(f"  {self.who(seat)} {self.verb('play', seat)} {card}")
        elif kind == "declare" and action.contract is not None:
            c = action.contract
            self.console.print(
                self.t["declares"].format(
                    who=self.who(seat),
                    verb=self.verb("declare", seat),
                    contract=self.contract(c),
                    bid=g.bid,
                )
            )
            if c.ouvert and not you and g.declarer is not None:
                hand = self.s.view().open_hand
                if hand is not None:
                    shown_hand = hand_markup(hand, c.game_type)
                    self.console.print(self.t["open_hand"].format(cards=shown_hand))
        elif kind == "pickup" and you:
            view = self.s.view()
            skat = view.skat
            shown = hand_markup(skat) if skat is not None else ""
            self.console.print(self.t["you_pick_up"].format(cards=shown))
        else:
            text = words.action_phrase(action, you, self.lang)
            self.console.print(f"{self.who(seat)} {escape(text)}")
        if kind == "play" and not g.trick and g.tricks:
            _, cards, winner = g.tricks[-1]
            pts = sum(c.points for c in cards)
            self.console.print(
                self.t["takes_trick"].format(
                    who=self.who(winner),
                    verb=self.verb("take", winner),
                    n=len(g.tricks),
                    points=pts,
                )
            )

    def show_notes(self) -> None:
        for note in self.s.notes[self._shown_notes :]:
            self.console.print(f"[yellow]{escape(note)}[/yellow]")
        self._shown_notes = len(self.s.notes)

    def show_result(self) -> None:
        g = self.s.game
        r = g.result
        assert r is not None
        self.console.rule(self.t["result_rule"])
        named = ramsch_seats(r)
        if named:
            me = self.s.human_seat
            who = " & ".join(self.who(x) for x in named)
            you = me in named or len(named) > 1
            self.console.print(words.result_sentence(r, who, you, self.lang))
        if r.declarer is not None and r.contract is not None:
            outcome = self.verb("win" if r.won else "lose", r.declarer)
            verdict = f"[green]{outcome}[/green]" if r.won else f"[red]{outcome}[/red]"
            self.console.print(
                f"{self.who(r.declarer)} {verdict} {self.contract(r.contract)}: {r.value:+d}"
            )
        skat = g.deal.skat
        put_away = g.picked_up and g.skat
        self.console.print(
            self.t["skat_dealt"].format(cards=hand_markup(skat))
            + (self.t["put_away"].format(cards=hand_markup(g.skat)) if put_away else "")
        )
        for line in words.valuation_lines(r, self.lang):
            self.console.print(f"  {escape(line)}")
        self.show_sheet()

    def show_sheet(self) -> None:
        sheet = self.s.sheet(self.lang)
        table = Table(title=self.t["sheet_title"].format(n=len(sheet.rows), total=sheet.games))
        table.add_column("#", justify="right")
        table.add_column(self.t["col_declarer"])
        table.add_column(self.t["col_game"])
        table.add_column(self.t["col_value"], justify="right")
        names = [words.display_name(n, self.lang) for n in sheet.names]
        for name in names:
            table.add_column(escape(name), justify="right")
        for row in sheet.rows:
            who = "" if row.declarer is None else names[row.declarer]
            table.add_row(
                str(row.number),
                escape(who),
                escape(row.contract),
                f"{row.value:+d}" if row.declarer is not None else "",
                *(f"{t}" for t in row.totals),
            )
        tally = [sheet.tally(c) for c in range(3)]
        table.add_row(
            "", "", self.t["won_lost"], "", *(f"{w} / {lo}" for w, lo in tally), end_section=True
        )
        self.console.print(table)

    def show_analysis(self, index: int) -> None:
        s = self.s
        with self.console.status(self.t["analysing"]):
            report = s.analysis(index)
        you = s.seat_of(s.human_chair, index)
        self.console.rule(self.t["analysis_rule"].format(n=index + 1))
        table = Table(show_lines=False)
        for col in ("col_trick", "col_player", "col_card", "col_best", "col_verdict"):
            table.add_column(self.t[col])
        for m in report.moves:
            name = words.display_name(s.names[s.chair_at(m.seat, index)], self.lang)
            if m.forced:
                verdict = self.t["forced"]
            elif m.hinted:
                verdict = self.t["hinted"]
            elif m.flipped:
                verdict = self.t["flipped"]
            elif m.points_lost:
                verdict = self.t["points_lost"].format(n=m.points_lost)
            else:
                verdict = self.t["best"]
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
        shown = [words.display_name(n, self.lang) for n in names]
        for line in words.analysis_summary(report, you, shown, self.lang):
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
            say = self.t["prompt_or"].format(word=doubling[0]) if doubling else ""
            return self.t["prompt_play"].format(say=say, cards=shown), numbers
        if phase == Phase.BIDDING:
            bids = [a.bid for a in legal if a.kind == "bid"]
            if any(a.kind == "hold" for a in legal):
                return self.t["prompt_hold"].format(bid=view.bid), numbers
            first = " ".join(str(b) for b in bids[:6])
            more = " ..." if len(bids) > 6 else ""
            return self.t["prompt_bid"].format(bids=first, more=more), numbers
        if phase == Phase.SKAT:
            key = "prompt_ramsch_skat" if view.ramsch else "prompt_skat"
            return self.t[key], numbers
        if phase == Phase.DISCARD:
            example = " ".join(str(c) for c in view.hand.sorted(self.game_type())[-2:])
            return self.t["prompt_discard"].format(example=example), numbers
        if phase == Phase.DECLARE:
            tokens = " ".join(str(a) for a in legal)
            return self.t["prompt_declare"].format(tokens=tokens), numbers
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
                key = "with" if mats > 0 else "without"
                matador_note[gt.letter] = self.t[key].format(n=abs(mats))
            flag = "!" if value < view.bid else ""
            below = below or bool(flag)
            groups.setdefault(gt.letter, []).append(f"{a!s} {value}{flag}")
        if not groups:
            return
        hand = view.phase == Phase.SKAT
        title = self.t["hand_games" if hand else "games"]
        extra = self.t["matadors_note"] if hand else ""
        self.console.print(self.t["contracts_head"].format(title=title, extra=extra, bid=view.bid))
        for letter, items in groups.items():
            note = f" ({matador_note[letter]})" if letter in matador_note else ""
            head = f"{words.type_name(letter, self.lang)}{note}"
            self.console.print(escape(f"  {head:<22} " + "   ".join(items)))
        if below:
            self.console.print(self.t["below_bid"])

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
                self.console.print(self.t["help"], markup=False, highlight=False)
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
                        self._shown_notes = len(self.s.notes)  # its note says the same
                        shown = (
                            card_markup(taken.card)
                            if taken.card is not None
                            else escape(words.action_phrase(taken, True, self.lang))
                        )
                        self.console.print(self.t["took_back"].format(action=shown))
                        self.show_table()
                    else:
                        self.s.claim() if low == "claim" else self.s.concede()
                except InputError as e:
                    self.console.print(f"[red]{escape(str(e))}[/red]")
                    continue
                return
            try:
                if text.isdigit() and numbers and text not in numbers:
                    raise InputError(
                        self.t["no_card_number"].format(n=clipped(text), count=len(numbers))
                    )
                action = numbers.get(text) or parse_action(text, legal)
                seat = self.s.human_seat
                self.s.act(action)
            except InputError as e:
                self.console.print(self.t["bad_input"].format(error=escape(str(e))))
                continue
            self.show_action(seat, action)
            return

    def show_hint(self) -> None:
        with self.console.status(self.t["thinking_hint"]):
            try:
                hint = self.s.hint()
            except UiError as e:
                self.console.print(f"[red]{escape(str(e))}[/red]")
                return
        self.console.print(self.t["hint"].format(text=escape(words.hint_text(hint, self.lang))))
        if hint.cards:
            table = Table()
            table.add_column(self.t["col_card"])
            table.add_column(self.t["col_win"], justify="right")
            table.add_column(self.t["col_points"], justify="right")
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
                    self.console.print(self.t["trick_head"].format(n=shown_trick_start + 1))
                name = words.display_name(s.names[s.chair_at(seat)], self.lang)
                with self.console.status(self.t["ai_thinking"].format(name=escape(name))):
                    seat, action = s.ai_step()
                self.show_action(seat, action)
                self.show_notes()
                continue
            phase = s.game.phase
            if phase == Phase.PLAY and not s.game.trick and len(s.game.tricks) != shown_trick_start:
                shown_trick_start = len(s.game.tricks)
                self.console.print(self.t["trick_head"].format(n=shown_trick_start + 1))
            if phase == Phase.PLAY:
                declarer = s.game.declarer
                open_hand = s.view().open_hand
                if open_hand is not None and declarer is not None and declarer != s.human_seat:
                    shown = hand_markup(open_hand, self.game_type())
                    who = self.who(declarer)
                    self.console.print(self.t["open_hand_of"].format(who=who, cards=shown))
            if phase == Phase.SKAT and s.game.ramsch:
                self.console.print(self.t["ramsch_start"])
                self.show_hand()
            elif phase == Phase.SKAT:
                self.console.print(self.t["won_auction"].format(bid=s.game.bid))
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
        prompt = self.t["after_last" if last else "after_game"]
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
                self.console.print(self.t["help"], markup=False, highlight=False)
            elif low.split()[0] == "save":
                parts = text.split(maxsplit=1)
                path = parts[1] if len(parts) > 1 else f"skat-list-{s.seed}.iss"
                self.save(path)
            else:
                self.console.print(self.t["not_understood"].format(text=escape(quoted(text))))

    def save(self, path: str) -> None:
        try:
            Path(path).write_text(self.s.records(), encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
            error = (e.strerror if isinstance(e, OSError) else None) or str(e)
            self.console.print(
                self.t["cannot_write"].format(path=escape(quoted(path)), error=escape(error))
            )
            return
        self.console.print(self.t["written"].format(n=len(self.s.finished), path=escape(path)))

    def run(self) -> int:
        """Plays the list; returns the exit status (0, or 130 after Ctrl-C)."""
        s = self.s
        d = s.describe()
        opponents = escape(", ".join(d["opponents"]))
        self.console.print(self.t["welcome"].format(n=s.games, seed=s.seed, opponents=opponents))
        if s.variants:
            self.console.print(self.t["variants"].format(variants=s.variants))
        code = 0
        try:
            while True:
                self.play_game()
                if not self.after_game():
                    break
                s.next_game()
        except _Quit:
            self.console.print(self.t["stopped"] + ("" if s.game.is_over else self.t["not_scored"]))
            if s.finished:
                self.show_sheet()
        except EOFError:
            self.console.print(self.t["end_of_input"])
        except KeyboardInterrupt:
            self.console.print(self.t["interrupted"])
            code = 130
        if self.records_path and s.finished:
            self.save(self.records_path)
        return code


def run(session: Session, console: Console, records: str | None = None, lang: str = LANG) -> int:
    """Plays ``session`` in the terminal in ``lang`` (``en``, ``de``); returns the exit
    status."""
    return TerminalGame(session, console, records=records, lang=lang).run()
