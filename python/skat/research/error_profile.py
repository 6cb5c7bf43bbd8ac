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
from skat.analysis.pipma import TRICKS, PlayerMistakes, decisions, game_names
from skat.parallel import run_tasks
from skat.records import read_records

ROLES = ("soloist", "defenders")
"""The two sides whose errors are tallied apart."""


def _game_tally(record: str) -> tuple[str, dict[str, PlayerMistakes]] | None:
    """The soloist's name and each side's tally of one game (None: no declarer)."""
    game = Game.from_iss(record)
    if game.declarer is None or game.contract is None:
        return None
    sides = {role: PlayerMistakes() for role in ROLES}
    for d in decisions(game):
        sides["soloist" if d.seat == game.declarer else "defenders"].add(d)
    return game_names(game)[game.declarer], sides


def _profile(
    records: Sequence[str],
    workers: int | None,
    ray: str | None,
    progress: Callable[[int], None] | None,
) -> dict[str, Any]:
    tally: dict[str, dict[str, PlayerMistakes]] = {}
    games: dict[str, int] = {}
    for _, found in run_tasks(_game_tally, records, workers=workers, ray=ray):
        if progress:
            progress(1)
        if found is None:
            continue
        lineup, sides = found
        games[lineup] = games.get(lineup, 0) + 1
        mine = tally.setdefault(lineup, {role: PlayerMistakes() for role in ROLES})
        for role in ROLES:
            mine[role].merge(sides[role])
    lineups: dict[str, Any] = {}
    for lineup in sorted(tally):
        entry: dict[str, Any] = {"games": games[lineup]}
        for role in ROLES:
            t = tally[lineup][role]
            entry[role] = {
                "errors": t.mistakes_by_trick,
                "opportunities": t.opportunities_by_trick,
                "errors_per_game": t.mistakes / games[lineup],
                "rate": t.rate,
            }
        lineups[lineup] = entry
    return {"lineups": lineups}


def error_profile_of_games(
    games: Iterable[Game],
    workers: int | None = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> dict[str, Any]:
    """The Fig. 9.6 tally (see the module text) of finished games: per soloist name, per
    role, the errors and opportunities in each trick, errors per game and the error rate."""
    return _profile([g.to_iss() for g in games], workers, ray, progress)


def error_profile(
    paths: Sequence[str | os.PathLike[str]],
    workers: int | None = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> dict[str, Any]:
    """:func:`error_profile_of_games` of every game in the ISS record files ``paths``
    (``workers`` processes, None: every local core; or Ray tasks with ``ray``)."""
    result = _profile(read_records(paths), workers, ray, progress)
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
