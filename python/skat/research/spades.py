"""Sturtevant and Bowling's three-player Spades experiments: Table 2 (max^n players with
correct and incorrect opponent models), Table 4 (soft-max^n with the generic model) and the
inference experiment of section 4.3.

A row pits player A against player B in all six seatings of Table 1 (:data:`ARRANGEMENTS`);
game ``k`` of every seating is dealt from the same seed ``derive_seed(seed, k)``, so the six
seatings see the same cards. A type's score in a game is the mean final score of its seats,
its win the share of the game's win held by its seats (a tie for the highest score shares the
win). Row figures are means over all games; standard errors treat the six seatings of one seed
as one sample (they share the cards). The games run in the Rust core
(:func:`skat._core.spades_game`), one game per job, over ``workers`` processes or on Ray
(``ray``, :mod:`skat.parallel`); the result does not depend on either.

>>> r = table_rows(2, ["a"], games=1, seed=3, cards=3)["a"]
>>> r["players"], r["games"], round(r["a_win"] + r["b_win"], 6)
(['mOT_MT', 'MT_mOT'], 6, 100.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from skat import defaults
from skat._core import spades_game, spades_inference
from skat.parallel import map_tasks
from skat.seeds import derive_seed

ARRANGEMENTS = ("AAB", "ABA", "ABB", "BAA", "BAB", "BBA")
"""Table 1: the six ways to seat two player types at three seats."""

TABLE2 = {
    "a": ("mOT_MT", "MT_mOT"),
    "b": ("mOT_MT", "MT_MT"),
    "c": ("mOT_mOT", "MT_mOT"),
    "d": ("mOT_mOT", "MT_MT"),
    "e": ("mOT_MT", "mOT_mOT"),
    "f": ("MT_mOT", "MT_MT"),
}
"""Table 2's rows: max^n players, KIND_MODEL (what it wants, what it assumes of opponents)."""

TABLE4 = {
    "a": ("mOT_g", "MT_mOT"),
    "b": ("mOT_g", "MT_MT"),
    "c": ("mOT_g", "mOT_MT"),
    "d": ("mOT_g", "mOT_mOT"),
}
"""Table 4's rows: soft-max^n mOT with the generic model against the four opponents."""

PAPER = {
    2: {
        "a": (248.6, 74.7, 163.8, 25.3),
        "b": (235.4, 59.0, 199.2, 41.0),
        "c": (198.2, 53.5, 191.4, 46.5),
        "d": (178.2, 44.0, 207.3, 56.0),
        "e": (212.4, 37.2, 250.8, 62.8),
        "f": (157.3, 36.0, 218.4, 64.0),
    },
    4: {
        "a": (241.7, 68.5, 178.2, 31.5),
        "b": (218.2, 53.5, 206.1, 46.5),
        "c": (242.2, 54.8, 228.7, 45.2),
        "d": (230.6, 46.0, 243.8, 54.0),
    },
}
"""The paper's figures per row: A's score and win %, B's score and win %."""

PAPER_GAIN_LOSS = {"a": (15.0, 6.8), "b": (9.5, 5.5), "c": (4.8, 8.0), "d": (8.8, 4.0)}
"""Table 4's %Gain and %Loss columns in the paper."""

KINDS = ("MT", "mOT", "ML")
"""The player types of the inference experiment."""


def reference_wins(row: str, table2: dict[str, Any]) -> tuple[float | None, float | None]:
    """Table 4 row ``row``'s mOT win % with an incorrect model and with the correct one, from
    Table 2 rows (``None`` where a needed row is missing). Against MT_mOT: rows c and a;
    against MT_MT: d and b; against mOT_MT: 50 (mOT_MT against itself) and e's B side;
    against mOT_mOT: e's A side and 50.

    >>> reference_wins("c", {"e": {"a_win": 40.0, "b_win": 60.0}})
    (50.0, 60.0)
    """

    def win(r: str, side: str = "a") -> float | None:
        if r not in table2:
            return None
        return float(table2[r][f"{side}_win"])

    pairs = {
        "a": (win("c"), win("a")),
        "b": (win("d"), win("b")),
        "c": (50.0, win("e", "b")),
        "d": (win("e"), 50.0),
    }
    return pairs[row]


