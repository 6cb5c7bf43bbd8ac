"""The ``softmaxn`` player: Kermit, with soft-max^n in PIMC's worlds for the endgame.

Skat's score is not zero-sum between the declarer and each defender, so PIMC's open-handed
minimax (the declarer's card points against both defenders) is one model of the others among
several. Once every hand holds at most ``endgame`` cards at a trick's start, this player
samples ``soft_worlds`` worlds and runs soft-max^n (Sturtevant and Bowling) in each: it
searches the rest of the game with *sets* of outcomes, modelling each other seat as a
partial order over outcomes (:mod:`skat._core` ``softmaxn_decide``):

- the declarer may be ``win`` (the level: lost schwarz < lost schneider < lost < won < won
  schneider < won schwarz) or ``points`` (card points: plays for schneider);
- a defender may be ``min`` (the declarer's card points, lower is better: PIMC's assumption)
  or ``greedy`` (its own card points);
- an opponent is modelled by the intersection of the kinds it may still be, and with
  ``infer=true`` a kind is ruled out when, in every sampled world, one of the opponent's
  endgame cards was strictly dominated under it.

Its own kind (``declarer``: ``win`` or ``points``; ``defender``: ``team``, the declarer's
level, lower is better; ``min`` or ``greedy``) decides: each card is worth the mean of the
kind's utility over its set, averaged over the worlds. Null games, the auction and the
tricks before the endgame are ``kermit``'s (with every ``kermit`` option).

Options (spec ``softmaxn:endgame=5,soft_worlds=20,defender=greedy,infer=false``):
``endgame`` (default :data:`skat.defaults.SOFTMAXN_ENDGAME`), ``soft_worlds`` (default
:data:`skat.defaults.SOFTMAXN_WORLDS`), ``declarer``, ``defender``, ``infer`` (default true),
``models`` (``generic``, the default, or ``zero-sum``: the opponents as PIMC models them, a
declarer ``points`` and defenders ``min``, without inference; the control that isolates what
the generic models change) and every ``kermit`` option.

>>> from skat.players import make_player
>>> p = make_player("softmaxn:defender=greedy,worlds=10,threads=1")
>>> p.endgame, p.defender, p.infer
(5, 'greedy', True)
"""

from __future__ import annotations

from typing import Any, ClassVar

from skat._core import Action, GameType, Phase, View, softmaxn_decide
from skat.defaults import (
    SOFTMAXN_DECLARER,
    SOFTMAXN_DEFENDER,
    SOFTMAXN_ENDGAME,
    SOFTMAXN_WORLDS,
    WORLDS_MAX,
)
from skat.players.base import PlayerSpecError, check_option, register
from skat.players.kermit import KermitPlayer

__all__ = ["DECLARER_KINDS", "DEFENDER_KINDS", "MODELS", "SoftmaxnPlayer"]

DECLARER_KINDS = ("win", "points")
"""What a declarer may want (see the module documentation)."""
DEFENDER_KINDS = ("team", "min", "greedy")
"""What a defender may want."""
MODELS = ("generic", "zero-sum")
"""How the opponents are modelled."""


@register("softmaxn")
class SoftmaxnPlayer(KermitPlayer):
    """Kermit with soft-max^n endgames over partial-order models of the other seats."""

    option_ranges: ClassVar[dict[str, tuple[float | None, float | None]]] = {
        "endgame": (1, 10),
        "soft_worlds": (1, WORLDS_MAX),
    }
    """The ranges of its own options (the spec parser checks them by name)."""

    def __init__(
        self,
        endgame: int = SOFTMAXN_ENDGAME,
        soft_worlds: int = SOFTMAXN_WORLDS,
        declarer: str = SOFTMAXN_DECLARER,
        defender: str = SOFTMAXN_DEFENDER,
        infer: bool = True,
        models: str = "generic",
        **kermit: Any,
    ) -> None:
        check_option("endgame", endgame, self.option_ranges)
        check_option("soft_worlds", soft_worlds, self.option_ranges)
        if declarer not in DECLARER_KINDS:
            raise PlayerSpecError(
                f"option declarer must be one of {', '.join(DECLARER_KINDS)}, got {declarer!r}"
            )
        if defender not in DEFENDER_KINDS:
            raise PlayerSpecError(
                f"option defender must be one of {', '.join(DEFENDER_KINDS)}, got {defender!r}"
            )
        if models not in MODELS:
            raise PlayerSpecError(
                f"option models must be one of {', '.join(MODELS)}, got {models!r}"
            )
        super().__init__(**kermit)
        self.endgame = endgame
        self.soft_worlds = soft_worlds
        self.declarer = declarer
        self.defender = defender
        self.infer = infer
        self.models = models
        self.last_soft: dict[str, Any] | None = None
        """The last soft-max^n decision (``softmaxn_decide``'s dictionary), for analysis."""

    def new_game(self, seat: int, seed: int) -> None:
        super().new_game(seat, seed)
        self.last_soft = None

    def searches(self, view: View) -> bool:
        """Whether this card-play decision is a soft-max^n one (suit or grand, in the
        endgame, more than one legal card)."""
        return (
            view.phase == Phase.PLAY
            and not view.ramsch
            and view.contract is not None
            and view.contract.game_type != GameType.NULL
            and 10 - len(view.tricks) <= self.endgame
            and len(view.legal_actions()) > 1
        )

    def act(self, view: View) -> Action | str:
        if not self.searches(view):
            return super().act(view)
        kind = self.declarer if view.declarer == view.seat else self.defender
        decision = softmaxn_decide(
            view,
            self.soft_worlds,
            self.sample_seed(view),
            endgame=self.endgame,
            kind=kind,
            infer=self.infer,
            generic=self.models == "generic",
        )
        self.last_soft = decision
        best = decision["best"]
        return next(a for a in view.legal_actions() if a.card == best)
