"""Resumed and compared tournament records, self-play shards and player specs: a file of
another run is refused in one line before any work, and no file is lost or changed."""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path

import pytest

from skat.cli import main
from skat.tournament import run
from skat.training.selfplay import SelfplayConfig, read_manifest, selfplay, shard_name

BASE = ["tournament", "random", "random", "--deals", "2", "--seed", "1", "--workers", "1"]


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("written", "resumed", "words"),
    [
        ([], ["--variants", "kontra"], "table variants"),
        (["--variants", "kontra"], [], "table variants"),
        ([], ["--mode", "full"], "not those of full mode"),
        (["--mode", "full"], [], "not those of cardplay mode"),
    ],
)
def test_resume_of_other_variants_or_mode_is_refused_and_kept(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    written: list[str],
    resumed: list[str],
    words: str,
) -> None:
    path = tmp_path / "r.iss"
    assert main([*BASE, *written, "--records", str(path)]) == 0
    before = path.read_bytes()
    _refused(capsys, [*BASE, *resumed, "--records", str(path), "--resume"], words)
    assert path.read_bytes() == before


def test_resume_refuses_a_deal_in_another_modes_seatings(tmp_path: Path) -> None:
    from skat.tournament_resume import ResumeError

    path = tmp_path / "c.iss"
    run("random", "random:seed=2", deals=2, seed=1, records=path)
    before = path.read_bytes()
    with pytest.raises(ResumeError, match="seatings"):
        run("random", "random:seed=2", mode="full", deals=2, seed=1, records=path, resume=True)
    assert path.read_bytes() == before


def test_resume_keeps_the_files_permissions(tmp_path: Path) -> None:
    path = tmp_path / "p.iss"
    assert main([*BASE, "--records", str(path)]) == 0
    os.chmod(path, 0o644)
    assert main([*BASE[:4], "3", *BASE[5:], "--records", str(path), "--resume"]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    fresh = tmp_path / "new.iss"
    assert main([*BASE, "--records", str(fresh), "--resume"]) == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_compare_refuses_records_of_different_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.iss", tmp_path / "b.iss"
    assert main([*BASE, "--records", str(a)]) == 0
    assert main([*BASE[:6], "2", *BASE[7:], "--records", str(b)]) == 0
    names = ["--a", "A: random", "--b", "B: random"]
    _refused(capsys, ["tournament-compare", str(a), str(b), *names], "seed 2")
    assert main(["tournament-compare", str(a), str(a), *names]) == 0


def test_tournament_bidder_only_in_cardplay_mode(capsys: pytest.CaptureFixture[str]) -> None:
    for bidder in ("rules", "random"):
        argv = [*BASE, "--mode", "full", "--bidder", bidder]
        _refused(capsys, argv, "--bidder: only in cardplay mode")


def test_a_player_class_failing_to_build_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cls = tmp_path / "cls.py"
    cls.write_text(
        "class P:\n    def __init__(self):\n        raise KeyError('x')\n"
        "    def act(self, view): ...\n"
    )
    _refused(capsys, ["tournament", f"{cls}:P", "random", "--deals", "1"], "KeyError")


# ----- self-play shards ---------------------------------------------------------------------

CHEAP = ("random", "random", "random")


def _run(directory: Path, games: int = 3) -> int:
    config = SelfplayConfig(seed=1, players=CHEAP, shard_games=1)
    return selfplay(directory, games, config, workers=1).played


def test_a_damaged_shard_is_played_again(tmp_path: Path) -> None:
    _run(tmp_path)
    good = (tmp_path / shard_name(1)).read_bytes()
    (tmp_path / shard_name(1)).write_text("garbage\n")
    assert _run(tmp_path) == 1
    assert (tmp_path / shard_name(1)).read_bytes() == good
    (tmp_path / shard_name(2)).write_bytes(gzip.compress(b""))  # no games
    assert _run(tmp_path) == 1


def test_shards_the_manifest_does_not_list_are_played_again(tmp_path: Path) -> None:
    _run(tmp_path)
    (tmp_path / "manifest.json").unlink()
    assert _run(tmp_path) == 3
    manifest = read_manifest(tmp_path)
    assert manifest is not None and sorted(manifest["shards"]) == [shard_name(k) for k in range(3)]


def test_a_shard_of_another_seed_without_manifest_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(tmp_path)
    (tmp_path / "manifest.json").unlink()
    before = (tmp_path / shard_name(0)).read_bytes()
    argv = ["train", "selfplay", "--games", "3", "--out", str(tmp_path), "--players", "random"]
    _refused(capsys, [*argv, "--seed", "2", "--workers", "1", "--shard-games", "1"], "--out")
    assert (tmp_path / shard_name(0)).read_bytes() == before


@pytest.mark.parametrize(
    "manifest",
    [
        [1, 2],
        {"format": 1},
        {"format": 1, "config": {}, "shards": {"shard-00000.iss.gz": "x"}},
        {"format": 1, "config": {}, "shards": {"shard-00000.iss.gz": {"games": 1}}},
    ],
)
def test_a_malformed_manifest_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], manifest: object
) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    argv = ["train", "selfplay", "--games", "3", "--out", str(tmp_path), "--players", "random"]
    _refused(capsys, [*argv, "--workers", "1", "--shard-games", "1"], "manifest.json")
