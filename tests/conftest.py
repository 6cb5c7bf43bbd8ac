"""Shared fixtures: where the ISS records are, and small helpers to script games."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import skat

# CI runs a fixed set of examples so that a run is reproducible; locally hypothesis explores.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
ISS_DIR = ROOT / "tests" / "data" / "iss"


def iss_files() -> list[Path]:
    return sorted(ISS_DIR.glob("*.sgf"))


@pytest.fixture
def iss_lines() -> list[str]:
    files = iss_files()
    assert files, f"no ISS records under {ISS_DIR}"
    return [line.strip() for f in files for line in f.read_text().splitlines() if line.strip()]


def play(game: skat.Game, tokens: str) -> skat.Game:
    """Applies space-separated ISS tokens for whoever is to move."""
    for t in tokens.split():
        game.apply(t)
    return game


def deal_of(forehand: str, middlehand: str, rearhand: str, skat_cards: str) -> skat.Deal:
    return skat.Deal((forehand, middlehand, rearhand), skat_cards)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A PostgreSQL server for this test run (the ``pgserver`` wheel of the test extra); the
    tests that need one skip without it, except in CI."""
    try:
        from pgserver.postgres_server import get_server
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("pgserver is not installed (pip install -e '.[test]')")
    server = get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="stop")
    yield server
    server.cleanup()


@pytest.fixture
def postgres_url(postgres_server: Any, request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty database on the test server."""
    import psycopg

    name = "t_" + "".join(ch if ch.isalnum() else "_" for ch in request.node.name.lower())[:50]
    base = postgres_server.get_uri()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return str(base).replace("/postgres?", f"/{name}?", 1)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind ``skat serve --db`` keeps lists in."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite")
    return str(request.getfixturevalue("postgres_url"))
