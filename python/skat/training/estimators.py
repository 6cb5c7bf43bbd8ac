"""Learning the solver's card-point estimators (for ProbCut), solver thesis ch. 7.3.

Positions come from the Rust core (:func:`skat._core.estimator_samples`): random
start-of-trick positions of each class (suit, grand) and hand size (4..9 cards), labelled
with the exact remaining declarer points and the static bounds the search knows. One linear
model is fitted per *slot* (class, hand size, leader's role) by full-batch gradient descent
(Adam) on the squared error with the residual capped in the gradient at ``cap`` points, the
thesis's "LRbdd"; every estimate is clamped to the static bounds ("+SA") before it is scored.

Invariants: the samples depend only on the seed and the sizes (chunks of
:data:`CHUNK` positions, each with a seed derived from the run's seed, the class and the hand
size; the worker count changes nothing); the last tenth of each slot's positions (by chunk)
is held out, and the reported mean absolute error and the sigma the search uses are measured
on it only.
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from skat.parallel import run_tasks

if TYPE_CHECKING:
    from skat.training.estimator_net import NetFit

CHUNK = 5000
"""Positions per generation task."""

CLASSES = ("suit", "grand")


@dataclass
class SlotData:
    """The positions of one slot: feature indices, exact values, static bounds, held out."""

    features: np.ndarray
    value: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    test: np.ndarray


@dataclass
class SlotFit:
    """A fitted slot with its held-out scores (card points)."""

    game_class: str
    cards: int
    role: int
    bias: float
    weights: np.ndarray
    sigma: float
    mae: dict[str, float] = field(default_factory=dict)
    sd: dict[str, float] = field(default_factory=dict)
    train: int = 0
    test: int = 0


def chunk_seed(seed: int, game_class: str, cards: int, chunk: int) -> int:
    """The seed of one generation chunk."""
    h = hashlib.sha256(f"estimators/{seed}/{game_class}/{cards}/{chunk}".encode()).digest()
    return int.from_bytes(h[:8], "little")


def _first_test_chunk(chunks: int) -> int:
    """The held-out positions are the last tenth of the chunks, keeping at least one chunk for
    training (with a single chunk: the last tenth of its positions)."""
    return min(chunks - 1, int(0.9 * chunks))


def training_positions(positions: int) -> int:
    """How many of ``positions`` per class and hand size :func:`generate` keeps for training.

    >>> training_positions(400_000), training_positions(20_000), training_positions(1_000)
    (360000, 15000, 900)
    """
    chunks = -(-positions // CHUNK)
    if chunks == 1:
        return int(0.9 * positions)
    return min(positions, _first_test_chunk(chunks) * CHUNK)


def _generate(task: tuple[int, str, int, int]) -> dict[str, Any]:
    from skat._core import estimator_samples

    seed, game_class, cards, count = task
    return dict(estimator_samples(seed, count, game_class, cards))


def generate(
    positions: int,
    seed: int,
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[tuple[str, int, int], SlotData]:
    """``positions`` labelled positions per class and hand size, split by slot."""
    from skat._core import estimator_layout

    lay = estimator_layout()
    sizes = range(int(lay["min_cards"]), int(lay["max_cards"]) + 1)
    chunks = -(-positions // CHUNK)
    keys = [(gc, k, c) for gc in CLASSES for k in sizes for c in range(chunks)]
    tasks = [
        (chunk_seed(seed, gc, k, c), gc, k, min(CHUNK, positions - c * CHUNK)) for gc, k, c in keys
    ]
    results: dict[tuple[str, int, int], dict[str, Any]] = {}
    done = 0
    for i, r in run_tasks(_generate, tasks, workers=workers, ray=ray):
        results[keys[i]] = r
        done += tasks[i][3]
        if progress is not None:
            progress(done)
    out: dict[tuple[str, int, int], SlotData] = {}
    for gc in CLASSES:
        for k in sizes:
            parts = [results[(gc, k, c)] for c in range(chunks)]
            width = int(parts[0]["width"])
            feats = np.concatenate(
                [np.frombuffer(p["features"], "<u4").reshape(-1, width) for p in parts]
            )
            role = np.concatenate([np.frombuffer(p["role"], np.uint8) for p in parts])
            cols = {
                name: np.concatenate([np.frombuffer(p[name], "<i4") for p in parts])
                for name in ("value", "lo", "hi")
            }
            if chunks > 1:
                chunk_no = np.concatenate([np.full(len(p["role"]), c) for c, p in enumerate(parts)])
                test = chunk_no >= _first_test_chunk(chunks)
            else:
                test = np.arange(len(role)) >= int(0.9 * len(role))
            for who in range(3):
                m = role == who
                out[(gc, k, who)] = SlotData(
                    features=feats[m].astype(np.int64),
                    value=cols["value"][m].astype(np.float64),
                    lo=cols["lo"][m].astype(np.float64),
                    hi=cols["hi"][m].astype(np.float64),
                    test=test[m],
                )
    return out


def save_samples(
    data: dict[tuple[str, int, int], SlotData], path: str | Path, positions: int, seed: int
) -> None:
    """Keeps generated positions (an ``.npz``) so that later fits skip the labelling."""
    arrays: dict[str, np.ndarray] = {
        "meta": np.array([positions, seed], np.uint64),
    }
    for (gc, k, r), d in data.items():
        tag = f"{gc}-{k}-{r}"
        arrays[f"{tag}-features"] = d.features.astype(np.uint32)
        arrays[f"{tag}-value"] = d.value.astype(np.int16)
        arrays[f"{tag}-lo"] = d.lo.astype(np.int16)
        arrays[f"{tag}-hi"] = d.hi.astype(np.int16)
        arrays[f"{tag}-test"] = d.test
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]


def check_samples(path: str | Path, positions: int, seed: int) -> None:
    """Reads only the header of a :func:`save_samples` file; ``ValueError`` if the file is
    none (or damaged) or holds positions of other sizes or another seed."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = [int(x) for x in z["meta"]]
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path} holds no labelled positions: {e}") from e
    if meta != [positions, seed]:
        raise ValueError(
            f"{path} holds {meta[0]} positions of seed {meta[1]}, not {positions} of seed {seed}"
        )


