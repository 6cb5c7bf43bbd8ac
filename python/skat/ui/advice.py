"""Help at the table: hints (the AI's choice in the person's place) and the post-game analysis.

:class:`Advice` is the part of :class:`~skat.ui.session.Session` that advises: a hint in card
play is a Monte Carlo search over the deals the person cannot tell apart (one search engine per
process, shared by every session, used by one hint at a time), in the other phases the choice
of an AI player of the session's ``hint_spec``; a finished game's analysis is the open-handed
solver on every card, computed once. Both take the session's lock only to read the position,
so that a front end may call them while others read the session.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from skat._core import Action, Card, Game, GameType, Phase, Pimc, Solver, View
from skat.players import Player, make_player
from skat.players.ramsch import ramsch_rules_action
from skat.players.rules import RulesPlayer
from skat.seeds import derive_seed
from skat.ui.analysis import GameAnalysis, analyze_game
from skat.ui.common import InputError, UiError, action_text
from skat.ui.hints import CardHint, Hint, bidding_chance

HINT_WORLDS = 60
"""Worlds of a card-play hint: enough for stable percentages, exact card points as tie-break."""

# One hint engine per process (its solvers' tables are big), used by one hint at a time.
_HINT_ENGINES: dict[tuple[int, int], Pimc] = {}
_HINT_LOCK = threading.Lock()


class Advice:
    """Hints and analyses of a session (a base of :class:`~skat.ui.session.Session`)."""

    if TYPE_CHECKING:  # provided by the session
        lock: threading.RLock
        seed: int
        index: int
        hint_worlds: int
        hint_threads: int
        _hint_lock: threading.Lock
        _hint_player: Player | None
        _hint_spec: str
        _hinted: dict[tuple[int, int], Card]
        _finished: list[Game]
        _analysis_lock: threading.Lock
        _analyses: dict[int, GameAnalysis]
        _solver: Solver | None

        @property
        def waiting_for_human(self) -> bool: ...

        @property
        def human_seat(self) -> int: ...

        def view(self) -> View: ...

    def hint(self) -> Hint:
        """What the AI would do in the person's place.

        In card play: a Monte Carlo search over ``hint_worlds`` worlds consistent with what the
        person knows, with every legal card's win chance and expected card points. In the other
        phases: the choice of an AI player of ``hint_spec``. In a Ramsch: the ``rules``
        player's choice. Takes :attr:`lock` only
        to read the position, so a front end may call it while others read the session.
        """
        with self.lock:
            if not self.waiting_for_human:
                raise InputError("a hint is given when it is your turn")
            view = self.view()
            index = self.index
            seat = self.human_seat
        legal = view.legal_actions()
        if view.ramsch:
            action = ramsch_rules_action(view)
            return Hint(action, f"The AI would {action_text(action, you=True)} (Ramsch rules).")
        with self._hint_lock:
            if view.phase == Phase.PLAY:
                if len(legal) == 1:
                    only = action_text(legal[0], you=True)
                    return Hint(legal[0], f"{only}: the only legal card")
                return self._card_hint(view, legal, index)
            player = self._hint_player
            if player is None:
                player = make_player(self._hint_spec)
                if getattr(player, "omniscient", False):
                    player = RulesPlayer()  # a hint must not look at hidden cards
                hook = getattr(player, "new_game", None)
                if hook is not None:
                    hook(seat=seat, seed=derive_seed(self.seed, index, 3))
                self._hint_player = player
            choice = player.act(view)
        action = Action(choice) if isinstance(choice, str) else choice
        if action not in legal:
            raise UiError(f"the AI's choice {action} is not legal here")
        text = f"The AI would {action_text(action, you=True)}."
        win, at = bidding_chance(view, action)
        if win is not None:
            text += (
                f" Estimated chance to win a game worth at least {at}: {100 * win:.0f}%"
                " (10+2 evaluation over every skat)."
            )
        return Hint(action, text, win=win, win_bid=at)

    def _card_hint(self, view: View, legal: list[Action], index: int) -> Hint:
        key = (self.hint_worlds, self.hint_threads)
        with _HINT_LOCK:
            engine = _HINT_ENGINES.get(key)
            if engine is None:
                engine = Pimc(worlds=self.hint_worlds, threads=self.hint_threads, points=True)
                _HINT_ENGINES[key] = engine
            seed = derive_seed(self.seed, index, len(view.played), 5)
            decision = engine.decide(view, seed=seed)
        contract = view.contract
        null = contract is not None and contract.game_type == GameType.NULL
        declarer = view.declarer == view.seat
        cards = tuple(
            CardHint(
                v.card,
                v.win,
                None if null else (v.points if declarer else 120.0 - v.points),
                v.schneider,
            )
            for v in decision.values
        )
        best = next(a for a in legal if a.card == decision.best)
        with self.lock:
            self._hinted[(index, len(view.played) + 1)] = decision.best
        top = cards[0]
        text = f"The AI would {action_text(best, you=True)}: wins in {100 * top.win:.0f}% of"
        text += f" {decision.worlds} sampled deals"
        if top.points is not None:
            text += f", your side ends with {top.points:.0f} card points on average"
        return Hint(best, text + ".", cards, decision.worlds, decision.seconds)

    def analysis(self, index: int) -> GameAnalysis:
        """The open-handed analysis of finished game ``index`` (computed once).

        Takes :attr:`lock` only to find the game, so a front end may call it while others read
        the session.
        """
        with self.lock:
            if not 0 <= index < len(self._finished):
                raise UiError(f"game {index + 1} is not finished")
            game = self._finished[index]
        with self._analysis_lock:
            cached = self._analyses.get(index)
            if cached is None:
                if self._solver is None:
                    self._solver = Solver(tt_mb=16)
                hinted = {n: c for (i, n), c in self._hinted.items() if i == index}
                cached = analyze_game(game, self._solver, hinted)
                self._analyses[index] = cached
            return cached

    def analysis_ready(self, index: int) -> bool:
        """Whether :meth:`analysis` for ``index`` is already computed."""
        return index in self._analyses


__all__ = ["HINT_WORLDS", "Advice"]
