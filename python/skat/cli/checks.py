"""Option checking for the ``skat`` command: every option is checked before any work starts.

Two kinds of check, both ending in one line on stderr and exit status 2 (see
:func:`skat.cli.main`):

- **argparse types** (:func:`integer`, :func:`real`, :func:`seed`, :func:`in_file`,
  :func:`out_file`) check one value as it is parsed: ranges of numbers, files that must exist,
  output files whose directory must exist. Their message names the accepted range, and argparse
  puts the option's name in front (``argument --seed: ...``).
- **command checks** (:func:`check_specs` and each command's ``check`` function) look at
  values together or build objects to try them (player specs are built once, so that a bad
  option is reported before a tournament starts); they raise :class:`OptionError`, which
  names the option.

:class:`ArgumentParser` turns argparse's own errors into :class:`UsageError` instead of
printing the usage and exiting, so that :func:`skat.cli.main` prints one line and returns.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from rich.console import Console

from skat._core import SkatError
from skat.seeds import SEED_MAX

COUNT_MAX = 1_000_000_000
"""The largest count (deals, games, positions, hands ...) an option accepts."""

WORKERS_MAX = 256
"""The most worker processes an option accepts."""


class OptionError(SkatError):
    """A command-line option with a value the command cannot use."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


class UsageError(SkatError):
    """A command line argparse cannot parse (an unknown option, a value of the wrong type)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, raising :class:`UsageError` (one line) instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message}")


def _range_text(lo: float | None, hi: float | None, kind: str) -> str:
    if lo is not None and hi is not None:
        return f"{kind} in {lo}..{hi}"
    if lo is not None:
        return f"{kind} >= {lo}"
    if hi is not None:
        return f"{kind} <= {hi}"
    return kind


def integer(lo: int | None = 1, hi: int | None = COUNT_MAX) -> Callable[[str], int]:
    """An argparse type: an integer in ``lo .. hi`` (either end may be open)."""
    want = _range_text(lo, hi, "an integer")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {want}, got {text!r}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"expected {want}, got {value}")
        return value

    return parse


def real(
    lo: float | None = 0.0, hi: float | None = None, below_hi: bool = False
) -> Callable[[str], float]:
    """An argparse type: a finite number in ``lo .. hi`` (``hi`` excluded if ``below_hi``)."""
    want = _range_text(lo, hi, "a number")
    if below_hi:
        want = want.replace(f"..{hi}", f"..{hi} (excluded)")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {want}, got {text!r}") from None
        ok = math.isfinite(value) and (lo is None or value >= lo)
        if hi is not None:
            ok = ok and (value < hi if below_hi else value <= hi)
        if not ok:
            raise argparse.ArgumentTypeError(f"expected {want}, got {text}")
        return value

    return parse


seed = integer(0, SEED_MAX)
"""An argparse type: a seed, ``0 .. 2**64 - 1`` (the core's unsigned 64-bit seeds)."""

port = integer(0, 65535)
"""An argparse type: a TCP port, 0 for a free one."""


def unit_list(text: str) -> list[float]:
    """An argparse type: comma-separated distinct numbers in 0..1.

    >>> unit_list("0, 0.3,0.6")
    [0.0, 0.3, 0.6]
    """
    parse = real(0.0, 1.0)
    values = [parse(part.strip()) for part in text.split(",") if part.strip()]
    if not values:
        raise argparse.ArgumentTypeError(f"expected numbers in 0..1, got {text!r}")
    if len(set(values)) != len(values):
        raise argparse.ArgumentTypeError(f"expected distinct numbers, got {text!r}")
    return values


def in_file(text: str) -> str:
    """An argparse type: an existing, readable file (not a directory)."""
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a file, {text!r} is a directory")
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"expected an existing file, no file {text!r}")
    if not os.access(text, os.R_OK):
        raise argparse.ArgumentTypeError(f"expected a readable file, cannot read {text!r}")
    return text


def in_path(text: str) -> str:
    """An argparse type: an existing, readable record file or directory of record files."""
    if os.path.isdir(text):
        if not os.access(text, os.R_OK | os.X_OK):
            raise argparse.ArgumentTypeError(f"expected a readable directory, cannot read {text!r}")
        return text
    return in_file(text)


