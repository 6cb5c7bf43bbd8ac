"""``skat report bidding``: how well the 10+2 evaluation predicts declarer wins.

For each set of games (held-out self-play games, real human games) and each game family
(suit, grand, null, null ouvert): the actual declarer win rate, the mean predicted win
probability of the 10+2 evaluation, its Brier score, and, on the same deals, the open-handed
solver's verdict (the declarer's cards and everybody else's known: does she win with best play
on both sides?) with its own rate and Brier score. Kermit's Table 4.1 made this comparison on
human games: the open-handed view underestimates the declarer (suit 67% predicted vs 80%
actual), because real defenders do not see the cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from rich.table import Table

from skat._core import Cards, Game, Inference, Phase, Pimc, Position, Solver
from skat.bidding.model import BiddingModel
from skat.defaults import INFERENCE_SIDES, REPORT_SEED, REPORT_SOLVER_GAMES, SOLVER_TT_MB
from skat.inference import make_inference
from skat.parallel import run_tasks
from skat.records import read_records, replay_until_play
from skat.seeds import derive_seed
from skat.training.fit import samples_with_records

FAMILIES = ("suit", "grand", "null", "null ouvert")


def family_of(kind: int) -> str:
    """The family name of a contract kind index."""
    return "suit" if kind < 4 else FAMILIES[kind - 3]


LOG_LOSS_EPS = 1e-6
"""Predictions are clipped to ``[eps, 1 - eps]`` before the log-loss is taken."""


def probability_scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Brier score and log-loss (natural log) of win probabilities ``p`` for outcomes ``y``.

    >>> probability_scores(np.array([0.5, 0.5]), np.array([1.0, 0.0]))
    {'brier': 0.25, 'log_loss': 0.6931471805599453}
    """
    q = np.clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    return {
        "brier": float(np.mean((p - y) ** 2)),
        "log_loss": float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))),
    }


def calibration_bins(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict[str, Any]]:
    """Predictions ``p`` and outcomes ``y`` in ``bins`` equal slices of [0, 1] (the last one
    closed): each non-empty slice's bounds, count, mean prediction and actual rate.

    >>> bins = calibration_bins(np.array([0.1, 0.2, 0.3, 1.0]), np.array([0.0, 1.0, 0.0, 1.0]), 2)
    >>> [(b["lo"], b["hi"], b["n"], round(b["predicted"], 2), round(b["actual"], 2)) for b in bins]
    [(0.0, 0.5, 3, 0.2, 0.33), (0.5, 1.0, 1, 1.0, 1.0)]
    """
    out = []
    for lo, hi in itertools.pairwise(np.linspace(0, 1, bins + 1)):
        m = (p >= lo) & ((p < hi) | (hi == 1.0))
        if m.any():
            out.append(
                {
                    "lo": float(lo),
                    "hi": float(hi),
                    "n": int(m.sum()),
                    "predicted": float(p[m].mean()),
                    "actual": float(y[m].mean()),
                }
            )
    return out


def solver_verdict(game: Game, solver: Solver) -> bool | None:
    """Whether the declarer wins the deal open-handed (None: the game has no card play)."""
    g = replay_until_play(game)
    if g.phase != Phase.PLAY or g.contract is None:
        return None
    pos = Position.from_game(g)
    if g.contract.game_type.letter == "N":
        return solver.solve(pos) == 0
    return solver.reaches(pos, 61)


def pimc_estimate(
    game: Game, pimc: Pimc, inference: Inference | None, seed: int
) -> tuple[float, int] | None:
    """PIMC's estimate of the declarer's chance to win, at her first card: the highest win
    share over her legal cards across the sampled worlds (Kermit's Table 4.1), and the number
    of cards played before it (0-2). None when the game has no card play by the declarer."""
    g = replay_until_play(game)
    declarer = g.declarer
    if g.phase != Phase.PLAY or declarer is None:
        return None
    for seat, action in game.history[len(g.history) :]:
        if g.is_over or g.to_move == declarer:
            break
        g.apply(action, seat if isinstance(seat, int) else None)
    if g.is_over or g.to_move != declarer:
        return None
    decision = pimc.decide(g.view(declarer), seed=seed, inference=inference)
    return max(v.win for v in decision.values), len(g.trick)


def _check_summary(
    rows: Sequence[dict[str, Any]], key: str, rate: str, brier: str
) -> dict[str, Any] | None:
    checked = [r for r in rows if r.get(key) is not None]
    if not checked:
        return None
    v = np.array([float(r[key]) for r in checked])
    y = np.array([r["won"] for r in checked], dtype=np.float64)
    p = np.array([r["p"] for r in checked])
    return {
        "n": len(checked),
        "actual": float(y.mean()),
        rate: float(v.mean()),
        "predicted": float(p.mean()),
        brier: float(np.mean((v - y) ** 2)),
        "brier_10_2": float(np.mean((p - y) ** 2)),
    }


