"""``Solver.last_stats``: every search method of a ``Solver`` (``reaches``, ``solve``,
``analyze``, ``solve_many``) replaces it with the statistics of its own search; ``solve_many``
reports its batch's totals and keeps the per-position figures in ``last_batch_stats``."""

from __future__ import annotations

from itertools import pairwise

import pytest

import skat
from skat import Position, SearchStats, Solver


def opening(seed: int, contract: str) -> Position:
    """The first-trick position of a random deal with forehand declaring ``contract``."""
    deal = skat.Deal.random(seed)
    return Position(deal.hands, contract, 0, 0, declarer_points=deal.skat.points)


def figures(s: SearchStats | None) -> tuple[int, int, int]:
    """The deterministic part of a statistics record (everything but the time)."""
    assert s is not None
    return (s.nodes, s.probes, s.tt_hits)


@pytest.mark.parametrize(("seed", "contract", "target"), [(1, "G", 61), (2, "C", 61), (3, "N", 11)])
def test_every_call_kind_sets_last_stats(seed: int, contract: str, target: int) -> None:
    p = opening(seed, contract)
    solver = Solver(tt_mb=4)
    assert solver.last_stats is None
    seen: list[tuple[int, int, int]] = []

    solver.reaches(p, target)
    stats = solver.last_stats
    assert stats is not None and stats.nodes > 0 and stats.probes == 1
    seen.append(figures(stats))

    solver.solve(p)
    stats = solver.last_stats
    assert stats is not None and stats.nodes > 0 and stats.probes >= 1
    seen.append(figures(stats))

    moves = solver.analyze(p)
    stats = solver.last_stats
    # one MTD(f) per distinct move, at least one probe each
    assert stats is not None and stats.nodes > 0 and stats.probes >= 1
    assert len(moves) == len(p.legal_cards())
    seen.append(figures(stats))

    solver.solve_many([p, opening(seed + 10, contract)], threads=1)
    stats = solver.last_stats
    assert stats is not None and stats.nodes > 0
    seen.append(figures(stats))

    # each call replaced the record of the one before
    assert all(a != b for a, b in pairwise(seen))


def test_solve_many_reports_the_batch_totals() -> None:
    ps = [opening(seed, contract) for seed in (4, 5, 6) for contract in ("S", "G", "N")]
    solver = Solver(tt_mb=4)
    solver.solve(ps[0])
    single = figures(solver.last_stats)
    solver.solve_many(ps, threads=2)
    batch = solver.last_batch_stats
    assert len(batch) == len(ps)
    total = solver.last_stats
    assert total is not None
    assert total.nodes == sum(s.nodes for s in batch)
    assert total.probes == sum(s.probes for s in batch)
    assert total.tt_hits == sum(s.tt_hits for s in batch)
    assert figures(total) != single
    # each position of the batch is searched from an empty table, as a fresh solver would
    for p, s in zip(ps, batch, strict=True):
        fresh = Solver(tt_mb=4)
        fresh.solve(p)
        assert figures(fresh.last_stats) == figures(s)


def test_an_empty_batch_reports_zero() -> None:
    solver = Solver(tt_mb=4)
    solver.solve(opening(7, "H"))
    assert figures(solver.last_stats)[0] > 0
    assert solver.solve_many([]) == []
    assert figures(solver.last_stats) == (0, 0, 0)
    assert solver.last_batch_stats == []


def test_single_calls_leave_the_batch_statistics() -> None:
    solver = Solver(tt_mb=4)
    p = opening(8, "D")
    solver.solve_many([p], threads=1)
    before = [figures(s) for s in solver.last_batch_stats]
    solver.analyze(p)
    assert [figures(s) for s in solver.last_batch_stats] == before
    assert figures(solver.last_stats) != before[0]
