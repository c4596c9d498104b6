"""Team gold sets on the command line: ``labeler gold assign|progress|done`` and
``labeler adjudicate --auto`` and ``--reopen``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from datetime import UTC, datetime
from typing import Any

from labeler.report import plural


def parse_names(value: str) -> list[str]:
    """``"a,b,c"`` → ``["a", "b", "c"]`` (blanks dropped, first occurrence kept)."""
    names = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    if not names:
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {value!r}")
    return names


def positive_minutes(value: str) -> float:
    """``--idle-minutes``: a number of minutes above 0."""
    try:
        minutes = float(value)
    except ValueError:
        minutes = math.nan
    if not minutes > 0 or math.isinf(minutes):
        raise argparse.ArgumentTypeError(f"expected a number of minutes above 0, got {value!r}")
    return minutes


def moment(value: str) -> datetime:
    """``--as-of``: an ISO 8601 date or date-time; one without a zone is UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected an ISO 8601 time such as 2026-03-02T14:00, got {value!r}"
        ) from None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed


def register_gold(verbs: Any, common: argparse.ArgumentParser) -> None:
    """``gold assign``, ``gold progress`` and ``gold done`` (under ``labeler gold``)."""
    assign = verbs.add_parser(
        "assign",
        parents=[common],
        help="assign a gold set's questions to annotators (makes it a team gold set)",
        description=(
            "Give each chosen question to --per-question annotators: the least loaded ones "
            "(counting the questions already assigned to them), so loads stay within one of "
            "each other; ties and the question order come from --seed, so the same command "
            "plans the same. Existing assignments are never moved: re-running adds only "
            "what is missing. --sample N takes N questions of the seeded order (a larger N "
            "with the same seed extends a smaller one's sample)."
        ),
    )
    assign.add_argument("--gold-set", required=True, metavar="NAME")
    assign.add_argument("--annotators", required=True, type=parse_names, metavar="A,B,...")
    assign.add_argument("--per-question", type=int, default=2, metavar="N", help="default 2")
    assign.add_argument("--sample", type=int, default=None, metavar="N")
    assign.add_argument("--seed", type=int, default=0, help="default 0")
    assign.add_argument("--actor", default=None, help="recorded in the audit log (default: you)")
    assign.set_defaults(handler=run_assign)

    progress = verbs.add_parser(
        "progress",
        parents=[common],
        help=(
            "per annotator: assigned, done, remaining, labels per hour, seconds per question, "
            "agreement with the final layer, when their work is done; adjudicated and pending"
        ),
        description=(
            "The lead's view of a team gold set. Per annotator: questions assigned, done, "
            "remaining; labels per hour and median seconds per question over working time "
            "(from the audit log; gaps over --idle-minutes are breaks); exact F1, partial F1 "
            "and Krippendorff's alpha on characters of their spans against the final layer on "
            "the settled questions they marked done, and the questions that differ most; when "
            "their assigned work is done at their pace so far. --format html writes one "
            "self-contained page."
        ),
    )
    progress.add_argument("--gold-set", required=True, metavar="NAME")
    progress.add_argument("--format", choices=("table", "json", "html"), default="table")
    progress.add_argument(
        "--idle-minutes",
        type=positive_minutes,
        default=10.0,
        metavar="N",
        help="a gap between two changes longer than N minutes is a break (default 10)",
    )
    progress.add_argument(
        "--as-of",
        type=moment,
        default=None,
        metavar="TIME",
        help="measure pace up to this ISO 8601 time, UTC unless it says (default: now)",
    )
    progress.set_defaults(handler=run_progress)

    done = verbs.add_parser(
        "done",
        parents=[common],
        help="mark questions done by an annotator (or, with --undo, not done)",
        description=(
            "A done mark says the annotator finished the question: with their labels, or "
            "with none (no answer on these pages). Audited and undoable."
        ),
    )
    done.add_argument("--gold-set", required=True, metavar="NAME")
    done.add_argument("--query", required=True, action="append", metavar="QUERY_ID")
    done.add_argument("--annotator", default=None, help="default: you")
    done.add_argument(
        "--actor",
        default=None,
        help="who marks (default: the annotator); marking for another needs the lead role",
    )
    done.add_argument("--undo", action="store_true", help="remove the done mark")
    done.set_defaults(handler=run_done)


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """``labeler adjudicate``."""
    adj = commands.add_parser(
        "adjudicate",
        parents=[common],
        help="accept the spans annotators agree on into a team gold set's final layer",
        description=(
            "For each question two or more annotators marked done and not adjudicated yet: "
            "--auto unanimous accepts the spans every one of them chose exactly, --auto "
            "majority those more than half chose (provenance unanimous or majority); the "
            "question is marked adjudicated only when no span is left in dispute. Prints "
            "what it did and, per question, the spans left for a person (the TUI's review "
            "screen). An accepted span keeps its annotators' key clause when they agree on it; "
            "when they set different keys it is accepted without one and the keys are listed. "
            "Every step is audited under --actor and can be undone. --reopen QUERY_ID... "
            "makes settled questions pending again, to change and settle again."
        ),
    )
    adj.add_argument("--gold-set", required=True, metavar="NAME")
    what = adj.add_mutually_exclusive_group(required=True)
    what.add_argument("--auto", choices=("unanimous", "majority"))
    what.add_argument(
        "--reopen",
        nargs="+",
        metavar="QUERY_ID",
        help="reopen settled questions: pending again (left out of scores) until settled again",
    )
    adj.add_argument(
        "--dry-run", action="store_true", help="with --auto: say what would happen, change nothing"
    )
    adj.add_argument("--actor", default=None, help="recorded as the adjudicator (default: you)")
    adj.set_defaults(handler=run_adjudicate)


