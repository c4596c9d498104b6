"""``labeler gold import|export``: gold sets as JSONL v1."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from labeler.cli.output import open_output


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    gold = commands.add_parser("gold", help="import and export gold sets (JSONL v1)")
    verbs = gold.add_subparsers(dest="gold_command", metavar="ACTION", required=True)

    imp = verbs.add_parser(
        "import",
        parents=[common],
        help="import a gold JSONL file into a new gold set (all or nothing)",
        description=(
            "Read a gold JSONL v1 file. Elements with offsets are checked against the stored "
            "page (and re-anchored by text when they do not match); elements without offsets "
            "are anchored at the first occurrence of their text. Any bad line rejects the whole "
            "file, naming the line; the database is then unchanged."
        ),
    )
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--gold-set", required=True, metavar="NAME")
    imp.add_argument("--description", default="")
    imp.add_argument("--replace", action="store_true", help="overwrite an existing gold set")
    imp.add_argument("--annotator", default=None, help="recorded on elements (default: you)")
    imp.set_defaults(handler=run_import)

    exp = verbs.add_parser(
        "export",
        parents=[common],
        help="write a gold set as JSONL v1 (offsets in code points)",
    )
    exp.add_argument("--gold-set", required=True, metavar="NAME")
    exp.add_argument("-o", "--output", default="-", metavar="FILE", help="default: stdout")
    exp.set_defaults(handler=run_export)


def run_import(args: argparse.Namespace) -> int:
    from labeler.gold import resolve_gold
    from labeler.identity import resolve_annotator
    from labeler.store import open_store, resolve_db
    from labeler.store.documents import find_document
    from labeler.store.goldsets import NewElement, NewQuestion, import_gold_set

    annotator = resolve_annotator(args.annotator)
    store = open_store(resolve_db(args.db))
    with store.session() as session:

        def page_of(doc_id: str) -> str | None:
            doc = find_document(session, doc_id)
            return None if doc is None else doc.text

        questions, summary = resolve_gold(args.file, page_of)
    new = [
        NewQuestion(
            q.query_id,
            q.query,
            q.notes or "",
            tuple(
                NewElement(e.doc, e.start, e.end, e.text, e.grade, annotator) for e in q.elements
            ),
        )
        for q in questions
    ]
    with store.write() as session:
        import_gold_set(
            session,
            args.gold_set,
            new,
            actor=annotator,
            description=args.description,
            replace=args.replace,
        )
    for q in questions:
        for e in q.elements:
            if e.reanchored:
                print(
                    f"labeler: {args.file}:{q.line}: {e.doc}: offsets did not match the page; "
                    f"re-anchored by text at {e.start}-{e.end}",
                    file=sys.stderr,
                )
            if e.repeated:
                print(
                    f"labeler: {args.file}:{q.line}: {e.doc}: element text occurs more than once "
                    f"on the page (kept at {e.start}-{e.end}; scoring flags it as repeated)",
                    file=sys.stderr,
                )
    print(
        f"imported gold set {args.gold_set!r}: {summary.questions} questions, "
        f"{summary.elements} elements ({summary.reanchored} re-anchored, "
        f"{summary.repeated} repeated on their page)"
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    from labeler.formats.gold_jsonl import gold_line_json
    from labeler.store import open_store, resolve_db
    from labeler.store.goldsets import export_gold_set

    store = open_store(resolve_db(args.db))
    stale = 0
    with store.session() as session, open_output(args.output) as out:
        for q in export_gold_set(session, args.gold_set):
            stale += sum(e.stale for e in q.elements)
            out.write(
                gold_line_json(
                    q.external_id,
                    q.text,
                    [(e.doc, e.start, e.end, e.text, e.grade) for e in q.elements if not e.stale],
                    q.notes,
                )
            )
            out.write("\n")
    if stale:
        print(
            f"labeler: {stale} stale element(s) left out: their page changed under them; "
            "re-anchor them first",
            file=sys.stderr,
        )
    if args.output != "-":
        print(f"wrote {Path(args.output)}", file=sys.stderr)
    return 0
