"""How far a PIMC player's win estimate can be trusted when it decides Kontra and Re.

Self-play games of ``player`` (its own doubling switched off) on a table with Kontra. At each
defender's Kontra moment (her first turn, Kontra legal) and at the declarer's first card, a
``judge`` (a PIMC player, usually with more worlds) gives its estimate: the share of sampled
worlds its side wins after its best card, as ``PimcPlayer.act`` compares it with the
``kontra`` and ``re`` thresholds. Each estimate is kept with the actual outcome and the game's
value.

Two summaries follow:

- **calibration**: estimate bins against the share actually won (PIMC at the first trick is
  optimistic for the side to move, which sees the opponents' cards spread uniformly over the
  worlds the inference allows);
- **threshold gain**: for every threshold ``t``, what doubling whenever the estimate reaches
  ``t`` would have changed, in list points per game. Kontra: the first defender (in play
  order) whose estimate reaches ``t`` doubles, and each defender gains the declarer's change
  with the sign turned: ``-v`` when the declarer wins, ``+2v`` when she loses (``v`` the game
  value). Re: the declarer's change from one more doubling of the same game, ``+v`` /
  ``-2v``, on every game her estimate reaches ``t`` (the Kontra before it is not simulated).

The games do not change with the thresholds (nobody doubles while playing), so one run
values every threshold on the same cards.

>>> gains([{"game": 0, "estimate": 0.8, "won": False, "value": 30},
...        {"game": 1, "estimate": 0.4, "won": True, "value": 20}], (0.5,), "kontra", 2)
[{'threshold': 0.5, 'decisions': 1, 'gain_per_game': 30.0}]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from skat._core import Deal, Game, Phase
from skat.match import play
from skat.parallel import run_tasks
from skat.players import make_player
from skat.players.base import with_option
from skat.players.pimc import PimcPlayer
from skat.records import actor_seat
from skat.seeds import deal_seed, derive_seed

CALIBRATION_BINS = 10
"""Estimate bins of the calibration table: [0, 0.1), ..., [0.9, 1]."""


@dataclass(frozen=True)
class _Task:
    index: int
    player: str
    judge: str
    seed: int


def _quiet(spec: str) -> str:
    """``spec`` with its own doubling off."""
    return with_option(with_option(spec, "kontra", "1.01"), "re", "1.01")


def _observe(task: _Task) -> list[dict[str, Any]]:
    """One self-play game and the judge's estimates at its doubling moments."""
    deal = Deal.random(deal_seed(task.seed, task.index))
    players = [make_player(_quiet(task.player)) for _ in range(3)]
    game = play(players, deal, seed=derive_seed(task.seed, task.index), variants="kontra")
    r = game.result
    if r is None or r.declarer is None or r.contract is None:
        return []
    judge = make_player(task.judge)
    if not isinstance(judge, PimcPlayer):
        raise TypeError(f"the judge must be a PIMC player, not {task.judge!r}")
    value = r.value if r.won else -r.value // 2
    out = []
    replay = Game(deal, variants="kontra")
    seen: set[int] = set()
    for actor, action in game.history:
        seat = replay.to_move
        if replay.phase == Phase.PLAY and seat is not None and seat not in seen:
            seen.add(seat)
            defender = seat != r.declarer
            if not defender or any(a.kind == "kontra" for a in replay.legal_actions()):
                judge.new_game(seat, derive_seed(task.seed, task.index, seat))
                decision = judge.decide(replay.view(seat))
                out.append(
                    {
                        "game": task.index,
                        "seat": seat,
                        "role": "defender" if defender else "declarer",
                        "contract": str(r.contract),
                        "estimate": max(v.win for v in decision.values),
                        "won": r.won,
                        "value": value,
                    }
                )
        replay.apply(action, actor_seat(actor))
    return out


def gains(
    rows: Sequence[dict[str, Any]], thresholds: Sequence[float], kind: str, games: int
) -> list[dict[str, Any]]:
    """Per threshold: decisions taken and the doubling side's gain in list points per game
    (``kind`` ``"kontra"``: the defenders' rows, the first of a game to reach the threshold;
    ``"re"``: the declarer's rows)."""
    out = []
    for t in thresholds:
        taken: dict[int, dict[str, Any]] = {}
        for row in rows:
            if row["estimate"] >= t and row["game"] not in taken:
                taken[row["game"]] = row
        if kind == "kontra":
            total = sum(-x["value"] if x["won"] else 2 * x["value"] for x in taken.values())
        else:
            total = sum(x["value"] if x["won"] else -2 * x["value"] for x in taken.values())
        out.append(
            {"threshold": t, "decisions": len(taken), "gain_per_game": total / max(games, 1)}
        )
    return out


def calibration(rows: Sequence[dict[str, Any]], won_by_side: bool) -> list[dict[str, Any]]:
    """Estimate bins with their count and the share the estimating side actually won."""
    bins: list[list[dict[str, Any]]] = [[] for _ in range(CALIBRATION_BINS)]
    for row in rows:
        bins[min(int(row["estimate"] * CALIBRATION_BINS), CALIBRATION_BINS - 1)].append(row)
    out = []
    for i, xs in enumerate(bins):
        won = [x["won"] == won_by_side for x in xs]
        out.append(
            {
                "from": i / CALIBRATION_BINS,
                "to": (i + 1) / CALIBRATION_BINS,
                "n": len(xs),
                "mean_estimate": sum(x["estimate"] for x in xs) / len(xs) if xs else None,
                "actual": sum(won) / len(won) if won else None,
            }
        )
    return out


def study(
    player: str,
    judge: str,
    games: int,
    seed: int,
    thresholds: Sequence[float],
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Plays ``games`` self-play games and returns the JSON-ready study (rows, calibration
    per side, threshold gains)."""
    tasks = [_Task(i, player, judge, seed) for i in range(games)]
    rows: list[dict[str, Any]] = []
    for done, (_, observed) in enumerate(
        run_tasks(_observe, tasks, workers=workers, ray=ray), start=1
    ):
        rows.extend(observed)
        if progress is not None:
            progress(done, games)
    rows.sort(key=lambda x: (x["game"], x["seat"]))
    defenders = [x for x in rows if x["role"] == "defender"]
    declarers = [x for x in rows if x["role"] == "declarer"]
    return {
        "player": player,
        "judge": judge,
        "games": games,
        "seed": seed,
        "calibration": {
            "kontra": calibration(defenders, won_by_side=False),
            "re": calibration(declarers, won_by_side=True),
        },
        "gains": {
            "kontra": gains(defenders, thresholds, "kontra", games),
            "re": gains(declarers, thresholds, "re", games),
        },
        "rows": rows,
    }


def plot_study(result: dict[str, Any], path: str) -> None:
    """Calibration of both sides' estimates and the gain per threshold, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for kind, label in (("kontra", "defenders (Kontra)"), ("re", "declarer (Re)")):
        pts = [b for b in result["calibration"][kind] if b["n"]]
        left.plot([b["mean_estimate"] for b in pts], [b["actual"] for b in pts], "o-", label=label)
        g = result["gains"][kind]
        right.plot([x["threshold"] for x in g], [x["gain_per_game"] for x in g], "o-", label=label)
    left.plot([0, 1], [0, 1], ":", color="grey")
    left.set_xlabel("PIMC estimate: share of worlds won")
    left.set_ylabel("share actually won")
    left.legend()
    right.axhline(0, color="grey", lw=0.5)
    right.set_xlabel("threshold")
    right.set_ylabel("gain of the doubling side, points per game")
    right.legend()
    fig.suptitle(f"{result['judge']} at the first trick, {result['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
