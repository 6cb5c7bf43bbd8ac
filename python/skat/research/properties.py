"""Leaf correlation, bias and disambiguation of real Skat games (the thesis's sections 5.3.1
and 5.4.3, Fig. 5.8), measured by random playouts from the start of card play.

**Correlation and bias.** Each sample walks down from the start of card play: a chain of
single legal moves is always followed (collapsed); at a node, the moves whose collapsed chain
ends the game are avoided and one of the others is drawn uniformly; when every move ends the
game the node is *pre-terminal*. Its moves' values are the soloist's win (+1) or loss (-1),
the synthetic trees' payoffs; the node is *correlated* when all are equal. Per game, ``lc`` is
the share of correlated samples and ``b`` the share of those that the soloist wins (None
without any).

**Disambiguation.** Random playouts of the whole card play (``rollouts`` per game); at every
turn of a player, the number of card distributions consistent with what that player knows
(:func:`skat.count_worlds`) is divided by the number at the same player's previous turn. A
synthetic tree halves an information set with probability ``df`` and each half again with
probability ``df``, so that a large set is halved ``df / (1 - df)`` times per own move on
average; the game's ``df`` is the value whose halvings match the mean log2 ratio ``L``
measured: ``df = L / (1 + L)``. ``ratio`` (the geometric mean of the ratios) is reported too.

Games come from random deals bid and declared by a player (``kermit`` by default), taken in
deal order until every game type (suit, grand, null) has ``games`` of them, or from record
files (self-play shards or ISS records, replayed to the start of card play,
:func:`record_games`).

>>> import skat
>>> g = skat.Game(skat.Deal.random(seed=3))
>>> for t in ("18", "p", "p", "s"):
...     g.apply(t)
>>> g.apply(g.legal_actions()[0])  # a discard
>>> g.apply("G")
>>> m = measure_game(g, samples=5, rollouts=1, seed=1)
>>> m["type"], 0.0 <= m["lc"] <= 1.0, 0.0 < m["df"] < 1.0
('grand', True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from skat._core import ArgumentError, Deal, Game, Phase, count_worlds
from skat.parallel import local_workers, map_tasks
from skat.records import replay_until_play
from skat.seeds import derive_seed

TYPES = ("suit", "grand", "null")
"""The game types reported, as in Fig. 5.8."""


def game_kind(game: Game) -> str:
    """``"suit"``, ``"grand"`` or ``"null"`` for a declared game."""
    contract = game.contract
    if contract is None:
        raise ArgumentError("the game has no contract")
    return contract.game_type.class_name


def _collapse(game: Game) -> None:
    """Plays single legal moves until a choice or the end."""
    while not game.is_over:
        moves = game.legal_actions()
        if len(moves) != 1:
            return
        game.apply(moves[0])


def _soloist_wins(game: Game) -> bool:
    result = game.result
    assert result is not None
    return bool(result.won)


def pre_terminal_sample(start: Game, rng: random.Random) -> list[bool]:
    """One walk (see the module text) from ``start``: the soloist's win per move of the
    pre-terminal node reached."""
    g = start.copy()
    _collapse(g)
    while True:
        children = []
        for move in g.legal_actions():
            c = g.copy()
            c.apply(move)
            _collapse(c)
            children.append(c)
        going = [c for c in children if not c.is_over]
        if not going:
            return [_soloist_wins(c) for c in children]
        g = rng.choice(going)


def disambiguation_ratios(start: Game, rng: random.Random) -> list[float]:
    """One random playout from ``start``: for each turn of a player after his first, the
    count of worlds consistent with his view over the count at his previous turn."""
    g = start.copy()
    last: dict[int, float] = {}
    ratios = []
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        now = count_worlds(g.view(seat))
        if seat in last and last[seat] > 0:
            ratios.append(now / last[seat])
        last[seat] = now
        g.apply(rng.choice(g.legal_actions()))
    return ratios


def df_of_ratios(ratios: Iterable[float]) -> float | None:
    """The synthetic trees' ``df`` whose expected halvings per own move, ``df / (1 - df)``,
    equal the mean ``log2(1 / ratio)`` (None without ratios).

    >>> df_of_ratios([0.5, 0.5])  # one halving per move
    0.5
    """
    logs = [-math.log2(r) for r in ratios if r > 0]
    if not logs:
        return None
    halvings = max(0.0, float(np.mean(logs)))
    return halvings / (1.0 + halvings)


def measure_game(start: Game, samples: int, rollouts: int, seed: int) -> dict[str, Any]:
    """The properties of one game at the start of card play (see the module text)."""
    if start.phase != Phase.PLAY:
        raise ArgumentError("measure_game needs a game at the start of card play")
    rng = random.Random(seed)
    correlated = wins = 0
    for _ in range(samples):
        values = pre_terminal_sample(start, rng)
        if all(v == values[0] for v in values):
            correlated += 1
            wins += values[0]
    ratios = [r for _ in range(rollouts) for r in disambiguation_ratios(start, rng)]
    logs = [math.log(r) for r in ratios if r > 0]
    return {
        "type": game_kind(start),
        "lc": correlated / samples if samples else None,
        "b": wins / correlated if correlated else None,
        "df": df_of_ratios(ratios),
        "ratio": math.exp(float(np.mean(logs))) if logs else None,
    }


def start_of_play(game: Game) -> Game | None:
    """A new game replaying ``game``'s record up to the start of card play (None if the game
    never got there, or is a Ramsch: only declared games are measured)."""
    g = replay_until_play(game)
    return g if g.phase == Phase.PLAY and not g.is_over and g.contract is not None else None


def bid_deal(bidder: str, seed: int, j: int) -> Game | None:
    """Deal ``j`` of ``seed`` bid and declared by three ``bidder`` players, at the start of
    card play (None when everybody passes)."""
    from skat.match import play
    from skat.players.base import make_player

    players = [make_player(bidder) for _ in range(3)]
    g = play(players, Deal.random(derive_seed(seed, j)), derive_seed(seed, j, 1), until=Phase.PLAY)
    return g if g.phase == Phase.PLAY and not g.is_over else None


def _bid_chunk(args: tuple[str, int, int, int]) -> list[tuple[int, str | None, str | None]]:
    bidder, seed, lo, hi = args
    out: list[tuple[int, str | None, str | None]] = []
    for j in range(lo, hi):
        g = bid_deal(bidder, seed, j)
        out.append((j, game_kind(g) if g else None, g.to_iss() if g else None))
    return out


def _measure(args: tuple[str, int, int, int, int]) -> dict[str, Any]:
    record, samples, rollouts, seed, j = args
    start = start_of_play(Game.from_iss(record))
    assert start is not None
    m = measure_game(start, samples, rollouts, derive_seed(seed, j, 2))
    m["deal"] = j
    return m


def choose_games(
    games: int,
    seed: int,
    bidder: str,
    workers: int | None = 1,
    ray: str | None = None,
    max_deals: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, list[tuple[int, str]]]:
    """The first ``games`` deals of each type (deal index, ISS record at the start of card
    play) among deals ``0, 1, ...`` of ``seed`` bid by ``bidder``; at most ``max_deals``
    deals (default ``60 * games``) are bid, in chunks of ``4 * workers`` deals (every local
    core's worth when ``workers`` is ``None``), locally or on Ray (``ray``)."""
    limit = max_deals if max_deals is not None else 60 * games
    chosen: dict[str, list[tuple[int, str]]] = {t: [] for t in TYPES}
    j = 0
    step = 4 * local_workers(workers)
    while j < limit and any(len(v) < games for v in chosen.values()):
        hi = min(limit, j + step * 4)
        chunks = [(bidder, seed, a, min(hi, a + step)) for a in range(j, hi, step)]
        for part in map_tasks(_bid_chunk, chunks, workers=workers, ray=ray):
            for k, kind, record in part:
                if kind is not None and record is not None and len(chosen[kind]) < games:
                    chosen[kind].append((k, record))
            if progress:
                progress(len(part))
        j = hi
    return chosen


def record_games(
    lines: Iterable[str], games: int | None = None
) -> dict[str, list[tuple[int, str]]]:
    """The declared games of ISS record ``lines`` at the start of card play, by type, each as
    (line index, record); the first ``games`` of each type in line order (all when None).

    >>> import skat
    >>> lines = [skat.random_game(seed).to_iss() for seed in range(20)]
    >>> chosen = record_games(lines, games=2)
    >>> [len(chosen[t]) <= 2 for t in TYPES], all(k < 20 for t in TYPES for k, _ in chosen[t])
    ([True, True, True], True)
    """
    chosen: dict[str, list[tuple[int, str]]] = {t: [] for t in TYPES}
    for k, line in enumerate(lines):
        if games is not None and all(len(v) >= games for v in chosen.values()):
            break
        start = start_of_play(Game.from_iss(line))
        if start is None:
            continue
        kind = game_kind(start)
        if games is None or len(chosen[kind]) < games:
            chosen[kind].append((k, start.to_iss()))
    return chosen


def measure_games(
    chosen: dict[str, list[tuple[int, str]]],
    samples: int,
    rollouts: int,
    seed: int,
    workers: int | None = 1,
    ray: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """:func:`measure_game` for every chosen game (``chosen`` as from :func:`choose_games`)."""
    jobs = [(rec, samples, rollouts, seed, j) for kind in TYPES for j, rec in chosen.get(kind, [])]
    out = []
    for m in map_tasks(_measure, jobs, workers=workers, ray=ray):
        out.append(m)
        if progress:
            progress(1)
    return out


def summary(measured: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game type: the number of games and the mean, standard deviation and quartiles of
    ``lc``, ``b`` and ``df`` over its games (games without a value left out)."""
    out: dict[str, dict[str, Any]] = {}
    for kind in TYPES:
        rows = [m for m in measured if m["type"] == kind]
        entry: dict[str, Any] = {"games": len(rows)}
        for key in ("lc", "b", "df", "ratio"):
            xs = np.array([m[key] for m in rows if m[key] is not None], dtype=np.float64)
            if len(xs):
                q1, med, q3 = np.percentile(xs, [25, 50, 75])
                entry[key] = {
                    "mean": float(xs.mean()),
                    "sd": float(xs.std(ddof=1)) if len(xs) > 1 else 0.0,
                    "q1": float(q1),
                    "median": float(med),
                    "q3": float(q3),
                    "n": len(xs),
                }
            else:
                entry[key] = None
        out[kind] = entry
    return out


def plot(measured: list[dict[str, Any]], path: str) -> None:
    """Fig. 5.8 as a scatter: each game's (lc, b) per type, and the distribution of df."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
    colors = {"suit": "tab:blue", "grand": "tab:red", "null": "tab:green"}
    for kind in TYPES:
        rows = [m for m in measured if m["type"] == kind and m["b"] is not None]
        many = len(measured) > 2000  # small, faint markers so that the types stay visible
        axes[0].scatter(
            [m["lc"] for m in rows],
            [m["b"] for m in rows],
            s=2 if many else 10,
            alpha=0.15 if many else 0.5,
            color=colors[kind],
            label=f"{kind} ({len(rows)})",
        )
        dfs = [m["df"] for m in measured if m["type"] == kind and m["df"] is not None]
        if dfs:
            axes[1].hist(dfs, bins=30, range=(0, 1), alpha=0.5, color=colors[kind], label=kind)
    axes[0].set_xlabel("leaf correlation lc")
    axes[0].set_ylabel("bias b (soloist wins)")
    axes[0].set_xlim(0, 1.02)
    axes[0].set_ylim(-0.02, 1.02)
    axes[0].legend()
    axes[0].set_title("correlation and bias per game")
    axes[1].set_xlabel("disambiguation df")
    axes[1].set_ylabel("games")
    axes[1].legend()
    axes[1].set_title("disambiguation per game")
    fig.suptitle("Fig. 5.8: game-tree properties of Skat from the start of card play")
    fig.savefig(path, dpi=110)
    plt.close(fig)
