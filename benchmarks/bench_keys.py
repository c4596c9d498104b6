"""What key clauses change on the bundled requirements gold set, per chunker.

    python benchmarks/bench_keys.py [--out DIR]

Ingests the pages ``corpora/sqlite-docs/gold/requirements.jsonl`` cites into a fresh
database in ``DIR`` (a temporary folder by default), imports the gold set (104 of its
elements carry a key clause, see ``labeler/keyclause.py``), chunks the pages as the demo does
(800-token windows and structure chunks), retrieves with BM25 using each requirement's own
text as the query (the question ids say nothing), and scores both runs. Prints Hit@k,
Partial@k and the questions whose partial a key clause turned into a miss ("key lost");
Partial@k without keys is Partial@k plus key lost ÷ questions.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labeler.demo import CORPUS, chunk_pages, fixed_run_name  # noqa: E402
from labeler.evaluation import build_index, evaluate, write_run  # noqa: E402
from labeler.formats.gold_jsonl import read_gold  # noqa: E402
from labeler.gold import import_gold_file  # noqa: E402
from labeler.pages import ingest_paths  # noqa: E402
from labeler.runs import import_run_file  # noqa: E402
from labeler.store import open_store  # noqa: E402
from labeler.store.goldsets import page_texts  # noqa: E402

KS = (1, 3, 5, 10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="work folder (default: temporary)")
    args = parser.parse_args()
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="bench-keys-"))
    started = time.perf_counter()
    gold = CORPUS / "gold" / "requirements.jsonl"
    pages = sorted({e.doc for line in read_gold(gold) for e in line.elements})
    docs = out / "docs"
    for doc in pages:
        (docs / doc).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / doc, docs / doc)
    store = open_store(str(out / "labels.db"))
    ingest_paths(store, [docs])
    questions, _ = import_gold_file(store, gold, "requirements", annotator="bench", replace=True)
    with store.session() as session:
        texts = page_texts(session, pages)
    fixed, structure = chunk_pages(texts, CORPUS, size=800)
    asked = [dataclasses.replace(q, query=q.elements[0].text) for q in questions]
    print(f"{len(questions)} questions on {len(pages)} pages")
    print(f"{'run':<12}{'k':>4}{'hit':>8}{'partial':>9}{'key lost':>10}{'without keys':>14}")
    for name, chunks in ((fixed_run_name(800), fixed), ("structure", structure)):
        path = out / f"{name}.jsonl"
        write_run(asked, build_index(chunks), max(KS), path)
        import_run_file(store, path, name, replace=True)
        result = evaluate(store, "requirements", name, ks=KS).result
        n = len(result.queries)
        for k in KS:
            lost = result.key_lost_count(k)
            partial = result.value("partial", k)
            print(
                f"{name:<12}{k:>4}{result.value('hit', k):>8.4f}{partial:>9.4f}{lost:>10}"
                f"{partial + lost / n:>14.4f}"
            )
    store.close()
    print(f"keys: {result.keys} elements; {time.perf_counter() - started:.0f} s; work folder {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