def _play(job: tuple[list[str], int, int, int, int]) -> tuple[list[int], list[int], int]:
    players, seed, cards, target, max_hands = job
    g = spades_game(players, seed, cards=cards, target=target, max_hands=max_hands)
    return g.scores, g.winners, g.hands


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def table_rows(
    table: int,
    rows: Sequence[str],
    games: int,
    seed: int,
    cards: int = defaults.SPADES_CARDS,
    target: int = defaults.SPADES_TARGET,
    max_hands: int = defaults.SPADES_MAX_HANDS,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Plays ``games`` seeds x six seatings for each of ``rows`` of Table ``table`` (2 or 4)
    and returns each row's figures: ``a_score``, ``a_win``, ``b_score``, ``b_win`` (win as a
    percentage), their standard errors (``*_se``), ``games``, ``hands_per_game`` and the
    paper's figures; ``progress(1)`` after each game."""
    spec = TABLE2 if table == 2 else TABLE4
    jobs = []
    for r in rows:
        a, b = spec[r]
        for k in range(games):
            for arr in ARRANGEMENTS:
                players = [a if x == "A" else b for x in arr]
                jobs.append((players, derive_seed(seed, k), cards, target, max_hands))
    results = []
    for res in map_tasks(_play, jobs, workers=workers, ray=ray):
        results.append(res)
        if progress:
            progress(1)
    out: dict[str, dict[str, Any]] = {}
    i = 0
    for r in rows:
        a, b = spec[r]
        per_seed: dict[str, list[float]] = {"a_score": [], "a_win": [], "b_score": [], "b_win": []}
        hands = 0
        for _ in range(games):
            sums = dict.fromkeys(per_seed, 0.0)
            for arr in ARRANGEMENTS:
                scores, winners, n = results[i]
                i += 1
                hands += n
                for side, letter in (("a", "A"), ("b", "B")):
                    seats = [j for j in range(3) if arr[j] == letter]
                    sums[f"{side}_score"] += sum(scores[j] for j in seats) / len(seats)
                    share = sum(1 for w in winners if w in seats) / len(winners)
                    sums[f"{side}_win"] += 100.0 * share
            for key in per_seed:
                per_seed[key].append(sums[key] / len(ARRANGEMENTS))
        row: dict[str, Any] = {"players": [a, b], "games": games * len(ARRANGEMENTS)}
        for key, xs in per_seed.items():
            m, se = _mean_se(xs)
            row[key] = round(m, 2)
            row[f"{key}_se"] = round(se, 2) if not math.isnan(se) else None
        row["hands_per_game"] = round(hands / (games * len(ARRANGEMENTS)), 1)
        pa, pw, pb, pbw = PAPER[table][r]
        row["paper"] = {"a_score": pa, "a_win": pw, "b_score": pb, "b_win": pbw}
        out[r] = row
    return out


def add_gain_loss(rows: dict[str, dict[str, Any]], table2: dict[str, Any]) -> None:
    """Adds ``gain`` and ``loss`` to Table 4 rows (percentage points of mOT's win % over the
    incorrect-model row of Table 2, and what the correct model adds beyond it), ``None`` where
    Table 2 lacks a needed row."""
    for r, row in rows.items():
        wrong, right = reference_wins(r, table2)
        row["gain"] = None if wrong is None else round(row["a_win"] - wrong, 2)
        row["loss"] = None if right is None else round(right - row["a_win"], 2)
        row["paper"]["gain"], row["paper"]["loss"] = PAPER_GAIN_LOSS[r]


def _infer(job: tuple[str, list[str], int, int, int]) -> dict[str, Any]:
    observer, opponents, seed, hands, cards = job
    c = spades_inference(observer, opponents, seed, hands, cards=cards)
    return {
        "hands": c.hands,
        "decisions": c.decisions,
        "inferences": c.inferences,
        "ruled_out": dict(zip(KINDS, c.ruled_out, strict=True)),
        "hands_with_inference": c.hands_with_inference,
        "wrong": c.wrong,
    }


def inference(
    hands: int,
    seed: int,
    observer: str = defaults.SPADES_OBSERVER,
    cards: int = defaults.SPADES_CARDS,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Section 4.3: ``hands`` hands for each of the nine pairs of opponent kinds (each plays
    max^n assuming every player is of its own kind, ``K_K``), with ``observer`` at seat 0
    checking their decisions. Returns the totals and the counts per pair; ``wrong`` counts
    true kinds ruled out (Lemma 2 says none).

    >>> r = inference(2, seed=1, cards=3)
    >>> r["hands"], r["wrong"], sorted(r["ruled_out"])
    (18, 0, ['ML', 'MT', 'mOT'])
    """
    pairs = [(x, y) for x in KINDS for y in KINDS]
    jobs = [
        (observer, [f"{x}_{x}", f"{y}_{y}"], derive_seed(seed, i), hands, cards)
        for i, (x, y) in enumerate(pairs)
    ]
    per_pair = {}
    for (x, y), res in zip(pairs, map_tasks(_infer, jobs, workers=workers, ray=ray), strict=True):
        per_pair[f"{x}+{y}"] = res
        if progress:
            progress(1)
    total: dict[str, Any] = {
        key: sum(p[key] for p in per_pair.values())
        for key in ("hands", "decisions", "inferences", "hands_with_inference", "wrong")
    }
    total["ruled_out"] = {k: sum(p["ruled_out"][k] for p in per_pair.values()) for k in KINDS}
    total["per_pair"] = per_pair
    total["paper"] = {
        "hands": 900,
        "inferences": 423,
        "ruled_out": {"MT": 103, "mOT": 106, "ML": 51},
    }
    return total