def run_assign(args: argparse.Namespace) -> int:
    from labeler.store import assign_team_questions, open_store, resolve_annotator, resolve_db

    actor = resolve_annotator(args.actor)
    with open_store(resolve_db(args.db), create=False) as store:
        done = assign_team_questions(
            store,
            args.gold_set,
            args.annotators,
            per_question=args.per_question,
            sample=args.sample,
            seed=args.seed,
            actor=actor,
        )
    plan, progress = done.plan, done.progress
    added: dict[str, int] = {}
    for _, name in plan.add:
        added[name] = added.get(name, 0) + 1
    print(
        f"gold set {args.gold_set!r}: {len(plan.add)} assignment(s) added over "
        f"{plan.chosen} question(s) ({plan.already} had their {args.per_question} "
        "annotators already)"
    )
    for person in progress.annotators:
        if person.annotator in args.annotators:
            print(
                f"  {person.annotator}: +{added.get(person.annotator, 0)}, "
                f"{person.assigned} assigned in all"
            )
    # an assignment makes a question pending: say which solo labels that leaves out
    for line in final_lines(progress.final_scored, progress.final_pending):
        print(line)
    return 0


def run_progress(args: argparse.Namespace) -> int:
    from labeler.report import lead_html, lead_json, lead_table, lead_view
    from labeler.store import open_store, read_lead_input, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        data = read_lead_input(store, args.gold_set)
        now = args.as_of if args.as_of is not None else datetime.now(UTC)
        view = lead_view(data, now, idle_minutes=args.idle_minutes)
        if args.format == "json":
            print(json.dumps(lead_json(view), ensure_ascii=False))
            return 0
        if args.format == "html":
            sys.stdout.write(lead_html(view))
            return 0
        if not view.team:
            print(
                f"labeler: gold set {args.gold_set!r} in {store.location} has no team work yet "
                "(labeler gold assign)",
                file=sys.stderr,
            )
        print(lead_table(view))
        for line in final_lines(view.final_scored, view.final_pending):
            print(line)
        return 0


def final_lines(scored: int, pending: int) -> list[str]:
    """What ``gold progress`` says of final labels the annotators do not see
    (:mod:`labeler.store.final_hidden`): nothing when there are none."""
    lines = []
    if scored:
        lines.append(
            f"{plural(scored, 'question')} scored from final labels made before team work; "
            f"labelling {'it' if scored == 1 else 'them'} (or a done mark) makes "
            f"{'it' if scored == 1 else 'them'} pending until adjudicated"
        )
    if pending:
        lines.append(
            f"{plural(pending, 'pending question')} with final labels the annotators do not "
            "see: kept, left out of scores until adjudicated"
        )
    return lines


def run_done(args: argparse.Namespace) -> int:
    from labeler.store import mark_questions_done, open_store, resolve_annotator, resolve_db

    annotator = resolve_annotator(args.annotator)
    with open_store(resolve_db(args.db), create=False) as store:
        changed = mark_questions_done(
            store,
            args.gold_set,
            args.query,
            annotator,
            undo=args.undo,
            actor=None if args.actor is None else resolve_annotator(args.actor),
        )
    what = "unmarked" if args.undo else "marked done"
    print(f"{changed} question(s) {what} by {annotator} in {args.gold_set!r}")
    return 0


