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
from typing import Any

from skat.records import read_iss
from skat.tournament_results import LIST_GAMES

__all__ = ["ROLES", "breakdown", "part_name", "plot_breakdown"]

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
        names = dict(game.header)
        labels = [names.get(f"P{s}", f"seat {s}") for s in range(3)]
        held = {label: labels.count(label) for label in labels}
        for label in held:
            games[label] += 1
        declarer = None if r.passed else r.declarer
        for s, label in enumerate(labels):
            key: tuple[str, bool | None]
            won = 0.0
            if declarer is None or r.contract is None:
                key = ("passed out", None)
            elif s == declarer:
                key = ("declarer " + r.contract.game_type.class_name, r.contract.hand)
                won = float(r.won)
            elif labels[declarer] == label:
                key = ("defender against itself", None)
            else:
                key = ("defender", None)
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
