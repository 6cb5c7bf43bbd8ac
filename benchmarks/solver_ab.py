"""Compare the solver of two revisions: node counts and interleaved timings.

Builds the ``solver_probe`` example of each revision (a git revision, or ``.`` for the working
tree) in its own target directory, then runs the two binaries alternately (in turn first and
second), ``--repeat`` times per seed, on the same positions (30 cards, suit and grand;
``solve`` then ``analyze`` with a cleared table). Node counts are deterministic, so any
difference is a change of search behaviour; times on a shared machine are noisy, so only the
median ratio of the interleaved runs is reported (with its range).

    python benchmarks/solver_ab.py HEAD~1 . --positions 40 --seeds 1,2,3 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
TOTALS = re.compile(r"total: solve (\d+) nodes (\d+) us; analyze (\d+) nodes (\d+) us")


@dataclass
class Totals:
    """One probe run's totals over the positions of a seed."""

    solve_nodes: int
    solve_us: int
    analyze_nodes: int
    analyze_us: int


def parse_totals(output: str) -> Totals:
    """The totals line of a ``solver_probe`` run.

    >>> parse_totals("...\\ntotal: solve 10 nodes 20 us; analyze 30 nodes 40 us\\n").analyze_us
    40
    """
    m = TOTALS.search(output)
    if m is None:
        raise ValueError("no totals line in the probe's output")
    return Totals(*(int(x) for x in m.groups()))


def build_probe(rev: str, work: Path, tag: str) -> Path:
    """Builds ``solver_probe`` of ``rev`` (``.``: the working tree) and returns a copy of it,
    named after ``tag``, in ``work``."""
    if rev == ".":
        src = ROOT
        target = ROOT / "target"
    else:
        src = work / f"src-{tag}"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(src), rev],
            check=True,
            capture_output=True,
        )
        target = src / "target"
    cmd = ["cargo", "build", "--release", "--example", "solver_probe", "-p", "skat-core"]
    subprocess.run([*cmd, "--target-dir", str(target)], cwd=src, check=True)
    out = work / f"probe-{tag}"
    shutil.copy(target / "release" / "examples" / "solver_probe", out)
    if rev != ".":
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(src)],
            check=True,
            capture_output=True,
        )
    return out


@dataclass
class Side:
    """The runs of one revision on one seed."""

    runs: list[Totals] = field(default_factory=list)

    def run(self, probe: Path, positions: int, seed: int) -> None:
        out = subprocess.run(
            [str(probe), str(positions), str(seed)], check=True, capture_output=True, text=True
        ).stdout
        self.runs.append(parse_totals(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="baseline revision ('.' for the working tree)")
    ap.add_argument("b", help="revision to compare ('.' for the working tree)")
    ap.add_argument("--positions", type=int, default=40, help="positions per seed")
    ap.add_argument("--seeds", default="1,2,3", help="comma-separated position seeds")
    ap.add_argument("--repeat", type=int, default=5, help="interleaved runs per seed")
    ap.add_argument("--json", metavar="FILE", help="write every run as JSON")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        probes = [build_probe(rev, work, tag) for rev, tag in ((args.a, "a"), (args.b, "b"))]
        sides = {s: (Side(), Side()) for s in seeds}
        with console.status("timing, the two builds alternating..."):
            for i in range(args.repeat):
                for s in seeds:
                    pairs = list(zip(probes, sides[s], strict=True))
                    # A then B, then B then A: a build that always ran second would carry the
                    # machine's drift within a pair (about 1% here, measured with one build
                    # under both names)
                    for probe, side in pairs if i % 2 == 0 else reversed(pairs):
                        side.run(probe, args.positions, s)
    table = Table(
        title=f"solver {args.a} -> {args.b}: analyze, {args.positions} positions per seed,"
        f" {args.repeat} interleaved runs (ms: medians)"
    )
    for col in ("seed", "nodes A", "nodes B", "B/A", "ms A", "ms B", "time B/A", "range"):
        table.add_column(col, justify="right")
    record = []
    for s in seeds:
        a, b = sides[s]
        na, nb = a.runs[0].analyze_nodes, b.runs[0].analyze_nodes
        ratios = sorted(y.analyze_us / x.analyze_us for x, y in zip(a.runs, b.runs, strict=True))
        ma = statistics.median(r.analyze_us for r in a.runs) / 1000
        mb = statistics.median(r.analyze_us for r in b.runs) / 1000
        table.add_row(
            str(s),
            f"{na:,}",
            f"{nb:,}",
            f"{nb / na:.3f}",
            f"{ma:,.1f}",
            f"{mb:,.1f}",
            f"{statistics.median(ratios):.3f}",
            f"{ratios[0]:.2f}-{ratios[-1]:.2f}",
        )
        record.append(
            {
                "seed": s,
                "a": [vars(r) for r in a.runs],
                "b": [vars(r) for r in b.runs],
            }
        )
    console.print(table)
    if args.json:
        Path(args.json).write_text(json.dumps({"a": args.a, "b": args.b, "seeds": record}))


if __name__ == "__main__":
    main()
