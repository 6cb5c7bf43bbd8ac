"""The resumable commands after a kill at a precise point (simulated by truncating files or by
stopping a step with KeyboardInterrupt where SIGKILL could land), and resumed with the same or
other options: the resumed output is the uninterrupted run's, another option is refused in one
line (exit 2) with nothing changed."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

import skat
from skat import tables
from skat._core import lookup_merge
from skat.cli import main
from skat.parallel import run_tasks
from skat.training.generate import generate

if os.environ.get("SKAT_TEST_SIGINT_ON_IMPORT", str(os.getpid())) != str(os.getpid()):
    # a Ctrl-C that reaches a worker while it is still starting up (unpickling its initializer)
    os.kill(os.getpid(), signal.SIGINT)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def one_error_line(err: str, words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err, err


# ----- skat tables build ------------------------------------------------------------------


BUILD = ["tables", "build", "--cards", "3", "--classes", "null", "--workers", "1"]


def stopped_build(monkeypatch: pytest.MonkeyPatch, out: Path, shards: int) -> None:
    """A null-3 build in shards of 20,000 rows, stopped after ``shards`` shards were kept."""
    write = tables._write_atomic
    kept = 0

    def write_then_stop(path: str, data: bytes) -> None:
        nonlocal kept
        write(path, data)
        kept += 1
        if kept == shards:
            raise KeyboardInterrupt

    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        m.setattr(tables, "_write_atomic", write_then_stop)
        tables.build(str(out), 3, ("null",), workers=1, shard_rows=20000)


@pytest.fixture(scope="module")
def null3(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("whole")
    tables.build(str(out), 3, ("null",), workers=1, shard_rows=20000)
    return (out / "null-3.skt").read_bytes()


def test_tables_build_refuses_shards_of_another_size(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    null3: bytes,
) -> None:
    """Resumed with another --shard-rows, the build wrote a table of the kept shards' rows only
    (exit 0) or mixed shards of both sizes into DIR/parts (exit 1, the first size no longer
    resumed either): it is refused before anything is built."""
    out = tmp_path / "t"
    stopped_build(monkeypatch, out, 2)
    before = snapshot(out)
    capsys.readouterr()
    for rows in (["--shard-rows", "10000"], []):
        assert main([*BUILD, "--out", str(out), *rows]) == 2
        one_error_line(capsys.readouterr().err, "--shard-rows")
        assert snapshot(out) == before
    with pytest.raises(tables.TablesError, match="shard-rows"):
        tables.build(str(out), 3, ("null",), workers=1)
    assert snapshot(out) == before
    assert main([*BUILD, "--out", str(out), "--shard-rows", "20000"]) == 0
    assert snapshot(out) == {"null-3.skt": null3}


def test_tables_build_removes_the_shards_a_kill_after_the_rename_left(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, null3: bytes
) -> None:
    """Killed after the table was renamed into place but before its shards were removed, the
    shards stayed for ever ('tables info' listed an unfinished build that no build resumed)."""

    def merge_then_stop(out: str, parts_dir: str, paths: list[str], final: str) -> Any:
        lookup_merge(paths, final + ".tmp")
        os.replace(final + ".tmp", final)
        raise KeyboardInterrupt

    out = tmp_path / "t"
    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        m.setattr(tables, "_merge", merge_then_stop)
        tables.build(str(out), 3, ("null",), workers=1, shard_rows=20000)
    assert tables.unfinished(str(out))  # the state the kill left
    assert tables.build(str(out), 3, ("null",), workers=1, shard_rows=20000) == []
    assert tables.unfinished(str(out)) == []
    assert snapshot(out) == {"null-3.skt": null3}


@pytest.mark.parametrize("size", [0, 100])
def test_tables_build_builds_a_damaged_shard_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, null3: bytes, size: int
) -> None:
    """A kept shard cut short (zero-length, or its body cut) is built again."""
    out = tmp_path / "t"
    stopped_build(monkeypatch, out, 2)
    os.truncate(out / "parts" / "null-3" / "000001.part", size)
    assert main([*BUILD, "--out", str(out), "--shard-rows", "20000"]) == 0
    assert snapshot(out) == {"null-3.skt": null3}


def test_tables_build_refuses_shards_built_by_another_method(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resumed with another --prune, --no-walk or --no-half, a suit or grand build mixed rows of
    both methods into one table without a word: refused before anything is built."""
    out = tmp_path / "t"
    write = tables._write_atomic

    def write_then_stop(path: str, data: bytes) -> None:
        write(path, data)
        if path.endswith(".part"):
            raise KeyboardInterrupt

    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        m.setattr(tables, "_write_atomic", write_then_stop)
        tables.build(str(out), 3, ("grand",), workers=1, shard_rows=300, prune=True)
    before = snapshot(out)
    assert len([f for f in before if f.endswith(".part")]) == 1
    build = ["tables", "build", "--cards", "3", "--classes", "grand", "--workers", "1"]
    for other in ([], ["--prune", "--no-half"], ["--prune", "--no-walk"]):
        assert main([*build, "--out", str(out), "--shard-rows", "300", *other]) == 2
        one_error_line(capsys.readouterr().err, "was started with --prune, not")
        assert snapshot(out) == before
    with pytest.raises(tables.TablesError, match="started with --prune"):
        tables.build(str(out), 3, ("grand",), workers=1, shard_rows=300)
    assert snapshot(out) == before
    tables.check_method(str(out), 3, ("grand",), (True, True, True))  # the same: resumes
    tables.check_method(str(out), 3, ("null",), (False, False, False))  # another table


