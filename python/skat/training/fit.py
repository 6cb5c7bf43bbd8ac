"""Fitting the 10+2 evaluation to played games (generated or human ISS records).

The procedure (decisions where the thesis is silent are marked *ours*):

1. **Samples.** Each complete game with a declarer gives one sample: contract kind, the
   declarer's position (0 forehand), her ten playing cards and the two others (discard, or the
   skat in a hand game), and the outcomes: won (61+ card points; null: no trick taken; judged
   on the cards, ignoring overbids, so that a game's value does not leak into its chances),
   schneider (90+), schwarz (all tricks). Games ended early (claims, resignations) count with
   the server's verdict and add no trick data.
2. **Trick tables** (suit and grand, Kermit's sidePoints/sideTricks/trumpPoints/trumpTricks):
   every trick is charged to the suit that was *led* (*ours*: the thesis charges "tricks
   containing" a suit); the declarer's net card points (+ won, - lost) and net tricks in the
   tricks led in side suit ``x`` are credited to the cell of ``x``'s configuration, those led
   in trumps to the trump cell. A cell's value is its mean per game, shrunk towards a ridge
   regression prior on the cell's description (cards held, cards put away, length, context;
   trump cells: cards held, trump count, targets, vulnerable cards) with weight ``k`` games
   (*ours*: Kermit's unobserved cells kept a default value, a documented weakness).
3. **Logistic regression** per family and target (win, schneider, schwarz) on the summed side
   values, the trump values, the discard's points and the position, by Newton's method with a
   small ridge penalty. The table features are computed *out of fold* (two folds) so that the
   regression does not learn from tables that have seen the same game.
4. **Null tables**: for every null game and suit, the configuration (cards held in null order)
   is charged with a failure when the declarer's first trick was taken with a card of that suit
   (*ours*: Kermit's "entry = win probability if this suit is the only weakness"). ``T[c] = 1 -
   failures/games``, shrunk towards the mean of configurations with the same length, lowest
   card and safety pattern; null ouvert is shrunk towards the null table. The hand's
   ``Σ log T`` is calibrated by a logistic regression with the position terms (out of fold).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from skat._core import Cards, Game, GameType, SkatError, bidding_indices
from skat.bidding.model import BiddingModel, kind_index

SUIT_SIDE = (2, 128, 128)
SUIT_TRUMP = (2048, 4, 3)
GRAND_SIDE = (4, 128, 128)
GRAND_TRUMP = (16, 2, 5, 5)
#: prior weight (in games) of the cell priors
SHRINK = 10.0
T = TypeVar("T")
RIDGE = 1e-3


@dataclass
class Sample:
    """One declared game, reduced to what the evaluation learns from."""

    kind: int
    seat: int
    hand: int
    discard: int
    won: bool
    schneider: bool
    schwarz: bool
    #: trick data: net points and tricks per led suit index (0-3) and for trumps (key 4)
    points: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    #: null: suit of the declarer's card in her first trick (None: no trick or no data)
    null_fail: int | None = None
    played_out: bool = True


def sample_from_game(game: Game) -> Sample | None:
    """The sample of a finished game, or None (passed, no declaration, no result)."""
    r = game.result
    if r is None or r.declarer is None or game.contract is None or r.passed:
        return None
    kind = kind_index(game.contract)
    d = r.declarer
    view = game.view(d)
    start = game.deal.hands[d]
    if game.picked_up:
        discard = view.discard
        if discard is None:
            return None
        hand = (start | game.deal.skat) - discard
    else:
        discard = game.deal.skat
        hand = start
    tricks = game.tricks
    played_out = len(tricks) == 10
    gt = game.contract.game_type
    s = Sample(
        kind=kind,
        seat=d,
        hand=hand.bits,
        discard=discard.bits,
        won=False,
        schneider=False,
        schwarz=False,
        played_out=played_out,
    )
    if gt == GameType.NULL:
        s.won = bool(r.won) if not played_out else r.declarer_tricks == 0
        for leader, cards, winner in tricks:
            if winner == d:
                s.null_fail = int(cards[(d - leader) % 3].suit)
                break
        return s
    if played_out:
        s.won = r.declarer_points >= 61
        s.schneider = r.declarer_points >= 90
        s.schwarz = r.declarer_tricks == 10
    else:
        s.won = bool(r.won) or (r.overbid and r.declarer_points >= 61)
        s.schneider = s.won and r.declarer_points >= 90
        s.schwarz = s.won and r.declarer_tricks == 10
    trumps = gt.trumps()
    for _, cards, winner in tricks:
        lead = cards[0]
        key = 4 if lead in trumps else int(lead.suit)
        sign = 1 if winner == d else -1
        s.points[key] = s.points.get(key, 0) + sign * sum(c.points for c in cards)
        s.tricks[key] = s.tricks.get(key, 0) + sign
    return s


def samples_with_records(
    lines: Iterable[str], on_error: Callable[[str, Exception], None] | None = None
) -> list[tuple[Sample, str]]:
    """Samples of ISS record lines with their lines; unreadable records go to ``on_error``
    (or are skipped), records without a declared game are left out."""
    out = []
    for line in lines:
        try:
            game = Game.from_iss(line)
        except SkatError as e:
            if on_error:
                on_error(line, e)
            continue
        s = sample_from_game(game)
        if s is not None:
            out.append((s, line))
    return out


def samples_from_records(
    lines: Iterable[str], on_error: Callable[[str, Exception], None] | None = None
) -> list[Sample]:
    """Samples of ISS record lines (see :func:`samples_with_records`)."""
    return [s for s, _ in samples_with_records(lines, on_error)]


# ----- trick tables ------------------------------------------------------------------------


def _ridge(x: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float = 1.0) -> np.ndarray:
    xw = x * w[:, None]
    a = x.T @ xw + lam * np.eye(x.shape[1])
    return np.asarray(np.linalg.solve(a, xw.T @ y))


def _bits(values: np.ndarray, n: int) -> np.ndarray:
    out: np.ndarray = ((values[:, None] >> np.arange(n)) & 1).astype(np.float64)
    return out


def _onehot(values: np.ndarray, n: int) -> np.ndarray:
    out: np.ndarray = (values[:, None] == np.arange(n)).astype(np.float64)
    return out


def _side_design(contexts: int) -> np.ndarray:
    """Descriptors of every side cell (context, s7, h7) in flat order."""
    grid = np.meshgrid(np.arange(contexts), np.arange(128), np.arange(128), indexing="ij")
    c, s, h = (g.ravel() for g in grid)
    length = np.array([bin(v).count("1") for v in range(128)])[h]
    return np.hstack(
        [np.ones((c.size, 1)), _onehot(c, contexts), _bits(h, 7), _bits(s, 7), _onehot(length, 8)]
    )


def _suit_trump_design() -> np.ndarray:
    cell = np.arange(2048 * 12)
    pattern, tt, vt = cell // 12, (cell // 3) % 4, cell % 3
    count = np.array([bin(v).count("1") for v in range(2048)])[pattern]
    return np.hstack(
        [
            np.ones((cell.size, 1)),
            _bits(pattern, 11),
            _onehot(count, 12),
            _onehot(tt, 4),
            _onehot(vt, 3),
        ]
    )


def _grand_trump_design() -> np.ndarray:
    cell = np.arange(16 * 2 * 5 * 5)
    jacks, fh, tt, vt = cell // 50, (cell // 25) % 2, (cell // 5) % 5, cell % 5
    count = np.array([bin(v).count("1") for v in range(16)])[jacks]
    return np.hstack(
        [
            np.ones((cell.size, 1)),
            _bits(jacks, 4),
            fh[:, None].astype(np.float64),
            _onehot(count, 5),
            _onehot(tt, 5),
            _onehot(vt, 5),
        ]
    )


_DESIGNS: dict[str, np.ndarray] = {}


def _design(name: str) -> np.ndarray:
    if name not in _DESIGNS:
        _DESIGNS[name] = {
            "suit_side": lambda: _side_design(2),
            "grand_side": lambda: _side_design(4),
            "suit_trump": _suit_trump_design,
            "grand_trump": _grand_trump_design,
        }[name]()
    return _DESIGNS[name]


def _smoothed_table(name: str, cells: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per-cell means of ``values`` (n x 2: points, tricks) shrunk towards a ridge prior."""
    x = _design(name)
    ncell = x.shape[0]
    out = np.zeros((ncell, 2))
    if cells.size == 0:
        return out
    counts = np.bincount(cells, minlength=ncell).astype(np.float64)
    sums = np.stack([np.bincount(cells, values[:, j], minlength=ncell) for j in range(2)], 1)
    seen = counts > 0
    means = sums[seen] / counts[seen, None]
    prior = x @ _ridge(x[seen], means, counts[seen])
    smoothed: np.ndarray = (sums + SHRINK * prior) / (counts + SHRINK)[:, None]
    return smoothed


