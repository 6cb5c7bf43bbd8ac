"""The output files of the ``skat`` commands: checked before any work starts, never written
over one another or over an input, and valid JSON.

- ``--plot FILE`` names a figure matplotlib can save (its extension says which kind);
- an output file or directory is shown to be creatable before the work (made and removed
  again), so that a run never fails at its end with other outputs half written;
- two outputs naming one file, or an output naming an input, are refused;
- ``--ray`` takes ``auto``, ``local`` or a reachable ``ray://HOST:PORT``;
- ``--json`` files hold ``null`` where a number is not finite.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from skat.cli import build_parser, checks, main
from skat.display import save_json
from tests.conftest import iss_files

LONG_NAME = "x" * 300 + ".json"
"""A file name longer than any file system allows (255 bytes), for root and others alike."""


def _error_line(err: str, *parts: str) -> None:
    """``err`` is one line without a traceback, containing every one of ``parts``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for part in parts:
        assert part in lines[0], (part, lines[0])


def _options(parser: argparse.ArgumentParser, path: str = "skat") -> list[tuple[str, Any]]:
    """``(command and option, action)`` of every option of ``parser`` and its subcommands."""
    found: list[tuple[str, Any]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _options(sub, f"{path} {name}")
        for option in action.option_strings:
            found.append((f"{path} {option}", action))
    return found


# --plot: a figure matplotlib can save


def test_every_plot_file_option_is_checked_as_a_figure() -> None:
    plots = [(name, a) for name, a in _options(build_parser()) if name.endswith(" --plot")]
    assert len(plots) > 10
    for name, action in plots:
        if action.metavar == "DIR":  # research synthetic: a directory of figures
            continue
        assert action.type is checks.plot_file, name


def test_plot_with_an_unknown_extension_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = str(iss_files()[0])
    for plot in ("x.txt", "noext"):
        out = tmp_path / "a.json"
        code = main(["analyze", records, "--workers", "1", "--json", str(out), "--plot", plot])
        assert code == 2, plot
        _error_line(capsys.readouterr().err, "--plot", plot, ".png")
        assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_plot_file_accepts_the_figure_kinds(tmp_path: Path) -> None:
    for name in ("a.png", "b.PDF", "c.svg"):
        assert checks.plot_file(str(tmp_path / name)) == str(tmp_path / name)
    with pytest.raises(argparse.ArgumentTypeError, match="expected a figure file"):
        checks.plot_file(str(tmp_path / "a.json"))


# output paths that cannot be made


def test_an_output_file_that_cannot_be_made_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    play = ["tournament", "random", "random", "--deals", "1", "--seed", "1", "--workers", "1"]
    cases = [
        ["--records", "r.iss", "--json", LONG_NAME],
        ["--json", "r.json", "--records", LONG_NAME + ".iss"],
    ]
    if os.path.isdir("/proc"):
        cases.append(["--records", "r.iss", "--json", "/proc/skat-out.json"])
    for extra in cases:
        assert main([*play, *extra]) == 2, extra
        _error_line(capsys.readouterr().err, "expected a writable file")
        assert list(tmp_path.iterdir()) == [], extra


def test_an_output_directory_that_cannot_be_made_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for out in (str(tmp_path / ("d" * 300)), "/proc/skat-out-dir"):
        if not os.path.isdir(os.path.dirname(out)):
            continue
        assert main(["train", "selfplay", "--games", "1", "--out", out]) == 2
        _error_line(capsys.readouterr().err, "--out", "expected a writable directory")
    assert list(tmp_path.iterdir()) == []


def test_checking_an_output_leaves_nothing_behind(tmp_path: Path) -> None:
    new = tmp_path / "new.json"
    assert checks.out_file(str(new)) == str(new)
    assert not new.exists()
    old = tmp_path / "old.json"
    old.write_text("kept")
    checks.out_file(str(old))
    assert old.read_text() == "kept"
    folder = tmp_path / "run"
    assert checks.out_dir(str(folder)) == str(folder)
    assert not folder.exists()
    checks.out_dir(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


def test_an_output_through_a_dangling_symbolic_link_is_accepted(tmp_path: Path) -> None:
    """A link to a file still to be made is written through: its target is tried, the link
    itself is named in the result, and nothing is left behind."""
    link = tmp_path / "out.iss"
    link.symlink_to(tmp_path / "target.iss")
    assert checks.out_file(str(link)) == str(link)
    assert link.is_symlink() and not (tmp_path / "target.iss").exists()
    (tmp_path / "gone").symlink_to(tmp_path / "no-such-dir" / "x.iss")
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write"):
        checks.out_file(str(tmp_path / "gone"))


# outputs naming one file, or an input


def test_two_outputs_or_an_output_and_an_input_naming_one_file_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    records = tmp_path / "in.iss"
    text = iss_files()[0].read_text()
    records.write_text(text)
    ab = ["--a", "A: random", "--b", "B: random"]
    play = ["tournament", "random", "random", "--deals", "1", "--seed", "1", "--workers", "1"]
    cases = [
        ([*play, "--json", "X", "--records", "./X"], "--records"),
        (["replay", "in.iss", "--json", "in.iss"], "--json"),
        (["analyze", str(records), "--workers", "1", "--json", "in.iss"], "--json"),
        (["tournament-breakdown", "in.iss", "--json", str(records)], "--json"),
        (["tournament-compare", *ab, "in.iss", "in.iss", "--json", "in.iss"], "--json"),
        (["train", "bidding", "--data", "in.iss", "--out", "X", "--held-out-records", "X"], "X"),
    ]
    for argv, option in cases:
        assert main(argv) == 2, argv
        _error_line(capsys.readouterr().err, option)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["in.iss"], argv
        assert records.read_text() == text


def test_dev_null_may_take_several_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists(os.devnull):
        pytest.skip(f"no {os.devnull}")
    play = ["tournament", "random", "random", "--deals", "1", "--seed", "1", "--workers", "1"]
    assert main([*play, "--json", os.devnull, "--records", os.devnull]) == 0
    capsys.readouterr()


# --ray addresses


@pytest.fixture
def with_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ray`` checks as on a machine with Ray installed."""
    find_spec = importlib.util.find_spec

    def fake(name: str, *args: Any) -> Any:
        return object() if name == "ray" else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", fake)


@pytest.mark.usefixtures("with_ray")
def test_ray_addresses_other_than_the_documented_forms_are_refused() -> None:
    assert checks.ray_address("auto") == "auto"
    assert checks.ray_address(" local ") == "local"
    for text in ("", "ray://", "127.0.0.1:1", "ray://host", "ray://host:0", "ray://h:65536"):
        with pytest.raises(argparse.ArgumentTypeError, match="ray://HOST:PORT"):
            checks.ray_address(text)


@pytest.mark.usefixtures("with_ray")
def test_a_ray_client_address_must_accept_a_connection() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert checks.ray_address(f"ray://127.0.0.1:{port}") == f"ray://127.0.0.1:{port}"
    with pytest.raises(argparse.ArgumentTypeError, match="cannot connect"):
        checks.ray_address(f"ray://127.0.0.1:{port}")


def test_a_bad_ray_address_is_named_before_a_missing_ray(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("Ray is installed")
    assert main(["tournament", "rules", "random", "--ray", "127.0.0.1:1"]) == 2
    _error_line(capsys.readouterr().err, "--ray", "ray://HOST:PORT")
    assert main(["tournament", "rules", "random", "--ray", "auto"]) == 2
    _error_line(capsys.readouterr().err, "--ray", "needs Ray")


# --json: valid JSON


def _strict(text: str) -> Any:
    """``text`` parsed as JSON, refusing the non-standard ``NaN`` and ``Infinity``."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is no JSON")

    return json.loads(text, parse_constant=refuse)


def test_json_files_hold_null_for_numbers_that_are_not_finite(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    save_json(path, {"mean": math.nan, "rows": [(1.5, -math.inf)], "n": 3})
    assert _strict(path.read_text()) == {"mean": None, "rows": [[1.5, None]], "n": 3}


def test_a_one_deal_study_writes_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.json"
    argv = ["research", "iimc", "soloist", "random", "random", "--deals", "1", "--seed", "1"]
    assert main([*argv, "--workers", "1", "--json", str(path)]) == 0
    capsys.readouterr()
    data = _strict(path.read_text())
    assert data["a_soloist_se"] is None
