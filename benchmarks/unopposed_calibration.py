"""Do contracts nobody else bid for win more often than the bidding tables predict?

Reads a full-game tournament's records (``skat tournament ... --records FILE``) and sets every
contract declared by a player whose name starts with ``--player`` beside the learned tables'
value of the declarer's ten cards at the bid reached (:func:`skat.bidding.evaluate`: the win
probability of the cheapest game that reaches the bid, with the packaged model). It splits the
contracts by whether an opponent bid or held in the auction and reports, per group, the
contracts, the share won, the mean prediction, and the same for the predictions in
``--band`` (by default 0.6-0.7, just above Kermit's threshold). This is the measurement behind
``kermit:unopposed`` (docs/bidding.md, "Bidding unopposed").

    python benchmarks/unopposed_calibration.py t06.iss --player kermit --json F
"""

from __future__ import annotations

import argparse
from typing import Any

from skat.analysis.pipma import game_names
from skat.bidding import evaluate
from skat.display import save_json
from skat.players.kermit import opponent_has_bid
from skat.records import read_iss


def contracts(path: str, player: str) -> list[tuple[bool, float, bool]]:
    """(an opponent bid or held, the tables' prediction at the bid reached, won) of every
    contract declared by a player named ``player...``."""
    out = []
    for g in read_iss(path):
        r = g.result
        d = g.declarer
        if r is None or r.passed or d is None or g.contract is None:
            continue
        if not game_names(g)[d].startswith(player):
            continue
        opposed = opponent_has_bid(g.view(d))  # the whole auction: the game is over
        predicted = evaluate(g.deal.hands[d], d, r.bid)
        out.append((opposed, predicted, bool(r.won)))
    return out


def _group(rows: list[tuple[bool, float, bool]]) -> dict[str, Any]:
    n = len(rows)
    return {
        "contracts": n,
        "won": sum(w for _, _, w in rows) / n if n else None,
        "predicted": sum(p for _, p, _ in rows) / n if n else None,
    }


def calibration(path: str, player: str, band: tuple[float, float]) -> dict[str, Any]:
    """Both groups, each whole and in the prediction band ``[lo, hi)``."""
    rows = contracts(path, player)
    out: dict[str, Any] = {"records": path, "player": player, "band": list(band)}
    for name, opposed in (("unopposed", False), ("opposed", True)):
        group = [row for row in rows if row[0] == opposed]
        in_band = [row for row in group if band[0] <= row[1] < band[1]]
        out[name] = {**_group(group), "band": _group(in_band)}
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="a full-game tournament's record file")
    ap.add_argument("--player", default="kermit", help="name prefix of the declarer")
    ap.add_argument("--band", type=float, nargs=2, default=(0.6, 0.7), metavar=("LO", "HI"))
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    out = calibration(args.records, args.player, (args.band[0], args.band[1]))
    for name in ("unopposed", "opposed"):
        g = out[name]
        b = g["band"]
        print(
            f"{name}: {g['contracts']} contracts, won {_pct(g['won'])}, predicted"
            f" {_pct(g['predicted'])}; predicted {args.band[0]:g}-{args.band[1]:g}:"
            f" {b['contracts']}, won {_pct(b['won'])}"
        )
    save_json(args.json, out)


if __name__ == "__main__":
    main()
