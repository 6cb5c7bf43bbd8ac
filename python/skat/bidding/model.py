"""The learned 10+2 evaluation as a Python object: loading, saving and querying.

A model is a set of float32 arrays (the tables and logistic weights the compiled evaluator
needs, listed by ``skat._core.BiddingTables.parts()``) plus a JSON note of how it was made,
stored together in one ``.npz`` file. The package ships one, trained by ``skat train
bidding`` (see ``docs/bidding.md``); :func:`default_model` loads it.
"""

from __future__ import annotations

import json
import numbers
import os
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from skat._core import ArgumentError, BiddingTables, Cards, Contract, SkatError
from skat.display import error_text

_CardsLike = Cards | str

#: Contract kind names in index order (the evaluation's game types).
KINDS = ("D", "H", "S", "C", "G", "N", "NO")


class ModelError(SkatError):
    """A bidding model file that is missing, malformed or does not fit the evaluator."""


def kind_index(kind: int | str | Contract) -> int:
    """The kind index (0-6) of a kind name (``"C"``, ``"NO"``...), index or contract.

    An index must be an integer (a Python or NumPy int): another number is a
    :class:`ModelError`, anything else a ``TypeError``.
    """
    if isinstance(kind, Contract):
        name = kind.game_type.letter + ("O" if kind.ouvert and kind.game_type.letter == "N" else "")
        return KINDS.index(name)
    if isinstance(kind, str):
        key = kind.strip().upper()
        if key not in KINDS:
            raise ModelError(f"unknown contract kind {kind!r}; kinds: {' '.join(KINDS)}")
        return KINDS.index(key)
    if isinstance(kind, int | np.integer):
        if not 0 <= int(kind) < len(KINDS):
            raise ModelError(f"contract kind must be 0-6, got {kind}")
        return int(kind)
    if isinstance(kind, numbers.Number):
        raise ModelError(f"contract kind must be a kind name or an index 0-6, got {kind!r}")
    raise TypeError(
        f"contract kind must be a kind name, an index 0-6 or a Contract, got {type(kind).__name__}"
    )


def int_column(xs: object, what: str) -> list[int]:
    """``xs`` (a sequence or array of integers) as a list of Python ints, in order; the
    compiled evaluator checks their ranges. Anything that is not an integer (a string,
    a fraction, NaN) raises :class:`skat.ArgumentError` naming ``what``."""
    if isinstance(xs, str | bytes):
        raise ArgumentError(f"{what} must be a sequence of integers, got {xs!r}")
    try:
        a = np.asarray(xs)
    except (TypeError, ValueError) as e:
        raise ArgumentError(f"{what} must be a sequence of integers ({e})") from e
    values = a.reshape(-1).tolist()
    if a.dtype.kind in "iub":
        return [int(v) for v in values]
    out: list[int] = []
    for v in values:
        if not isinstance(v, int | np.integer):
            raise ArgumentError(f"{what} must be integers, got {v!r}")
        out.append(int(v))
    return out


def _file_name(path: object) -> str:
    """A file argument as shown in error messages."""
    try:
        return repr(os.fspath(path))  # type: ignore[call-overload]
    except TypeError:
        return repr(path)


class BiddingModel:
    """The 10+2 evaluation: tables, weights and the note of how they were made.

    >>> from skat.bidding import default_model
    >>> m = default_model()
    >>> 0.0 <= m.win_probability("CJ SJ HJ CA CT CK SA ST HA D7", "D8 D9", "G", 0) <= 1.0
    True
    """

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any] | None = None) -> None:
        expected = dict(BiddingTables.parts())
        missing = sorted(set(expected) - set(arrays))
        if missing:
            raise ModelError(f"bidding model lacks array(s) {', '.join(missing)}")
        clean: dict[str, np.ndarray] = {}
        for name, size in expected.items():
            a = np.asarray(arrays[name], dtype="<f4").reshape(-1)
            if a.size != size:
                raise ModelError(f"bidding model array {name} has {a.size} values, need {size}")
            if not np.all(np.isfinite(a)):
                raise ModelError(f"bidding model array {name} holds values that are not finite")
            clean[name] = a
        self.arrays = clean
        self.meta: dict[str, Any] = dict(meta or {})
        self.tables = BiddingTables({k: v.tobytes() for k, v in clean.items()})

    # ----- files -----------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BiddingModel:
        """Reads a model saved by :meth:`save`. A file that is missing, is not such a model
        (empty, not an ``.npz`` archive, damaged) or does not fit the evaluator raises
        :class:`ModelError` naming it."""
        name = _file_name(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files if k != "meta"}
                meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
            if not isinstance(meta, dict):
                raise ModelError("its note is not a JSON object")
            return cls(arrays, meta)
        except Exception as e:
            # numpy, zipfile, zlib and json each raise their own errors on a damaged file
            raise ModelError(f"cannot read bidding model {name}: {error_text(e)}") from e

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the arrays and the note (compressed ``.npz``)."""
        arrays: dict[str, Any] = dict(self.arrays)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        np.savez_compressed(path, **arrays)

    # ----- queries ---------------------------------------------------------------------

    def win_probability(
        self, hand: _CardsLike, discard: _CardsLike, kind: int | str | Contract, seat: int
    ) -> float:
        """``e_k(h, s, p)``: probability that the declarer wins (61+ points; null: no trick)."""
        return self.tables.win_probability(hand, discard, kind_index(kind), seat)

    def probabilities(
        self, hand: _CardsLike, discard: _CardsLike, kind: int | str | Contract, seat: int
    ) -> tuple[float, float, float]:
        """Win, schneider and schwarz probabilities (null kinds: win, 0, 0)."""
        return self.tables.probabilities(hand, discard, kind_index(kind), seat)

    def win_probabilities(
        self,
        hands: np.ndarray | Sequence[int],
        discards: np.ndarray | Sequence[int],
        kinds: np.ndarray | Sequence[int],
        seats: np.ndarray | Sequence[int],
    ) -> np.ndarray:
        """Vectorised :meth:`win_probability` over card bit sets (``Cards.bits``); an entry
        that is not an integer raises :class:`skat.ArgumentError`."""
        names = ("hands", "discards", "kinds", "seats")
        cols = zip((hands, discards, kinds, seats), names, strict=True)
        h, d, k, s = (int_column(x, n) for x, n in cols)
        if not len(h) == len(d) == len(k) == len(s):
            raise ModelError("hands, discards, kinds and seats must have the same length")
        return np.asarray(self.tables.win_probabilities(h, d, k, s), dtype=np.float64)

    def best_discard(
        self, twelve: _CardsLike, kind: int | str | Contract, seat: int
    ) -> tuple[float, Cards]:
        """The discard with the highest win probability for ``kind`` and that probability."""
        return self.tables.best_discard(twelve, kind_index(kind), seat)


@lru_cache(maxsize=1)
def default_model() -> BiddingModel:
    """The model shipped with the package (``skat/data/bidding.npz``)."""
    ref = resources.files("skat") / "data" / "bidding.npz"
    with resources.as_file(ref) as path:
        if not path.is_file():
            raise ModelError(
                f"the packaged bidding model {path} is missing; train one with 'skat train bidding'"
            )
        return BiddingModel.load(path)
