"""ISS game records (one ``(;GM[Skat]...;)`` per line): naming a record's players, reading
files of records into replayed games, and checking them.

Every reader skips blank lines; the readers of record collections (:func:`iter_records`,
:func:`read_records`) also skip ``#`` comment lines, while :func:`read_iss` and
:func:`replay_file`, which check one file, report such a line as a record that does not read.

``Game.to_iss`` writes a record whose header is always :data:`PLAIN_HEADER` (place ``skat``,
players ``0 1 2``); :func:`named_record` is the one place that puts a place, an ID and the
players' names there instead, escaping ``\\`` and ``]`` as ISS values require.

>>> import skat, tempfile, os
>>> g = skat.random_game(3)
>>> path = os.path.join(tempfile.mkdtemp(), "one.sgf")
>>> _ = open(path, "w").write(g.to_iss() + "\\n")
>>> [x.result == g.result for x in skat.read_iss(path)]
[True]
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from skat._core import Game, ParseError, Phase, RecordError

PLAIN_HEADER = "(;GM[Skat]PC[skat]P0[0]P1[1]P2[2]"
"""How every record written by ``Game.to_iss`` starts."""


def iss_value(text: str) -> str:
    """``text`` escaped for an ISS ``KEY[value]``: backslash and ``]`` get a backslash."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def named_record(iss: str, place: str, record_id: str, names: Sequence[str]) -> str:
    """The record ``iss`` (as ``Game.to_iss`` writes it) with ``PC[place]ID[record_id]`` and
    the seats' ``names`` as ``P0..P2``; a record with another header is returned unchanged.

    >>> named_record("(;GM[Skat]PC[skat]P0[0]P1[1]P2[2]MV[];)", "x", "1-2", ["A]", "b", "c"])
    '(;GM[Skat]PC[x]ID[1-2]P0[A\\\\]]P1[b]P2[c]MV[];)'
    """
    if not iss.startswith(PLAIN_HEADER):
        return iss
    head = f"(;GM[Skat]PC[{iss_value(place)}]ID[{iss_value(record_id)}]" + "".join(
        f"P{seat}[{iss_value(name)}]" for seat, name in enumerate(names)
    )
    return head + iss[len(PLAIN_HEADER) :]


def actor_seat(actor: int | str) -> int | None:
    """The seat to give ``Game.apply`` when replaying a ``game.history`` entry made by
    ``actor``: the seat itself, or None for the deal (``"w"``). A replay must pass it: after a
    declarer's claim the defenders' answers are recorded as ``RE``, which without its seat
    would be read as the declarer, to move, resigning.

    >>> actor_seat(2), actor_seat("w")
    (2, None)
    """
    return actor if isinstance(actor, int) else None


def replay_until_play(game: Game) -> Game:
    """A new game replaying ``game``'s actions up to the start of card play (all of them when
    play never starts): the position of its first card, the card not yet played.

    >>> import skat
    >>> g = skat.random_game(3)
    >>> start = replay_until_play(g)
    >>> start.phase == skat.Phase.PLAY, start.contract == g.contract, len(start.tricks)
    (True, True, 0)
    """
    g = Game(game.deal, variants=game.variants)
    for actor, action in game.history:
        if g.phase == Phase.PLAY or g.is_over:
            break
        g.apply(action, actor_seat(actor))
    return g


def record_path(path: str | os.PathLike[str], caller: str = "open_records") -> str:
    """``path`` as a file name: a ``str``, ``bytes`` or path-like object (anything else, such
    as an int that ``open`` would take for a file descriptor, raises ``TypeError``; a name
    with a lone surrogate that no file system encoding holds, or with a NUL character, raises
    ``ParseError``)."""
    if not isinstance(path, str | bytes | os.PathLike):
        raise TypeError(f"{caller} expects a file path, got {type(path).__name__}")
    name = os.fsdecode(os.fspath(path))
    try:
        os.fsencode(name)
    except UnicodeEncodeError as e:
        raise ParseError(f"not a valid file name (a lone surrogate): {name!r}") from e
    if "\0" in name:
        raise ParseError(f"not a valid file name (a NUL character): {name!r}")
    return name


