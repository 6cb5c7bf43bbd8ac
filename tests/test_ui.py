"""The front-end independent pieces: valuation, input parsing, the session and the analysis."""

from __future__ import annotations

import pytest

from skat._core import (
    Action,
    Card,
    Contract,
    Deal,
    Game,
    GameType,
    Phase,
    Position,
    Solver,
    random_game,
)
from skat.match import play
from skat.players import make_player
from skat.tournament import deal_seed
from skat.ui.analysis import analyze_game, win_threshold
from skat.ui.common import (
    DEFAULT_OPPONENT,
    InputError,
    UiError,
    contract_name,
    parse_action,
    parse_card,
    valuation,
)
from skat.ui.session import Session


def test_valuation_explains_every_result_value() -> None:
    for seed in range(3000):
        r = random_game(seed).result
        assert r is not None
        v = valuation(r)
        assert v.value == r.value and list(v.scores) == r.scores
        if r.contract is None:
            continue
        assert v.base is not None
        charged = v.base * v.multiplier if v.multiplier is not None else v.base
        if r.overbid:
            charged = -(-r.bid // v.base) * v.base
            assert any(line.startswith("overbid") for line in v.lines)
        assert (charged if r.won else -2 * charged) == r.value, (seed, v.lines)
        assert "Seeger-Fabian" in v.lines[-1]


def test_the_win_threshold_agrees_with_the_results() -> None:
    checked = 0
    for seed in range(3000):
        g = random_game(seed)
        r = g.result
        if r is None or r.contract is None or r.declarer is None or r.end != "played":
            continue
        c = r.contract
        if c.game_type == GameType.NULL or c.schwarz or r.schwarz or r.declarer_points >= 120:
            continue
        twelve = g.deal.hands[r.declarer] | g.deal.skat
        assert (r.declarer_points >= win_threshold(c, r.bid, twelve)) == r.won, seed
        checked += 1
    assert checked > 1000


def test_people_can_type_cards_and_actions() -> None:
    assert parse_card("♥10") == Card.parse("HT") == parse_card(" h10 ")
    assert parse_card("cj") == Card.parse("CJ")
    with pytest.raises(InputError, match="not a card"):
        parse_card("X9")
    game = Game(Deal.random(1))
    legal = game.legal_actions()
    assert parse_action("p", legal) == Action("p") and parse_action("18", legal) == Action("18")
    for bad, message in [("17", "not a legal bid"), ("CJ", "not possible"), ("", "type one")]:
        with pytest.raises(InputError, match=message):
            parse_action(bad, legal)
    with pytest.raises(InputError, match="not your turn"):
        parse_action("p", [])
    assert contract_name(Contract.parse("NOH")) == "Null ouvert hand"
    assert contract_name(Contract.parse("CHZ")) == "Clubs hand, schwarz announced"
    assert contract_name(Contract.parse("GO")) == "Grand ouvert"
    assert DEFAULT_OPPONENT  # one spec, used wherever no opponent is named


def play_list(s: Session) -> None:
    """Plays the whole list with the person passing and playing the first legal card."""
    while True:
        while not s.game.is_over:
            s.advance()
            if s.waiting_for_human:
                legal = s.legal_actions()
                s.act(Action("p") if Action("p") in legal else legal[0])
        if s.list_over:
            return
        s.next_game()


def test_a_session_rotates_the_seats_and_keeps_the_score_sheet() -> None:
    s = Session(seat=1, opponents=["rules", "random"], seed=4, games=4)
    assert s.names == ("AI 2", "You", "AI 1")
    seats = []
    for i in range(4):
        if i:
            with pytest.raises(UiError):
                s.next_game()  # not over yet
            while not s.game.is_over:
                s.advance()
                if s.waiting_for_human:
                    s.act(s.legal_actions()[-1])
            s.next_game()
        seats.append(s.human_seat)
        assert s.game.deal == Deal.random(deal_seed(4, i))
    assert seats == [1, 0, 2, 1]  # the deal passes round the table
    while not s.game.is_over:
        s.advance()
        if s.waiting_for_human:
            s.act(s.legal_actions()[0])
    assert s.list_over
    with pytest.raises(UiError, match="complete"):
        s.next_game()
    sheet = s.sheet()
    assert len(sheet.rows) == 4
    totals = [0, 0, 0]
    for i, game in enumerate(s.finished):
        r = game.result
        assert r is not None
        for seat in range(3):
            totals[s.chair_at(seat, i)] += r.scores[seat]
    assert list(sheet.totals) == totals
    records = s.records().splitlines()
    assert len(records) == 4 and all("PC[skat play]" in line for line in records)
    for i, line in enumerate(records):
        g = Game.from_iss(line)
        assert g.deal == Deal.random(deal_seed(4, i)) and g.is_over
        assert f"P{s.seat_of(1, i)}[You]" in line


def test_a_session_refuses_moves_out_of_turn_and_changes_nothing() -> None:
    s = Session(seat=0, opponents=["rules"], seed=2, games=1)
    assert s.ai_to_move  # middlehand bids first
    with pytest.raises(InputError, match="not your turn"):
        s.act("p")
    with pytest.raises(InputError):
        s.hint()
    s.advance()
    before = s.game.to_iss()
    for bad in ("zz", "CJ", "17", Action("s")):
        with pytest.raises(InputError):
            s.act(bad)
    assert s.game.to_iss() == before
    with pytest.raises(UiError, match="no AI"):
        s.ai_step()
    with pytest.raises(UiError):
        s.analysis(0)
    with pytest.raises(UiError):
        Session(seat=3)
    with pytest.raises(UiError):
        Session(games=0, opponents=["rules"])
    with pytest.raises(UiError):
        Session(opponents=["rules", "rules", "rules"])


def test_the_same_seed_gives_the_same_list() -> None:
    a = Session(seat=2, opponents=["random"], seed=9, games=2)
    b = Session(seat=2, opponents=["random"], seed=9, games=2)
    play_list(a)
    play_list(b)
    assert a.records() == b.records()


def test_hints_in_every_phase() -> None:
    s = Session(seat=0, opponents=["rules"], seed=1, games=1, hint_worlds=12)
    phases = set()
    while not s.game.is_over:
        s.advance()
        if not s.waiting_for_human:
            continue
        view = s.view()
        hint = s.hint()
        assert hint.action in s.legal_actions()
        phases.add(view.phase)
        if view.phase == Phase.PLAY and len(s.legal_actions()) > 1:
            assert {c.card for c in hint.cards} == {a.card for a in s.legal_actions()}
            assert hint.cards[0].card == hint.action.card and hint.worlds == 12
        legal = s.legal_actions()
        # seed 1: bid 18, then play what the hint says
        s.act(Action("18") if Action("18") in legal else hint.action)
    assert {Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY} <= phases


def test_perfect_play_has_no_costly_moves() -> None:
    """Three open-handed optimal players: the analysis finds nothing to blame."""
    found = 0
    for seed in (2, 3, 5):
        players = [make_player("cheater") for _ in range(3)]
        game = play(players, Deal.random(seed), seed=seed)
        if game.contract is None or game.contract.game_type == GameType.NULL:
            continue
        report = analyze_game(game)
        assert len(report.moves) == len(game.played)
        assert report.costly() == [], [m.describe() for m in report.costly()]
        assert report.start_won == game.result.won  # type: ignore[union-attr]
        assert report.start_value == game.declarer_points
        found += 1
    assert found == 3


def test_the_analysis_finds_a_thrown_game() -> None:
    """The declarer of a won game plays her worst card each time against the best defence:
    the analysis names the card that threw it."""
    for seed in range(40):
        bidders = [make_player("rules") for _ in range(3)]
        start = play(bidders, Deal.random(seed), seed=seed, until=Phase.PLAY)
        if start.contract is None or start.contract.game_type == GameType.NULL:
            continue
        game = start.copy()
        solver = Solver(tt_mb=8)
        if solver.solve(Position.from_game(game)) < 61:
            continue
        while not game.is_over:
            values = solver.analyze(Position.from_game(game))
            # the declarer's worst card, the defenders' best: both give the fewest points
            game.apply(min(values, key=lambda c: values[c]))
        report = analyze_game(game, solver)
        flips = [m for m in report.moves if m.flipped]
        assert report.start_won and flips and flips[0].seat == game.declarer
        assert "turned a won game into a lost one" in " ".join(report.summary(game.declarer))
        return
    pytest.fail("no won game found")


def test_bad_text_in_every_phase_gets_a_short_message_and_changes_nothing() -> None:
    """Undecodable bytes (lone surrogates, as ``surrogateescape`` stdin delivers them), control
    characters, a huge line, duplicate or three cards: an InputError with a short message."""
    bad = ["\udcffCJ", "CJ \udcff", "\udcffCJ CT", "x" * 100_000, "9" * 5000, "\x1b[2J\x00"]
    bad += ["CJ CJ", "CJ CT S7", "17"]
    s = Session(seat=0, opponents=["rules"], seed=1, games=1)
    phases = set()
    while not s.game.is_over:
        s.advance()
        if not s.waiting_for_human:
            continue
        phases.add(s.view().phase)
        before = s.game.to_iss()
        for text in bad:
            with pytest.raises(InputError) as e:
                s.act(text)
            message = str(e.value)
            assert len(message) < 500 and "\x1b" not in message, message[:200]
        assert s.game.to_iss() == before
        legal = s.legal_actions()
        pick = [a for a in (Action("18"), Action("s")) if a in legal]
        s.act(pick[0] if pick else legal[0])
    assert {Phase.BIDDING, Phase.DISCARD, Phase.DECLARE, Phase.PLAY} <= phases
