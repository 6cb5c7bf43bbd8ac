"""Endgame lookup tables: building them, reading a directory's summary, the default directory.

The tables (thesis ch. 8) hold the exact value of every start-of-trick position with few cards
per hand, one file per game class and hand size (``suit-3.skt``, ``grand-3.skt``, ``null-4.skt``,
...; the format and the invariant are documented in the core's ``solver::lookup``). The solver,
every PIMC-based player (``tables=DIR``) and ``skat bench solver --tables DIR`` read a directory
of them; without tables everything works as before, only with more search. A directory is used
class by class for consecutive sizes from 3 cards per hand (a missing size ends the class).

:func:`build` splits each table into shards of :data:`skat.defaults.TABLES_SHARD_ROWS` rows, runs
them on every local core (or Ray) and keeps finished shards under ``DIR/parts``, so an
interrupted build resumes where it stopped. (The null builder's searches read the smaller
null tables of the directory, which more than halves the time per row; the suit and grand
ones do not: at 3 cards per hand a lookup costs more time than the search it replaces.) A finished
table is written under a temporary name and renamed, so a directory never holds a
half-written table; :func:`unfinished` lists the builds that stopped and how far they got.
A kept shard must hold the rows its number stands for at the build's shard size (another
``shard_rows`` is refused before anything is built; a damaged shard is built again), and the
shards of a table that is already there (a build stopped after the rename) are removed.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> summary = build(d, cards=3, classes=("null",), workers=1)
>>> [(t["class"], t["cards"], t["rows"], t["complete"]) for t in info(d)]
[('null', 3, 58680, True)]
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from skat import defaults
from skat._core import (
    TablesError,
    lookup_build_range,
    lookup_check,
    lookup_estimate,
    lookup_file_header,
    lookup_halve_range,
    lookup_info,
    lookup_merge,
    lookup_row_count,
)
from skat.parallel import run_tasks

__all__ = [
    "CLASSES",
    "MAX_CARDS",
    "MIN_CARDS",
    "TablesError",
    "build",
    "check",
    "check_method",
    "check_parts",
    "check_sizes",
    "complete_sizes",
    "default_dir",
    "estimate",
    "halve",
    "info",
    "unfinished",
]

CLASSES = ("suit", "grand", "null")
MIN_CARDS = 3
"""Smallest tabulated hand size (two-card trick starts are solved directly)."""
MAX_CARDS = 7
"""Largest hand size the builder takes: null tables up to 7 cards per hand (their rows are
numbered, never listed; null-7 holds 16,197,263,712 rows in 8.1 GB), suit and grand up to
:data:`MAX_LISTED_CARDS`."""
MAX_LISTED_CARDS = 5
"""Largest hand size of suit and grand tables: the builder lists their rows in memory, 24
bytes each (a list that does not fit is a ``TablesError``), and 6-card ones would take tens of
GB."""
METHOD_FILE = "method.json"
"""Kept beside the shards of an unfinished suit or grand build: the ``prune``, ``walk`` and
``half`` it was started with (a resume with others is refused)."""


def default_dir() -> str | None:
    """The directory named by ``$SKAT_TABLES`` (:data:`skat.defaults.TABLES_ENV`), or None."""
    return os.environ.get(defaults.TABLES_ENV) or None


def resolve(path: str | None) -> str | None:
    """The tables directory to use: ``path``, else :func:`default_dir`; checked to exist.

    >>> resolve(None) is None or isinstance(resolve(None), str)
    True
    """
    chosen = path if path else default_dir()
    if chosen is None:
        return None
    if not os.path.isdir(chosen):
        where = "" if path else f" (from ${defaults.TABLES_ENV})"
        raise TablesError(f"tables directory {chosen!r}{where} does not exist")
    return chosen


def check_sizes(classes: Sequence[str], cards: int) -> None:
    """Raises :class:`TablesError` for an unknown class, no class or a hand size out of range."""
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise TablesError(f"cards per hand must be {MIN_CARDS}..{MAX_CARDS}, got {cards}")
    bad = [c for c in classes if c not in CLASSES]
    if bad or not classes:
        name = bad[0] if bad else ""
        raise TablesError(f"unknown table class {name!r}; classes: {', '.join(CLASSES)}")
    listed = [c for c in classes if c != "null"]
    if listed and cards > MAX_LISTED_CARDS:
        raise TablesError(
            f"{listed[0]} tables go up to {MAX_LISTED_CARDS} cards per hand (only null to"
            f" {MAX_CARDS}): their rows are listed in memory, and {cards}-card ones would take"
            " tens of GB"
        )


def _file(out: str, cls: str, k: int) -> str:
    return os.path.join(out, f"{cls}-{k}.skt")


def _build_shard(
    task: tuple[str, int, int, int, bool, bool, bool, str | None],
) -> tuple[bytes, dict[str, int]]:
    cls, k, start, end, prune, walk, half, smaller = task
    data, stats = lookup_build_range(cls, k, start, end, prune, walk, half, smaller)
    return data, dict(stats)


def _halve_task(path: str, start: int, end: int) -> tuple[str, int, int]:
    return path, start, end


def _halve_shard(task: tuple[str, int, int]) -> tuple[bytes, dict[str, int]]:
    path, start, end = task
    data, stats = lookup_halve_range(path, start, end)
    return data, dict(stats)


def _write_atomic(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def build(
    out: str,
    cards: int,
    classes: Sequence[str] = CLASSES,
    *,
    workers: int | None = None,
    ray: str | None = None,
    shard_rows: int | None = None,
    prune: bool = False,
    walk: bool = True,
    half: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Builds the tables of ``classes`` for 3..``cards`` cards per hand into ``out``.

    ``walk``: choose tentpoles by hard-edge walks (else greedily: 10-20x more tentpoles, a
    slower build, the same values). ``prune``: remove redundant tentpoles from each row (the
    same values; the build takes longer). ``half``: store each row as its low half where
    that has fewer tentpoles (see :func:`halve`). Finished tables are kept (resumable; a
    table file that does not hold every row raises ``TablesError`` rather than being kept);
    ``progress(label, rows_done, rows_total)`` is called as shards finish. ``shard_rows``:
    rows per shard (default :data:`skat.defaults.TABLES_SHARD_ROWS`, null
    :data:`skat.defaults.TABLES_NULL_SHARD_ROWS`). Returns one summary
    per table built now: class, cards, rows, tentpoles, valuations, nodes, seconds.
    """
    check_sizes(classes, cards)
    if shard_rows is not None and shard_rows < 1:
        raise TablesError(f"shard rows must be at least 1, got {shard_rows}")
    check_parts(out, cards, classes, shard_rows)
    check_method(out, cards, classes, (prune, walk, half))
    os.makedirs(out, exist_ok=True)
    done: list[dict[str, Any]] = []
    for k in range(MIN_CARDS, cards + 1):
        for cls in classes:
            final = _file(out, cls, k)
            if os.path.exists(final):
                if not _complete(final, cls, k):
                    raise TablesError(
                        f"{final} is not a complete {cls}-{k} table: remove it to build it again"
                    )
                _remove_parts(out, os.path.join(out, "parts", f"{cls}-{k}"))  # left by a kill
                continue
            method = (prune, walk, half)
            per = _shard_rows(cls, shard_rows)
            done.append(_build_table(out, cls, k, workers, ray, per, method, progress))
    return done


