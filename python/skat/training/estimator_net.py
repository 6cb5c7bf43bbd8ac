"""Learning the solver's network estimators: one small ReLU network per game class, shared by
all of the class's slots (the Rust side is ``crates/skat-core/src/solver/estimator_net.rs``).

The inputs are the slot's sparse constellation features (the linear models' features, see
:mod:`skat.training.estimators`) plus one input naming the slot (hand size and leader's
role); the estimate is ``bias + sum wl[f] + w2 . relu(b1 + sum W1[g])`` over the active
inputs ``f`` and the active inputs ``g`` from ``deep_from`` on (the cards' single locations,
the first columns, feed only the linear part). It is fitted by minibatch Adam on the squared
error with the residual capped in the gradient (as the linear "LRbdd" fit), then every
estimate is clamped to the static bounds before it is scored: the held-out error deviation of
each slot becomes its ProbCut sigma.

Invariants: the fit depends only on the positions and the seed (one numpy generator for the
initial weights and the batch order); the held-out positions are the linear fit's (the last
tenth of each slot's chunks), never used in training; a slot without held-out positions gets
sigma 0, which the search reads as "no model".
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from skat.defaults import ESTIMATOR_DECAY
from skat.training.estimators import CLASSES, SlotData


@dataclass
class NetFit:
    """A fitted class network with its per-slot held-out scores (card points)."""

    game_class: str
    min_cards: int
    slots: int
    bias: float
    b1: np.ndarray
    w2: np.ndarray
    w1: np.ndarray
    """``(inputs, hidden)``"""
    wl: np.ndarray
    sigma: np.ndarray
    """Per slot ``(cards - min_cards) * 3 + role``; 0 where the slot has no model."""
    deep: np.ndarray
    """The input columns that feed the hidden layer."""
    mae: dict[tuple[int, int], float] = field(default_factory=dict)
    sd: dict[tuple[int, int], float] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])


def _stack(
    data: dict[tuple[str, int, int], SlotData], game_class: str, dim: int, min_cards: int
) -> tuple[np.ndarray, ...]:
    """All positions of a class: inputs (features plus the slot input), value, bounds, held-out
    flag and slot number."""
    xs, ys, los, his, tests, slots = [], [], [], [], [], []
    for (gc, k, role), d in sorted(data.items()):
        if gc != game_class:
            continue
        slot = (k - min_cards) * 3 + role
        n = len(d.value)
        xs.append(np.concatenate([d.features, np.full((n, 1), dim + slot)], axis=1))
        ys.append(d.value)
        los.append(d.lo)
        his.append(d.hi)
        tests.append(d.test)
        slots.append(np.full(n, slot))
    return tuple(np.concatenate(a) for a in (xs, ys, los, his, tests, slots))


def _scatter(idx: np.ndarray, vals: np.ndarray, rows: int) -> np.ndarray:
    """Sums of ``vals`` rows by ``idx`` into a ``(rows, width)`` array."""
    order = np.argsort(idx, kind="stable")
    s = idx[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    out = np.zeros((rows, vals.shape[1]), np.float32)
    out[s[starts]] = np.add.reduceat(vals[order], starts, axis=0)
    return out


def _forward(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    wl: np.ndarray,
    bias: float,
    x: np.ndarray,
    deep: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    z = w1[x[:, deep]].sum(axis=1) + b1
    out: np.ndarray = np.maximum(z, 0) @ w2 + wl[x].sum(axis=1) + bias
    return z, out


def deep_columns(x: np.ndarray, deep_from: int) -> np.ndarray:
    """The columns of input rows ``x`` whose inputs are all at least ``deep_from``; the
    others must be all below it (the layout of the features guarantees it)."""
    deep = (x >= deep_from).all(axis=0)
    if not ((x < deep_from).all(axis=0) | deep).all():
        raise ValueError("a feature column mixes wide-only and deep inputs")
    return np.flatnonzero(deep)


def predict(fit: NetFit, x: np.ndarray, chunk: int = 50_000) -> np.ndarray:
    """The unclamped estimates for input rows ``x`` (features plus the slot input)."""
    out = np.empty(len(x))
    for i in range(0, len(x), chunk):
        part = x[i : i + chunk]
        out[i : i + chunk] = _forward(fit.w1, fit.b1, fit.w2, fit.wl, fit.bias, part, fit.deep)[1]
    return out


def fit_class(
    data: dict[tuple[str, int, int], SlotData],
    game_class: str,
    dim: int,
    min_cards: int,
    max_cards: int,
    *,
    deep_from: int,
    hidden: int,
    epochs: int,
    cap: float,
    seed: int,
    batch: int = 2048,
    rate: float = 3e-3,
    decay: float = ESTIMATOR_DECAY,
    progress: Callable[[int], None] | None = None,
) -> NetFit:
    """Fits the class's network on its training positions and scores it per slot."""
    nslots = (max_cards - min_cards + 1) * 3
    x, y, lo, hi, test, slot = _stack(data, game_class, dim, min_cards)
    inputs = dim + nslots
    rng = np.random.default_rng(seed)
    width = x.shape[1]
    deep = deep_columns(x, deep_from)
    w1 = rng.normal(0.0, 1.0 / np.sqrt(len(deep)), (inputs, hidden)).astype(np.float32)
    w1[:deep_from] = 0.0
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden).astype(np.float32)
    wl = np.zeros(inputs, np.float32)
    train = np.flatnonzero(~test)
    bias = float(y[train].mean()) if len(train) else 0.0
    params = [w1, b1, w2, wl]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    mb = vb = 0.0
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(train)
        for i in range(0, len(order), batch):
            bi = order[i : i + batch]
            xb = x[bi]
            z, out = _forward(w1, b1, w2, wl, bias, xb, deep)
            r = np.clip(out - y[bi], -cap, cap).astype(np.float32) / len(bi)
            h = np.maximum(z, 0)
            gz = np.outer(r, w2) * (z > 0)
            flat = xb.ravel()
            grads = [
                _scatter(xb[:, deep].ravel(), np.repeat(gz, len(deep), axis=0), inputs),
                gz.sum(axis=0),
                h.T @ r,
                np.bincount(flat, weights=np.repeat(r, width), minlength=inputs).astype(np.float32),
            ]
            t += 1
            c1, c2 = 1 - 0.9**t, 1 - 0.999**t
            for j, (p, g) in enumerate(zip(params, grads, strict=True)):
                m[j] *= 0.9
                m[j] += 0.1 * g
                v[j] *= 0.999
                v[j] += 0.001 * g * g
                p -= (rate * (m[j] / c1) / (np.sqrt(v[j] / c2) + 1e-8)).astype(np.float32)
            gb = float(r.sum())
            mb = 0.9 * mb + 0.1 * gb
            vb = 0.999 * vb + 0.001 * gb * gb
            bias -= rate * (mb / c1) / (np.sqrt(vb / c2) + 1e-8)
        rate *= decay
        if progress is not None:
            progress(epoch + 1)
    fit = NetFit(game_class, min_cards, nslots, bias, b1, w2, w1, wl, np.zeros(nslots), deep)
    est = np.clip(predict(fit, x[test]), lo[test], hi[test]) if test.any() else np.zeros(0)
    err = est - y[test]
    for s in range(nslots):
        e = err[slot[test] == s]
        if len(e) >= 2:
            key = (min_cards + s // 3, s % 3)
            fit.mae[key] = float(np.abs(e).mean())
            fit.sd[key] = float(e.std())
            fit.sigma[s] = max(fit.sd[key], 0.5)
    return fit


def fit_nets(
    data: dict[tuple[str, int, int], SlotData],
    *,
    hidden: int,
    epochs: int,
    cap: float,
    seed: int,
    decay: float = ESTIMATOR_DECAY,
    progress: Callable[[int], None] | None = None,
) -> list[NetFit]:
    """One network per class; ``progress`` gets the epochs done over both classes."""
    from skat._core import estimator_layout

    lay = estimator_layout()
    fits = []
    for i, gc in enumerate(CLASSES):
        if not any(k[0] == gc for k in data):
            continue

        def done(e: int, i: int = i) -> None:
            if progress is not None:
                progress(i * epochs + e)

        fits.append(
            fit_class(
                data,
                gc,
                int(lay[f"{gc}_dim"]),
                int(lay["min_cards"]),
                int(lay["max_cards"]),
                deep_from=int(lay["deep_from"]),
                hidden=hidden,
                epochs=epochs,
                cap=cap,
                seed=seed + i,
                decay=decay,
                progress=done,
            )
        )
    return fits


def to_bytes(fits: list[NetFit]) -> bytes:
    """The ``SKE2`` file format the Rust core reads."""
    out = bytearray(b"SKE2")
    out += struct.pack("<I", len(fits))
    for f in sorted(fits, key=lambda f: CLASSES.index(f.game_class)):
        out += bytes([CLASSES.index(f.game_class), f.hidden, 0, 0])
        out += struct.pack("<I", f.w1.shape[0])
        out += np.asarray(f.sigma, "<f4").tobytes()
        out += struct.pack("<f", f.bias)
        out += np.asarray(f.b1, "<f4").tobytes()
        out += np.asarray(f.w2, "<f4").tobytes()
        out += np.concatenate([f.wl[:, None], f.w1], axis=1).astype("<f4").tobytes()
    return bytes(out)
