"""``labeler gold import|export|list``: gold sets as JSONL v1, and the other formats.

Export: ``jsonl`` (default, v1), ``trec`` qrels and ``beir`` (projected onto a chunk file),
``ragas``. Import: ``jsonl`` (default), ``labelstudio`` and ``doccano`` span exports.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.cli.output import open_output
from labeler.errors import UsageError, input_name

if TYPE_CHECKING:
    from labeler.store.goldsets import DroppedElement


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    gold = commands.add_parser(
        "gold",
        parents=[common],
        help=(
            "import, export and list gold sets (JSONL v1, TREC, BEIR, Ragas, Label Studio...); "
            "team work: assign, progress, done"
        ),
    )
    verbs = gold.add_subparsers(dest="gold_command", metavar="ACTION", required=True)

    imp = verbs.add_parser(
        "import",
        parents=[common],
        help="import a gold JSONL file into a new gold set (all or nothing)",
        description=(
            "Read a gold JSONL v1 file. Elements with offsets are checked against the stored "
            "page (and re-anchored by text when they do not match); elements without offsets "
            "are anchored at the first occurrence of their text; elements marked "
            '"status": "stale" are stored stale as written. Any bad line rejects the whole '
            "file, naming the line; the database is then unchanged. --replace refuses to "
            "remove elements the file does not hold (listing them) unless --force."
        ),
    )
    imp.add_argument("file", metavar="FILE")
    imp.add_argument(
        "--format",
        choices=IMPORT_FORMATS,
        default="jsonl",
        help=(
            "jsonl (gold JSONL v1, default), labelstudio (JSON export with 'labels' spans) or "
            "doccano (JSONL with [start, end, label] spans); for the last two each label "
            "name becomes a question, pages are matched by their exact text or a 'doc' field, "
            "and UTF-16 offsets are detected and converted"
        ),
    )
    imp.add_argument("--gold-set", required=True, metavar="NAME")
    imp.add_argument("--description", default="")
    imp.add_argument("--replace", action="store_true", help="overwrite an existing gold set")
    imp.add_argument(
        "--force",
        action="store_true",
        help=(
            "with --replace: remove the set's elements the file does not hold (listed on "
            "stderr); without it such a replace is refused"
        ),
    )
    imp.add_argument("--annotator", default=None, help="recorded on elements (default: you)")
    imp.add_argument(
        "--layer",
        action="store_true",
        help=(
            "import the file as --annotator's own labels in a team gold set (created when "
            "missing): questions matched by query_id (created if missing), that annotator's "
            "earlier labels on them replaced, and each question marked done by them (no "
            'answer when it has no element; a line with "done": false is not marked)'
        ),
    )
    imp.set_defaults(handler=run_import)

    exp = verbs.add_parser(
        "export",
        parents=[common],
        help="write a gold set as JSONL v1 (offsets in code points), TREC, BEIR or Ragas",
        description=(
            'jsonl: gold JSONL v1 (stale elements included, marked "status": "stale"). '
            "trec / beir: the gold set projected onto a chunk file "
            "(--chunks): a chunk is relevant to a question when it holds one of its elements "
            "whole, with that element's grade (the highest if several); chunk ids are "
            "<doc>#<start>-<end>. trec writes 'qid 0 chunk_id grade' lines; beir writes "
            "corpus.jsonl, queries.jsonl and qrels/test.tsv into the folder -o. ragas: one "
            "{user_input, reference_contexts} line per question with elements."
        ),
    )
    exp.add_argument("--gold-set", required=True, metavar="NAME")
    exp.add_argument("--format", choices=EXPORT_FORMATS, default="jsonl")
    exp.add_argument(
        "--layer",
        default="final",
        metavar="final|all|annotator:NAME",
        help=(
            "jsonl only. final (default): what scoring uses, every question, pending ones "
            'marked "adjudicated": false, provenance on elements that are not single; all: '
            "both layers, each element with its layer, annotator, assisted and provenance; "
            "annotator:NAME: NAME's own labels"
        ),
    )
    exp.add_argument("--chunks", metavar="FILE", help="chunk JSONL (trec and beir)")
    exp.add_argument(
        "-o", "--output", default="-", metavar="PATH", help="default: stdout (beir: a folder)"
    )
    exp.set_defaults(handler=run_export)

    from labeler.cli import team_cmd

    team_cmd.register_gold(verbs, common)

    ls = verbs.add_parser(
        "list",
        parents=[common],
        help="list gold sets: questions, elements, annotators, last change",
        description=(
            "One row per gold set, by name: its questions, its elements (stale ones "
            "included), how many distinct annotators labelled them, and when it last "
            "changed: the newest audit-log entry about one of its questions or elements "
            "(added, edited, removed, undone, marked stale), else when the set was created. "
            "Times are UTC."
        ),
    )
    ls.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help=(
            "table (default) or json: one JSON object per line, as 'labeler run list' "
            "prints (annotators as the list of their names, last_change in ISO 8601)"
        ),
    )
    ls.set_defaults(handler=run_list)


IMPORT_FORMATS = ("jsonl", "labelstudio", "doccano")
EXPORT_FORMATS = ("jsonl", "trec", "beir", "ragas")


def run_import(args: argparse.Namespace) -> int:
    if args.layer:
        return _import_layer(args)
    if args.format != "jsonl":
        return _import_spans(args)
    from labeler.gold import import_gold_file
    from labeler.identity import resolve_annotator
    from labeler.store import open_store, resolve_db

    annotator = resolve_annotator(args.annotator)
    _check_force(args)
    questions, summary = import_gold_file(
        open_store(resolve_db(args.db)),
        args.file,
        args.gold_set,
        annotator=annotator,
        description=args.description,
        replace=args.replace,
        force=args.force,
        hint=_force_hint(args),
    )
    shown = input_name(args.file)
    for q in questions:
        for e in q.elements:
            if e.reanchored:
                print(
                    f"labeler: {shown}:{q.line}: {e.doc}: offsets did not match the page; "
                    f"re-anchored by text at {e.start}-{e.end}",
                    file=sys.stderr,
                )
            if e.repeated:
                print(
                    f"labeler: {shown}:{q.line}: {e.doc}: element text occurs more than once "
                    f"on the page (kept at {e.start}-{e.end}; scoring flags it as repeated)",
                    file=sys.stderr,
                )
    _report_removed(args, summary.removed, annotator)
    if summary.layer_left_out:
        print(
            f"labeler: {shown}: {summary.layer_left_out} annotator-layer element(s) left out "
            "(a gold set is its final layer; import an annotator's labels with --layer "
            "--annotator NAME)",
            file=sys.stderr,
        )
    if summary.not_adjudicated:
        print(
            f"labeler: {shown}: {summary.not_adjudicated} question(s) marked "
            '"adjudicated": false (pending where they came from) imported with the final '
            "elements they have; this gold set scores them",
            file=sys.stderr,
        )
    stale = f", {summary.stale} stale" if summary.stale else ""
    print(
        f"imported gold set {args.gold_set!r}: {summary.questions} questions, "
        f"{summary.elements} elements ({summary.reanchored} re-anchored, "
        f"{summary.repeated} repeated on their page{stale})"
    )
    return 0


def _import_layer(args: argparse.Namespace) -> int:
    """``gold import --layer``: the file as one annotator's own labels."""
    from labeler.gold_layer import import_layer_file
    from labeler.store import open_store, resolve_db

    if args.format != "jsonl":
        raise UsageError("--layer reads gold JSONL (--format jsonl)")
    if args.annotator is None or not args.annotator.strip():
        raise UsageError("--layer needs --annotator NAME (whose labels the file holds)")
    if args.replace or args.force:
        raise UsageError("--layer replaces the annotator's own labels by itself; drop --replace")
    done = import_layer_file(
        open_store(resolve_db(args.db)),
        args.file,
        args.gold_set,
        annotator=args.annotator.strip(),
        description=args.description,
    )
    shown = input_name(args.file)
    for q in done.resolved:
        for e in q.elements:
            if e.reanchored:
                print(
                    f"labeler: {shown}:{q.line}: {e.doc}: offsets did not match the page; "
                    f"re-anchored by text at {e.start}-{e.end}",
                    file=sys.stderr,
                )
    if done.skipped:
        print(
            f"labeler: {shown}: {done.skipped} line(s) with nothing of {done.annotator}'s skipped",
            file=sys.stderr,
        )
    made = " (new team gold set)" if done.created_set else ""
    print(
        f"imported {done.annotator}'s layer into {args.gold_set!r}{made}: {done.questions} "
        f"questions ({done.created} created), {done.added} elements ({done.removed} earlier "
        f"ones replaced), {done.done} marked done ({done.no_answer} with no answer)"
    )
    return 0


