"""``labeler gold import|export|list``: gold sets as JSONL v1, and the other formats.

Export: ``jsonl`` (default, v1), ``trec`` qrels and ``beir`` (projected onto a chunk file),
``ragas``. Import: ``jsonl`` (default), ``labelstudio`` and ``doccano`` span exports. This
module declares the ``gold`` arguments and lists gold sets; importing is
:mod:`labeler.cli.gold_import_cmd`, exporting :mod:`labeler.cli.gold_export_cmd` and the
team actions (assign, progress, done) :mod:`labeler.cli.team_cmd`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from labeler.cli.gold_export_cmd import run_export
from labeler.cli.gold_import_cmd import run_import
from labeler.cli.output import add_max_line_bytes, add_quiet
from labeler.cli.score_cmd import parse_snap_min


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
            "remove anything the file does not hold (elements of either layer, questions, "
            "notes, done marks, assignments, adjudication marks; listing them) unless --force."
        ),
    )
    imp.add_argument("file", metavar="FILE")
    add_max_line_bytes(imp)
    imp.add_argument(
        "--format",
        choices=IMPORT_FORMATS,
        default="jsonl",
        help=(
            "jsonl (gold JSONL v1, default), labelstudio (JSON export with 'labels' spans) or "
            "doccano (JSONL with [start, end, label] spans or 'annotations' with label ids); "
            "for the last two each label name becomes a question, pages are matched by their "
            "exact text or a 'doc' field, and offsets are read in UTF-16 code units; ragas "
            "(Ragas samples: each of 'reference_contexts' an element on the page its "
            "'reference_context_ids' entry names)"
        ),
    )
    imp.add_argument(
        "--offset-unit",
        choices=("codepoint", "utf16"),
        default=None,
        help=(
            "labelstudio and doccano: what the file's offsets count (default utf16, what "
            "both tools write); codepoint for files made by Python tools"
        ),
    )
    imp.add_argument(
        "--prefer",
        choices=("offsets", "text"),
        default=None,
        help=(
            "labelstudio and doccano: when a span's offsets and its text disagree, or a "
            "task's text is not its stored page's (refused without this), store what the "
            "offsets cut (offsets) or place the text at its first occurrence (text)"
        ),
    )
    imp.add_argument(
        "--allow-empty",
        action="store_true",
        help="accept a file that stores nothing (refused by default: a wrong format or field)",
    )
    imp.add_argument(
        "--snap",
        action="store_true",
        help=(
            "an element text that is not on its page (another extractor's text) is aligned "
            "to the page and stored at the span found, provenance snapped; below --snap-min "
            "the import is refused listing the lines"
        ),
    )
    imp.add_argument(
        "--snap-min",
        type=parse_snap_min,
        default=0.9,
        metavar="SCORE",
        help="with --snap: the least alignment score (default 0.9)",
    )
    imp.add_argument(
        "--snap-review",
        action="store_true",
        help=(
            "with --snap: import the questions of texts below --snap-min without them, each "
            "text in its question's notes, for an annotator to label"
        ),
    )
    imp.add_argument("--gold-set", required=True, metavar="NAME")
    imp.add_argument("--description", default="")
    imp.add_argument("--replace", action="store_true", help="overwrite an existing gold set")
    imp.add_argument(
        "--force",
        action="store_true",
        help=(
            "with --replace: remove what of the set the file does not hold (each listed on "
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
    imp.add_argument(
        "--actor",
        default=None,
        help=(
            "with --layer: who imports (default: you); importing another annotator's layer "
            "needs the lead role"
        ),
    )
    add_quiet(imp)
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
    add_max_line_bytes(exp, "input line of --chunks")
    exp.add_argument(
        "--run",
        metavar="NAME",
        default=None,
        help=(
            "ragas: add each question's retrieved_contexts, run NAME's chunk texts in rank "
            "order ([] for a question the run lacks)"
        ),
    )
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


IMPORT_FORMATS = ("jsonl", "labelstudio", "doccano", "ragas")
EXPORT_FORMATS = ("jsonl", "trec", "beir", "ragas")


def run_list(args: argparse.Namespace) -> int:
    from labeler.report import text_table
    from labeler.store import open_store, read_gold_set_listing, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        listing = read_gold_set_listing(store)
        sets, changed = listing.sets, listing.last_changes
        if not sets:
            print(
                f"labeler: no gold sets yet in {store.location} "
                "(labeler gold import, or label in the TUI)",
                file=sys.stderr,
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
