"""How fast does the ProbCut estimators' error fall with more training positions?

ProbCut's speed-up at a given decision agreement is set by the estimators' error: the
simulated estimators of ``skat research pcut-error`` show that 3.5x at agreement 0.95 needs
a far smaller error deviation than the shipped networks' in suit games. This study measures the
learning curve of the shipped model (a network per class, ``skat train estimators``) to say
how many positions such an error would take.

It labels ``--positions`` positions per class and hand size (or reads them from ``--samples``,
the file ``skat train estimators --samples`` writes), keeps their held-out tenth fixed, and
fits the networks on the first ``n`` training positions of every class and hand size for each
``n`` in ``--sizes`` (each slot keeps the same share of its training rows). A smaller set gets
more passes, ``REFERENCE_EPOCHS * reference / n`` (at most ``MAX_EPOCHS``), with the learning
rate's per-pass decay stretched to the same total decay, so every fit takes at least the
reference fit's number of steps. For every size it reports each slot's held-out mean absolute
error and error deviation (card points, estimates clamped to the static bounds as in the
search), the class means, and ``k``: the mean over the class's slots of the deviation divided
by the deviation of the fit on ``reference`` positions (360,000, 8 passes). The scale K of
``skat research pcut-error`` is relative to the shipped networks instead, which stand at about
0.85 on this one (docs/solver-research.md). One more fit at the reference size with
``--longer`` times its passes says whether the reference schedule had converged: if it gains
much, the curve measures the schedule as much as the data.

A power law with a floor, ``k(n) = a + b n^-c``, fitted per class to the sizes, extrapolates
the positions needed for a target K (``--targets``): none when the target lies below the
floor ``a``.

Every number depends on the positions, ``--sizes``, ``--hidden``, ``--longer`` and ``--seed``
only; the fits run on ``--workers`` processes with the same result for any count.

    python benchmarks/estimator_curve.py --positions 800000 --seed 3 --samples est.npz \
        --json benchmarks/results/estimator-curve.json --plot docs/img/estimator-curve.png
"""

from __future__ import annotations

import argparse
import json
import math
import os
from functools import lru_cache
from typing import Any

import numpy as np

from skat.defaults import ESTIMATOR_CAP, ESTIMATOR_HIDDEN
from skat.display import save_json
from skat.parallel import map_tasks
from skat.training.estimator_net import fit_nets
from skat.training.estimators import (
    CLASSES,
    SlotData,
    generate,
    load_samples,
    save_samples,
    training_positions,
)

SIZES = (22_500, 45_000, 90_000, 180_000, 360_000, 720_000)
"""Training positions per class and hand size, one fit each."""
REFERENCE = training_positions(400_000)
"""The reference fit's training positions per class and hand size (360,000: 400,000 labelled
less the tenth held out); K is measured against the fit of this size."""
REFERENCE_EPOCHS = 8
"""The reference fit's passes: every fit takes at least its steps."""
REFERENCE_DECAY = 0.6
"""The reference fit's per-pass decay of the learning rate: every fit decays as much in all."""
MAX_EPOCHS = 64
"""The most passes any fit makes."""
TARGETS = (0.35, 0.5, 0.65)
"""K for which the positions needed are extrapolated: the suit target at pcut 0.5, the grand
target at pcut 0.4 and at pcut 0.3 (``docs/solver-research.md``)."""


def subset(
    data: dict[tuple[str, int, int], SlotData], n: int
) -> dict[tuple[str, int, int], SlotData]:
    """Every held-out row, and the first ``n`` training rows of each class and hand size,
    shared among its slots in proportion to their training rows."""
    train: dict[tuple[str, int], int] = {}
    for (gc, k, _), d in data.items():
        train[(gc, k)] = train.get((gc, k), 0) + int((~d.test).sum())
    out = {}
    for key, d in data.items():
        total = train[(key[0], key[1])]
        if n > total:
            raise ValueError(f"{key[0]} at {key[1]} cards has {total} training positions, not {n}")
        idx = np.flatnonzero(~d.test)
        keep = np.zeros(len(d.test), dtype=bool)
        keep[idx[: round(len(idx) * n / total)]] = True
        keep |= d.test
        out[key] = SlotData(d.features[keep], d.value[keep], d.lo[keep], d.hi[keep], d.test[keep])
    return out


