"""The player protocol, the registry of named players and the spec-string parser.

A spec's option values are typed by the player class's constructor annotations and the
options every engine player shares (:data:`OPTION_RANGES`, or the class's own
``option_ranges`` where an option means something else there) are range-checked, so that a bad
spec fails with :class:`PlayerSpecError` (a :class:`skat.SkatError`) when it is built, before
any game, never deep inside the engine.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from skat._core import Action, SkatError, View
from skat.defaults import CANDIDATES_MAX, THREADS_MAX, TT_MB_MAX, WORLDS_MAX
from skat.seeds import SEED_MAX


@runtime_checkable
class Player(Protocol):
    """Anything that chooses an action from a view."""

    def act(self, view: View) -> Action | str:
        """The action (or its ISS token) for ``view.seat`` in the current phase."""
        ...


class PlayerSpecError(SkatError):
    """An unknown player name, class or option in a player spec."""


_REGISTRY: dict[str, Callable[..., Player]] = {}


def register(name: str) -> Callable[[type[Any]], type[Any]]:
    """Class decorator that makes a player available by ``name`` in specs."""

    def wrap(cls: type[Any]) -> type[Any]:
        _REGISTRY[name] = cls
        return cls

    return wrap


def available_players() -> dict[str, str]:
    """Registered player names with the first line of their documentation."""
    out = {}
    for name, factory in sorted(_REGISTRY.items()):
        doc = inspect.getdoc(factory) or ""
        out[name] = doc.splitlines()[0] if doc else ""
    return out


def with_option(spec: str, key: str, value: str) -> str:
    """``spec`` with its option ``key`` set to ``value``: replaced where it stands, else added.

    >>> with_option("kermit:threshold=0.6,worlds=20", "threshold", "0.7")
    'kermit:threshold=0.7,worlds=20'
    >>> with_option("pimc", "re", "1.01")
    'pimc:re=1.01'
    """
    name, sep, options = spec.partition(":")
    parts = [p for p in options.split(",") if p.strip()] if sep else []
    setting = f"{key}={value}"
    kept = [setting if p.split("=")[0].strip() == key else p for p in parts]
    if setting not in kept:
        kept.append(setting)
    return f"{name}:{','.join(kept)}"


_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")


def _value(text: str) -> Any:
    """An option value without a type annotation: bool, int, float or text."""
    low = text.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _options(spec: str, text: str) -> dict[str, str]:
    """The ``key=value`` options of a spec, values as written; an option given twice is
    refused (which one was meant is not for us to guess)."""
    opts: dict[str, str] = {}
    if not text:
        return opts
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise PlayerSpecError(f"player spec {spec!r}: option {part!r} is not key=value")
        if key.strip() in opts:
            raise PlayerSpecError(
                f"player spec {spec!r}: option {key.strip()} is given twice; give it once"
            )
        opts[key.strip()] = value.strip()
    return opts


# Ranges of the options every engine player shares: (lowest, highest), either end open.
OPTION_RANGES: dict[str, tuple[float | None, float | None]] = {
    "worlds": (1, WORLDS_MAX),
    "threads": (1, THREADS_MAX),
    "tt_mb": (1, TT_MB_MAX),
    "seconds": (0.0, None),  # and more than 0: POSITIVE_OPTIONS
    "seed": (0, SEED_MAX),
    "threshold": (0.0, 1.0),
    "unopposed": (0.0, 1.0),
    "candidates": (1, CANDIDATES_MAX),
    "pcut": (0.0, 0.999),
    "pcut_window": (1, 120),
    "kontra": (0.0, 1.01),
    "re": (0.0, 1.01),
    "paranoid": (0, 10),
    "paranoid_bid": (0, 100_000_000),
    "declare": (0, None),
    "declare_worlds": (1, WORLDS_MAX),
}

POSITIVE_OPTIONS = frozenset({"seconds"})
"""Options whose lower bound in :data:`OPTION_RANGES` is excluded (a time budget of 0 s)."""


def check_option(
    name: str,
    value: Any,
    ranges: Mapping[str, tuple[float | None, float | None]] = OPTION_RANGES,
) -> None:
    """Raises :class:`PlayerSpecError` when a known option (``ranges``, by default
    :data:`OPTION_RANGES`) is out of its range; ``None`` (the player's own default) and unknown
    names pass."""
    bounds = ranges.get(name)
    if bounds is None or value is None or isinstance(value, bool):
        return
    if not isinstance(value, int | float):
        return
    lo, hi = bounds
    low_ok = lo is None or (value > lo if name in POSITIVE_OPTIONS else value >= lo)
    if not low_ok or (hi is not None and value > hi) or value != value:
        if hi is not None:
            want = f"in {lo}..{hi}"
        else:
            want = f"more than {lo}" if name in POSITIVE_OPTIONS else f"at least {lo}"
        raise PlayerSpecError(f"option {name} must be {want}, got {value}")


def _convert(text: str, annotation: Any) -> Any:
    """``text`` read as ``annotation`` (int, float, bool, str, ``X | None``); raises
    ``ValueError`` when it is not one. Other annotations: :func:`_value`."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return _value(text)
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        if type(None) in args and text.lower() in ("none", "null", ""):
            return None
        kinds = [a for a in args if a is not type(None)]
        for kind in kinds:
            try:
                return _convert(text, kind)
            except ValueError:
                pass
        words = {int: "an integer", float: "a number", bool: "true or false", str: "text"}
        names = " or ".join(words.get(k, getattr(k, "__name__", str(k))) for k in kinds)
        raise ValueError(f"expected {names}" + (" or none" if type(None) in args else ""))
    low = text.lower()
    if annotation is bool:
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise ValueError("expected true or false")
    if annotation is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("expected an integer") from None
    if annotation is float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError("expected a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("expected a finite number")
        return value
    if annotation is str:
        return text
    return _value(text)


def _parameters(factory: Callable[..., Player]) -> tuple[dict[str, Any], bool]:
    """The factory's keyword parameters with their evaluated annotations (as text where they
    cannot be evaluated), and whether those are all the names it accepts. A class whose
    ``__init__`` passes ``**options`` on also gets its base classes' parameters for the names
    it does not declare itself (``tracker:unopposed=none`` is read as ``kermit`` reads it); the
    names are complete when the chain ends in an ``__init__`` without ``**``."""
    sources: list[Callable[..., Any]] = [factory]
    if isinstance(factory, type):
        sources += [vars(c)["__init__"] for c in factory.__mro__[1:] if "__init__" in vars(c)]
    hints: dict[str, Any] = {}
    for source in sources:
        try:
            sig = inspect.signature(source, eval_str=True)
        except (TypeError, ValueError, NameError, AttributeError, SyntaxError):
            try:  # annotations left as text, which :func:`_convert` reads as untyped
                sig = inspect.signature(source)
            except (TypeError, ValueError):
                return hints, False
        params = list(sig.parameters.values())[0 if source is factory else 1 :]  # no self
        for param in params:
            if param.kind in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD):
                hints.setdefault(param.name, param.annotation)
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            return hints, True
    return hints, False


def _why(e: BaseException) -> str:
    """A one-line account of an error raised while loading a player's code."""
    if isinstance(e, SyntaxError):
        return f"{type(e).__name__}: {e.msg} (line {e.lineno})"
    text = str(e) if isinstance(e, ImportError) else f"{type(e).__name__}: {e}".rstrip(": ")
    return " ".join(text.split())


def _load_class(spec: str, where: str, name: str) -> Callable[..., Player]:
    """The class ``name`` of the file or module ``where``. Any error while the file or module
    runs (a syntax error, a failing import, an exception or ``sys.exit`` at top level) is a
    :class:`PlayerSpecError`, and a file that failed leaves nothing behind in ``sys.modules``."""
    if where.endswith(".py") or "/" in where:
        path = Path(where)
        if not path.is_file():
            raise PlayerSpecError(f"player spec {spec!r}: no file {where}")
        mod_name = f"_skat_player_{abs(hash(str(path.resolve())))}"
        module = sys.modules.get(mod_name)
        if module is None:
            loader_spec = importlib.util.spec_from_file_location(mod_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise PlayerSpecError(f"player spec {spec!r}: cannot load {where}")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[mod_name] = module
            try:
                loader_spec.loader.exec_module(module)
            except (Exception, SystemExit) as e:
                del sys.modules[mod_name]
                raise PlayerSpecError(
                    f"player spec {spec!r}: cannot load {where}: {_why(e)}"
                ) from e
    else:
        try:
            module = importlib.import_module(where)
        except (Exception, SystemExit) as e:  # a relative name is a TypeError
            raise PlayerSpecError(f"player spec {spec!r}: cannot import {where}: {_why(e)}") from e
    cls = getattr(module, name, None)
    if cls is None or not callable(cls):
        raise PlayerSpecError(f"player spec {spec!r}: {where} has no class {name}")
    return cls  # type: ignore[no-any-return]


def _check_options(
    spec: str, factory: Callable[..., Player], opts: dict[str, str]
) -> dict[str, Any]:
    """The options typed by the factory's annotations and range-checked; raises
    :class:`PlayerSpecError` for unknown names, values of the wrong type or out of range."""
    hints, closed = _parameters(factory)
    unknown = [k for k in opts if k not in hints]
    if closed and unknown:
        raise PlayerSpecError(
            f"player spec {spec!r}: unknown option(s) {', '.join(unknown)};"
            f" options: {', '.join(hints) or '(none)'}"
        )
    # a player class may give a shared option its own range (``option_ranges``)
    ranges = {**OPTION_RANGES, **getattr(factory, "option_ranges", {})}
    typed: dict[str, Any] = {}
    for key, text in opts.items():
        try:
            typed[key] = _convert(text, hints.get(key, inspect.Parameter.empty))
        except ValueError as e:
            raise PlayerSpecError(f"player spec {spec!r}: option {key}={text!r}: {e}") from None
        try:
            check_option(key, typed[key], ranges)
        except PlayerSpecError as e:
            raise PlayerSpecError(f"player spec {spec!r}: {e}") from None
    return typed


def make_player(spec: str) -> Player:
    """Builds a player from a spec.

    - ``name[:key=value,...]``: a registered player (``random``, ...);
    - ``package.module:ClassName[:key=value,...]`` or ``path/to/file.py:ClassName[:...]``:
      any class, called with the options as keyword arguments.

    Option values are read as the factory's parameter annotations say (``int``, ``float``,
    ``bool``: true/false, ``str``, ``X | None``: also ``none``), else as bool, int, float or
    text; the options of :data:`OPTION_RANGES` must be in range. Any bad option raises
    :class:`PlayerSpecError`, and so does any exception (or ``sys.exit``) raised while a class
    of a file or module is built.
    """
    if not isinstance(spec, str):
        raise PlayerSpecError(f"a player spec is text, got {type(spec).__name__}")
    parts = spec.strip().split(":")
    head = parts[0].strip()
    if not head:
        raise PlayerSpecError("empty player spec")
    external = "." in head or "/" in head
    if external:
        if len(parts) < 2 or not parts[1].strip():
            raise PlayerSpecError(f"player spec {spec!r}: expected {head}:ClassName[:options]")
        factory = _load_class(spec, head, parts[1].strip())
        opts = _options(spec, ":".join(parts[2:]))
    else:
        if head not in _REGISTRY:
            names = ", ".join(available_players()) or "(none)"
            raise PlayerSpecError(f"unknown player {head!r}; available: {names}")
        factory = _REGISTRY[head]
        opts = _options(spec, ":".join(parts[1:]))
    typed = _check_options(spec, factory, opts)
    try:
        player = factory(**typed)
    except (TypeError, ValueError) as e:
        raise PlayerSpecError(f"player spec {spec!r}: {e}") from e
    except (Exception, SystemExit) as e:
        if not external:
            raise
        # a class of the user's code may raise anything while it is built
        raise PlayerSpecError(f"player spec {spec!r}: cannot build the player: {_why(e)}") from e
    if not callable(getattr(player, "act", None)):
        raise PlayerSpecError(f"player spec {spec!r}: the object has no act(view) method")
    return player
