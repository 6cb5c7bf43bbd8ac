"""Self-play games at scale: sharded, resumable, on all local cores or a Ray cluster.

A run is a directory. ``manifest.json`` holds the run's configuration (seed, the three player
specs or the training-contract settings, shard size) and, per finished shard, its game count
and the CPU seconds its games took; ``shard-KKKKK.iss.gz`` holds games ``K*S .. K*S+S-1`` (S
the shard size) as gzip-compressed ISS records, one a line, in index order.

Invariants:

- Game ``i`` depends only on the run's seed and ``i``: its deal is
  ``Deal.random(derive_seed(seed, i))``, the players are made afresh for it and started with
  that seed. So a run gives the same shards, byte for byte (gzip without a time stamp), for any
  number of workers, on Ray or locally, in one go or resumed.
- A shard file is written whole (to a temporary name, then renamed) when all its games are
  played, so a stopped run leaves only complete shards; the next run with the same
  configuration plays only the missing games (``--games`` may also grow between runs: the
  last shard is topped up). A run with another configuration in the same directory is
  refused, and so is one whose packaged models (``skat/data``) have changed since: the
  manifest keeps their SHA-256.

Two kinds of game:

- **full games** (the default): three players (default ``kermit:worlds=10,points=false``:
  Kermit's bidding with cheap PIMC card play) bid and play; all-pass deals are kept too.
- **training contracts** (``contracts=True``): the declarer, hand or pick-up, discard and
  contract are chosen as in :mod:`skat.training.generate` (optionally guided by a model),
  the auction is settled at 18 and three ``pimc`` players play the cards.

Each worker process plays with one solver thread (``SKAT_THREADS=1``) unless a spec sets
``threads``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from skat._core import Deal, SkatError
from skat.defaults import (
    SELFPLAY_CHUNK_GAMES,
    SELFPLAY_PLAYERS,
    SELFPLAY_SHARD_GAMES,
    THREADS_ENV,
    TRAIN_WORLDS,
)
from skat.parallel import run_tasks
from skat.records import iter_record_lines, named_record
from skat.seeds import derive_seed

MANIFEST = "manifest.json"
FORMAT = 1
PLACE = "skat selfplay"


class SelfplayError(SkatError):
    """A self-play directory that cannot be used for the run asked for."""


@dataclass(frozen=True)
class SelfplayConfig:
    """What determines a run's games (everything but how many and where they are played)."""

    seed: int
    players: tuple[str, str, str] = (SELFPLAY_PLAYERS,) * 3
    contracts: bool = False
    worlds: int = TRAIN_WORLDS
    guide: str | None = None
    shard_games: int = SELFPLAY_SHARD_GAMES

    def identity(self) -> dict[str, Any]:
        """The configuration as the manifest keeps it: the guide model of training contracts,
        or the players and the packaged models they read (bidding evaluation, inference
        tables), by their SHA-256, so that a run is never resumed with players that would play
        differently."""
        out: dict[str, Any] = {"seed": self.seed, "shard_games": self.shard_games}
        if self.contracts:
            out["contracts"] = {"worlds": self.worlds, "guide_sha256": _sha256(self.guide)}
        else:
            out["players"] = list(self.players)
            out["packaged_models"] = packaged_models()
        return out


@dataclass
class ShardInfo:
    """One finished shard, as the manifest lists it."""

    games: int
    cpu_seconds: float
    declared: int
    won: int


@dataclass
class SelfplaySummary:
    """What a call of :func:`selfplay` did and what the directory now holds."""

    directory: str
    games: int
    played: int
    cpu_seconds: float
    wall_seconds: float
    shards: dict[str, ShardInfo] = field(default_factory=dict)

    @property
    def games_per_cpu_second(self) -> float:
        """Throughput of the games played by this call (0 when none were played)."""
        return self.played / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def declared(self) -> int:
        return sum(s.declared for s in self.shards.values())

    @property
    def won(self) -> int:
        return sum(s.won for s in self.shards.values())


@lru_cache(maxsize=1)
def _packaged_hashes() -> tuple[tuple[str, str | None], ...]:
    from importlib import resources

    out = []
    for name in ("bidding.npz", "inference.npz"):
        with resources.as_file(resources.files("skat") / "data" / name) as path:
            out.append((name, _sha256(str(path)) if path.is_file() else None))
    return tuple(out)


def packaged_models() -> dict[str, str | None]:
    """SHA-256 of the models shipped in ``skat/data`` (what the default players read;
    hashed once per process)."""
    return dict(_packaged_hashes())


