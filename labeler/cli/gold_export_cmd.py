"""``labeler gold export``: a gold set as gold JSONL v1 (one of its layers), TREC qrels or
BEIR (projected onto a chunk file), or Ragas lines.

Data goes to stdout or ``-o``; what was left out or marked (stale elements, questions
pending adjudication, questions without a chunk holding an element whole) is said on
stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from labeler.cli.output import open_output
from labeler.errors import UsageError
from labeler.report import plural


def run_export(args: argparse.Namespace) -> int:
    if args.format in ("trec", "beir"):
        return _export_projection(args)
    if args.chunks is not None:
        raise UsageError(f"--chunks is for the trec and beir formats, not {args.format}")
    if args.layer != "final" and args.format != "jsonl":
        raise UsageError(f"--layer is for --format jsonl, not {args.format}")
    if args.format == "ragas":
        return _export_ragas(args)
    from labeler.formats import layer_line_json
    from labeler.store import export_layers, open_store, parse_layer, resolve_db

    kind, who = parse_layer(args.layer)
    store = open_store(resolve_db(args.db))
    stale = pending = 0
    with store.session() as session, open_output(args.output) as out:
        for q in export_layers(session, args.gold_set, args.layer):
            stale += sum(e.stale for e in q.elements)
            pending += q.pending
            out.write(layer_line_json(q, kind, who))
            out.write("\n")
    if pending and kind == "final":
        print(
            f'labeler: {pending} question(s) pending adjudication written with "adjudicated": '
            "false (scoring leaves them out)",
            file=sys.stderr,
        )
    if stale:
        print(
            f'labeler: {stale} stale element(s) written with "status": "stale" (their page '
            "changed under them; 'labeler doctor' lists them)",
            file=sys.stderr,
        )
    if args.output != "-":
        print(f"wrote {Path(args.output)}", file=sys.stderr)
    return 0


def _export_projection(args: argparse.Namespace) -> int:
    from labeler.cli.chunks_cmd import gold_questions, placed_chunks
    from labeler.formats import corpus_chunks, project, write_beir, write_trec_qrels
    from labeler.store import open_store, resolve_db

    if args.chunks is None:
        raise UsageError(f"--format {args.format} needs --chunks FILE (a chunk JSONL file)")
    if args.format == "beir" and args.output == "-":
        raise UsageError("--format beir writes a folder: give it with -o PATH")
    store = open_store(resolve_db(args.db))
    with store.session() as session:
        questions, stale = gold_questions(session, args.gold_set)
        placed = placed_chunks(session, args.chunks)
    projection = project(corpus_chunks(placed), questions)
    if args.format == "beir":
        write_beir(args.output, projection)
    else:
        with open_output(args.output) as out:
            write_trec_qrels(out, projection)
    if stale:
        print(f"labeler: {stale} stale element(s) left out", file=sys.stderr)
    if projection.unjudged:
        shown = ", ".join(projection.unjudged[:10])
        print(
            f"labeler: {len(projection.unjudged)} question(s) have no chunk holding an element "
            f"whole, so no qrels rows ({shown}{', ...' if len(projection.unjudged) > 10 else ''});"
            " trec_eval-style tools skip such questions: see 'labeler chunks audit'",
            file=sys.stderr,
        )
    rows = sum(len(v) for v in projection.qrels.values())
    print(
        f"wrote {args.format} for {plural(len(projection.questions), 'question')}, "
        f"{plural(len(projection.corpus), 'chunk')}, {plural(rows, 'relevant pair')} "
        f"to {args.output}",
        file=sys.stderr,
    )
    return 0


def _export_ragas(args: argparse.Namespace) -> int:
    from labeler.cli.chunks_cmd import gold_questions
    from labeler.formats import ragas_lines, write_lines
    from labeler.store import open_store, resolve_db

    store = open_store(resolve_db(args.db))
    with store.session() as session:
        questions, stale = gold_questions(session, args.gold_set)
    with open_output(args.output) as out:
        count = write_lines(out, ragas_lines(questions))
    skipped = sum(not q.spans for q in questions)
    if stale:
        print(f"labeler: {stale} stale element(s) left out", file=sys.stderr)
    if skipped:
        print(f"labeler: {skipped} question(s) without elements left out", file=sys.stderr)
    if args.output != "-":
        print(f"wrote {plural(count, 'question')} to {Path(args.output)}", file=sys.stderr)
    return 0
