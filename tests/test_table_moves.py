"""Taking a card back, claiming the rest and conceding at the table (session and web API).

The claim check (:func:`skat.ui.claims.rest_is_certain`) is compared with an exhaustive search
over every line of play on endgames of at most three tricks.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

import skat
from skat import Game, GameType, Solver
from skat.match import play
from skat.players import make_player
from skat.players.rules import RulesPlayer
from skat.records import actor_seat
from skat.ui.analysis import analyze_game
from skat.ui.claims import defender_points_so_far, rest_is_certain
from skat.ui.common import InputError
from skat.ui.session import Session
from skat.web.server import BackgroundServer
from skat.web.tables import Tables


def reference_certain(game: Game) -> bool:
    """Whether every line of play leaves the declarer the rest: no defender trick with card
    points (none at all while she has every trick so far), null: no declarer trick."""
    d = game.declarer
    null = game.contract is not None and game.contract.game_type == GameType.NULL
    schwarz = all(w == d for _, _, w in game.tricks)

    def breaks(cards: list[skat.Card], winner: int) -> bool:
        if null:
            return winner == d
        return winner != d and (schwarz or sum(c.points for c in cards) > 0)

    def holds(g: Game) -> bool:
        if g.is_over:
            return True
        n = len(g.tricks)
        results = []
        for card in sorted(g.legal_cards()):
            child = g.copy()
            child.apply(str(card))
            if len(child.tricks) > n and breaks(*child.tricks[-1][1:]):
                results.append(False)
            else:
                results.append(holds(child))
        return any(results) if g.to_move == d else all(results)

    return holds(game.copy())


def endgames(tricks_left: int, seeds: range) -> Iterator[Game]:
    for seed in seeds:
        deal = skat.Deal.random(seed)
        full = play([make_player("rules") for _ in range(3)], deal, seed=seed)
        if full.contract is None or full.result is None or full.result.passed:
            continue
        g = Game(deal)
        for actor, action in full.history:
            if g.is_over or len(g.tricks) >= 10 - tricks_left:
                break
            g.apply(action, actor if isinstance(actor, int) else None)
        if not g.is_over and len(g.tricks) == 10 - tricks_left:
            yield g


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_claim_check_matches_an_exhaustive_search(tricks_left: int) -> None:
    solver = Solver(tt_mb=4)
    checked = certain = 0
    for g in endgames(tricks_left, range(120)):
        assert rest_is_certain(g, solver) == reference_certain(g), g.to_iss()
        checked += 1
        certain += reference_certain(g)
    assert checked > 60 and 0 < certain < checked  # both answers occur


def test_schwarz_claims_match_an_exhaustive_search() -> None:
    """Four tricks left, the declarer with every trick so far in a suit or grand game: with
    three or more cards without points left, the claim check must also search that she takes
    every trick (a blank trick to the defenders would save them from schwarz)."""
    solver = Solver(tt_mb=4)
    checked = certain = searched = 0
    for g in endgames(4, range(400)):
        assert g.contract is not None
        if g.contract.game_type == GameType.NULL or any(w != g.declarer for *_, w in g.tricks):
            continue
        blanks = sum(c.points == 0 for h in g.hands for c in h) + sum(
            c.points == 0 for c in g.trick
        )
        assert rest_is_certain(g, solver) == reference_certain(g), g.to_iss()
        checked += 1
        certain += reference_certain(g)
        searched += blanks >= 3
    assert searched >= 5 and 0 < certain < checked  # the every-trick search ran, both answers


def test_a_blank_trick_to_the_defenders_makes_a_schwarz_claim_uncertain() -> None:
    """Grand hand, the declarer (middlehand) with all six tricks so far and every card point
    left in her hand: HJ DJ HA H7 against S9 H9 H8 D9 and C8 C7 S8 S7. Best play gives her all
    120 points, but forehand's second heart beats H7 in a trick without points, which saves
    the defenders from schwarz: the claim is not certain."""
    deal = skat.Deal(
        (
            skat.Cards.parse("C9 SQ S9 H8 H9 HK HQ DT D9 D7"),
            skat.Cards.parse("CJ SJ HJ DJ CA CT SA DA HA H7"),
            skat.Cards.parse("C7 C8 CK CQ S7 S8 SK DK DQ D8"),
        ),
        skat.Cards.parse("ST HT"),
    )
    g = Game(deal)
    auction = ["18", "p", "p", "GH"]
    tricks = ["DT DA DK", "CA CK C9", "CT CQ HK", "SA SK SQ", "CJ DQ HQ", "SJ D8 D7"]
    for token in auction + [card for trick in tricks for card in trick.split()]:
        g.apply(token)
    assert len(g.tricks) == 6 and all(w == g.declarer for *_, w in g.tricks)
    solver = Solver(tt_mb=4)
    assert solver.solve(skat.Position.from_game(g)) == 120 - defender_points_so_far(g)
    assert not reference_certain(g)
    assert not rest_is_certain(g, solver)


def _session_at(declarer: bool, certain: bool) -> Session:
    """A session in card play at the person's turn, she declarer (or a defender), with the rest
    to the declarer certain (or not); the person's moves come from a rules player."""
    solver = Solver(tt_mb=4)
    for seed in range(300):
        s = Session(seat=0, opponents=["rules"], seed=seed, games=1, ai_seconds=None)
        me = RulesPlayer()
        me.new_game(0, seed)
        s.advance()
        while not s.game.is_over:
            if s.waiting_for_human:
                g = s.game
                mine = g.declarer == s.human_seat
                if (
                    g.phase == skat.Phase.PLAY
                    and mine == declarer
                    and len(g.tricks) >= 2
                    and rest_is_certain(g, solver) == certain
                ):
                    return s
                s.act(me.act(s.view()))
            s.advance()
    raise AssertionError("no such session in 300 seeds")