def schedule(
    n: int, epochs: int = REFERENCE_EPOCHS, reference: int = REFERENCE, stretch: int = 1
) -> tuple[int, float]:
    """Passes and per-pass decay for ``n`` training positions: at least the reference fit's
    steps (``stretch`` times as many), and the same total decay of the learning rate."""
    passes = min(MAX_EPOCHS, stretch * max(epochs, math.ceil(epochs * reference / n)))
    return passes, REFERENCE_DECAY ** (epochs / passes)


def power_fit(ns: list[float], ks: list[float]) -> dict[str, float]:
    """Least-squares ``k = a + b n^-c`` with ``a >= 0``, ``b >= 0`` (``c`` on a grid)."""
    x, y = np.asarray(ns, float), np.asarray(ks, float)
    best: dict[str, float] = {}
    for c in np.arange(0.02, 2.0, 0.01):
        u = x**-c
        design = np.stack([np.ones_like(u), u], axis=1)
        (a, b), *_ = np.linalg.lstsq(design, y, rcond=None)
        if a < 0:  # the floor constrained to zero
            a, b = 0.0, float(u @ y / (u @ u))
        if b < 0:
            a, b = float(y.mean()), 0.0
        sse = float(((a + b * u - y) ** 2).sum())
        if not best or sse < best["sse"]:
            best = {"a": float(a), "b": float(b), "c": float(c), "sse": sse}
    return best


def positions_needed(fit: dict[str, float], target: float) -> float | None:
    """The ``n`` at which the fitted curve reaches ``target``; None below its floor."""
    if target <= fit["a"] or fit["b"] <= 0:
        return None
    return float(((target - fit["a"]) / fit["b"]) ** (-1.0 / fit["c"]))


def _fit(task: tuple[str, int, int, int, int, float, int, int]) -> dict[str, Any]:
    path, positions, seed, n, reference, cap, hidden, stretch = task
    passes, decay = schedule(n, reference=reference, stretch=stretch)
    nets = fit_nets(
        subset(_load(path, positions, seed), n),
        hidden=hidden,
        epochs=passes,
        cap=cap,
        seed=seed,
        decay=decay,
    )
    slots = [
        {"class": f.game_class, "cards": cards, "role": role, "mae": mae, "sd": f.sd[(cards, role)]}
        for f in nets
        for (cards, role), mae in sorted(f.mae.items())
    ]
    return {"n": n, "hidden": hidden, "epochs": passes, "stretch": stretch, "slots": slots}


@lru_cache(maxsize=1)
def _load(path: str, positions: int, seed: int) -> dict[tuple[str, int, int], SlotData]:
    """The labelled positions, read once per worker process."""
    return load_samples(path, positions, seed)


def reference_fit(fits: list[dict[str, Any]], reference: int) -> dict[str, Any]:
    """The fit of ``reference`` positions at the plain schedule."""
    for f in fits:
        if f["n"] == reference and f["stretch"] == 1:
            return f
    raise ValueError(f"no fit of {reference} positions at the plain schedule")


