"""Where the open-hand errors of card play fall (the solver thesis's Fig. 9.6): PIPMA
(:mod:`skat.analysis.pipma`) on the games of ISS records, tallied per line-up, role and trick.

A game's *line-up* is its soloist's name (the record's ``P0..P2`` of the declarer's seat; a
tournament names its players by their specs). In each line-up the soloist's decisions and the
defenders' decisions are tallied separately, per trick 1..10: *opportunities* (decisions with
both winning and losing cards for the mover's side under open-handed best play) and *errors*
(a losing card played there: the side went from a won to a lost game). Games without a
declarer (passed deals, Ramsch) are skipped. Each game is analysed independently, so the tally
does not depend on the number of workers.

>>> import skat
>>> profile = error_profile_of_games([skat.random_game(seed) for seed in range(4)])
>>> entries = profile["lineups"].values()  # one entry per soloist name (here a seat number)
>>> pairs = [zip(x[r]["errors"], x[r]["opportunities"]) for x in entries for r in ROLES]
>>> all(e <= o for pair in pairs for e, o in pair)
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from skat._core import Game
from skat.analysis.pipma import TRICKS, decisions, game_names
from skat.parallel import run_tasks
from skat.records import read_iss

ROLES = ("soloist", "defenders")
"""The two sides whose errors are tallied apart."""

Tally = dict[str, dict[str, dict[str, list[int]]]]
"""line-up (soloist name) -> role -> ``errors`` / ``opportunities`` per trick -> count."""


def _empty() -> dict[str, dict[str, list[int]]]:
    return {r: {"errors": [0] * TRICKS, "opportunities": [0] * TRICKS} for r in ROLES}


def _game_tally(record: str) -> tuple[str, dict[str, dict[str, list[int]]]] | None:
    """The soloist's name and the per-role, per-trick tally of one game (None: no declarer)."""
    game = Game.from_iss(record)
    if game.declarer is None or game.contract is None:
        return None
    names = game_names(game)
    out = _empty()
    for d in decisions(game):
        if not d.opportunity:
            continue
        role = "soloist" if d.seat == game.declarer else "defenders"
        out[role]["opportunities"][d.trick - 1] += 1
        out[role]["errors"][d.trick - 1] += int(d.mistake)
    return names[game.declarer], out


def _merge(total: Tally, lineup: str, part: dict[str, dict[str, list[int]]]) -> None:
    mine = total.setdefault(lineup, _empty())
    for role in ROLES:
        for key in ("errors", "opportunities"):
            mine[role][key] = [a + b for a, b in zip(mine[role][key], part[role][key], strict=True)]


def _summarise(tally: Tally, games: dict[str, int]) -> dict[str, Any]:
    lineups: dict[str, Any] = {}
    for lineup in sorted(tally):
        entry: dict[str, Any] = {"games": games[lineup]}
        for role in ROLES:
            e, o = tally[lineup][role]["errors"], tally[lineup][role]["opportunities"]
            entry[role] = {
                "errors": e,
                "opportunities": o,
                "errors_per_game": sum(e) / games[lineup] if games[lineup] else None,
                "rate": sum(e) / sum(o) if sum(o) else None,
            }
        lineups[lineup] = entry
    return {"lineups": lineups}


def error_profile_of_games(
    games: Iterable[Game],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The Fig. 9.6 tally (see the module text) of finished games: per soloist name, per
    role, the errors and opportunities in each trick, errors per game and the error rate."""
    records = [g.to_iss() for g in games]
    tally: Tally = {}
    counts: dict[str, int] = {}
    for _, found in run_tasks(_game_tally, records, workers=workers):
        if progress:
            progress(1)
        if found is None:
            continue
        lineup, part = found
        counts[lineup] = counts.get(lineup, 0) + 1
        _merge(tally, lineup, part)
    return _summarise(tally, counts)


def error_profile(
    paths: Sequence[str | os.PathLike[str]],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """:func:`error_profile_of_games` of every game in the ISS record files ``paths``."""
    games = [g for p in paths for g in read_iss(p)]
    result = error_profile_of_games(games, workers=workers, progress=progress)
    result["files"] = [os.fspath(p) for p in paths]
    return result


def plot_profile(result: dict[str, Any], out: str) -> None:
    """Errors per game in each trick, one panel per line-up, soloist and defenders apart."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lineups = result["lineups"]
    fig, axes = plt.subplots(
        1, max(1, len(lineups)), figsize=(5 * max(1, len(lineups)), 3.8), sharey=True
    )
    axes_list = list(axes) if len(lineups) > 1 else [axes]
    tricks = list(range(1, TRICKS + 1))
    for ax, (name, entry) in zip(axes_list, lineups.items(), strict=False):
        for role, color in zip(ROLES, ("tab:red", "tab:blue"), strict=True):
            per_game = [e / entry["games"] for e in entry[role]["errors"]]
            ax.plot(tricks, per_game, marker="o", color=color, label=role)
        ax.set_title(f"soloist {name} ({entry['games']} games)", fontsize=9)
        ax.set_xlabel("trick")
        ax.set_xticks(tricks)
    axes_list[0].set_ylabel("open-hand errors per game")
    axes_list[0].legend()
    fig.suptitle("Where the PIPMA errors fall (solver thesis Fig. 9.6)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


__all__ = ["ROLES", "error_profile", "error_profile_of_games", "plot_profile"]
