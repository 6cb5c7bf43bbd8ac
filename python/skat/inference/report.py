"""How much probability the inference sampler puts on the truth (``skat report inference``).

On played games (ISS records) the report replays each game and, at the start of every trick,
takes the view of each seat (the declarer and both defenders). It draws ``candidates`` uniform
worlds consistent with that view and weighs them by inference; for every card the seat cannot
see it measures the probability that the card is where it really is (with the other defender,
the declarer or in the skat), under the weighted candidates and under the same candidates
unweighted (uniform sampling). The means are reported per game type (suit, grand, null), side
and trick; the truth's average log-probability gain per hidden card is reported too.

>>> from skat import Deal, Game
>>> g = Game(Deal.random(4))
>>> for t in ["18", "p", "p", "s"]:
...     g.apply(t)
>>> g.apply(g.legal_actions()[0]); g.apply("G")
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> rows = views_of_game(g)              # three seats x ten tricks, middlehand declares
>>> len(rows), [(r.view.seat, r.side, r.trick) for r in rows][:3]
(30, [(0, 'defender', 1), (1, 'declarer', 1), (2, 'defender', 1)])
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from skat._core import Card, Game, Inference, Phase, View
from skat.defaults import REPORT_CANDIDATES
from skat.records import actor_seat


@dataclass
class TruthRow:
    """One seat's view at the start of a trick, with where the cards really are."""

    game_type: str
    side: str
    trick: int
    view: View
    #: the true holder of every card still in a hand or the skat: 0/1/2 (seat) or 3 (skat)
    truth: dict[Card, int]


def _holders(game: Game) -> dict[Card, int]:
    out = {c: s for s, h in enumerate(game.hands) for c in h}
    out.update((c, 3) for c in game.skat)
    return out


def views_of_game(game: Game) -> list[TruthRow]:
    """The three seats' views at the start of each trick of a game (replayed from its deal)."""
    replay = Game(game.deal, variants=game.variants)
    rows: list[TruthRow] = []
    seen_trick = -1

    def take() -> None:
        contract = replay.contract
        assert contract is not None
        truth = _holders(replay)
        for seat in range(3):
            view = replay.view(seat)
            if view.to_move is None:
                continue
            rows.append(
                TruthRow(
                    contract.game_type.class_name,
                    "declarer" if seat == replay.declarer else "defender",
                    len(replay.tricks) + 1,
                    view,
                    truth,
                )
            )

    for actor, action in game.history:
        if replay.phase == Phase.PLAY and not replay.trick and len(replay.tricks) != seen_trick:
            seen_trick = len(replay.tricks)
            take()
        if replay.is_over:
            break
        replay.apply(action, actor_seat(actor))
    if replay.phase == Phase.PLAY and not replay.trick and len(replay.tricks) != seen_trick:
        take()
    return rows


def truth_probabilities(
    row: TruthRow, inference: Inference, candidates: int, seed: int
) -> tuple[float, float, float, float, bool] | None:
    """(weighted, uniform) mean probability of the true holder over the cards the seat cannot
    see, the two mean log-probabilities, and whether every candidate weighed zero (then the
    weighted values are the uniform ones, as the sampler falls back); ``None`` when the seat
    sees every card."""
    odds, fallback = inference.holder_odds(row.view, candidates, seed)
    if not odds:
        return None
    pw = pu = lw = lu = 0.0
    floor = 1.0 / candidates  # a truth no candidate shows counts as one candidate in the set
    for card, weighted, uniform in odds:
        h = row.truth[card]
        pw += weighted[h]
        pu += uniform[h]
        lw += math.log(max(weighted[h], floor))
        lu += math.log(max(uniform[h], floor))
    n = len(odds)
    return pw / n, pu / n, lw / n, lu / n, fallback


def _iter_rows(games: Iterable[Game]) -> Iterator[TruthRow]:
    for g in games:
        if g.contract is None or g.declarer is None:
            continue
        yield from views_of_game(g)


def inference_report(
    games: Iterable[Game],
    inference: Inference,
    candidates: int = REPORT_CANDIDATES,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Mean truth probabilities per (game type, side, trick), weighted vs uniform.

    Returns ``{"rows": [...], "totals": [...], "views": n, "fallbacks": m}``; each row has
    ``game_type, side, trick, views, weighted, uniform, log_gain``.
    """
    acc: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    tot: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    views = fallbacks = 0
    for i, row in enumerate(_iter_rows(games)):
        r = truth_probabilities(row, inference, candidates, seed + i)
        if r is None:
            continue
        pw, pu, lw, lu, fallback = r
        views += 1
        fallbacks += fallback
        for cell in (
            acc[(row.game_type, row.side, row.trick)],
            tot[(row.game_type, row.side)],
        ):
            cell[0] += 1
            cell[1] += pw
            cell[2] += pu
            cell[3] += lw - lu
        if progress is not None:
            progress(views)

    def rows_of(
        table: dict[tuple[Any, ...], list[float]], keys: tuple[str, ...]
    ) -> list[dict[str, Any]]:
        out = []
        for key in sorted(table):
            n, a, b, g = table[key]
            d: dict[str, Any] = dict(zip(keys, key, strict=True))
            d.update(views=int(n), weighted=a / n, uniform=b / n, log_gain=g / n)
            out.append(d)
        return out

    return {
        "rows": rows_of(acc, ("game_type", "side", "trick")),
        "totals": rows_of(tot, ("game_type", "side")),
        "views": views,
        "fallbacks": fallbacks,
        "candidates": candidates,
        "sides": inference.sides,
    }


def plot_report(report: dict[str, Any], path: str) -> None:
    """Truth probability per trick, weighted against uniform, one panel per game type."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families = ["suit", "grand", "null"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
    for ax, fam in zip(axes, families, strict=True):
        for side, color in (("declarer", "tab:blue"), ("defender", "tab:red")):
            rows = [r for r in report["rows"] if r["game_type"] == fam and r["side"] == side]
            if not rows:
                continue
            t = [r["trick"] for r in rows]
            ax.plot(t, [r["weighted"] for r in rows], color=color, label=f"{side}: inference")
            ax.plot(t, [r["uniform"] for r in rows], color=color, ls="--", label=f"{side}: uniform")
        ax.set_title(fam)
        ax.set_xlabel("trick")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("mean probability of the true holder")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Where the hidden cards are: inference ({report['sides']}) vs uniform worlds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
