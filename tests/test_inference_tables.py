"""Learned inference tables from a file: ``kermit:inference_tables=FILE`` loads them, refuses a
missing or damaged file with one line, and plays in the terminal session and the web table."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from skat._core import Deal, SkatError
from skat.inference import OUTCOMES, InferenceError, InferenceTables, count_hands, make_inference
from skat.inference.files import compiled_tables, load_tables
from skat.players import PlayerSpecError, make_player
from skat.ui.common import split_specs
from skat.ui.session import Session
from skat.ui.terminal import TerminalGame
from skat.web.tables import Tables
from tests.test_web import play_to_end, serve


def write_tables(path: Path, deals: int = 40, seed: int = 1) -> InferenceTables:
    """Small tables in the trainer's file format: the hands of ``deals`` random deals, each
    counted under an auction outcome drawn at random."""
    rng = random.Random(seed)
    hands = [Deal.random(seed * 1000 + j).hands[s] for j in range(deals) for s in range(3)]
    outcomes = [rng.randrange(OUTCOMES) for _ in hands]
    counts, totals = count_hands(hands, outcomes)
    tables = InferenceTables(counts, totals, {"deals": deals, "note": "test tables"})
    tables.save(path)
    return tables


@pytest.fixture(scope="module")
def tables_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inference") / "tables.npz"
    write_tables(path)
    return path


def test_the_tables_file_is_read_back_as_written(tables_file: Path) -> None:
    written = write_tables(tables_file.with_name("again.npz"))
    read = load_tables(tables_file.with_name("again.npz"))
    assert np.array_equal(read.counts, written.counts)
    assert np.array_equal(read.hands, written.hands) and int(read.hands.sum()) == 120
    assert read.meta["note"] == "test tables"
    player = make_player(f"kermit:inference_tables={tables_file},worlds=4")
    assert player.inference_tables == str(tables_file)  # type: ignore[attr-defined]
    # the sampler is the one compiled from the file, not the packaged tables
    from_file = compiled_tables(tables_file, "SD", player.candidates)  # type: ignore[attr-defined]
    assert player.inference is from_file  # type: ignore[attr-defined]
    assert from_file is not make_inference("SD", player.candidates)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("content", "words"),
    [(None, "no such file"), (b"", "cannot read"), (b"PK\x03\x04broken", "cannot read")],
)
def test_a_missing_or_damaged_file_is_refused_in_one_line(
    tmp_path: Path, content: bytes | None, words: str
) -> None:
    path = tmp_path / "bad.npz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InferenceError) as direct:
        load_tables(path)
    assert isinstance(direct.value, SkatError) and words in str(direct.value)
    with pytest.raises(PlayerSpecError) as spec:
        make_player(f"kermit:inference_tables={path},worlds=4")
    message = str(spec.value)
    assert "\n" not in message and words in message and str(path) in message


def test_tables_of_another_layout_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    np.savez(path, counts=np.zeros((3, 4), dtype=np.int64), hands=np.zeros(3, dtype=np.int64))
    with pytest.raises(PlayerSpecError, match="inference counts must be"):
        make_player(f"kermit:inference_tables={path}")


def test_a_terminal_game_against_kermit_with_the_tables(tables_file: Path) -> None:
    spec = f"kermit:inference_tables={tables_file},worlds=4"
    s = Session(seat=0, opponents=[spec], seed=5, games=1, ai_seconds=None)
    console = Console(record=True, width=140, color_system=None)

    def read(prompt: str) -> str:
        if s.game.is_over:
            return "q"
        legal = s.legal_actions()
        return str(next((a for a in legal if a.kind == "pass"), legal[0]))

    assert TerminalGame(s, console, read=read).run() == 0
    assert s.game.is_over and len(s.finished) == 1
    # the AI players declared and played every card (this seed), so the tables were used
    assert s.game.declarer not in (None, s.human_seat) and len(s.game.played) == 30
    text = console.export_text()
    assert "Result" in text and "failed" not in text and not s.notes, s.notes


def test_the_web_table_plays_with_the_servers_tables_and_refuses_a_clients(
    tables_file: Path,
) -> None:
    spec = f"kermit:inference_tables={tables_file},worlds=4"
    with serve(Tables(opponents=[spec], pace=0, workers=2, hint_worlds=8)) as c:
        r = c.post("/api/sessions", json={"seed": 5, "games": 1})
        assert r.status_code == 201, r.text
        final = play_to_end(c, r.json()["id"], seed=5)
        assert final["over"] and final["result"] is not None
        assert final["result"]["declarer"] is not None and final["last_trick"]["number"] == 10
        assert not [n for n in final["notes"] if "failed" in n], final["notes"]
        # the server's own spec may be named by a client; another file may not
        r = c.post("/api/sessions", json={"seed": 6, "opponents": [spec]})
        assert r.status_code == 201, r.text
        other = f"kermit:inference_tables={tables_file.with_name('x.npz')},worlds=4"
        r = c.post("/api/sessions", json={"seed": 6, "opponents": [other]})
        assert r.status_code == 422 and "names a file" in r.json()["error"]


def test_opponent_lists_keep_each_specs_options(tables_file: Path) -> None:
    """``--opponents`` of ``skat play`` and ``skat serve``: a spec's options stay with it."""
    spec = f"kermit:inference_tables={tables_file},worlds=4"
    assert split_specs(spec) == [spec]
    assert split_specs(f"rules, {spec}") == ["rules", spec]
    assert split_specs(f"{spec},pimc:worlds=8,points=false") == [spec, "pimc:worlds=8,points=false"]
    assert [type(make_player(s)).__name__ for s in split_specs(f"{spec},rules")] == [
        "KermitPlayer",
        "RulesPlayer",
    ]
