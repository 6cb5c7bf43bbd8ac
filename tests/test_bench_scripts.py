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


def test_opening_leads_finds_decisive_kermit_leads(tmp_path: Path) -> None:
    from skat.tournament import run

    ol = load("opening_leads")
    records = tmp_path / "t.iss"
    run("kermit:worlds=4", "rules", mode="full", deals=6, seed=3, workers=1, records=str(records))
    leads = ol.decisive_leads(str(records))
    for replay, seat, d in leads:
        assert replay.to_move == seat and d.trick == 1 and d.seat == seat
        assert d.winning and d.losing
    out = ol.good_lead_shares(str(records), ["kermit:worlds=4"], seeds=1)
    assert out["positions"] == len(leads)
    assert all(0.0 <= v <= 1.0 for v in out["good_lead_share"].values())
