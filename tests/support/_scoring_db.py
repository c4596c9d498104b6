"""A real scoring database for the tests: corpus pages, a seeded gold set and two runs.

Questions with one to three elements, questions without elements, repeated elements,
elements on two pages; runs cut from the pages (chunks holding elements whole or in part,
chunks from other pages), questions missing from a run, run lines for questions not in the
gold set.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from labeler.cli import main
from labeler.extract import page_text

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"
PAGES = ["lang_transaction.html", "foreignkeys.html", "wal.html", "lang_select.html"]
SENTENCE = re.compile(r"[A-Z][^.]{30,160}\.")


def build(
    tmp_path: Path,
    seed: int = 11,
    *,
    runs_first: bool = False,
    db: str | None = None,
    offsets: bool = False,
) -> str:
    """Ingest the pages, import the gold set "g" and the runs "a" and "b" (after the gold
    set, or before it with ``runs_first``) into ``db`` (default: a new SQLite file in
    ``tmp_path``); the ``--db`` value. With ``offsets`` every result carries its page and
    offsets, one in eight of them off by one (another extractor's offsets)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    texts = {}
    for name in PAGES:
        data = (CORPUS / name).read_bytes()
        (docs / name).write_bytes(data)
        texts[name] = page_text(data)
    db = db or str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", db, "-q"]) == 0
    rng = random.Random(seed)
    gold, runs = [], {"a": [], "b": []}
    for i in range(90):
        qid = f"q{i:03d}"
        if i % 17 == 0:
            gold.append({"query_id": qid, "query": f"unlabelled {i}", "elements": []})
            continue
        docs_used = rng.sample(PAGES, k=2 if i % 7 == 0 else 1)
        elements = []
        for doc in docs_used:
            found = list(SENTENCE.finditer(texts[doc]))
            for m in rng.sample(found, k=rng.choice((1, 1, 2, 3))):
                elements.append({"doc": doc, "text": m.group()})
        gold.append({"query_id": qid, "query": f"question {i}", "elements": elements})
        for run in runs.values():
            if rng.random() < 0.08:
                continue  # missing from this run
            results = []
            for _ in range(rng.randint(1, 12)):
                name = rng.choice(docs_used if rng.random() < 0.7 else PAGES)
                page = texts[name]
                anchor = rng.choice(elements)["text"]
                at = page.find(anchor)
                start = max(0, at - rng.randint(0, 300)) if at >= 0 else rng.randint(0, 5000)
                text = page[start : start + rng.choice((120, 400, 800))]
                if offsets:
                    shift = 1 if rng.random() < 0.125 else 0
                    at = start + shift
                    results.append({"text": text, "doc": name, "start": at, "end": at + len(text)})
                else:
                    results.append({"text": text})
            run.append({"query_id": qid, "results": results})
    for name, run in runs.items():
        run.append({"query_id": f"extra-{name}", "results": [{"text": "not in the gold set"}]})
    gold_file = tmp_path / "gold.jsonl"
    gold_file.write_text("".join(json.dumps(g) + "\n" for g in gold))
    if not runs_first:
        assert main(["gold", "import", str(gold_file), "--gold-set", "g", "--db", db]) == 0
    for name, run in runs.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in run))
        assert main(["run", "import", str(path), "--name", name, "--db", db, "-q"]) == 0
    if runs_first:
        assert main(["gold", "import", str(gold_file), "--gold-set", "g", "--db", db]) == 0
    return db
