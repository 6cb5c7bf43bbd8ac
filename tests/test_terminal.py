"""``skat play`` in a pseudo-terminal: a whole game answered prompt by prompt, as a person would.

The command runs as a child process on a pty (pexpect); each prompt ends in ``" > "`` and lists
what may be typed, and the answers are chosen from that text alone.
"""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from skat._core import Game
from skat.ui.session import Session
from skat.ui.terminal import TerminalGame

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def plain(text: str) -> str:
    return ANSI.sub("", text)


def spawn(*args: str) -> pexpect.spawn[str]:
    """The installed ``skat`` command (or ``python -m skat.cli``) on a pseudo-terminal."""
    script = Path(sys.executable).with_name("skat")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "skat.cli"]
    env = dict(os.environ, COLUMNS="160", LINES="50", TERM="xterm-256color")
    return pexpect.spawn(
        cmd[0], [*cmd[1:], *args], encoding="utf-8", timeout=60, env=env, dimensions=(50, 160)
    )


def prompt(child: pexpect.spawn[str]) -> str:
    """Waits for the next prompt; returns the text since the previous one (ANSI removed)."""
    child.expect_exact(" > ")
    return plain(str(child.before))


def answer(text: str, bid_limit: int = 20) -> str:
    """A legal answer chosen from the prompt text alone."""
    last = text.rsplit("\n", 1)[-1]
    if last.startswith("Your bid"):
        first = re.search(r"bid (\d+)", last)
        return first.group(1) if first and int(first.group(1)) <= bid_limit else "p"
    if last.startswith("Hold "):
        held = re.search(r"Hold (\d+)\?", last)
        return "y" if held and int(held.group(1)) <= bid_limit else "p"
    if "Pick up the skat" in last:
        return "s"
    if "Put two cards away" in last:
        m = re.search(r"e\.g\. ([A-Z0-9]{2} [A-Z0-9]{2})", last)
        assert m, last
        return m.group(1)
    if last.startswith("Declare ("):
        return last.split("(", 1)[1].split()[0]
    if "Play a card" in last:
        return "1"
    raise AssertionError(f"unexpected prompt: {last!r}")


def test_skat_play_a_whole_game_in_a_terminal(tmp_path: Path) -> None:
    records = tmp_path / "list.iss"
    t0 = time.monotonic()
    child = spawn(
        "play", "--opponents", "rules", "--seed", "1", "--games", "1", "--records", str(records)
    )
    seen: list[str] = []
    try:
        text = prompt(child)
        assert "Game 1 of 1" in text and "Your hand" in text
        # bad input: a message and the same prompt again, nothing else changes
        child.sendline("xyz")
        again = prompt(child)
        assert "is not possible now" in again
        assert again.rsplit("\n", 1)[-1] == text.rsplit("\n", 1)[-1]
        child.sendline("help")
        assert "hint (or ?)" in prompt(child)
        text = again
        hinted = False
        while "Enter = next game" not in text and "List complete" not in text:
            last = text.rsplit("\n", 1)[-1]
            if "Play a card" in last and not hinted:
                child.sendline("hint")
                text = prompt(child)
                assert "Hint:" in text and "win chance" in text
                hinted = True
                continue
            if "Play a card" in last:
                child.sendline("99")
                text = prompt(child)
                assert "there is no card 99" in text
            reply = answer(text)
            seen.append(reply)
            child.sendline(reply)
            text = prompt(child)
        assert hinted
        assert "Result" in text and "Seeger-Fabian" in text and "Score sheet" in text
        assert re.search(r"(wins|lose|loses|win) Diamonds", text), text
        child.sendline("a")
        text = prompt(child)
        assert "Analysis of game 1" in text and "With every card known" in text
        assert "Your" in text
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.exitstatus
    assert "s" in seen and any(len(r) == 5 for r in seen)  # picked up and put two cards away
    lines = records.read_text().splitlines()
    assert len(lines) == 1 and "P0[You]" in lines[0]
    game = Game.from_iss(lines[0])
    assert game.is_over and game.declarer == 0
    assert time.monotonic() - t0 < 60


def test_skat_play_stops_cleanly_on_quit_and_end_of_input() -> None:
    child = spawn("play", "--opponents", "rules", "--seed", "2", "--games", "2")
    try:
        prompt(child)
        child.sendline("sheet")
        assert "Score sheet" in prompt(child)
        child.sendline("q")
        child.expect(pexpect.EOF)
        assert "not scored" in plain(str(child.before))
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    child = spawn("play", "--opponents", "rules", "--seed", "2")
    try:
        prompt(child)
        child.sendeof()
        child.expect(pexpect.EOF)
        assert "stopped" in plain(str(child.before))
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_skat_play_answers_undecodable_input_and_keeps_reading() -> None:
    """Bytes that are not UTF-8 on a strictly decoding stdin (a UTF-8 locale other than C):
    a message, and the lines read with them are not lost (here all come in one pipe chunk)."""
    script = Path(sys.executable).with_name("skat")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "skat.cli"]
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", COLUMNS="120")
    args = ["play", "--opponents", "rules", "--seed", "1", "--games", "1"]
    # seed 1: both AI players pass; "\xff" is refused, "p" passes the game in, "q" quits
    done = subprocess.run(
        [*cmd, *args], input=b"\xff\xfe\np\nq\n", capture_output=True, env=env, timeout=60
    )
    out = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert "is not possible now" in out and "passed in" in out and "List complete" in out


