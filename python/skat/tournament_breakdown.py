"""Where a player's points come from: the games of a record file split by role and game kind.

A player's points per list (the measure of :mod:`skat.tournament_results`: 36 x the mean,
over the games it sits in, of its seats' mean Seeger-Fabian score) is a sum over games, so it
splits exactly into parts. Each seat's score in a game goes to the seat's role there: the
declarer of a grand, suit or null game (hand or pick-up), a defender (against another player or
against a seat of its own: in a full tournament a player can hold two seats), or a passed-out
deal (Ramsch included). The parts of a player add up to its points per list, in every record
file; each part also counts its seat-games and, for declarers, how many were won. The counts
are seats, not games: a player holding both defenders' seats counts a game twice as defender.

>>> import os, tempfile
>>> from skat.tournament import run
>>> path = os.path.join(tempfile.mkdtemp(), "t.sgf")
>>> result = run("rules", "random", mode="full", deals=4, seed=4, records=path)
>>> b = breakdown(path)
>>> parts = b["players"]["rules"]["parts"]
>>> total = sum(p["points_per_list"] for p in parts)
>>> abs(total - result.players["rules"].points_per_list) < 1e-9
True
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from skat.analysis.pipma import game_names
from skat.analysis.verdicts import Judged, seat_role
from skat.records import read_iss
from skat.tournament_results import LIST_GAMES

__all__ = ["ROLES", "breakdown", "headroom", "part_name", "plot_breakdown"]

ROLES = (
    "declarer grand",
    "declarer suit",
    "declarer null",
    "defender",
    "defender against itself",
    "passed out",
)
"""The roles a seat's score is counted under, in the order they are reported (a declarer's
role is further split into hand and pick-up games)."""


def breakdown(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Every player's points per list in the record file at ``path``, split into parts by role
    (:data:`ROLES`; declarers also by hand and pick-up). Each part has ``role``, ``hand``
    (``None`` for defenders and passed-out deals), ``seats`` (seat-games), ``won`` (declarers;
    else ``None``) and ``points_per_list``; a player's ``points_per_list`` is their sum.
    Games without a result are left out, as the tournament leaves them out. Raises
    ``ValueError`` for a file without a scored game (and ``RecordError`` for a bad record)."""
    # per label: (role, hand) -> [seats, won, sum of the seat's score / seats held]
    parts: dict[str, dict[tuple[str, bool | None], list[float]]] = defaultdict(
        lambda: defaultdict(lambda: [0.0, 0.0, 0.0])
    )
    games: dict[str, int] = defaultdict(int)
    for game in read_iss(path):
        r = game.result
        if r is None:
            continue
        labels = game_names(game)
        held = {label: labels.count(label) for label in labels}
        for label in held:
            games[label] += 1
        declarer = None if r.passed else r.declarer
        for s, label in enumerate(labels):
            key: tuple[str, bool | None]
            won = 0.0
            if declarer is None or r.contract is None:
                key = ("passed out", None)
            else:
                role = seat_role(labels, declarer, r.contract.game_type.class_name, s)
                key = (role, r.contract.hand if s == declarer else None)
                won = float(r.won) if s == declarer else 0.0
            part = parts[label][key]
            part[0] += 1
            part[1] += won
            part[2] += r.scores[s] / held[label]
    if not games:
        raise ValueError(f"{os.fspath(path)}: no scored game")
    players: dict[str, Any] = {}
    for label in sorted(games):
        rows = []
        for (role, hand), (seats, won, score) in sorted(
            parts[label].items(), key=lambda kv: (ROLES.index(kv[0][0]), kv[0][1] is True)
        ):
            rows.append(
                {
                    "role": role,
                    "hand": hand,
                    "seats": int(seats),
                    "won": int(won) if role.startswith("declarer") else None,
                    "points_per_list": LIST_GAMES * score / games[label],
                }
            )
        players[label] = {
            "games": games[label],
            "points_per_list": sum(row["points_per_list"] for row in rows),
            "parts": rows,
        }
    return {"records": os.fspath(path), "players": players}