@pytest.mark.parametrize("declarer", [True, False])
def test_a_certain_ending_gives_the_declarer_the_rest(declarer: bool) -> None:
    s = _session_at(declarer, certain=True)
    before = defender_points_so_far(s.game)
    s.claim() if declarer else s.concede()
    r = s.game.result
    assert s.game.is_over and r is not None and r.won is not None
    if s.game.contract is not None and s.game.contract.game_type != GameType.NULL:
        assert r.declarer_points == 120 - before
    assert len(s.sheet().rows) == 1


@pytest.mark.parametrize("declarer", [True, False])
def test_a_game_ended_by_a_claim_replays_and_is_analysed(declarer: bool) -> None:
    """After a claim the defenders' answers are recorded as ``RE`` by their seats; every replay
    must pass those seats (without them an answer reads as the declarer resigning)."""
    s = _session_at(declarer, certain=True)
    s.claim() if declarer else s.concede()
    game = s.game
    assert any(a.kind == "resign" for _, a in game.history)
    replayed = skat.Game(game.deal, variants=game.variants)
    for actor, action in game.history:
        replayed.apply(action, actor_seat(actor))
    assert replayed.to_iss() == game.to_iss()
    again = skat.Game.from_iss(game.to_iss())
    report = analyze_game(again)
    assert len(report.moves) == len(game.played)
    assert analyze_game(game).moves == report.moves


@pytest.mark.parametrize("declarer", [True, False])
def test_an_uncertain_ending_is_refused_and_changes_nothing(declarer: bool) -> None:
    s = _session_at(declarer, certain=False)
    record = s.game.to_iss()
    with pytest.raises(InputError, match="not certain"):
        s.claim() if declarer else s.concede()
    assert s.game.to_iss() == record and not s.game.is_over
    if declarer:
        s.concede()  # the declarer resigns: always accepted, and the game is lost
        assert s.game.is_over and s.game.result is not None and not s.game.result.won
    else:
        with pytest.raises(InputError, match="declarer claims"):
            s.claim()


def test_undo_takes_back_the_last_card_and_the_moves_after_it() -> None:
    s = Session(seat=0, opponents=["rules"], seed=5, games=1, ai_seconds=None)
    me = RulesPlayer()
    me.new_game(0, 5)
    s.advance()
    with pytest.raises(InputError, match="not played a card"):
        s.undo()
    while s.game.phase != skat.Phase.PLAY or not s.waiting_for_human:
        s.act(me.act(s.view()))
        s.advance()
    before = s.game.to_iss()
    played = s.act(s.legal_actions()[-1])
    s.advance()
    assert s.game.to_iss() != before
    assert s.can_undo
    assert s.undo() == played
    assert s.game.to_iss() == before and s.waiting_for_human
    assert "took back" in s.notes[-1]
    rated = Session(seat=0, opponents=["rules"], seed=5, games=1, undo=False)
    assert not rated.can_undo
    with pytest.raises(InputError, match="rated"):
        rated.undo()


def test_web_api_undo_claim_concede() -> None:
    tables = Tables(opponents=["rules"], pace=0)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        state = c.post("/api/sessions", json={"seed": 5, "games": 1}).json()
        sid = state["id"]
        assert c.post(f"/api/sessions/{sid}/undo").status_code == 409  # no card played yet
        assert c.post(f"/api/sessions/{sid}/claim").status_code == 422  # not in card play
        while state["phase"] != "play" or not state["your_turn"]:
            if state["your_turn"]:
                token = state["legal"][-1]["token"]
                state = c.post(f"/api/sessions/{sid}/action", json={"action": token}).json()
            else:
                state = c.get(f"/api/sessions/{sid}?after={state['version']}&wait=10").json()
        card = next(h["card"] for h in state["hand"] if h["legal"])
        state = c.post(f"/api/sessions/{sid}/action", json={"action": card}).json()
        assert state["can_undo"]
        back = c.post(f"/api/sessions/{sid}/undo")
        assert back.status_code == 200
        while back.json()["busy"]:
            back = c.get(f"/api/sessions/{sid}?after={back.json()['version']}&wait=10")
        assert card in [h["card"] for h in back.json()["hand"]]
        end = c.post(f"/api/sessions/{sid}/concede")
        if end.status_code == 200:
            assert end.json()["over"]
        else:
            assert end.status_code == 422 and "not certain" in end.json()["error"]
        rated = c.post("/api/sessions", json={"seed": 5, "games": 1, "rated": True}).json()
        assert rated["rated"] and not rated["can_undo"]
        assert c.post("/api/sessions", json={"rated": "yes"}).status_code == 422


def test_the_terminal_takes_back_and_concedes() -> None:
    from rich.console import Console

    from skat.ui.terminal import TerminalGame

    s = Session(seat=0, opponents=["rules"], seed=5, games=1, ai_seconds=None)
    console = Console(record=True, width=160, force_terminal=False, color_system=None)
    me = RulesPlayer()
    me.new_game(0, 5)
    said: list[str] = []

    def read(prompt: str) -> str:
        if s.game.is_over:
            return "q"
        if s.can_undo and not said:  # right after the person's first card
            said.append("undo")
            return "undo"
        if said == ["undo"]:
            said.append("concede")
            return "concede"
        return str(me.act(s.view()))

    TerminalGame(s, console, read=read).run()
    text = console.export_text()
    assert "You took back" in text
    assert s.game.is_over or "not certain" in text
