"""The package's layers: no module imports a module of a higher layer.

Every module of ``python/skat`` is parsed (ast) and every import in it, at module level or
inside a function (lazy imports count too), is resolved to a module of the package. The layers
are listed below, lowest first; a module may import modules of its own layer or lower ones.
A module that no layer names fails the test, so that each new module is placed on purpose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "skat"

# Lowest first. A name stands for the module and everything below it.
LAYERS: list[tuple[str, ...]] = [
    ("skat._core",),
    (
        "skat",
        "skat.records",
        "skat.display",
        "skat.defaults",
        "skat.seeds",
        "skat.parallel",
        "skat.tables",
        "skat.variants",
    ),
    (
        "skat.bidding",
        "skat.inference",
        "skat.analysis",
        "skat.players",
        "skat.match",
        "skat.encoding",
    ),
    ("skat.ui", "skat.web", "skat.env", "skat.openspiel"),
    (
        "skat.tournament",
        "skat.tournament_results",
        "skat.tournament_records",
        "skat.tournament_breakdown",
        "skat.tournament_clones",
        "skat.tournament_resume",
        "skat.bench",
    ),
    ("skat.tournament_table",),
    ("skat.training", "skat.research"),
    ("skat.cli", "skat.__main__"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    """The layer of ``module``: that of the longest name in :data:`LAYERS` covering it."""
    best: tuple[int, int] | None = None
    for level, names in enumerate(LAYERS):
        for name in names:
            covers = module == name or (name != "skat" and module.startswith(name + "."))
            if covers and (best is None or len(name) > best[0]):
                best = (len(name), level)
    return None if best is None else best[1]


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of a ``skat`` module in the file."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(source: str, package: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a ``skat`` module in ``source``, a module of
    ``package`` (relative imports are resolved against it)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            # "from skat import cli" imports the module skat.cli, not a name of skat
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if layer_of(sub) != layer_of(base) else base))
    return [(line, m) for line, m in found if m == "skat" or m.startswith("skat.")]


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    missing = [module_name(p) for p in modules() if layer_of(module_name(p)) is None]
    assert not missing, f"modules in no layer of tests/test_layers.py: {missing}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: module_name(p))
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    here = layer_of(module_name(path))
    assert here is not None
    bad = [
        f"line {line}: {target} (layer {layer_of(target)} > {here})"
        for line, target in imports_of(path)
        if (layer_of(target) or 0) > here
    ]
    assert not bad, f"{module_name(path)} imports a higher layer: {bad}"


def test_the_check_sees_violations() -> None:
    """The checker itself: lazy and relative imports of higher layers in a player module."""
    source = (
        "import os\n"
        "from skat._core import Deal\n"
        "def f() -> None:\n"
        "    from skat.cli import main\n"
        "    from ..training import fit\n"
        "    import skat.tournament\n"
    )
    found = imports_in(source, "skat.players")
    assert found == [
        (2, "skat._core"),
        (4, "skat.cli"),
        (5, "skat.training"),
        (6, "skat.tournament"),
    ]
    here = layer_of("skat.players.probe")
    assert here == 2
    assert [m for _, m in found if (layer_of(m) or 0) > here] == [
        "skat.cli",
        "skat.training",
        "skat.tournament",
    ]
    assert layer_of("skat.web.app") == 3 and layer_of("skat.tournament") == 4
    assert layer_of("skat.unplaced") is None
