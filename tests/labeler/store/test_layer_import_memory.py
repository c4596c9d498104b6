"""``gold import --layer`` in bounded memory: one annotator's labels from a large file, as a
real process under the address-space limit (``RLIMIT_AS``) of ``test_import_memory.py``,
which holds the interpreter and a batch of work but not the whole file.

Before the layer import was staged and written set-based, it read the whole file into
memory and held every resolved question until the last was written: on this file (60,000
questions of about 2.3 KB of text each) it went past the limit, ending in ``MemoryError``,
where it now peaks about where the plain ``gold import`` does.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from _limited import PAGES, QUESTIONS, SENTENCES, labeler, sentence, write_pages

#: 1,134 characters of a question's text (and again of its notes)
WORDY = "Which of these pages says what the question asks about? " * 20 + "Answer on any."


def test_a_layer_import_stays_within_a_memory_limit(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    write_pages(pages)
    db = str(tmp_path / "labels.db")
    proc = labeler("ingest", "-q", str(pages), "--db", db, memory=None)
    assert proc.returncode == 0, proc.stderr
    # an ``--layer all`` export's shape: each question with ana's label and bob's, done by
    # both; every fourth line says ana has not finished it ("done_by" without her)
    gold = tmp_path / "all.jsonl"
    with gold.open("w", encoding="utf-8") as out:
        for q in range(QUESTIONS):
            d, s = q % PAGES, (q // PAGES) % SENTENCES
            elements = [
                {"doc": f"p{d:02}.txt", "text": sentence(d, s), "layer": "annotator",
                 "annotator": "ana"},
                {"doc": f"p{d:02}.txt", "text": sentence(d, (s + 1) % SENTENCES),
                 "layer": "annotator", "annotator": "bob"},
            ]  # fmt: skip
            done_by = ["bob"] if q % 4 == 3 else ["ana", "bob"]
            # a long question and notes: what reading the whole file first held of each
            line = {"query_id": f"q{q}", "query": f"Question {q}? {WORDY}",
                    "notes": f"Notes {q}: {WORDY}", "elements": elements}  # fmt: skip
            out.write(json.dumps(line | {"done_by": done_by}) + "\n")
    layer = ("--gold-set", "team", "--layer", "--annotator", "ana", "--actor", "ana")
    proc = labeler("gold", "import", "-q", str(gold), *layer, "--db", db)
    assert proc.returncode == 0, proc.stderr
    # hand-worked: every line is ana's (one element each); a quarter not done by her
    done = QUESTIONS - QUESTIONS // 4
    assert proc.stdout == (
        "imported ana's layer into 'team' (new team gold set): 60000 questions (60000 "
        f"created), 60000 elements (0 earlier ones replaced), {done} marked done (0 with "
        "no answer)\n"
    )
    # the same file again replaces every one of her labels (removed, audited, added again)
    proc = labeler("gold", "import", "-q", str(gold), *layer, "--db", db)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(
        "imported ana's layer into 'team': 60000 questions (0 created), 60000 elements "
        "(60000 earlier ones replaced)"
    )
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "SELECT (SELECT count(*) FROM element WHERE annotator = 'ana' AND layer = "
            "'annotator'), (SELECT count(*) FROM element), (SELECT count(*) FROM "
            "question_done WHERE annotator = 'ana'), (SELECT count(*) FROM audit_entry "
            "WHERE action = 'remove' AND entity = 'element')"
        ).fetchone()
    assert found == (QUESTIONS, QUESTIONS, done, QUESTIONS)
