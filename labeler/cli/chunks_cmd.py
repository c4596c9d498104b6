"""``labeler chunks make|audit``: chunk the stored pages, and audit a chunk file on a gold set."""

from __future__ import annotations

import argparse
import json
import sys
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.cli.output import open_output
from labeler.errors import ExtractError, InputError, UsageError, input_name
from labeler.report import plural

if TYPE_CHECKING:
    from sqlmodel import Session

    from labeler.chunks import AuditReport
    from labeler.formats import PlacedChunk, Question
    from labeler.store import Store


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    chunks = commands.add_parser(
        "chunks", parents=[common], help="make chunk files and audit them on a gold set"
    )
    verbs = chunks.add_subparsers(dest="chunks_command", metavar="ACTION", required=True)

    make = verbs.add_parser(
        "make",
        parents=[common],
        help="chunk the stored pages into a chunk JSONL file (exact page slices)",
        description=(
            "Write one {doc, text, start, end} line per chunk; every chunk is an exact slice of "
            "the stored page text. 'fixed': windows of --size tokens (words or punctuation runs) "
            "sharing --overlap tokens. 'structure': cut at block boundaries (paragraphs, list "
            "items, headings, cells...: the block starts ingest stored), long blocks at "
            "sentence ends, small blocks packed up to --max-chars; a page stored without "
            "block starts (ingested by an older labeler) has its source file re-read, which "
            "must then be unchanged since ingest."
        ),
    )
    make.add_argument("--chunker", choices=("fixed", "structure"), required=True)
    make.add_argument("--size", type=int, default=800, help="fixed: tokens per chunk (800)")
    make.add_argument("--overlap", type=int, default=0, help="fixed: tokens shared (0)")
    make.add_argument("--max-chars", type=int, default=2000, help="structure: longest chunk (2000)")
    make.add_argument("--docs", metavar="GLOB", default="*", help="document ids to chunk")
    make.add_argument("-o", "--output", required=True, metavar="FILE", help="'-' for stdout")
    make.set_defaults(handler=run_make)

    audit = verbs.add_parser(
        "audit",
        parents=[common],
        help="what a chunk file does to a gold set's elements (whole, cut, ceilings)",
        description=(
            "For every stored element of the gold set: is it whole in some chunk, or cut "
            "(into how many pieces, with what largest share in one piece)? Reports counts by "
            "document and overall, the ceilings on Hit@k and Partial@k these chunks allow, "
            "the character-level ceilings precision_omega and iou_omega (Chroma's "
            "Precision_Ω: per question, every chunk overlapping its elements), "
            "and the cut elements. Chunks are placed by their offsets, else by their text."
        ),
    )
    audit.add_argument("file", metavar="FILE", help="chunk JSONL")
    audit.add_argument("--gold-set", required=True, metavar="NAME")
    audit.add_argument("--threshold", type=float, default=0.5, help="partial share (0.5)")
    audit.add_argument("--format", choices=("table", "json"), default="table")
    audit.set_defaults(handler=run_audit)


def run_make(args: argparse.Namespace) -> int:
    from labeler.chunks import Chunk, fixed_token_chunks, structure_chunks
    from labeler.extract import block_starts
    from labeler.formats import write_chunks
    from labeler.store import list_documents, open_store, page_and_blocks, resolve_db

    store = open_store(resolve_db(args.db))
    try:
        if args.chunker == "fixed":
            fixed_token_chunks("", "", size=args.size, overlap=args.overlap)  # validate early
        else:
            structure_chunks("", "", [], max_chars=args.max_chars)
    except ValueError as err:
        raise UsageError(str(err)) from None
    docs = 0
    written = 0
    with store.session() as session, open_output(args.output) as out:
        summaries = [d for d in list_documents(session) if fnmatchcase(d.id, args.docs)]
        if not summaries:
            raise UsageError(f"no stored document matches {args.docs!r}")
        for d in summaries:
            text, blocks = page_and_blocks(session, d.id) or ("", None)
            chunks: list[Chunk]
            if args.chunker == "fixed":
                chunks = fixed_token_chunks(d.id, text, size=args.size, overlap=args.overlap)
            else:
                if blocks is None:  # stored before ingest kept block starts, or none found
                    data = _source_bytes(d.id, d.source_path, d.sha256)
                    try:
                        blocks = block_starts(data, d.profile, text=text)
                    except ExtractError as err:
                        raise InputError(d.source_path, f"document {d.id!r}: {err}") from None
                chunks = structure_chunks(d.id, text, blocks, max_chars=args.max_chars)
            written += write_chunks(out, chunks)
            docs += 1
    print(f"wrote {plural(written, 'chunk')} from {plural(docs, 'document')}", file=sys.stderr)
    return 0


def _source_bytes(doc_id: str, source_path: str, sha256: str) -> bytes:
    """The document's source file, checked to be the one that was ingested."""
    try:
        data = Path(source_path).read_bytes()
    except OSError as err:
        raise InputError(
            source_path, f"document {doc_id!r}: cannot read its source file: {err.strerror}"
        ) from None
    import hashlib

    if hashlib.sha256(data).hexdigest() != sha256:
        raise InputError(
            source_path,
            f"document {doc_id!r}: the source file changed since it was ingested (sha256 "
            "differs); re-ingest it before structure chunking",
        )
    return data


