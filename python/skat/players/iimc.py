"""The ``iimc`` and ``rk`` players: recursive Monte Carlo card play (Furtak's thesis ch. 9).

At each card-play decision the player samples ``worlds`` worlds consistent with what its seat
knows and values every legal card by *finishing the game* in each world: the playout player
(the ``inner`` spec) then chooses every later card of every seat from that seat's own view
(``game.view(seat)`` of the playout game: its own cards and the public history, never the
sampled world). The value of a playout is the declarer's Seeger-Fabian score of the finished
game (won: value + 50, lost: -(2 x value) - 50) with the sign of the deciding seat's side; the
card of highest mean value is played. The compiled engine is :class:`skat._core.Iimc`.

``iimc`` options (spec ``iimc:worlds=20,inner=pimc:worlds=10;points=false``):

- ``worlds``: top-level worlds per decision (default :data:`skat.defaults.IIMC_WORLDS`), drawn
  uniformly;
- ``inner``: the playout player, written as a player spec whose options are separated by ``;``
  (``;;`` for the options of a spec nested one level deeper): ``pimc:worlds=M`` (R1, the
  default :data:`skat.defaults.IIMC_INNER`), ``kermit:worlds=M`` (PIMC with Kermit's card
  inference) or ``iimc:worlds=K;inner=pimc:worlds=M`` (R2; nest again for R3). Inner options:
  ``worlds``, ``points``, ``tt_mb`` (pimc and kermit), ``candidates`` (kermit), ``inner``
  (iimc);
- ``seconds``: a time budget per decision (whole worlds, at most ``worlds``);
- ``threads``: playout threads (default: ``SKAT_THREADS``, else the number of CPUs);
- ``seed``: added to the game seed;
- ``kontra``, ``re``: at a table with Kontra and Re, the share of playouts its side must win
  after its best card for it to say Kontra as a defender (default
  :data:`skat.defaults.KONTRA_THRESHOLD`) or Re as the declarer (default
  :data:`skat.defaults.RE_THRESHOLD`), as ``pimc`` does; above 1: never.

Bidding, the skat and the declaration are the ``rules`` player's.

``rk`` is Recursive Kermit, RK_{n,m}: Kermit's bidding and declaration, top-level worlds drawn by
Kermit's card inference, and playouts by PIMC with ``m`` worlds that draws its own worlds by
inference (``inner_candidates`` candidates per playout decision). Options (spec ``rk:n=20,m=10``):
``n``, ``m``, ``points`` (the playout PIMC's card-point tie-break, default off), ``seconds``,
``threads``, ``seed``, ``inner_candidates``, ``kontra``, ``re`` (as for ``iimc``) and Kermit's
``threshold``, ``unopposed``, ``model``, ``inference``, ``candidates``, ``inference_tables``.

>>> from skat.players import make_player
>>> p = make_player("iimc:worlds=8,inner=iimc:worlds=2;inner=pimc:worlds=3,threads=1")
>>> p.engine.worlds, p.engine.inner
(8, [2, 3])
>>> make_player("rk:n=40,m=5,threads=1").engine.inner
[5]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from skat._core import Action, Iimc, IimcDecision, Inference, Phase, View
from skat.defaults import (
    IIMC_INNER,
    IIMC_WORLDS,
    INFERENCE_CANDIDATES,
    INFERENCE_SIDES,
    KERMIT_THRESHOLD,
    KERMIT_UNOPPOSED,
    KONTRA_THRESHOLD,
    PIMC_TT_MB,
    RE_THRESHOLD,
    RK_INNER_CANDIDATES,
    RK_M,
    RK_N,
    default_threads,
)
from skat.inference import make_inference
from skat.players.base import (
    OPTION_RANGES,
    PlayerSpecError,
    check_option,
    register,
)
from skat.players.kermit import KermitPlayer
from skat.players.pimc import doubling_action, just_doubled, position_key
from skat.players.rules import RulesPlayer

__all__ = ["IimcPlayer", "InnerSpec", "RecursiveKermitPlayer", "parse_inner"]

_INNER_KINDS = {
    "pimc": ("worlds", "points", "tt_mb"),
    "kermit": ("worlds", "points", "tt_mb", "candidates"),
    "iimc": ("worlds", "inner"),
}


@dataclass(frozen=True)
class InnerSpec:
    """A playout player as the engine takes it: worlds per level (outermost first, the last
    the PIMC's), the PIMC's tie-break and table, and whether the levels use inference."""

    levels: tuple[int, ...]
    points: bool = False
    tt_mb: int = PIMC_TT_MB
    inference: bool = False
    candidates: int = 0


def _split(text: str) -> list[str]:
    """The options of one inner level: split at single ``;``, ``;;`` turned into ``;``."""
    return [part.replace(";;", ";") for part in re.split(r"(?<!;);(?!;)", text) if part]


def _int(name: str, text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise PlayerSpecError(f"inner option {name}={text!r}: expected an integer") from None
    if value < low:
        raise PlayerSpecError(f"inner option {name} must be at least {low}, got {value}")
    check_option(name, value)
    return value


def _bool(name: str, text: str) -> bool:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    raise PlayerSpecError(f"inner option {name}={text!r}: expected true or false")


def parse_inner(text: str) -> InnerSpec:
    """Reads an ``inner`` playout spec (see the module documentation).

    >>> parse_inner("iimc:worlds=4;inner=kermit:worlds=10;;candidates=300")
    InnerSpec(levels=(4, 10), points=False, tt_mb=16, inference=True, candidates=300)
    """
    kind, _, rest = text.strip().partition(":")
    if kind not in _INNER_KINDS:
        raise PlayerSpecError(f"inner player {kind!r}: expected one of {', '.join(_INNER_KINDS)}")
    opts: dict[str, str] = {}
    for part in _split(rest):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in _INNER_KINDS[kind]:
            raise PlayerSpecError(
                f"inner spec {text!r}: option {part!r}; options of {kind}:"
                f" {', '.join(_INNER_KINDS[kind])}"
            )
        if key.strip() in opts:
            raise PlayerSpecError(
                f"inner spec {text!r}: option {key.strip()} is given twice; give it once"
            )
        opts[key.strip()] = value.strip()
    if "worlds" not in opts:
        raise PlayerSpecError(f"inner spec {text!r}: give worlds")
    worlds = _int("worlds", opts["worlds"], 1)
    if kind == "iimc":
        nested = parse_inner(opts.get("inner", IIMC_INNER))
        return InnerSpec(
            levels=(worlds, *nested.levels),
            points=nested.points,
            tt_mb=nested.tt_mb,
            inference=nested.inference,
            candidates=nested.candidates,
        )
    return InnerSpec(
        levels=(worlds,),
        points=_bool("points", opts["points"]) if "points" in opts else False,
        tt_mb=_int("tt_mb", opts["tt_mb"], 1) if "tt_mb" in opts else PIMC_TT_MB,
        inference=kind == "kermit",
        candidates=_int("candidates", opts["candidates"], 1) if "candidates" in opts else 0,
    )


def _seed(game_seed: int, seed: int, view: View) -> int:
    """A different, reproducible sampling seed at every decision of the game."""
    return (game_seed * 1_000_003 + seed * 7_919 + len(view.played)) & ((1 << 64) - 1)


def _card_or_doubling(
    player: IimcPlayer | RecursiveKermitPlayer, view: View, legal: list[Action]
) -> Action:
    """The card of the decision at ``view``, or Kontra / Re when legal and the seat's side wins
    at least that share of the playouts after its best card. The decision is kept for the
    same position once the seat has doubled (it then plays at once, without a new search)."""
    last = player.last_decision
    if last is None or not just_doubled(player._decided_at, view):
        last = player.decide(view)
    player.last_decision, player._decided_at = last, position_key(view)
    doubling = doubling_action(legal, last.values, player.kontra, player.re)
    if doubling is not None:
        return doubling
    return next(a for a in legal if a.card == last.best)


@register("iimc")
class IimcPlayer:
    """Recursive Monte Carlo card play: cards valued by playouts of a view-only player."""

    def __init__(
        self,
        worlds: int = IIMC_WORLDS,
        inner: str = IIMC_INNER,
        seconds: float | None = None,
        threads: int | None = None,
        seed: int = 0,
        kontra: float = KONTRA_THRESHOLD,
        re: float = RE_THRESHOLD,
    ) -> None:
        for name, value in (("worlds", worlds), ("seconds", seconds), ("threads", threads)):
            check_option(name, value)
        check_option("seed", seed)
        check_option("kontra", kontra)
        check_option("re", re)
        self.kontra, self.re = kontra, re
        spec = parse_inner(inner)
        self.inner = spec
        self.engine = Iimc(
            worlds=worlds,
            inner=list(spec.levels),
            threads=threads if threads is not None else default_threads(),
            seconds=seconds,
            points=spec.points,
            tt_mb=spec.tt_mb,
            top_inference=False,
            inner_inference=spec.inference,
            inner_candidates=spec.candidates,
        )
        self._inference: Inference | None = (
            make_inference(INFERENCE_SIDES, INFERENCE_CANDIDATES) if spec.inference else None
        )
        self.seed = seed
        self.game_seed = 0
        self.rules = RulesPlayer()
        self.last_decision: IimcDecision | None = None
        self._decided_at: tuple[int, int, int] | None = None

    def new_game(self, seat: int, seed: int) -> None:
        self.game_seed = seed
        self.rules.new_game(seat, seed)
        self.last_decision = None
        self._decided_at = None

    def decide(self, view: View) -> IimcDecision:
        """The full decision (every legal card's value) for the seat to move in card play."""
        return self.engine.decide(
            view, _seed(self.game_seed, self.seed, view), inference=self._inference
        )

    def act(self, view: View) -> Action | str:
        if view.phase != Phase.PLAY or view.ramsch:
            return self.rules.act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return _card_or_doubling(self, view, legal)


@register("rk")
class RecursiveKermitPlayer:
    """Recursive Kermit RK_{n,m}: Kermit whose cards are valued by playouts of Kermit."""

    option_ranges: ClassVar[dict[str, tuple[float | None, float | None]]] = {
        "n": OPTION_RANGES["worlds"],
        "m": OPTION_RANGES["worlds"],
        "inner_candidates": OPTION_RANGES["candidates"],
    }
    """``n`` and ``m`` count worlds, ``inner_candidates`` inference candidates."""

    def __init__(
        self,
        n: int = RK_N,
        m: int = RK_M,
        points: bool = False,
        seconds: float | None = None,
        threads: int | None = None,
        seed: int = 0,
        inner_candidates: int = RK_INNER_CANDIDATES,
        threshold: float = KERMIT_THRESHOLD,
        unopposed: float | None = KERMIT_UNOPPOSED,
        model: str | None = None,
        inference: str = INFERENCE_SIDES,
        candidates: int = INFERENCE_CANDIDATES,
        inference_tables: str | None = None,
        kontra: float = KONTRA_THRESHOLD,
        re: float = RE_THRESHOLD,
    ) -> None:
        for name, value in (("n", n), ("m", m), ("inner_candidates", inner_candidates)):
            check_option(name, value, self.option_ranges)
        check_option("kontra", kontra)
        check_option("re", re)
        self.kontra, self.re = kontra, re
        for name, option in (("seconds", seconds), ("threads", threads), ("seed", seed)):
            check_option(name, option)
        # Kermit's bidding, declaration and inference (its own PIMC engine stays unused)
        self.kermit = KermitPlayer(
            threshold=threshold,
            unopposed=unopposed,
            model=model,
            worlds=m,
            threads=1,
            tt_mb=1,
            seed=seed,
            inference=inference,
            candidates=candidates,
            inference_tables=inference_tables,
        )
        self.n, self.m, self.seed = n, m, seed
        self.engine = Iimc(
            worlds=n,
            inner=[m],
            threads=threads if threads is not None else default_threads(),
            seconds=seconds,
            points=points,
            top_inference=True,
            inner_inference=True,
            inner_candidates=inner_candidates,
        )
        self.game_seed = 0
        self.last_decision: IimcDecision | None = None
        self._decided_at: tuple[int, int, int] | None = None

    def new_game(self, seat: int, seed: int) -> None:
        self.game_seed = seed
        self.kermit.new_game(seat, seed)
        self.last_decision = None
        self._decided_at = None

    def decide(self, view: View) -> IimcDecision:
        """The IIMC decision over worlds drawn by inference (uniform for ``NI``)."""
        return self.engine.decide(
            view, _seed(self.game_seed, self.seed, view), inference=self.kermit.inference
        )

    def act(self, view: View) -> Action | str:
        if view.phase != Phase.PLAY or view.ramsch:
            return self.kermit.act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return _card_or_doubling(self, view, legal)