def _span(group: Any) -> str:
    text = group.text if len(group.text) <= 60 else group.text[:59] + "…"
    who = ", ".join(group.annotators) or "final only"
    return f"{group.document_id} [{group.start}:{group.end}] {text!r} ({who})"


def run_reopen(args: argparse.Namespace) -> int:
    """``labeler adjudicate --reopen QUERY_ID...``: what was reopened, who had settled it,
    and how to undo it."""
    from labeler.errors import UsageError
    from labeler.store import open_store, reopen_questions, resolve_annotator, resolve_db

    if args.dry_run:
        raise UsageError("--dry-run goes with --auto; --reopen changes only what it names")
    actor = resolve_annotator(args.actor)
    with open_store(resolve_db(args.db), create=False) as store:
        reopened = reopen_questions(store, args.gold_set, args.reopen, actor=actor)
    print(
        f"reopened {plural(len(reopened), 'question')} of {args.gold_set!r} by {actor}: "
        "pending again (left out of scores) until settled again"
    )
    for r in reopened:
        when = "" if r.settled_at is None else f" at {r.settled_at:%Y-%m-%d %H:%M} UTC"
        print(f"  {r.external_id}: was settled by {r.settled_by}{when}")
    times = "" if len(reopened) == 1 else f" {len(reopened)} times (once per question)"
    print(
        f"change and settle again: labeler tui --gold-set {args.gold_set} --annotator {actor}, "
        "F5 (K key clause, 1-3 grade, m settles); to undo: ctrl+z there" + times + ", which "
        "settles each again as it was"
    )
    return 0


def _key_way(gold_set: str, outcome: Any, dry_run: bool) -> str:
    """Where the key of a span accepted without one is set: on the adjudication screen for
    a question still waiting; a settled one is reopened first (else the screen, which lists
    waiting questions, would not offer it, and the lock would refuse the key)."""
    if not outcome.settled:
        return "set it on the adjudication screen, F5: select the clause on the page, K"
    return (
        f"{outcome.query_id} {'would be' if dry_run else 'is'} settled; to set it, reopen "
        f"it (labeler adjudicate --gold-set {gold_set} --reopen {outcome.query_id}, or s "
        "then r on the adjudication screen, F5), select the clause, K, and m to settle again"
    )


def run_adjudicate(args: argparse.Namespace) -> int:
    from labeler.store import adjudicate_auto, open_store, resolve_annotator, resolve_db

    if args.reopen is not None:
        return run_reopen(args)
    actor = resolve_annotator(args.actor)
    with open_store(resolve_db(args.db), create=False) as store:
        result = adjudicate_auto(
            store,
            args.gold_set,
            args.auto,
            actor=actor,
            dry_run=args.dry_run,
        )
    would = "would accept" if args.dry_run else "accepted"
    settle = "would settle" if args.dry_run else "settled (marked adjudicated)"
    print(
        f"{args.auto}: {len(result.outcomes)} question(s) done by 2+ annotators; {would} "
        f"{result.accepted} span(s); {settle} {result.settled} question(s)"
        + (" [dry run: nothing changed]" if args.dry_run else "")
    )
    for outcome in result.outcomes:
        if outcome.accepted or outcome.settled:
            state = "adjudicated" if outcome.settled else "still disputed"
            keyed = sum(1 for g in outcome.accepted if g.key is not None)
            keys = f" ({keyed} with their key clause)" if keyed else ""
            print(
                f"  {outcome.query_id}: +{len(outcome.accepted)} span(s){keys}, {state} "
                f"(done by {', '.join(outcome.done_by)})"
            )
            for group in outcome.key_conflicts:
                print(
                    f"    {would} without a key, {group.key_conflict_words()} "
                    f"({_key_way(args.gold_set, outcome, args.dry_run)}): {_span(group)}"
                )
            for group in outcome.accepted:
                if group.tie_words():
                    print(f"    {would} with {group.tie_words()}: {_span(group)}")
    left = result.left
    if left:
        print(
            f"left for a person: {len(left)} question(s) (labeler tui: the adjudication screen, F5)"
        )
        for outcome in left:
            print(f"  {outcome.query_id} (done by {', '.join(outcome.done_by)}): disputed")
            for group in outcome.disputed:
                print(f"    {_span(group)}")
    if result.waiting:
        shown = ", ".join(result.waiting[:10]) + (", ..." if len(result.waiting) > 10 else "")
        print(f"waiting for a second annotator's done mark: {len(result.waiting)} ({shown})")
    if not result.outcomes and not result.waiting:
        print(f"labeler: gold set {args.gold_set!r}: nothing left to adjudicate", file=sys.stderr)
    return 0