def test_after_a_game_odd_input_gets_a_short_message(tmp_path: Path) -> None:
    """The prompt between games: a file name with a NUL byte, control characters and a huge
    line are answered in one short line; the list and its records are unchanged."""
    s = Session(seat=0, opponents=["rules"], seed=1, games=2)
    console = Console(record=True, width=120, color_system=None, file=io.StringIO())
    folder = tmp_path / ("d" * 40)
    folder.mkdir()
    answers = iter(["p", "save a\x00b", f"save {folder}", "\x1b[2J", "x" * 100_000, "q"])
    TerminalGame(s, console, read=lambda prompt: next(answers)).run()
    text = console.export_text()
    assert "cannot write 'a\\x00b': embedded null byte" in text
    assert "...: Is a directory" in text  # the path is quoted, its end cut
    assert "'\\x1b[2J' is not understood here" in text and "\x1b" not in text
    assert "x" * 41 not in text and "'" + "x" * 40 + "'... is not understood" in text
    assert s.index == 0 and len(s.finished) == 1 and list(tmp_path.iterdir()) == [folder]
    assert list(folder.iterdir()) == []


def _next_answer(answers: Iterator[str], prompt: str) -> str:
    return next(answers)


def test_taking_back_a_card_is_said_once_in_the_terminals_words() -> None:
    """``undo`` names the card taken back ("You took back ♦A.", in German "Du hast ♦A
    zurückgenommen."), and the session's English note about it is not printed again later."""
    for lang, said in (("en", "You took back ♦A."), ("de", "Du hast ♦A zurückgenommen.")):
        s = Session(seat=0, opponents=["rules"], seed=1, games=1)
        console = Console(record=True, width=120, color_system=None, file=io.StringIO())
        # seed 1: Diamonds; the second card (♦A) is taken back when the third trick starts
        answers = iter(["18", "s", "CJ HJ", "D", "1", "1", "undo", "1", "q"])
        TerminalGame(s, console, read=functools.partial(_next_answer, answers), lang=lang).run()
        text = console.export_text()
        assert said in text and "you took back" not in text.lower().replace(said.lower(), "")


def test_skat_play_rejects_bad_options() -> None:
    child = spawn("play", "--opponents", "nobody", "--seed", "1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "available" in plain(str(child.before))
    child = spawn("play", "--seat", "north", "--seed", "1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


@pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"),
    reason="tmux is not installed (run scripts/install-browser)",
)
def test_skat_play_in_tmux_shows_the_table() -> None:
    """The same command in tmux: what a person sees on a real terminal screen (CI fails
    instead of skipping when tmux is missing)."""
    script = Path(sys.executable).with_name("skat")
    cmd = f"{script} play" if script.exists() else f"{sys.executable} -m skat.cli play"
    name = f"skat-test-{os.getpid()}"
    env_prefix = (
        f"PYTHONPATH={os.environ.get('PYTHONPATH', '')} " if "PYTHONPATH" in os.environ else ""
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "150", "-y", "45",
         f"{env_prefix}{cmd} --opponents rules --seed 5 --games 1; sleep 5"],
        check=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        screen = ""
        while time.monotonic() < deadline and "p = pass) >" not in screen:
            time.sleep(0.2)
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True
            ).stdout
        assert "Your hand: ♣J" in screen and "p = pass) >" in screen, screen
        subprocess.run(["tmux", "send-keys", "-t", name, "q", "Enter"], check=True)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


def answer_de(text: str) -> str:
    """A legal answer from a German prompt: pass every auction, pass the skat on, play the
    first card."""
    last = text.rsplit("\n", 1)[-1]
    if last.startswith("Dein Gebot") or last.endswith("halten? (y = halten, p = passen) > "):
        return "p"
    if "halten?" in last:
        return "p"
    if "weiterschieben" in last:
        return "p"
    if "Spiel eine Karte" in last:
        return "1"
    raise AssertionError(f"unexpected prompt: {last!r}")


def test_skat_play_in_german_with_schieberamsch() -> None:
    """``--lang de``: the terminal's words in German; a list with Schieberamsch where the
    person passes every auction (this seed: the first game is passed by all three)."""
    child = spawn(
        "play",
        "--opponents",
        "rules",
        "--seed",
        "5",
        "--games",
        "2",
        "--lang",
        "de",
        "--variants",
        "schieberamsch,kontra",
    )
    try:
        text = prompt(child)
        assert "Spiel 1 von 2" in text and "Deine Karten" in text and "Tischvarianten" in text
        child.sendline("help")
        assert "Tippe die Aktion" in prompt(child)
        while "Enter = nächstes Spiel" not in text:
            child.sendline(answer_de(text))
            text = prompt(child)
        assert "Ergebnis" in text and "Spielliste" in text and "Pik" in text, text
        child.sendline("")  # the second game: all three pass, a Schieberamsch
        text = prompt(child)
        assert "Spiel 2 von 2" in text
        while "Liste fertig" not in text:
            child.sendline(answer_de(text))
            text = prompt(child)
        assert "Ramsch: " in text and "Augen" in text and "Ramsch" in text, text
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
