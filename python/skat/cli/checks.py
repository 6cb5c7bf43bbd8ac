"""Option checking for the ``skat`` command: every option is checked before any work starts.

Two kinds of check, both ending in one line on stderr and exit status 2 (see
:func:`skat.cli.main`):

- **argparse types** (:func:`integer`, :func:`real`, :func:`seed`, :func:`in_file`,
  :func:`out_file`, :func:`plot_file` ...) check one value as it is parsed: ranges of numbers,
  files that must exist, output files that can be made (tried, and removed again) and figures
  matplotlib can save. Their message names the accepted range, and argparse puts the option's
  name in front (``argument --seed: ...``).
- **the path check** (:func:`check_paths`, run for every command) refuses an output file
  named twice or naming one of the command's input files, found by the options' types.
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
import re
import socket
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import NoReturn

from rich.console import Console

from skat._core import SkatError
from skat.seeds import SEED_MAX

COUNT_MAX = 1_000_000_000
"""The largest count (deals, games, positions, hands ...) an option accepts."""

WORKERS_MAX = 256
"""The most worker processes an option accepts."""

RAY_CONNECT_SECONDS = 5.0
"""How long ``--ray ray://HOST:PORT`` may take to accept a connection when it is checked."""

_RAY_CLIENT = re.compile(r"ray://(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>[0-9]{1,5})")
"""``ray://HOST:PORT`` (an IPv6 host in brackets)."""


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


def _reason(e: OSError) -> str:
    """`` (the system's reason)`` of a failed file operation, or nothing."""
    return f" ({e.strerror})" if e.strerror else ""


def out_dir(text: str) -> str:
    """An argparse type: a directory to write into: it exists and a file can be made in it, or
    its parent exists and it can be made there (shown by making it, or a file in it, and
    removing that again, so that nothing is left behind)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a directory name, got ''")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a directory, {text!r} is a file")
    exists = os.path.isdir(text)
    target = text if exists else os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(target):
        raise argparse.ArgumentTypeError(f"expected a directory whose parent exists, no {target!r}")
    try:
        if exists:
            with tempfile.TemporaryFile(dir=text):
                pass
        else:
            os.mkdir(text)
            os.rmdir(text)
    except OSError as e:
        raise argparse.ArgumentTypeError(
            f"expected a writable directory, cannot write {text!r}{_reason(e)}"
        ) from None
    return text


def ray_address(text: str) -> str:
    """An argparse type: a Ray address, on a machine where Ray is installed: ``auto``,
    ``local`` or ``ray://HOST:PORT`` (port 1..65535) of a Ray client server that accepts a
    connection within :data:`RAY_CONNECT_SECONDS`.

    >>> ray_address("ray://")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected auto, local or ray://HOST:PORT, got 'ray://'
    """
    import importlib.util

    address = text.strip()
    client = _RAY_CLIENT.fullmatch(address)
    port = int(client["port"]) if client else 0
    if address not in ("auto", "local") and not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected auto, local or ray://HOST:PORT, got {text!r}")
    if importlib.util.find_spec("ray") is None:
        raise argparse.ArgumentTypeError(
            "needs Ray, which is not installed: pip install 'skat[ray]'"
        )
    if client:
        host = client["host"].strip("[]")
        try:
            with socket.create_connection((host, port), timeout=RAY_CONNECT_SECONDS):
                pass
        except OSError as e:
            why = f" (no answer within {RAY_CONNECT_SECONDS:g} s)"
            raise argparse.ArgumentTypeError(
                f"cannot connect to {address!r}"
                + (why if isinstance(e, TimeoutError) else _reason(e))
            ) from None
    return address


RAY_HELP = (
    "run on Ray instead of local processes: auto (the cluster this machine belongs to),"
    " ray://HOST:PORT, or local (a private instance here); needs pip install 'skat[ray]'"
)


def out_file(text: str) -> str:
    """An argparse type: a file that can be written, shown before any work: an existing
    regular file is opened for appending (its content stays as it is), a new one is made and
    removed again; an existing character device or pipe (``/dev/null``) needs write access."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name, got ''")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a file, {text!r} is a directory")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"expected a file in an existing directory, no {folder!r}")
    cannot = f"expected a writable file, cannot write {text!r}"
    # a symbolic link is written through, so its target is tried
    path = os.path.realpath(text) if os.path.islink(text) else text
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise argparse.ArgumentTypeError(cannot + _reason(e)) from None
    try:
        if mode is None:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.remove(path)
        elif stat.S_ISREG(mode):
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        elif stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            if not os.access(path, os.W_OK):
                raise argparse.ArgumentTypeError(cannot)
        else:
            raise argparse.ArgumentTypeError(f"expected a regular file, {text!r} is none")
    except OSError as e:
        raise argparse.ArgumentTypeError(cannot + _reason(e)) from None
    return text


