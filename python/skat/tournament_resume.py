"""Resuming a tournament from its own record file.

A tournament's record file (``run(..., records=FILE)``) holds every finished game as an ISS
record with ``ID[SEED-DEAL-SEATING]`` and the players' labels as ``P0..P2``. Since every game is
fixed by the tournament's arguments and seed, a deal whose games are all in the file need not be
played again: :func:`read_finished` reads them back as outcomes, and the tournament plays only
the deals that are missing. The statistics, the JSON (apart from the wall-clock fields) and the
record file of a resumed run are those of a run that was never interrupted.

Invariants:

- every record must belong to the tournament being resumed: the same seed, a deal index below
  the number of deals, the table variants, each deal's seatings in the order of that mode, the
  players' labels in the seating's seats, the cards of that deal and (cardplay) the auction,
  skat and declaration that the tournament's bidder chose for it; anything else is a
  :class:`ResumeError` and nothing is played or written (the file is never overwritten with
  another tournament's games);
- a deal counts as finished only when all its seatings are present, in order, each with a
  result; a deal with a missing game or a failed game (a player error, no result) is played
  again whole, and its partial records are dropped; so is a last record cut off in the middle
  of its line (the file does not end with a newline), as a killed run may leave it;
- :func:`rewrite` replaces the file atomically (keeping its permissions) by the finished deals'
  records in deal order from deal 0 up to the first missing deal; the finished deals after a
  gap are written again once the gap is filled, as the tournament writes every deal in order.

>>> import os, tempfile
>>> from skat.tournament import run
>>> path = os.path.join(tempfile.mkdtemp(), "t.iss")
>>> whole = run("rules", "random", mode="full", deals=3, seed=5, records=path)
>>> lines = open(path).read().splitlines()
>>> _ = open(path, "w").write("\\n".join(lines[:8]) + "\\n")  # deal 0 and part of deal 1
>>> again = run("rules", "random", mode="full", deals=3, seed=5, records=path, resume=True)
>>> again.resumed_deals, again.to_json(False) == whole.to_json(False)
(1, True)
>>> open(path).read().splitlines() == lines
True
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections import defaultdict
from collections.abc import Mapping, Sequence

from skat._core import Deal, Game, RecordError, SkatError
from skat.records import iter_record_lines
from skat.seeds import deal_seed
from skat.tournament_results import (
    FULL_SEATINGS,
    DealOutcome,
    GameOutcome,
    parse_record_id,
    seat_labels,
)

__all__ = ["ResumeError", "check_mode", "games_by_deal", "read_finished", "rewrite"]


class ResumeError(SkatError):
    """A record file that cannot be resumed: unreadable, or holding games of another
    tournament."""


def games_by_deal(
    path: str | os.PathLike[str],
    seed: int,
    deals: int,
    labels: tuple[str, str],
    mode: str | None = None,
    variants: str | None = None,
) -> dict[int, list[tuple[str, str, Game]]]:
    """The games of the record file ``path`` by deal index, each as ``(seating, record line,
    game)`` in file order (none if the file does not exist); a :class:`ResumeError` unless
    every record has this tournament's seed, a deal index below ``deals`` and the players'
    ``labels`` (A, B) in its seating's seats. Given ``variants`` (canonical, as
    :func:`skat.variants.check_variants` returns them), every game must have these table
    variants; given ``mode`` (``"cardplay"`` or ``"full"``), every deal's seatings must be
    those of that mode in their order (:func:`check_mode`). This needs no game played, so a
    command checks it before it starts."""
    if not os.path.exists(path):
        return {}
    found: dict[int, list[tuple[str, str, Game]]] = defaultdict(list)
    name = os.fspath(path)
    lines = list(iter_record_lines(path))
    for number, line in lines:
        try:
            game = Game.from_iss(line)
        except RecordError as e:
            if number == lines[-1][0] and not _ends_with_newline(path):
                break  # the last record was cut off in the middle of its writing
            raise ResumeError(f"{name}:{number}: {e}") from e
        parsed = parse_record_id(game.record_id)
        if parsed is None:
            raise ResumeError(f"{name}:{number}: the record has no tournament ID")
        game_seed, index, seating = parsed
        if game_seed != str(seed):
            raise ResumeError(f"{name}:{number}: a game of seed {game_seed}, not {seed}")
        if index >= deals:
            raise ResumeError(f"{name}:{number}: deal {index}, but the tournament has {deals}")
        header = dict(game.header)
        names = [header.get(f"P{s}") for s in range(3)]
        want = seat_labels(labels, seating)
        if names != want:
            raise ResumeError(f"{name}:{number}: players {names}, expected {want}")
        if variants is not None and game.variants != variants:
            raise ResumeError(
                f"{name}:{number}: a game with table variants {game.variants or 'none'!r},"
                f" not {variants or 'none'!r} (--variants)"
            )
        found[index].append((seating, line, game))
    if mode is not None:
        check_mode(name, mode, seed, found)
    return found


def _mode_seatings(mode: str, first: str) -> tuple[str, ...]:
    """The seatings of a deal in ``mode`` whose first game has seating ``first``: full mode's
    six, or cardplay's two around the declarer (the seat of the only A in ``first``)."""
    if mode == "full":
        return FULL_SEATINGS
    if mode == "cardplay" and len(first) == 3 and first.count("A") == 1:
        other = "".join("B" if c == "A" else "A" for c in first)
        return first, other
    return ()


