"""Table variants in lists and players: the Bock schedule, sessions, the web API, the AI's
Kontra and Re. The rules themselves are cross-checked against the pure-Python reference in
test_reference_crosscheck.py."""

from __future__ import annotations

import httpx
import pytest

import skat
from skat.match import play
from skat.players import PlayerSpecError, make_player
from skat.ui.common import InputError, UiError, parse_action
from skat.ui.session import Session
from skat.variants import BOCK_ROUND, VariantsError, bock_pending, check_variants, game_variants
from skat.web.server import BackgroundServer
from skat.web.tables import Tables

# Forehand declares grand hand with four jacks and resigns at once: lost, worth 8 x 24 = 192
# (schneider and schwarz against her): one Bock event (a game worth 100 or more).
BIG_LOSS = (
    "(;GM[Skat]MV[w CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK"
    ".HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8.C7.D7 1 p 2 p 0 18 0 GH 0 RE ]R[] ;)"
)


def small_game(seed: int) -> skat.Game:
    """A passed-in deal: no Bock event."""
    g = skat.Game(skat.Deal.random(seed))
    for t in ("p", "p", "p"):
        g.apply(t)
    return g


def test_check_variants_canonical_and_errors() -> None:
    assert check_variants("") == ""
    assert check_variants("bock,kontra") == "kontra bock"
    assert check_variants("ramsch schieberamsch") == "schieberamsch"
    for bad in ("ramsh", "kontra kontra", "Kontra"):
        with pytest.raises(VariantsError):
            check_variants(bad)
    with pytest.raises(skat.SkatError):
        skat.Game(skat.Deal.random(1), variants="x")


def test_bock_rounds_queue_up_and_are_used_by_every_deal() -> None:
    big = skat.Game.from_iss(BIG_LOSS)
    assert big.result is not None and big.result.bock_events() == ["value"]
    assert bock_pending([]) == 0
    assert bock_pending([big]) == BOCK_ROUND
    # two events: two rounds; each later deal (passed ones too) uses one Bock game
    assert bock_pending([big, big]) == 2 * BOCK_ROUND - 1
    later = [big] + [small_game(s) for s in range(BOCK_ROUND)]
    assert bock_pending(later) == 0
    assert [game_variants("kontra bock", later[: i + 1]) for i in range(len(later))] == [
        "kontra bock",
        "kontra bock",
        "kontra bock",
        "kontra",
    ]
    # a list without the Bock variant never has Bock games
    assert game_variants("kontra", [big]) == "kontra"
    # a Bock game that is itself an event: the Bock doubling does not count for the value
    doubled = skat.Game(big.deal, variants="bock")
    for _, a in big.history:
        doubled.apply(a)
    assert doubled.result is not None and doubled.result.bock
    assert doubled.result.value == 2 * big.result.value
    assert doubled.result.bock_events() == ["value"]


def _finish_with_kontra(s: Session) -> None:
    """Plays the person's moves: Kontra or Re whenever possible, else the last legal."""
    while not s.game.is_over:
        s.advance()
        if s.waiting_for_human:
            legal = s.legal_actions()
            doubling = [a for a in legal if a.kind in ("kontra", "re")]
            s.act(doubling[0] if doubling else legal[-1])


def test_a_session_plays_its_variants_and_keeps_them_on_resume() -> None:
    s = Session(seat=0, opponents=["rules"], seed=3, games=3, variants="kontra,bock")
    assert s.variants == "kontra bock" and s.describe()["variants"] == "kontra bock"
    levels = []
    for i in range(3):
        _finish_with_kontra(s)
        assert s.game.variants == game_variants("kontra bock", s.finished[:i])
        assert s.game.result is not None
        levels.append(s.game.result.kontra)
        if i < 2:
            s.next_game()
    assert max(levels) >= 1  # the person said Kontra at least once
    again = Session.restore(s.snapshot())
    assert again.variants == s.variants
    assert [g.result for g in again.finished] == [g.result for g in s.finished]
    with pytest.raises(UiError):
        Session(seat=0, opponents=["rules"], variants="ramsh")


def test_kontra_and_re_typed_as_words() -> None:
    legal = [skat.Action("CJ"), skat.Action("KO")]
    assert parse_action("kontra", legal) == skat.Action("KO")
    assert parse_action("KO", legal) == skat.Action("KO")
    with pytest.raises(InputError):
        parse_action("re", legal)
    assert parse_action("Re", [skat.Action("D7"), skat.Action("RK")]) == skat.Action("RK")