CHECK_CHUNK = 25
"""Games per task of the solver and PIMC checks."""


@dataclass(frozen=True)
class _CheckTask:
    first: int
    lines: list[str]
    n_solve: int
    n_pimc: int
    pimc_worlds: int
    pimc_sides: str
    seed: int


@lru_cache(maxsize=1)
def _solver() -> Solver:
    """The checks' solver, one per process (its transposition table is allocated once)."""
    return Solver(tt_mb=SOLVER_TT_MB)


@lru_cache(maxsize=4)
def _pimc(worlds: int) -> Pimc:
    """The checks' PIMC engine for ``worlds``, one per process."""
    return Pimc(worlds=worlds, threads=1, points=False)


def _run_checks(task: _CheckTask) -> list[tuple[int, bool | None, float | None]]:
    """(game index, solver verdict, PIMC estimate) of a chunk of games; every PIMC estimate is
    seeded by its game's index, so the results do not depend on how the games are split."""
    solver = _solver()
    pimc = _pimc(task.pimc_worlds) if task.n_pimc else None
    inference = make_inference(task.pimc_sides) if pimc and task.pimc_sides != "NI" else None
    out: list[tuple[int, bool | None, float | None]] = []
    for k, line in enumerate(task.lines):
        i = task.first + k
        game = Game.from_iss(line)
        solved = solver_verdict(game, solver) if i < task.n_solve else None
        est = None
        if pimc is not None and i < task.n_pimc:
            found = pimc_estimate(game, pimc, inference, derive_seed(task.seed, i))
            est = None if found is None else found[0]
        out.append((i, solved, est))
    return out