def load_samples(
    path: str | Path, positions: int, seed: int
) -> dict[tuple[str, int, int], SlotData]:
    """The positions :func:`save_samples` kept; ``ValueError`` as :func:`check_samples`."""
    check_samples(path, positions, seed)
    with np.load(path) as z:
        out = {}
        for name in z.files:
            if not name.endswith("-features"):
                continue
            tag = name[: -len("-features")]
            gc, k, r = tag.split("-")
            out[(gc, int(k), int(r))] = SlotData(
                features=z[name].astype(np.int64),
                value=z[f"{tag}-value"].astype(np.float64),
                lo=z[f"{tag}-lo"].astype(np.float64),
                hi=z[f"{tag}-hi"].astype(np.float64),
                test=z[f"{tag}-test"].astype(bool),
            )
    return dict(sorted(out.items()))


def _predict(w: np.ndarray, b: float, f: np.ndarray) -> np.ndarray:
    out: np.ndarray = b + w[f].sum(axis=1)
    return out


def fit_slot(
    data: SlotData,
    dim: int,
    *,
    cap: float | None,
    steps: int = 600,
    rate: float = 0.05,
    l2: float = 1e-5,
) -> tuple[float, np.ndarray]:
    """Least squares (residual capped at ``cap`` in the gradient, none: plain) by Adam."""
    tr = ~data.test
    f, y = data.features[tr], data.value[tr]
    n = len(y)
    if n == 0:
        return 0.0, np.zeros(dim)
    b = float(y.mean())
    w = np.zeros(dim)
    m, v = np.zeros(dim + 1), np.zeros(dim + 1)
    flat = f.ravel()
    width = f.shape[1]
    for t in range(1, steps + 1):
        r = _predict(w, b, f) - y
        if cap is not None:
            r = np.clip(r, -cap, cap)
        gw = np.bincount(flat, weights=np.repeat(r, width), minlength=dim) / n + l2 * w
        g = np.append(gw, r.mean())
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        w -= step[:-1]
        b -= float(step[-1])
    return b, w


