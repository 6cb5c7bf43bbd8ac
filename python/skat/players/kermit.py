"""The ``kermit`` player: Kermit's learned bidding with PIMC card play.

Bidding: the player bids (or holds) while the bidding tree's value at the next bid, the chance
of winning a game that reaches it (:func:`skat.bidding.evaluate`), is at least ``threshold``
(Kermit's B = 0.6; Zoot played 0.55), or ``unopposed`` (default 0.5) instead while neither
opponent has bid or held yet (the seat is the first to bid, or the others passed without
bidding): a hand nobody else has shown interest in is declared more boldly, and once an
opponent has shown a hand worth a bid, ``threshold`` applies again. After winning the auction
it compares the expected Seeger-Fabian score of picking up the skat (the mean over the 231
possible skats of the best discard and contract) with the best hand game (announcements
included where they pay) and then declares the discard and contract of highest expected score,
null ouvert included. A hand game that paranoid search proves sure
(:mod:`skat.bidding.paranoid`: whatever the skat and the defenders' cards) is valued exactly,
and the player bids up to its value even where the learned evaluation would pass. Card play is
the ``pimc`` player's, with the worlds drawn by card inference (:mod:`skat.inference`): as
declarer from the defenders' bids, as defender from the announced contract's 10+2 value and the
other defender's bids.

Options (spec ``kermit:threshold=0.55,worlds=40``): ``threshold``, ``unopposed`` (``none``:
``threshold`` throughout; the value is absolute, so with ``threshold`` below 0.5 the unopposed
seat is the more cautious one unless ``unopposed`` is lowered too), ``model`` (path of a
bidding model ``.npz``; default the packaged one), ``inference`` (``SD`` as declarer and
defender, the default; ``S`` or ``D`` one side only; ``NI`` none: uniform worlds),
``candidates`` (uniform candidate worlds weighed per decision, default 2000),
``inference_tables`` (path of learned inference tables ``.npz`` as ``skat train inference``
writes them; default the packaged ones; a missing or unreadable file is refused when the player
is made), ``paranoid_bid`` (search nodes per sure-game test, default
:data:`skat.defaults.PARANOID_BID_NODES`; 0: no tests), ``declare`` (after picking up, unless
the tables choose null: the tables' best ``declare`` suit and grand declarations are compared
over ``declare_worlds`` sampled defenders' hands solved open-handed,
:mod:`skat.players.declaration`; 0 or 1: the tables alone; defaults
:data:`skat.defaults.DECLARE_CANDIDATES`, :data:`skat.defaults.DECLARE_WORLDS`) and every
``pimc`` option.

>>> from skat.players import make_player
>>> p = make_player("kermit:threshold=0.55,worlds=20,threads=1")
>>> p.threshold, p.unopposed, p.sides
(0.55, 0.5, 'SD')
>>> make_player("kermit:unopposed=none,threads=1").unopposed is None
True
"""

from __future__ import annotations

from skat._core import (
    Action,
    Cards,
    Contract,
    GameType,
    Inference,
    Phase,
    PimcDecision,
    Solver,
    View,
    bids,
)
from skat.bidding.model import BiddingModel, default_model
from skat.bidding.paranoid import SureGame, sure_hand_game
from skat.defaults import (
    DECLARE_CANDIDATES,
    DECLARE_WORLDS,
    INFERENCE_CANDIDATES,
    INFERENCE_SIDES,
    KERMIT_THRESHOLD,
    KERMIT_UNOPPOSED,
    KONTRA_THRESHOLD,
    PARANOID_BID_NODES,
    PIMC_TT_MB,
    RE_THRESHOLD,
    WORLDS,
)
from skat.inference import SIDES, make_inference
from skat.inference.files import compiled_tables
from skat.players.base import PlayerSpecError, register
from skat.players.declaration import search_declaration
from skat.players.pimc import PimcPlayer

BIDS = bids()