def in_dir(text: str) -> str:
    """An argparse type: an existing, readable directory."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected an existing directory, no directory {text!r}")
    if not os.access(text, os.R_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"expected a readable directory, cannot read {text!r}")
    return text


def out_dir(text: str) -> str:
    """An argparse type: a directory to write into: it exists (and is writable) or its parent
    does, so that it can be made."""
    if not text:
        raise argparse.ArgumentTypeError("expected a directory name, got ''")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a directory, {text!r} is a file")
    target = text if os.path.isdir(text) else os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(target):
        raise argparse.ArgumentTypeError(f"expected a directory whose parent exists, no {target!r}")
    if not os.access(target, os.W_OK):
        raise argparse.ArgumentTypeError(f"expected a writable directory, cannot write {target!r}")
    return text


def ray_address(text: str) -> str:
    """An argparse type: a Ray address (``auto``, ``local`` or ``ray://HOST:PORT``), on a
    machine where Ray is installed."""
    import importlib.util

    if not text.strip():
        raise argparse.ArgumentTypeError("expected auto, local or a cluster address, got ''")
    if importlib.util.find_spec("ray") is None:
        raise argparse.ArgumentTypeError(
            "needs Ray, which is not installed: pip install 'skat[ray]'"
        )
    return text.strip()


RAY_HELP = (
    "run on Ray instead of local processes: auto (the cluster this machine belongs to),"
    " ray://HOST:PORT, or local (a private instance here); needs pip install 'skat[ray]'"
)


def out_file(text: str) -> str:
    """An argparse type: a file that can be written: its directory exists, it is no directory."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name, got ''")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a file, {text!r} is a directory")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"expected a file in an existing directory, no {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(text) and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"expected a writable file, cannot write {text!r}")
    return text


def variants(text: str) -> str:
    """An argparse type: table variants (``kontra``, ``bock``, ``ramsch``, ``schieberamsch``,
    comma or space separated), in their canonical form."""
    from skat.variants import VariantsError, check_variants

    try:
        return check_variants(text)
    except VariantsError as e:
        raise argparse.ArgumentTypeError(
            f"expected kontra, bock, ramsch or schieberamsch, got {text!r}"
        ) from e


VARIANTS_HELP = (
    "table variants, comma-separated: kontra (Kontra and Re), bock (Bock rounds after 60:60,"
    " Re or a game worth 100), ramsch (a Ramsch when all pass), schieberamsch (with the skat"
    " pushed round first); default: none, the International Skat Order"
)


def split_specs(text: str) -> list[str]:
    """The player specs of a comma-separated option value (empty parts dropped; a
    ``key=value`` part is an option of the spec before it)."""
    from skat.ui.common import split_specs as split

    return split(text)


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    """Adds ``--workers`` (default ``None``: every local core, or every CPU of a Ray cluster)
    and ``--ray ADDRESS``, the options of every command built on
    :func:`skat.parallel.run_tasks`."""
    parser.add_argument(
        "--workers",
        type=integer(1, WORKERS_MAX),
        default=None,
        help=f"worker processes, 1..{WORKERS_MAX}, or the most Ray tasks at once (default:"
        " every local core)",
    )
    parser.add_argument("--ray", metavar="ADDRESS", type=ray_address, help=RAY_HELP)


def workers_text(args: argparse.Namespace) -> str:
    """How a command with :func:`add_parallel_options` runs, for its report: ``2 workers``
    (``--workers``, else every local core) or ``Ray at ADDRESS``."""
    from skat.parallel import local_workers

    if args.ray:
        limit = f", at most {args.workers} tasks at once" if args.workers else ""
        return f"Ray at {args.ray}{limit}"
    n = local_workers(args.workers)
    return f"{n} worker{'' if n == 1 else 's'}"


def check_specs(option: str, specs: Sequence[str], counts: Sequence[int]) -> None:
    """Builds every player spec once; raises :class:`OptionError` naming ``option`` if one
    cannot be built or the number of specs is not one of ``counts``."""
    from skat.players import PlayerSpecError, make_player

    if len(specs) not in counts:
        allowed = " or ".join(str(c) for c in counts)
        raise OptionError(option, f"expected {allowed} player spec(s), got {len(specs)}")
    for spec in specs:
        try:
            make_player(spec)
        except PlayerSpecError as e:
            raise OptionError(option, str(e)) from e


def check_model(option: str, path: str) -> None:
    """Reads the bidding model file ``path`` once; raises :class:`OptionError` naming
    ``option`` if it is no bidding model."""
    from skat.bidding.model import BiddingModel, ModelError

    try:
        BiddingModel.load(path)
    except ModelError as e:
        raise OptionError(option, str(e)) from e


def draw_seed(value: int | None, console: Console) -> int:
    """``value``, or a seed drawn at random and printed (so that the run can be repeated)."""
    if value is not None:
        return value
    drawn = int.from_bytes(os.urandom(4), "little")
    console.print(f"[dim]seed {drawn} (repeat with --seed {drawn})[/dim]")
    return drawn


def command_line() -> str:
    """The ``skat`` command line of this run, for the records a run writes ("" when not
    started as ``skat``, e.g. from Python)."""
    return "skat " + " ".join(sys.argv[1:]) if sys.argv and "skat" in sys.argv[0] else ""
