"""``labeler run import|export|list|place``: retrieval runs (run JSONL v1 and Ragas-style
lines)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from labeler.cli.output import add_max_line_bytes, add_quiet
from labeler.errors import InputError
from labeler.report import plural


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    run = commands.add_parser("run", parents=[common], help="import and list retrieval runs")
    verbs = run.add_subparsers(dest="run_command", metavar="ACTION", required=True)

    imp = verbs.add_parser(
        "import",
        parents=[common],
        help="import a run JSONL file (streamed; all or nothing; locks only for the write)",
        description=(
            "Read run JSONL v1 lines ({query_id, results: [{text, doc?, score?, rank?}]}) or "
            "Ragas-style lines ({user_input, retrieved_contexts}); a Ragas line without "
            "query_id is matched to the question with the same text. Streams in bounded memory "
            "into a staging file in $TMPDIR, then writes it in one short transaction: other "
            "writers are kept out only for that write, not while the file is read. "
            "Any bad line rejects the whole file, naming the line."
        ),
    )
    imp.add_argument("file", metavar="FILE")
    add_max_line_bytes(imp)
    imp.add_argument("--name", required=True, metavar="NAME")
    imp.add_argument("--replace", action="store_true", help="overwrite an existing run")
    imp.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="record a run parameter (repeatable), e.g. --param chunker=fixed-800",
    )
    add_quiet(imp)
    imp.add_argument(
        "--allow-empty",
        action="store_true",
        help="accept a file whose lines hold no result at all (refused by default)",
    )
    imp.set_defaults(handler=run_import)

    exp = verbs.add_parser(
        "export",
        parents=[common],
        help="write a stored run as run JSONL v1",
        description=(
            "Write stored run NAME as run JSONL v1, one line per question, results in rank "
            "order, with doc, score and start/end where they are stored."
        ),
    )
    exp.add_argument("--name", required=True, metavar="NAME")
    exp.add_argument(
        "-o", "--output", default="-", metavar="PATH", help="the file to write (default: stdout)"
    )
    exp.set_defaults(handler=run_export)

    ls = verbs.add_parser("list", parents=[common], help="list runs")
    ls.set_defaults(handler=run_list)

    place = verbs.add_parser(
        "place",
        parents=[common],
        help="work out where a run's chunks sit on the labelled pages again",
        description=(
            "At import a run stores where each question's chunks sit on the pages its labels "
            "cite, which makes scoring fast. Labels added on other pages or edited since are "
            "scored correctly but more slowly; this works the placements out again against "
            "the labels as they are now."
        ),
    )
    place.add_argument("--name", required=True, metavar="NAME")
    place.set_defaults(handler=run_place)


def _params(pairs: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError("--param", f"expected KEY=VALUE, got {pair!r}")
        params[key] = value
    return params


def run_import(args: argparse.Namespace) -> int:
    from labeler.progress import reporter
    from labeler.runs import import_run_file
    from labeler.store import open_store, resolve_db

    params = _params(args.param)
    with open_store(resolve_db(args.db)) as store:
        with reporter("run import", "bytes", quiet=args.quiet) as progress:
            report = import_run_file(
                store,
                args.file,
                args.name,
                replace=args.replace,
                parameters=params,
                progress=progress,
                allow_empty=args.allow_empty,
            )
        if report.orphans:
            print(
                f"removed {len(report.orphans)} staging file(s) left by killed imports: "
                + ", ".join(report.orphans),
                file=sys.stderr,
            )
        rate = report.questions / report.seconds if report.seconds else 0.0
        print(
            f"imported run {report.name!r}: {plural(report.questions, 'question')}, "
            f"{plural(report.results, 'result')} in {report.seconds:.2f} s ({rate:,.0f} lines/s)"
        )
        if report.offset_mismatch:
            print(
                f"{plural(report.offset_mismatch, 'result')} with offsets that do not hold "
                "their text on their page (offset_mismatch): placed by their text",
                file=sys.stderr,
            )
        return 0


def run_export(args: argparse.Namespace) -> int:
    from labeler.cli.output import open_output
    from labeler.runs import run_export_lines
    from labeler.store import open_store, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        lines = run_export_lines(store, args.name)
        first = next(lines, None)  # an unknown run fails before the output is opened
        with open_output(args.output) as out:
            if first is not None:
                out.write(first + "\n")
            for line in lines:
                out.write(line + "\n")
        return 0


def run_list(args: argparse.Namespace) -> int:
    from labeler.store import open_store, read_run_listings, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        runs = read_run_listings(store)
        for r in runs:
            print(
                json.dumps(
                    {
                        "name": r.name,
                        "imported_at": r.imported_at.isoformat(),
                        "source_file": r.source_file,
                        "queries": r.queries,
                        "results": r.results,
                    }
                )
            )
        if not runs:
            print(
                f"labeler: no runs imported yet in {store.location} (labeler run import, or "
                "labeler evaluate --store-run)",
                file=sys.stderr,
            )
        return 0


def run_place(args: argparse.Namespace) -> int:
    from labeler.runs import place_run
    from labeler.store import open_store, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        report = place_run(store, args.name)
    print(
        f"placed run {report.name!r}: {plural(report.questions, 'question')}, "
        f"{plural(report.placements, 'question-page placement')}, "
        f"{plural(report.located, 'chunk')} found on all their pages, "
        f"in {report.seconds:.2f} s"
    )
    return 0
