"""Collection for the doctest run over ``python/skat``: the optional learning interfaces are
left out when their packages are missing (their tests in ``tests/`` skip with one line)."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    path
    for path, package in (
        ("python/skat/openspiel.py", "pyspiel"),
        ("python/skat/env.py", "pettingzoo"),
    )
    if importlib.util.find_spec(package) is None
]