def _check_force(args: argparse.Namespace) -> None:
    if args.force and not args.replace:
        raise UsageError("--force only makes sense with --replace")


def _force_hint(args: argparse.Namespace) -> str:
    return (
        "Keep them in the file, or replace anyway with --force (to keep a copy, first: "
        f"labeler gold export --gold-set {shlex.quote(args.gold_set)} -o FILE)"
    )


def _report_removed(args: argparse.Namespace, removed: Sequence[DroppedElement], who: str) -> None:
    """List on stderr every element a forced replace removed, and how to get them back."""
    if not removed:
        return
    print(
        f"labeler: --force: removed {len(removed)} element(s) of gold set {args.gold_set!r} "
        "that the file does not hold (question, page, offsets, text):",
        file=sys.stderr,
    )
    for element in removed:
        print(f"labeler:   {element}", file=sys.stderr)
    print(
        f"labeler: each removal is in the audit log (actor {who!r}, action 'remove', with the "
        "element as it was); to get them back, import a file that holds them (an export "
        "taken before the replace) with --replace",
        file=sys.stderr,
    )


def run_export(args: argparse.Namespace) -> int:
    if args.format in ("trec", "beir"):
        return _export_projection(args)
    if args.chunks is not None:
        raise UsageError(f"--chunks is for the trec and beir formats, not {args.format}")
    if args.layer != "final" and args.format != "jsonl":
        raise UsageError(f"--layer is for --format jsonl, not {args.format}")
    if args.format == "ragas":
        return _export_ragas(args)
    from labeler.formats.gold_jsonl import layer_line_json
    from labeler.store import open_store, resolve_db
    from labeler.store.team_export import export_layers, parse_layer

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