@dataclass
class _TrumpRows:
    """Per-game table cells of one family (suit or grand)."""

    side_cells: list[list[int]]
    side_values: list[list[tuple[int, int]]]
    trump_cells: list[int]
    trump_values: list[tuple[int, int]]
    discard_points: list[int]
    seats: list[int]
    targets: list[tuple[bool, bool, bool]]
    played_out: list[bool]


def _trump_rows(samples: Sequence[Sample]) -> _TrumpRows:
    rows = _TrumpRows([], [], [], [], [], [], [], [])
    for s in samples:
        ctx, sides, trump, dpts = bidding_indices(
            Cards.from_bits(s.hand), Cards.from_bits(s.discard), s.kind, s.seat
        )
        rows.side_cells.append([(ctx * 128 + sx) * 128 + hx for _, sx, hx in sides])
        rows.side_values.append([(s.points.get(x, 0), s.tricks.get(x, 0)) for x, _, _ in sides])
        rows.trump_cells.append(trump)
        rows.trump_values.append((s.points.get(4, 0), s.tricks.get(4, 0)))
        rows.discard_points.append(dpts)
        rows.seats.append(s.seat)
        rows.targets.append((s.won, s.schneider, s.schwarz))
        rows.played_out.append(s.played_out)
    return rows


def _tables(rows: _TrumpRows, idx: np.ndarray, family: str) -> tuple[np.ndarray, np.ndarray]:
    side_c, side_v, trump_c, trump_v = [], [], [], []
    for i in idx:
        if not rows.played_out[i]:
            continue
        side_c.extend(rows.side_cells[i])
        side_v.extend(rows.side_values[i])
        trump_c.append(rows.trump_cells[i])
        trump_v.append(rows.trump_values[i])
    side = _smoothed_table(
        f"{family}_side",
        np.asarray(side_c, dtype=np.int64),
        np.asarray(side_v, np.float64).reshape(-1, 2),
    )
    trump = _smoothed_table(
        f"{family}_trump",
        np.asarray(trump_c, dtype=np.int64),
        np.asarray(trump_v, np.float64).reshape(-1, 2),
    )
    return side, trump


