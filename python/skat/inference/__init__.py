"""Card inference: reading the other players' cards from the auction and the declaration.

Kermit's largest single gain (Long's thesis §4.3, ch. 6): the worlds PIMC searches are drawn in
proportion to ``P(world | history) ∝ Π_i P(f_i | move) / P(f_i)`` over features of the hands
the other players bid on, instead of uniformly.

- As **declarer** the seat weighs the defenders' original hands by their auction outcomes
  (passed without bidding / after bidding, at which value), with tables learned from auctions
  of our own ``kermit`` bidder on random deals
  (:func:`skat.training.inference_tables.count_auctions`).
- As **defender** it weighs the declarer's ten cards plus two put away by the 10+2 evaluation of
  the announced contract (the chance it wins in a way that reaches the bid; below 0.5 the world
  is ruled out), and the other defender's hand by her auction outcome.
- The sampler draws a large uniform candidate set (2,000 by default), weighs it and draws the
  searched worlds from it; if every candidate has weight zero it falls back to uniform worlds
  and says so in the decision's ``inference`` statistics.

The compiled work is in ``skat._core.Inference``; this module holds the learned tables
(:class:`InferenceTables`, the packaged ``skat/data/inference.npz``) and builds it.

>>> from skat import Deal, Game
>>> from skat.inference import make_inference
>>> g = Game(Deal.random(3))
>>> for t in ["18", "p", "p", "s"]:
...     g.apply(t)
>>> g.apply(g.legal_actions()[0]); g.apply("C")
>>> inf = make_inference("SD")
>>> worlds, stats = inf.sample(g.view(0), 20, seed=1)
>>> sum(w for _, w in worlds), stats["fallback"]
(20.0, False)
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from skat._core import Cards, Inference, SkatError, View, hand_features, inference_layout
from skat.defaults import INFERENCE_CANDIDATES, INFERENCE_SIDES
from skat.display import SEAT_NAMES, error_text

__all__ = [
    "SIDES",
    "InferenceError",
    "InferenceTables",
    "default_tables",
    "make_inference",
    "world_weights",
]

#: The inference settings of the players: as declarer and defender, one side only, none.
SIDES = ("SD", "S", "D", "NI")

_LAYOUT = inference_layout()
FEATURES: list[tuple[str, int]] = list(_LAYOUT["features"])
OFFSETS: list[int] = list(_LAYOUT["offsets"])
FEATURE_VALUES: int = _LAYOUT["feature_values"]
OUTCOMES: int = _LAYOUT["outcomes"]
OUTCOMES_PER_SEAT: int = _LAYOUT["outcomes_per_seat"]
BID_BINS: int = _LAYOUT["bid_bins"]
BIN_NAMES = ("18", "20", "22-24", "27-30", "33-36", "40-48", "50+")


class InferenceError(SkatError):
    """A malformed or missing inference tables file, or an unknown inference setting."""


def outcome_name(outcome: int) -> str:
    """A readable name of an auction outcome index, e.g. ``"middlehand passed at 22-24 after
    bidding"``."""
    seat, rest = divmod(outcome, OUTCOMES_PER_SEAT)
    kind, b = divmod(rest, BID_BINS)
    what = ("passed at {} without bidding", "passed at {} after bidding", "won at {}")[kind]
    return f"{SEAT_NAMES[seat]} {what.format(BIN_NAMES[b])}"