@register("kermit")
class KermitPlayer(PimcPlayer):
    """Kermit: learned 10+2 bidding (threshold 0.6, 0.5 unopposed) and PIMC card play."""

    def __init__(
        self,
        threshold: float = KERMIT_THRESHOLD,
        unopposed: float | None = KERMIT_UNOPPOSED,
        model: str | None = None,
        worlds: int = WORLDS,
        seconds: float | None = None,
        points: bool = True,
        threads: int | None = None,
        tt_mb: int = PIMC_TT_MB,
        seed: int = 0,
        inference: str = INFERENCE_SIDES,
        candidates: int = INFERENCE_CANDIDATES,
        inference_tables: str | None = None,
        pcut: float = 0.0,
        pcut_window: int | None = None,
        kontra: float = KONTRA_THRESHOLD,
        re: float = RE_THRESHOLD,
        paranoid: int = 0,
        tables: str | None = None,
        paranoid_bid: int = PARANOID_BID_NODES,
        declare: int = DECLARE_CANDIDATES,
        declare_worlds: int = DECLARE_WORLDS,
    ) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise PlayerSpecError(f"threshold must be in [0, 1], got {threshold}")
        if unopposed is not None and not 0.0 <= unopposed <= 1.0:
            raise PlayerSpecError(f"unopposed must be in [0, 1], got {unopposed}")
        sides = str(inference).strip().upper()
        if sides not in SIDES:
            raise PlayerSpecError(f"inference must be one of {', '.join(SIDES)}, got {inference!r}")
        if candidates < 1:
            raise PlayerSpecError(f"candidates must be at least 1, got {candidates}")
        if declare < 0 or declare_worlds < 1:
            raise PlayerSpecError(
                f"declare must be at least 0 and declare_worlds at least 1, got {declare}"
                f" and {declare_worlds}"
            )
        super().__init__(
            worlds=worlds,
            seconds=seconds,
            points=points,
            threads=threads,
            tt_mb=tt_mb,
            seed=seed,
            pcut=pcut,
            pcut_window=pcut_window,
            kontra=kontra,
            re=re,
            paranoid=paranoid,
            tables=tables,
        )
        self.threshold = threshold
        self.unopposed = unopposed
        self.model: BiddingModel = BiddingModel.load(model) if model else default_model()
        self.sides = sides
        self.candidates = candidates
        self._custom_model = bool(model)
        self._inference: Inference | None = None
        self.inference_tables = inference_tables
        if inference_tables:  # read (and compiled, cached) now: a bad file fails here
            self._inference = compiled_tables(
                inference_tables, sides, candidates, self.model if model else None
            )
        self.paranoid_bid = paranoid_bid
        self.declare = declare
        self.declare_worlds = declare_worlds
        self._declare_solver: Solver | None = None
        self._values: dict[int, float] = {}
        self._plan: Contract | None = None
        self._sure: dict[int, SureGame | None] = {}
        self._hand: dict[int, tuple[Cards | None, Contract, float, float]] = {}

    def new_game(self, seat: int, seed: int) -> None:
        super().new_game(seat, seed)
        self._values = {}
        self._plan = None
        self._sure = {}
        self._hand = {}

    @property
    def inference(self) -> Inference | None:
        """The compiled inference sampler (``None`` for ``NI``), built on first use."""
        if self.sides == "NI":
            return None
        if self._inference is None:
            if self._custom_model:
                from skat.inference import default_tables

                tables = default_tables()
                self._inference = tables.compile(self.sides, self.candidates, self.model)
            else:
                self._inference = make_inference(self.sides, self.candidates)
        return self._inference

    def decide(self, view: View) -> PimcDecision:
        """The PIMC decision over worlds drawn by inference (uniform for ``NI``)."""
        inference = self.inference
        if inference is None:
            return super().decide(view)
        return self.engine.decide(view, self.sample_seed(view), inference=inference)

    # ----- bidding -----------------------------------------------------------------------

    def bid_value(self, view: View, bid: int) -> float:
        """The tree's value of this seat's hand at ``bid`` (cached for the game)."""
        if not self._values:
            values, _ = self.model.tables.evaluate(view.hand, view.seat, BIDS)
            self._values = dict(zip(BIDS, values, strict=True))
        return self._values[bid]

    def sure_game(self, view: View, bid: int) -> SureGame | None:
        """The surely won hand game reaching ``bid`` (:func:`skat.bidding.paranoid.sure_hand_game`,
        cached for the game): null always tried, a suit or grand game when it is the model's
        best hand game with a win probability of at least 0.9; ``None`` with
        ``paranoid_bid=0``."""
        if self.paranoid_bid <= 0:
            return None
        if bid not in self._sure:
            _, best, _, win = self._best_hand(view, bid)
            types = () if best.game_type == GameType.NULL or win < 0.9 else (best.game_type,)
            self._sure[bid] = sure_hand_game(view.hand, view.seat, bid, self.paranoid_bid, types)
        return self._sure[bid]

    def _best_hand(self, view: View, bid: int) -> tuple[Cards | None, Contract, float, float]:
        """The model's best hand declaration at ``bid`` (cached for the game)."""
        if bid not in self._hand:
            self._hand[bid] = self.model.tables.best_hand(view.hand, view.seat, bid)
        return self._hand[bid]

    @property
    def single_threshold(self) -> float | None:
        """The one threshold this player bids by in every auction, or ``None`` when it opens
        on another value (``unopposed`` set and different from ``threshold``)."""
        if self.unopposed is None or self.unopposed == self.threshold:
            return self.threshold
        return None

    def bid_threshold(self, view: View) -> float:
        """The win probability this seat needs to bid or hold now: ``unopposed`` while no
        opponent has bid or held yet (when set), else ``threshold``."""
        if self.unopposed is None or opponent_has_bid(view):
            return self.threshold
        return self.unopposed

    def _bid(self, view: View, legal: list[Action]) -> Action:
        threshold = self.bid_threshold(view)
        hold = next((a for a in legal if a.kind == "hold"), None)
        if hold is not None:
            keep = self.bid_value(view, view.bid) >= threshold
            return hold if keep or self._sure_reaches(view, view.bid) else _pass(legal)
        nxt = next((a for a in legal if a.kind == "bid"), None)
        if nxt is not None and nxt.bid is not None:
            if self.bid_value(view, nxt.bid) >= threshold:
                return nxt
            if self._sure_reaches(view, nxt.bid):
                return nxt
        return _pass(legal)

    def _sure_reaches(self, view: View, bid: int) -> bool:
        """Whether a sure hand game (checked once, at the lowest bid) reaches ``bid``."""
        sure = self.sure_game(view, BIDS[0])
        return sure is not None and sure.value >= bid

    # ----- after the auction -------------------------------------------------------------

    def _skat(self, view: View, legal: list[Action]) -> Action:
        t = self.model.tables
        pickup = t.pickup_value(view.hand, view.seat, view.bid)
        _, contract, hand_ev, _ = self._best_hand(view, view.bid)
        sure = self.sure_game(view, view.bid)
        if sure is not None and sure.score >= max(hand_ev, pickup):
            contract, hand_ev = sure.contract, sure.score
        if hand_ev > pickup:
            action = _declaration(legal, contract)
            if action is not None:
                return action
        return next(a for a in legal if a.kind == "pickup")

    def _discard(self, view: View, legal: list[Action]) -> Action:
        discard, contract, _, _ = self.model.tables.best_pickup(view.hand, view.seat, view.bid)
        assert discard is not None
        if self.declare > 1 and contract.game_type != GameType.NULL:
            if self._declare_solver is None:
                self._declare_solver = Solver(tt_mb=PIMC_TT_MB)
            choice = search_declaration(
                self.model.tables,
                view.hand,
                view.seat,
                view.bid,
                self.declare,
                self.declare_worlds,
                self.sample_seed(view),
                self._declare_solver,
                self.engine.threads,
                null=False,
            )
            discard, contract = choice.discard, choice.contract
        self._plan = contract
        return next(a for a in legal if a.kind == "discard" and a.cards == discard)

    def _declare(self, view: View, legal: list[Action]) -> Action:
        if self._plan is not None:
            action = _declaration(legal, self._plan)
            if action is not None:
                return action
        # no plan (e.g. a discard made by someone else): the best legal pick-up contract
        skat = view.discard or Cards()
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.contract is None:
                continue
            scored = self.model.tables.expected_score(
                view.hand, skat, a.contract, view.seat, view.bid
            )
            if scored is not None and (best is None or scored[0] > best[0]):
                best = (scored[0], a)
        return best[1] if best is not None else legal[0]

    def act(self, view: View) -> Action | str:
        if view.ramsch:
            return self.ramsch_act(view)
        legal = view.legal_actions()
        if view.phase == Phase.BIDDING:
            return self._bid(view, legal)
        if view.phase == Phase.SKAT:
            return self._skat(view, legal)
        if view.phase == Phase.DISCARD:
            return self._discard(view, legal)
        if view.phase == Phase.DECLARE:
            return self._declare(view, legal)
        return super().act(view)


def opponent_has_bid(view: View) -> bool:
    """Whether another seat has said a bid or held one in this auction so far.

    >>> import skat
    >>> game = skat.Game(skat.Deal.random(seed=7))
    >>> game.apply("18")                       # middlehand bids
    >>> opponent_has_bid(game.view(0)), opponent_has_bid(game.view(1))
    (True, False)
    """
    return any(seat != view.seat and a.kind in ("bid", "hold") for seat, a in view.history)


def _pass(legal: list[Action]) -> Action:
    return next(a for a in legal if a.kind == "pass")


def _declaration(legal: list[Action], contract: Contract) -> Action | None:
    return next((a for a in legal if a.kind == "declare" and a.contract == contract), None)