def test_the_web_api_takes_variants_and_refuses_bad_ones() -> None:
    tables = Tables(opponents=["rules"], pace=0, workers=2, hint_worlds=10)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        r = c.post("/api/sessions", json={"seed": 2, "variants": "kontra bock"})
        assert r.status_code == 201, r.text
        assert r.json()["doubling"] == []
        for bad in ("ramsh", 7):
            r = c.post("/api/sessions", json={"seed": 2, "variants": bad})
            assert r.status_code == 422 and "variants" in r.json()["error"]
        r = c.post("/api/rooms", json={"variants": "kontra"})
        assert r.status_code == 201, r.text
        assert r.json()["state"]["variants"] == "kontra"


def test_pimc_doubles_by_its_thresholds() -> None:
    """With threshold 0 a PIMC defender always says Kontra and a declarer always answers Re;
    above 1 never; the rules player doubles only strong defences and never says Re."""
    deal = skat.Deal.random(12)
    eager = "pimc:worlds=4,points=false,threads=1,kontra=0,re=0"
    shy = "pimc:worlds=4,points=false,threads=1,kontra=1.01,re=1.01"
    g = play([make_player(eager) for _ in range(3)], deal, seed=1, variants="kontra")
    assert g.result is not None and g.result.kontra == 2
    kinds = [a.kind for _, a in g.history if a.kind in ("kontra", "re")]
    assert kinds == ["kontra", "re"]
    g = play([make_player(shy) for _ in range(3)], deal, seed=1, variants="kontra")
    assert g.result is not None and g.result.kontra == 0
    # without the variant nothing changes for the eager player
    g = play([make_player(eager) for _ in range(3)], deal, seed=1)
    assert g.result is not None and g.result.kontra == 0
    with pytest.raises(PlayerSpecError):
        make_player("pimc:kontra=2")
    rules_levels = set()
    for seed in range(30):
        players = [make_player("rules") for _ in range(3)]
        g = play(players, skat.Deal.random(seed), variants="kontra")
        assert g.result is not None
        rules_levels.add(g.result.kontra)
    assert rules_levels == {0, 1}


def test_the_kontra_study_is_consistent_and_repeatable() -> None:
    from skat.research.kontra import study

    player = "kermit:worlds=3,points=false,threads=1"
    judge = "kermit:worlds=4,points=false,threads=1"
    a = study(player, judge, 4, seed=5, thresholds=(0.0, 0.5, 1.01), workers=1)
    b = study(player, judge, 4, seed=5, thresholds=(0.0, 0.5, 1.01), workers=1)
    assert a == b
    rows = a["rows"]
    declarers = [r for r in rows if r["role"] == "declarer"]
    assert declarers and all(0.0 <= r["estimate"] <= 1.0 for r in rows)
    for kind, side in (("kontra", "defender"), ("re", "declarer")):
        assert sum(b["n"] for b in a["calibration"][kind]) == sum(r["role"] == side for r in rows)
        decisions = [g["decisions"] for g in a["gains"][kind]]
        assert decisions == sorted(decisions, reverse=True) and decisions[-1] == 0
    # at threshold 0 the declarer doubles every game she declared
    assert a["gains"]["re"][0]["decisions"] == len(declarers)


def test_research_ramsch_runs_from_the_command_line(tmp_path: object) -> None:
    import json
    from pathlib import Path

    from skat.cli import main

    out = Path(str(tmp_path)) / "ramsch.json"
    argv = ["research", "ramsch", "--player", "pimc:worlds=3,threads=1", "--deals", "2"]
    assert main([*argv, "--seed", "3", "--workers", "1", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["deals"] == 2 and len(r["per_deal"]) == 2
    assert 0.0 <= r["candidate_loser_rate"] <= 1.0
    assert main(["research", "ramsch", "--variants", "kontra", "--deals", "1"]) == 2


def test_analyses_replay_games_with_their_variants() -> None:
    """The post-game analysis and PIPMA replay a game with Kontra and Re in its history."""
    from skat.analysis.pipma import decisions
    from skat.ui.analysis import analyze_game

    eager = "pimc:worlds=4,points=false,threads=1,kontra=0,re=0"
    game = play([make_player(eager) for _ in range(3)], skat.Deal.random(12), variants="kontra")
    assert game.result is not None and game.result.kontra == 2
    report = analyze_game(game, skat.Solver(tt_mb=8))
    assert len(report.moves) == len(game.played)
    assert decisions(game, skat.Solver(tt_mb=8))
