"""Imports in bounded memory: ``gold import`` and ``run import`` as real processes under an
address-space limit (``RLIMIT_AS``) that holds the interpreter and one batch of work but not
a whole large file, nor every label of a large database, in memory.

Before imports were staged and batched, ``gold import`` held every line of its file in memory
(about 3 KB a question) and went past this limit here, ending in ``MemoryError``; ``run
import`` held every label of the database and every chunk position it had found, and mapped
265 MB on this run (VmPeak; 221 MB now).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from _limited import PAGES, QUESTIONS, SENTENCES, labeler, sentence, write_pages


def test_gold_and_run_imports_stay_within_a_memory_limit(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    write_pages(pages)
    db = str(tmp_path / "labels.db")
    proc = labeler("ingest", "-q", str(pages), "--db", db, memory=None)
    assert proc.returncode == 0, proc.stderr
    gold = tmp_path / "gold.jsonl"
    with gold.open("w", encoding="utf-8") as out:
        for q in range(QUESTIONS):
            d, s = q % PAGES, (q // PAGES) % SENTENCES
            element = {"doc": f"p{d:02}.txt", "text": sentence(d, s)}
            line = {"query_id": f"q{q}", "query": f"Question {q}?", "elements": [element]}
            out.write(json.dumps(line) + "\n")
    proc = labeler("gold", "import", str(gold), "--gold-set", "big", "--db", db)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("imported gold set 'big': 60000 questions, 60000 elements")
    # a run over every question, each chunk a sentence of its question's page
    run = tmp_path / "run.jsonl"
    with run.open("w", encoding="utf-8") as out:
        for q in range(QUESTIONS):
            d, s = q % PAGES, (q // PAGES) % SENTENCES
            results = [
                {"text": sentence(d, (s + r) % SENTENCES), "doc": f"p{d:02}.txt"} for r in range(5)
            ]
            out.write(json.dumps({"query_id": f"q{q}", "results": results}) + "\n")
    proc = labeler("run", "import", "-q", str(run), "--name", "r", "--db", db)
    assert proc.returncode == 0, proc.stderr
    with sqlite3.connect(db) as conn:
        counts = conn.execute(
            "SELECT count(*), sum(located), count(DISTINCT query_external_id) FROM run_result"
        ).fetchone()
        elements = conn.execute("SELECT count(*) FROM element").fetchone()
    # every chunk of the run was found on its question's labelled page (hand-worked: the
    # sentences are distinct, and each is on its page)
    assert counts == (5 * QUESTIONS, 5 * QUESTIONS, QUESTIONS)
    assert elements == (QUESTIONS,)
