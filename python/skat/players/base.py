"""The player protocol, the registry of named players and the spec-string parser."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from skat._core import Action, SkatError, View


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


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _options(spec: str, text: str) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if not text:
        return opts
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise PlayerSpecError(f"player spec {spec!r}: option {part!r} is not key=value")
        opts[key.strip()] = _value(value.strip())
    return opts


def _load_class(spec: str, where: str, name: str) -> Callable[..., Player]:
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
            loader_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise PlayerSpecError(f"player spec {spec!r}: cannot import {where}: {e}") from e
    cls = getattr(module, name, None)
    if cls is None or not callable(cls):
        raise PlayerSpecError(f"player spec {spec!r}: {where} has no class {name}")
    return cls  # type: ignore[no-any-return]


def _check_options(spec: str, factory: Callable[..., Player], opts: dict[str, Any]) -> None:
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return
    params = sig.parameters
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return
    known = [n for n, p in params.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    unknown = [k for k in opts if k not in known]
    if unknown:
        raise PlayerSpecError(
            f"player spec {spec!r}: unknown option(s) {', '.join(unknown)};"
            f" options: {', '.join(known) or '(none)'}"
        )


def make_player(spec: str) -> Player:
    """Builds a player from a spec.

    - ``name[:key=value,...]``: a registered player (``random``, ...);
    - ``package.module:ClassName[:key=value,...]`` or ``path/to/file.py:ClassName[:...]``:
      any class, called with the options as keyword arguments.

    Option values are read as bool (true/false), int, float or text.
    """
    parts = spec.strip().split(":")
    head = parts[0]
    if not head:
        raise PlayerSpecError("empty player spec")
    if "." in head or "/" in head:
        if len(parts) < 2 or not parts[1]:
            raise PlayerSpecError(f"player spec {spec!r}: expected {head}:ClassName[:options]")
        factory = _load_class(spec, head, parts[1])
        opts = _options(spec, ":".join(parts[2:]))
    else:
        if head not in _REGISTRY:
            names = ", ".join(available_players()) or "(none)"
            raise PlayerSpecError(f"unknown player {head!r}; available: {names}")
        factory = _REGISTRY[head]
        opts = _options(spec, ":".join(parts[1:]))
    _check_options(spec, factory, opts)
    try:
        player = factory(**opts)
    except (TypeError, ValueError) as e:
        raise PlayerSpecError(f"player spec {spec!r}: {e}") from e
    if not callable(getattr(player, "act", None)):
        raise PlayerSpecError(f"player spec {spec!r}: the object has no act(view) method")
    return player
