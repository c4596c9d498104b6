"""Fixtures for the TUI tests: a real SQLite store with two pages and one gold set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_support import seed_store

from labeler.store import Store, open_store


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "labels.db"
    seed_store(path)
    return path


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    opened = open_store(str(db))
    try:
        yield opened
    finally:
        opened.close()
