"""``skat research KIND``: the experiments of the papers this engine reproduces.

Each kind is one module of this package with ``add_command(kinds)``, which adds its
subparser (with its own options, help, ``check`` and ``func``, as every command of
:mod:`skat.cli`). The computations live in :mod:`skat.research`; these modules only check the
options, show progress, print the tables and write ``--json``/``--plot`` outputs. Every kind
takes an explicit ``--seed`` (or draws and prints one) so that any run can be repeated.
"""

from __future__ import annotations

import argparse
from types import ModuleType

KINDS_HELP = "'skat research KIND --help' describes KIND and its options."


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research`` with every kind of :func:`_modules`."""
    r = sub.add_parser(
        "research",
        help="the papers' experiments (synthetic trees, Kuhn poker, ...)",
        description=f"Reproductions of the experiments of the source papers. {KINDS_HELP}",
    )
    kinds = r.add_subparsers(dest="kind", metavar="KIND", required=True)
    for module in _modules():
        module.add_command(kinds)


def _modules() -> list[ModuleType]:
    """The kinds' modules, imported here so that the layer test sees each of them."""
    from skat.cli.research import (
        bcd,
        iimc,
        kontra,
        kuhn,
        pcut_error,
        prefix_trees,
        properties,
        ramsch,
        softmaxn,
        spades,
        sure_games,
        synthetic,
        threshold_estimate,
        thresholds,
    )

    return [
        kuhn,
        synthetic,
        properties,
        bcd,
        prefix_trees,
        pcut_error,
        spades,
        thresholds,
        threshold_estimate,
        iimc,
        kontra,
        ramsch,
        softmaxn,
        sure_games,
    ]
