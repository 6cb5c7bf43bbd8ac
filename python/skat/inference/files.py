"""Inference tables from a file: what ``kermit:inference_tables=FILE`` reads.

``skat train inference`` writes learned tables as an ``.npz`` file
(:meth:`~skat.inference.InferenceTables.save`); a player given such a file draws its worlds
with those tables instead of the packaged ones. Invariants: any file that cannot serve, missing,
unreadable, not an ``.npz`` archive or without the counts of the current layout, raises
:class:`~skat.inference.InferenceError` (a :class:`skat.SkatError`) with a one-line message
naming the file, when the player is made and never in the middle of a game; a file is read
and compiled once per process for each (path, modification time, sides, candidates), so
players built per game cost nothing more, and a rewritten file is read again.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from skat._core import Inference
from skat.inference import InferenceError, InferenceTables

__all__ = ["compiled_tables", "load_tables"]


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def load_tables(path: str | os.PathLike[str]) -> InferenceTables:
    """The tables in ``path``; :class:`InferenceError` (one line) when it cannot serve."""
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise InferenceError(f"inference tables {name!r}: no such file")
    try:
        return InferenceTables.load(name)
    except InferenceError as e:
        raise InferenceError(_one_line(e)) from e
    except Exception as e:  # a damaged archive: zipfile, EOF, numpy format errors
        message = f"cannot read inference tables {name!r}: {type(e).__name__}: {_one_line(e)}"
        raise InferenceError(message) from e


@lru_cache(maxsize=8)
def _compiled(name: str, mtime_ns: int, sides: str, candidates: int) -> Inference:
    return load_tables(name).compile(sides, candidates)


def compiled_tables(
    path: str | os.PathLike[str], sides: str, candidates: int, model: Any = None
) -> Inference:
    """The sampler compiled from the tables in ``path`` (``model``: a bidding model for the
    defenders' 10+2 weighting, default the packaged one; only the default is cached)."""
    name = os.path.abspath(os.fspath(path))
    if model is not None:
        return load_tables(name).compile(sides, candidates, model)
    try:
        mtime = os.stat(name).st_mtime_ns
    except OSError:
        raise InferenceError(f"inference tables {os.fspath(path)!r}: no such file") from None
    return _compiled(name, mtime, sides, candidates)
