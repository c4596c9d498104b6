"""``labeler search``: ranked results as a table or JSON, with a gold set's elements; bad
input says why, exits non-zero and changes nothing. Run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process

from labeler.store import (
    Store,
    add_query,
    attach_element,
    create_gold_set,
    upsert_document,
)

PAGES = {
    "guide/wal.html": "WAL mode: set the journal_mode to WAL. Readers go on while one writes.",
    "notes.txt": "The journal mode matters. Remember journal_mode, and journal_mode again.",
    "other.txt": "Nothing about that here, only pages and sizes.",
}


def labeler(*args: str) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args)


def fill(store: Store) -> int:
    """The three pages; gold set g with q1's element on notes.txt (journal_mode at 24)."""
    with store.write() as s:
        for doc_id, text in PAGES.items():
            upsert_document(
                s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="t", text=text
            )
        gs = create_gold_set(s, "g", "")
        q = add_query(s, gs, "q1", "Which setting?", actor="t")
        assert q.id is not None
        start = PAGES["notes.txt"].index("journal_mode")
        attach_element(s, q.id, "notes.txt", start, start + 12, annotator="t")
    return start


@pytest.mark.backends("sqlite", "postgresql")
def test_search_as_json_and_table(store: Store, db_url: str) -> None:
    start = fill(store)
    done = labeler("search", "journal_mode", "--db", db_url, "--gold-set", "g", "--format", "json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["query"] == "journal_mode" and out["total"] == 2 and out["gold_set"] == "g"
    by_id = {r["doc_id"]: r for r in out["results"]}
    assert set(by_id) == {"guide/wal.html", "notes.txt"}  # other.txt holds neither word
    assert by_id["notes.txt"]["elements"] == [{"question": "q1", "start": start, "end": start + 12}]
    assert by_id["guide/wal.html"]["elements"] == []
    for r in out["results"]:
        assert r["matched_by"] == "text" and r["rank"] > 0
        assert "«journal" in r["snippet"].lower()
        assert r["position"] == PAGES[r["doc_id"]].index("journal_mode")

    table = labeler("search", "journal_mode", "--db", db_url, "--gold-set", "g")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[-1] == "2 page(s) match 'journal_mode'"
    assert f"    elements: q1:{start}-{start + 12}" in lines
    assert "    elements: none" in lines

    # an id match comes first, marked as such (rank "id", no snippet)
    by_name = labeler("search", "wal.html", "--db", db_url)
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout.splitlines() == ["guide/wal.html\tid\t", "1 page(s) match 'wal.html'"]
    # --limit cuts and says so
    cut = labeler("search", "journal_mode", "--db", db_url, "--limit", "1")
    assert cut.returncode == 0, cut.stderr
    assert len(cut.stdout.splitlines()) == 2
    assert cut.stdout.splitlines()[-1] == (
        "2 page(s) match 'journal_mode' (the best 1 shown; --limit for more)"
    )


def test_a_quoted_phrase_on_the_command_line(store: Store, db_url: str) -> None:
    fill(store)
    done = labeler("search", '"journal mode"', "--db", db_url, "--format", "json")
    assert done.returncode == 0, done.stderr
    # notes.txt has "journal mode" and journal_mode; wal.html journal_mode (the same words)
    assert {r["doc_id"] for r in json.loads(done.stdout)["results"]} == {
        "guide/wal.html",
        "notes.txt",
    }
    apart = labeler("search", '"mode journal"', "--db", db_url)
    assert apart.returncode == 1 and apart.stdout.strip() == "no page matches '\"mode journal\"'"


def test_bad_input_says_why_and_exits_non_zero(store: Store, db_url: str, tmp_path: Path) -> None:
    fill(store)
    cases = [
        (["search", "", "--db", db_url], 2, "the search query is empty"),
        (["search", "x", "--db", db_url, "--limit", "0"], 2, "--limit must be at least 1"),
        (["search", "x", "--db", db_url, "--limit", "many"], 2, "invalid int value"),
        (["search", "x", "--db", db_url, "--gold-set", "nope"], 1, "no gold set 'nope'"),
        (["search", "x", "--db", db_url, "--format", "xml"], 2, "invalid choice"),
    ]
    for argv, code, words in cases:
        done = labeler(*argv)
        assert done.returncode == code, (argv, done.stderr)
        assert words in done.stderr, (argv, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == ""
    missing = tmp_path / "none.db"
    done = labeler("search", "x", "--db", str(missing))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"labeler: error: no database at {missing} "
        "(create one with labeler ingest PATH..., or labeler demo)"
    )
    assert not missing.exists()  # a search only reads: no database is made
