"""Invalid input to the Python API raises a specific skat.SkatError (wrong types: TypeError),
never a bare ValueError, OverflowError, KeyError, AttributeError, EOFError or an abort:
transposition tables that cannot be allocated, non-integral bidding kinds and seats, bad seeds
and segment names, non-View arguments, bad record paths and damaged model files."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import skat
from skat import encoding
from skat.bidding import BiddingModel, ModelError
from skat.bidding import win_probabilities as _win_probabilities
from skat.bidding import win_probability as _win_probability
from skat.bidding.knn import KnnError, KnnModel
from skat.inference import InferenceError, InferenceTables, make_inference, world_weights
from skat.players import PlayerSpecError, make_player

# typed loosely: the calls below pass what the annotations rule out
win_probability: Any = _win_probability
win_probabilities: Any = _win_probabilities

HAND = "CJ SJ HJ CA CT CK SA ST HA D7"
SKAT = "D8 D9"

# The address-space limit of the child processes below: far less than any table they ask
# for, so every such allocation fails at once without touching memory.
_LIMIT = 2 << 30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_LIMIT, _LIMIT))


def _run_limited(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited,
        check=False,
    )


TABLE_CALLS = {
    "solver 32768": "skat.Solver(tt_mb=32768)",
    "solver 65536": "skat.Solver(tt_mb=65536)",
    "solver within the range but not the limit": "skat.Solver(tt_mb=4096)",
    "pimc": "skat.Pimc(worlds=2, tt_mb=65536)",
    "pimc threads": "skat.Pimc(worlds=2, threads=3, tt_mb=1024)",
    "iimc": "skat._core.Iimc(worlds=2, inner=[2], threads=2, tt_mb=4096)",
    "player spec": "make_player('pimc:tt_mb=32768')",
    "solve_many": "skat.Solver(tt_mb=512).solve_many([POSITION] * 3, threads=3)",
    "benchmark": "skat._core.solver_benchmark(1, 1, 0, 65536)",
}


@pytest.mark.parametrize("call", list(TABLE_CALLS.values()), ids=list(TABLE_CALLS))
def test_a_table_that_cannot_be_allocated_is_a_skat_error(call: str) -> None:
    script = textwrap.dedent(
        f"""
        import skat
        from skat.players import make_player
        POSITION = skat.Position(("CJ SJ", "CA CT", "SA ST"), "G", declarer=0, leader=0)
        try:
            {call}
        except skat.SkatError as e:
            print(type(e).__name__, "|", e)
        else:
            print("no error")
        # the process goes on: a small solver still works
        print(skat.Solver(tt_mb=16).solve(POSITION))
        """
    )
    r = _run_limited([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    first, value = r.stdout.strip().splitlines()
    assert "cannot allocate" in first and "transposition table" in first, first
    kind = first.split(" | ")[0]
    assert kind in ("ArgumentError", "PlayerSpecError"), first
    assert value == "46"


def test_the_table_error_is_an_argument_error_naming_the_size() -> None:
    script = "import skat\ntry:\n skat.Solver(tt_mb=65536)\nexcept skat.ArgumentError as e:\n"
    script += " print(e)"
    r = _run_limited([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "cannot allocate a 65536 MB transposition table"


def test_the_solver_benchmark_reports_a_table_it_cannot_allocate_in_one_line() -> None:
    args = ["--positions", "1", "--ablation-positions", "0", "--seed", "1", "--tt-mb", "65536"]
    r = _run_limited([sys.executable, "-m", "skat", "bench", "solver", *args])
    assert r.returncode not in (0, -6, 134), r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot allocate a 65536 MB transposition table" in lines[0]


def test_a_row_list_that_cannot_be_allocated_is_a_tables_error() -> None:
    """Listing the rows of a 5-card suit or grand table (24 bytes a row, gigabytes) aborted the
    process where the memory was not there; the list grows fallibly, and the process goes on."""
    script = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        import skat
        from skat._core import lookup_row_count
        try:
            lookup_row_count("grand", 5)
        except skat.TablesError as e:
            print(e)
        print(lookup_row_count("grand", 3))
        """
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == [
        "cannot allocate the list of the grand-5 table's rows (24 bytes a row)",
        "191034",
    ]


COUNT_CALLS = {
    "solver benchmark": "c.solver_benchmark(N, 1, 0, 32)",
    "solver ablation": "c.solver_benchmark(1, 1, N, 32)",
    "fcf ablation": "c.fcf_solver_ablation(N, 1)",
    "probcut benchmark": "c.probcut_benchmark(N, 1, 0.9)",
    "probcut grid": "c.probcut_grid(N, 1, [0.9])",
    "probcut grid repeats": "c.probcut_grid(1, 1, [0.9], repeat=N)",
    "lookup benchmark": "c.lookup_benchmark(N, 1, None, 3)",
    "estimator samples": "c.estimator_samples(1, N, 'suit', 5)",
    "lookup selfcheck rows": "c.lookup_selfcheck('suit', N, 10, 1)",
}


