"""ISS records: every real record replays with its recorded result; writing and reading round
trip; records in progress; malformed records give a RecordError naming id and position."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import skat
from skat.records import iter_records, read_records, replay_file
from tests.conftest import iss_files


def test_every_real_record_replays_with_its_result(iss_lines: list[str]) -> None:
    complete = 0
    for line in iss_lines:
        g = skat.Game.from_iss(line)
        assert g.recorded_result is not None
        complete += 1
        assert g.is_over, g.record_id
        assert g.check_record() == [], (g.record_id, g.check_record())
    assert complete == len(iss_lines) >= 55


def test_replay_summary_and_read_iss() -> None:
    for f in iss_files():
        s = replay_file(f)
        assert s.ok and s.errors == [] and s.mismatches == []
        assert s.records == s.complete == len(list(skat.read_iss(f)))
        assert s.passed == 3


def test_round_trip_of_real_records(iss_lines: list[str]) -> None:
    for line in iss_lines:
        g = skat.Game.from_iss(line)
        h = skat.Game.from_iss(g.to_iss())
        assert h.history == g.history and h.result == g.result
        assert h.record_id == g.record_id and h.header == g.header


def test_special_moves_are_exposed(iss_lines: list[str]) -> None:
    ends: dict[str, int] = {}
    for line in iss_lines:
        r = skat.Game.from_iss(line).result
        assert r is not None
        ends[r.end] = ends.get(r.end, 0) + 1
    assert ends["conceded"] >= 10 and ends["timeout"] >= 2 and ends["left"] >= 1
    penalty = [
        skat.Game.from_iss(line).result for line in iss_lines if "penalty" in line.split("R[")[-1]
    ]
    assert penalty and all(r is not None and r.declarer is None and r.penalty == 2 for r in penalty)


def test_record_in_progress_can_be_continued() -> None:
    line = next(iter(iss_files())).read_text().splitlines()[8]  # a complete game
    g = skat.Game.from_iss(line)
    moves = line.split("MV[")[1].split("]")[0].split()
    cut = " ".join(moves[: 2 * 20])
    partial = line.split("MV[")[0] + "MV[" + cut + " ]R[] ;)"
    p = skat.Game.from_iss(partial)
    assert not p.is_over and p.recorded_result is None and p.check_record() == []
    # continue with the recorded moves
    rest = moves[2 * 20 :]
    for who, tok in zip(rest[0::2], rest[1::2], strict=True):
        if who == "w":
            continue
        p.apply(tok)
    assert p.result == g.result


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("hello", "record"),
        ("(;GM[Chess]ID[5]MV[w x];)", "Skat"),
        ("(;GM[Skat]ID[7]R[passed] ;)", "MV"),
        ("(;GM[Skat]ID[8]MV[w CJ.SJ]R[] ;)", "record 8: move 1"),
        ("(;GM[Skat]ID[9]MV[ 1 18 ]R[] ;)", "record 9: move 1"),
    ],
)
def test_malformed_records(text: str, match: str) -> None:
    with pytest.raises(skat.RecordError, match=match):
        skat.Game.from_iss(text)


def test_illegal_move_in_a_record_names_id_and_position() -> None:
    d = skat.Deal.random(1).to_iss()
    with pytest.raises(skat.RecordError, match=r"record 42: move 3: 0 CJ"):
        skat.Game.from_iss(f"(;GM[Skat]ID[42]MV[w {d} 1 18 0 CJ]R[] ;)")
    with pytest.raises(skat.RecordError, match=r"move 2: 0 18"):
        skat.Game.from_iss(f"(;GM[Skat]ID[43]MV[w {d} 0 18]R[] ;)")  # out of turn
    with pytest.raises(skat.RecordError, match="skat shown"):
        skat.Game.from_iss(f"(;GM[Skat]ID[44]MV[w {d} 1 18 0 p 2 p 1 s w CJ.SJ]R[] ;)")
    with pytest.raises(skat.RecordError, match="unknown player"):
        skat.Game.from_iss(f"(;GM[Skat]ID[45]MV[w {d} 5 18]R[] ;)")
    with pytest.raises(skat.RecordError, match="result"):
        skat.Game.from_iss(f"(;GM[Skat]ID[46]MV[w {d}]R[what] ;)")


def test_read_iss_reports_file_and_line(tmp_path: Path) -> None:
    good = skat.random_game(1).to_iss()
    f = tmp_path / "games.sgf"
    f.write_text(good + "\n\n(;GM[Skat]ID[x]MV[w CJ]R[] ;)\n")
    it = skat.read_iss(f)
    assert next(it).to_iss() == good
    with pytest.raises(skat.RecordError, match=r"games.sgf:3"):
        next(it)


def test_record_collections_skip_comments_and_name_file_and_line(tmp_path: Path) -> None:
    games = [skat.random_game(seed).to_iss() for seed in range(3)]
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "a.iss").write_text(f"# made by a test\n{games[0]}\n\n{games[1]}\n")
    (folder / "b.iss.gz").write_bytes(gzip.compress(f"{games[2]}\n# the end\n".encode()))
    (folder / "notes.txt").write_text("not a record file\n")
    a, b = str(folder / "a.iss"), str(folder / "b.iss.gz")
    assert list(iter_records([folder])) == [(a, 2, games[0]), (a, 4, games[1]), (b, 1, games[2])]
    assert read_records([folder]) == games


def test_a_damaged_gzip_file_is_a_record_error_naming_it(tmp_path: Path) -> None:
    lines = [skat.random_game(seed).to_iss() for seed in range(300)]
    whole = gzip.compress("".join(line + "\n" for line in lines).encode())
    cut = tmp_path / "cut.iss.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    read: list[str] = []
    with pytest.raises(skat.RecordError, match=r"cut.iss.gz: damaged gzip data"):
        read.extend(line for _, line in skat.records.iter_record_lines(cut))
    assert 0 < len(read) < len(lines) and read == lines[: len(read)]  # the lines before it
