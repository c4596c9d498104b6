"""``labeler chunks make|audit``: chunk the stored pages, and audit a chunk file on a gold set."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from labeler.cli.output import add_max_line_bytes, add_quiet, open_output, warn
from labeler.errors import UsageError, input_name
from labeler.report import plural

if TYPE_CHECKING:
    from labeler.chunks import AuditReport


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
    add_quiet(make)
    make.set_defaults(handler=run_make)

    audit = verbs.add_parser(
        "audit",
        parents=[common],
        help="what a chunk file does to a gold set's elements (whole, cut, ceilings)",
        description=(
            "For every stored element of the gold set: is it whole in some chunk, or cut "
            "(into how many pieces, with what largest share in one piece)? Reports counts by "
            "document and overall, the ceilings on Hit@k and Partial@k these chunks allow, "
            "the character-level ceilings iou_omega (Chroma's Precision_Ω), precision_omega "
            "and precision_omega_paid (per question, every chunk overlapping or touching "
            "its elements), and the cut elements; JSON adds the ceilings per question. "
            "Chunks are placed by their offsets, else by their text."
        ),
    )
    audit.add_argument("file", metavar="FILE", help="chunk JSONL")
    add_max_line_bytes(audit)
    audit.add_argument("--gold-set", required=True, metavar="NAME")
    audit.add_argument("--threshold", type=float, default=0.5, help="partial share (0.5)")
    audit.add_argument("--format", choices=("table", "json"), default="table")
    add_quiet(audit)
    audit.set_defaults(handler=run_audit)


def run_make(args: argparse.Namespace) -> int:
    from labeler.chunks import fixed_token_chunks, structure_chunks, write_chunk_file
    from labeler.progress import reporter
    from labeler.store import open_store, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        try:
            if args.chunker == "fixed":
                fixed_token_chunks("", "", size=args.size, overlap=args.overlap)  # validate early
            else:
                structure_chunks("", "", [], max_chars=args.max_chars)
        except ValueError as err:
            raise UsageError(str(err)) from None
        with (
            open_output(args.output) as out,
            reporter("chunks make", "pages", quiet=args.quiet) as progress,
        ):
            made = write_chunk_file(
                store,
                out,
                chunker=args.chunker,
                docs=args.docs,
                size=args.size,
                overlap=args.overlap,
                max_chars=args.max_chars,
                progress=progress,
            )
        print(
            f"wrote {plural(made.chunks, 'chunk')} from {plural(made.documents, 'document')}",
            file=sys.stderr,
        )
        return 0


def run_audit(args: argparse.Namespace) -> int:
    from labeler.chunks import AuditElement, audit_chunks
    from labeler.gold import read_scored_gold
    from labeler.progress import reporter
    from labeler.store import open_store, resolve_db

    if not 0 < args.threshold <= 1:
        raise UsageError(f"--threshold must be in (0, 1], got {args.threshold}")
    with (
        open_store(resolve_db(args.db), create=False) as store,
        reporter("chunks audit", "bytes", quiet=args.quiet) as progress,
    ):
        gold = read_scored_gold(
            store,
            args.gold_set,
            note=warn,
            chunk_file=args.file,
            keys=True,
            progress=progress,
        )
    assert gold.placed is not None and gold.keys is not None  # asked for both
    questions, stale, keys, placed = gold.questions, gold.stale, gold.keys, gold.placed
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
        f"ceiling  iou_omega {report.iou_omega:.3f}   precision_omega "
        f"{report.precision_omega:.3f}   precision_omega_paid {report.precision_omega_paid:.3f}"
        "   (iou_omega is Chroma's Precision_Ω: every chunk overlapping or touching a "
        "question's elements)",
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
