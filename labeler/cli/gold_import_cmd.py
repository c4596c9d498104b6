"""``labeler gold import``: a gold set from gold JSONL v1, Label Studio or doccano spans,
or (``--layer``) one annotator's own labels in a team gold set.

Every import is all or nothing: a bad line rejects the whole file, naming the line, and
the database is left as it was. ``--replace`` refuses to remove anything the file does
not hold (elements of either layer, questions, notes, done marks, assignments, adjudication
marks) unless ``--force``; what a forced replace removed is listed on stderr with how to
get it back (the audit log keeps each removal).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from labeler.errors import UsageError, input_name
from labeler.report import plural

if TYPE_CHECKING:
    from labeler.store import Dropped


def run_import(args: argparse.Namespace) -> int:
    if (args.snap or args.snap_review) and (args.layer or args.format not in ("jsonl", "ragas")):
        raise UsageError(
            "--snap and --snap-review read gold JSONL or Ragas lines into a gold set (no --layer)"
        )
    if args.layer:
        return _import_layer(args)
    if args.actor is not None:
        raise UsageError("--actor goes with --layer (a plain import is recorded under --annotator)")
    if args.format not in ("jsonl", "ragas"):
        return _import_spans(args)
    for flag, value in (("--offset-unit", args.offset_unit), ("--prefer", args.prefer)):
        if value is not None:
            raise UsageError(
                f"{flag} is for --format labelstudio and doccano (gold JSONL "
                "counts code points and re-anchors by text)"
            )
    from labeler.gold import SnapOptions, import_gold_file
    from labeler.progress import reporter
    from labeler.store import open_store, resolve_annotator, resolve_db

    annotator = resolve_annotator(args.annotator)
    _check_force(args)
    if args.snap_review and not args.snap:
        raise UsageError("--snap-review goes with --snap")
    snap = SnapOptions(args.snap_min, args.snap_review) if args.snap else None
    with (
        open_store(resolve_db(args.db)) as store,
        reporter("gold import", "questions", quiet=args.quiet) as progress,
    ):
        questions, summary = import_gold_file(
            store,
            args.file,
            args.gold_set,
            annotator=annotator,
            description=args.description,
            replace=args.replace,
            force=args.force,
            hint=_force_hint(args),
            keep=False,  # only the questions reported below: memory bounded whatever the file
            progress=progress,
            snap=snap,
            fmt=args.format,
        )
    shown = input_name(args.file)
    for q in questions:
        for e in q.elements:
            if e.snap_score is not None:
                print(
                    f"labeler: {shown}:{q.line}: {e.doc}: text not on the page; snapped to "
                    f"{e.start}-{e.end} (score {e.snap_score:.3f})",
                    file=sys.stderr,
                )
            elif e.reanchored:
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
    for miss in summary.review:
        print(
            f"labeler: {shown}:{miss.line}: elements[{miss.index}] in {miss.doc!r}: below "
            f"--snap-min; left out, its text in the question's notes to label",
            file=sys.stderr,
        )
    stale = f", {summary.stale} stale" if summary.stale else ""
    if snap is not None:
        lowest = f", lowest score {summary.lowest_snap:.3f}" if summary.snapped else ""
        stale += (
            f"; {summary.elements - summary.snapped} exact, {summary.snapped} snapped{lowest}, "
            f"{len(summary.review)} left to label"
        )
    print(
        f"imported gold set {args.gold_set!r}: {plural(summary.questions, 'question')}, "
        f"{plural(summary.elements, 'element')} ({summary.reanchored} re-anchored, "
        f"{summary.repeated} repeated on their page{stale})"
    )
    return 0


def _import_layer(args: argparse.Namespace) -> int:
    """``gold import --layer``: the file as one annotator's own labels."""
    from labeler.gold import import_layer_file
    from labeler.progress import reporter
    from labeler.store import open_store, resolve_annotator, resolve_db

    if args.format != "jsonl":
        raise UsageError("--layer reads gold JSONL (--format jsonl)")
    if args.offset_unit is not None or args.prefer is not None:
        raise UsageError("--offset-unit and --prefer are for --format labelstudio and doccano")
    if args.annotator is None or not args.annotator.strip():
        raise UsageError("--layer needs --annotator NAME (whose labels the file holds)")
    if args.replace or args.force:
        raise UsageError("--layer replaces the annotator's own labels by itself; drop --replace")
    with (
        open_store(resolve_db(args.db)) as store,
        reporter("gold import", "questions", quiet=args.quiet) as progress,
    ):
        done = import_layer_file(
            store,
            args.file,
            args.gold_set,
            annotator=args.annotator.strip(),
            description=args.description,
            actor=resolve_annotator(args.actor),
            allow_empty=args.allow_empty,
            progress=progress,
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
        f"imported {done.annotator}'s layer into {args.gold_set!r}{made}: "
        f"{plural(done.questions, 'question')} ({done.created} created), "
        f"{plural(done.added, 'element')} ({done.removed} earlier "
        f"ones replaced), {done.done} marked done ({done.no_answer} with no answer)"
    )
    return 0


