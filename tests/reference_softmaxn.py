"""A slow, independent soft-max^n for Skat endgames, to cross-check ``softmaxn_decide``.

Written from the definitions in ``docs/softmaxn.md`` only: outcomes (declarer points,
declarer tricks, left defender's points), the kinds' strict preferences, models as the
intersection of kinds, sets backed up as the union of the children's sets that no sibling's
set strictly dominates, and a card's value as the mean of the decider's utility over its set,
averaged over the worlds. No transposition table, no shared code with the engine beyond the
card rules (``legal_cards``, ``trick_winner``) and the win threshold.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from skat._core import Card, Cards, View, legal_cards, sample_worlds, trick_winner, win_threshold

LEVEL_SCORE = (-150.0, -130.0, -110.0, 80.0, 90.0, 100.0)

Outcome = tuple[int, int, int]
Hands = tuple[frozenset[Card], ...]


class Judge:
    """Preferences and utilities of one game: declarer seat and win threshold."""

    def __init__(self, declarer: int, need: int) -> None:
        self.declarer = declarer
        self.left = (declarer + 1) % 3
        self.need = need

    def won(self, o: Outcome) -> bool:
        d, t, _ = o
        return t == 10 if self.need >= 120 else d >= self.need

    def level(self, o: Outcome) -> int:
        d, t, _ = o
        if self.won(o):
            return 5 if t == 10 else 4 if d >= 90 else 3
        return 0 if t == 0 else 1 if d <= 30 else 2

    def own(self, seat: int, o: Outcome) -> int:
        d, _, a = o
        return d if seat == self.declarer else a if seat == self.left else 120 - d - a

    def prefers(self, kind: str, seat: int, u: Outcome, v: Outcome) -> bool:
        if kind == "win":
            return self.level(u) > self.level(v)
        if kind == "team":
            return self.level(u) < self.level(v)
        if kind == "points":
            return (u[0], u[1]) > (v[0], v[1])
        if kind == "min":
            return (u[0], u[1]) < (v[0], v[1])
        assert kind == "greedy"
        return self.own(seat, u) > self.own(seat, v)

    def utility(self, kind: str, seat: int, o: Outcome) -> float:
        d, t, _ = o
        if kind == "win":
            return LEVEL_SCORE[self.level(o)] + d / 1000
        if kind == "team":
            return -LEVEL_SCORE[self.level(o)] - d / 1000
        if kind == "points":
            return d + t / 1000
        if kind == "min":
            return -d - t / 1000
        return float(self.own(seat, o))


def card_values(
    view: View, worlds: int, seed: int, kind: str, models: Mapping[int, tuple[str, ...]]
) -> dict[Card, float]:
    """Each legal card's mean utility for ``view.seat`` of ``kind``, the other seats modelled
    by the intersection of ``models[seat]``, over the same worlds the engine samples."""
    kinds = dict(models)
    kinds[view.seat] = (kind,)
    sums: dict[Card, float] = {}
    sampled = sample_worlds(view, worlds, seed)
    for hands, skat in sampled:
        for card, v in world_values(view, hands, skat, kind, kinds).items():
            sums[card] = sums.get(card, 0.0) + v
    return {c: v / len(sampled) for c, v in sums.items()}


def world_values(
    view: View,
    hands: tuple[Cards, Cards, Cards],
    skat: Cards,
    kind: str,
    kinds: Mapping[int, tuple[str, ...]],
) -> dict[Card, float]:
    """Each legal card's mean utility over its soft-max^n set in one world."""
    assert view.contract is not None and view.declarer is not None
    gt = view.contract.game_type
    declarer = view.declarer
    twelve = [*hands[declarer], *skat] + [c for p, c in view.plays if p == declarer]
    judge = Judge(declarer, win_threshold(view.contract, view.bid, Cards(twelve)))
    won = [(w, sum(c.points for c in cards)) for _, cards, w in view.tricks]
    start = (
        skat.points + sum(p for w, p in won if w == declarer),
        sum(1 for w, _ in won if w == declarer),
        sum(p for w, p in won if w == judge.left),
    )

    def prefers(seat: int, u: Outcome, v: Outcome) -> bool:
        return all(judge.prefers(k, seat, u, v) for k in kinds[seat])

    def dominated(seat: int, x: frozenset[Outcome], y: frozenset[Outcome]) -> bool:
        return all(prefers(seat, u, v) for u in y for v in x)

    def moves(hs: Hands, trick: tuple[Card, ...], leader: int) -> list[Card]:
        mover = (leader + len(trick)) % 3
        return sorted(legal_cards(gt, Cards(list(hs[mover])), trick[0] if trick else None))

    @cache
    def value(hs: Hands, trick: tuple[Card, ...], leader: int, o: Outcome) -> frozenset[Outcome]:
        if not any(hs) and not trick:
            return frozenset([o])
        children = [child(hs, trick, leader, o, c) for c in moves(hs, trick, leader)]
        mover = (leader + len(trick)) % 3
        keep = [
            x
            for i, x in enumerate(children)
            if not any(j != i and dominated(mover, x, y) for j, y in enumerate(children))
        ]
        return frozenset().union(*keep)

    def child(
        hs: Hands, trick: tuple[Card, ...], leader: int, o: Outcome, c: Card
    ) -> frozenset[Outcome]:
        mover = (leader + len(trick)) % 3
        nh = tuple(h - {c} if i == mover else h for i, h in enumerate(hs))
        t = (*trick, c)
        if len(t) < 3:
            return value(nh, t, leader, o)
        w = (leader + trick_winner(gt, list(t))) % 3
        pts = sum(x.points for x in t)
        d, tricks, a = o
        if w == declarer:
            d, tricks = d + pts, tricks + 1
        elif w == judge.left:
            a += pts
        return value(nh, (), w, (d, tricks, a))

    hs = tuple(frozenset(h) for h in hands)
    out = {}
    for c in moves(hs, tuple(view.trick), view.leader):
        outcomes = child(hs, tuple(view.trick), view.leader, start, c)
        out[c] = sum(judge.utility(kind, view.seat, o) for o in outcomes) / len(outcomes)
    return out
