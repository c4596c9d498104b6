"""``labeler ingest``: store the page text of files and folders."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from labeler.cli.output import add_quiet
from labeler.cli.score_cmd import parse_jobs


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "ingest",
        parents=[common],
        help="store page text of HTML/text files and folders",
        description=(
            "Ingest files and folders (recursively): .html/.htm through the default jsoup "
            "profile, .txt/.md as they are. A document's id is its path relative to the folder "
            "given (with '/'), or the file name for a single file. Unchanged files are left "
            "alone; changed files are updated, labels on them follow their text (moved) or, "
            "when it cannot be found unambiguously, are marked stale; stale labels whose text "
            "is back at their offsets are ok again; all are reported. A file whose document "
            "id is stored from another file is refused (exit 1) unless --replace-source. "
            "A symbolic link given as PATH is followed; inside a folder, links to files "
            "outside it are skipped and links to folders are not descended."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument(
        "--replace-source",
        action="store_true",
        help=(
            "let these files replace pages stored from other source files with the same "
            "document id (e.g. after moving the corpus folder)"
        ),
    )
    p.add_argument(
        "--profile",
        default=None,
        metavar="NAME",
        help=(
            "extract the HTML files through this profile instead of jsoup-1.15.3: "
            "bs4-get-text, package.module:function, or a name from the 'labeler.profiles' "
            "entry points; pages record it with its version"
        ),
    )
    p.add_argument(
        "--engine",
        default=None,
        metavar="NAME",
        help="HTML parser engine of the profile (jsoup-1.15.3: lexbor, html5lib, jsoup)",
    )
    p.add_argument(
        "--jobs",
        type=parse_jobs,
        default=None,
        metavar="N",
        help="processes to extract the HTML pages in (default: one per CPU when there is "
        "a quarter megabyte of pages or more per process; 1 = no extra process). What is "
        "stored does not depend on it.",
    )
    add_quiet(p)
    p.set_defaults(handler=run)


#: moved labels listed one per line (the rest are counted); stale ones are always listed
MOVED_SHOWN = 20


def run(args: argparse.Namespace) -> int:
    from labeler.errors import UsageError
    from labeler.extract import DEFAULT_PROFILE, get_profile
    from labeler.pages import ingest_paths
    from labeler.progress import reporter
    from labeler.store import open_store, resolve_db

    if args.engine is not None:
        profile = get_profile(args.profile or DEFAULT_PROFILE)  # unknown: ExtractError, exit 1
        if args.engine not in profile.engines:
            known = ", ".join(profile.engines) or "none"
            raise UsageError(
                f"unknown engine {args.engine!r} for profile {profile.name}; known: {known}"
            )
    with open_store(resolve_db(args.db)) as store:
        with reporter("ingest", "files", quiet=args.quiet) as progress:
            report = ingest_paths(
                store,
                args.paths,
                progress=progress,
                replace_source=args.replace_source,
                profile=args.profile,
                engine=args.engine,
                jobs=args.jobs,
            )
        for note in report.notes:
            print(f"labeler: {note}", file=sys.stderr)
        for path, reason in report.failed:
            print(f"labeler: {path}: {reason}", file=sys.stderr)
        for moved in report.moved[:MOVED_SHOWN]:
            print(f"labeler: moved label: {moved}", file=sys.stderr)
        if len(report.moved) > MOVED_SHOWN:
            print(f"labeler: ... and {len(report.moved) - MOVED_SHOWN} more moved", file=sys.stderr)
        for stale in report.stale:
            print(f"labeler: stale label: {stale}", file=sys.stderr)
        for back in report.restored:
            print(f"labeler: label ok again: {back}", file=sys.stderr)
        print(
            f"added {report.added}, updated {report.updated}, unchanged {report.unchanged}, "
            f"skipped {report.skipped}, failed {len(report.failed)}; "
            f"{report.bytes:,} bytes in {report.seconds:.2f} s"
        )
        if report.moved:
            print(f"{len(report.moved)} labelled element(s) moved with their text (re-anchored)")
        if report.stale:
            print(
                f"{len(report.stale)} labelled element(s) no longer match their page (stale); "
                "'labeler doctor' lists them"
            )
        if report.restored:
            print(f"{len(report.restored)} stale labelled element(s) match their page again (ok)")
        if report.filled_ids:
            print(f"{len(report.filled_ids)} unchanged page(s): block boundaries stored")
        return 1 if report.failed else 0
