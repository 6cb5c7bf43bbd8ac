"""A person at the table: a list of games against two AI players, whatever the front end.

A :class:`Session` holds the list (``games`` deals), where everyone sits, the two AI players,
the current :class:`~skat._core.Game`, the Seeger-Fabian score sheet, hints and the post-game
analysis. The terminal (:mod:`skat.ui.terminal`) and the web app (:mod:`skat.web`) only draw
it and pass the person's input to :meth:`Session.act`.

Seating: three chairs, the person in chair ``seat``; in game ``i`` chair ``c`` sits at seat
``(c - i) % 3`` (seat 0 forehand, 1 middlehand, 2 rearhand = dealer), so the deal passes
round the table as at a real one and the person starts at ``seat`` in the first game.

Seeds: game ``i`` is ``Deal.random(deal_seed(seed, i))``; the AI players' ``new_game`` hooks
get ``derive_seed(seed, i, chair)``; hints sample from ``derive_seed(seed, i, cards played,
...)``. The same seed and the same inputs give the same games.

AI moves: :meth:`Session.ai_step` asks the AI to move for one action, with a time limit
(``ai_seconds``): an AI that takes longer, raises or answers illegally is replaced for that move
by the ``rules`` player, and the event is noted in :attr:`Session.notes`.

>>> s = Session(seat=0, opponents=["rules"], seed=1, games=1)
>>> while not s.game.is_over:
...     _ = s.advance()
...     if s.waiting_for_human:
...         _ = s.act(s.legal_actions()[-1])
>>> len(s.sheet().rows)
1
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from skat._core import Action, Card, Deal, Game, Phase, SkatError, Solver, View
from skat.defaults import LANG
from skat.match import start_player
from skat.players import Player, make_player
from skat.players.modelling import tell_names, tell_result
from skat.players.pimc import default_threads
from skat.players.rules import RulesPlayer
from skat.records import actor_seat, named_record
from skat.seeds import deal_seed, derive_seed
from skat.ui.advice import HINT_WORLDS, Advice
from skat.ui.analysis import GameAnalysis
from skat.ui.claims import rest_is_certain
from skat.ui.common import (
    DEFAULT_OPPONENT,
    SEAT_NAMES,
    InputError,
    UiError,
    action_text,
    parse_action,
)
from skat.ui.hints import CardHint, Hint
from skat.ui.sheet import ScoreSheet, SheetRow, score_sheet
from skat.variants import VariantsError, check_variants, game_variants

__all__ = ["CardHint", "GameChanged", "Hint", "ScoreSheet", "Session", "SheetRow"]


class GameChanged(UiError):
    """An AI move computed for a position that is gone (the person took a card back, claimed
    or conceded meanwhile); the move is dropped."""


class _Human:
    """Stands in the person's seat for :func:`skat.match.start` (no hooks, never asked)."""

    def act(self, view: View) -> Action | str:
        raise UiError("the person's moves come from the front end")


@dataclass
class _Slot:
    """An AI chair: its spec, its player and the rules player that stands in for it."""

    spec: str
    player: Player
    fallback: RulesPlayer = field(default_factory=RulesPlayer)


