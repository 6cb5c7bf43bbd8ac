"""Per-deal scores from tournament record files, to compare tournaments played on the same deals.

``skat tournament --records`` and ``skat tournament-table --records-dir`` write every game as
an ISS record with ``ID[SEED-DEAL-SEATING]`` and the players' labels as ``P0..P2``. Two
tournaments with the same seed (and, in cardplay mode, the same bidder) play the same deals,
so a player in one can be compared with a player in the other deal by deal: per deal, its
points per list are 36 x the mean of its seats' Seeger-Fabian scores over the deal's games
(the measure of :mod:`skat.tournament_results`), and the paired difference is taken over the
deals both files have. With ``margin=True`` each side is instead the player's lead over its
opponent in its own file, per deal (its points minus the other player's: the tournament's
paired difference), so that two variants of a player are compared by what they gain against
the same opponent.

A file that stops after some of a deal's games (a run stopped between two records) would
otherwise average that deal over some of its seatings. Only whole deals count: a deal with
fewer finished games than the file's fullest deal is left out. (A record cut off in the
middle of its line is a ``RecordError``, as everywhere :func:`skat.records.read_iss` reads.)

>>> import os, tempfile
>>> from skat.tournament import run
>>> d = tempfile.mkdtemp()
>>> a, b = os.path.join(d, "a.sgf"), os.path.join(d, "b.sgf")
>>> _ = run("rules", "random", mode="full", deals=3, seed=4, records=a)
>>> _ = run("random", "random:seed=1", mode="full", deals=3, seed=4, records=b)
>>> r = compare(a, "rules", b, "random")
>>> r["deals"], r["mean"] == sum(r["per_deal"].values()) / 3
(3, True)
"""

from __future__ import annotations

import os
import statistics
from collections import defaultdict
from typing import Any

from skat.records import read_iss
from skat.tournament_results import LIST_GAMES, mean_interval, parse_record_id

__all__ = ["compare", "deal_margins", "deal_points", "record_seed"]


def _scores(path: str | os.PathLike[str]) -> dict[str, dict[int, list[float]]]:
    """Every player's Seeger-Fabian scores per whole deal (one entry per game, the mean over
    its seats there), by label and deal index; a ``ValueError`` if a record has no tournament
    ID. Deals with fewer finished games than the file's fullest deal are left out."""
    scores: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    games: dict[int, int] = defaultdict(int)
    for game in read_iss(path):
        rid = game.record_id
        parsed = parse_record_id(rid)
        if parsed is None:
            raise ValueError(f"{os.fspath(path)}: record {rid!r} has no tournament ID")
        if game.result is None:
            continue
        games[parsed[1]] += 1
        names = dict(game.header)
        seats: dict[str, list[int]] = defaultdict(list)
        for s in range(3):
            if f"P{s}" in names:
                seats[names[f"P{s}"]].append(s)
        result = game.result.scores
        for label, mine in seats.items():
            scores[label][parsed[1]].append(sum(result[s] for s in mine) / len(mine))
    whole = max(games.values(), default=0)
    cut = {deal for deal, n in games.items() if n < whole}
    for by_deal in scores.values():
        for deal in cut:
            by_deal.pop(deal, None)
    return scores


def record_seed(path: str | os.PathLike[str]) -> str:
    """The tournament seed of a record file (the first part of its records' IDs); a
    ``ValueError`` if the file has no record, a record without a tournament ID, or records of
    several seeds."""
    seeds: set[str] = set()
    for game in read_iss(path):
        parsed = parse_record_id(game.record_id)
        if parsed is None:
            raise ValueError(f"{os.fspath(path)}: record {game.record_id!r} has no tournament ID")
        seeds.add(parsed[0])
    if len(seeds) != 1:
        found = ", ".join(sorted(seeds)) or "no record"
        raise ValueError(f"{os.fspath(path)}: expected the games of one seed, found {found}")
    return seeds.pop()


def _per_list(scores: dict[int, list[float]]) -> dict[int, float]:
    return {deal: LIST_GAMES * statistics.fmean(v) for deal, v in sorted(scores.items())}


def deal_points(path: str | os.PathLike[str], player: str) -> dict[int, float]:
    """``player``'s points per list in each deal of a tournament record file (by deal index);
    a ``ValueError`` if a record has no tournament ID or the player sits in none of them."""
    scores = _scores(path)
    if player not in scores:
        raise ValueError(f"{os.fspath(path)}: no game of player {player!r}")
    return _per_list(scores[player])


def deal_margins(path: str | os.PathLike[str], player: str) -> dict[int, float]:
    """``player``'s lead over its opponent in each deal of a tournament record file: its points
    per list minus the other player's (:func:`deal_points`); a ``ValueError`` unless the file
    seats exactly two players, ``player`` one of them."""
    scores = _scores(path)
    if player not in scores or len(scores) != 2:
        found = ", ".join(sorted(scores)) or "none"
        raise ValueError(
            f"{os.fspath(path)}: a margin needs {player!r} and one opponent (players: {found})"
        )
    (other,) = set(scores) - {player}
    mine, theirs = _per_list(scores[player]), _per_list(scores[other])
    return {deal: mine[deal] - theirs[deal] for deal in mine if deal in theirs}


def compare(
    path_a: str | os.PathLike[str],
    player_a: str,
    path_b: str | os.PathLike[str],
    player_b: str,
    margin: bool = False,
) -> dict[str, Any]:
    """``player_a`` in ``path_a`` minus ``player_b`` in ``path_b``, deal by deal over the deals
    both files have: mean, standard error, 95% interval, deals and the per-deal differences.
    ``margin``: compare the two players' leads over their opponents (:func:`deal_margins`)
    instead of their points. A ``ValueError`` if the two files were played with different
    seeds (their deal ``j`` is not the same deal)."""
    seed_a, seed_b = record_seed(path_a), record_seed(path_b)
    if seed_a != seed_b:
        raise ValueError(
            f"{os.fspath(path_b)}: played with seed {seed_b}, {os.fspath(path_a)} with seed"
            f" {seed_a}: the deals differ"
        )
    per_deal = deal_margins if margin else deal_points
    a, b = per_deal(path_a, player_a), per_deal(path_b, player_b)
    diffs = {k: a[k] - b[k] for k in a if k in b}
    values = list(diffs.values())
    mean, se, ci = mean_interval(values)
    return {
        "a": {"records": os.fspath(path_a), "player": player_a},
        "b": {"records": os.fspath(path_b), "player": player_b},
        "measure": "margin" if margin else "points",
        "mean": mean,
        "stderr": se,
        "ci95": ci,
        "deals": len(values),
        "per_deal": diffs,
    }
