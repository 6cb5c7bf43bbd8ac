"""``skat play`` against junk: what a person (or a pipe) may type at the terminal table, cut-off
input, Ctrl-C and odd environments. Each is answered with a short message and the same prompt,
or ends the command in one line with a documented exit status (0 for the end of input, 130 for
Ctrl-C, 1 for a console that cannot show the cards); never a traceback, never a changed game.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from skat._core import Action
from skat.cli import checks, main
from skat.ui.common import InputError, parse_action
from skat.ui.session import Session
from skat.ui.terminal import TerminalGame
from tests.test_terminal import prompt, spawn

JUNK = [
    "", "  ", "\t", "x" * 100_000, "\x00", "\x00p", "\x1b[2J", "\ud800", "\udcff", "-1", "0",
    "99", "18.5", "17", "1e3", "٣", "²", "+18", "018", "cj", "h10", "♥10", "10H", "T", "10",
    "Kreuz Bube", "CJ CT", "CJ,CT,CA", "CJ CJ", "C J", "[red]x[/red]", "{n}", "GO", "GS", "GHSZO",
    "NOH", "G.CJ.CT", "SC", "RE", "KONTRA", "TI.1", "undo", "claim", "concede", "save", "a",
    "sheet", "table", "help", "hint", "?", "\u200b", "\u2028", "İ", "1" * 5000,
]  # fmt: skip
"""Input that is no move at most prompts (a few are one at some: ``10``, ``h10``, ``RE``)."""


def _command() -> list[str]:
    script = Path(sys.executable).with_name("skat")
    return [str(script)] if script.exists() else [sys.executable, "-m", "skat.cli"]


def test_a_line_starting_with_a_nul_byte_on_a_terminal_gets_a_message() -> None:
    """Ctrl-Space types a NUL byte. On a terminal, ``input()`` dropped such a line without a
    word and took the next line as the answer to the same prompt."""
    child = spawn("play", "--opponents", "rules", "--seed", "1", "--games", "1")
    try:
        prompt(child)
        os.write(child.child_fd, b"\x00p\rsheet\r")
        text = prompt(child)
        assert "'\\x00p' is not possible now" in text, text
        assert "Score sheet" in prompt(child)
        child.sendline("q")
        child.expect("Stopped")
    finally:
        child.close(force=True)


def test_a_closed_standard_input_is_the_end_of_input() -> None:
    """``skat play <&-``: was a RuntimeError (input(): lost sys.stdin) with a traceback."""
    args = ["play", "--opponents", "rules", "--seed", "1", "--games", "1"]
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" <&-', *_command(), *args],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    assert b"End of input: stopped." in done.stdout


def test_ctrl_c_before_the_table_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the AI players are built (a second or two with the default opponents, and
    likewise during a ``--watch`` game): was a KeyboardInterrupt traceback."""

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(checks, "check_specs", interrupted)
    for argv in (["play", "--seed", "1"], ["play", "--watch", "--seed", "1"]):
        try:
            code = main(argv)
        except KeyboardInterrupt:
            pytest.fail(f"Ctrl-C escaped skat {' '.join(argv)}")
        assert code == 130
        assert capsys.readouterr().err == "skat play: interrupted\n"


def test_a_console_that_cannot_show_the_suits_is_refused_in_one_line() -> None:
    """A Latin-1 (or ASCII) locale: was a UnicodeEncodeError traceback at the first card."""
    env = dict(os.environ, PYTHONIOENCODING="latin-1")
    for extra in ([], ["--watch"]):
        done = subprocess.run(
            [*_command(), "play", "--opponents" if not extra else "--players", "rules",
             "--seed", "1", *extra],
            input=b"p\n", capture_output=True, env=env, timeout=120,
        )  # fmt: skip
        err = done.stderr.decode()
        assert done.returncode == 1 and "Traceback" not in err, err[-2000:]
        assert err.count("\n") == 1 and "cannot show the suit symbols" in err, err


def _junk_session(seed: int) -> tuple[int, Session, str]:
    """A list played by a reader that mixes junk and commands with legal moves (and may stop
    with Ctrl-D or Ctrl-C); checks after each piece of junk that the game moved only if the
    junk named a legal move."""
    rng = random.Random(seed)
    s = Session(
        seat=rng.randrange(3),
        opponents=["rules"],
        seed=seed,
        games=rng.randint(1, 2),
        hint_worlds=4,
        hint_spec="rules",
        ai_seconds=None,
        variants=rng.choice(["", "kontra,bock", "schieberamsch,kontra", "ramsch"]),
    )
    console = Console(
        record=True, width=rng.choice([20, 80]), height=5, color_system=None, file=io.StringIO()
    )
    stop = rng.choice([None, None, EOFError, KeyboardInterrupt])
    stop_at = rng.randint(1, 60)
    expected: list[tuple[object, int, Action | None]] = []
    reads = 0
    terminal: TerminalGame

    def read(text: str) -> str:
        nonlocal reads
        reads += 1
        assert reads < 2000, "the session does not end"
        if expected:
            game, moves, action = expected.pop()
            if game is s.game and not s.game.is_over:
                history = s.game.history
                assert len(history) == moves if action is None else history[moves][1] == action
        if stop is not None and reads >= stop_at:
            raise stop
        if text.startswith(("Enter", "List complete", "Liste fertig")):
            return rng.choice(["", "", "a", "sheet", "zzz", "save /nonexistent/x.iss"])
        legal = s.legal_actions()
        if rng.random() < 0.4:
            junk = rng.choice(JUNK)
            _, numbers = terminal.prompt_for(legal)
            meant = numbers.get(junk.strip())
            if meant is None and not junk.strip().isdigit():
                try:
                    meant = parse_action(junk, legal)
                except InputError:
                    meant = None
            if junk.strip().lower() not in ("undo", "claim", "concede"):
                expected.append((s.game, len(s.game.history), meant))
            return junk
        return str(rng.choice(legal)).lower()

    terminal = TerminalGame(s, console, read=read, lang=rng.choice(["en", "de"]))
    code = terminal.run()
    assert code == (130 if stop is KeyboardInterrupt and reads >= stop_at else 0)
    if stop is None:
        assert len(s.finished) == s.games
    return code, s, console.export_text()


def test_random_junk_between_legal_moves_never_breaks_a_list() -> None:
    """Seeded sessions: junk at every kind of prompt gets a message and the same prompt, the
    lists end (played out, or at Ctrl-D / Ctrl-C) with status 0 / 130."""
    codes = set()
    for seed in range(40):
        code, _, text = _junk_session(seed)
        codes.add(code)
        assert "Traceback" not in text and "\x1b" not in text
    assert codes == {0, 130}
