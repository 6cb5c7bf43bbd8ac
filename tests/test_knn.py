"""The KNNDDSS-style baseline: double-dummy labels, the k-NN evaluation and the ``knn`` player."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import skat
from skat._core import Cards, Contract, Deal, GameType, Position, Solver
from skat.bidding.knn import KNN_TYPES, KnnError, KnnModel, features
from skat.cli import main
from skat.match import play
from skat.players import PlayerSpecError, make_player
from skat.research.threshold_estimate import study
from skat.seeds import derive_seed
from skat.training.generate import best_rules_discard
from skat.training.knn import build_model, label_deals


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("knn") / "knn.npz"
    assert (
        main(["train", "knn", "--deals", "60", "--k", "5", "--seed", "2", "--out", str(path)]) == 0
    )
    return path


def test_labels_are_open_handed_card_points_after_the_rules_discard() -> None:
    x, y, kind = label_deals(3, 2, seed=9)
    assert len(y) == 2 * 3 * len(KNN_TYPES)
    solver = Solver(tt_mb=8)
    row = 0
    for j in (3, 4):
        deal = Deal.random(derive_seed(9, j))
        for seat in range(3):
            for i, gt in enumerate(KNN_TYPES):
                twelve = deal.hands[seat] | deal.skat
                _, discard = best_rules_discard(twelve, Contract(gt))
                hands = [deal.hands[s] if s != seat else twelve - discard for s in range(3)]
                pos = Position(tuple(hands), gt, seat, 0, declarer_points=discard.points)  # type: ignore[arg-type]
                assert y[row] == solver.solve(pos) and kind[row] == i
                assert np.array_equal(x[row], features(deal.hands[seat], gt, seat))
                row += 1


def test_models_do_not_depend_on_workers_and_round_trip(tmp_path: Path) -> None:
    one = build_model(30, seed=4, k=3, workers=1)
    two = build_model(30, seed=4, k=3, workers=2)
    assert np.array_equal(one.x, two.x) and np.array_equal(one.y, two.y)
    one.save(tmp_path / "m.npz")
    back = KnnModel.load(tmp_path / "m.npz")
    assert back.k == 3 and np.allclose(back.y, one.y)
    with pytest.raises(KnnError):
        KnnModel.load(tmp_path / "missing.npz")


def test_points_are_the_mean_of_the_nearest_labels(model_file: Path) -> None:
    m = KnnModel.load(model_file)
    hand = Cards.parse("CJ SJ CA CT CK C9 C8 SA ST H7")
    for i, gt in enumerate(KNN_TYPES):
        xs = (m.x[m.kind == i] - m.mean) / m.scale
        q = (features(hand, gt, 1) - m.mean) / m.scale
        d = ((xs - q) ** 2).sum(axis=1)
        ys = m.y[m.kind == i]
        cut = np.sort(d)[m.k - 1]
        nearest = ys[d <= cut]
        if len(nearest) == m.k:  # no ties at the k-th distance
            assert m.points(hand, gt, 1) == pytest.approx(float(nearest.mean()))


def test_the_knn_player_plays_legal_suit_and_grand_games(model_file: Path) -> None:
    declared = 0
    for seed in range(6):
        players = [make_player(f"knn:model={model_file},worlds=2,threads=1") for _ in range(2)]
        players.append(make_player("rules"))
        game = play(players, skat.Deal.random(seed), seed=seed)
        assert game.is_over
        if game.contract is not None and game.declarer in (0, 1):
            declared += 1
            assert game.contract.game_type != GameType.NULL and not game.contract.hand
    assert declared > 0
    with pytest.raises(PlayerSpecError):
        make_player("knn")
    with pytest.raises(PlayerSpecError):
        make_player(f"knn:model={model_file},threshold=200")


def test_the_knn_threshold_is_in_card_points_not_a_threshold_estimate_truth(
    model_file: Path,
) -> None:
    knn = f"knn:model={model_file},threshold=60,worlds=1"
    result = study([knn, "kermit:worlds=1,unopposed=none", "rules"], auctions=1, seed=5)
    assert [p["truth"] for p in result["players"]] == [None, 0.6, None]
