"""How far off are the bidding tables against one opponent? One logit offset per game family.

Reads a full-game tournament's records (``skat tournament ... --records FILE``) and sets every
contract declared by a player whose name starts with ``--player`` beside the learned tables'
win probability for the game as played: the declarer's hand after the discard, the discard,
the contract and her seat (:func:`skat.training.fit.sample_from_game`, the reading that
``skat report bidding`` uses). Per family (suit, grand, null with null ouvert) it reports the
contracts, the share won, the mean prediction, calibration bins of the pick-up games, and the
maximum-likelihood *offset*: the constant b for which ``sigmoid(logit(p) + b)`` fits the
outcomes best, the tables' logit kept as a fixed offset, with its standard error (the inverse
square root of the Fisher information). A positive offset means the tables are pessimistic
about this opponent. This is the measurement behind "Against rules the tables are
pessimistic" in docs/bidding.md.

``--shifted-model OUT --shifts SUIT GRAND NULL`` instead writes the packaged model with the win
logit of each family raised by the given amounts (the bias of the suit and grand win models,
the constant of both null tables), for a tournament with ``kermit:model=OUT``.

    python benchmarks/bidding_offsets.py t05.iss --player kermit --json F
    python benchmarks/bidding_offsets.py --shifted-model shifted.npz --shifts 0.5 0.25 0.6
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from skat import Cards
from skat.analysis.pipma import game_names
from skat.bidding import default_model
from skat.bidding.model import BiddingModel
from skat.display import save_json
from skat.records import read_iss
from skat.training.bidding_report import calibration_bins, family_of
from skat.training.fit import sample_from_game

FAMILIES = ("suit", "grand", "null")
CLIP = 1e-6
"""Predictions are clipped to ``[CLIP, 1 - CLIP]`` before their logit is taken."""


def family(kind: int) -> str:
    """The family of a contract kind index, null ouvert counted with null."""
    name = family_of(kind)
    return "null" if name == "null ouvert" else name


def contracts(path: str, player: str) -> list[tuple[str, bool, float, bool]]:
    """(family, picked up, the tables' prediction, won) of every contract declared by a player
    named ``player...``."""
    model = default_model()
    out = []
    for g in read_iss(path):
        s = sample_from_game(g)
        if s is None or not game_names(g)[s.seat].startswith(player):
            continue
        hand, discard = Cards.from_bits(s.hand), Cards.from_bits(s.discard)
        p = model.tables.win_probability(hand, discard, s.kind, s.seat)
        out.append((family(s.kind), bool(g.picked_up), p, s.won))
    return out


def logit_offset(p: np.ndarray, y: np.ndarray, steps: int = 50) -> tuple[float, float]:
    """The maximum-likelihood shift b of the logits of ``p`` for outcomes ``y``, and its
    standard error (Newton's method on the one-parameter log-likelihood, which is concave).

    >>> b, se = logit_offset(np.array([0.5, 0.5, 0.5, 0.5]), np.array([1.0, 1.0, 1.0, 0.0]))
    >>> round(b, 6), round(se, 6)  # logit(3/4) = log 3
    (1.098612, 1.154701)
    """
    q = np.clip(p, CLIP, 1 - CLIP)
    base = np.log(q / (1 - q))
    b = 0.0
    for _ in range(steps):
        s = 1 / (1 + np.exp(-(base + b)))
        info = float(np.sum(s * (1 - s)))
        step = float(np.sum(y - s)) / info
        b += step
        if abs(step) < 1e-12:
            break
    s = 1 / (1 + np.exp(-(base + b)))
    return b, 1 / math.sqrt(float(np.sum(s * (1 - s))))


def offsets(path: str, player: str) -> dict[str, Any]:
    """Every family's counts, calibration and offset (families without contracts left out)."""
    rows = contracts(path, player)
    out: dict[str, Any] = {"records": path, "player": player, "families": {}}
    for fam in FAMILIES:
        sel = [r for r in rows if r[0] == fam]
        if not sel:
            continue
        p = np.array([r[2] for r in sel])
        y = np.array([r[3] for r in sel], dtype=np.float64)
        picked = np.array([r[1] for r in sel])
        b, se = logit_offset(p, y)
        out["families"][fam] = {
            "contracts": len(sel),
            "pick_ups": int(picked.sum()),
            "won": float(y.mean()),
            "predicted": float(p.mean()),
            "offset": b,
            "offset_se": se,
            "pick_up_bins": calibration_bins(p[picked], y[picked]),
        }
    return out


NULL_CONSTANTS = (0, 4)
"""Where ``null_cal`` keeps the constant of the null and of the null ouvert table."""


def shifted_model(model: BiddingModel, suit: float, grand: float, null: float) -> BiddingModel:
    """``model`` with every win logit of a family raised by the family's shift (the schneider
    and schwarz models unchanged)."""
    arrays = {k: v.copy() for k, v in model.arrays.items()}
    arrays["suit_weights"][0] += suit  # the win target's bias
    arrays["grand_weights"][0] += grand
    for i in NULL_CONSTANTS:
        arrays["null_cal"][i] += null
    meta = {**model.meta, "win_logit_shifts": {"suit": suit, "grand": grand, "null": null}}
    return BiddingModel(arrays, meta)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="?", help="a full-game tournament's record file")
    ap.add_argument("--player", default="kermit", help="name prefix of the declarer")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--shifted-model", metavar="OUT", help="write a shifted model instead")
    ap.add_argument("--shifts", type=float, nargs=3, metavar=("SUIT", "GRAND", "NULL"))
    args = ap.parse_args()
    if args.shifted_model:
        if args.shifts is None:
            ap.error("--shifted-model needs --shifts SUIT GRAND NULL")
        shifted_model(default_model(), *args.shifts).save(args.shifted_model)
        return
    if args.records is None:
        ap.error("give a record file (or --shifted-model)")
    out = offsets(args.records, args.player)
    for fam, f in out["families"].items():
        print(
            f"{fam}: {f['contracts']} contracts ({f['pick_ups']} picked up), won {f['won']:.1%},"
            f" predicted {f['predicted']:.1%}; offset {f['offset']:+.2f} ({f['offset_se']:.2f})"
        )
        for b in f["pick_up_bins"]:
            print(
                f"  pick-ups predicted {b['lo']:.1f}-{b['hi']:.1f}: {b['n']},"
                f" mean {b['predicted']:.2f}, won {b['actual']:.0%}"
            )
    save_json(args.json, out)


if __name__ == "__main__":
    main()
