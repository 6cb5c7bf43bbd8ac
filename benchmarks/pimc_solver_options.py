"""PIMC decision time with the solver's payoff-similarity table on and off.

The workload PIMC really meets: the three cards of the first trick of deals bid and declared
by the ``rules`` player, each decided by ``Pimc`` (one thread) from the seat's own view. Both
engines decide the same positions with the same seeds, so the chosen cards must agree; the
times are compared per decision.

    python benchmarks/pimc_solver_options.py --deals 10 --worlds 40 [--no-points] --seed 1
"""

from __future__ import annotations

import argparse
import statistics
import time

from skat._core import Phase, Pimc
from skat.bench import declared_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=40)
    ap.add_argument("--no-points", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    points = not args.no_points
    engines = {
        name: Pimc(worlds=args.worlds, threads=1, points=points, payoff_similarity=on)
        for name, on in (("on", True), ("off", False))
    }
    times: dict[str, list[float]] = {name: [] for name in engines}
    j = 0
    done = 0
    while done < args.deals:
        j += 1
        game = declared_game(args.seed * 1_000_003 + j)
        if game is None:
            continue
        for k in range(3):
            seat = game.to_move
            assert seat is not None and game.phase == Phase.PLAY
            best: set[str] = set()
            for name, engine in engines.items():
                t = time.perf_counter()
                d = engine.decide(game.view(seat), seed=j * 3 + k)
                times[name].append(time.perf_counter() - t)
                best.add(str(d.best))
            assert len(best) == 1, f"engines disagree at deal {j} card {k}: {best}"
            game.apply(best.pop())
        done += 1
    for name, ts in times.items():
        print(
            f"payoff_similarity={name}: {len(ts)} decisions, median {statistics.median(ts):.3f} s,"
            f" mean {statistics.mean(ts):.3f} s, max {max(ts):.3f} s"
        )
    ratio = [a / b for a, b in zip(times["on"], times["off"], strict=True) if b > 0]
    print(f"on/off time ratio per decision: median {statistics.median(ratio):.2f}")


if __name__ == "__main__":
    main()
