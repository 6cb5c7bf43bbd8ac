"""Shared fixtures: where the ISS records are, and small helpers to script games."""

from __future__ import annotations

import os
from pathlib import Path

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