def _shard_rows(cls: str, shard_rows: int | None) -> int:
    return shard_rows or (
        defaults.TABLES_NULL_SHARD_ROWS if cls == "null" else defaults.TABLES_SHARD_ROWS
    )


def check_parts(out: str, cards: int, classes: Sequence[str], shard_rows: int | None) -> None:
    """Raises :class:`TablesError` if :func:`build` with these arguments would resume a table
    from shards kept under ``out/parts`` that were cut with another ``shard_rows``."""
    for cls, k, parts_dir in _resumed(out, cards, classes):
        per = _shard_rows(cls, shard_rows)
        _todo(parts_dir, _bounds(lookup_row_count(cls, k), per), per)


def check_method(
    out: str, cards: int, classes: Sequence[str], method: tuple[bool, bool, bool]
) -> None:
    """Raises :class:`TablesError` if :func:`build` would resume a suit or grand table from
    shards kept under ``out/parts`` that were built with another ``method`` (``prune``,
    ``walk``, ``half``): the values would be the same, the rows' tentpoles a mix. Shards
    without a :data:`METHOD_FILE` are taken as they are."""
    for cls, _, parts_dir in _resumed(out, cards, classes):
        path = os.path.join(parts_dir, METHOD_FILE)
        if cls == "null" or not os.path.exists(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                kept = json.load(f)
            started = (bool(kept["prune"]), bool(kept["walk"]), bool(kept["half"]))
        except (OSError, ValueError, KeyError, TypeError):
            raise TablesError(f"{path} is damaged: remove {parts_dir} to start again") from None
        if started != method:
            raise TablesError(
                f"{parts_dir} was started with {_method_flags(started)}, not"
                f" {_method_flags(method)}: resume with the options the build started with,"
                f" or remove {parts_dir}"
            )


def _resumed(out: str, cards: int, classes: Sequence[str]) -> list[tuple[str, int, str]]:
    """The tables :func:`build` would resume from kept shards: class, cards, shard directory."""
    found = []
    for k in range(MIN_CARDS, cards + 1):
        for cls in classes:
            parts_dir = os.path.join(out, "parts", f"{cls}-{k}")
            if os.path.isdir(parts_dir) and not os.path.exists(_file(out, cls, k)):
                found.append((cls, k, parts_dir))
    return found


def _method_flags(method: tuple[bool, bool, bool]) -> str:
    prune, walk, half = method
    flags = ["--prune"] * prune + ["--no-walk"] * (not walk) + ["--no-half"] * (not half)
    return " ".join(flags) or "the default method (none of --prune, --no-walk, --no-half)"


def _bounds(n: int, shard_rows: int) -> list[tuple[int, int]]:
    return [(s, min(n, s + shard_rows)) for s in range(0, n, shard_rows)]


def _todo(parts_dir: str, bounds: list[tuple[int, int]], shard_rows: int) -> list[int]:
    """The shards of ``bounds`` not kept in ``parts_dir`` (or kept damaged: built again). A
    :class:`TablesError` if a kept shard holds other rows than its number stands for."""
    names = {f"{i:06d}.part": i for i in range(len(bounds))}
    kept = {f for f in os.listdir(parts_dir) if f.endswith(".part")}
    todo = []
    for f in sorted(kept | names.keys()):
        if f not in kept:
            todo.append(names[f])
            continue
        try:
            h = lookup_file_header(os.path.join(parts_dir, f))
        except TablesError:
            if f not in names:
                raise
            todo.append(names[f])  # damaged (cut short, say): built again
            continue
        if f not in names or (h["first"], h["first"] + h["rows"]) != bounds[names[f]]:
            raise TablesError(
                f"{parts_dir}/{f} holds {h['rows']} rows from row {h['first']}, not a shard of"
                f" {shard_rows} rows: resume with the --shard-rows the build started with, or"
                f" remove {parts_dir}"
            )
    return todo


def _build_table(
    out: str,
    cls: str,
    k: int,
    workers: int | None,
    ray: str | None,
    shard_rows: int,
    method: tuple[bool, bool, bool],
    progress: Callable[[str, int, int], None] | None,
) -> dict[str, Any]:
    start = time.time()
    # null searches read the finished smaller null tables (faster, the same values)
    smaller = out if cls == "null" and k > MIN_CARDS else None
    parts_dir = os.path.join(out, "parts", f"{cls}-{k}")
    if cls != "null" and not os.path.exists(os.path.join(parts_dir, METHOD_FILE)):
        os.makedirs(parts_dir, exist_ok=True)
        names = ("prune", "walk", "half")
        text = json.dumps(dict(zip(names, method, strict=True))) + "\n"
        _write_atomic(os.path.join(parts_dir, METHOD_FILE), text.encode())
    rows, entries, totals = _sharded(
        out,
        f"{cls}-{k}",
        lookup_row_count(cls, k),
        shard_rows,
        _build_shard,
        lambda a, b: (cls, k, a, b, *method, smaller),
        _file(out, cls, k),
        (workers, ray),
        progress,
    )
    return {
        "class": cls,
        "cards": k,
        "rows": rows,
        "tentpoles": entries,
        "valuations_built_now": totals.get("valuations", 0),
        "nodes_built_now": totals.get("nodes", 0),
        "seconds": round(time.time() - start, 1),
    }


def _sharded(
    out: str,
    label: str,
    n: int,
    shard_rows: int,
    shard: Callable[[Any], tuple[bytes, dict[str, int]]],
    task_of: Callable[[int, int], Any],
    final: str,
    where: tuple[int | None, str | None],
    progress: Callable[[str, int, int], None] | None,
) -> tuple[int, int, dict[str, int]]:
    """Runs ``shard(task_of(start, end))`` for the row ranges of ``n`` rows not yet kept under
    ``out/parts/label`` (``where``: workers and Ray address), keeps each result there, then
    joins them into ``final``. Returns its rows and entries and the shards' counters summed
    (over the shards run now)."""
    parts_dir = os.path.join(out, "parts", label)
    os.makedirs(parts_dir, exist_ok=True)
    bounds = _bounds(n, shard_rows)
    paths = [os.path.join(parts_dir, f"{i:06d}.part") for i in range(len(bounds))]
    todo = _todo(parts_dir, bounds, shard_rows)
    rows_done = n - sum(bounds[i][1] - bounds[i][0] for i in todo)
    totals: dict[str, int] = {}
    if progress:
        progress(label, rows_done, n)
    tasks = [task_of(*bounds[i]) for i in todo]
    for j, (data, stats) in run_tasks(shard, tasks, workers=where[0], ray=where[1]):
        i = todo[j]
        _write_atomic(paths[i], data)
        for key, v in stats.items():
            totals[key] = totals.get(key, 0) + v
        rows_done += bounds[i][1] - bounds[i][0]
        if progress:
            progress(label, rows_done, n)
    rows, entries = _merge(out, parts_dir, paths, final)
    return rows, entries, totals


def _merge(out: str, parts_dir: str, paths: list[str], final: str) -> tuple[int, int]:
    """Joins the shards into ``final`` (written under a temporary name, then renamed) and
    removes them; returns the rows and entries."""
    rows, entries = lookup_merge(paths, final + ".tmp")
    os.replace(final + ".tmp", final)
    _remove_parts(out, parts_dir)
    return rows, entries


def _remove_parts(out: str, parts_dir: str) -> None:
    """Removes the shards of a finished table (if any are left) and their directories."""
    if not os.path.isdir(parts_dir):
        return
    for f in os.listdir(parts_dir):
        os.remove(os.path.join(parts_dir, f))
    os.rmdir(parts_dir)
    if not os.listdir(os.path.join(out, "parts")):
        os.rmdir(os.path.join(out, "parts"))


def halve(
    path: str,
    *,
    workers: int | None = None,
    ray: str | None = None,
    shard_rows: int = defaults.TABLES_SHARD_ROWS,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Rewrites the complete suit and grand tables of a directory with every row stored as
    its *low half* where that is smaller: only tentpoles whose lower bounds reach each
    valuation's value, the lower bound then taken as exact (thesis ch. 8.5). The values stay
    the same; the tables get smaller and their lookups cheaper. Tables built with ``half``
    (the default) already are; resumable like :func:`build`. One summary per table: class,
    cards, rows, half_rows, tentpoles_before, tentpoles_after, seconds.

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> halve(d)
    []
    """
    if shard_rows < 1:
        raise TablesError(f"shard rows must be at least 1, got {shard_rows}")
    out = []
    for t in info(path):
        if t["class"] == "null" or not t["complete"]:
            continue
        start = time.time()
        cls, k = t["class"], t["cards"]
        final = _file(path, cls, k)
        rows, entries, totals = _sharded(
            path,
            f"halve-{cls}-{k}",
            t["rows"],
            shard_rows,
            _halve_shard,
            functools.partial(_halve_task, final),
            final,
            (workers, ray),
            progress,
        )
        summary: dict[str, Any] = {"class": cls, "cards": k, "rows": rows}
        summary.update(
            half_rows_now=totals.get("half_rows", 0),
            tentpoles_before=t["entries"],
            tentpoles_after=entries,
            seconds=round(time.time() - start, 1),
        )
        out.append(summary)
    return out


def info(path: str) -> list[dict[str, Any]]:
    """One summary per table of a directory: class, cards, rows, entries (tentpoles),
    memory and disk bytes, and whether it holds every row of its class and size."""
    if not os.path.isdir(path):
        raise TablesError(f"tables directory {path!r} does not exist")
    out = []
    for t in lookup_info(path):
        d = dict(t)
        d["disk_bytes"] = os.path.getsize(_file(path, d["class"], d["cards"]))
        out.append(d)
    return out


def unfinished(path: str) -> list[dict[str, Any]]:
    """The interrupted builds and halvings of a directory (the shards kept under
    ``DIR/parts``, which :func:`build` and :func:`halve` resume from), read from the shards'
    headers: task (``"build"`` or ``"halve"``), class, cards, shards kept, rows_done, rows
    (of the whole table).

    >>> import tempfile
    >>> unfinished(tempfile.mkdtemp())
    []
    """
    if not os.path.isdir(path):
        raise TablesError(f"tables directory {path!r} does not exist")
    parts = os.path.join(path, "parts")
    out = []
    for label in sorted(os.listdir(parts)) if os.path.isdir(parts) else []:
        table = label.removeprefix("halve-")
        task = "build" if table == label else "halve"
        cls, _, cards = table.partition("-")
        try:
            check_sizes([cls], int(cards))
        except (TablesError, ValueError):
            continue  # not a directory the builds make
        k = int(cards)
        final = _file(path, cls, k)
        if task == "build":
            total = lookup_row_count(cls, k)
        else:
            total = lookup_file_header(final)["rows"] if os.path.exists(final) else 0
        shards = sorted(f for f in os.listdir(os.path.join(parts, label)) if f.endswith(".part"))
        done = sum(lookup_file_header(os.path.join(parts, label, f))["rows"] for f in shards)
        out.append(
            {
                "task": task,
                "class": cls,
                "cards": k,
                "shards": len(shards),
                "rows_done": done,
                "rows": total,
            }
        )
    return out


def complete_sizes(path: str) -> dict[str, list[int]]:
    """The hand sizes of a directory's complete tables (every row of their class and size),
    by class, read from the files' headers: no table is loaded.

    >>> import tempfile
    >>> complete_sizes(tempfile.mkdtemp())
    {}
    """
    if not os.path.isdir(path):
        raise TablesError(f"tables directory {path!r} does not exist")
    sizes: dict[str, list[int]] = {}
    for cls in CLASSES:
        for k in range(MIN_CARDS, MAX_CARDS + 1):
            f = _file(path, cls, k)
            if os.path.exists(f) and _complete(f, cls, k):
                sizes.setdefault(cls, []).append(k)
    return sizes


def _complete(path: str, cls: str, k: int) -> bool:
    """Whether ``path`` is a table file whose header holds every row of ``cls-k``."""
    try:
        return bool(lookup_file_header(path)["rows"] == lookup_row_count(cls, k))
    except TablesError:
        return False


def check(path: str, positions: int, seed: int = 1) -> list[dict[str, Any]]:
    """Solves ``positions`` random positions per class of the directory with and without its
    tables and counts the values that differ (none, for correct tables). The positions have
    one to two cards per hand more than the class's largest table, down to one more than its
    smallest, so that the tables are read inside the searches. One summary per class: class,
    cards (the hand sizes), positions, mismatches.

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = build(d, cards=3, classes=("null",), workers=1)
    >>> check(d, 200)
    [{'class': 'null', 'cards': [4, 5], 'positions': 200, 'mismatches': 0}]
    """
    if positions < 1:
        raise TablesError(f"positions must be at least 1, got {positions}")
    sizes = complete_sizes(path)
    out = []
    for cls in CLASSES:
        if cls not in sizes:
            continue
        lo, hi = min(sizes[cls]) + 1, max(sizes[cls]) + 2
        n, bad = lookup_check(path, cls, positions, seed, lo, hi)
        out.append({"class": cls, "cards": [lo, hi], "positions": n, "mismatches": bad})
    return out


def estimate(
    cls: str,
    cards: int,
    sample: int,
    seed: int = 1,
    prune: bool = False,
    walk: bool = True,
    half: bool = True,
) -> dict[str, Any]:
    """What building one table would cost, measured on ``sample`` random rows (built and
    thrown away, one thread; ``prune``, ``walk`` and ``half`` as in :func:`build`): rows,
    seconds per row, tentpoles and valuations per row, the projected CPU hours and the
    projected file size (12 bytes a row and 5 a tentpole; null: half a byte a row). Random
    null rows are searched without the smaller tables that a build reads, so a build takes
    a fraction of this projection (null-6: 3.1 CPU hours projected; built with null-3..5,
    817 of its 988 shards took 801 s on 2 workers).

    >>> e = estimate("null", 3, 50)
    >>> e["rows"], e["tentpoles_per_row"]
    (58680, 1.0)
    """
    check_sizes([cls], cards)
    out = dict(lookup_estimate(cls, cards, sample, seed, prune, walk, half))
    out.update(
        {"class": cls, "cards": cards, "sample": sample, "prune": prune, "walk": walk},
        half=half,
        cpu_hours=out["rows"] * out["seconds_per_row"] / 3600,
        disk_bytes=int(
            32 + (out["rows"] + 1) // 2
            if cls == "null"
            else out["rows"] * (12 + 5 * out["tentpoles_per_row"])
        ),
    )
    return out
