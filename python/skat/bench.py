"""Benchmarks behind ``skat bench``: move generation (random games), bidding, inference, and
the helpers of the solver benchmark (whose timed loop is in the Rust core).

Each measurement repeats a timed loop and reports the median and spread, because this machine
is shared and noisy; comparisons are ratios measured in the same run.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from skat._core import Deal, Game, random_games
from skat.defaults import (
    BENCH_BIDDING_HANDS,
    BENCH_ENV_GAMES_DIVISOR,
    BENCH_INFERENCE_CANDIDATES,
    BENCH_INFERENCE_POSITIONS,
    BENCH_PIMC_DEALS,
    BENCH_PIMC_GAMES,
    BENCH_PIMC_THREADS,
    BENCH_REPEAT,
    BENCH_RULES_GAMES,
    BENCH_SEED,
    INFERENCE_SIDES,
    TRAIN_BIDDER,
    WORLDS,
)
from skat.seeds import derive_seed, wrap_seed


@dataclass
class Timing:
    """Games per second over repeated runs."""

    name: str
    games: int
    """Games per run."""
    rates: list[float] = field(default_factory=list)
    """Games per second, one per run."""
    action_rates: list[float] = field(default_factory=list)
    """Player actions (bids, declarations, cards...) per second, one per run."""

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def spread(self) -> tuple[float, float]:
        return (min(self.rates), max(self.rates))

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["median"] = self.median
        d["min"], d["max"] = self.spread
        d["actions_median"] = statistics.median(self.action_rates)
        return d


def python_random_games(n: int, seed: int) -> int:
    """Plays ``n`` random games through the Python API (one call per action)."""
    rng = random.Random(seed)
    actions = 0
    for i in range(n):
        game = Game(Deal.random(wrap_seed(seed + i)))
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions


def openspiel_random_games(n: int, seed: int) -> int | None:
    """The same loop over OpenSpiel's ``skat`` game, or None when open_spiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    actions = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions


def env_random_games(n: int, seed: int) -> int | None:
    """The same loop through the PettingZoo environment (:mod:`skat.env`, a random legal
    action of each observation's mask), or None when PettingZoo is not installed."""
    try:
        from skat.env import env
    except ImportError:
        return None
    rng = random.Random(seed)
    e = env()
    e.reset(seed=seed)
    actions = 0
    for i in range(n):
        if i:
            e.reset()
        while e.agents:
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            actions += 1
    return actions


def _time(timing: Timing, fn: Callable[[int, int], int | None], seed: int) -> None:
    start = time.perf_counter()
    actions = fn(timing.games, seed) or 0
    elapsed = time.perf_counter() - start
    timing.rates.append(timing.games / elapsed)
    timing.action_rates.append(actions / elapsed)


