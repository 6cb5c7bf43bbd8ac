"""Would a deviation per position make ProbCut's intervals narrower than one per slot?

ProbCut cuts a node when the interval ``e +- z sigma`` around the shipped estimate ``e`` lies
outside the search window, with one ``sigma`` per slot (class, cards per hand, leader's role).
This study asks whether the estimate's error can be predicted position by position well enough
to pay. It labels ``--positions`` fresh random positions per class and hand size with the exact
solver (the positions ``skat train estimators`` learns from, from another seed), takes the
shipped estimate clamped to the static bounds, and per slot:

- fits a ridge regression of the absolute error ``|value - e|`` on the estimator's own sparse
  inputs plus the bounds' gap, on the first half of the slot's positions (the ridge weight
  chosen among ``RIDGES`` on the next fifth);
- on that fifth, sets a constant half-width ``c`` (the slot's error quantile at 50% and at
  80%, ProbCut's intervals at pcut 0.5 and about 0.8) and scales the predicted error ``p`` by a
  factor ``s`` chosen two ways: for the same coverage, and for the same *expected excess*
  ``E[(|error| - half-width)+]``;
- on the rest, reports both intervals' coverage and excess, the ratio of their mean widths
  (below 1: the per-position interval is narrower, so it would cut more) and the correlation of
  predicted and actual error.

Why the excess: when a window bound lies at a distance ``d`` from the estimate, spread evenly
over the positions, the share of nodes cut falls with the mean half-width and the share of wrong
cuts grows with the expected excess. At equal coverage a constant width can be the narrower
even where the error is perfectly predictable (it covers the calm positions and gives up the
wild ones, which then err by much), so the equal-excess ratio is the one that says whether
ProbCut would gain.

Every number depends on ``--positions`` and ``--seed`` only (the labelling runs on
``--workers`` processes, with the same result for any count).

    python benchmarks/pcut_deviation.py --positions 30000 --seed 2 --workers 2 --json F
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import numpy as np

from skat._core import estimator_estimates
from skat.display import save_json
from skat.training.estimators import SlotData, generate

RIDGES = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)
"""Ridge weights tried per slot; the one with the least calibration error is kept."""
COVERAGES = (0.5, 0.8)
"""The held-out coverages at which the two intervals' widths are compared."""
FLOOR = 0.25
"""The smallest predicted error (card points): keeps the scaled interval's width positive."""
CG_STEPS = 300
"""Conjugate-gradient steps per ridge solve (the residual is then far below the noise)."""


class _Design:
    """Rows of active one-hot features (``dim`` columns) plus the gap and a bias column."""

    def __init__(self, features: np.ndarray, gap: np.ndarray, dim: int) -> None:
        self.features = features
        self.width = features.shape[1]
        self.gap = gap
        self.dim = dim

    @property
    def columns(self) -> int:
        return self.dim + 2

    def times(self, w: np.ndarray) -> np.ndarray:
        out: np.ndarray = w[self.features].sum(axis=1) + self.gap * w[self.dim] + w[self.dim + 1]
        return out

    def transposed_times(self, u: np.ndarray) -> np.ndarray:
        out = np.bincount(
            self.features.ravel(), weights=np.repeat(u, self.width), minlength=self.columns
        )
        out[self.dim] += float(self.gap @ u)
        out[self.dim + 1] += float(u.sum())
        return out


def ridge(x: _Design, y: np.ndarray, lam: float) -> np.ndarray:
    """The weights minimising ``|X w - y|^2 + lam |w|^2`` (conjugate gradients)."""
    w = np.zeros(x.columns)
    r = x.transposed_times(y)
    p = r.copy()
    rr = float(r @ r)
    for _ in range(CG_STEPS):
        if rr < 1e-12:
            break
        ap = x.transposed_times(x.times(p)) + lam * p
        alpha = rr / float(p @ ap)
        w += alpha * p
        r -= alpha * ap
        new = float(r @ r)
        p = r + (new / rr) * p
        rr = new
    return w


