"""The bidding-threshold sweep: how a bidder's threshold trades games declared for games won.

For each opponent spec and each threshold ``t``, one full-game duplicate tournament (six
seatings, :func:`skat.tournament.run`) of ``PLAYER,threshold=t`` against the opponent, every
tournament over the same deals (the same ``seed``), so that the thresholds are compared on
the same cards. A row keeps the paired difference in points per list with its 95% interval,
both players' points per list, and the candidate's share of games declared and declarer win
rate: the threshold moves both, and the list score says which balance pays.

>>> with_threshold("kermit:worlds=20", 0.65)
'kermit:worlds=20,threshold=0.65'
>>> with_threshold("kermit:threshold=0.6,worlds=20", 0.7)
'kermit:threshold=0.7,worlds=20'
>>> with_threshold("kermit", 0.5)
'kermit:threshold=0.5'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from skat.players.base import with_option
from skat.tournament import run


def with_threshold(spec: str, threshold: float) -> str:
    """``spec`` with its ``threshold`` option set to ``threshold`` (added or replaced)."""
    return with_option(spec, "threshold", f"{threshold:g}")


def sweep(
    player: str,
    opponents: Sequence[str],
    thresholds: Sequence[float],
    deals: int,
    seed: int,
    *,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[str, float, int, int], None] | None = None,
) -> dict[str, Any]:
    """Runs every (opponent, threshold) tournament; returns the JSON-ready sweep.

    ``progress(opponent, threshold, done, total)`` follows each tournament's deals.
    """
    rows = []
    for opponent in opponents:
        for t in thresholds:
            spec = with_threshold(player, t)

            def step(done: int, total: int, o: str = opponent, x: float = t) -> None:
                if progress is not None:
                    progress(o, x, done, total)

            r = run(
                spec,
                opponent,
                mode="full",
                deals=deals,
                seed=seed,
                workers=workers,
                ray=ray,
                progress=step,
            )
            a, b = (r.players[label] for label in (r.a, r.b))
            rows.append(
                {
                    "opponent": opponent,
                    "threshold": t,
                    "spec": spec,
                    "difference": r.paired_difference.to_json(),
                    "player": a.to_json(),
                    "opponent_stats": b.to_json(),
                    "declared_share": a.declarer_games / a.games if a.games else None,
                    "complete": r.complete,
                    "seconds": round(r.seconds, 1),
                }
            )
    return {"player": player, "deals": deals, "seed": seed, "mode": "full", "rows": rows}


def plot_sweep(result: dict[str, Any], path: str) -> None:
    """Points per list (paired difference with 95% interval) and declarer win rate against the
    threshold, one line per opponent; saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 5))
    opponents = list(dict.fromkeys(r["opponent"] for r in result["rows"]))
    for opponent in opponents:
        rows = [r for r in result["rows"] if r["opponent"] == opponent]
        xs = [r["threshold"] for r in rows]
        ys = [r["difference"]["mean"] for r in rows]
        cis = [r["difference"]["ci95"] or (m, m) for r, m in zip(rows, ys, strict=True)]
        lo = [m - ci[0] for m, ci in zip(ys, cis, strict=True)]
        hi = [ci[1] - m for m, ci in zip(ys, cis, strict=True)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=f"against {opponent}")
        ax2.plot(
            xs,
            [r["player"]["declarer_win_rate"] for r in rows],
            "-o",
            label=f"win rate, {opponent}",
        )
        ax2.plot(
            xs, [r["declared_share"] for r in rows], "--s", label=f"games declared, {opponent}"
        )
    ax.axhline(0, color="grey", lw=1)
    ax.set_xlabel("bidding threshold")
    ax.set_ylabel("points per list, candidate minus opponent (95% interval)")
    ax.set_title(f"{result['player']}: {result['deals']} deals x 6 seatings per point")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax2.set_xlabel("bidding threshold")
    ax2.set_ylabel("share")
    ax2.set_title("declarer win rate and share of games declared")
    ax2.legend(fontsize=8)
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


__all__ = ["plot_sweep", "sweep", "with_threshold"]
