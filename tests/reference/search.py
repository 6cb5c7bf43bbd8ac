"""The reference's exhaustive searches: play-sequence counts and open-hand minimax without
pruning, the known answers the fast solver is checked against.

Every search recurses over copies, so its inputs are never changed.
"""

from __future__ import annotations

import copy

from .cards import check_game_type, legal_plays, points, trick_winner
from .game import RefGame


def count_play_sequences(game: RefGame) -> int:
    """Count the legal card-play sequences from ``game``'s position to the end.

    A finished game counts as one (empty) sequence. The game must be in the
    card-play phase (or over). Plain recursion over deep copies.
    """
    if game.is_over:
        return 1
    if game.phase != "play":
        raise ValueError("count_play_sequences needs a card-play position")
    total = 0
    for token in game.legal_tokens():
        child = copy.deepcopy(game)
        child.apply(token)
        total += count_play_sequences(child)
    return total


def minimax(
    hands: list[list[str]],
    gt: str,
    declarer: int,
    leader: int,
    trick: list[str],
    declarer_points: int,
    tricks_played: int = 0,
) -> int:
    """Exhaustive open-hand minimax (no pruning) of a card-play position.

    ``hands[seat]`` are the cards each seat still holds (cards already in
    ``trick`` removed); ``leader`` led the current ``trick`` (possibly empty).

    Suit and grand: returns the declarer's final card points, starting from
    ``declarer_points``; the declarer maximises, the defenders minimise, and
    every remaining trick is played out.

    Null: returns 0 if the declarer can avoid every remaining trick, else the
    number (counted from the game's first trick; ``tricks_played`` tricks are
    already complete) of the earliest trick the defenders can force her to
    take while she delays as long as possible. ``declarer_points`` is ignored.
    """
    check_game_type(gt)
    if gt == "N":
        return _null_search(hands, declarer, leader, trick, tricks_played)
    return _points_search(hands, gt, declarer, leader, trick, declarer_points)


def _without(hands: list[list[str]], seat: int, card: str) -> list[list[str]]:
    """Return a copy of ``hands`` with ``card`` removed from ``hands[seat]``."""
    result = [list(h) for h in hands]
    result[seat].remove(card)
    return result


def _points_search(
    hands: list[list[str]],
    gt: str,
    declarer: int,
    leader: int,
    trick: list[str],
    declarer_points: int,
) -> int:
    """Minimax of the declarer's final card points in a suit or grand game."""
    if len(trick) == 3:
        winner = (leader + trick_winner(gt, trick)) % 3
        if winner == declarer:
            declarer_points += sum(points(c) for c in trick)
        if not any(hands):
            return declarer_points
        return _points_search(hands, gt, declarer, winner, [], declarer_points)
    seat = (leader + len(trick)) % 3
    if not trick and not hands[seat]:
        return declarer_points
    outcomes = [
        _points_search(
            _without(hands, seat, card), gt, declarer, leader, [*trick, card], declarer_points
        )
        for card in legal_plays(gt, hands[seat], trick)
    ]
    return max(outcomes) if seat == declarer else min(outcomes)


def _null_key(trick_number: int) -> float:
    """Order null outcomes for the declarer: later is better, never (0) is best."""
    return float("inf") if trick_number == 0 else float(trick_number)


def _null_search(
    hands: list[list[str]],
    declarer: int,
    leader: int,
    trick: list[str],
    tricks_played: int,
) -> int:
    """Minimax of the first trick the null declarer takes (0 = none)."""
    if len(trick) == 3:
        winner = (leader + trick_winner("N", trick)) % 3
        if winner == declarer:
            return tricks_played + 1
        if not any(hands):
            return 0
        return _null_search(hands, declarer, winner, [], tricks_played + 1)
    seat = (leader + len(trick)) % 3
    if not trick and not hands[seat]:
        return 0
    outcomes = [
        _null_search(_without(hands, seat, card), declarer, leader, [*trick, card], tricks_played)
        for card in legal_plays("N", hands[seat], trick)
    ]
    if seat == declarer:
        return max(outcomes, key=_null_key)
    return min(outcomes, key=_null_key)
