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
>>> rows = views_of_game(g)
>>> [(r.side, r.trick) for r in rows][:2]
[('declarer', 1), ('defender', 1)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from skat._core import Game, GameType, Inference, Phase, View, sample_worlds
from skat.inference import FEATURE_VALUES, OUTCOMES


@dataclass
class TruthRow:
    """One seat's view at the start of a trick, with the truth it cannot see."""

    game_type: str
    side: str
    trick: int
    view: View
    #: the true holder of each hidden card: card bit -> 0/1/2 (seat) or 3 (skat)
    truth: dict[int, int]


def _family(gt: GameType) -> str:
    if gt == GameType.NULL:
        return "null"
    if gt == GameType.GRAND:
        return "grand"
    return "suit"


def _holders(game: Game) -> dict[int, int]:
    out: dict[int, int] = {}
    for s, h in enumerate(game.hands):
        for c in h:
            out[1 << c.index] = s
    for c in game.skat:
        out[1 << c.index] = 3
    return out


def views_of_game(game: Game) -> list[TruthRow]:
    """The three seats' views at the start of each trick of a game (replayed from its deal)."""
    replay = Game(game.deal)
    rows: list[TruthRow] = []
    seen_trick = -1

    def take() -> None:
        contract = replay.contract
        assert contract is not None
        truth_all = _holders(replay)
        for seat in range(3):
            view = replay.view(seat)
            if view.to_move is None:
                continue
            known = view.hand.bits
            if view.open_hand is not None and seat != replay.declarer:
                known |= view.open_hand.bits
            if seat == replay.declarer and replay.picked_up:
                known |= replay.skat.bits
            hidden = {b: h for b, h in truth_all.items() if not b & known}
            if not hidden:
                continue
            rows.append(
                TruthRow(
                    _family(contract.game_type),
                    "declarer" if seat == replay.declarer else "defender",
                    len(replay.tricks) + 1,
                    view,
                    hidden,
                )
            )

    for _, action in game.history:
        if replay.phase == Phase.PLAY and not replay.trick and len(replay.tricks) != seen_trick:
            seen_trick = len(replay.tricks)
            take()
        if replay.is_over:
            break
        replay.apply(action)
    if replay.phase == Phase.PLAY and not replay.trick and len(replay.tricks) != seen_trick:
        take()
    return rows


def truth_probabilities(
    row: TruthRow, inference: Inference, candidates: int, seed: int
) -> tuple[float, float, float, float] | None:
    """(weighted, uniform) mean probability of the true holder over the hidden cards and the
    two mean log-probabilities; ``None`` when every candidate has weight zero."""
    worlds = sample_worlds(row.view, candidates, seed)
    w = np.asarray(inference.weights(row.view, worlds), dtype=np.float64)
    if not w.sum() > 0:
        return None
    w = w / w.sum()
    holders = np.array(
        [[h[0].bits, h[1].bits, h[2].bits, s.bits] for h, s in worlds], dtype=np.int64
    )
    pw, pu, lw, lu = [], [], [], []
    for bit, holder in row.truth.items():
        hit = (holders[:, holder] & bit) != 0
        a = float(w[hit].sum())
        b = float(hit.mean())
        pw.append(a)
        pu.append(b)
        # floor: a truth no candidate shows counts as one candidate in the set
        lw.append(math.log(max(a, 1.0 / candidates)))
        lu.append(math.log(max(b, 1.0 / candidates)))
    n = len(pw)
    return sum(pw) / n, sum(pu) / n, sum(lw) / n, sum(lu) / n


_UNIFORM = Inference(bytes(4 * OUTCOMES * FEATURE_VALUES), None, "NI", 1)


def _iter_rows(games: Iterable[Game]) -> Iterator[TruthRow]:
    for g in games:
        if g.contract is None or g.declarer is None:
            continue
        yield from views_of_game(g)


def inference_report(
    games: Iterable[Game],
    inference: Inference,
    candidates: int = 2000,
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
        views += 1
        if r is None:
            # every candidate weighs zero: the sampler falls back to uniform worlds
            fallbacks += 1
            r = truth_probabilities(row, _UNIFORM, candidates, seed + i)
            assert r is not None
        pw, pu, lw, lu = r
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
