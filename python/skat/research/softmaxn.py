"""How well the ``softmaxn`` player's inference tells the other seats' kinds apart.

Each game is played whole (auction included) by an observer, the ``softmaxn`` player with
inference, in seat ``game mod 3``, and two opponents of one known line-up: ``softmaxn``
players that do not infer, whose own kinds (``declarer=...``, ``defender=...``) are the truth.
After the game, the observer's last soft-max^n decision says which kinds it had ruled out for
each opponent. Per line-up, per role (declarer, defender) and candidate kind this counts the
opponent-games in which the kind was ruled out: ruling out the opponent's true kind is an
error of the (heuristic) inference, ruling out the other one is what it is for.

The opponents play their kinds only in the endgame; before it they are ``kermit``, so only
endgame cards can tell them apart, as the observer's inference only looks at those.

>>> r = study("softmaxn:worlds=2,soft_worlds=2,endgame=3,candidates=50,threads=1",
...           ["softmaxn:defender=greedy,infer=false,worlds=2,soft_worlds=2,endgame=3,"
...            "candidates=50,threads=1"], 2, seed=1, workers=1)
>>> [sorted(r["lineups"][0]["true"].items())]
[[('declarer', 'win'), ('defender', 'greedy')]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skat._core import ArgumentError, Deal
from skat.match import play
from skat.parallel import run_tasks
from skat.players import SoftmaxnPlayer, make_player
from skat.players.softmaxn import DECLARER_KINDS
from skat.seeds import deal_seed, derive_seed

__all__ = ["study", "true_kinds"]

CANDIDATES = {"declarer": ("win", "points"), "defender": ("min", "greedy")}
"""The kinds the observer's inference chooses among, by role."""


def true_kinds(spec: str) -> dict[str, str]:
    """The kinds a ``softmaxn`` opponent plays as declarer and defender (an ``ArgumentError``
    for any other player, or one that infers: its kind must be known)."""
    p = make_player(spec)
    if not isinstance(p, SoftmaxnPlayer) or p.infer:
        raise ArgumentError(f"opponents must be softmaxn players with infer=false, got {spec!r}")
    if p.declarer not in DECLARER_KINDS or p.defender not in CANDIDATES["defender"]:
        raise ArgumentError(f"opponent {spec!r}: its defender kind must be min or greedy")
    return {"declarer": p.declarer, "defender": p.defender}


@dataclass(frozen=True)
class _Task:
    index: int
    observer: str
    opponents: str
    seed: int


def _game(task: _Task) -> dict[str, Any]:
    deal = Deal.random(deal_seed(task.seed, task.index))
    seat = task.index % 3
    observer = make_player(task.observer)
    assert isinstance(observer, SoftmaxnPlayer)
    players = [observer if s == seat else make_player(task.opponents) for s in range(3)]
    game = play(players, deal, seed=derive_seed(task.seed, task.index))
    view = game.view(seat)
    out: dict[str, Any] = {"game": task.index, "opponents": []}
    decision = observer.last_soft
    if decision is None or view.declarer is None:
        return out
    for other in range(3):
        if other == seat:
            continue
        role = "declarer" if other == view.declarer else "defender"
        ruled = sorted(k for s, k in decision["ruled_out"] if s == other)
        out["opponents"].append({"seat": other, "role": role, "ruled_out": ruled})
    return out


def study(
    observer: str,
    lineups: list[str],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Plays ``games`` games against each line-up and returns the JSON-ready counts."""
    truths = [true_kinds(spec) for spec in lineups]
    tasks = [_Task(i, observer, spec, seed) for spec in lineups for i in range(games)]
    rows: list[tuple[int, dict[str, Any]]] = []
    for done, (k, row) in enumerate(run_tasks(_game, tasks, workers=workers, ray=ray), start=1):
        rows.append((k, row))
        if progress is not None:
            progress(done, len(tasks))
    rows.sort(key=lambda r: r[0])
    result: dict[str, Any] = {"observer": observer, "games": games, "seed": seed, "lineups": []}
    for n, (spec, truth) in enumerate(zip(lineups, truths, strict=True)):
        mine = [row for k, row in rows if k // games == n]
        counts: dict[str, Any] = {}
        for role, kinds in CANDIDATES.items():
            seen = [o for row in mine for o in row["opponents"] if o["role"] == role]
            counts[role] = {
                "opponent_games": len(seen),
                "true_kind": truth[role],
                "ruled_out": {k: sum(k in o["ruled_out"] for o in seen) for k in kinds},
            }
        result["lineups"].append({"opponents": spec, "true": truth, "counts": counts})
    return result
