"""Shared fixtures for store and ingest tests: real SQLite files in tmp_path, no mocks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from labeler.store import Store, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "labels.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    opened = open_store(str(db_path))
    try:
        yield opened
    finally:
        opened.close()