def bench_rules(
    games: int = BENCH_RULES_GAMES, repeat: int = BENCH_REPEAT, seed: int = BENCH_SEED
) -> dict[str, Any]:
    """Random complete games per second: inside Rust, through the Python API, through the
    PettingZoo environment and over OpenSpiel's ``skat`` (each of the last two if installed),
    interleaved run by run so that load affects all alike.
    """
    rust = Timing("rust", games * 10)
    python = Timing("python", games)
    pettingzoo = Timing("pettingzoo", max(1, games // BENCH_ENV_GAMES_DIVISOR))
    spiel = Timing("openspiel", games)
    have_env = env_random_games(1, seed) is not None
    have_spiel = openspiel_random_games(1, seed) is not None
    for r in range(repeat):
        s = wrap_seed(seed + r * 1_000_003)
        _time(rust, random_games, s)
        _time(python, python_random_games, s)
        if have_env:
            _time(pettingzoo, env_random_games, s)
        if have_spiel:
            _time(spiel, openspiel_random_games, s)
    out: dict[str, Any] = {
        "machine": machine_description(),
        "python": platform.python_version(),
        "repeat": repeat,
        "rust": rust.as_dict(),
        "python_api": python.as_dict(),
        "pettingzoo": pettingzoo.as_dict() if have_env else None,
        "openspiel": spiel.as_dict() if have_spiel else None,
    }
    if have_spiel:
        ratios = [p / o for p, o in zip(python.rates, spiel.rates, strict=True)]
        out["python_over_openspiel"] = {
            "median": statistics.median(ratios),
            "min": min(ratios),
            "max": max(ratios),
        }
        per_action = [p / o for p, o in zip(python.action_rates, spiel.action_rates, strict=True)]
        out["python_over_openspiel_actions"] = {
            "median": statistics.median(per_action),
            "min": min(per_action),
            "max": max(per_action),
        }
    return out


def declared_game(seed: int, bidder: str = "rules") -> Game | None:
    """A deal from ``seed`` bid and declared by three ``bidder`` players, stopped at the first
    card (None when all pass)."""
    from skat._core import Phase
    from skat.match import play
    from skat.players import make_player

    players = [make_player(bidder) for _ in range(3)]
    game = play(players, Deal.random(seed), seed, until=Phase.PLAY)
    return None if game.is_over else game


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(values),
        "median": statistics.median(values),
        "mean": statistics.fmean(values),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "min": ordered[0],
        "max": ordered[-1],
    }


def bench_pimc(
    deals: int = BENCH_PIMC_DEALS,
    worlds: int = WORLDS,
    threads: int = BENCH_PIMC_THREADS,
    points: bool = True,
    seed: int = BENCH_SEED,
    games: int = BENCH_PIMC_GAMES,
    on_step: Callable[[str], None] | None = None,
    pcut: float = 0.0,
    tables: str | None = None,
    game_player: str | None = None,
) -> dict[str, Any]:
    """Seconds per PIMC decision in the first trick (each of its three cards, on deals bid and
    declared by the ``rules`` player) and seconds per full game of three ``pimc`` players
    (``pcut``: ProbCut at that confidence, 0 for the exact solver; ``tables``: a directory of
    endgame lookup tables, none by default), or of three ``game_player`` players when given
    (a player spec, e.g. ``"kermit"``: the whole game, auction included).
    """
    from skat._core import Phase, Pimc
    from skat.match import play
    from skat.players import make_player

    engine = Pimc(worlds=worlds, threads=threads, points=points, pcut=pcut, tables=tables)
    per_card: list[list[float]] = [[], [], []]
    kinds: dict[str, list[float]] = {}
    j = 0
    while len(per_card[0]) < deals:
        j += 1
        game = declared_game(wrap_seed(seed * 1_000_003 + j))
        if game is None:
            continue
        contract = game.contract
        assert contract is not None
        for k in range(3):
            seat = game.to_move
            assert seat is not None and game.phase == Phase.PLAY
            d = engine.decide(game.view(seat), seed=j * 3 + k)
            per_card[k].append(d.seconds)
            kinds.setdefault(str(contract.game_type), []).append(d.seconds)
            game.apply(d.best.__str__())
        if on_step is not None:
            on_step("decision")
    spec = game_player or (
        f"pimc:worlds={worlds},threads={threads},points={points}"
        + (f",pcut={pcut}" if pcut else "")
        + (f",tables={tables}" if tables else "")
    )
    game_times: list[float] = []
    for g in range(games):
        players = [make_player(spec) for _ in range(3)]
        start = time.perf_counter()
        play(players, Deal.random(wrap_seed(seed * 7_919 + g)), seed=g)
        game_times.append(time.perf_counter() - start)
        if on_step is not None:
            on_step("game")
    return {
        "machine": machine_description(),
        "cpus": os.cpu_count(),
        "worlds": worlds,
        "threads": threads,
        "points": points,
        "pcut": pcut,
        "tables": tables,
        "seed": seed,
        "trick1_seconds": [_summary(v) for v in per_card],
        "trick1_all": _summary([x for v in per_card for x in v]),
        "by_game_type": {k: _summary(v) for k, v in sorted(kinds.items())},
        "game_seconds": _summary(game_times) if game_times else None,
        "player": spec,
    }


def bench_bidding(
    hands: int = BENCH_BIDDING_HANDS, seed: int = BENCH_SEED, repeat: int = BENCH_REPEAT
) -> dict[str, Any]:
    """Time of the full bidding tree (``evaluate`` at bid 18: 92,862 leaves) per hand, one
    thread, on random hands in random seats; also with all 63 bids at once and the
    declaration searches the kermit player runs after winning the auction."""
    from skat._core import Card, Cards, bids
    from skat.bidding import default_model

    tables = default_model().tables
    rng = random.Random(seed)
    deck = sorted(Card.all())
    cases = [(Cards(rng.sample(deck, 10)), rng.randrange(3)) for _ in range(hands)]
    all_bids = bids()

    def timed(fn: Callable[[Cards, int], object]) -> list[float]:
        best: list[float] = [float("inf")] * len(cases)
        for _ in range(repeat):
            for i, (h, s) in enumerate(cases):
                t = time.perf_counter()
                fn(h, s)
                best[i] = min(best[i], time.perf_counter() - t)
        return [x * 1000 for x in best]

    leaves = [tables.evaluate(h, s, [18])[1] for h, s in cases]
    out: dict[str, Any] = {
        "hands": hands,
        "seed": seed,
        "repeat": repeat,
        "machine": platform.platform(),
        "leaves_max": max(leaves),
        "leaves_mean": sum(leaves) / len(leaves),
        "tree_ms": _summary(timed(lambda h, s: tables.evaluate(h, s, [18]))),
        "tree_all_bids_ms": _summary(timed(lambda h, s: tables.evaluate(h, s, all_bids))),
        "hand_game_ms": _summary(timed(lambda h, s: tables.best_hand(h, s, 18))),
        "pickup_value_ms": _summary(timed(lambda h, s: tables.pickup_value(h, s, 18))),
    }
    return out


def bench_inference(
    positions: int = BENCH_INFERENCE_POSITIONS,
    seed: int = BENCH_SEED,
    repeat: int = BENCH_REPEAT,
    candidates: int = BENCH_INFERENCE_CANDIDATES,
    worlds: int = WORLDS,
) -> dict[str, Any]:
    """Time of one inference draw per decision: ``candidates`` uniform worlds sampled and
    weighted, ``worlds`` worlds resampled from them (one thread, ``Inference.sample``), at the first
    card of deals bid and declared by ``kermit``, from the declarer's and a defender's seat."""
    from skat._core import Deal, Phase
    from skat.inference import default_tables
    from skat.match import play
    from skat.players import make_player

    inf = default_tables().compile(INFERENCE_SIDES, candidates)
    views: dict[str, list[Any]] = {"declarer": [], "defender": []}
    j = 0
    while len(views["declarer"]) < positions:
        deal = Deal.random(derive_seed(seed, j))
        players = [make_player(TRAIN_BIDDER) for _ in range(3)]
        game = play(players, deal, seed=j, until=Phase.PLAY)
        j += 1
        if game.is_over or game.declarer is None:
            continue
        d = game.declarer
        views["declarer"].append(game.view(d))
        views["defender"].append(game.view((d + 1) % 3))
    out: dict[str, Any] = {
        "positions": positions,
        "seed": seed,
        "repeat": repeat,
        "candidates": candidates,
        "worlds": worlds,
        "machine": platform.platform(),
    }
    for side, vs in views.items():
        best = [float("inf")] * len(vs)
        stats = []
        for _ in range(repeat):
            for i, v in enumerate(vs):
                t = time.perf_counter()
                _, st = inf.sample(v, worlds, i)
                best[i] = min(best[i], time.perf_counter() - t)
                stats.append(st)
        out[f"{side}_ms"] = _summary([x * 1000 for x in best])
        out[f"{side}_fallbacks"] = sum(1 for s in stats if s["fallback"]) // repeat
        out[f"{side}_nonzero_share"] = sum(s["nonzero"] for s in stats) / (len(stats) * candidates)
        out[f"{side}_effective"] = statistics.median(s["effective"] for s in stats)
    return out


def machine_description() -> str:
    """The processor and core count, for benchmark records, e.g. ``"x86_64, AMD EPYC, 2
    cores"`` (the model name from ``/proc/cpuinfo`` where there is one)."""
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    parts = [platform.machine(), model, f"{os.cpu_count() or 1} cores"]
    return ", ".join(p for p in parts if p)


def combine_solver_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One solver-benchmark result from repeated runs over the same positions: the first
    run's tables and ablations, with each class's ``worlds_per_sec`` replaced by the median
    over the runs (the runs themselves in ``worlds_per_sec_runs``; ``repeat`` = their number).

    >>> a = {"classes": [{"class": "suit", "worlds_per_sec": 90.0}], "signature": 1}
    >>> b = {"classes": [{"class": "suit", "worlds_per_sec": 80.0}], "signature": 1}
    >>> c = {"classes": [{"class": "suit", "worlds_per_sec": 99.0}], "signature": 1}
    >>> combine_solver_runs([a, b, c])["classes"][0]["worlds_per_sec"]
    90.0
    """
    if not runs:
        raise ValueError("no benchmark runs to combine")
    if len({r["signature"] for r in runs}) != 1:
        raise RuntimeError("the node signature changed between runs of one build")
    out = dict(runs[0])
    out["classes"] = _class_medians([r["classes"] for r in runs], ("worlds_per_sec",))
    out["repeat"] = len(runs)
    return out


def _class_medians(runs: list[list[dict[str, Any]]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The first run's class rows with each of ``keys`` replaced by its median over the
    runs (the runs' values in ``KEY_runs``)."""
    rows = []
    for i, row in enumerate(runs[0]):
        new = dict(row)
        for key in keys:
            per_run = [float(r[i][key]) for r in runs]
            new[key] = statistics.median(per_run)
            new[f"{key}_runs"] = per_run
        rows.append(new)
    return rows


def combine_probcut_runs(runs: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """One ProbCut comparison from repeated runs over the same positions: per class the
    first run's counts, agreement and error (identical in every run: the searches are
    deterministic) with the median worlds/s of each solver over the runs and their ratio.

    >>> row = {"class": "suit", "positions": 2, "decision_agreement": 1.0,
    ...        "mean_abs_error": 0.5, "nodes": 10, "exact_nodes": 30}
    >>> runs = [[dict(row, worlds_per_sec=w, exact_worlds_per_sec=e)]
    ...         for w, e in ((300.0, 100.0), (280.0, 90.0), (330.0, 110.0))]
    >>> combine_probcut_runs(runs)["classes"][0]["speedup"]
    3.0
    """
    if not runs:
        raise ValueError("no benchmark runs to combine")
    classes = _class_medians(runs, ("worlds_per_sec", "exact_worlds_per_sec"))
    for row in classes:
        exact = row["exact_worlds_per_sec"]
        row["speedup"] = row["worlds_per_sec"] / exact if exact else 0.0
    return {"classes": classes, "repeat": len(runs)}


def combine_lookup_runs(runs: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """One lookup-table comparison from repeated runs over the same positions: per class the
    first run's node counts and mismatches (identical in every run: the searches are
    deterministic) and, per question, the median over the runs of the total milliseconds
    without and with tables; ``nodes_saved_pct`` and ``time_saved_pct`` for ``solve``.

    >>> row = {"class": "suit", "positions": 2, "mismatches": 0, "solve_nodes": [100, 40],
    ...        "analyze_nodes": [300, 150]}
    >>> runs = [[dict(row, solve_micros=[s, t], analyze_micros=[2 * s, 2 * t])]
    ...         for s, t in ((1000, 600), (1200, 700), (900, 500))]
    >>> c = combine_lookup_runs(runs)["classes"][0]
    >>> c["solve_ms"], c["nodes_saved_pct"], c["time_saved_pct"]
    ([1.0, 0.6], 60.0, 40.0)
    """
    if not runs:
        raise ValueError("no benchmark runs to combine")
    classes: list[dict[str, Any]] = []
    for i, first in enumerate(runs[0]):
        row = {k: v for k, v in first.items() if not k.endswith("_micros")}
        for q in ("solve", "analyze"):
            row[q + "_ms"] = [
                round(statistics.median(r[i][q + "_micros"][j] for r in runs) / 1000, 3)
                for j in (0, 1)
            ]
        n0, n1 = row["solve_nodes"]
        t0, t1 = row["solve_ms"]
        row["nodes_saved_pct"] = round(100 * (n0 - n1) / n0, 1) if n0 else 0.0
        row["time_saved_pct"] = round(100 * (t0 - t1) / t0, 1) if t0 else 0.0
        classes.append(row)
    return {"classes": classes, "repeat": len(runs)}