def open_records(path: str | os.PathLike[str]) -> TextIO:
    """A record file opened for reading as text; gzip-compressed files (``.gz``, as
    ``skat train selfplay`` writes its shards) are decompressed on the fly. ``path`` is
    checked by :func:`record_path`."""
    path = record_path(path)
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def iter_record_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """Yields ``(line_number, line)`` for every record line of a file (blank lines skipped;
    the file may be gzip-compressed). A damaged gzip file (cut short or corrupt, which shows
    only as it is read) raises ``RecordError`` naming the file after the lines before the
    damage."""
    with open_records(path) as f:
        lines = enumerate(f, start=1)
        while True:
            try:
                number, line = next(lines)
            except StopIteration:
                return
            except (EOFError, zlib.error, gzip.BadGzipFile) as e:
                raise RecordError(f"{os.fspath(path)}: damaged gzip data: {e}") from e
            text = line.strip()
            if text:
                yield number, text


def read_iss(path: str | os.PathLike[str]) -> Iterator[Game]:
    """Iterates the games of an ISS record file, each replayed through the rules.

    Raises ``RecordError`` (with the file and line) for a record that is malformed or contains
    an illegal move. ``path`` is checked at once (:func:`record_path`): a path that is not one
    raises ``TypeError``, a name with a lone surrogate or a NUL character ``ParseError``.
    """
    name = record_path(path, "read_iss")
    return _read_iss(name)


def _read_iss(name: str) -> Iterator[Game]:
    for number, line in iter_record_lines(name):
        try:
            yield Game.from_iss(line)
        except RecordError as e:
            raise RecordError(f"{name}:{number}: {e}") from e


def record_files(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The record files named by ``paths``: a file stands for itself, a directory (such as the
    shards of ``skat train selfplay``) for its ``*.iss``, ``*.sgf`` and ``*.gz`` files in name
    order."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            names = sorted(os.listdir(p))
            out += [
                os.path.join(p, n) for n in names if n.endswith((".iss", ".sgf", ".iss.gz", ".gz"))
            ]
        else:
            out.append(os.fspath(p))
    return out


def iter_records(paths: Sequence[str | os.PathLike[str]]) -> Iterator[tuple[str, int, str]]:
    """Yields ``(file, line_number, record)`` for every record of ISS files or directories of
    them (see :func:`record_files`), in file and line order: gzip files are read decompressed,
    blank lines and ``#`` comment lines skipped (:func:`iter_record_lines`, which yields the
    comments, raises ``RecordError`` for damaged gzip data)."""
    for path in record_files(paths):
        for number, line in iter_record_lines(path):
            if not line.startswith("#"):
                yield path, number, line


def read_records(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The record lines of :func:`iter_records`."""
    return [line for _, _, line in iter_records(paths)]


@dataclass
class ReplaySummary:
    """What ``skat replay`` reports for one or more files."""

    records: int = 0
    """Records read."""
    passed: int = 0
    """Deals that all three passed."""
    complete: int = 0
    """Records with a result, each checked against the replay."""
    in_progress: int = 0
    """Records without a result (left where the record stops)."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    """(record id or line, message) for records that could not be read or replayed."""
    mismatches: list[tuple[str, list[str]]] = field(default_factory=list)
    """(record id, differences) for complete games whose replay differs from the record."""
    by_end: dict[str, int] = field(default_factory=dict)
    """How the checked games ended (played, passed, conceded, timeout, ...)."""

    @property
    def ok(self) -> bool:
        return not self.errors and not self.mismatches


def replay_file(
    path: str | os.PathLike[str], summary: ReplaySummary | None = None
) -> ReplaySummary:
    """Replays every record of a file and compares complete games with their recorded results."""
    s = summary if summary is not None else ReplaySummary()
    for number, line in iter_record_lines(path):
        s.records += 1
        try:
            game = Game.from_iss(line)
        except RecordError as e:
            s.errors.append((f"{os.fspath(path)}:{number}", str(e)))
            continue
        if game.recorded_result is None:
            s.in_progress += 1
            continue
        s.complete += 1
        if game.result is not None:
            s.by_end[game.result.end] = s.by_end.get(game.result.end, 0) + 1
            if game.result.passed:
                s.passed += 1
        diffs = game.check_record()
        if diffs:
            s.mismatches.append((game.record_id or f"line {number}", diffs))
    return s
