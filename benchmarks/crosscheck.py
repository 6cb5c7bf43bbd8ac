"""Cross-check the Rust core against the pure-Python reference at scale.

The test suite plays a few hundred games against ``tests/reference/``; rare cases (a rule
that matters once in ten thousand games) need far more. This script plays ``--games`` random
games per variant set, each through the core and the reference side by side: the same seat
to move and the same legal actions at every step, the same result at the end, and the core's
record reading back to the same result. Play mixes the tests' sensible random policy with
uniform random moves; Kontra and Re are said often and auctions pass often, so that every
window and the Ramsch come up. ``--announced`` instead starts every deal with a hand game
with schneider or schwarz announced, or an ouvert game, after ``18 p p``.

    python benchmarks/crosscheck.py --games 40000 --seed 1
    python benchmarks/crosscheck.py --games 10000 --announced --seed 2

Prints one line per variant set and exits 1 at the first disagreement, with its record.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the reference lives in the tests package
    sys.path.insert(0, str(ROOT))

import skat  # noqa: E402
from tests.policies import sensible_random_action  # noqa: E402
from tests.test_reference_crosscheck import (  # noqa: E402
    ANNOUNCED_DECLARATIONS,
    check_same_position,
    compare_results,
    ref_game,
)

VARIANT_SETS = ["", "kontra", "kontra bock", "ramsch", "schieberamsch bock", "kontra bock ramsch"]
"""The table variants played, one pass of ``--games`` games each."""


class Disagreement(Exception):
    """The core and the reference differ; the message names the game."""


def play_one(deal_seed: int, variants: str, rng: random.Random, announced: bool) -> None:
    """Plays one game through the core and the reference; raises :class:`Disagreement`."""
    deal = skat.Deal.random(deal_seed)
    core = skat.Game(deal, variants=variants)
    slow = ref_game(deal, variants)
    if announced:
        for token in ["18", "p", "p", rng.choice(ANNOUNCED_DECLARATIONS)]:
            core.apply(token)
            slow.apply(token)
    uniform = rng.random() < 0.3
    while not core.is_over:
        try:
            legal = check_same_position(core, slow)
        except AssertionError:
            raise Disagreement(f"legal actions differ in {core.to_iss()}") from None
        doubles = [a for a in legal if a.kind in ("kontra", "re")]
        if doubles and rng.random() < 0.4:
            action = doubles[0]
        elif uniform:
            action = rng.choice(legal)
        else:
            action = sensible_random_action(core, rng)
        if core.phase == skat.Phase.BIDDING and rng.random() < 0.3:
            action = next((a for a in legal if a.kind == "pass"), action)
        core.apply(action)
        slow.apply(str(action))
    if not slow.is_over or core.result is None or slow.result is None:
        raise Disagreement(f"one side is not over: {core.to_iss()}")
    try:
        compare_results(core.result, slow.result)
    except AssertionError as e:
        raise Disagreement(f"results differ ({e}) in {core.to_iss()}: {slow.result}") from None
    if skat.Game.from_iss(core.to_iss()).result != core.result:
        raise Disagreement(f"the record does not read back: {core.to_iss()}")


def run(games: int, seed: int, announced: bool, emit: Callable[[str], None]) -> bool:
    """Every variant set (only the plain game with ``announced``); ``False`` at the first
    disagreement. One line per set goes to ``emit`` as soon as the set is done."""
    sets = [""] if announced else VARIANT_SETS
    for i, variants in enumerate(sets):
        rng = random.Random(seed * 1_000 + i)
        start = time.time()
        base = seed * 100_000_000 + i * 10_000_000
        for g in range(games):
            try:
                play_one(base + g, variants, rng, announced)
            except Disagreement as e:
                emit(f"{variants or 'plain'}: game {g} (deal seed {base + g}): {e}")
                return False
        label = "announced" if announced else variants or "plain"
        emit(f"{label}: {games} games agree ({time.time() - start:.0f} s)")
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="games per variant set")
    p.add_argument("--seed", type=int, default=1, help="seed of deals and play")
    p.add_argument("--announced", action="store_true", help="hand and ouvert announcements")
    args = p.parse_args(argv)
    if args.games < 1 or not 0 <= args.seed < 2**32:
        p.error("--games must be at least 1 and --seed in 0..2**32-1")
    ok = run(args.games, args.seed, args.announced, lambda line: print(line, flush=True))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
