"""The memory and time of joining a suit or grand table's shards into its file.

Builds the shards of rows ``0..--rows`` (default: every row) of one class and size, as
``skat tables build`` cuts them (``--shard-rows``), into a temporary directory, then joins them
with the core's merge in a fresh process and reports the rise of that process's peak resident
memory (``VmHWM``, Linux) during the join, the seconds it took, and the joined file's size and
SHA-256 (the same bytes for any cut).

    python benchmarks/merge_memory.py --class suit --cards 3 --json F
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from typing import Any

from skat._core import lookup_build_range, lookup_row_count
from skat.defaults import TABLES_SHARD_ROWS
from skat.display import save_json
from skat.parallel import run_tasks

# the join, measured in a process of its own: argv parts..., out; prints "kB seconds rows entries"
_JOIN = """
import sys, time
from skat._core import lookup_merge

def peak_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))

before = peak_kb()
start = time.perf_counter()
rows, entries = lookup_merge(sys.argv[1:-1], sys.argv[-1])
seconds = time.perf_counter() - start
print(peak_kb() - before, seconds, rows, entries)
"""


def _shard(task: tuple[str, int, int, int, str]) -> str:
    cls, k, start, end, path = task
    data, _ = lookup_build_range(cls, k, start, end)
    with open(path, "wb") as f:
        f.write(data)
    return path


def measure(
    cls: str, k: int, rows: int | None, shard_rows: int, workers: int | None
) -> dict[str, Any]:
    """Builds the shards, joins them in a fresh process; returns the figures."""
    n = lookup_row_count(cls, k) if rows is None else min(rows, lookup_row_count(cls, k))
    with tempfile.TemporaryDirectory() as d:
        tasks = [
            (cls, k, s, min(n, s + shard_rows), os.path.join(d, f"{s // shard_rows:06d}.part"))
            for s in range(0, n, shard_rows)
        ]
        parts = [p for _, p in sorted(run_tasks(_shard, tasks, workers=workers))]
        out = os.path.join(d, "joined.skt")
        r = subprocess.run(
            [sys.executable, "-c", _JOIN, *parts, out],
            capture_output=True,
            text=True,
            check=True,
        )
        kb, seconds, joined, entries = r.stdout.split()
        with open(out, "rb") as f:
            data = f.read()
    return {
        "class": cls,
        "cards": k,
        "rows": int(joined),
        "entries": int(entries),
        "shards": len(parts),
        "shard_rows": shard_rows,
        "file_bytes": len(data),
        "peak_rise_bytes": int(kb) * 1024,
        "seconds": round(float(seconds), 3),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--class", dest="cls", choices=("suit", "grand"), required=True)
    ap.add_argument("--cards", type=int, choices=(3, 4, 5), required=True)
    ap.add_argument("--rows", type=int, help="only rows 0..ROWS (default: all)")
    ap.add_argument("--shard-rows", type=int, default=TABLES_SHARD_ROWS)
    ap.add_argument("--workers", type=int, help="shard builders (default: every core)")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    r = measure(a.cls, a.cards, a.rows, a.shard_rows, a.workers)
    print(
        f"{r['class']}-{r['cards']}: {r['rows']:,} rows in {r['shards']} shards,"
        f" file {r['file_bytes'] / 1e6:.1f} MB, peak memory +{r['peak_rise_bytes'] / 1e6:.1f} MB,"
        f" {r['seconds']} s, sha256 {r['sha256'][:16]}"
    )
    if a.json:
        save_json(a.json, r)


if __name__ == "__main__":
    main()
