"""List statistics: per player the Seeger-Fabian total, games declared, won and lost, the
declarer win rate and the game types declared, with the running totals game by game; and a
plot of both. Computed from the score sheet (:mod:`skat.ui.sheet`), so by chair: a player
keeps her numbers however the deal passes round the table.

>>> from skat.ui.session import Session
>>> s = Session(seat=0, opponents=["rules"], seed=2, games=1)
>>> stats = list_stats(s.sheet())
>>> [p["name"] for p in stats["players"]], stats["games_played"]
(['You', 'AI 1', 'AI 2'], 0)
"""

from __future__ import annotations

import io
from typing import Any

from skat.ui.sheet import ScoreSheet

FAMILIES = ("suit", "grand", "null")


def family(contract: str) -> str | None:
    """The game family of a sheet row's contract name (None: passed in)."""
    if not contract:
        return None
    head = contract.split()[0].lower()
    return "grand" if head == "grand" else "null" if head == "null" else "suit"


def list_stats(sheet: ScoreSheet) -> dict[str, Any]:
    """The statistics of a list so far (JSON-ready)."""
    players = []
    for chair, name in enumerate(sheet.names):
        mine = [r for r in sheet.rows if r.declarer == chair]
        won = sum(1 for r in mine if r.won)
        types = {f: sum(1 for r in mine if family(r.contract) == f) for f in FAMILIES}
        players.append(
            {
                "name": name,
                "total": sheet.totals[chair],
                "declared": len(mine),
                "won": won,
                "lost": len(mine) - won,
                "win_rate": won / len(mine) if mine else None,
                "types": types,
            }
        )
    return {
        "games": sheet.games,
        "games_played": len(sheet.rows),
        "passed": sum(1 for r in sheet.rows if r.declarer is None),
        "players": players,
        "running_totals": [list(r.totals) for r in sheet.rows],
    }


def plot_stats(stats: dict[str, Any]) -> bytes:
    """PNG: the running Seeger-Fabian totals per player, and the game types each declared
    (won and lost)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 3.8))
    games = list(range(len(stats["running_totals"]) + 1))
    for chair, p in enumerate(stats["players"]):
        ys = [0] + [t[chair] for t in stats["running_totals"]]
        ax.plot(games, ys, "-o", ms=3, label=f"{p['name']} ({p['total']:+d})")
    ax.axhline(0, color="grey", lw=1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    bx.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("game")
    ax.set_ylabel("Seeger-Fabian points")
    ax.set_title("running totals")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    names = [p["name"] for p in stats["players"]]
    bottom = [0] * len(names)
    for f, color in zip(FAMILIES, ("tab:blue", "tab:red", "tab:green"), strict=True):
        counts = [p["types"][f] for p in stats["players"]]
        bx.bar(names, counts, bottom=bottom, color=color, label=f)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    for i, p in enumerate(stats["players"]):
        if p["declared"]:
            bx.annotate(
                f"won {p['won']} of {p['declared']}",
                (i, bottom[i]),
                ha="center",
                va="bottom",
                fontsize=8,
            )
    bx.set_ylabel("games declared")
    bx.set_title("game types declared")
    bx.set_ylim(0, max([*bottom, 1]) * 1.25)
    bx.legend(fontsize=8)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=80)
    plt.close(fig)
    return out.getvalue()


__all__ = ["family", "list_stats", "plot_stats"]