def check_mode(
    name: str, mode: str, seed: int, found: Mapping[int, Sequence[tuple[str, str, Game]]]
) -> None:
    """A :class:`ResumeError` unless the games of every deal in ``found`` (by deal index, as
    :func:`games_by_deal` returns them) are played in ``mode``'s seatings, in order, the last
    ones possibly missing; in full mode every deal must have the cards of its index too."""
    for index, games in sorted(found.items()):
        seatings = [s for s, _, _ in games]
        order = _mode_seatings(mode, seatings[0])
        if list(order[: len(seatings)]) != seatings:
            raise ResumeError(
                f"{name}: deal {index} was played in the seatings {' '.join(seatings)}, not"
                f" those of {mode} mode (was the file written with another --mode?)"
            )
        cards = Deal.random(deal_seed(seed, index)) if mode == "full" else None
        if cards is not None and any(g.deal != cards for *_, g in games):
            raise ResumeError(
                f"{name}: deal {index} has other cards than this tournament's"
                " (was the file written with another --mode?)"
            )


def _ends_with_newline(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def read_finished(
    path: str | os.PathLike[str],
    seed: int,
    deals: int,
    labels: tuple[str, str],
    expected: Mapping[int, tuple[int, Deal, Sequence[str], Sequence[str]]],
    variants: str | None = None,
) -> dict[int, DealOutcome]:
    """The finished deals of the tournament's record file ``path``, by deal index.

    ``expected`` gives, for every deal index the tournament plays, its candidate number, its
    cards, its seatings in order and the ISS tokens every game of it starts with (cardplay:
    the bidder's auction, skat and declaration; none in full mode); given ``variants``, every
    game must have these table variants (:func:`games_by_deal`). A file that does not exist
    has no finished deals. Raises :class:`ResumeError` if a record is not one of this
    tournament's games.
    """
    name = os.fspath(path)
    finished: dict[int, DealOutcome] = {}
    found = games_by_deal(path, seed, deals, labels, variants=variants)
    for index, games in sorted(found.items()):
        if index not in expected:
            raise ResumeError(f"{name}: deal {index} is not one of this tournament's deals")
        candidate, deal, seatings, prefix = expected[index]
        for seating, _, game in games:
            if seating not in seatings:
                raise ResumeError(
                    f"{name}: deal {index} has no seating {seating!r} in this mode"
                    " (was the file written with another --mode or --bidder?)"
                )
            if game.deal != deal:
                raise ResumeError(f"{name}: deal {index} has other cards than this tournament's")
        played = [s for s, _, _ in games]
        if played != list(seatings[: len(played)]):
            raise ResumeError(
                f"{name}: deal {index} was played in the seatings {' '.join(played)}, not"
                f" {' '.join(seatings)} (was the file written with another --mode?)"
            )
        if any([str(a) for _, a in g.history[: len(prefix)]] != list(prefix) for *_, g in games):
            raise ResumeError(
                f"{name}: deal {index} was bid or declared otherwise than by this"
                " tournament's bidder (was the file written with another --bidder?)"
            )
        if len(played) != len(seatings):
            continue
        outcomes: list[GameOutcome] = []
        for seating, line, game in games:
            r = game.result
            if r is None:
                break
            s0, s1, s2 = r.scores
            outcomes.append(GameOutcome(seating, (s0, s1, s2), r.declarer, r.won, line))
        else:
            finished[index] = DealOutcome(index, candidate, tuple(outcomes), ())
    return finished


def rewrite(path: str | os.PathLike[str], finished: Mapping[int, DealOutcome]) -> int:
    """Replaces the file ``path`` atomically by the records of the finished deals ``0..k-1``
    (``k`` the first deal not finished) and returns ``k``. The file keeps its permissions (a
    symbolic link stays one: its target is replaced); a file that does not exist is made
    as ``open`` makes one."""
    k = 0
    while k in finished:
        k += 1
    lines = [g.record + "\n" for index in range(k) for g in finished[index].games]
    target = os.path.realpath(path)
    if not os.path.exists(target):
        with open(target, "w", encoding="utf-8") as f:
            f.writelines(lines)
        return k
    folder = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".resume-", suffix=".iss")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.writelines(lines)
        os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return k
