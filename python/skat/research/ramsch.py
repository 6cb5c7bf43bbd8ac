"""How well a player plays a Ramsch, against a baseline on the same cards.

Every deal is played as a Ramsch (all three pass at a ``ramsch`` table, or ``schieberamsch``
with its skat round): once with the candidate in each seat and the baseline in the other two,
and once with the baseline in all three seats. Per deal the candidate's gain is the mean over
its three seats of its score minus the baseline's score in the same seat of the all-baseline
game. Scores are Ramsch scores (negative for a loser, +120 for a Durchmarsch), so a gain
above 0 means the candidate loses fewer or smaller Ramsch than the baseline would have in its
place.

>>> r = study("rules", "random", 2, seed=1, workers=1)
>>> r["deals"], len(r["per_deal"])
(2, 2)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skat._core import Deal
from skat.match import play
from skat.parallel import run_tasks
from skat.players import make_player
from skat.seeds import deal_seed, derive_seed
from skat.tournament_results import Z95, standard_error

ALL_PASS = ("p", "p", "p")


@dataclass(frozen=True)
class _Task:
    index: int
    candidate: str
    baseline: str
    seed: int
    variants: str


def _deal(task: _Task) -> dict[str, Any]:
    deal = Deal.random(deal_seed(task.seed, task.index))
    play_seed = derive_seed(task.seed, task.index)

    def scores(specs: list[str]) -> tuple[list[int], dict[str, Any]]:
        game = play(
            [make_player(s) for s in specs],
            deal,
            seed=play_seed,
            prefix=ALL_PASS,
            variants=task.variants,
        )
        r = game.result
        assert r is not None and r.ramsch is not None
        return list(r.scores), r.ramsch

    base, _ = scores([task.baseline] * 3)
    gains, lost, durch = [], 0, 0
    for seat in range(3):
        specs = [task.baseline] * 3
        specs[seat] = task.candidate
        mine, outcome = scores(specs)
        gains.append(mine[seat] - base[seat])
        lost += seat in outcome["losers"]
        durch += outcome["durchmarsch"] == seat
    return {
        "deal": task.index,
        "gain": statistics.fmean(gains),
        "candidate_lost": lost,
        "candidate_durchmarsch": durch,
        "baseline_scores": base,
    }


def study(
    candidate: str,
    baseline: str,
    deals: int,
    seed: int,
    *,
    variants: str = "ramsch",
    workers: int | None = None,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Plays ``deals`` deals (4 games each) and returns the JSON-ready comparison."""
    tasks = [_Task(i, candidate, baseline, seed, variants) for i in range(deals)]
    rows: list[dict[str, Any]] = []
    for done, (_, row) in enumerate(run_tasks(_deal, tasks, workers=workers, ray=ray), start=1):
        rows.append(row)
        if progress is not None:
            progress(done, deals)
    rows.sort(key=lambda r: r["deal"])
    gains = [r["gain"] for r in rows]
    mean = statistics.fmean(gains)
    se = standard_error(gains)
    base_lost = sum(
        sum(1 for s in r["baseline_scores"] if s < 0) for r in rows
    )  # seats of the all-baseline games that lost
    return {
        "candidate": candidate,
        "baseline": baseline,
        "variants": variants,
        "deals": deals,
        "seed": seed,
        "gain_per_game": mean,
        "stderr": se,
        "ci95": [mean - Z95 * se, mean + Z95 * se] if se is not None else None,
        "candidate_loser_rate": sum(r["candidate_lost"] for r in rows) / (3 * deals),
        "baseline_loser_rate": base_lost / (3 * deals),
        "candidate_durchmarsch": sum(r["candidate_durchmarsch"] for r in rows),
        "per_deal": rows,
    }