def placed_chunks(session: Session, path: str) -> list[PlacedChunk]:
    """The chunk file ``path`` (``-``: standard input) placed on the stored pages; warns
    about unplaced chunks."""
    from labeler.formats import place_chunks, read_chunks
    from labeler.store import page_text, text_holds_nul

    chunk_lines = read_chunks(path, allow_nul=text_holds_nul(session.get_bind().engine))
    placed = place_chunks(path, chunk_lines, lambda doc: page_text(session, doc))
    shown = input_name(path)
    missing = [p for p in placed if p.chunk is None]
    moved = sum(p.how == "text" and p.line.start is not None for p in placed)
    if moved:
        print(
            f"labeler: {shown}: {moved} chunk(s) had offsets that do not match their page; "
            "placed by text",
            file=sys.stderr,
        )
    if missing:
        lines = ", ".join(str(p.line.line) for p in missing[:10])
        print(
            f"labeler: {shown}: {len(missing)} chunk(s) whose text is not on their page "
            f"(lines {lines}{', ...' if len(missing) > 10 else ''})",
            file=sys.stderr,
        )
    return placed


def gold_questions(session: Session, name: str) -> tuple[list[Question], int]:
    """Questions of gold set ``name`` with their non-stale elements; and the stale count.

    As scoring reads it: the final layer, without a team gold set's pending questions
    (left out with a note on stderr)."""
    from labeler.formats import Question, Span
    from labeler.store import export_gold_set

    questions: list[Question] = []
    stale = 0
    pending: list[str] = []
    for q in export_gold_set(session, name):
        if q.pending:
            pending.append(q.external_id)
            continue
        stale += sum(e.stale for e in q.elements)
        spans = tuple(
            Span(e.doc, e.start, e.end, e.text, e.grade) for e in q.elements if not e.stale
        )
        questions.append(Question(q.external_id, q.text, spans))
    if pending:
        shown = ", ".join(pending[:10]) + (", ..." if len(pending) > 10 else "")
        print(
            f"labeler: {len(pending)} question(s) pending adjudication left out, as scoring "
            f"leaves them out ({shown})",
            file=sys.stderr,
        )
    return questions, stale


def element_keys(session: Session, name: str) -> dict[tuple[str, str, int], tuple[int, int]]:
    """(question id, page, element start) → key span (page offsets) of gold set ``name``'s
    non-stale elements that have one."""
    from labeler.store import export_gold_set

    return {
        (q.external_id, e.doc, e.start): (e.key_start, e.key_end)
        for q in export_gold_set(session, name)
        for e in q.elements
        if not e.stale and e.key_start is not None and e.key_end is not None
    }


def run_audit(args: argparse.Namespace) -> int:
    from labeler.chunks import AuditElement, audit_chunks
    from labeler.store import open_store, resolve_db

    if not 0 < args.threshold <= 1:
        raise UsageError(f"--threshold must be in (0, 1], got {args.threshold}")
    store: Store = open_store(resolve_db(args.db))
    with store.session() as session:
        questions, stale = gold_questions(session, args.gold_set)
        keys = element_keys(session, args.gold_set)
        placed = placed_chunks(session, args.file)
    elements = [
        AuditElement(
            q.query_id,
            s.doc,
            s.start,
            s.end,
            s.text,
            s.grade,
            keys.get((q.query_id, s.doc, s.start)),
        )
        for q in questions
        for s in q.spans
    ]
    report = audit_chunks(
        (p.chunk for p in placed if p.chunk is not None), elements, threshold=args.threshold
    )
    if stale:
        print(f"labeler: {stale} stale element(s) left out of the audit", file=sys.stderr)
    if args.format == "json":
        obj = {"gold_set": args.gold_set, "chunk_file": input_name(args.file), **report.to_json()}
        obj["unplaced_chunks"] = sum(p.chunk is None for p in placed)
        print(json.dumps(obj, ensure_ascii=False, indent=2))
    else:
        print(_table(report, args.gold_set, sum(p.chunk is None for p in placed)))
    return 0


def _table(report: AuditReport, gold_set: str, unplaced: int) -> str:
    t = report.overall
    lines = [
        f"gold set {gold_set!r}: {plural(report.questions, 'question')}, "
        f"{plural(t.elements, 'element')}; {plural(report.chunks, 'chunk')}"
        + (f" ({unplaced} not found on their page)" if unplaced else ""),
        f"ceiling  Hit@k {report.hit_ceiling:.2f}   Partial@k {report.partial_ceiling:.2f}"
        f"   (threshold {report.threshold:g})",
        f"ceiling  precision_omega {report.precision_omega:.3f}   iou_omega "
        f"{report.iou_omega:.3f}   (Chroma's Precision_Ω: every chunk overlapping a question's "
        "elements)",
        f"elements whole {t.whole}   cut {t.cut}   uncovered {t.uncovered}   "
        f"kept >= threshold {t.kept}",
        "",
    ]
    width = max([len("document"), *(len(d) for d in report.by_doc)])
    lines.append(f"{'document':<{width}}  elements  whole  cut  uncovered  kept")
    for doc, d in sorted(report.by_doc.items()):
        lines.append(
            f"{doc:<{width}}  {d.elements:>8}  {d.whole:>5}  {d.cut:>3}  {d.uncovered:>9}  "
            f"{d.kept:>4}"
        )
    cut = report.cut
    if cut:
        lines += ["", "cut elements (pieces = chunks overlapping it; best = largest share)"]
        for f in cut:
            e = f.element
            shown = e.text if len(e.text) <= 50 else e.text[:49] + "…"
            lines.append(
                f"  {e.query_id}  {e.doc} {e.start}-{e.end}  {f.status}  {f.pieces} piece(s)  "
                f"best {f.best_share:.2f}  {shown!r}"
            )
    return "\n".join(lines)