def score(data: SlotData, b: float, w: np.ndarray, clamp: bool) -> tuple[float, float]:
    """Held-out mean absolute error and error standard deviation."""
    te = data.test
    if not te.any():
        return float("nan"), float("nan")
    p = _predict(w, b, data.features[te])
    if clamp:
        p = np.clip(p, data.lo[te], data.hi[te])
    e = p - data.value[te]
    return float(np.abs(e).mean()), float(e.std())


def fit_all(
    data: dict[tuple[str, int, int], SlotData],
    *,
    cap: float,
    steps: int,
    progress: Callable[[int], None] | None = None,
) -> list[SlotFit]:
    """Fits every slot with held-out positions: the shipped "LRbdd+SA" model, scored beside
    plain LR and LR+SA."""
    from skat._core import estimator_layout

    lay = estimator_layout()
    fits = []
    for i, ((gc, k, r), d) in enumerate(sorted(data.items())):
        if d.test.sum() < 2 or (~d.test).sum() < 1:
            # no error estimate: the slot gets no model (ProbCut never cuts there)
            continue
        dim = int(lay[f"{gc}_dim"])
        b0, w0 = fit_slot(d, dim, cap=None, steps=steps)
        b, w = fit_slot(d, dim, cap=cap, steps=steps)
        mae: dict[str, float] = {}
        sd: dict[str, float] = {}
        mae["LR"], sd["LR"] = score(d, b0, w0, clamp=False)
        mae["LR+SA"], sd["LR+SA"] = score(d, b0, w0, clamp=True)
        mae["LRbdd+SA"], sd["LRbdd+SA"] = score(d, b, w, clamp=True)
        fits.append(
            SlotFit(
                game_class=gc,
                cards=k,
                role=r,
                bias=b,
                weights=w,
                sigma=max(sd["LRbdd+SA"], 0.5),
                mae=mae,
                sd=sd,
                train=int((~d.test).sum()),
                test=int(d.test.sum()),
            )
        )
        if progress is not None:
            progress(i + 1)
    return fits


def to_bytes(fits: list[SlotFit]) -> bytes:
    """The estimator file format the Rust core embeds (``SKE1``)."""
    out = bytearray(b"SKE1")
    out += struct.pack("<I", len(fits))
    for f in sorted(fits, key=lambda f: (CLASSES.index(f.game_class), f.cards, f.role)):
        out += bytes([CLASSES.index(f.game_class), f.cards, f.role, 0])
        out += struct.pack("<ffI", f.sigma, f.bias, len(f.weights))
        out += np.asarray(f.weights, "<f4").tobytes()
    return bytes(out)


def save(fits: list[SlotFit], path: str | Path, nets: list[NetFit] | None = None) -> None:
    """Writes the estimator file (checked by the Rust parser first): the networks if given,
    else the linear models."""
    from skat._core import check_estimators
    from skat.training import estimator_net

    data = estimator_net.to_bytes(nets) if nets else to_bytes(fits)
    check_estimators(data)
    Path(path).write_bytes(data)


def report(fits: list[SlotFit], nets: list[NetFit] | None = None) -> dict[str, Any]:
    """The Table 7.3 figures as JSON: per slot (suit first, by tricks played) the held-out
    mean absolute error and error SD of each variant (the networks' as "net+SA"); ``sigma``
    is that of the model written."""
    for net in nets or []:
        for f in fits:
            key = (f.cards, f.role)
            if f.game_class == net.game_class and key in net.mae:
                f.mae["net+SA"] = net.mae[key]
                f.sd["net+SA"] = net.sd[key]
                f.sigma = float(net.sigma[(f.cards - net.min_cards) * 3 + f.role])
    roles = ("soloist", "left defender", "right defender")
    return {
        "slots": [
            {
                "class": f.game_class,
                "cards_per_hand": f.cards,
                "tricks_played": 10 - f.cards,
                "to_move": roles[f.role],
                "train": f.train,
                "test": f.test,
                "sigma": f.sigma,
                "mae": f.mae,
                "sd": f.sd,
            }
            for f in sorted(fits, key=lambda f: (CLASSES.index(f.game_class), -f.cards, f.role))
        ]
    }
