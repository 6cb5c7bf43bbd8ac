"""Bad input to the ``skat`` command: one line on stderr naming the option, never a traceback.

Every case runs through :func:`skat.cli.main` in-process, and a sample through a real
``python -m skat.cli`` subprocess. A bad option must be reported before any work starts
(a tournament whose ``--json`` cannot be written never plays a deal).
"""

from __future__ import annotations

import gzip
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import skat
import skat.tournament
from skat import SkatError
from skat.cli import main

MISSING = "/nonexistent-skat-dir/x"


def _files(tmp: Path) -> dict[str, str]:
    """Bad input files in ``tmp``: ``garbage`` (bytes that are no UTF-8 text, model, samples
    file or SQLite database), ``empty`` and ``gz`` (gzip-compressed records)."""
    garbage = tmp / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 4)
    empty = tmp / "empty.iss"
    empty.write_bytes(b"")
    gz = tmp / "records.iss.gz"
    gz.write_bytes(gzip.compress(b"(;GM[Skat];)\n"))
    return {"garbage": str(garbage), "empty": str(empty), "gz": str(gz)}


def battery(tmp: Path) -> list[tuple[list[str], str]]:
    """(argv, text the error line must contain: the option's name)."""
    missing = str(tmp / "no-such-dir" / "out.json")
    f = _files(tmp)
    sp, guide = str(tmp / "sp"), ["--guide", f["garbage"]]
    return [
        (["deal", "--seed", "-1"], "--seed"),
        (["deal", "--seed", str(2**64)], "--seed"),
        (["random-games", "10", "--seed", "-5"], "--seed"),
        (["random-games", "0"], "N"),
        (["serve", "--port", "99999"], "--port"),
        (["serve", "--pace", "-1"], "--pace"),
        (["serve", "--opponents", "pimc:worlds=-4"], "--opponents"),
        (["serve", "--db", "mysql://host/skat"], "--db"),
        (["serve", "--db", "postgresql://host/"], "--db"),
        (["tournament", "rules", "random", "--deals", "0"], "--deals"),
        (["tournament", "rules", "random", "--workers", "0"], "--workers"),
        (["tournament", "rules", "random", "--seed", "-1"], "--seed"),
        (["tournament", "pimc:worlds=-4", "rules", "--deals", "1"], "worlds"),
        (["tournament", "rules", "pimc:worlds=abc", "--deals", "1"], "worlds"),
        (["tournament", "rules", "pimc:wrlds=3", "--deals", "1"], "wrlds"),
        (["tournament", "rules", "random", "--bidder", "nobody"], "--bidder"),
        (["tournament", "rules", "random", "--json", missing], "--json"),
        (["tournament", "rules", "random", "--records", MISSING + "/r.iss"], "--records"),
        (["bench", "solver", "--positions", "-2"], "--positions"),
        (["bench", "solver", "--tt-mb", "0"], "--tt-mb"),
        (["bench", "solver", "--pcut", "1.5"], "--pcut"),
        (["bench", "solver", "--pcut", "0.5", "--pcut-error", "1.5"], "--pcut-error"),
        (["bench", "solver", "--pcut-error", "0.5"], "--pcut-error"),
        (["bench", "solver", "--pcut", "0.5", "--pcut-window", "0"], "--pcut-window"),
        (["bench", "solver", "--pcut-window", "6"], "--pcut-window"),
        (["research", "pcut-error", "--pcuts", "0,0.5"], "--pcuts"),
        (["research", "pcut-error", "--errors", "1.5"], "--errors"),
        (["train", "estimators", "--positions", "0", "--out", "x.bin"], "--positions"),
        (["train", "estimators", "--out", missing], "--out"),
        (["train", "estimators", "--decay", "0", "--out", "x.bin"], "--decay"),
        (["bench", "inference", "--positions", "-2"], "--positions"),
        (["bench", "bidding", "--hands", "0"], "--hands"),
        (["bench", "pimc", "--worlds", "0"], "--worlds"),
        (["bench", "pimc", "--game-player", "kermit:wrlds=3"], "--game-player"),
        (["bench", "rules", "--games", "abc"], "--games"),
        (["bench", "rules", "--json", missing], "--json"),
        (["play", "--records", MISSING + "/x.iss"], "--records"),
        (["play", "--opponents", "pimc:worlds=-4"], "--opponents"),
        (["play", "--opponents", "pimc:worlds=abc"], "--opponents"),
        (["play", "--opponents", "pimc:wrlds=3"], "--opponents"),
        (["play", "--seat", "7"], "--seat"),
        (["play", "--games", "0"], "--games"),
        (["play", "--variants", "ramsh"], "--variants"),
        (["tournament", "rules", "random", "--variants", "bock"], "--variants"),
        (
            ["tournament", "rules", "random", "--mode", "clones", "--variants", "kontra"],
            "--variants",
        ),
        (["play", "--watch", "--players", "pimc:threads=0"], "--players"),
        (["play", "--watch", "--players", "rules,rules"], "--players"),
        (["play", "--players", "rules"], "--players"),
        (["play", "--watch", "--seat", "1"], "--seat"),
        (["play", "--watch", "--opponents", "rules"], "--opponents"),
        (["play", "--watch", "--games", "2"], "--games"),
        (["play", "--watch", "--lang", "de"], "--lang"),
        (["replay", str(tmp)], "FILE"),
        (["replay", str(tmp / "missing.sgf")], "FILE"),
        (["replay", str(Path(__file__)), "--json", missing], "--json"),
        (["train", "inference", "--deals", "0"], "--deals"),
        (["train", "inference", "--deals", "5", "--workers", "0"], "--workers"),
        (["train", "inference", "--deals", "5", "--bidder", "kermit:threshold=2"], "--bidder"),
        (["train", "bidding", "--games", "5"], "--games"),
        (["train", "bidding", "--held-out", "1.5", "--data", __file__], "--held-out"),
        (["report", "inference", "--data", str(tmp / "missing.iss")], "--data"),
        (["report", "bidding", "--model", str(tmp)], "--model"),
        (["report", "bidding"], "--data"),
        (["research", "properties", "--games", "0"], "--games"),
        (["report", "bidding", "--data", __file__, "--solver-games", "0"], "--data"),
        (["bench", "nothing"], "KIND"),
        (["no-such-command"], "COMMAND"),
        # an explicit empty spec list is no request for the default players
        (["play", "--opponents", ""], "--opponents"),
        (["play", "--opponents", ","], "--opponents"),
        (["play", "--watch", "--players", ""], "--players"),
        (["serve", "--opponents", ""], "--opponents"),
        # an empty --host would listen on every interface
        (["serve", "--host", ""], "--host"),
        (["serve", "--host", "a" * 64], "--host"),
        (["serve", "--db", f["garbage"]], "--db"),
        (["tournament", "rules", "random", "--mode", "full", "--bidder", "kermit"], "--bidder"),
        (["tournament-compare", str(tmp), __file__, "--a", "x", "--b", "y"], "RECORDS_A"),
        (["tables", "build", "--cards", "3", "--out", str(tmp / "t"), "--seed", "5"], "--seed"),
        (["tables", "build", "--cards", "3", "--estimate", "1", "--seed", str(2**64)], "--seed"),
        (["tables", "check", str(tmp), "--seed", str(2**64)], "--seed"),
        (["research", "sure-games", "--budget", str(2**64)], "--budget"),
        (["research", "thresholds", "--player", "kermit:threshold=2"], "--player"),
        (["research", "softmaxn", "--observer", "rules"], "--observer"),
        (["research", "softmaxn", "--observer", "softmaxn:infer=false"], "--observer"),
        (["train", "estimators", "--out", "x.bin", "--samples", f["garbage"]], "--samples"),
        (["train", "selfplay", "--games", "1", "--out", sp, "--worlds", "5"], "--worlds"),
        (["train", "selfplay", "--games", "1", "--out", sp, "--contracts", *guide], "--guide"),
        (["train", "bidding", "--data", __file__, *guide], "--guide"),
        (["train", "bidding", "--games", "1", "--records", str(tmp / "r.iss"), *guide], "--guide"),
        (["train", "bidding", "--games", "1", "--records", f["garbage"]], "--records"),
        (["train", "bidding", "--games", "1", "--records", f["gz"]], "--records"),
        (["train", "bidding", "--games", "1", "--records", __file__], "--records"),
        (["train", "curve", "--data", __file__, "--sizes", ""], "--sizes"),
        (["train", "curve", "--data", __file__, "--reference", f["garbage"]], "--reference"),
        (["train", "curve", "--data", __file__], "--data"),
        (["report", "bidding", "--data", __file__, "--model", f["garbage"]], "--model"),
        (["report", "inference", "--data", __file__], "--data"),
        (["report", "inference", "--data", f["empty"]], "--data"),
    ]