def _import_spans(args: argparse.Namespace) -> int:
    """Label Studio / doccano spans → a new gold set, all or nothing."""
    from labeler.gold import import_span_file
    from labeler.store import open_store, resolve_annotator, resolve_db

    annotator = resolve_annotator(args.annotator)
    _check_force(args)
    with open_store(resolve_db(args.db)) as store:
        done = import_span_file(
            store,
            args.file,
            args.format,
            args.gold_set,
            annotator=annotator,
            description=args.description,
            replace=args.replace,
            force=args.force,
            hint=_force_hint(args),
            unit=args.offset_unit,
            prefer=args.prefer,
            allow_empty=args.allow_empty,
        )
    result, removed = done.resolved, done.removed
    _report_removed(args, removed, annotator)
    for note in result.notes:
        print(f"labeler: {input_name(args.file)}: {note}", file=sys.stderr)
    elements = sum(len(q.elements) for q in result.questions)
    print(
        f"imported gold set {args.gold_set!r} from {args.format}: "
        f"{plural(len(result.questions), 'question')} (one per label), {plural(elements, 'element')} "
        f"from {plural(result.spans, 'span')} "
        f"({result.utf16} UTF-16 offsets converted, {result.reanchored} placed by text, "
        f"{result.kept} kept at offsets against their text, {result.repeated} repeated on "
        "their page)"
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


def _report_removed(args: argparse.Namespace, removed: Sequence[Dropped], who: str) -> None:
    """List on stderr everything a forced replace removed, and how to get each kind back."""
    from labeler.store import DroppedElement, dropped_counts

    if not removed:
        return
    only_elements = all(isinstance(d, DroppedElement) for d in removed)
    what = " (question, page, offsets, text)" if only_elements else ""
    print(
        f"labeler: --force: removed {dropped_counts(removed)} of gold set {args.gold_set!r} "
        f"that the file does not hold{what}:",
        file=sys.stderr,
    )
    for row in removed:
        print(f"labeler:   {row}", file=sys.stderr)
    kinds = {d.kind for d in removed}
    back = [
        "elements and questions: import a file that holds them (an export taken before "
        "the replace) with --replace"
    ]
    if kinds & {"annotator-layer element", "done mark"}:
        back.append(
            "annotators' own labels and done marks: gold import --layer --annotator NAME of "
            "an earlier 'gold export --layer annotator:NAME'"
        )
    if "assignment" in kinds:
        back.append("assignments: gold assign")
    if "adjudication mark" in kinds:
        back.append("adjudication marks: adjudicate the questions again")
    print(
        f"labeler: each removal is in the audit log (actor {who!r}, action 'remove', with the "
        "row as it was); undo does not reverse an import. To get them back, " + "; ".join(back),
        file=sys.stderr,
    )
