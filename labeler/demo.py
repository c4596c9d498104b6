"""The end-to-end demo: bundled pages → demo gold set → two chunkers × BM25 → scores.

:func:`run_demo` does, in seconds:

1. ingests the pages the demo gold set (``corpora/sqlite-docs/gold/demo.jsonl``) cites plus
   :data:`EXTRA_PAGES` other top-level pages of the bundled corpus as distractors (pages
   already stored unchanged are not re-read; a database holding the whole corpus is reused
   as it is);
2. imports the demo gold set as gold set ``demo``, replacing an older copy (refused,
   listing them, when that copy has elements the bundled file does not hold);
3. chunks those pages twice, as stored: fixed windows of ``size`` tokens
   (:func:`~labeler.chunks.fixed_token_chunks`) and structure-aware chunks cut at the
   page's block boundaries (:func:`~labeler.chunks.structure_chunks`);
4. retrieves the top ``max(ks)`` chunks per question with BM25 (:mod:`labeler.evaluation`)
   over each chunk set: the fixed run is written as run JSONL into the output folder and
   imported as ``fixed-<size>``; the structure run goes through ``labeler evaluate``'s
   path (:meth:`labeler.api.GoldSet.evaluate`): its chunks are written as a chunk file
   ``structure-chunks.jsonl``, :func:`labeler.evaluation.bm25_retriever` is loaded over it
   by name and called on each question, and its answers are stored as ``structure``
   (both replace older runs of those names);
5. scores both runs and compares them (structure − fixed), at each k and at each token
   budget of ``budgets`` (tokens counted as the chunkers count them), so that the two
   chunkers are also compared at equal context cost.

Only the pages chosen in step 1 are chunked, whatever else the database holds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from labeler.chunks import Chunk, fixed_token_chunks, structure_chunks
from labeler.errors import InputError, UsageError
from labeler.evaluation import Evaluation, build_index, compare, write_run
from labeler.gold import ResolvedQuestion, import_gold_file
from labeler.pages import ingest_paths
from labeler.report import plural
from labeler.runs import import_run_file
from labeler.store import Store
from scoring import RunComparison

CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "sqlite-docs"
GOLD_SET = "demo"
STRUCTURE_RUN = "structure"
ANNOTATOR = "demo"
#: distractor pages ingested besides the cited ones
EXTRA_PAGES = 40
#: longest structure-aware chunk, in code points
STRUCTURE_MAX_CHARS = 2000
#: the retriever ``labeler evaluate`` loads for the structure run
BM25_RETRIEVER = "labeler.evaluation:bm25_retriever"

#: token budgets both runs are scored at (``labeler score --budget``)
DEMO_BUDGETS: tuple[int, ...] = (500, 1000, 2000)

Say = Callable[[str], None]


@dataclass(frozen=True)
class DemoOutcome:
    """What :func:`run_demo` built and measured."""

    pages: tuple[str, ...]
    questions: int
    chunks: dict[str, int]
    run_files: dict[str, Path]
    comparison: RunComparison
    evaluations: dict[str, Evaluation]
    seconds: float


def fixed_run_name(size: int) -> str:
    """The name of the fixed-window run: ``fixed-800`` for 800-token windows."""
    return f"fixed-{size}"


def demo_pages(corpus: Path, cited: Sequence[str], extra: int = EXTRA_PAGES) -> list[str]:
    """The cited pages plus ``extra`` other top-level ``.html`` pages, spread evenly over the
    sorted list (deterministic), sorted. Raises :class:`InputError` for a cited page that is
    not in ``corpus``."""
    for doc in cited:
        if not (corpus / doc).is_file():
            raise InputError(corpus / doc, "the demo gold set cites this page, but it is missing")
    others = sorted(p.name for p in corpus.glob("*.html") if p.name not in set(cited))
    step = max(len(others) / extra, 1.0) if extra > 0 else 0.0
    picked = {others[int(i * step)] for i in range(min(extra, len(others)))} if step else set()
    return sorted(set(cited) | picked)


def chunk_pages(
    texts: dict[str, str], corpus: Path, *, size: int
) -> tuple[list[Chunk], list[Chunk]]:
    """Fixed ``size``-token windows and structure-aware chunks of every page in ``texts``
    (doc id → stored text), pages in sorted order. Block boundaries come from the page's
    file in ``corpus``; :class:`~labeler.errors.ExtractError` if that file no longer gives
    the stored text."""
    from labeler.extract import block_starts

    fixed: list[Chunk] = []
    structure: list[Chunk] = []
    for doc in sorted(texts):
        text = texts[doc]
        fixed.extend(fixed_token_chunks(doc, text, size=size))
        blocks = block_starts((corpus / doc).read_bytes(), text=text)
        structure.extend(structure_chunks(doc, text, blocks, max_chars=STRUCTURE_MAX_CHARS))
    return fixed, structure


def _import_gold(store: Store, gold: Path) -> list[ResolvedQuestion]:
    questions, _ = import_gold_file(
        store,
        gold,
        GOLD_SET,
        annotator=ANNOTATOR,
        description="SQLite questions with hand-picked answer spans (the demo)",
        replace=True,
        hint=(
            f"The demo rebuilds gold set {GOLD_SET!r} from {gold}; to keep these labels, "
            f"export the set (labeler gold export --gold-set {GOLD_SET} --db ... -o FILE) and "
            "run the demo on another --db"
        ),
    )
    return questions


def _cited(gold: Path) -> list[str]:
    from labeler.formats import read_gold

    return sorted({e.doc for line in read_gold(gold) for e in line.elements})


def _evaluate_structure(
    store: Store,
    chunks: list[Chunk],
    out_dir: Path,
    ks: Sequence[int],
    params: dict[str, dict[str, object]],
    pages: Sequence[str],
) -> Path:
    """The structure run through ``labeler evaluate``'s own path: the chunks written as a
    chunk file, the BM25 retriever loaded from it by name and called on every question,
    its answers stored as run :data:`STRUCTURE_RUN`; the chunk file."""
    from labeler.api import Database
    from labeler.evaluation import load_retriever
    from labeler.formats import write_chunks

    path = out_dir / f"{STRUCTURE_RUN}-chunks.jsonl"
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            write_chunks(out, chunks)
    except OSError as err:
        raise InputError(path, f"cannot write: {err.strerror or err}") from None
    k = max(ks)
    retriever = load_retriever(BM25_RETRIEVER, {"chunks": str(path), "k": str(k)})
    Database(store).gold_set(GOLD_SET).evaluate(
        retriever,
        k=ks,
        store_run=STRUCTURE_RUN,
        replace=True,
        label=BM25_RETRIEVER,
        parameters={**params[STRUCTURE_RUN], "k": k, "pages": len(pages)},
    )
    return path


def run_demo(
    store: Store,
    out_dir: Path,
    *,
    ks: Sequence[int] = (1, 3, 5, 10),
    size: int = 800,
    corpus: Path = CORPUS,
    say: Say | None = None,
    budgets: Sequence[int] = DEMO_BUDGETS,
) -> DemoOutcome:
    """Run the demo (module docstring) against ``store``; run files go to ``out_dir``.

    ``say`` receives one progress line per step. Raises :class:`UsageError` for a bad
    ``size`` or ``ks``, :class:`InputError` when the bundled corpus or gold set is missing.
    """
    started = time.perf_counter()
    note = say or (lambda _line: None)
    if size < 1:
        raise UsageError(f"--size must be a positive number of tokens, got {size}")
    if not ks or min(ks) < 1:
        raise UsageError(f"every k must be a positive integer, got {list(ks)}")
    gold = corpus / "gold" / "demo.jsonl"
    if not gold.is_file():
        raise InputError(gold, "the demo gold set is missing (is the corpus bundled?)")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(
            out_dir, f"cannot create the output folder: {err.strerror or err}"
        ) from None

    pages = demo_pages(corpus, _cited(gold))
    report = ingest_paths(store, [corpus / p for p in pages])
    if report.failed:
        failed, reason = report.failed[0]
        raise InputError(failed, f"cannot ingest: {reason}")
    note(
        f"pages: {len(pages)} ({report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged)"
    )
    questions = _import_gold(store, gold)
    note(f"gold set {GOLD_SET!r}: {plural(len(questions), 'question')} imported")

    from labeler.store import read_page_texts

    texts = read_page_texts(store, pages)
    fixed, structure = chunk_pages(texts, corpus, size=size)
    runs = {fixed_run_name(size): fixed, STRUCTURE_RUN: structure}
    params = {
        fixed_run_name(size): {"chunker": "fixed_token_chunks", "size": size},
        STRUCTURE_RUN: {"chunker": "structure_chunks", "max_chars": STRUCTURE_MAX_CHARS},
    }
    files: dict[str, Path] = {}
    k = max(ks)
    fixed_name = fixed_run_name(size)
    path = out_dir / f"{fixed_name}.jsonl"
    write_run(questions, build_index(fixed), k, path)
    import_run_file(
        store,
        path,
        fixed_name,
        replace=True,
        parameters={**params[fixed_name], "retriever": "bm25", "k": k, "pages": len(pages)},
    )
    files[fixed_name] = path
    note(f"run {fixed_name!r}: {plural(len(fixed), 'chunk')}, top {k} per question → {path}")
    files[STRUCTURE_RUN] = _evaluate_structure(store, structure, out_dir, ks, params, pages)
    note(
        f"run {STRUCTURE_RUN!r}: {plural(len(structure), 'chunk')}, top {k} per question, by labeler "
        f"evaluate --retriever {BM25_RETRIEVER} --retriever-arg chunks="
        f"{files[STRUCTURE_RUN]} --retriever-arg k={k} --store-run {STRUCTURE_RUN}"
    )

    from labeler.chunks import DEFAULT_TOKENIZER, make_tokenizer

    comparison, a, b = compare(
        store,
        GOLD_SET,
        fixed_run_name(size),
        STRUCTURE_RUN,
        ks=ks,
        budgets=budgets,
        tokenizer=make_tokenizer(DEFAULT_TOKENIZER),
    )
    return DemoOutcome(
        pages=tuple(pages),
        questions=len(questions),
        chunks={name: len(chunks) for name, chunks in runs.items()},
        run_files=files,
        comparison=comparison,
        evaluations={fixed_run_name(size): a, STRUCTURE_RUN: b},
        seconds=time.perf_counter() - started,
    )


def demo_report(outcome: DemoOutcome) -> str:
    """Both runs' score reports, the comparison (structure − fixed), then both runs side by
    side at equal token budgets, as text tables."""
    from labeler.report import budget_report, comparison_report, score_report

    parts = [
        score_report(ev.result, stale_excluded=ev.stale_excluded, worst=5)
        for ev in outcome.evaluations.values()
    ]
    parts.append(comparison_report(outcome.comparison))
    results = [ev.result for ev in outcome.evaluations.values()]
    if results[0].budgets:
        parts.append(budget_report(results))
    return "\n".join(parts)
