"""``labeler agreement``: how far annotators agree, to the character, on a team gold set."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from labeler.cli.output import add_quiet

FORMATS = ("table", "json", "markdown", "html")


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "agreement",
        parents=[common],
        help="agreement between annotators on the questions two or more marked done",
        description=(
            "Compare the annotators' own labels on every question of the gold set that two "
            "or more of them marked done: exact_f1 (the same spans), partial_f1 (spans "
            "overlapping by at least half) and char_alpha (Krippendorff's alpha, nominal, "
            "over every character of the pages cited), per pair of annotators, per question "
            "(lowest agreement first in the table formats) and overall. Stale labels are "
            "left out (and counted on stderr)."
        ),
    )
    p.add_argument("--gold-set", required=True, metavar="NAME")
    p.add_argument("--annotators", metavar="A,B", help="only these annotators (default: every one)")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument(
        "--worst", type=int, default=20, metavar="N", help="questions shown in tables (0: all)"
    )
    p.add_argument("--per-question", metavar="FILE", help="also write one JSON line per question")
    add_quiet(p)
    p.set_defaults(handler=run)


def _annotators(value: str | None, known: set[str]) -> list[str] | None:
    from labeler.errors import UsageError

    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if len(names) < 2:
        raise UsageError("--annotators: name two or more annotators, e.g. --annotators ana,bob")
    unknown = [n for n in names if n not in known]
    if unknown:
        shown = ", ".join(sorted(known)) or "none has marked a question done yet"
        raise UsageError(
            f"--annotators: {', '.join(unknown)} marked no question of this gold set done "
            f"(annotators with done questions: {shown})"
        )
    return names


def run(args: argparse.Namespace) -> int:
    from labeler.cli.output import json_text, open_output
    from labeler.progress import reporter
    from labeler.store import open_store, read_done_labels, resolve_db
    from scoring.agreement import AgreementInput, agreement, render_agreement

    with open_store(resolve_db(args.db), create=False) as store:
        labels = read_done_labels(store, args.gold_set)
    known = {who for by in labels.questions.values() for who in by}
    chosen = _annotators(args.annotators, known)
    data = AgreementInput(labels.questions, labels.page_lengths)
    with reporter("agreement", "questions", quiet=args.quiet) as progress:
        result = agreement(data, chosen, gold_set=args.gold_set, progress=progress)
    worst = None if args.worst <= 0 else args.worst
    sys.stdout.write(render_agreement(result, args.format, worst=worst))
    if args.per_question:
        with open_output(args.per_question) as out:
            for q in result.per_question:
                out.write(json_text(q.to_dict()) + "\n")
    if labels.stale_left_out:
        print(
            f"labeler: {labels.stale_left_out} stale label(s) left out (their page changed)",
            file=sys.stderr,
        )
    if not result.questions:
        print(
            "labeler: no question of this gold set is marked done by two or more annotators",
            file=sys.stderr,
        )
    return 0