def corrected_scores(judged: Judged) -> tuple[int, int, int]:
    """The seats' scores had the game ended as its open-handed verdict says, at the same game
    value: a won game scored lost is worth ``-(2 x value) - 50`` to the declarer and 40 to each
    defender, a lost one scored won ``value + 50`` and nothing to the defenders (a game lost by
    overbidding stays lost; Kontra and Re are not redone)."""
    if judged.verdict is None or judged.verdict == judged.won or judged.overbid:
        return judged.scores
    scores = [0, 0, 0]
    if judged.won:  # lost open-handed, won at the table
        for seat in range(3):
            scores[seat] = -2 * judged.value - 50 if seat == judged.declarer else 40
    else:  # ISS values of lost games are doubled and negative
        scores[judged.declarer] = -judged.value // 2 + 50
    return scores[0], scores[1], scores[2]


def headroom(judged_games: Iterable[Judged], player: str) -> dict[str, float]:
    """Every player's points per list had ``player``'s card play never fallen short of the
    open-handed verdict at the first card: each game ``player`` declared and lost though she
    could win it open-handed is scored as won, each game another player declared and won
    against ``player``'s defence though it was lost open-handed is scored as lost
    (:func:`corrected_scores`); everything else as played. ``judged_games`` is
    :func:`skat.analysis.verdicts.judge`'s output (games without a verdict count as played).
    What the other players' card play gave away is kept, so this bounds what
    better card play by ``player`` alone, at the same contracts, could have gained against
    perfect-information judgement; a declarer who exploits the defenders' hidden cards can
    win more.

    >>> import os, tempfile
    >>> from skat.analysis.verdicts import judge
    >>> from skat.tournament import run
    >>> path = os.path.join(tempfile.mkdtemp(), "t.sgf")
    >>> result = run("rules", "random", mode="full", deals=3, seed=4, records=path)
    >>> better = headroom(judge(path), "random")
    >>> better["random"] >= result.players["random"].points_per_list - 1e-9
    True
    """
    totals: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for item in judged_games:
        labels = item.labels
        scores = item.scores
        if item.verdict is not None:
            mine = labels[item.declarer] == player
            defending = not mine and player in labels
            if (mine and not item.won) or (defending and item.won):
                scores = corrected_scores(item)
        held = {label: labels.count(label) for label in labels}
        for label in held:
            games[label] += 1
            totals[label] += sum(scores[s] for s in range(3) if labels[s] == label) / held[label]
    return {label: LIST_GAMES * totals[label] / games[label] for label in sorted(games)}


def part_name(part: dict[str, Any]) -> str:
    """A part's name for tables and plots: its role, with ``(hand)`` or ``(pick-up)`` for
    declarers."""
    hand = part["hand"]
    return str(part["role"]) + ("" if hand is None else " (hand)" if hand else " (pick-up)")


def plot_breakdown(result: dict[str, Any], path: str | os.PathLike[str], title: str = "") -> None:
    """Writes a PNG of :func:`breakdown`'s ``result``: per part, a bar of each player's points
    per list (one colour per player)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = list(result["players"])
    names: list[str] = []
    for label in players:
        for part in result["players"][label]["parts"]:
            if part_name(part) not in names:
                names.append(part_name(part))
    fig, ax = plt.subplots(figsize=(8, 0.25 * len(names) * max(1, len(players)) + 1.5))
    height = 0.8 / max(1, len(players))
    for i, label in enumerate(players):
        mine = {part_name(p): p["points_per_list"] for p in result["players"][label]["parts"]}
        total = result["players"][label]["points_per_list"]
        ax.barh(
            [j + i * height for j in range(len(names))],
            [mine.get(n, 0.0) for n in names],
            height=height,
            label=f"{label} ({total:.1f} per list)",
        )
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(names))], names, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("points per list")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or "where the points per list come from")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
