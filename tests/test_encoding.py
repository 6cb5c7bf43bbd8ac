"""The core's observation vectors, legal indices and action masks against the Python
reference of :mod:`skat.encoding` (``observation_reference``, ``legal_indices_reference``).

Every comparison is exact: the same float32 bytes, the same index lists, the same
``IllegalActionError`` message where a legal action has no index (Kontra, Re). They run at
every position of random games (before each action and at the end), for the game and for the
view of each of the three seats, over plain tables and the variants (Kontra and Re, Bock,
Ramsch, Schieberamsch), and over the positions of recorded ISS games (time-outs, claims).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skat
from skat import encoding as enc
from tests.policies import sensible_random_action

ISS_SAMPLE = Path(__file__).resolve().parent / "data" / "iss" / "iss-sample.sgf"
VARIANTS = ("", "kontra", "kontra bock", "ramsch", "schieberamsch", "kontra schieberamsch")
STYLES = ("sensible", "uniform", "pass")


def _same_indices(state: skat.Game | skat.View) -> None:
    """The core's legal indices and mask equal the reference's, or both raise alike."""
    try:
        want = enc.legal_indices_reference(state)
    except skat.IllegalActionError as error:
        for fast in (enc.legal_indices, enc.action_mask):
            with pytest.raises(skat.IllegalActionError) as info:
                fast(state)
            assert str(info.value) == str(error)
        return
    assert enc.legal_indices(state) == want
    mask = enc.action_mask(state)
    reference = np.zeros(enc.NUM_ACTIONS, dtype=np.int8)
    reference[want] = 1
    assert mask.dtype == np.int8 and mask.shape == (enc.NUM_ACTIONS,)
    assert np.array_equal(mask, reference)


def _compare(game: skat.Game) -> int:
    """Compares core and reference on ``game`` and its three views; the views compared."""
    _same_indices(game)
    for seat in range(3):
        view = game.view(seat)
        fast, slow = enc.observation(view), enc.observation_reference(view)
        assert fast.dtype == slow.dtype == np.float32
        assert fast.shape == slow.shape == (enc.OBSERVATION_SIZE,)
        assert fast.tobytes() == slow.tobytes(), (seat, game.to_iss(), np.flatnonzero(fast != slow))
        _same_indices(view)
    return 3


def _choose(game: skat.Game, rng: random.Random, style: str) -> skat.Action:
    """``sensible``: as real tables play; ``uniform``: any legal action, but a bid among the
    three lowest (so that null stays declarable) and a pass in the auction redrawn once (so
    that most games get past it; the skat decision then mostly declares a hand game);
    ``pass``: everyone passes in the auction (passed out, or a Ramsch)."""
    if style == "sensible":
        return sensible_random_action(game, rng)
    legal = game.legal_actions()
    if style == "pass" and game.phase == skat.Phase.BIDDING:
        return skat.Action("p")
    action = rng.choice(legal)
    if action.kind == "pass" and game.phase == skat.Phase.BIDDING:
        action = rng.choice(legal)
    if action.kind == "bid":
        action = rng.choice([a for a in legal if a.kind == "bid"][:3])
    return action


def _play_and_compare(seed: int, variants: str, style: str) -> tuple[skat.Game, int]:
    """Plays one random game, comparing at every position; the game and the views compared."""
    rng = random.Random(seed)
    game = skat.Game(skat.Deal.random(seed), variants)
    views = 0
    while not game.is_over:
        views += _compare(game)
        game.apply(_choose(game, rng, style))
    return game, views + _compare(game)


def _features(game: skat.Game) -> set[str]:
    """What kind of game it was, for the coverage check."""
    seen = set()
    result = game.result
    assert result is not None
    if result.passed:
        seen.add("passed out")
    if game.ramsch:
        seen.add("ramsch")
    if any(a.kind == "discard" for _, a in game.history) and game.ramsch:
        seen.add("schieberamsch push")
    seen |= {{1: "kontra", 2: "re"}[game.kontra]} if game.kontra else set()
    contract = game.contract
    if contract is not None:
        null = contract.game_type == skat.GameType.NULL
        flags = [
            ("hand", contract.hand),
            ("schneider", contract.schneider and not contract.schwarz),
            ("schwarz", contract.schwarz and not contract.ouvert),
            ("ouvert", contract.ouvert and not null),
            ("null", null and not contract.hand),
            ("null ouvert hand", null and contract.ouvert and contract.hand),
            ("picked up", game.picked_up),
        ]
        seen |= {name for name, on in flags if on}
        if len(game.tricks) == 10:
            seen.add("ten tricks")
    return seen


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    variants=st.sampled_from(VARIANTS),
    style=st.sampled_from(STYLES),
)
def test_core_encoding_equals_the_reference_in_random_games(
    seed: int, variants: str, style: str
) -> None:
    game, views = _play_and_compare(seed, variants, style)
    assert game.is_over and views >= 6


def test_every_kind_of_game_is_compared() -> None:
    """A fixed sweep that is sure to reach each kind of game the encoding distinguishes."""
    seen: Counter[str] = Counter()
    views = 0
    for k in range(240):
        variants = VARIANTS[k % len(VARIANTS)]
        style = STYLES[k // len(VARIANTS) % len(STYLES)]
        game, n = _play_and_compare(1000 + k, variants, style)
        views += n
        seen.update(_features(game))
    wanted = {
        "passed out",
        "ramsch",
        "schieberamsch push",
        "kontra",
        "re",
        "hand",
        "schneider",
        "schwarz",
        "ouvert",
        "null",
        "null ouvert hand",
        "picked up",
        "ten tricks",
    }
    assert wanted <= set(seen), wanted - set(seen)
    assert views > 10_000


def test_recorded_games_encode_alike_at_every_position() -> None:
    """ISS records bring what random play does not: time-outs by the table, claims,
    resignations."""
    lines = [ln for ln in ISS_SAMPLE.read_text(encoding="utf-8").splitlines() if ln.strip()]
    kinds: set[str] = set()
    for line in lines:
        record = skat.Game.from_iss(line)
        game = skat.Game(record.deal, record.variants)
        for actor, action in record.history:
            _compare(game)
            game.apply(action, seat=actor if isinstance(actor, int) else None)
            kinds.add(action.kind)
        _compare(game)
    assert {"timeout", "play", "declare"} <= kinds


def test_kontra_and_re_have_no_index_in_either_implementation() -> None:
    game = skat.Game(skat.Deal.random(seed=7), "kontra")
    for token in ["18", "y", "p", "p", "s", "CA.SK", "G", "D7"]:
        game.apply(token)
    assert "KO" in [str(a) for a in game.legal_actions()]
    _same_indices(game)
    _same_indices(game.view(1))
    with pytest.raises(skat.IllegalActionError, match="action KO has no index"):
        enc.legal_indices(game)
    game.apply("KO")
    while "RK" not in [str(a) for a in game.legal_actions()]:
        game.apply(next(a for a in game.legal_actions() if a.kind == "play"))
    with pytest.raises(skat.IllegalActionError, match="action RK has no index"):
        enc.action_mask(game.view(0))
    _same_indices(game)


def test_observations_are_fresh_writable_float32_arrays() -> None:
    view = skat.Game(skat.Deal.random(seed=3)).view(2)
    first, second = enc.observation(view), enc.observation(view)
    assert first.flags.writeable and first.dtype == np.float32
    first[:] = 0.0
    assert np.array_equal(second, enc.observation_reference(view))
    assert enc.observation(view).sum() == second.sum() > 0
