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

from labeler.cli.output import open_output, warn
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
    if args.run is not None:
        raise UsageError(f"--run is for --format ragas, not {args.format}")
    from labeler.gold import export_gold_layer
    from labeler.store import open_store, parse_layer, resolve_db

    kind, _ = parse_layer(args.layer)
    with open_store(resolve_db(args.db), create=False) as store:
        with open_output(args.output) as out:
            written = export_gold_layer(store, out, args.gold_set, args.layer)
        stale, pending = written.stale, written.pending
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
    if args.run is not None:
        raise UsageError(f"--run is for --format ragas, not {args.format}")
    from labeler.formats import corpus_chunks, project, write_beir, write_trec_qrels
    from labeler.gold import read_scored_gold
    from labeler.store import open_store, resolve_db

    if args.chunks is None:
        raise UsageError(f"--format {args.format} needs --chunks FILE (a chunk JSONL file)")
    if args.format == "beir" and args.output == "-":
        raise UsageError("--format beir writes a folder: give it with -o PATH")
    with open_store(resolve_db(args.db), create=False) as store:
        gold = read_scored_gold(
            store,
            args.gold_set,
            note=warn,
            chunk_file=args.chunks,
        )
    assert gold.placed is not None  # a chunk file was read
    questions, stale, placed = gold.questions, gold.stale, gold.placed
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
    from labeler.formats import ragas_lines, write_lines
    from labeler.gold import read_scored_gold
    from labeler.store import open_store, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        gold = read_scored_gold(store, args.gold_set, note=warn, run=args.run)
    questions, stale, contexts = gold.questions, gold.stale, gold.contexts
    with open_output(args.output) as out:
        count = write_lines(out, ragas_lines(questions, contexts))
    skipped = sum(not q.spans for q in questions)
    if contexts is not None:
        lacking = [q.query_id for q in questions if q.spans and q.query_id not in contexts]
        if lacking:
            shown = ", ".join(lacking[:10]) + (", ..." if len(lacking) > 10 else "")
            print(
                f"labeler: {len(lacking)} question(s) not in run {args.run!r} written with "
                f'"retrieved_contexts": [] ({shown})',
                file=sys.stderr,
            )
    if stale:
        print(f"labeler: {stale} stale element(s) left out", file=sys.stderr)
    if skipped:
        print(f"labeler: {skipped} question(s) without elements left out", file=sys.stderr)
    if args.output != "-":
        print(f"wrote {plural(count, 'question')} to {Path(args.output)}", file=sys.stderr)
    return 0