def _sha256(path: str | None) -> str | None:
    if path is None:
        return None
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def shard_name(k: int) -> str:
    """The file name of shard ``k``."""
    return f"shard-{k:05d}.iss.gz"


# ----- the worker side --------------------------------------------------------------------


def _worker_init(guide: str | None) -> None:
    os.environ.setdefault(THREADS_ENV, "1")
    if guide is not None:
        from skat.training import generate

        generate.load_guide(guide)


def _play_full(config: SelfplayConfig, index: int) -> str:
    from skat.match import play
    from skat.players import make_player

    game_seed = derive_seed(config.seed, index)
    players = [make_player(spec) for spec in config.players]
    game = play(players, Deal.random(game_seed), seed=game_seed)
    return game.to_iss()


def _play_contract(config: SelfplayConfig, index: int) -> str:
    from skat.training import generate

    return generate.training_game(index, config.seed, config.worlds, generate.guide())


@dataclass(frozen=True)
class _Chunk:
    config: SelfplayConfig
    first: int
    count: int


def _play_chunk(chunk: _Chunk) -> tuple[list[str], float, int, int]:
    """Records of games ``first .. first+count``, their CPU seconds, declared and won games."""
    from skat._core import Game

    start = time.process_time()
    config = chunk.config
    names = (
        ["pimc", "pimc", "pimc"]
        if config.contracts
        else [spec.partition(":")[0] for spec in config.players]
    )
    play = _play_contract if config.contracts else _play_full
    records: list[str] = []
    declared = won = 0
    for i in range(chunk.first, chunk.first + chunk.count):
        iss = play(config, i)
        result = Game.from_iss(iss).result
        if result is not None and result.declarer is not None and not result.passed:
            declared += 1
            won += bool(result.won)
        records.append(named_record(iss, PLACE, f"{config.seed}-{i}", names))
    return records, time.process_time() - start, declared, won


# ----- the directory ----------------------------------------------------------------------


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of a self-play directory, or None when there is none."""
    path = os.path.join(directory, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data: dict[str, Any] = json.load(f)
    except (OSError, ValueError) as e:
        raise SelfplayError(f"{path}: unreadable manifest: {e}") from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SelfplayError(f"{path}: not a self-play manifest of format {FORMAT}")
    shards = data.get("shards")
    if not isinstance(data.get("config"), dict) or not isinstance(shards, dict):
        raise SelfplayError(f"{path}: a self-play manifest needs a config and its shards")
    for name, info in shards.items():
        try:
            ShardInfo(**info)
            ok = all(isinstance(info[key], (int, float)) for key in _SHARD_KEYS)
        except TypeError:
            ok = False
        if not ok:
            raise SelfplayError(f"{path}: shard {name!r} is not listed as {', '.join(_SHARD_KEYS)}")
    return data


_SHARD_KEYS = ("games", "cpu_seconds", "declared", "won")
"""The numbers the manifest lists per shard (the fields of :class:`ShardInfo`)."""


def check_directory(directory: str, config: SelfplayConfig) -> dict[str, Any] | None:
    """The manifest of ``directory`` (None for a new run); raises :class:`SelfplayError` when
    the directory holds a run of another configuration, a malformed manifest, or, without a
    manifest, a shard whose first record is no game of ``config``'s seed (a shard the
    manifest does not list is played again, so it must be one of this run's)."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise SelfplayError(f"{directory} is not a directory")
    manifest = read_manifest(directory) if os.path.isdir(directory) else None
    if manifest is None and os.path.isdir(directory):
        for name in sorted(os.listdir(directory)):
            if name.startswith("shard-") and name.endswith(".iss.gz"):
                _check_unlisted_shard(os.path.join(directory, name), config.seed)
    if manifest is not None and manifest.get("config") != config.identity():
        raise SelfplayError(
            f"{directory} holds games of another configuration ({manifest.get('config')});"
            " use another directory"
        )
    return manifest


def _check_unlisted_shard(path: str, seed: int) -> None:
    """A :class:`SelfplayError` unless the shard ``path``, which no manifest lists, starts with
    a game of ``seed`` (it is then played again; a shard of another run is kept)."""
    try:
        first = next((line for _, line in iter_record_lines(path)), "")
    except (OSError, SkatError):
        first = ""
    if f"ID[{seed}-" not in first:
        raise SelfplayError(
            f"{path}: no game of seed {seed}, and no {MANIFEST} lists it; use another directory"
        )


def _write_atomic(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _write_shard(path: str, lines: Sequence[str]) -> None:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0) as gz:
        gz.write("".join(line + "\n" for line in lines).encode("utf-8"))
    _write_atomic(path, buf.getvalue())


