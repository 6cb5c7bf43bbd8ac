"""Endgame lookup tables: ``skat tables build/info``, exactness against the table-free solver,
``skat bench solver --tables`` and the player option ``tables=DIR``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import skat
from skat._core import (
    Solver,
    lookup_build_range,
    lookup_check,
    lookup_file_header,
    lookup_merge,
    lookup_selfcheck,
)
from skat.cli import main
from skat.players import make_player
from skat.tables import build, complete_sizes, info, resolve, unfinished
from tests.test_players import play_game


@pytest.fixture(scope="module")
def null_tables(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Complete null tables for 3 and 4 cards per hand (seconds to build)."""
    d = str(tmp_path_factory.mktemp("tables"))
    assert main(["tables", "build", "--cards", "4", "--classes", "null", "--out", d]) == 0
    return d


def test_build_info_and_resume(null_tables: str, tmp_path: Path) -> None:
    rows = info(null_tables)
    assert [(r["class"], r["cards"], r["complete"]) for r in rows] == [
        ("null", 3, True),
        ("null", 4, True),
    ]
    # null values do not depend on the valuation: one tentpole per row
    assert all(r["rows"] == r["entries"] > 0 for r in rows)
    # dense: half a byte a row, no keys (32 bytes of header and checksum)
    assert all(r["disk_bytes"] == 32 + (r["rows"] + 1) // 2 for r in rows)
    assert all(r["memory_bytes"] == (r["rows"] + 1) // 2 for r in rows)
    # resumable: nothing left to build, the files untouched
    before = {f: os.path.getmtime(os.path.join(null_tables, f)) for f in os.listdir(null_tables)}
    assert build(null_tables, 4, ("null",), workers=1) == []
    after = {f: os.path.getmtime(os.path.join(null_tables, f)) for f in os.listdir(null_tables)}
    assert before == after
    out = tmp_path / "info.json"
    assert main(["tables", "info", null_tables, "--json", str(out)]) == 0
    assert [t["cards"] for t in json.loads(out.read_text())["tables"]] == [3, 4]


def test_interrupted_build_resumes_from_its_shards(tmp_path: Path) -> None:
    d = str(tmp_path)
    whole = tmp_path / "whole"
    build(str(whole), 3, ("null",), workers=1)
    # a build stopped after some shards: finished shards are kept and reused
    build(d, 3, ("null",), workers=1, shard_rows=20_000)
    os.remove(os.path.join(d, "null-3.skt"))
    parts = os.path.join(d, "parts", "null-3")
    os.makedirs(parts)
    from skat._core import lookup_build_range

    first, _ = lookup_build_range("null", 3, 0, 20_000)
    with open(os.path.join(parts, "000000.part"), "wb") as f:
        f.write(first)
    # the summary shows how far the stopped build got, from the shards' headers
    stopped = {"task": "build", "class": "null", "cards": 3, "shards": 1}
    assert unfinished(d) == [{**stopped, "rows_done": 20_000, "rows": 58680}]
    out = tmp_path / "info.json"
    assert main(["tables", "info", d, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["unfinished"] == unfinished(d)
    done = build(d, 3, ("null",), workers=2, shard_rows=20_000)
    assert done[0]["rows"] == 58680 and not os.path.exists(os.path.join(d, "parts"))
    assert unfinished(d) == []
    # a stopped halving is listed against the rows of the table it rewrites
    os.makedirs(os.path.join(d, "parts", "halve-null-3"))
    with open(os.path.join(d, "parts", "halve-null-3", "000000.part"), "wb") as f:
        f.write(first)
    assert unfinished(d) == [{**stopped, "task": "halve", "rows_done": 20_000, "rows": 58680}]
    assert (tmp_path / "null-3.skt").read_bytes() == (whole / "null-3.skt").read_bytes()


def test_complete_null_tables_never_change_a_value(null_tables: str) -> None:
    checked, bad = lookup_check(null_tables, "null", 10_000, 1, 3, 6)
    assert (checked, bad) == (10_000, 0)


@pytest.mark.parametrize("cls", ["suit", "grand", "null"])
def test_tables_are_exact_on_random_positions(cls: str) -> None:
    r = lookup_selfcheck(cls, 600, 10_000, 3)
    assert r["positions"] == 10_000 and r["mismatches"] == 0
    # the tables decide the positions: far fewer nodes than the search without them
    assert r["nodes"][1] * 3 < r["nodes"][0]


def test_solver_and_players_read_a_tables_directory(null_tables: str) -> None:
    pos = skat.Position(("C7 S8 H9 DT", "CA SA HA DA", "CK SK HK DK"), "N", declarer=0, leader=0)
    plain, with_tables = Solver(), Solver(tables=null_tables)
    assert plain.solve(pos) == with_tables.solve(pos)
    assert with_tables.last_stats is not None and plain.last_stats is not None
    assert with_tables.last_stats.nodes < plain.last_stats.nodes
    # a whole game with table-reading players (kermit bids; null tables: a null game's
    # card play reads them, any other plays as without them)
    players = [make_player(f"kermit:worlds=4,threads=1,tables={null_tables}") for _ in range(3)]
    assert play_game(players, seed=3).is_over
    with pytest.raises(skat.SkatError):
        make_player("pimc:worlds=4,tables=/no/such/dir")
    with pytest.raises(skat.TablesError):
        Solver(tables="/no/such/dir")


def test_environment_default(null_tables: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(skat.defaults.TABLES_ENV, null_tables)
    assert resolve(None) == null_tables
    monkeypatch.setenv(skat.defaults.TABLES_ENV, "/no/such/dir")
    with pytest.raises(skat.TablesError, match="SKAT_TABLES"):
        resolve(None)
    monkeypatch.delenv(skat.defaults.TABLES_ENV)
    assert resolve(None) is None


def test_info_reads_headers_and_refuses_a_truncated_table(
    null_tables: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(null_tables, "null-4.skt").read_bytes()
    (tmp_path / "null-3.skt").write_bytes(Path(null_tables, "null-3.skt").read_bytes())
    (tmp_path / "null-4.skt").write_bytes(data[:-1000])
    with pytest.raises(skat.TablesError, match="size mismatch"):
        info(str(tmp_path))
    assert main(["tables", "info", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert "size mismatch" in err and len(err.splitlines()) == 1
    (tmp_path / "null-4.skt").write_bytes(b"not a table" * 10)
    with pytest.raises(skat.TablesError, match="not a lookup table file"):
        info(str(tmp_path))


@pytest.mark.parametrize("cls", ["suit", "null"])
def test_an_empty_shard_is_a_table(cls: str, tmp_path: Path) -> None:
    # a range without rows: writing the suit shard panicked, the null one did not read back
    part, out = tmp_path / "part.skt", tmp_path / "out.skt"
    for start, end in [(5, 2), (10**9, 10**9 + 5)]:
        data, stats = lookup_build_range(cls, 3, start, end)
        assert stats["rows"] == 0
        part.write_bytes(data)
        assert lookup_file_header(str(part))["rows"] == 0
        assert lookup_merge([str(part)], str(out)) == (0, 0)  # reads the part back whole


def test_damaged_table_is_refused(null_tables: str, tmp_path: Path) -> None:
    data = bytearray(Path(null_tables, "null-3.skt").read_bytes())
    data[100] ^= 0xFF
    (tmp_path / "null-3.skt").write_bytes(bytes(data))
    with pytest.raises(skat.TablesError, match="checksum"):
        Solver(tables=str(tmp_path))


def test_bench_solver_with_tables(null_tables: str, tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    args = ["bench", "solver", "--tables", null_tables, "--positions", "12", "--repeat", "1"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    classes = {c["class"]: c for c in data["classes"]}
    assert sum(c["positions"] for c in classes.values()) == 12
    assert all(c["mismatches"] == 0 for c in classes.values())
    null = classes["null"]
    if null["positions"]:
        assert null["solve_nodes"][1] <= null["solve_nodes"][0]
    assert {t["cards"] for t in data["tables"]} == {3, 4}


@pytest.mark.parametrize(
    "args",
    [
        ["tables", "build", "--cards", "9", "--out", "x"],
        ["tables", "build", "--cards", "6", "--classes", "grand", "--estimate", "5"],
        ["tables", "build", "--cards", "3", "--classes", "ramsch", "--out", "x"],
        ["tables", "info", "/no/such/dir"],
        ["tables", "check", "/no/such/dir"],
        ["tables", "check", os.path.dirname(__file__)],
        ["bench", "solver", "--tables", "/no/such/dir"],
    ],
)
def test_bad_options_are_one_line_errors(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err


def test_check_command_solves_with_and_without_the_tables(
    null_tables: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "c.json"
    assert main(["tables", "check", null_tables, "--positions", "300", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["classes"] == [
        {"class": "null", "cards": [4, 6], "positions": 300, "mismatches": 0}
    ]
    # a differing value is a failure
    wrong = [{"class": "null", "cards": [4, 6], "positions": 300, "mismatches": 2}]
    monkeypatch.setattr("skat.tables.check", lambda *args: wrong)
    assert main(["tables", "check", null_tables]) == 1


def test_bench_pimc_with_tables(null_tables: str, tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    args = ["bench", "pimc", "--deals", "1", "--worlds", "2", "--full-games", "1"]
    assert main([*args, "--tables", null_tables, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["tables"] == null_tables and data["trick1_all"]["n"] == 3
    assert f"tables={null_tables}" in data["player"]


def test_estimate_projects_a_build(tmp_path: Path) -> None:
    out = tmp_path / "e.json"
    args = ["tables", "build", "--cards", "3", "--classes", "null,grand", "--estimate", "5"]
    assert main([*args, "--json", str(out)]) == 0
    est = {t["class"]: t for t in json.loads(out.read_text())["tables"]}
    assert est["null"]["rows"] == 58680 and est["null"]["tentpoles_per_row"] == 1.0
    assert est["grand"]["tentpoles_per_row"] > 1 and est["grand"]["cpu_hours"] > 0
    # without --estimate a directory is needed
    assert main(["tables", "build", "--cards", "3"]) == 2


def test_oracle_bench_counts_what_complete_tables_would_save(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    args = ["bench", "solver", "--oracle", "4", "--positions", "8", "--repeat", "1"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["oracle"] == 4 and data["tables"] == []
    for c in data["classes"]:
        assert c["mismatches"] == 0
        assert c["solve_nodes"][1] <= c["solve_nodes"][0]
    assert main(["bench", "solver", "--oracle", "4", "--pcut", "0.5"]) == 2


def test_walks_and_prune_give_fewer_tentpoles(tmp_path: Path) -> None:
    from skat._core import lookup_build_range

    # (full rows: the half rows are compared below)
    greedy, a = lookup_build_range("grand", 3, 0, 300, False, False, False)
    pruned, b = lookup_build_range("grand", 3, 0, 300, True, False, False)
    walked, c = lookup_build_range("grand", 3, 0, 300, False, True, False)
    assert a["rows"] == b["rows"] == c["rows"] == 300
    assert b["tentpoles"] * 3 < a["tentpoles"] and c["tentpoles"] * 3 < a["tentpoles"]
    assert len(pruned) < len(greedy) and len(walked) < len(greedy)
    est = {}
    pairs = (("greedy", ["--no-walk"]), ("pruned", ["--no-walk", "--prune"]))
    for name, extra in pairs:
        extra = [*extra, "--no-half"]
        out = tmp_path / f"{name}.json"
        args = ["tables", "build", "--cards", "3", "--classes", "grand", "--estimate", "20"]
        assert main([*args, *extra, "--json", str(out)]) == 0
        est[name] = json.loads(out.read_text())["tables"][0]
    assert est["pruned"]["prune"] and not est["greedy"]["prune"]
    assert not est["pruned"]["walk"] and not est["greedy"]["walk"]
    assert est["pruned"]["tentpoles_per_row"] < est["greedy"]["tentpoles_per_row"]


def test_half_rows_are_the_low_halves_of_full_rows(null_tables: str, tmp_path: Path) -> None:
    from skat._core import lookup_build_range, lookup_halve_range

    for cls in ("suit", "grand"):
        full, a = lookup_build_range(cls, 3, 2000, 2200, False, True, False)
        half, b = lookup_build_range(cls, 3, 2000, 2200)
        assert a["half_rows"] == 0 and b["half_rows"] > 0
        assert b["tentpoles"] < a["tentpoles"] and len(half) < len(full)
        # converting the full rows gives the same rows as building them as halves
        path = tmp_path / f"{cls}.skt"
        path.write_bytes(full)
        conv, c = lookup_halve_range(str(path), 2000, 2200)
        assert conv == half
        assert (c["rows"], c["tentpoles_before"], c["tentpoles_after"]) == (
            200,
            a["tentpoles"],
            b["tentpoles"],
        )
        # halving again changes nothing
        path.write_bytes(conv)
        assert lookup_halve_range(str(path), 2000, 2200)[0] == conv
    # rows the file does not hold, and null tables, are errors
    with pytest.raises(skat.TablesError, match="missing"):
        lookup_halve_range(str(tmp_path / "grand.skt"), 0, 10)
    with pytest.raises(skat.TablesError, match="null"):
        lookup_halve_range(os.path.join(null_tables, "null-3.skt"), 0, 10)
    # the command: a directory without suit or grand tables has nothing to halve
    out = tmp_path / "h.json"
    assert main(["tables", "halve", null_tables, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["tables"] == []
    assert main(["tables", "halve", str(tmp_path / "none")]) == 2


def test_a_damaged_table_file_is_never_taken_as_built(tmp_path: Path) -> None:
    (tmp_path / "null-3.skt").write_bytes(b"")  # e.g. a copy cut short
    assert complete_sizes(str(tmp_path)) == {}
    with pytest.raises(skat.TablesError, match="not a complete null-3 table"):
        build(str(tmp_path), 3, ["null"], workers=1)


def test_a_table_too_large_for_memory_is_refused_not_a_panic(
    null_tables: str, tmp_path: Path
) -> None:
    """A dense null table whose values cannot be allocated (here: a sparse file of 3 GB read
    under a 2 GB address-space limit) is a TablesError, and the process goes on."""
    head = bytearray(Path(null_tables, "null-3.skt").read_bytes()[:24])
    assert head[:4] == b"SKLT" and head[4] == 3, "the fixture's null tables are dense"
    values = 3 << 30
    head[16:24] = (2 * values).to_bytes(8, "little")  # rows: two values a byte
    big = tmp_path / "null-3.skt"
    with big.open("wb") as f:
        f.write(bytes(head))
        f.truncate(24 + values + 8)  # sparse: takes no disk
    script = textwrap.dedent(
        f"""
        import skat
        try:
            skat.Solver(tables={str(tmp_path)!r})
        except skat.TablesError as e:
            print(e)
        print(skat.Solver(tt_mb=1).solve(skat.Position(("CA", "SA", "HA"), "G", 0, 0)))
        """
    )
    limit = 2 << 30
    r = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
        check=False,
    )
    assert r.returncode == 0, r.stderr
    error, value = r.stdout.strip().splitlines()
    assert f"cannot allocate {values} bytes" in error and "null-3.skt" in error
    assert value.isdigit()
