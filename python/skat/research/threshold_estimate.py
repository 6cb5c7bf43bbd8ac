"""How many auctions the bidding-threshold estimate needs (the Kermit thesis's section 8.3,
Fig. 8.2): three players of known thresholds bid deal after deal, and after every few
auctions each one's threshold is estimated from its auctions alone
(:mod:`skat.analysis.thresholds`: the threshold of least hinge loss over its inequalities).

Deal j (``Deal.random(deal_seed(seed, j))``) is bid to the end of the auction, the skat and the
declaration (no card is played: the estimate reads auctions only), with the three players
rotated so that each sits in every seat. A player that bids by one threshold (``kermit``, and
the players built on it such as ``mistake``, whose ``unopposed`` value is none or the threshold
itself) has a known truth; for the others (``rules``, or a ``kermit`` that opens on a different
value, or one whose threshold follows an opponent model such as ``tracker``) the study
reports the estimate only. ``games_within`` is the smallest number of auctions
from which every later checkpoint's estimate lies within ``tol`` of the truth.

>>> specs = ["kermit:threshold=0.5,worlds=1", "kermit:threshold=0.7,unopposed=none,worlds=1"]
>>> r = study([*specs, "rules"], auctions=30, seed=1, checkpoints=[10, 30])
>>> [p["truth"] for p in r["players"]]
[0.5, 0.7, None]
>>> [c["auctions"] for c in r["players"][0]["checkpoints"]]
[10, 30]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from skat._core import ArgumentError, Deal, Phase
from skat.analysis.thresholds import ThresholdEstimate, bidding_points
from skat.match import play
from skat.players import make_player
from skat.seeds import deal_seed, derive_seed

__all__ = ["checkpoints_for", "estimate", "study"]


def estimate(bids: Sequence[float], passes: Sequence[float]) -> float | None:
    """The threshold of least hinge loss of these inequalities
    (:meth:`skat.analysis.thresholds.ThresholdEstimate.estimate`)."""
    return ThresholdEstimate(list(bids), list(passes)).estimate()


def checkpoints_for(auctions: int) -> list[int]:
    """10, 20, 50, 100, 200, 500, ... up to ``auctions`` (always included)."""
    out, base = [], 10
    while base <= auctions:
        for m in (1, 2, 5):
            if m * base <= auctions:
                out.append(m * base)
        base *= 10
    if not out or out[-1] != auctions:
        out.append(auctions)
    return sorted(set(out))


def _truth(spec: str) -> float | None:
    """The win-probability threshold ``spec`` bids by in every auction, if it says it has one
    (``single_threshold``: the kermit family; ``knn``'s ``threshold`` is in card points)."""
    truth = getattr(make_player(spec), "single_threshold", None)
    return None if truth is None else float(truth)


def study(
    specs: Sequence[str],
    auctions: int,
    seed: int,
    *,
    tol: float = 0.02,
    checkpoints: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Bids ``auctions`` deals with the three distinct ``specs`` and returns, per player, its
    truth, its estimate at each checkpoint and ``games_within`` (JSON-ready)."""
    if len(specs) != 3 or len(set(specs)) != 3:
        raise ArgumentError("three distinct player specs are needed")
    marks = sorted(set(checkpoints or checkpoints_for(auctions)))
    players = [make_player(s) for s in specs]
    ineq: dict[str, tuple[list[float], list[float]]] = {s: ([], []) for s in specs}
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in specs}
    for j in range(auctions):
        order = [specs[(k + j) % 3] for k in range(3)]
        seated = [players[specs.index(s)] for s in order]
        game = play(
            seated, Deal.random(deal_seed(seed, j)), seed=derive_seed(seed, j), until=Phase.PLAY
        )
        for seat, bid, p in bidding_points(game):
            ineq[order[seat]][0 if bid else 1].append(p)
        if j + 1 in marks:
            for s in specs:
                rows[s].append(
                    {
                        "auctions": j + 1,
                        "estimate": estimate(*ineq[s]),
                        "bids": len(ineq[s][0]),
                        "passes": len(ineq[s][1]),
                    }
                )
        if progress is not None:
            progress(j + 1, auctions)
    out = []
    for s in specs:
        truth = _truth(s)
        within = None
        if truth is not None:
            for k, row in enumerate(rows[s]):
                later = rows[s][k:]
                if all(
                    r["estimate"] is not None and abs(r["estimate"] - truth) <= tol + 1e-12
                    for r in later
                ):
                    within = row["auctions"]
                    break
        out.append({"spec": s, "truth": truth, "games_within": within, "checkpoints": rows[s]})
    return {"auctions": auctions, "seed": seed, "tol": tol, "players": out}


def plot_convergence(result: dict[str, Any], path: str) -> None:
    """Writes a PNG: each player's estimate against the number of auctions, truths dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for p in result["players"]:
        xs = [c["auctions"] for c in p["checkpoints"] if c["estimate"] is not None]
        ys = [c["estimate"] for c in p["checkpoints"] if c["estimate"] is not None]
        (line,) = ax.plot(xs, ys, marker="o", label=p["spec"])
        if p["truth"] is not None:
            ax.axhline(p["truth"], color=line.get_color(), linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("auctions")
    ax.set_ylabel("estimated threshold (least hinge loss)")
    ax.set_title(f"bidding-threshold estimate, seed {result['seed']} (truths dashed)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