# ----- skat tournament --resume -----------------------------------------------------------


def test_tournament_resume_refuses_another_bidder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cardplay deals bid by another --bidder were taken as finished: the file and the results
    mixed two bidders' auctions (exit 0)."""
    path = tmp_path / "t.iss"
    argv = ["tournament", "rules", "random", "--deals", "3", "--seed", "3", "--workers", "1"]
    assert main([*argv, "--records", str(path)]) == 0
    whole = path.read_text()
    path.write_text("".join(whole.splitlines(keepends=True)[:2]))  # deal 0 kept
    cut = path.read_bytes()
    capsys.readouterr()
    other = ["--bidder", "rules:aggression=2", "--resume", "--records", str(path)]
    assert main([*argv, *other]) == 2
    one_error_line(capsys.readouterr().err, "--bidder")
    assert path.read_bytes() == cut
    assert main([*argv, "--resume", "--records", str(path)]) == 0
    assert path.read_text() == whole


# ----- skat train bidding --games N --records FILE ----------------------------------------


@pytest.fixture(scope="module")
def contracts() -> list[str]:
    """Training games 0..3 of seed 1 (1 world), one ISS line each."""
    return [line + "\n" for line in generate(4, 1, worlds=1, workers=1)]


def train(records: Path, seed: int = 1, *more: str) -> int:
    out = str(records.with_suffix(".npz"))
    argv = ["--records", str(records), "--seed", str(seed), "--out", out, *more]
    return main(["train", "bidding", "--games", "4", "--worlds", "1", "--workers", "1", *argv])


@pytest.mark.parametrize("cut", [1, 150, -1])
def test_train_bidding_drops_a_record_cut_off_by_a_kill(
    tmp_path: Path, contracts: list[str], cut: int
) -> None:
    """A last record cut off in the middle of its line (a killed or disk-full run) was counted
    as a game and the next record appended to it: one line of two half games, two games lost.
    A whole last record without its newline is kept."""
    records = tmp_path / "r.iss"
    records.write_text("".join(contracts[:2]) + contracts[2][:cut])
    train(records)  # fitting 4 games fails ("too few"): only the records matter here
    assert records.read_text() == "".join(contracts)


def test_train_bidding_refuses_records_of_another_seed(
    tmp_path: Path, contracts: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Games of seed 1 were counted as games 0, 1 of seed 2, whose games 2, 3 were appended."""
    records = tmp_path / "r.iss"
    records.write_text("".join(contracts[:2]))
    capsys.readouterr()
    assert train(records, seed=2) == 2
    one_error_line(capsys.readouterr().err, "--records")
    assert records.read_text() == "".join(contracts[:2])


def test_train_bidding_refuses_a_resume_with_other_worlds_or_guide(
    tmp_path: Path, contracts: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Games played with 1 world were continued with 2 (or chosen by a --guide model) in the
    same file without a word: the file's header keeps the options, a resume must repeat them."""
    records = tmp_path / "r.iss"
    train(records)
    header = "# skat train bidding games: seed 1, worlds 1, guide none\n"
    assert records.read_text() == header + "".join(contracts)
    records.write_text(header + "".join(contracts[:2]))  # as a kill after two games left it
    kept = records.read_bytes()
    guide = str(Path(skat.__file__).parent / "data" / "bidding.npz")
    capsys.readouterr()
    for option, more in (("--worlds", ["--worlds", "2"]), ("--guide", ["--guide", guide])):
        assert train(records, 1, *more) == 2
        one_error_line(capsys.readouterr().err, option)
        assert records.read_bytes() == kept
    train(records)
    assert records.read_text() == header + "".join(contracts)


# ----- Ctrl-C while parallel workers start ------------------------------------------------


def started() -> None:
    """A worker initializer from this module: unpickling it imports this module first."""


def test_ctrl_c_at_a_worker_start_reaches_only_the_caller(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A terminal's Ctrl-C reaches the workers too; one still starting up (before it ignores
    SIGINT) died with a KeyboardInterrupt traceback, and the pool was started again and
    again. Workers now start with SIGINT blocked."""
    monkeypatch.setenv("SKAT_TEST_SIGINT_ON_IMPORT", str(os.getpid()))  # for the workers
    assert sorted(run_tasks(abs, [-1, -2], workers=2, initializer=started)) == [(0, 1), (1, 2)]
    assert "Traceback" not in capfd.readouterr().err
