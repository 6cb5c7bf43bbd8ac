"""Labelled hands for the k-NN bidding evaluation (:mod:`skat.bidding.knn`), the double-dummy
way of KNNDDSS.

Deal ``j`` is ``Deal.random(derive_seed(seed, j))``. For every seat and every suit and grand,
the seat picks up the skat, puts away two cards by the rule-based heuristic
(:func:`skat.training.generate.best_rules_discard`: the discard that leaves the strongest
hand, card points pushed where it is a tie), and the open-handed solver gives the card points
the declarer makes with every card known (the discard's points included), forehand leading.
A labelled hand is the ten *dealt* cards' :func:`~skat.bidding.knn.features` with those card
points: what a bidder sees, and what the deal gave. Fifteen solves a deal; the deals are
split over workers or Ray (:func:`skat.parallel.run_tasks`) and the labels do not depend on
the split.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from skat._core import Contract, Deal, Position, Solver
from skat.bidding.knn import KNN_TYPES, KnnModel, features
from skat.defaults import SOLVER_TT_MB
from skat.parallel import run_tasks
from skat.seeds import derive_seed
from skat.training.generate import best_rules_discard

CHUNK = 20


def label_deals(first: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, card points and kind index of every (seat, kind) of deals ``first ..
    first+count``."""
    solver = Solver(tt_mb=SOLVER_TT_MB)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    kinds: list[int] = []
    for j in range(first, first + count):
        deal = Deal.random(derive_seed(seed, j))
        for seat in range(3):
            dealt = deal.hands[seat]
            twelve = dealt | deal.skat
            for i, gt in enumerate(KNN_TYPES):
                _, discard = best_rules_discard(twelve, Contract(gt))
                hands = [deal.hands[s] if s != seat else twelve - discard for s in range(3)]
                pos = Position(
                    (hands[0], hands[1], hands[2]), gt, seat, 0, declarer_points=discard.points
                )
                xs.append(features(dealt, gt, seat))
                ys.append(float(solver.solve(pos)))
                kinds.append(i)
    return np.array(xs), np.array(ys), np.array(kinds, dtype=np.int64)


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return label_deals(*args)


def build_model(
    deals: int,
    seed: int,
    k: int,
    *,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
    note: dict[str, Any] | None = None,
) -> KnnModel:
    """A k-NN model from ``deals`` labelled deals (in deal order, whatever the workers)."""
    tasks = [(first, min(CHUNK, deals - first), seed) for first in range(0, deals, CHUNK)]
    parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    done = 0
    for i, part in run_tasks(_chunk, tasks, workers=workers, ray=ray):
        parts[i] = part
        done += tasks[i][1]
        if progress:
            progress(done)
    ordered = [parts[i] for i in range(len(tasks))]
    x = np.concatenate([p[0] for p in ordered])
    y = np.concatenate([p[1] for p in ordered])
    kind = np.concatenate([p[2] for p in ordered])
    return KnnModel(x, y, kind, k, {"deals": deals, "seed": seed, **(note or {})})


__all__ = ["build_model", "label_deals"]