def _one_error_line(err: str, option: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, lines
    assert option in lines[0] and "error" in lines[0], lines[0]
    assert "Traceback" not in err


def test_battery_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, option in battery(tmp_path):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 2, (argv, code, out, err)
        _one_error_line(err, option)
        assert "Traceback" not in out


def test_battery_names_the_accepted_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv, accepted in (
        (["deal", "--seed", "-1"], f"0..{2**64 - 1}"),
        (["serve", "--port", "99999"], "0..65535"),
        (["tournament", "rules", "random", "--deals", "0"], "1.."),
        (["play", "--opponents", "pimc:worlds=-4"], "1.."),
        (["bench", "solver", "--tt-mb", "0"], "1..65536"),
    ):
        assert main(argv) == 2
        assert accepted in capsys.readouterr().err, argv


def test_battery_in_a_real_process(tmp_path: Path) -> None:
    cases = battery(tmp_path)
    picked = [cases[0], cases[4], cases[12], cases[14], cases[23], cases[31]]
    for argv, option in picked:
        r = subprocess.run(
            [sys.executable, "-m", "skat.cli", *argv],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert r.returncode == 2, (argv, r.stdout, r.stderr)
        _one_error_line(r.stderr, option)
        assert "Traceback" not in r.stdout


def test_bad_output_directory_is_reported_before_the_tournament(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament started")

    monkeypatch.setattr(skat.tournament, "run", no_run)
    json_path = str(tmp_path / "gone" / "t.json")
    assert main(["tournament", "rules", "random", "--deals", "2", "--json", json_path]) == 2
    _one_error_line(capsys.readouterr().err, "--json")


def test_errors_escaping_a_command_become_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import skat.cli.deal

    for exc in (SkatError("the core refused"), OSError("disk full")):

        def fail(seed: int, exc: Exception = exc) -> None:
            raise exc

        monkeypatch.setattr(skat.cli.deal, "first_deal", fail)
        assert main(["deal", "--seed", "1"]) == 1
        _one_error_line(capsys.readouterr().err, str(exc))


def test_extreme_valid_seeds_work(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("0", str(2**64 - 1)):
        assert main(["deal", "--seed", seed]) == 0
        assert main(["random-games", "3", "--seed", seed]) == 0
    assert capsys.readouterr().err == ""


def test_damaged_gzip_records_end_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A gzip record file cut short or with corrupt data shows only when it is read: one
    line naming the file and a non-zero exit, for every command that reads records."""
    records = "".join(skat.random_game(seed).to_iss() + "\n" for seed in range(200))
    whole = gzip.compress(records.encode())
    cut = tmp_path / "cut.iss.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    corrupt = tmp_path / "corrupt.iss.gz"
    corrupt.write_bytes(whole[:12] + bytes(b ^ 0x55 for b in whole[12:-8]) + whole[-8:])
    for path in (str(cut), str(corrupt)):
        for argv in (
            ["replay", path],
            ["analyze", path],
            ["tournament-breakdown", path],
            ["train", "curve", "--data", path],
            ["report", "inference", "--data", path],
        ):
            assert main(argv) in (1, 2), argv  # 2: a command whose check reads its records
            out, err = capsys.readouterr()
            _one_error_line(err, f"skat {argv[0]}")
            assert f"{path}: damaged gzip data" in err
            assert "Traceback" not in out


def test_a_failed_fit_is_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "bidding", "--data", __file__, "--out", "unused.npz"]) == 1
    out, err = capsys.readouterr()
    _one_error_line(err, "skat train bidding: error: too few")
    assert "too few" not in out


def test_ray_options_need_ray_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("Ray is installed")
    for argv in (
        ["tournament", "rules", "random", "--ray", "local"],
        ["train", "knn", "--out", "unused.npz", "--ray", "auto"],
    ):
        assert main(argv) == 2, argv
        _one_error_line(capsys.readouterr().err, "--ray")


def test_serve_on_a_taken_port_is_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        assert main(["serve", "--port", port, "--db", ":memory:"]) == 1
    out, err = capsys.readouterr()
    _one_error_line(err, "skat serve: error: cannot listen on 127.0.0.1:" + port)
    assert out == ""
