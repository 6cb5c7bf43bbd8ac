"""The ``clones`` tournament mode: one candidate against two clones of a benchmark player, the
deals in order, the same player objects from the first game to the last (the thesis's
Table 7.1 set-up, in which modelling players learn as they go).

Deal ``j`` is ``Deal.random(deal_seed(seed, j))``, played whole (auction included) in the
seatings ``ABB``, ``BAB`` and ``BBA`` (:data:`CLONE_SEATINGS`), deal after deal; all-pass
games score 0 and belong to the list. One candidate object ``A`` and two benchmark objects
are made once: the benchmark object at the lower of the two B seats is clone 1, the other
clone 2. Before each game every player's ``meet(seat, names)`` hook hears the seats' names,
the clones named ``"LABEL (1)"`` and ``"LABEL (2)"`` (so a player can tell them apart only
by seat); after it ``game_over(game, seat, names)`` gets the finished game
(:mod:`skat.players.modelling`). The records name both clones by the benchmark's label.

Everything is played in one process, in deal order: the outcome of a run depends on the
order, so it is never split over workers (run several candidate/benchmark pairs side by
side instead). Scoring, statistics and errors are those of :mod:`skat.tournament_results`: a
player's score in a game is the mean of its seats, A's and B's points per list and their
paired difference are taken over deals.

>>> outcomes = []
>>> play_clones("rules", "random", 1, seed=3, labels=("rules", "random"),
...             on_deal=outcomes.append)
>>> [g.seating for g in outcomes[0].games]
['ABB', 'BAB', 'BBA']
"""

from __future__ import annotations

from collections.abc import Callable

from skat._core import Deal
from skat.match import PlayerFailure, play
from skat.players.base import make_player
from skat.players.modelling import tell_names, tell_result
from skat.records import named_record
from skat.seeds import deal_seed, derive_seed
from skat.tournament_results import (
    CLONE_SEATINGS,
    DealOutcome,
    GameError,
    GameOutcome,
    record_id,
)

__all__ = ["CLONE_SEATINGS", "clone_names", "play_clones"]

_STREAM_PLAY = 2
_PLACE = "skat tournament"


def clone_names(seating: str, labels: tuple[str, str]) -> tuple[list[str], list[str]]:
    """The names the players hear (clones numbered by seat) and the records' names.

    >>> clone_names("BAB", ("count", "mistake"))
    (['mistake (1)', 'count', 'mistake (2)'], ['mistake', 'count', 'mistake'])
    """
    told: list[str] = []
    recorded: list[str] = []
    k = 0
    for c in seating:
        if c == "A":
            told.append(labels[0])
            recorded.append(labels[0])
        else:
            k += 1
            told.append(f"{labels[1]} ({k})")
            recorded.append(labels[1])
    return told, recorded


def play_clones(
    a: str,
    b: str,
    deals: int,
    seed: int,
    labels: tuple[str, str],
    on_deal: Callable[[DealOutcome], None],
) -> None:
    """Plays ``deals`` deals of candidate ``a`` against two clones of ``b`` in deal order,
    calling ``on_deal`` after each deal (each game with its ISS record, players named)."""
    candidate = make_player(a)
    clones = [make_player(b), make_player(b)]
    for j in range(deals):
        deal = Deal.random(deal_seed(seed, j))
        play_seed = derive_seed(seed, j, _STREAM_PLAY)
        games: list[GameOutcome] = []
        errors: list[GameError] = []
        for seating in CLONE_SEATINGS:
            b_seats = [s for s, c in enumerate(seating) if c == "B"]
            players = [
                candidate if c == "A" else clones[b_seats.index(s)] for s, c in enumerate(seating)
            ]
            told, recorded = clone_names(seating, labels)
            for seat, p in enumerate(players):
                tell_names(p, seat, told)
            try:
                game = play(players, deal, seed=play_seed)
            except PlayerFailure as e:
                label = labels[0] if seating[e.seat] == "A" else labels[1]
                err = GameError(j, seating, e.seat, label, str(e))
                errors.append(err)
                line = named_record(e.game.to_iss(), _PLACE, record_id(seed, j, seating), recorded)
                games.append(GameOutcome(seating, None, record=line, error=err))
                continue
            for seat, p in enumerate(players):
                tell_result(p, game, seat, told)
            r = game.result
            assert r is not None
            s0, s1, s2 = r.scores
            line = named_record(game.to_iss(), _PLACE, record_id(seed, j, seating), recorded)
            games.append(GameOutcome(seating, (s0, s1, s2), r.declarer, r.won, line))
        on_deal(DealOutcome(j, j, tuple(games), tuple(errors)))
