"""Benchmark: the chunk audit's Ω ceilings and the span metrics on Chroma's own data.

Usage::

    python benchmarks/bench_chroma.py DATA_DIR [--chroma-module FILE] [--work DIR]
        [--windows 800/400,200/0] [--top 10]

``DATA_DIR`` is the ``general_evaluation_data`` folder of Chroma's chunking evaluation
(``corpora/*.md`` and ``questions_df.csv``, whose references carry their character offsets).
The script builds a labeller database in ``--work`` (default: a fresh temporary folder):

1. it ingests the five corpora as ``.md`` pages (the ``text`` profile keeps a page's text as
   the file's text; this is checked, and a difference stops the script);
2. it imports the 472 questions as a gold set, one element per reference, at the
   reference's offsets (query ids are the questions' row numbers in the CSV);
3. for each ``SIZE/OVERLAP`` in ``--windows`` it runs ``labeler chunks make --chunker fixed``
   and ``labeler chunks audit --format json``;
4. it ranks each question's chunks with the bundled BM25 (top ``--top``), writes the run as
   run JSONL with each result's ``doc``, ``start`` and ``end``, imports it and scores it with
   ``labeler score --per-query``.

With ``--chroma-module`` (the path of ``base_evaluation.py`` in a checkout of Chroma's
``chunking_evaluation``), the same chunks and the same ranked lists are also scored by that
module's own functions: Precision_Ω per question, and recall, precision and IoU at each k.
The module is loaded from its file with stand-ins for the packages it imports at the top
(chromadb, its embedding helpers, pandas, numpy). The two functions used need none of them.
The script then prints, per window, both means and the largest difference per question.
Without it, only the project's figures are printed. Nothing is written outside ``--work``.

A labeller whose run import does not keep results' offsets places each chunk at the first
occurrence of its text, and its span metrics then differ from Chroma's on pages that repeat
text. For each span line, "N without repeated text" counts the differing questions whose top
k hold no chunk whose text occurs earlier on its page. It is 0 when repeated text explains
every difference.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.util
import io
import json
import shutil
import sys
import tempfile
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labeler.cli import main  # noqa: E402

KS = (1, 3, 5, 10)
SPAN = ("span_recall", "span_precision", "span_iou")


def labeler(*args: str) -> str:
    """Run one labeller command in this process; its stdout, or exit on failure."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(args))
    if status != 0:
        sys.exit(f"labeler {' '.join(args)}: exit status {status}")
    return out.getvalue()