def summarise(
    fits: list[dict[str, Any]], reference: int = REFERENCE, ref: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Class means per size, K against the reference fit (``ref``, else the fit of
    ``reference`` positions among ``fits``), and with at least three sizes the power laws and
    the positions needed for each target."""
    ref = ref or reference_fit(fits, reference)
    ref_sd = {(s["class"], s["cards"], s["role"]): s["sd"] for s in ref["slots"]}
    out: dict[str, Any] = {}
    for gc in CLASSES:
        rows = []
        for f in sorted(fits, key=lambda f: (f["n"], f["stretch"])):
            mine = [s for s in f["slots"] if s["class"] == gc]
            rows.append(
                {
                    "n": f["n"],
                    "epochs": f["epochs"],
                    "stretch": f["stretch"],
                    "mae": float(np.mean([s["mae"] for s in mine])),
                    "sd": float(np.mean([s["sd"] for s in mine])),
                    "k": float(
                        np.mean([s["sd"] / ref_sd[(gc, s["cards"], s["role"])] for s in mine])
                    ),
                }
            )
        curve = [r for r in rows if r["stretch"] == 1]
        out[gc] = {"sizes": rows, "power_law": None, "needed": None}
        if len(curve) >= 3:
            law = power_fit([r["n"] for r in curve], [r["k"] for r in curve])
            out[gc]["power_law"] = law
            out[gc]["needed"] = {f"{t:g}": positions_needed(law, t) for t in TARGETS}
    return out


def plot(summary: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for gc, colour in zip(CLASSES, ("tab:blue", "tab:orange"), strict=True):
        rows = [r for r in summary[gc]["sizes"] if r["stretch"] == 1]
        ns = np.array([r["n"] for r in rows], float)
        ax.plot(ns, [r["k"] for r in rows], "o", color=colour, label=f"{gc}: measured")
        longer = [r for r in summary[gc]["sizes"] if r["stretch"] > 1]
        ax.plot(
            [r["n"] for r in longer],
            [r["k"] for r in longer],
            "x",
            color=colour,
            label=f"{gc}: the reference size, more passes",
        )
        law = summary[gc]["power_law"]
        if law is None:
            continue
        grid = np.geomspace(ns.min(), 1e9, 200)
        ax.plot(
            grid,
            law["a"] + law["b"] * grid ** -law["c"],
            "--",
            color=colour,
            label=f"{gc}: {law['a']:.2f} + {law['b']:.2f} n^-{law['c']:.2f}",
        )
    for t in TARGETS:
        ax.axhline(t, color="grey", lw=0.8, ls=":")
        ax.annotate(f"K = {t:g}", (1e9, t), xytext=(-40, 3), textcoords="offset points", size=8)
    ax.set_xscale("log")
    ax.set_xlabel("training positions per class and hand size")
    ax.set_ylabel("K: error deviation / the reference size's")
    ax.set_title("ProbCut estimators: held-out error against training positions")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=800_000, help="per class and hand size")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--samples", metavar="FILE", help="labelled positions: read, or written")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--reference", type=int, default=REFERENCE, help="K's reference size")
    ap.add_argument("--hidden", type=int, default=ESTIMATOR_HIDDEN)
    ap.add_argument(
        "--longer",
        type=int,
        default=2,
        help="one more fit at the reference size with this many times its passes (0: none)",
    )
    ap.add_argument("--cap", type=float, default=ESTIMATOR_CAP)
    ap.add_argument("--workers", type=int, default=None, help="default: every local core")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--plot", metavar="PNG")
    ap.add_argument(
        "--baseline",
        metavar="JSON",
        help="an earlier run's output: K against its reference fit (say, another --hidden)",
    )
    args = ap.parse_args()
    if args.positions < 100:
        ap.error("--positions must be at least 100")
    if args.hidden < 1 or args.longer < 0 or args.cap <= 0:
        ap.error("--hidden must be at least 1, --longer at least 0 and --cap positive")
    if args.workers is not None and args.workers < 1:
        ap.error("--workers must be at least 1")
    ref = None
    if args.baseline:
        try:
            with open(args.baseline) as f:
                base = json.load(f)
            ref = reference_fit(base["fits"], int(base["reference"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.error(f"--baseline {args.baseline}: {e}")
    elif args.reference not in args.sizes:
        ap.error(f"--sizes must include the reference size {args.reference}")
    train = training_positions(args.positions)
    if min(args.sizes) < 1 or max(args.sizes) > train:
        ap.error(f"--sizes must lie between 1 and the {train} training positions")
    path = args.samples or "estimator-curve-samples.npz"
    if not os.path.exists(path):
        save_samples(
            generate(args.positions, args.seed, workers=args.workers),
            path,
            args.positions,
            args.seed,
        )
    runs = [(n, 1) for n in sorted(args.sizes, reverse=True)]
    if args.longer > 1:
        runs.insert(1, (args.reference, args.longer))
    tasks = [
        (path, args.positions, args.seed, n, args.reference, args.cap, args.hidden, stretch)
        for n, stretch in runs
    ]
    fits = list(map_tasks(_fit, tasks, workers=args.workers))
    summary = summarise(fits, args.reference, ref)
    for gc in CLASSES:
        s = summary[gc]
        law = s["power_law"]
        print(gc + (f": k = {law['a']:.3f} + {law['b']:.3g} n^-{law['c']:.2f}" if law else ""))
        for r in s["sizes"]:
            print(
                f"  n {r['n']:>9,}  epochs {r['epochs']:>2}  mae {r['mae']:.3f}"
                f"  sd {r['sd']:.3f}  k {r['k']:.3f}"
            )
        for t, n in (s["needed"] or {}).items():
            print(f"  K {t}: " + (f"{n:,.0f} positions" if n else "below the floor"))
    out = {
        "positions": args.positions,
        "seed": args.seed,
        "hidden": args.hidden,
        "cap": args.cap,
        "reference": args.reference,
        "baseline": args.baseline,
        "fits": fits,
        "summary": summary,
    }
    save_json(args.json, out)
    if args.plot:
        plot(summary, args.plot)


if __name__ == "__main__":
    main()