@pytest.mark.parametrize("n", [2**31, 2**63])
@pytest.mark.parametrize("call", list(COUNT_CALLS.values()), ids=list(COUNT_CALLS))
def test_a_count_beyond_its_limit_is_an_argument_error(call: str, n: int) -> None:
    """A count of positions (samples, rows, repeats) the machine cannot hold aborted the process
    ("memory allocation of 68719476736 bytes failed") or raised a Rust panic ("capacity
    overflow"); it is refused before anything is drawn."""
    script = textwrap.dedent(
        f"""
        import skat
        from skat import _core as c
        N = {n}
        try:
            {call}
        except skat.ArgumentError as e:
            print(e)
        """
    )
    r = _run_limited([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    most = 1000 if "repeat" in call else skat._core.MAX_POSITIONS  # repeats: MAX_REPEATS
    assert r.stdout.strip().endswith(f"must be at most {most}, got {n}"), r.stdout


def test_the_cli_limits_positions_as_the_core_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert skat.defaults.POSITIONS_MAX == skat._core.MAX_POSITIONS
    from skat.cli import main

    too_many = str(skat.defaults.POSITIONS_MAX + 1)
    for argv in (
        ["bench", "solver", "--positions", too_many],
        ["bench", "solver", "--ablation-positions", too_many],
        ["research", "pcut-error", "--positions", too_many],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and argv[-2] in err[0], err


def test_tables_of_a_normal_size_still_work() -> None:
    s = skat.Solver(tt_mb=1)
    assert s.options["tt_mb"] == 1
    assert skat.Pimc(worlds=2, threads=2, tt_mb=1).threads == 2


# ----- bidding kinds and seats ---------------------------------------------------------------

BIDDING_CALLS: list[tuple[str, Callable[[], Any], type[Exception]]] = [
    ("nan kind", lambda: win_probability(HAND, SKAT, float("nan"), 0), ModelError),
    ("inf kind", lambda: win_probability(HAND, SKAT, float("inf"), 0), ModelError),
    ("fraction kind", lambda: win_probability(HAND, SKAT, 1.5, 0), ModelError),
    ("numpy fraction kind", lambda: win_probability(HAND, SKAT, np.float64(2.5), 0), ModelError),
    ("kind out of range", lambda: win_probability(HAND, SKAT, 7, 0), ModelError),
    ("huge card bits", lambda: win_probabilities([2**70], [3], [0], [0]), skat.ArgumentError),
    ("text seats", lambda: win_probabilities([HAND], [SKAT], ["G"], "xx"), skat.ArgumentError),
    ("fraction seat", lambda: win_probabilities([HAND], [SKAT], ["G"], [0.5]), skat.ArgumentError),
    ("nan kinds", lambda: win_probabilities([HAND], [SKAT], [float("nan")], [0]), ModelError),
    ("seat out of range", lambda: win_probabilities([HAND], [SKAT], ["G"], [3]), skat.SkatError),
]


@pytest.mark.parametrize(
    ("call", "error"),
    [(c, e) for _, c, e in BIDDING_CALLS],
    ids=[n for n, _, _ in BIDDING_CALLS],
)
def test_bidding_kinds_and_seats_that_are_not_integers_are_skat_errors(
    call: Callable[[], Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        call()


def test_bidding_kinds_of_the_wrong_type_are_type_errors() -> None:
    with pytest.raises(TypeError):
        win_probability(HAND, SKAT, None, 0)


def test_integers_and_numpy_integer_arrays_are_still_accepted() -> None:
    hand, discard = skat.Cards(HAND), skat.Cards(SKAT)
    single = win_probability(hand, discard, 4, 1)
    assert win_probability(hand, discard, np.int64(4), 1) == single
    as_lists = win_probabilities([hand], [discard], [4], [1])
    as_arrays = win_probabilities(
        np.array([hand.bits], dtype=np.uint32),
        np.array([discard.bits], dtype=np.int64),
        np.array([4], dtype=np.int8),
        np.array([1], dtype=np.int64),
    )
    assert np.allclose(as_lists, [single]) and np.allclose(as_arrays, [single])


# ----- encoding ------------------------------------------------------------------------------


def _view() -> skat.View:
    return skat.Game(skat.Deal.random(seed=7)).view(0)


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**64])
def test_a_seed_outside_64_bits_is_an_argument_error(seed: int) -> None:
    with pytest.raises(skat.ArgumentError):
        encoding.indistinguishable_deal(_view(), seed)


def test_an_unknown_segment_is_a_skat_error_naming_the_segments() -> None:
    with pytest.raises(skat.SkatError, match=r"hand.*tricks_done"):
        encoding.segment("xx")
    with pytest.raises(TypeError):
        encoding.segment(3)  # type: ignore[arg-type]
    assert encoding.segment("seat") == slice(0, 3)


VIEW_FUNCTIONS: list[Callable[[Any], Any]] = [
    encoding.action_index,
    encoding.observation,
    encoding.observation_reference,
    encoding.describe,
    encoding.information_state,
    encoding.legal_indices,
    encoding.legal_indices_reference,
    encoding.action_mask,
    encoding.auction,
]


@pytest.mark.parametrize("function", VIEW_FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("argument", [None, 0, "CA"])
def test_encoding_functions_refuse_other_types_with_type_error(
    function: Callable[[Any], Any], argument: Any
) -> None:
    with pytest.raises(TypeError, match=function.__name__.removesuffix("_reference")):
        function(argument)


def test_a_view_function_refuses_a_game() -> None:
    with pytest.raises(TypeError, match="View"):
        encoding.observation(skat.Game(skat.Deal.random(seed=7)))  # type: ignore[arg-type]


# ----- inference -----------------------------------------------------------------------------


def test_inference_sides_of_the_wrong_type_are_type_errors() -> None:
    with pytest.raises(TypeError, match="sides"):
        make_inference(0)
    with pytest.raises(TypeError, match="sides"):
        world_weights(_view(), [], sides=None)  # type: ignore[arg-type]
    with pytest.raises(InferenceError):
        make_inference("XX")


# ----- record files --------------------------------------------------------------------------


def test_a_record_path_with_a_lone_surrogate_is_a_parse_error() -> None:
    with pytest.raises(skat.ParseError):
        list(skat.read_iss("\ud800"))


def test_a_record_path_with_a_nul_character_is_a_parse_error() -> None:
    """It was a bare ValueError ("embedded null byte") from open."""
    from skat.records import read_records

    with pytest.raises(skat.ParseError, match="NUL"):
        list(skat.read_iss("games\0.iss"))
    with pytest.raises(skat.ParseError, match="NUL"):
        read_records(["games\0.iss"])


def test_a_file_descriptor_is_not_a_record_path() -> None:
    r, w = os.pipe()
    try:
        with pytest.raises(TypeError, match="file path"):
            skat.read_iss(r)  # type: ignore[arg-type]
        os.fstat(r)  # still open
    finally:
        os.close(r)
        os.close(w)


def test_missing_record_files_stay_os_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        list(skat.read_iss(tmp_path / "none.iss"))
    with pytest.raises(IsADirectoryError):
        list(skat.read_iss(tmp_path))


# ----- model files ---------------------------------------------------------------------------


def _damaged(tmp_path: Path) -> list[Path]:
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04junk")
    text = tmp_path / "text.npz"
    text.write_text("not a model\n")
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array("[1, 2]"), x=np.zeros(3))
    return [empty, junk, text, other]


@pytest.mark.parametrize(
    ("load", "error", "player"),
    [(BiddingModel.load, ModelError, "kermit"), (KnnModel.load, KnnError, "knn")],
)
def test_a_damaged_model_is_one_error_line_naming_the_file(
    tmp_path: Path, load: Callable[[Path], object], error: type[Exception], player: str
) -> None:
    """Bidding and k-NN models: loading a damaged file, or naming it in a player spec."""
    for path in _damaged(tmp_path):
        with pytest.raises(error, match=path.name) as info:
            load(path)
        assert "\n" not in str(info.value)
        with pytest.raises(PlayerSpecError, match=path.name):
            make_player(f"{player}:model={path}")


def test_damaged_inference_tables_are_an_inference_error(tmp_path: Path) -> None:
    for path in _damaged(tmp_path):
        with pytest.raises(InferenceError, match=path.name):
            InferenceTables.load(path)


@pytest.mark.parametrize(
    "build",
    [
        "KermitPlayer(threshold=2.0, threads=1)",
        "KermitPlayer(candidates=0, threads=1)",
        "KnnPlayer()",
        "MistakePlayer(rate=3)",
        "TrackerPlayer(cap=2.0, threads=1)",
        "CountPlayer(min_opportunities=0, threads=1)",
    ],
)
def test_a_player_class_refuses_an_option_out_of_range_with_a_skat_error(build: str) -> None:
    """The player classes built directly (not from a spec) raised a bare ValueError."""
    import skat.players as players

    with pytest.raises(PlayerSpecError):
        eval(build, vars(players))


def test_a_game_of_two_players_is_an_argument_error() -> None:
    from skat.match import play

    with pytest.raises(skat.ArgumentError, match="three players, got 2"):
        play([make_player("random")] * 2, skat.Deal.random(1))


def test_the_research_functions_refuse_bad_arguments_with_skat_errors() -> None:
    from skat.research.properties import game_kind, measure_game
    from skat.research.softmaxn import true_kinds
    from skat.research.sure_games import survey
    from skat.research.threshold_estimate import study

    game = skat.Game(skat.Deal.random(1))
    for call in (
        lambda: game_kind(game),
        lambda: measure_game(game, 1, 1, 1),
        lambda: true_kinds("rules"),
        lambda: survey(0, 1),
        lambda: study(["rules", "rules", "random"], 1, 1),
    ):
        with pytest.raises(skat.ArgumentError):
            call()