def _section(
    model: BiddingModel,
    lines: Sequence[str],
    checks: ReportChecks,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    pairs = samples_with_records(lines)
    rows: list[dict[str, Any]] = [
        {
            "family": family_of(s.kind),
            "p": model.tables.win_probability(
                Cards.from_bits(s.hand), Cards.from_bits(s.discard), s.kind, s.seat
            ),
            "won": s.won,
        }
        for s, _ in pairs
    ]
    n_solve = min(checks.solver_games, len(rows))
    n_pimc = min(checks.pimc_games, len(rows)) if checks.pimc_worlds else 0
    n = max(n_solve, n_pimc)
    size = CHECK_CHUNK
    tasks = [
        _CheckTask(
            first,
            [line for _, line in pairs[first : min(first + size, n)]],
            n_solve,
            n_pimc,
            checks.pimc_worlds,
            checks.pimc_sides,
            checks.seed,
        )
        for first in range(0, n, size)
    ]
    done = 0
    for _, results in run_tasks(_run_checks, tasks, workers=checks.workers, ray=checks.ray):
        for i, verdict, est in results:
            if i < n_solve:
                rows[i]["solver"] = verdict
            if i < n_pimc:
                rows[i]["pimc"] = est
        done += len(results)
        if progress:
            progress(done, n)
    out: dict[str, Any] = {"games": len(rows), "families": {}}
    if rows:
        out.update(
            probability_scores(
                np.array([r["p"] for r in rows]), np.array([r["won"] for r in rows], dtype=float)
            )
        )
    for fam in FAMILIES:
        sel = [r for r in rows if r["family"] == fam]
        if not sel:
            continue
        p = np.array([r["p"] for r in sel])
        y = np.array([r["won"] for r in sel], dtype=np.float64)
        entry: dict[str, Any] = {
            "n": len(sel),
            "actual": float(y.mean()),
            "predicted": float(p.mean()),
            **probability_scores(p, y),
            "brier_base_rate": float(y.mean() * (1 - y.mean())),
        }
        solved = _check_summary(sel, "solver", "solver_rate", "brier_solver")
        if solved:
            entry["solver"] = solved
        estimated = _check_summary(sel, "pimc", "pimc_rate", "brier_pimc")
        if estimated:
            entry["pimc"] = {**estimated, "worlds": checks.pimc_worlds, "sides": checks.pimc_sides}
        entry["bins"] = calibration_bins(p, y)
        out["families"][fam] = entry
    return out


@dataclass
class ReportChecks:
    """What is checked besides the 10+2 prediction, on the first games of each section: the
    open-handed solver's verdict (``solver_games``) and PIMC's estimate at the declarer's
    first card (``pimc_games`` with ``pimc_worlds`` worlds drawn with ``pimc_sides``
    inference, seeded by ``seed``; 0 worlds: none), in chunks on ``workers`` local processes
    or on Ray (:func:`skat.parallel.run_tasks`)."""

    solver_games: int = REPORT_SOLVER_GAMES
    pimc_games: int = 0
    pimc_worlds: int = 0
    pimc_sides: str = INFERENCE_SIDES
    seed: int = REPORT_SEED
    workers: int | None = 1
    ray: str | None = None


def bidding_report(
    model: BiddingModel,
    data_files: Sequence[str],
    iss_files: Sequence[str],
    checks: ReportChecks | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The calibration report as a JSON-ready dict (see the module documentation)."""
    checks = checks or ReportChecks()
    report: dict[str, Any] = {
        "model": model.meta,
        "training_games": model.meta.get("training_games", model.meta.get("samples")),
        "sections": {},
    }
    if data_files:
        held = _section(model, read_records(data_files), checks, progress)
        report["sections"]["held_out"] = held
        report["held_out"] = {
            "games": held["games"],
            "brier": held.get("brier"),
            "log_loss": held.get("log_loss"),
        }
    if iss_files:
        report["sections"]["human"] = _section(model, read_records(iss_files), checks, progress)
    return report


CHECK_TITLES = {
    "solver": "the open-handed solver's verdict on the true deal",
    "pimc": "PIMC's estimate at the declarer's first card (Table 4.1)",
}


def report_tables(report: dict[str, Any]) -> list[Table]:
    """Rich tables of a report: per section the 10+2 calibration, then each check made."""
    tables = []
    for name, sec in report["sections"].items():
        t = Table(
            title=f"{name}: {sec['games']} declared games (win rates; Brier scores B and"
            " log-loss LL, lower is better)"
        )
        for col in ("family", "n", "actual", "10+2", "B 10+2", "LL 10+2", "B base rate"):
            t.add_column(col, justify="right")
        for fam, e in sec["families"].items():
            t.add_row(
                fam,
                str(e["n"]),
                f"{e['actual']:.3f}",
                f"{e['predicted']:.3f}",
                f"{e['brier']:.4f}",
                f"{e['log_loss']:.4f}",
                f"{e['brier_base_rate']:.4f}",
            )
        tables.append(t)
        for key, what in CHECK_TITLES.items():
            rows = [(fam, e[key]) for fam, e in sec["families"].items() if key in e]
            if not rows:
                continue
            c = Table(title=f"{name}: {what}, on the games it checked")
            for col in ("family", "n", "actual", key, "10+2", f"B {key}", "B 10+2"):
                c.add_column(col, justify="right")
            for fam, r in rows:
                c.add_row(
                    fam,
                    str(r["n"]),
                    f"{r['actual']:.3f}",
                    f"{r[f'{key}_rate']:.3f}",
                    f"{r['predicted']:.3f}",
                    f"{r[f'brier_{key}']:.4f}",
                    f"{r['brier_10_2']:.4f}",
                )
            tables.append(c)
    return tables


def plot_calibration(report: dict[str, Any], path: str) -> None:
    """Predicted against actual win rate per family (one panel per section), saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sections = list(report["sections"].items())
    fig, axes = plt.subplots(1, max(1, len(sections)), figsize=(6 * max(1, len(sections)), 5.5))
    axes = np.atleast_1d(axes)
    colors = {
        "suit": "tab:blue",
        "grand": "tab:red",
        "null": "tab:green",
        "null ouvert": "tab:purple",
    }
    for ax, (name, sec) in zip(axes, sections, strict=False):
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--")
        for fam, e in sec["families"].items():
            shown = [b for b in e["bins"] if b["n"] >= 5]  # bins of fewer games are noise
            xs = [b["predicted"] for b in shown]
            ys = [b["actual"] for b in shown]
            ns = [b["n"] for b in shown]
            ax.plot(xs, ys, "-o", color=colors[fam], label=f"{fam} (n={e['n']})", ms=3)
            ax.scatter(xs, ys, s=[min(200, 4 + n / 5) for n in ns], color=colors[fam], alpha=0.3)
            ax.scatter(
                [e["predicted"]],
                [e["actual"]],
                marker="*",
                s=180,
                color=colors[fam],
                edgecolor="black",
                zorder=5,
            )
            s = e.get("solver")
            if s:
                ax.scatter(
                    [s["solver_rate"]],
                    [s["actual"]],
                    marker="X",
                    s=120,
                    color=colors[fam],
                    edgecolor="black",
                    zorder=5,
                )
        ax.set_xlabel("predicted declarer win rate")
        ax.set_ylabel("actual declarer win rate")
        ax.set_title(
            f"{name} ({sec['games']} games; bins of 5+ games)\n"
            "star: 10+2 mean prediction, X: open-handed solver's rate"
        )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(loc="upper left", fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
