"""The documentation stays testable and self-contained.

The ``>>>`` examples of README.md and docs/*.md are run by ``python -m pytest
--doctest-glob='*.md' README.md docs`` (a step of ``scripts/check``). These tests keep the
pages in that form: Python examples are ``pycon`` doctests (a ``python`` block would never be
run), there are enough of them, and no page points at files outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
# Words that tell how the project was built rather than what it is.
HISTORY = re.compile(r"\b(session|issue|wave) \d+|\bthis morning\b", re.IGNORECASE)


def test_every_page_has_examples() -> None:
    counts = {p.name: p.read_text().count("\n>>> ") for p in DOCS}
    assert counts["README.md"] > 0 and counts["rules.md"] > 0, counts
    assert sum(counts.values()) > 15, counts


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_untested_python_blocks_or_outside_paths(path: Path) -> None:
    text = path.read_text()
    assert "```python" not in text, "Python examples are written as ```pycon doctests"
    assert not re.search(r"\.\./shared|shared/(docs|data)", text), "a path outside the repository"


@pytest.mark.parametrize("path", [*DOCS, RESULTS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_pages_describe_the_project_not_its_history(path: Path) -> None:
    found = HISTORY.findall(path.read_text())
    assert not found, f"history words in {path.name}: {found}"


def test_results_cite_only_existing_json() -> None:
    text = RESULTS.read_text()
    cited = set(re.findall(r"benchmarks/results/([\w.-]+\.json)", text))
    present = {p.name for p in (ROOT / "benchmarks" / "results").glob("*.json")}
    assert cited <= present, f"cited but missing: {sorted(cited - present)}"
    assert present <= cited, f"kept but never cited: {sorted(present - cited)}"