def plot_file(text: str) -> str:
    """An argparse type: an :func:`out_file` for a figure, named with an extension matplotlib
    can save (``.png``, ``.pdf``, ``.svg`` ...; not ``.pgf`` without its TeX program)."""
    kinds = plot_formats()
    ext = os.path.splitext(text)[1][1:].lower()
    if ext not in kinds:
        raise argparse.ArgumentTypeError(
            f"expected a figure file ending in one of .{', .'.join(kinds)}, got {text!r}"
        )
    return out_file(text)


def plot_formats() -> list[str]:
    """The file extensions (lower case, sorted) of the figures matplotlib can save here."""
    import shutil

    import matplotlib
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = set(FigureCanvasBase.get_supported_filetypes())
    if shutil.which(str(matplotlib.rcParams["pgf.texsystem"])) is None:
        kinds.discard("pgf")
    return sorted(kinds)


OUTPUT_TYPES: tuple[Callable[[str], str], ...] = (out_file, plot_file, out_dir)
"""The argparse types of the options naming a file or directory a command writes."""

INPUT_TYPES: tuple[Callable[[str], str], ...] = (in_file, in_path, in_dir)
"""The argparse types of the options naming a file or directory a command reads."""


def _leaf_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The (sub)parser of the command ``args`` was parsed for: the subcommands chosen in
    ``args`` (``train``, then ``bidding``), followed down from ``parser``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if isinstance(chosen, str) and chosen in action.choices:
                return _leaf_parser(action.choices[chosen], args)
    return parser


def _paths(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    types: tuple[Callable[[str], str], ...],
) -> list[tuple[str, str]]:
    """``(option, path)`` of every value given to an option of ``parser`` whose type is one of
    ``types`` (each element of a list option), in the parser's order; a positional argument is
    named by its metavar."""
    found: list[tuple[str, str]] = []
    for action in parser._actions:
        if action.type not in types:
            continue
        name = "/".join(action.option_strings) or str(action.metavar or action.dest)
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        found += [(name, v) for v in values if isinstance(v, str) and v]
    return found


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name the same regular file or directory (or the same file
    still to be made); character devices and pipes such as ``/dev/null`` never count."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)
    if not all(stat.S_ISREG(m) or stat.S_ISDIR(m) for m in (sa.st_mode, sb.st_mode)):
        return False
    return os.path.samestat(sa, sb)


def check_paths(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Raises :class:`OptionError` if the command ``args`` was parsed for would write one file
    twice (two output options naming it) or overwrite one of its inputs: options are told
    apart by their argparse type (:data:`OUTPUT_TYPES`, :data:`INPUT_TYPES`)."""
    leaf = _leaf_parser(parser, args)
    outputs = _paths(leaf, args, OUTPUT_TYPES)
    inputs = _paths(leaf, args, INPUT_TYPES)
    for i, (option, path) in enumerate(outputs):
        for other, earlier in outputs[:i]:
            if _same_file(path, earlier):
                raise OptionError(option, f"{path!r} is also the output of {other}")
        for other, source in inputs:
            if _same_file(path, source):
                raise OptionError(option, f"would write to its input file {path!r} ({other})")


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
