"""Progress reporting of long commands when the output is not a terminal (logs), and the
files they write.

Checks :func:`skat.display.progress_bar`, :func:`skat.display.progress_task` and
:class:`skat.display.PlainProgress` with a controlled clock: lines at each tenth of the work,
never closer than the gap, none for short work, on stderr and never in the results console;
and :func:`skat.display.save_outputs` (``--json`` and ``--plot``).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from skat import display
from skat.display import PlainProgress, progress_bar, progress_task, save_outputs


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def plain(clock: Clock, gap: float = 30.0) -> tuple[PlainProgress, io.StringIO]:
    out = io.StringIO()
    return PlainProgress(console=Console(file=out), gap=gap, clock=clock), out


def lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line]


def test_a_line_at_each_tenth_of_long_work(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar, out = plain(clock)
    with bar:
        task = bar.add_task("deals", total=1000)
        for _ in range(1000):
            clock.now += 1.0
            bar.advance(task)
    got = lines(capsys.readouterr().err)
    assert [re.sub(r",.*", "", g) for g in got] == [
        f"deals: {100 * k}/1000 ({10 * k}%)" for k in range(1, 11)
    ]
    assert got[0] == "deals: 100/1000 (10%), 0:01:40 elapsed, about 0:15:00 left"
    assert got[-1] == "deals: 1000/1000 (100%), 0:16:40 elapsed"
    assert "deals:" not in out.getvalue()  # the results console gets no progress lines


def test_lines_keep_the_gap(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar, _ = plain(clock)
    task = bar.add_task("positions", total=1000)
    for n in range(1, 1001):
        clock.now = n / 10  # a tenth every 10 s: only every third one is 30 s after the last line
        bar.advance(task)
    got = [g.split(",")[0] for g in lines(capsys.readouterr().err)]
    assert got == [
        "positions: 300/1000 (30%)",
        "positions: 600/1000 (60%)",
        "positions: 900/1000 (90%)",
    ]


def test_short_work_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar, _ = plain(clock)
    task = bar.add_task("games", total=3)
    for _ in range(3):
        clock.now += 5.0
        bar.advance(task)
    assert capsys.readouterr().err == ""


def test_unknown_totals_report_at_1_2_5_10(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar, _ = plain(clock, gap=0.0)
    task = bar.add_task("playing", total=None)
    for n in range(1, 120):
        clock.now = float(n)
        bar.update(task, completed=n)
    got = lines(capsys.readouterr().err)
    assert [g.split(",")[0] for g in got] == [f"playing: {n}" for n in (1, 2, 5, 10, 20, 50, 100)]
    assert got[2] == "playing: 5, 0:00:05 elapsed"


def test_the_bar_kind_follows_the_console() -> None:
    assert isinstance(progress_bar(Console(file=io.StringIO())), PlainProgress)
    terminal = progress_bar(Console(file=io.StringIO(), force_terminal=True))
    assert not isinstance(terminal, PlainProgress)


def test_times_count_from_the_task_start(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar, _ = plain(clock)
    clock.now = 100.0  # a first phase without a task
    task = bar.add_task("trees", total=2)
    clock.now = 160.0
    bar.advance(task)
    assert lines(capsys.readouterr().err) == [
        "trees: 1/2 (50%), 0:01:00 elapsed, about 0:01:00 left"
    ]


def test_a_task_reports_what_is_done_and_a_total_learned_on_the_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    bar, out = plain(clock, gap=0.0)
    monkeypatch.setattr(display, "progress_bar", lambda console: bar)
    with progress_task(Console(file=out), "games") as progress:
        clock.now = 10.0
        progress(1)
        progress(2, 4)
    assert lines(capsys.readouterr().err) == [
        "games: 1, 0:00:10 elapsed",
        "games: 2/4 (50%), 0:00:10 elapsed, about 0:00:10 left",
    ]


def test_outputs_are_the_json_then_the_plot_with_its_path(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=1000)
    report, png = tmp_path / "report.json", tmp_path / "[b]plot.png"
    drawn: list[tuple[object, str, bool]] = []

    def draw(data: object, path: str) -> None:
        drawn.append((data, path, report.exists()))

    save_outputs(console, {"a": 1}, str(report), str(png), draw, "figure")
    assert json.loads(report.read_text()) == {"a": 1}
    assert drawn == [({"a": 1}, str(png), True)]
    assert out.getvalue() == f"figure: {png}\n"  # the path as it is, never markup

    def never(data: object, path: str) -> None:
        raise AssertionError(path)

    save_outputs(console, {"a": 2}, None, "", never)
    assert out.getvalue().count("\n") == 1


def test_a_bar_on_a_log_writes_nothing_to_the_results_console(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Entered and left around work and a result, the bar of a console that is not a
    terminal adds nothing to that console: the result is its first line."""
    out = io.StringIO()
    console = Console(file=out)
    with progress_bar(console) as bar:
        task = bar.add_task("work", total=2)
        bar.advance(task)
        bar.advance(task)
    console.print("result")
    assert out.getvalue() == "result\n"
    assert capsys.readouterr().out == ""