def _write_manifest(directory: str, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    _write_atomic(os.path.join(directory, MANIFEST), text.encode("utf-8"))


def _shard_lines(path: str, listed: Any, seed: int, first: int) -> list[str]:
    """The records of a finished shard holding games ``first ..``, or none when the shard is
    to be played again: when the file is missing or damaged, the manifest does not list it
    (``listed`` is its entry, ``None`` when missing) with the file's number of games, or a
    record is not game ``first + i`` of seed ``seed``."""
    if not os.path.exists(path) or not isinstance(listed, dict):
        return []
    try:
        lines = [line for _, line in iter_record_lines(path)]
    except (OSError, SkatError):
        return []
    if listed.get("games") != len(lines):
        return []
    for i, line in enumerate(lines):
        if f"ID[{seed}-{first + i}]" not in line:
            return []
    return lines


def selfplay(
    directory: str | os.PathLike[str],
    games: int,
    config: SelfplayConfig,
    *,
    workers: int | None = None,
    ray: str | None = None,
    chunk_games: int = SELFPLAY_CHUNK_GAMES,
    progress: Callable[[int, int], None] | None = None,
    command: str = "",
) -> SelfplaySummary:
    """Plays games ``0 .. games-1`` of the run ``config`` into ``directory`` (made if missing),
    skipping those already there; returns what it did.

    ``progress(played, to_play)`` is called when play starts and as each chunk is finished.
    """
    if games < 0 or chunk_games < 1 or config.shard_games < 1:
        raise SelfplayError("games must be >= 0, shard and chunk sizes >= 1")
    if config.contracts and config.guide is not None and not os.path.isfile(config.guide):
        raise SelfplayError(f"no guide model {config.guide!r}")
    out = os.fspath(directory)
    manifest = check_directory(out, config)
    os.makedirs(out, exist_ok=True)
    if manifest is None:
        manifest = {"format": FORMAT, "config": config.identity(), "shards": {}}
    shards: dict[str, Any] = manifest["shards"]
    size = config.shard_games
    have: dict[int, list[str]] = {}
    tasks: list[_Chunk] = []
    for k in range((games + size - 1) // size):
        lo, hi = k * size, min((k + 1) * size, games)
        lines = _shard_lines(
            os.path.join(out, shard_name(k)), shards.get(shard_name(k)), config.seed, lo
        )
        if not lines:
            shards.pop(shard_name(k), None)  # played again: its old numbers do not count
        if len(lines) >= hi - lo:
            continue
        have[k] = lines
        for first in range(lo + len(lines), hi, chunk_games):
            tasks.append(_Chunk(config, first, min(chunk_games, hi - first)))
    results: dict[int, dict[int, tuple[list[str], float, int, int]]] = {k: {} for k in have}
    missing = {k: sum(1 for t in tasks if t.first // size == k) for k in have}
    started = time.time()
    cpu = 0.0
    played = 0
    to_play = sum(t.count for t in tasks)
    if progress:
        progress(0, to_play)
    for i, result in run_tasks(
        _play_chunk,
        tasks,
        workers=workers,
        ray=ray,
        initializer=_worker_init,
        initargs=(config.guide if config.contracts else None,),
    ):
        task = tasks[i]
        k = task.first // size
        results[k][task.first] = result
        cpu += result[1]
        played += task.count
        if progress:
            progress(played, to_play)
        if len(results[k]) == missing[k]:
            new = [results[k][first] for first in sorted(results[k])]
            lines = have.pop(k) + [line for r in new for line in r[0]]
            _write_shard(os.path.join(out, shard_name(k)), lines)
            old = shards.get(shard_name(k), {})
            shards[shard_name(k)] = asdict(
                ShardInfo(
                    games=len(lines),
                    cpu_seconds=round(old.get("cpu_seconds", 0.0) + sum(r[1] for r in new), 3),
                    declared=old.get("declared", 0) + sum(r[2] for r in new),
                    won=old.get("won", 0) + sum(r[3] for r in new),
                )
            )
            if command:
                manifest["command"] = command
            _write_manifest(out, manifest)
            del results[k]
    if not os.path.exists(os.path.join(out, MANIFEST)):
        _write_manifest(out, manifest)
    infos = {name: ShardInfo(**info) for name, info in sorted(shards.items())}
    return SelfplaySummary(
        directory=out,
        games=sum(s.games for s in infos.values()),
        played=played,
        cpu_seconds=cpu,
        wall_seconds=time.time() - started,
        shards=infos,
    )


__all__ = [
    "SelfplayConfig",
    "SelfplayError",
    "SelfplaySummary",
    "check_directory",
    "packaged_models",
    "read_manifest",
    "selfplay",
    "shard_name",
]