def slot_study(data: SlotData, estimate: np.ndarray, dim: int) -> dict[str, Any]:
    """The fit, calibration and test of one slot (``estimate``: the shipped, unclamped)."""
    e = np.clip(estimate, data.lo, data.hi)
    err = np.abs(data.value - e)
    gap = (data.hi - data.lo) / 120.0
    n = len(err)
    fit, cal = slice(0, n // 2), slice(n // 2, n // 2 + n // 5)
    test = slice(n // 2 + n // 5, n)

    def design(part: slice) -> _Design:
        return _Design(data.features[part], gap[part], dim)

    x_fit, x_cal, x_test = design(fit), design(cal), design(test)
    best: tuple[float, float, np.ndarray] | None = None
    for lam in RIDGES:
        w = ridge(x_fit, err[fit], lam)
        mse = float(np.mean((x_cal.times(w) - err[cal]) ** 2))
        if best is None or mse < best[0]:
            best = (mse, lam, w)
    assert best is not None
    _, lam, w = best
    p_cal = np.maximum(x_cal.times(w), FLOOR)
    p_test = np.maximum(x_test.times(w), FLOOR)
    a_cal, a_test = err[cal], err[test]
    out: dict[str, Any] = {
        "positions": n,
        "test_positions": len(a_test),
        "ridge": lam,
        "mean_abs_error": float(a_test.mean()),
        "correlation": float(np.corrcoef(p_test, a_test)[0, 1]),
    }
    for q in COVERAGES:
        const = float(np.quantile(a_cal, q))
        by_coverage = float(np.quantile(a_cal / p_cal, q))
        by_excess = _equal_excess(a_cal, p_cal, _excess(a_cal, const))
        row: dict[str, Any] = {
            "constant_half_width": const,
            "constant_coverage": float(np.mean(a_test <= const)),
            "constant_excess": _excess(a_test, const),
        }
        for name, scale in (("equal_coverage", by_coverage), ("equal_excess", by_excess)):
            width = scale * p_test
            row[name] = {
                "coverage": float(np.mean(a_test <= width)),
                "excess": _excess(a_test, width),
                "width_ratio": float(np.mean(width) / const) if const > 0 else None,
            }
        out[f"coverage_{q:g}"] = row
    return out


def _excess(err: np.ndarray, half_width: float | np.ndarray) -> float:
    """The mean amount by which the error leaves the interval (card points)."""
    return float(np.mean(np.maximum(err - half_width, 0.0)))


def _equal_excess(err: np.ndarray, predicted: np.ndarray, target: float) -> float:
    """The factor ``s`` with ``_excess(err, s * predicted) == target`` (bisection; the excess
    falls as ``s`` grows)."""
    lo, hi = 0.0, 1.0
    while _excess(err, hi * predicted) > target:
        hi *= 2.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        if _excess(err, mid * predicted) > target:
            lo = mid
        else:
            hi = mid
    return hi


def study(positions: int, seed: int, workers: int | None = None) -> dict[str, Any]:
    """Every slot's study and the summary over slots."""
    from skat._core import estimator_layout

    lay = estimator_layout()
    data = generate(positions, seed, workers=workers)
    slots = []
    for (gc, k, role), d in sorted(data.items()):
        if len(d.value) < 20:
            continue
        width = d.features.shape[1]
        feats = np.ascontiguousarray(d.features, dtype="<u4")
        est = np.array(estimator_estimates(None, gc, k, role, feats.tobytes(), width))
        row = slot_study(d, est, int(lay[f"{gc}_dim"]))
        slots.append({"class": gc, "cards": k, "role": role, **row})
    summary: dict[str, Any] = {
        "correlation": _spread([s["correlation"] for s in slots]),
    }
    for q in COVERAGES:
        for how in ("equal_coverage", "equal_excess"):
            ratios = [s[f"coverage_{q:g}"][how]["width_ratio"] for s in slots]
            summary[f"width_ratio_{q:g}_{how}"] = _spread([r for r in ratios if r is not None])
    return {"positions": positions, "seed": seed, "slots": slots, "summary": summary}


def _spread(xs: list[float]) -> dict[str, float]:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30_000, help="per class and hand size")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--workers", type=int, default=None, help="default: every local core")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    if args.positions < 100:
        ap.error("--positions must be at least 100")
    out = study(args.positions, args.seed, args.workers)
    s = out["summary"]
    print(
        f"{len(out['slots'])} slots, {args.positions} positions per class and hand size:"
        f" correlation median {s['correlation']['median']:.2f}"
        f" ({s['correlation']['min']:.2f}-{s['correlation']['max']:.2f})"
    )
    for q in COVERAGES:
        for how in ("equal_coverage", "equal_excess"):
            r = s[f"width_ratio_{q:g}_{how}"]
            print(
                f"  constant width at {q:.0%} coverage, {how.replace('_', ' ')}: per-position /"
                f" constant width, median {r['median']:.3f} ({r['min']:.3f}-{r['max']:.3f})"
            )
    save_json(args.json, out)


if __name__ == "__main__":
    main()
