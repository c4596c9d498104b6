"""Annotators of ``labeler serve`` (issue 16): tokens, hashes, revoke, rotate, the CLI.

Real databases on both backends; the CLI runs as a real process.
"""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process
from _db_dump import dump

from labeler.errors import StoreError, UsageError
from labeler.serve.sessions import Sessions
from labeler.store import Store, open_store
from labeler.store.annotators import (
    add_annotator,
    annotator_for_token,
    list_annotators,
    revoke,
    rotate_token,
)
from labeler.store.migrations import ANNOTATORS_VERSION, MIGRATIONS

pytestmark = pytest.mark.backends("sqlite", "postgresql")
REPO = Path(__file__).resolve().parents[3]


def every_value(db: str) -> str:
    """Every stored value of every table, annotator included, as one string."""
    with open_store(db) as store, store.session() as s:
        conn = s.connection()
        rows = [
            repr(tuple(r))
            for table in ("annotator", "audit_entry", "schema_version")
            for r in conn.exec_driver_sql(f"SELECT * FROM {table}")
        ]
    return "\n".join(rows) + repr(dump(db))


def test_annotator_table_is_its_own_step() -> None:
    assert MIGRATIONS[ANNOTATORS_VERSION - 1].version == ANNOTATORS_VERSION


def test_token_is_random_url_safe_and_stored_only_as_its_hash(store: Store, db_url: str) -> None:
    with store.write() as s:
        token = add_annotator(s, "alice", actor="owner")
        other = add_annotator(s, "bob", actor="owner")
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token) and token != other
    # 43 URL-safe base64 characters without padding = 32 bytes = 256 bits (>= 128 asked)
    assert len(base64.urlsafe_b64decode(token + "=")) == 32
    stored = every_value(db_url)
    assert token not in stored and other not in stored
    assert hashlib.sha256(token.encode()).hexdigest() in stored  # the hash, independently
    with store.session() as s:
        assert annotator_for_token(s, token) == "alice"
        assert annotator_for_token(s, other) == "bob"
        assert annotator_for_token(s, token[:-1]) is None
        assert annotator_for_token(s, "") is None


def test_revoke_and_rotate(store: Store) -> None:
    with store.write() as s:
        token = add_annotator(s, "alice", actor="owner")
    with store.write() as s:
        assert revoke(s, "alice") is True
        assert revoke(s, "alice") is False  # already revoked
    with store.session() as s:
        assert annotator_for_token(s, token) is None
        [row] = list_annotators(s)
        assert row.name == "alice" and not row.active
    with store.write() as s:
        fresh = rotate_token(s, "alice")
    with store.session() as s:
        assert annotator_for_token(s, token) is None  # the old link stays dead
        assert annotator_for_token(s, fresh) == "alice"
        assert list_annotators(s)[0].active


def test_refusals_leave_the_database_as_it_was(store: Store, db_url: str) -> None:
    with store.write() as s:
        add_annotator(s, "alice", actor="owner")
    before = every_value(db_url)
    for bad in ("", " alice", "a\tb", "x" * 101):
        with pytest.raises(UsageError), store.write() as s:
            add_annotator(s, bad, actor="owner")
    with pytest.raises(StoreError, match="exists already"), store.write() as s:
        add_annotator(s, "alice", actor="owner")
    missing = r"no annotator 'bob' in the database \(annotators: alice\)"
    with pytest.raises(StoreError, match=missing), store.write() as s:
        revoke(s, "bob")
    assert every_value(db_url) == before


def labeler(*args: str) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args)


def test_cli_prints_the_link_once_and_lists_without_tokens(db_url: str) -> None:
    added = labeler("annotators", "add", "alice", "--db", db_url)
    assert added.returncode == 0, added.stderr
    link = added.stdout.strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:8000/\?token=[A-Za-z0-9_-]{43}", link)
    token = link.split("=", 1)[1]
    rotated = labeler(
        "annotators",
        "rotate",
        "alice",
        "--public-url",
        "https://labels.example.org/",
        "--db",
        db_url,
    )
    assert rotated.returncode == 0, rotated.stderr
    assert rotated.stdout.startswith("https://labels.example.org/?token=")
    assert token not in rotated.stdout
    listed = labeler("annotators", "list", "--db", db_url)
    assert listed.stdout.startswith("alice\tannotator\tactive\t")
    assert token not in listed.stdout + listed.stderr
    assert labeler("annotators", "revoke", "alice", "--db", db_url).returncode == 0
    assert "\trevoked " in labeler("annotators", "list", "--db", db_url).stdout
    bad_url = labeler("annotators", "add", "bob", "--public-url", "ftp://x", "--db", db_url)
    assert bad_url.returncode == 2 and "--public-url" in bad_url.stderr
    assert labeler("annotators", "revoke", "carol", "--db", db_url).returncode == 1


@pytest.mark.backends("sqlite")
def test_sessions_cap_and_expiry() -> None:
    sessions = Sessions(limit=2, idle_timeout=10)
    a = sessions.open("alice", "h1", now=0)
    b = sessions.open("bob", "h2", now=0)
    assert a is not None and b is not None and sessions.full
    assert sessions.open("carol", "h3", now=0) is None
    b.last_input = 5
    # at 12: alice idle for 12 s > 10, bob for 7 s; nobody revoked
    assert sessions.expired({"h1", "h2"}, now=12) == [(a, "idle")]
    # bob's token gone (revoked or rotated): revoked wins over idle
    assert sessions.expired({"h1"}, now=16) == [(a, "idle"), (b, "revoked")]
    sessions.close(a)
    assert not sessions.full and sessions.open("carol", "h3", now=16) is not None
