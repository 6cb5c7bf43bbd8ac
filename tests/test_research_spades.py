"""Three-player Spades and soft-max^n through Python (Sturtevant and Bowling): scoring and
bidding examples, players' names, games that end as the rules say, the tables' bookkeeping
(seatings, shares of wins, %Gain/%Loss references), independence of the worker count,
soundness of inference, and the ``skat research spades`` command and its option checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat import SkatError
from skat._core import (
    spades_bid,
    spades_game,
    spades_inference,
    spades_lead,
    spades_player,
    spades_score,
)
from skat.cli import main
from skat.research.spades import (
    ARRANGEMENTS,
    TABLE2,
    TABLE4,
    add_gain_loss,
    inference,
    reference_wins,
    table_rows,
)


def test_scoring_follows_the_paper() -> None:
    assert spades_score(3, 3, 0) == (30, 0)
    assert spades_score(3, 5, 0) == (32, 2)
    assert spades_score(3, 2, 7) == (-30, 7)
    assert spades_score(1, 3, 8) == (12 - 100, 0)


def test_bids_and_players() -> None:
    # Halves: SA 2 + SK 2 + S5 1 + HA 2 + DK (suit of two) 2 = 9, odd and strong: 5.
    assert spades_bid("SA SK S5 HA DK D2 C3") == 5
    assert spades_bid("C2 C3") == 1
    assert spades_player("mot_mt") == "mOT_MT"
    assert spades_player("mOT_g") == "mOT_g"
    for bad in ("mOT", "maxn:MT_g", "XX_MT"):
        with pytest.raises(SkatError):
            spades_player(bad)
    with pytest.raises(SkatError):
        spades_bid("SA SA")
    with pytest.raises(SkatError):
        spades_game(["MT_MT", "MT_MT"], 1)
    with pytest.raises(SkatError):
        spades_game(["MT_MT"] * 3, 1, cards=10)


def test_the_lead_comes_from_the_leaders_hand() -> None:
    hands = ["SA SK H5", "H2 H3 D4", "D2 D3 C4"]
    for leader in range(3):
        for player in ("MT_MT", "mOT_g", "paranoid:MT", "soft:ML_mOT"):
            card = spades_lead(hands, [2, 1, 1], leader, player)
            assert card in hands[leader].split()
    with pytest.raises(SkatError):
        spades_lead(["SA SK", "H2", "D2 D3"], [1, 1, 1], 0, "MT_MT")


def test_games_end_at_the_target_and_repeat() -> None:
    players = ["mOT_MT", "MT_mOT", "mOT_g"]
    g = spades_game(players, 5, cards=4, target=120)
    assert max(g.scores) >= 120 or g.hands == 200
    assert g.winners == [j for j in range(3) if g.scores[j] == max(g.scores)]
    assert all(0 <= b < 10 for b in g.bags)
    again = spades_game(players, 5, cards=4, target=120)
    assert (again.scores, again.hands) == (g.scores, g.hands)


def test_rows_share_every_win_and_seat_both_types() -> None:
    assert sorted(ARRANGEMENTS) == sorted({"".join(p) for p in _seatings()})
    rows = table_rows(2, ["a", "f"], games=2, seed=9, cards=3, target=60)
    for r, row in rows.items():
        assert row["players"] == list(TABLE2[r])
        assert row["games"] == 12
        assert row["a_win"] + row["b_win"] == pytest.approx(100.0)
    # One seed, six seatings, by hand: the same numbers as the table's bookkeeping.
    a, b = TABLE2["a"]
    wins = 0.0
    from skat.seeds import derive_seed

    for arr in ARRANGEMENTS:
        g = spades_game([a if x == "A" else b for x in arr], derive_seed(9, 0), cards=3, target=60)
        wins += sum(arr[w] == "A" for w in g.winners) / len(g.winners)
    one = table_rows(2, ["a"], games=1, seed=9, cards=3, target=60)["a"]
    assert one["a_win"] == pytest.approx(round(100 * wins / 6, 2))


def _seatings() -> list[tuple[str, ...]]:
    import itertools

    return [p for p in itertools.product("AB", repeat=3) if len(set(p)) == 2]


def test_rows_do_not_depend_on_workers() -> None:
    one = table_rows(4, ["b"], games=2, seed=2, cards=3, target=60, workers=1)
    two = table_rows(4, ["b"], games=2, seed=2, cards=3, target=60, workers=2)
    assert one == two
    assert one["b"]["players"] == list(TABLE4["b"])


def test_gain_and_loss_references() -> None:
    t2 = {r: {"a_win": 10.0 * i, "b_win": 100 - 10.0 * i} for i, r in enumerate("abcde")}
    assert reference_wins("a", t2) == (20.0, 0.0)
    assert reference_wins("b", t2) == (30.0, 10.0)
    assert reference_wins("c", t2) == (50.0, 60.0)
    assert reference_wins("d", t2) == (40.0, 50.0)
    rows = {"b": {"a_win": 55.0, "paper": {}}}
    add_gain_loss(rows, t2)
    assert (rows["b"]["gain"], rows["b"]["loss"]) == (25.0, -45.0)
    rows = {"a": {"a_win": 55.0, "paper": {}}}
    add_gain_loss(rows, {})
    assert rows["a"]["gain"] is None


def test_inference_never_rules_out_the_true_kind() -> None:
    r = inference(6, seed=4, cards=5)
    assert r["hands"] == 54 and r["wrong"] == 0
    assert r["inferences"] > 0
    assert sum(r["ruled_out"].values()) >= r["hands_with_inference"] > 0
    # Soft-max^n opponents refine the generic model too: still sound.
    c = spades_inference("mOT_g", ["soft:ML_g", "soft:MT_mOT"], 3, 10, cards=5)
    assert c.wrong == 0 and c.hands == 10


def test_command_writes_rows(tmp_path: Path) -> None:
    t2 = tmp_path / "t2.json"
    args = ["research", "spades", "--table", "2", "--rows", "a,c", "--games", "2", "--cards", "3"]
    png = tmp_path / "t2.png"
    assert (
        main([*args, "--target", "60", "--workers", "1", "--json", str(t2), "--plot", str(png)])
        == 0
    )
    assert png.stat().st_size > 10_000
    data = json.loads(t2.read_text())
    assert set(data["rows"]) == {"a", "c"}
    for key in ("a_score", "a_win", "b_score", "b_win"):
        assert data["a"][key] == data["rows"]["a"][key]
    t4 = tmp_path / "t4.json"
    args = ["research", "spades", "--table", "4", "--rows", "a", "--games", "2", "--cards", "3"]
    args += ["--target", "60", "--workers", "1", "--reference", str(t2), "--json", str(t4)]
    assert main(args) == 0
    row = json.loads(t4.read_text())["a"]
    assert row["gain"] == pytest.approx(row["a_win"] - data["c"]["a_win"], abs=0.01)
    assert row["loss"] == pytest.approx(data["a"]["a_win"] - row["a_win"], abs=0.01)
    inf = tmp_path / "inf.json"
    args = ["research", "spades", "--table", "inference", "--games", "1", "--cards", "3"]
    png = tmp_path / "inf.png"
    assert main([*args, "--workers", "1", "--json", str(inf), "--plot", str(png)]) == 0
    assert json.loads(inf.read_text())["wrong"] == 0 and png.stat().st_size > 5_000


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--table", "4", "--rows", "e"], "--rows"),
        (["--table", "2", "--rows", "x"], "--rows"),
        (["--table", "2", "--games", "1"], "--games"),
        (["--table", "inference", "--rows", "a"], "--rows"),
        (["--table", "5"], "--table"),
        (["--table", "2", "--cards", "10"], "--cards"),
    ],
)
def test_bad_options(args: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["research", "spades", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert option in err and len(err.splitlines()) == 1


def test_reference_must_be_table_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"table": 4, "rows": {}}))
    assert main(["research", "spades", "--table", "4", "--reference", str(bad)]) == 2
    assert "--reference" in capsys.readouterr().err