class Session(Advice):
    """A list of games for one person against two AI players.

    ``seat``: the person's seat in the first game (0 forehand, 1 middlehand, 2 rearhand);
    ``people``: for a table of several people, chair -> name of every person (chair ``seat``
    among them; default: the one person, ``name``); ``opponents``: one player spec for every
    AI chair, or one each (clockwise from the person);
    ``games``: the length of the list; ``ai_seconds``: the time limit of one AI move (None: no
    limit); ``hint_worlds``: worlds of the Monte Carlo search behind a card-play hint;
    ``hint_spec``: the player whose choice a hint shows outside card play (bidding, skat,
    declaration); ``undo``: whether the person may take back her last card (a practice list;
    False for a rated one); ``variants``: the table variants of the list (``"kontra"``,
    ``"bock"``, both: :mod:`skat.variants`).

    Thread-safe: every change happens under :attr:`lock` (a re-entrant lock that front ends
    also hold to read a consistent state); the AI's thinking, hints and analyses run outside it.
    """

    def __init__(
        self,
        seat: int = 0,
        opponents: Sequence[str] = (DEFAULT_OPPONENT,),
        seed: int = 0,
        games: int = 3,
        ai_seconds: float | None = 60.0,
        hint_worlds: int = HINT_WORLDS,
        hint_threads: int | None = None,
        hint_spec: str = DEFAULT_OPPONENT,
        name: str = "You",
        undo: bool = True,
        people: dict[int, str] | None = None,
        variants: str = "",
    ) -> None:
        if seat not in (0, 1, 2):
            raise UiError(f"seat must be 0, 1 or 2, not {seat}")
        if games < 1:
            raise UiError("a list has at least one game")
        chairs = dict(people) if people else {seat: name}
        if seat not in chairs or not all(c in (0, 1, 2) for c in chairs):
            raise UiError("people sit in chairs 0, 1 and 2, the session's own seat among them")
        ai_chairs = [c for c in ((seat + 1) % 3, (seat + 2) % 3) if c not in chairs]
        specs = [s.strip() for s in opponents]
        if len(specs) == 1:
            specs = specs * len(ai_chairs)
        if len(specs) != len(ai_chairs):
            raise UiError("give one opponent spec for every AI player, or one for all")
        self.seed = seed
        try:
            self.variants = check_variants(variants)
        except VariantsError as e:
            raise UiError(str(e)) from e
        """The list's table variants (canonical form; empty: the International Skat Order)."""
        self.undo_allowed = undo
        """Practice list: the person may take back her last card (off in rated lists)."""
        self.human_chair = seat
        self.games = games
        self.ai_seconds = ai_seconds
        self.hint_worlds = hint_worlds
        self.hint_threads = hint_threads if hint_threads is not None else min(2, default_threads())
        self.lock = threading.RLock()
        self.notes: list[str] = []
        """Things the front end should mention (an AI that was replaced for a move)."""
        self._ai_order = ai_chairs
        self.people = chairs
        """The chairs of people (chair -> name); the AI players sit in the others."""
        self._slots: dict[int, _Slot] = {
            chair: _Slot(spec, make_player(spec))
            for chair, spec in zip(ai_chairs, specs, strict=True)
        }
        self.names: tuple[str, str, str] = tuple(  # type: ignore[assignment]
            chairs[c] if c in chairs else f"AI {ai_chairs.index(c) + 1}" for c in range(3)
        )
        self._finished: list[Game] = []
        self._analyses: dict[int, GameAnalysis] = {}
        self._hinted: dict[tuple[int, int], Card] = {}
        """(game index, card number 1..30) -> the card a card-play hint named there."""
        self._hint_player: Player | None = None
        self._hint_spec = hint_spec
        self._solver: Solver | None = None
        self._claim_solver: Solver | None = None
        self._analysis_lock = threading.Lock()
        self._hint_lock = threading.Lock()
        self.game = self._start_game(0)
        self.index = 0
        """The current game's number in the list (0-based)."""

    # ----- seating -----------------------------------------------------------------------

    def seat_of(self, chair: int, index: int | None = None) -> int:
        """The seat of ``chair`` in game ``index`` (default: the current game)."""
        i = self.index if index is None else index
        return (chair - i) % 3

    def chair_at(self, seat: int, index: int | None = None) -> int:
        """The chair at ``seat`` in game ``index`` (default: the current game)."""
        i = self.index if index is None else index
        return (seat + i) % 3

    @property
    def human_seat(self) -> int:
        """The person's seat in the current game."""
        return self.seat_of(self.human_chair)

    def seat_names(self, index: int | None = None) -> tuple[str, str, str]:
        """Who sits at seats 0, 1, 2 in game ``index``."""
        return tuple(self.names[self.chair_at(s, index)] for s in range(3))  # type: ignore[return-value]

    # ----- the game ----------------------------------------------------------------------

    def _start_game(self, index: int) -> Game:
        deal = Deal.random(deal_seed(self.seed, index))
        game = Game(deal, variants=game_variants(self.variants, self._finished[:index]))
        for seat in range(3):
            chair = (seat + index) % 3
            slot = self._slots.get(chair)
            if slot is None:
                continue
            slot.fallback.new_game(seat, derive_seed(self.seed, index, chair, 1))
            try:
                tell_names(slot.player, seat, self.seat_names(index))
                start_player(slot.player, seat, derive_seed(self.seed, index, chair), game)
            except Exception as e:
                raise UiError(
                    f"the AI player {slot.spec!r} failed to start a game: {type(e).__name__}: {e}"
                ) from e
        self._hint_player = None
        return game

    @property
    def list_over(self) -> bool:
        """The last game of the list is over."""
        return self.game.is_over and self.index == self.games - 1

    @property
    def waiting_for_human(self) -> bool:
        """The person is to move."""
        return not self.game.is_over and self.game.to_move == self.human_seat

    @property
    def ai_to_move(self) -> bool:
        """An AI player is to move."""
        to_move = self.game.to_move
        return (
            not self.game.is_over and to_move is not None and self.chair_at(to_move) in self._slots
        )

    def waiting_for(self, chair: int) -> bool:
        """The person in ``chair`` is to move."""
        return (
            chair in self.people
            and not self.game.is_over
            and self.game.to_move == self.seat_of(chair)
        )

    def view(self) -> View:
        """What the person may see of the current game."""
        return self.game.view(self.human_seat)

    def legal_actions(self) -> list[Action]:
        """The person's legal actions (empty when it is not the person's turn)."""
        return self.game.legal_actions() if self.waiting_for_human else []

    def act(self, action: Action | str, chair: int | None = None) -> Action:
        """Applies the action of the person in ``chair`` (default: the session's own): an
        :class:`Action` or text as :func:`~skat.ui.common.parse_action` reads it.

        Raises :class:`InputError` (nothing changes) when it is not that person's turn or the
        action is not legal.
        """
        with self.lock:
            mine = self.human_chair if chair is None else chair
            legal = self.game.legal_actions() if self.waiting_for(mine) else []
            if not legal:
                raise InputError("the game is over" if self.game.is_over else "it is not your turn")
            if isinstance(action, Action):
                if action not in legal:
                    raise InputError(f"{action} is not legal now")
                chosen = action
            else:
                chosen = parse_action(action, legal)
            self.game.apply(chosen)
            self._after_action()
            return chosen

    def ai_step(self) -> tuple[int, Action]:
        """Lets the AI player to move act once; returns its seat and action.

        :attr:`lock` is held only to read the position and to apply the move, not while the AI
        thinks; raises :class:`UiError` when no AI is to move or the game changed meanwhile.
        """
        with self.lock:
            if not self.ai_to_move:
                raise UiError("no AI player is to move")
            game = self.game
            seat = game.to_move
            assert seat is not None
            slot = self._slots[self.chair_at(seat)]
            view = game.view(seat)
        choice = self._timed(slot.player, view)
        with self.lock:
            if game is not self.game or game.to_move != seat:
                raise GameChanged("the game changed while the AI was thinking")
            legal = game.legal_actions()
            action: Action | None = None
            if choice is not None:
                try:
                    action = Action(choice) if isinstance(choice, str) else choice
                except SkatError:
                    action = None
                if action is None or action not in legal:
                    self.notes.append(
                        f"{self.names[self.chair_at(seat)]} chose the illegal action {choice};"
                        " the rules player moved instead"
                    )
                    action = None
            if action is None:
                fallback = slot.fallback.act(view)
                action = Action(fallback) if isinstance(fallback, str) else fallback
            game.apply(action)
            self._after_action()
            return seat, action

    def _timed(self, player: Player, view: View) -> Action | str | None:
        """``player.act(view)`` within the time limit; None when it fails or is too slow."""
        out: list[Action | str] = []
        error: list[BaseException] = []

        def run() -> None:
            try:
                out.append(player.act(view))
            except Exception as e:  # a failing AI must not stop the person's game
                error.append(e)

        if self.ai_seconds is None:
            run()
        else:
            worker = threading.Thread(target=run, name="skat-ai-move", daemon=True)
            worker.start()
            worker.join(self.ai_seconds)
            if worker.is_alive():
                self.notes.append(
                    f"an AI player took more than {self.ai_seconds:g} s; the rules player moved"
                    " instead"
                )
                self._replace_stuck(player)
                return None
        if error:
            self.notes.append(
                f"an AI player failed ({type(error[0]).__name__}: {error[0]}); the rules player"
                " moved instead"
            )
            return None
        return out[0] if out else None

    def _replace_stuck(self, player: Player) -> None:
        # the stuck call still runs in its thread: never call that object again
        for chair, slot in self._slots.items():
            if slot.player is player:
                fresh = make_player(slot.spec)
                hook = getattr(fresh, "new_game", None)
                if hook is not None and not getattr(fresh, "omniscient", False):
                    hook(seat=self.seat_of(chair), seed=derive_seed(self.seed, self.index, chair))
                self._slots[chair] = _Slot(slot.spec, fresh, slot.fallback)

    def advance(self, limit: int = 1000) -> list[tuple[int, Action]]:
        """AI moves until the person is to move or the game is over (at most ``limit``)."""
        done: list[tuple[int, Action]] = []
        while self.ai_to_move and len(done) < limit:
            done.append(self.ai_step())
        return done

    def _after_action(self) -> None:
        if self.game.is_over and (not self._finished or self._finished[-1] is not self.game):
            self._finished.append(self.game)
            names = self.seat_names(self.index)
            for seat in range(3):
                slot = self._slots.get(self.chair_at(seat, self.index))
                if slot is not None:  # modelling players learn from the finished game
                    tell_result(slot.player, self.game, seat, names)

    # ----- saving and resuming --------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume the list (JSON-ready): the settings, the finished games
        as ISS records, the current game's number and its moves so far."""
        with self.lock:
            current = [] if self.game.is_over else self.game.history
            return {
                "settings": {
                    **self.describe(),
                    "ai_seconds": self.ai_seconds,
                    "people": {str(c): n for c, n in self.people.items()},
                },
                "finished": [g.to_iss() for g in self._finished],
                "index": self.index,
                "moves": [[a if isinstance(a, int) else None, str(m)] for a, m in current],
            }

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Session:
        """The session of a :meth:`snapshot`: the same players, the finished games told to
        them again in order, the current game replayed move by move. Raises ``SkatError``
        (:class:`UiError` or a record error) for a snapshot that does not fit."""
        try:
            cfg = data["settings"]
            s = cls(
                seat=cfg["seat"],
                opponents=cfg["opponents"],
                seed=cfg["seed"],
                games=cfg["games"],
                ai_seconds=cfg.get("ai_seconds"),
                undo=cfg.get("undo", True),
                variants=cfg.get("variants", ""),
                people={int(c): n for c, n in cfg.get("people", {}).items()} or None,
            )
            finished, index, moves = data["finished"], int(data["index"]), data["moves"]
        except (KeyError, TypeError, ValueError) as e:
            raise UiError(f"not a saved list: {e}") from e
        if not len(finished) <= index + 1 <= s.games:
            raise UiError("not a saved list: game numbers do not fit")
        for i, record in enumerate(finished):
            s.index, s.game = i, Game.from_iss(record)
            s._after_action()
        if index >= len(finished):
            s.index, s.game = index, s._start_game(index)
            for actor, token in moves:
                s.game.apply(token, seat=actor)
        return s

    # ----- taking back, claiming, conceding ------------------------------------------------

    def _last_own_card(self) -> int | None:
        history = self.game.history
        seat = self.human_seat
        own = [i for i, (s, a) in enumerate(history) if s == seat and a.kind == "play"]
        return own[-1] if own else None

    @property
    def can_undo(self) -> bool:
        """The person may take back her last card now (practice list, game not over)."""
        return self.undo_allowed and not self.game.is_over and self._last_own_card() is not None

    def undo(self) -> Action:
        """Takes back the person's last card and every move after it; returns that card.

        The game is replayed from its deal up to that card, so the AI players (whose card
        play depends only on what they see) simply move again; hints given after that point
        no longer count in the analysis. Raises :class:`InputError` (nothing changes) in a
        rated list, after the game's end or before the person's first card.
        """
        with self.lock:
            if not self.undo_allowed:
                raise InputError("taking back cards is off in a rated list")
            if self.game.is_over:
                raise InputError("the game is over")
            last = self._last_own_card()
            if last is None:
                raise InputError("you have not played a card in this game yet")
            history = self.game.history
            game = Game(self.game.deal, variants=self.game.variants)
            for actor, action in history[:last]:
                game.apply(action, actor_seat(actor))
            self.game = game  # an AI move still being computed for the old game is dropped
            # hints given after this position were for a line of play that is gone
            now = len(game.played) + 1
            self._hinted = {
                key: card
                for key, card in self._hinted.items()
                if key[0] != self.index or key[1] <= now
            }
            taken = history[last][1]
            self.notes.append(f"you took back {action_text(taken, you=True)}")
            return taken

    def _end_with_rest(self, moves: Sequence[tuple[int, str]]) -> None:
        if self._claim_solver is None:  # not the analysis' solver: that one runs elsewhere
            self._claim_solver = Solver(tt_mb=8)
        if not rest_is_certain(self.game, self._claim_solver):
            raise InputError("not certain with best play by everyone: play on")
        for seat, token in moves:
            self.game.apply(token, seat=seat)
        self._after_action()

    def claim(self) -> None:
        """The person, declarer in card play, claims the rest; accepted only when it is
        certain (:func:`skat.ui.claims.rest_is_certain`), then the defenders accept it.
        Raises :class:`InputError` (nothing changes) otherwise."""
        with self.lock:
            g, me = self.game, self.human_seat
            if g.is_over or g.phase != Phase.PLAY or g.declarer != me:
                raise InputError("the declarer claims the rest during card play")
            self._end_with_rest([(me, "SC"), *((s, "RE") for s in range(3) if s != me)])

    def concede(self) -> None:
        """Gives up the rest: the declarer resigns (the game is lost, always possible); a
        defender concedes for both defenders, which is accepted only when the declarer's
        taking the rest is certain. Raises :class:`InputError` (nothing changes) otherwise."""
        with self.lock:
            g, me = self.game, self.human_seat
            if g.is_over or g.phase != Phase.PLAY:
                raise InputError("you can give up only during card play")
            if g.declarer == me:
                g.apply("RE", seat=me)
                self._after_action()
                return
            self._end_with_rest([(s, "RE") for s in range(3) if s != g.declarer])

    def next_game(self) -> Game:
        """Deals the next game of the list (the current one must be over)."""
        with self.lock:
            if not self.game.is_over:
                raise UiError("the current game is not over yet")
            if self.index + 1 >= self.games:
                raise UiError(f"the list of {self.games} game(s) is complete")
            game = self._start_game(self.index + 1)
            self.index += 1
            self.game = game
            return game

    @property
    def finished(self) -> list[Game]:
        """The finished games, in list order."""
        return list(self._finished)

    # ----- what people read ----------------------------------------------------------------

    def sheet(self, lang: str = LANG) -> ScoreSheet:
        """The Seeger-Fabian score sheet of the finished games (by chair), its game names in
        ``lang``."""
        return score_sheet(self.names, self._finished, self.games, lang)

    def record(self, index: int) -> str:
        """Game ``index`` (started, finished or not) as an ISS record line with the names."""
        if index == self.index:
            game = self.game
        elif 0 <= index < len(self._finished):
            game = self._finished[index]
        else:
            raise UiError(f"no game {index + 1} in this list")
        names = self.seat_names(index)
        return named_record(game.to_iss(), "skat play", f"{self.seed}-{index + 1}", names)

    def records(self) -> str:
        """Every finished game as ISS record lines (one per line, newline at the end)."""
        return "".join(self.record(i) + "\n" for i in range(len(self._finished)))

    def seat_label(self, seat: int, index: int | None = None) -> str:
        """``'You (forehand)'``, ``'AI 1 (rules) (middlehand)'``."""
        return f"{self.names[self.chair_at(seat, index)]} ({SEAT_NAMES[seat]})"

    def describe(self) -> dict[str, Any]:
        """The session's settings, JSON-ready."""
        return {
            "seed": self.seed,
            "seat": self.human_chair,
            "games": self.games,
            "opponents": [self._slots[c].spec for c in self._ai_order],
            "names": list(self.names),
            "undo": self.undo_allowed,
            "variants": self.variants,
        }
