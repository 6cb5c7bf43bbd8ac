"""How often Kermit's opening lead keeps a beatable contract beatable, at two world counts.

Reads a full-game tournament's records (``skat tournament ... --records FILE``) and takes every
distinct opening lead (deal, seat, contract) made by a ``kermit`` seat against a contract of
another player that best defence would beat from the first card (``start_verdict`` false) and
where some leads keep it beatable and others do not. Each lead is judged open-handed: a lead is
good when the declarer still cannot win against best play. It counts the good leads of the
recorded game, and of each spec deciding the same view again with ``--seeds`` other sampling
seeds (``5000 + s``).

    python benchmarks/opening_leads.py ku.iss --specs kermit,kermit:worlds=640 --seeds 2 --json F
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from skat import Game, Solver
from skat.analysis.pipma import game_names, iter_decisions
from skat.analysis.verdicts import game_at_first_card, start_verdict
from skat.defaults import PIPMA_TT_MB
from skat.display import save_json
from skat.players.base import make_player
from skat.players.pimc import PimcPlayer
from skat.records import read_iss


def decisive_leads(path: str) -> list[tuple[Game, int, Any]]:
    """(game before its first card, leading seat, the lead's open-handed decision) of every
    distinct decisive opening lead by a ``kermit`` seat against another player's contract."""
    solver = Solver(tt_mb=PIPMA_TT_MB)
    seen: set[tuple[str, int, str]] = set()
    out = []
    for g in read_iss(path):
        r = g.result
        if r is None or r.passed or g.declarer is None:
            continue
        names = game_names(g)
        if names[g.declarer].startswith("kermit"):
            continue
        replay = game_at_first_card(g)
        lead_seat = None if replay is None else replay.to_move
        if replay is None or lead_seat is None or not names[lead_seat].startswith("kermit"):
            continue
        key = (str(g.deal.hands), lead_seat, str(g.contract))
        if key in seen:
            continue
        seen.add(key)
        if start_verdict(g, solver) is not False:
            continue
        d = next(iter_decisions(g, solver), None)
        if d is None or d.number != 1 or not d.winning or not d.losing:
            continue
        out.append((replay, lead_seat, d))
    return out


def good_lead_shares(path: str, specs: list[str], seeds: int) -> dict[str, Any]:
    """The share of good leads as recorded and for each spec over ``seeds`` sampling seeds."""
    leads = decisive_leads(path)
    n = len(leads)
    if n == 0:
        return {"records": path, "positions": 0, "seeds": seeds, "good_lead_share": {}}
    shares: dict[str, float] = {"recorded": sum(d.card in d.winning for _, _, d in leads) / n}
    for spec in specs:
        good = 0
        for replay, seat, d in leads:
            view = replay.view(seat)
            for s in range(seeds):
                player = make_player(spec)
                assert isinstance(player, PimcPlayer), f"{spec} is not a PIMC player"
                player.new_game(seat, 5000 + s)
                good += player.decide(view).best in d.winning
        shares[spec] = good / (seeds * n)
    return {"records": path, "positions": n, "seeds": seeds, "good_lead_share": shares}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records")
    ap.add_argument("--specs", default="kermit,kermit:worlds=640")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    result = good_lead_shares(args.records, args.specs.split(","), args.seeds)
    print(json.dumps(result, indent=1))
    save_json(args.json, result)


if __name__ == "__main__":
    main()
