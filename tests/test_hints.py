"""Hints and the post-game analysis agree, and bidding hints carry the 10+2 win chance.

A card-play hint is the Monte Carlo search over the deals the person cannot tell apart; the
analysis is the open-handed solver on the true deal. They may disagree in hindsight, but a card
played where the hint named it is never called costly. Bidding hints give the chance of winning
a game that reaches the bid in question (:func:`skat.bidding.evaluate`).
"""

from __future__ import annotations

import re

from rich.console import Console

from skat._core import Action, Phase
from skat.bidding import evaluate
from skat.ui.session import Session
from skat.ui.terminal import TerminalGame
from skat.web.tables import Tables
from tests.test_web import serve, settle


def _play_the_hints(seed: int) -> Session:
    """One game in which the person bids 18 when she can and otherwise follows every hint."""
    s = Session(seat=0, opponents=["rules"], seed=seed, games=1, hint_worlds=6, hint_threads=1)
    while not s.game.is_over:
        s.advance()
        if not s.waiting_for_human:
            continue
        legal = s.legal_actions()
        if s.view().phase == Phase.BIDDING and any(str(a) == "18" for a in legal):
            s.act("18")
            continue
        s.act(s.hint().action)
    return s


def test_a_hinted_card_is_never_costly_even_when_hindsight_disagrees() -> None:
    disagreed = 0
    for seed in range(30):
        s = _play_the_hints(seed)
        report = s.analysis(0)
        you = s.human_seat
        mine = [m for m in report.moves if m.seat == you and not m.forced]
        for m in mine:
            assert m.hinted, m.describe()  # every unforced card of hers followed a hint
            assert not m.costly, m.describe()
            if m.flipped or m.points_lost > 0:
                disagreed += 1
                assert "followed the hint" in m.describe()
                assert m.as_dict()["costly"] is False and m.as_dict()["hinted"] is True
        assert report.costly([you]) == []
        summary = report.summary(you, ["You", "AI 1", "AI 2"])
        assert "Your moves: no card cost the game or card points." in summary, summary
        if disagreed:
            return
    raise AssertionError("the open-handed solver never disagreed with a hint in 30 games")


def test_a_card_other_than_the_hint_is_still_judged() -> None:
    """Only the hinted card is spared: the analysis of the same game without the hints
    records blames the cards it did before."""
    from skat.ui.analysis import analyze_game

    for seed in range(30):
        s = _play_the_hints(seed)
        plain = analyze_game(s.finished[0])
        with_hints = s.analysis(0)
        blamed = [m.number for m in plain.costly([s.human_seat])]
        if blamed:
            assert all(with_hints.moves[n - 1].hinted for n in blamed)
            assert with_hints.costly([s.human_seat]) == []
            return
    raise AssertionError("no costly hinted card found in 30 games")


def test_bidding_hints_show_the_win_chance() -> None:
    s = Session(seat=1, opponents=["rules"], seed=4, games=1)
    s.advance()
    assert s.waiting_for_human and s.view().phase == Phase.BIDDING
    hint = s.hint()
    view = s.view()
    assert hint.win is not None and hint.win_bid is not None and hint.win_bid >= 18
    assert abs(hint.win - evaluate(view.hand, view.seat, hint.win_bid)) < 1e-9
    shown = f"{100 * hint.win:.0f}%"
    assert shown in hint.text and str(hint.win_bid) in hint.text
    assert hint.as_dict()["win"] == round(hint.win, 4)


def test_the_terminal_shows_the_bidding_win_chance() -> None:
    s = Session(seat=0, opponents=["rules"], seed=4, games=1)
    console = Console(record=True, width=160, color_system=None)
    answers = iter(["hint", "q"])
    TerminalGame(s, console, read=lambda prompt: next(answers)).run()
    text = console.export_text()
    m = re.search(r"win a game worth at least (\d+): (\d+)%", text)
    assert m, text
    expected = evaluate(s.view().hand, s.view().seat, int(m.group(1)))
    assert int(m.group(2)) == round(100 * expected)


def test_the_web_hint_in_the_auction_has_the_win_chance() -> None:
    with serve(Tables(opponents=["rules"], pace=0, workers=2)) as c:
        r = c.post("/api/sessions", json={"seed": 4, "seat": 0, "games": 1})
        assert r.status_code == 201
        state = settle(c, r.json()["id"])
        assert state["phase"] == "bidding" and state["your_turn"]
        hint = c.get(f"/api/sessions/{state['id']}/hint").json()
        assert 0.0 <= hint["win"] <= 1.0 and hint["win_bid"] >= 18
        assert f"{round(100 * hint['win'])}%" in hint["text"]


def test_a_hint_in_a_line_taken_back_does_not_count() -> None:
    """A hint names a card for one position; after the person takes cards back and plays
    another line, the same card at the same card number is not "followed the hint"."""

    def cards(s: Session) -> list[Action]:
        return [a for a in s.legal_actions() if a.kind == "play"]

    def to_her_card(s: Session) -> None:
        s.advance()
        while s.waiting_for_human and s.game.phase != Phase.PLAY:
            legal = s.legal_actions()
            s.act(Action("s") if Action("s") in legal else legal[0])  # hold, pick up, ...
            s.advance()

    # seed 3: she plays Diamonds; her 2nd card is card 5 in either line, the hinted one legal
    s = Session(seat=0, opponents=["rules"], seed=3, games=1, hint_worlds=8, hint_threads=1)
    to_her_card(s)
    s.act(cards(s)[0])
    to_her_card(s)
    number = len(s.game.played) + 1
    hinted = s.hint().action
    s.act(hinted)
    s.undo()
    s.undo()  # back to her first card: a hint given here still counts
    s.act(cards(s)[1])  # another line
    to_her_card(s)
    assert len(s.game.played) + 1 == number and hinted in cards(s)
    s.act(hinted)  # the same card at the same number, without a hint in this line
    while not s.game.is_over:
        to_her_card(s)
        if s.waiting_for_human:
            s.act(cards(s)[0])
    move = s.analysis(0).moves[number - 1]
    assert move.card == hinted.card and not move.hinted, move.describe()
