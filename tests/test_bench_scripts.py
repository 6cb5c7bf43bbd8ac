"""The helper scripts under ``benchmarks/`` that are not part of the package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_solver_ab_reads_the_probe_totals() -> None:
    ab = load("solver_ab")
    out = (
        "  3 suit  v= 40 ...\n"
        "total: solve 1617317 nodes 107024 us; analyze 3849920 nodes 237153 us\n"
    )
    t = ab.parse_totals(out)
    assert (t.solve_nodes, t.solve_us, t.analyze_nodes, t.analyze_us) == (
        1617317,
        107024,
        3849920,
        237153,
    )
    with pytest.raises(ValueError, match="totals"):
        ab.parse_totals("the probe crashed")


def test_crosscheck_plays_every_variant_set_against_the_reference() -> None:
    cc = load("crosscheck")
    lines: list[str] = []
    assert cc.run(15, 3, False, lines.append)
    assert len(lines) == len(cc.VARIANT_SETS) and all("15 games agree" in x for x in lines)
    lines = []
    assert cc.run(15, 4, True, lines.append) and lines[0].startswith("announced: 15 games agree")
    assert cc.main(["--games", "2", "--seed", "5"]) == 0
