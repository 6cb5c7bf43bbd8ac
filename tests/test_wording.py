"""The person is "You": every sentence about her uses the verb's base form ("You win", "You
take"), everyone else the third person ("AI 1 wins"), in the terminal, the web state and the
analysis."""

from __future__ import annotations

import re

from rich.console import Console

from skat._core import Action, Phase
from skat.ui.common import result_text, verb
from skat.ui.session import Session
from skat.ui.terminal import TerminalGame
from skat.web.state import session_state

# "You" followed by a third-person verb form: what must never be printed
WRONG = re.compile(
    r"\bYou (wins|loses|takes|plays|declares|passes|bids|holds|picks|discards|is|has)\b",
    re.IGNORECASE,
)
RIGHT = re.compile(r"\bYou (win|lose)\b")


def test_verb_agrees_with_you_and_with_the_others() -> None:
    forms = {b: (verb(b, True), verb(b, False)) for b in ("win", "lose", "pass", "be", "have")}
    assert forms == {
        "win": ("win", "wins"),
        "lose": ("lose", "loses"),
        "pass": ("pass", "passes"),
        "be": ("are", "is"),
        "have": ("have", "has"),
    }


def _eager_choice(s: Session) -> Action:
    """Bid and hold as long as possible, pick up, put away the first two cards, declare the
    first game, play the first legal card: the person often declares, and wins or loses."""
    legal = s.legal_actions()
    kinds = {a.kind for a in legal}
    for kind in ("bid", "hold", "pickup"):
        if kind in kinds:
            return next(a for a in legal if a.kind == kind)
    return legal[0]


def _terminal_game(seed: int) -> tuple[Session, str]:
    """One game played through the terminal front end with :func:`_eager_choice`, then the
    analysis; returns the session and everything printed."""
    s = Session(seat=0, opponents=["rules"], seed=seed, games=1, hint_worlds=8)
    console = Console(record=True, width=160, force_terminal=False, color_system=None)
    after_game = iter(["a", "q"])

    def read(prompt: str) -> str:
        console.print(prompt)
        if s.game.is_over:
            return next(after_game)
        return str(_eager_choice(s))

    TerminalGame(s, console, read=read).run()
    return s, console.export_text()


def test_the_terminal_and_the_web_say_you_win_and_you_lose() -> None:
    outcomes: set[bool] = set()
    for seed in range(40):
        s, text = _terminal_game(seed)
        r = s.game.result
        assert r is not None
        assert not WRONG.search(text), WRONG.findall(text)
        state = session_state(s, "x", 0, False)
        assert not WRONG.search(state["result"]["text"]), state["result"]["text"]
        for entry in state["log"]:
            assert not WRONG.search(entry["text"]), entry
        if r.declarer != s.human_seat or r.contract is None:
            continue
        expected = "You win" if r.won else "You lose"
        assert state["result"]["text"].startswith(expected), state["result"]["text"]
        assert expected in text and RIGHT.search(text), text
        summary = " ".join(s.analysis(0).summary(s.human_seat, ["You", "AI 1", "AI 2"]))
        assert not WRONG.search(summary) and "you " in summary, summary
        everyone = " ".join(s.analysis(0).summary(None, ["You", "AI 1", "AI 2"]))
        assert not WRONG.search(everyone), everyone
        outcomes.add(r.won)
        if outcomes == {True, False}:
            return
    raise AssertionError(f"the person declared and won/lost only {outcomes} in 40 deals")


def test_result_text_names_the_others_in_the_third_person() -> None:
    s = Session(seat=0, opponents=["rules"], seed=3, games=1)
    while not s.game.is_over:
        s.advance()
        if s.waiting_for_human:
            legal = s.legal_actions()
            s.act(next((a for a in legal if a.kind == "pass"), legal[0]))
    r = s.game.result
    assert r is not None
    if r.declarer is None:
        assert result_text(r, "You", False) == "Passed in: nobody plays."
    else:
        assert s.game.phase == Phase.OVER and r.declarer != s.human_seat
        text = result_text(r, "AI 1", False)
        assert text.startswith("AI 1 wins" if r.won else "AI 1 loses"), text
        assert result_text(r, "You", True).startswith("You win" if r.won else "You lose")
