"""Recursive Monte Carlo measurements (solver thesis ch. 9): decision times of a player and
soloist scores of duplicate card-play tournaments (saturation, RK against Kermit), with plots.

- :func:`speed`: in ``games`` games (the ``bidder`` bids and declares) the player decides every
  card of the first trick at every seat, then the declarer's cards (the other seats:
  ``defenders``); seconds per decision with a choice in the first trick and later, and its
  seconds per game as declarer. Wall-clock figures: measure on a quiet machine.
- :func:`soloist`: :func:`skat.tournament.run` in ``cardplay`` mode (each deal twice: A declares
  against two B, then B against two A); the mean declarer score of each with its standard error
  over deals and the paired difference. Seeded: the same arguments give the same scores.
- :func:`plot_soloist`: soloist results as a PNG (soloist score against the first number in A's
  spec, one line per defender spec).
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

import skat
from skat.players import make_player
from skat.tournament import run


def declared_game(seed: int, bidder: str) -> skat.Game | None:
    """The deal's game up to the first card, declared by three ``bidder`` players."""
    g = skat.Game(skat.Deal.random(seed))
    players = [make_player(bidder) for _ in range(3)]
    for i, p in enumerate(players):
        p.new_game(seat=i, seed=seed)  # type: ignore[attr-defined]
    while not g.is_over and g.phase != skat.Phase.PLAY:
        seat = g.to_move
        assert seat is not None
        g.apply(players[seat].act(g.view(seat)))
    return None if g.is_over else g


def speed(spec: str, games: int, seed: int, defenders: str, bidder: str) -> dict[str, Any]:
    """Seconds per card decision with a choice of ``spec``: at every seat of the first trick,
    later as declarer; and its seconds per game as declarer (first trick included)."""
    first: list[float] = []
    later: list[float] = []
    per_game: list[float] = []
    s = seed
    while len(per_game) < games:
        g = declared_game(s, bidder)
        s += 1
        if g is None:
            continue
        declarer = g.declarer
        assert declarer is not None
        mine = {i: make_player(spec) for i in range(3)}
        others = {i: make_player(defenders) for i in range(3)}
        for i in range(3):
            mine[i].new_game(seat=i, seed=s)  # type: ignore[attr-defined]
            others[i].new_game(seat=i, seed=s)  # type: ignore[attr-defined]
        total = 0.0
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            choice = len(view.legal_actions()) > 1
            # the first trick: the player decides at every seat; later only as declarer
            player = mine[seat] if seat == declarer or len(view.played) < 3 else others[seat]
            t = time.perf_counter()
            action = player.act(view)
            dt = time.perf_counter() - t
            if player is mine[seat] and choice:
                (first if len(view.played) < 3 else later).append(dt)
                if seat == declarer:
                    total += dt
            g.apply(action)
        per_game.append(total)
    return {
        "spec": spec,
        "games": games,
        "seed": seed,
        "defenders": defenders,
        "first_trick_decisions": len(first),
        "seconds_first_trick": statistics.mean(first) if first else None,
        "seconds_later": statistics.mean(later) if later else None,
        "seconds_per_game": statistics.mean(per_game),
        "per_game": per_game,
    }


def _mean_se(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return (math.nan, math.nan)
    m = statistics.mean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan
    return (m, se)


def soloist(
    a: str,
    b: str,
    deals: int,
    seed: int,
    bidder: str,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    records: str | None = None,
) -> dict[str, Any]:
    """Declarer scores of A (against two B) and B (against two A) on the same deals; every
    game is written to the ISS file ``records`` when given (players named by their specs)."""
    r = run(
        a,
        b,
        mode="cardplay",
        deals=deals,
        seed=seed,
        bidder=bidder,
        workers=workers,
        ray=ray,
        progress=progress,
        records=records,
    )
    sa: list[float] = []
    sb: list[float] = []
    for d in r.outcomes:
        if not d.ok:
            continue
        by: dict[str, float] = {}
        for game in d.games:
            assert game.scores is not None and game.declarer is not None
            by[game.seating[game.declarer]] = game.scores[game.declarer]
        sa.append(by["A"])
        sb.append(by["B"])
    ma, ea = _mean_se(sa)
    mb, eb = _mean_se(sb)
    md, ed = _mean_se([x - y for x, y in zip(sa, sb, strict=True)])
    return {
        "a": a,
        "b": b,
        "deals": len(sa),
        "seed": seed,
        "bidder": bidder,
        "a_soloist": ma,
        "a_soloist_se": ea,
        "b_soloist": mb,
        "b_soloist_se": eb,
        "difference": md,
        "difference_se": ed,
        "a_scores": sa,
        "b_scores": sb,
        "points_per_list": {k: v.points_per_list for k, v in r.players.items()},
        "seconds": r.seconds,
    }


def plot_soloist(results: list[dict[str, Any]], out: str) -> None:
    """Soloist score of A against the first number in A's spec, one line per B (the results
    of :func:`soloist`), saved as PNG; a point without a finite standard error (a one-deal
    run) has no error bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines: dict[str, list[tuple[float, float, float]]] = {}
    for d in results:
        m = re.search(r"(\d+)", d["a"])
        x = float(m.group(1)) if m else 0.0
        se = d["a_soloist_se"]
        se = se if isinstance(se, (int, float)) and math.isfinite(se) else 0.0
        lines.setdefault(d["b"], []).append((x, d["a_soloist"], se))
    fig, ax = plt.subplots(figsize=(6, 4))
    for b, pts in sorted(lines.items()):
        pts.sort()
        ax.errorbar(
            [p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], label=b, capsize=3
        )
    ax.set_xscale("log", base=2)
    xs = sorted({p[0] for pts in lines.values() for p in pts})
    ax.set_xticks(xs, [f"{x:g}" for x in xs])
    ax.set_xlabel("soloist's worlds")
    ax.set_ylabel("mean soloist score per game (± 1 SE)")
    ax.legend(title="defenders", loc="best")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


__all__ = ["declared_game", "plot_soloist", "soloist", "speed"]