def _features(rows: _TrumpRows, idx: np.ndarray, side: np.ndarray, trump: np.ndarray) -> np.ndarray:
    f = np.zeros((idx.size, 7))
    for r, i in enumerate(idx):
        sv = side[rows.side_cells[i]].sum(axis=0)
        tv = trump[rows.trump_cells[i]]
        seat = rows.seats[i]
        f[r] = (sv[0], sv[1], tv[0], tv[1], rows.discard_points[i], seat == 1, seat == 2)
    return f


def logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE, iters: int = 50) -> np.ndarray:
    """Weights (bias first) of a ridge-penalised logistic regression, by Newton's method."""
    xb = np.hstack([np.ones((x.shape[0], 1)), x])
    scale = np.maximum(np.abs(xb).max(axis=0), 1e-9)
    xs = xb / scale
    w = np.zeros(xs.shape[1])
    pen = ridge * np.ones_like(w)
    pen[0] = 0.0
    for _ in range(iters):
        z = np.clip(xs @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        g = xs.T @ (p - y) + pen * w
        h = (xs * (p * (1 - p))[:, None]).T @ xs + np.diag(pen + 1e-9)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return np.asarray(w / scale)


def _folds(n: int, k: int = 2) -> list[np.ndarray]:
    return [np.arange(f, n, k) for f in range(k)]


FIT_MIN_GAMES = 20
"""The fewest declared games of a family (suit, grand, null) its fit needs."""


def _too_few(family: str, n: int) -> str:
    return (
        f"too few {family} games to fit ({n}, at least {FIT_MIN_GAMES} needed); give more"
        " games, e.g. training contracts (skat train bidding --games N, which covers every"
        " family)"
    )


def _fit_family(
    samples: Sequence[Sample], family: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    rows = _trump_rows(samples)
    n = len(samples)
    if n < FIT_MIN_GAMES:
        raise SkatError(_too_few(family, n))
    feats = np.zeros((n, 7))
    for fold in _folds(n):
        rest = np.setdiff1d(np.arange(n), fold)
        side, trump = _tables(rows, rest, family)
        feats[fold] = _features(rows, fold, side, trump)
    y = np.asarray(rows.targets, dtype=np.float64)
    weights = np.zeros((3, 8))
    for t in range(3):
        if 0 < y[:, t].sum() < n:
            weights[t] = logistic_fit(feats, y[:, t])
        else:  # a target never (or always) reached: a constant far from 0.5
            weights[t, 0] = 8.0 if y[:, t].sum() == n else -8.0
    side, trump = _tables(rows, np.arange(n), family)
    z = np.hstack([np.ones((n, 1)), feats]) @ weights[0]
    p = 1 / (1 + np.exp(-z))
    info = {
        "games": n,
        "win_rate": float(y[:, 0].mean()),
        "brier_oof": float(np.mean((p - y[:, 0]) ** 2)),
    }
    return side, trump, weights, info


# ----- null --------------------------------------------------------------------------------


def _null_group(config: int) -> tuple[int, int, int]:
    ranks = [r for r in range(8) if config >> r & 1]
    if not ranks:
        return (0, 0, 1)
    safe = int(all(r <= 2 * i for i, r in enumerate(ranks)))
    return (len(ranks), ranks[0], safe)


def _null_failures(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    games = np.zeros(256)
    fails = np.zeros(256)
    for s in samples:
        for suit in range(4):
            c = (s.hand >> (8 * suit)) & 0xFF
            games[c] += 1
            if s.null_fail == suit:
                fails[c] += 1
    return games, fails


def _null_table(samples: Sequence[Sample], prior_fail: np.ndarray | None) -> np.ndarray:
    games, fails = _null_failures(samples)
    if prior_fail is None:
        total = (fails.sum() + 1) / (games.sum() + 2)
        groups: dict[tuple[int, int, int], list[int]] = {}
        for c in range(256):
            groups.setdefault(_null_group(c), []).append(c)
        prior_fail = np.zeros(256)
        for cs in groups.values():
            g, f = games[cs].sum(), fails[cs].sum()
            prior_fail[cs] = (f + SHRINK * total) / (g + SHRINK)
    rate = (fails + SHRINK * prior_fail) / (games + SHRINK)
    return np.asarray(np.clip(rate, 1e-4, 0.99))


def _null_fit(
    samples: Sequence[Sample], prior: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    n = len(samples)
    if n < FIT_MIN_GAMES:
        raise SkatError(_too_few("null", n))
    x = np.zeros((n, 3))
    for fold in _folds(n):
        rest = [samples[i] for i in np.setdiff1d(np.arange(n), fold)]
        rate = _null_table(rest, prior)
        logt = np.log1p(-rate)
        for i in fold:
            s = samples[i]
            x[i, 0] = sum(logt[(s.hand >> (8 * k)) & 0xFF] for k in range(4))
            x[i, 1:] = (s.seat == 1, s.seat == 2)
    y = np.asarray([s.won for s in samples], dtype=np.float64)
    w = logistic_fit(x, y)
    rate = _null_table(samples, prior)
    z = np.hstack([np.ones((n, 1)), x]) @ w
    p = 1 / (1 + np.exp(-z))
    info = {"games": n, "win_rate": float(y.mean()), "brier_oof": float(np.mean((p - y) ** 2))}
    # null_cal layout: a, b, middlehand, rearhand
    return rate, np.array([w[0], w[1], w[2], w[3]]), info


def fit(samples: Sequence[Sample], note: dict[str, Any] | None = None) -> BiddingModel:
    """Fits every table and weight to ``samples``; ``note`` is stored in the model's meta."""
    by_family: dict[str, list[Sample]] = {"suit": [], "grand": [], "null": [], "ouvert": []}
    for s in samples:
        key = (
            "suit"
            if s.kind < 4
            else "grand"
            if s.kind == 4
            else "null"
            if s.kind == 5
            else "ouvert"
        )
        by_family[key].append(s)
    arrays: dict[str, np.ndarray] = {}
    info: dict[str, Any] = {}
    for family in ("suit", "grand"):
        side, trump, weights, inf = _fit_family(by_family[family], family)
        arrays[f"{family}_side"] = side.reshape(-1)
        arrays[f"{family}_trump"] = trump.reshape(-1)
        arrays[f"{family}_weights"] = weights.reshape(-1)
        info[family] = inf
    rate_n, cal_n, info["null"] = _null_fit(by_family["null"], None)
    rate_o, cal_o, info["null_ouvert"] = _null_fit(by_family["ouvert"], rate_n)
    arrays["null_log"] = np.log1p(-np.concatenate([rate_n, rate_o]))
    arrays["null_cal"] = np.concatenate([cal_n, cal_o])
    meta = {
        "created": datetime.date.today().isoformat(),
        "samples": len(samples),
        "fit": info,
        "shrink": SHRINK,
        "ridge": RIDGE,
        **(note or {}),
    }
    return BiddingModel(arrays, meta)


def split(items: Sequence[T], held_out: float, seed: int) -> tuple[list[T], list[T]]:
    """A seeded split into training and held-out items (samples, or samples with records)."""
    rng = np.random.default_rng(seed)
    mask = rng.random(len(items)) < held_out
    train = [s for s, m in zip(items, mask, strict=True) if not m]
    test = [s for s, m in zip(items, mask, strict=True) if m]
    return train, test


__all__ = [
    "Sample",
    "fit",
    "logistic_fit",
    "sample_from_game",
    "samples_from_records",
    "samples_with_records",
    "split",
]