def _import_spans(args: argparse.Namespace) -> int:
    """Label Studio / doccano spans → a new gold set, all or nothing."""
    from labeler.formats.doccano import read_doccano
    from labeler.formats.labelstudio import read_labelstudio
    from labeler.formats.span_import import resolve_tasks
    from labeler.identity import resolve_annotator
    from labeler.store import open_store, page_text, resolve_db
    from labeler.store.goldsets import NewElement, NewQuestion, import_gold_set, page_texts
    from labeler.store.postgres import text_holds_nul

    annotator = resolve_annotator(args.annotator)
    _check_force(args)
    store = open_store(resolve_db(args.db))
    read = read_labelstudio if args.format == "labelstudio" else read_doccano
    tasks = read(args.file, allow_nul=text_holds_nul(store.engine))
    with store.session() as session:
        by_text: dict[str, list[str]] | None = None

        def docs_with_text(text: str) -> list[str]:
            nonlocal by_text
            if by_text is None:  # read every page once, only when a task has no doc field
                from labeler.store import list_documents

                ids = [d.id for d in list_documents(session)]
                by_text = {}
                for doc_id, page in sorted(page_texts(session, ids).items()):
                    by_text.setdefault(page, []).append(doc_id)
            return by_text.get(text, [])

        result = resolve_tasks(
            args.file, tasks, lambda doc: page_text(session, doc), docs_with_text
        )
    new = [
        NewQuestion(
            q.query_id,
            q.query_id,
            "",
            tuple(NewElement(e.doc, e.start, e.end, e.text, 1, annotator) for e in q.elements),
        )
        for q in result.questions
    ]
    with store.write() as session:
        removed = import_gold_set(
            session,
            args.gold_set,
            new,
            actor=annotator,
            description=args.description,
            replace=args.replace,
            force=args.force,
            hint=_force_hint(args),
        )
    _report_removed(args, removed, annotator)
    for note in result.notes:
        print(f"labeler: {input_name(args.file)}: {note}", file=sys.stderr)
    elements = sum(len(q.elements) for q in result.questions)
    print(
        f"imported gold set {args.gold_set!r} from {args.format}: {len(new)} questions "
        f"(one per label), {elements} elements from {result.spans} spans "
        f"({result.utf16} UTF-16 offsets converted, {result.reanchored} re-anchored, "
        f"{result.repeated} repeated on their page)"
    )
    return 0


def _export_projection(args: argparse.Namespace) -> int:
    from labeler.cli.chunks_cmd import gold_questions, placed_chunks
    from labeler.formats.beir import write_beir
    from labeler.formats.qrels import corpus_chunks, project, write_trec_qrels
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
        f"wrote {args.format} for {len(projection.questions)} questions, "
        f"{len(projection.corpus)} chunks, {rows} relevant pairs to {args.output}",
        file=sys.stderr,
    )
    return 0


def _export_ragas(args: argparse.Namespace) -> int:
    from labeler.cli.chunks_cmd import gold_questions
    from labeler.formats.gold_jsonl import write_lines
    from labeler.formats.ragas import ragas_lines
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
        print(f"wrote {count} questions to {Path(args.output)}", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    from labeler.report.tables import text_table
    from labeler.store import gold_set_progress, open_store, resolve_db
    from labeler.store.audit import gold_set_last_changes

    store = open_store(resolve_db(args.db))
    with store.session() as session:
        sets = gold_set_progress(session)
        changed = gold_set_last_changes(session)
    if not sets:
        print(
            "labeler: no gold sets yet (labeler gold import, or label in the TUI)", file=sys.stderr
        )
        return 0
    if args.format == "json":
        for gs in sets:
            row = {
                "name": gs.name,
                "questions": gs.questions,
                "elements": gs.elements,
                "annotators": sorted(gs.by_annotator),
                "last_change": changed[gs.id].isoformat(),
            }
            print(json.dumps(row))
        return 0
    header = ["name", "questions", "elements", "annotators", "last change (UTC)"]
    rows = [
        [
            gs.name,
            gs.questions,
            gs.elements,
            len(gs.by_annotator),
            changed[gs.id].strftime("%Y-%m-%d %H:%M:%S"),
        ]
        for gs in sets
    ]
    print(text_table(header, rows))
    return 0