def read_questions(data: Path) -> list[dict[str, Any]]:
    """The questions of ``questions_df.csv`` in file order, references parsed."""
    with (data / "questions_df.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return [{**r, "references": json.loads(r["references"])} for r in rows]


def build_database(
    data: Path, work: Path, questions: list[dict[str, Any]]
) -> tuple[str, dict[str, str]]:
    """Ingest the corpora and import the gold set; return the database path and the pages'
    stored texts."""
    corpora = work / "corpora"
    corpora.mkdir()
    files = sorted((data / "corpora").glob("*.md"))
    for f in files:
        shutil.copyfile(f, corpora / f.name)
    db = str(work / "chroma.db")
    labeler("ingest", str(corpora), "--db", db, "-q")
    from labeler import api

    with api.open(db, create=False) as database:
        stored = database.source().page_texts([f.name for f in files])
    for f in files:
        # Chroma reads the corpora in text mode; no file here has a CR for it to translate
        if stored.get(f.name) != f.read_text(encoding="utf-8"):
            sys.exit(f"{f.name}: the stored page text is not the file's text")
    gold = work / "gold.jsonl"
    with gold.open("w", encoding="utf-8") as out:
        for number, q in enumerate(questions):
            elements = [
                {
                    "doc": f"{q['corpus_id']}.md",
                    "start": r["start_index"],
                    "end": r["end_index"],
                    "text": r["content"],
                }
                for r in q["references"]
            ]
            row = {"query_id": str(number), "query": q["question"], "elements": elements}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    labeler("gold", "import", str(gold), "--gold-set", "chroma", "--db", db)
    return db, stored


def read_chunks(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def ranked_run(chunks: list[dict[str, Any]], questions: list[dict[str, Any]], top: int) -> Any:
    """Per question, its top chunks by the bundled BM25, best first."""
    from labeler.chunks import Chunk
    from labeler.evaluation import build_index, retrieve

    index = build_index(Chunk(c["doc"], c["start"], c["end"], c["text"]) for c in chunks)
    return [[c for c, _ in retrieve(index, q["question"], top)] for q in questions]


def write_run(path: Path, ranked: Sequence[Sequence[Any]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for number, results in enumerate(ranked):
            rows = [{"text": c.text, "doc": c.doc, "start": c.start, "end": c.end} for c in results]
            out.write(json.dumps({"query_id": str(number), "results": rows}) + "\n")


class _Questions:
    """What the Chroma functions read of their questions table: ``iterrows()``."""

    def __init__(self, questions: list[dict[str, Any]]) -> None:
        self.rows = questions

    def iterrows(self) -> Iterator[tuple[int, dict[str, Any]]]:
        return iter(enumerate(self.rows))


def load_chroma(module: Path, questions: list[dict[str, Any]]) -> Any:
    """An evaluation object of Chroma's module at ``module``, its questions ``questions``,
    built without its constructor (which opens a chromadb client)."""
    names = ["chromadb", "chromadb.utils", "chromadb.utils.embedding_functions", "pandas"]
    names += ["numpy", "chunking_evaluation", "chunking_evaluation.utils"]
    saved = {n: sys.modules.get(n) for n in names}
    for n in names:
        sys.modules[n] = types.ModuleType(n)
    helpers = sys.modules["chunking_evaluation.utils"]
    helpers.rigorous_document_search = helpers.get_openai_embedding_function = None  # type: ignore[attr-defined]
    sys.modules["chromadb"].utils = sys.modules["chromadb.utils"]  # type: ignore[attr-defined]
    utils = sys.modules["chromadb.utils"]
    utils.embedding_functions = sys.modules["chromadb.utils.embedding_functions"]  # type: ignore[attr-defined]
    try:
        spec = importlib.util.spec_from_file_location("chroma_base_evaluation", module)
        if spec is None or spec.loader is None:
            sys.exit(f"{module}: not a Python module")
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    evaluation = object.__new__(loaded.BaseEvaluation)
    evaluation.questions_df = _Questions(questions)
    return evaluation


def metadata(chunk_doc: str, start: int, end: int) -> dict[str, Any]:
    return {"start_index": start, "end_index": end, "corpus_id": chunk_doc.removesuffix(".md")}


def compare(
    name: str,
    ours: Sequence[float],
    theirs: Sequence[float] | None,
    elsewhere: Sequence[bool] | None = None,
) -> None:
    """Print both means, the largest difference per question and how many questions differ
    (by more than 1e-12); with ``elsewhere``, how many of those do not have a chunk whose
    text occurs earlier on its page (0 when placement by text explains every difference)."""
    mean = sum(ours) / len(ours)
    if theirs is None:
        print(f"  {name:<26} ours {mean:.6f}")
        return
    diffs = [abs(a - b) for a, b in zip(ours, theirs, strict=True)]
    differ = [d > 1e-12 for d in diffs]
    line = (
        f"  {name:<26} ours {mean:.6f}   Chroma {sum(theirs) / len(theirs):.6f}   "
        f"max |diff| {max(diffs):.3g}   differ {sum(differ)} of {len(diffs)}"
    )
    if elsewhere is not None:
        unexplained = sum(d and not e for d, e in zip(differ, elsewhere, strict=True))
        line += f" ({unexplained} without repeated text)"
    print(line)


def run_window(
    db: str,
    pages: dict[str, str],
    work: Path,
    questions: list[dict[str, Any]],
    window: tuple[int, int],
    top: int,
    chroma: Any,
) -> None:
    """Audit and score one fixed-window chunking; print the comparison."""
    size, overlap = window
    tag = f"fixed-{size}-{overlap}"
    chunk_file = work / f"{tag}.jsonl"
    window_args = ["--chunker", "fixed", "--size", str(size), "--overlap", str(overlap)]
    labeler("chunks", "make", *window_args, "-o", str(chunk_file), "--db", db)
    chunks = read_chunks(chunk_file)
    audit_args = [str(chunk_file), "--gold-set", "chroma", "--format", "json", "--db", db]
    audit = json.loads(labeler("chunks", "audit", *audit_args))
    ids = [str(n) for n in range(len(questions))]
    by_q = audit["omega_by_question"]
    print(f"{tag}: {len(chunks)} chunks, {len(questions)} questions")
    omega_theirs = None
    if chroma is not None:
        metas = [metadata(c["doc"], c["start"], c["end"]) for c in chunks]
        omega_theirs, _ = chroma._full_precision_score(metas)
    compare("iou_omega / Precision_Ω", [by_q[i]["iou_omega"] for i in ids], omega_theirs)
    compare("precision_omega / Prec_Ω", [by_q[i]["precision_omega"] for i in ids], omega_theirs)
    compare("precision_omega_paid", [by_q[i]["precision_omega_paid"] for i in ids], None)

    ranked = ranked_run(chunks, questions, top)
    run_file = work / f"{tag}-bm25.jsonl"
    write_run(run_file, ranked)
    labeler("run", "import", str(run_file), "--name", tag, "--replace", "--db", db, "-q")
    per_query = work / f"{tag}-per-query.jsonl"
    ks = ",".join(map(str, KS))
    score_args = ["--gold-set", "chroma", "--run", tag, "--k", ks, "--ci", "0", "--format", "json"]
    labeler("score", *score_args, "--per-query", str(per_query), "--db", db)
    rows = {r["query_id"]: r for r in read_chunks(per_query)}
    metrics = rows_metrics(rows, ids)
    finance = [n for n, q in enumerate(questions) if q["corpus_id"] == "finance"]
    for k in KS:
        # scoring without offsets places a chunk at its text's first occurrence
        elsewhere = [any(pages[c.doc].find(c.text) != c.start for c in r[:k]) for r in ranked]
        theirs: dict[str, list[float]] | None = None
        if chroma is not None:
            metas_k = [[metadata(c.doc, c.start, c.end) for c in r] for r in ranked]
            iou, recall, precision = chroma._scores_from_dataset_and_retrievals(
                metas_k, [k] * len(questions)
            )
            theirs = {"span_recall": recall, "span_precision": precision, "span_iou": iou}
        for m in SPAN:
            key = f"{m}@{k}"
            compare(key, metrics(key), None if theirs is None else theirs[m], elsewhere)
        key = f"span_recall@{k}"
        compare(
            f"{key} (finance)",
            [metrics(key)[n] for n in finance],
            None if theirs is None else [theirs["span_recall"][n] for n in finance],
            [elsewhere[n] for n in finance],
        )


def rows_metrics(rows: dict[str, Any], ids: list[str]) -> Callable[[str], list[float]]:
    def values(key: str) -> list[float]:
        return [float(rows[i]["metrics"][key]) for i in ids]

    return values


def main_(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="chunking_evaluation's general_evaluation_data")
    parser.add_argument("--chroma-module", type=Path, help="its base_evaluation.py")
    parser.add_argument("--work", type=Path, help="an empty folder for the database and files")
    parser.add_argument("--windows", default="800/400,200/0", help="SIZE/OVERLAP[,...]")
    parser.add_argument("--top", type=int, default=10, help="BM25 results per question")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="chroma-omega-"))
    work.mkdir(parents=True, exist_ok=True)
    if any(work.iterdir()):
        sys.exit(f"{work}: not empty")
    questions = read_questions(args.data)
    chroma = None if args.chroma_module is None else load_chroma(args.chroma_module, questions)
    db, pages = build_database(args.data, work, questions)
    print(f"work folder {work}")
    for window in args.windows.split(","):
        size, _, overlap = window.partition("/")
        run_window(db, pages, work, questions, (int(size), int(overlap or 0)), args.top, chroma)


if __name__ == "__main__":
    main_()