class InferenceTables:
    """Feature counts per auction outcome and the smoothed log ratios made from them.

    ``P(f | m) = (n(m, f) + a·P(f)) / (n(m) + a)`` (``a`` = ``smoothing``, shrinking rare
    outcomes to "no information"), ``P(f)`` the feature's frequency over all hands (add-0.5
    smoothed), and the compiled tables hold ``log P(f | m) - log P(f)``.

    >>> t = default_tables()
    >>> t.log_ratio.shape
    (63, 84)
    """

    def __init__(
        self,
        counts: np.ndarray,
        hands: np.ndarray,
        meta: dict[str, Any] | None = None,
        smoothing: float = 30.0,
    ) -> None:
        counts = np.asarray(counts, dtype=np.int64)
        hands = np.asarray(hands, dtype=np.int64).reshape(-1)
        if counts.shape != (OUTCOMES, FEATURE_VALUES) or hands.shape != (OUTCOMES,):
            raise InferenceError(
                f"inference counts must be {OUTCOMES} x {FEATURE_VALUES} with {OUTCOMES}"
                f" hand totals, got {counts.shape} and {hands.shape}"
            )
        if (counts < 0).any() or (hands < 0).any():
            raise InferenceError("inference counts must not be negative")
        if not smoothing > 0:
            raise InferenceError(f"smoothing must be positive, got {smoothing}")
        self.counts = counts
        self.hands = hands
        self.meta: dict[str, Any] = dict(meta or {})
        self.smoothing = float(smoothing)

    # ----- the probabilities -------------------------------------------------------------

    def _blocks(self) -> list[slice]:
        return [slice(o, o + n) for o, (_, n) in zip(OFFSETS, FEATURES, strict=True)]

    def marginal(self) -> np.ndarray:
        """``P(f)``: every feature value's frequency over all hands (each block sums to 1)."""
        total = self.counts.sum(axis=0).astype(np.float64)
        out = np.zeros(FEATURE_VALUES)
        for b in self._blocks():
            x = total[b] + 0.5
            out[b] = x / x.sum()
        return out

    def conditional(self) -> np.ndarray:
        """``P(f | m)`` per outcome (rows) and feature value, smoothed towards ``P(f)``."""
        prior = self.marginal()
        a = self.smoothing
        return (self.counts + a * prior[None, :]) / (self.hands[:, None] + a)

    @property
    def log_ratio(self) -> np.ndarray:
        """``log P(f | m) - log P(f)`` as float32, ``OUTCOMES x FEATURE_VALUES``."""
        ratio: np.ndarray = np.log(self.conditional() / self.marginal()[None, :])
        return ratio.astype(np.float32)

    def compile(
        self,
        sides: str = INFERENCE_SIDES,
        candidates: int = INFERENCE_CANDIDATES,
        model: Any = None,
    ) -> Inference:
        """The compiled sampler; ``model`` is a :class:`skat.bidding.BiddingModel` (default:
        the packaged one) for the defenders' 10+2 weighting."""
        from skat.bidding import default_model

        if not isinstance(sides, str):
            raise TypeError(
                f"inference sides must be a str, one of {', '.join(SIDES)};"
                f" got {type(sides).__name__}"
            )
        if sides.strip().upper() not in SIDES:
            raise InferenceError(f"inference must be one of {', '.join(SIDES)}, got {sides!r}")
        m = model if model is not None else default_model()
        return Inference(
            self.log_ratio.astype("<f4").tobytes(), m.tables, sides.strip().upper(), candidates
        )

    # ----- files -------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes counts, hand totals, smoothing and the note to an ``.npz`` file."""
        np.savez_compressed(
            path,
            counts=self.counts,
            hands=self.hands,
            smoothing=np.array(self.smoothing),
            meta=np.array(json.dumps(self.meta)),
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> InferenceTables:
        """Reads tables saved by :meth:`save`; a file that cannot be read as such tables
        (missing, empty, not an ``.npz`` archive, damaged) raises :class:`InferenceError`."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
                smoothing = float(data["smoothing"]) if "smoothing" in data.files else 30.0
                return cls(data["counts"], data["hands"], meta, smoothing)
        except InferenceError as e:
            raise InferenceError(f"cannot read inference tables {path}: {e}") from e
        except Exception as e:
            # numpy, zipfile, zlib and json each raise their own errors on a damaged file
            raise InferenceError(f"cannot read inference tables {path}: {error_text(e)}") from e


def count_hands(
    hands: Sequence[Cards | str], outcomes: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Feature counts and hand totals per outcome for given hands and their outcomes."""
    if len(hands) != len(outcomes):
        raise InferenceError("one outcome per hand is needed")
    counts = np.zeros((OUTCOMES, FEATURE_VALUES), dtype=np.int64)
    totals = np.zeros(OUTCOMES, dtype=np.int64)
    for h, o in zip(hands, outcomes, strict=True):
        if not 0 <= o < OUTCOMES:
            raise InferenceError(f"outcome must be 0-{OUTCOMES - 1}, got {o}")
        cols = [off + f for off, f in zip(OFFSETS, hand_features(h), strict=True)]
        counts[o, cols] += 1
        totals[o] += 1
    return counts, totals


@lru_cache(maxsize=1)
def default_tables() -> InferenceTables:
    """The packaged tables (``skat/data/inference.npz``, see ``docs/inference.md``)."""
    ref = resources.files("skat") / "data" / "inference.npz"
    with resources.as_file(ref) as path:
        return InferenceTables.load(path)


@lru_cache(maxsize=16)
def make_inference(
    sides: str = INFERENCE_SIDES, candidates: int = INFERENCE_CANDIDATES
) -> Inference:
    """The compiled sampler with the packaged tables and bidding model (cached)."""
    return default_tables().compile(sides, candidates)


def world_weights(
    view: View, worlds: list[tuple[Any, Any]], sides: str = INFERENCE_SIDES
) -> list[float]:
    """The inference weight of each world ``(hands, skat)`` for ``view.seat``.

    A world that the declaration rules out gets exactly 0; with ``sides="NI"`` (or for a side
    that does not use inference) every weight is 1.
    """
    return make_inference(sides).weights(view, worlds)
