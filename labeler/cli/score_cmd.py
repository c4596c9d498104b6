"""``labeler score`` and ``labeler compare``: score stored runs against stored labels."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from labeler.cli.output import add_quiet, open_output
from labeler.errors import UsageError
from labeler.evaluation import gc_paused

if TYPE_CHECKING:
    from labeler.evaluation import Evaluation
    from scoring import LayerScore
    from scoring.budget import Tokenizer
    from scoring.multicompare import MultiComparison

FORMATS = ("table", "json", "markdown", "html")
DEFAULT_LEVEL = 0.95  # scoring.intervals.DEFAULT_CONFIDENCE; not imported: the parser stays light
DEFAULT_BOOTSTRAP = 2000
#: exit status of `labeler score --fail-under` when a metric is below its bar (1 = an error)
BELOW_BAR = 3


def _positive_ints(value: str, what: str, each: str) -> tuple[int, ...]:
    """``value`` as comma-separated positive integers, sorted, duplicates dropped (empty
    parts skipped); ``what`` names them when one is not an integer, ``each`` when one is
    below 1 or there are none."""
    try:
        numbers = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated {what}, got {value!r}"
        ) from None
    if not numbers or numbers[0] < 1:
        raise argparse.ArgumentTypeError(f"every {each} must be a positive integer, got {value!r}")
    return tuple(numbers)


def _at_least_one(value: str, option: str) -> int:
    """``value`` as a whole number of at least 1 (``option`` names it when below)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{option} must be at least 1, got {value}")
    return number


def _number(value: str) -> float:
    """``value`` as a float."""
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None


def parse_ks(value: str) -> tuple[int, ...]:
    """``"1,4,10"`` → ``(1, 4, 10)``: positive integers, sorted, duplicates dropped."""
    return _positive_ints(value, "integers", "k")


def parse_budgets(value: str) -> tuple[int, ...]:
    """``"500,1000"`` → ``(500, 1000)``: positive token counts, sorted, duplicates dropped."""
    return _positive_ints(value, "token counts", "budget")


def parse_threshold(value: str) -> float:
    """``--threshold``: a share in (0, 1]."""
    threshold = _number(value)
    if not 0 < threshold <= 1:
        raise argparse.ArgumentTypeError(f"the threshold must be in (0, 1], got {value}")
    return threshold


def parse_snap_min(value: str) -> float:
    """``--snap-min``: an alignment score in (0, 1]."""
    least = _number(value)
    if not 0 < least <= 1:
        raise argparse.ArgumentTypeError(f"the snap minimum must be in (0, 1], got {value}")
    return least


def add_snap_options(p: argparse.ArgumentParser) -> None:
    """``--snap-min`` and ``--no-snap`` (``snap_of`` reads them)."""
    p.add_argument(
        "--snap-min",
        type=parse_snap_min,
        default=0.9,
        metavar="SCORE",
        help="a chunk found on none of its question's pages is snapped onto the page span "
        "it aligns with at this score or more and scored there (default 0.9)",
    )
    p.add_argument(
        "--no-snap",
        action="store_true",
        help="score chunks found on no page by the fallback rule, never snapped",
    )


def snap_of(args: argparse.Namespace) -> float | None:
    """The ``snap_min`` of ``add_snap_options``' flags (None: ``--no-snap``)."""
    return None if args.no_snap else float(args.snap_min)


def parse_jobs(value: str) -> int:
    """``--jobs``: a whole number of at least 1."""
    return _at_least_one(value, "--jobs")


def parse_level(value: str) -> float:
    """``--ci``: a confidence level in [0, 1); 0 turns intervals off."""
    level = _number(value)
    if not 0 <= level < 1:
        raise argparse.ArgumentTypeError(
            f"the confidence level must be in [0, 1) (0 = no intervals), got {value}"
        )
    return level


def parse_resamples(value: str) -> int:
    """``--bootstrap``: a whole number of resamples, at least 1."""
    return _at_least_one(value, "--bootstrap")


def parse_bars(value: str) -> tuple[tuple[str, float], ...]:
    """``"hit@5=0.8,span_recall@5=0.7"`` → ``(("hit@5", 0.8), ("span_recall@5", 0.7))``;
    whether each key is a metric is checked against the scored result."""
    bars: dict[str, float] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        key, sep, number = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"expected METRIC=VALUE, got {part.strip()!r}")
        try:
            bars[key] = float(number)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number after {key}=, got {number.strip()!r}"
            ) from None
    if not bars:
        raise argparse.ArgumentTypeError("expected METRIC=VALUE[,METRIC=VALUE...]")
    return tuple(bars.items())


def _intervals(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--ci",
        type=parse_level,
        default=DEFAULT_LEVEL,
        metavar="LEVEL",
        help=f"confidence level of the percentile bootstrap interval of {what} "
        f"(default {DEFAULT_LEVEL}; 0 = none)",
    )
    p.add_argument(
        "--bootstrap",
        type=parse_resamples,
        default=DEFAULT_BOOTSTRAP,
        metavar="N",
        help=f"bootstrap resamples (default {DEFAULT_BOOTSTRAP})",
    )


def parse_score_layer(value: str) -> str:
    """``final``, ``each`` or ``annotator:NAME`` (NAME not empty)."""
    if value in ("final", "each"):
        return value
    if value.startswith("annotator:") and value[len("annotator:") :].strip():
        return "annotator:" + value[len("annotator:") :].strip()
    raise argparse.ArgumentTypeError(f"expected final, each or annotator:NAME, got {value!r}")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gold-set", required=True, metavar="NAME")
    p.add_argument(
        "--k",
        type=parse_ks,
        default=(1, 3, 5, 10),
        metavar="K[,K...]",
        help="cut-offs (default: 1,3,5,10)",
    )
    p.add_argument(
        "--threshold",
        type=parse_threshold,
        default=0.5,
        help="share of an element one chunk must hold for Partial (default: 0.5)",
    )
    add_snap_options(p)
    p.add_argument(
        "--budget",
        type=parse_budgets,
        default=(),
        metavar="TOKENS[,TOKENS...]",
        help="also score every metric at these context budgets: the longest prefix of each "
        "ranking holding at most that many tokens (keys hit@500t...); adds tokens@k",
    )
    p.add_argument(
        "--tokenizer",
        default=None,
        metavar="NAME",
        help="how tokens are counted: 'words' (as 'labeler chunks make' counts them; the "
        "default with --budget) or tiktoken:ENCODING (optional extra 'tiktoken'); alone, "
        "adds tokens@k (mean tokens in the top k)",
    )
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument("-o", "--output", default="-", metavar="FILE", help="default: stdout")
    p.add_argument(
        "--jobs",
        type=parse_jobs,
        default=None,
        metavar="N",
        help="processes to score in (default: one per CPU for runs of 1,000+ questions on "
        "a SQLite file; 1 = no extra process). The result does not depend on it.",
    )
    add_quiet(p)


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    score = commands.add_parser(
        "score",
        parents=[common],
        help="score a stored run against a gold set's stored spans",
        description="Score a run in place against the stored labels (metrics: docs/metrics.md).",
    )
    _common(score)
    score.add_argument("--run", required=True, metavar="NAME")
    score.add_argument("--per-query", metavar="FILE", help="also write per-question rows (JSONL)")
    score.add_argument("--worst", type=int, default=20, help="worst questions listed (default 20)")
    _intervals(score, "every metric over the questions")
    score.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    score.add_argument(
        "--fail-under",
        type=parse_bars,
        default=(),
        metavar="METRIC=VALUE[,...]",
        help=f"quality gate: exit {BELOW_BAR} after the report when a named metric "
        "(hit@5, ...) is below its value",
    )
    score.add_argument(
        "--layer",
        type=parse_score_layer,
        default="final",
        metavar="final|each|annotator:NAME",
        help=(
            "which labels to score against: final (default: the gold set; in a team gold set "
            "its adjudicated final layer, pending questions left out and listed), "
            "annotator:NAME (NAME's own labels on the questions NAME marked done), or each "
            "(the final figures plus the headline metrics once per annotator)"
        ),
    )
    score.set_defaults(handler=run_score)

    compare = commands.add_parser(
        "compare",
        parents=[common],
        help="compare runs on one gold set (deltas, moved questions, paired tests)",
        description="Compare every run with the first (or --baseline): per-question deltas, "
        "moved questions, a paired randomization test per metric (Holm-corrected across the "
        "comparisons when there are several) and a bootstrap interval of each mean delta.",
    )
    _common(compare)
    compare.add_argument(
        "--run",
        action="append",
        required=True,
        metavar="NAME",
        help="give twice or more: --run A --run B [--run C ...] (delta = B − A, C − A, ...)",
    )
    compare.add_argument(
        "--baseline",
        metavar="NAME",
        default=None,
        help="the run every other run is compared with (default: the first --run)",
    )
    compare.add_argument("--permutations", type=int, default=10_000)
    compare.add_argument("--seed", type=int, default=0, help="tests' and bootstrap seed")
    _intervals(compare, "each mean delta")
    compare.set_defaults(handler=run_compare)


def run_score(args: argparse.Namespace) -> int:
    from labeler.evaluation import Intervals, ScoreRequest, UnknownMetricError, score
    from labeler.progress import reporter
    from labeler.store import resolve_db

    request = ScoreRequest(
        args.gold_set,
        args.run,
        layer=getattr(args, "layer", "final"),
        ks=args.k,
        threshold=args.threshold,
        snap_min=snap_of(args),
        budgets=args.budget,
        tokenizer=tokenizer_of(args),
        intervals=Intervals(args.ci, args.bootstrap) if args.ci else None,
        seed=args.seed,
        fail_under=args.fail_under,
        processes=args.jobs,
    )
    # scoring and its output make no reference cycles (see gcpause); the reader is closed
    # by score(), so the process may end without tearing down (see labeler.cli.entry)
    with gc_paused():
        try:
            with reporter("score", "questions", quiet=args.quiet) as progress:
                ev = score(resolve_db(args.db), request, progress=progress).evaluation
        except UnknownMetricError as err:
            raise UsageError(f"--fail-under: {err.detail}") from None
        code = _report_score(args, ev)
    args.exit_fast = True
    return code


def tokenizer_of(args: argparse.Namespace) -> Tokenizer | None:
    """The tokenizer ``--tokenizer`` names; ``words`` when only ``--budget`` is given;
    None when neither is (no token metrics)."""
    from labeler.chunks import tokenizer_for

    return tokenizer_for(args.budget, args.tokenizer)


def _report_score(args: argparse.Namespace, ev: Evaluation) -> int:
    """Write ``labeler score``'s report of ``ev`` and its notices, with the run's judged@k;
    the exit status."""
    from labeler.report import judged_section
    from scoring.pooling import JudgedCount

    result = ev.result
    judged = ev.judged.per_question() if ev.judged is not None else {}
    layers = list(ev.layers)
    with open_output(args.output) as out:
        if args.format == "json":
            ev.write_json(out)  # its per-question parts a question at a time
            out.write("\n")
        elif args.format == "html":
            from labeler.report import score_html

            out.write(
                score_html(
                    result,
                    stale_excluded=ev.stale_excluded,
                    worst=args.worst,
                    pending=ev.pending,
                    layers=layers,
                )
            )
        else:
            from labeler.report import score_report

            out.write(
                score_report(
                    result,
                    fmt=args.format,
                    stale_excluded=ev.stale_excluded,
                    worst=args.worst,
                    pending=ev.pending,
                    layer=ev.layer,
                )
            )
            if layers:
                out.write(_layers_section(args.format, layers, args.k[-1]))
            table = ev.judged
            if table is None:  # nothing scored: the section says so with dashes
                totals, shares = {k: JudgedCount(0, 0) for k in args.k}, {}
            else:
                totals, shares = table.totals(), table.shares(max(table.ks))
            out.write(judged_section(args.format, args.run, totals, shares))
    if args.per_query:
        with open_output(args.per_query) as out:
            for q in result.queries:
                row = q.to_dict()
                counts = judged.get(q.query_id)
                if counts is not None:
                    row["judged@k"] = {str(k): c.share for k, c in counts.items()}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            for qid in ev.pending:  # left out, and said so: pending adjudication
                out.write(json.dumps({"query_id": qid, "pending": True}, ensure_ascii=False))
                out.write("\n")
    if ev.pending:
        print(
            f"labeler: {len(ev.pending)} question(s) pending adjudication left out "
            "(listed in the report)",
            file=sys.stderr,
        )
    if result.missing_from_run:
        print(
            f"labeler: {len(result.missing_from_run)} question(s) missing from the run scored 0",
            file=sys.stderr,
        )
    if result.unknown_in_run:
        print(
            f"labeler: {len(result.unknown_in_run)} run question(s) not in the gold set ignored",
            file=sys.stderr,
        )
    warning = ev.judged.warning() if ev.judged is not None else None
    if warning:
        print(f"labeler: {args.run}: {warning}", file=sys.stderr)
    for failure in ev.below:
        print(f"labeler: {failure}", file=sys.stderr)
    return BELOW_BAR if ev.below else 0


def compare_plan(runs: list[str], baseline: str | None) -> tuple[list[str], int]:
    """The runs to score and the baseline's index: ``--baseline`` joins the runs when it
    is not one of them. At least two distinct runs; a name given twice is an error."""
    names = list(runs)
    if baseline is not None and baseline not in names:
        names.insert(0, baseline)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"compare: run {twice[0]!r} is given twice")
    if len(names) < 2:
        raise UsageError(f"compare takes two or more runs (--run A --run B), got {len(names)}")
    return names, names.index(baseline) if baseline is not None else 0


def _layers_section(fmt: str, layers: list[tuple[str, LayerScore]], k: int) -> str:
    """The ``--layer each`` table as a text or Markdown section."""
    from labeler.report import layer_rows, markdown_table, text_table

    title = f"By layer (k = {k})"
    if fmt == "markdown":
        return f"\n## {title}\n\n{markdown_table(*layer_rows(layers, k))}\n"
    return f"\n{title}\n{'=' * len(title)}\n\n{text_table(*layer_rows(layers, k))}\n"


def run_compare(args: argparse.Namespace) -> int:
    from labeler.evaluation import Intervals, ScoreRequest, score
    from labeler.progress import reporter
    from labeler.store import resolve_db

    runs, baseline = compare_plan(args.run, args.baseline)
    request = ScoreRequest(
        args.gold_set,
        runs=tuple(runs),
        baseline=baseline,
        permutations=args.permutations,
        ks=args.k,
        threshold=args.threshold,
        snap_min=snap_of(args),
        budgets=args.budget,
        tokenizer=tokenizer_of(args),
        intervals=Intervals(args.ci, args.bootstrap),  # level 0: the tests without intervals
        seed=args.seed,
        processes=args.jobs,
    )
    with gc_paused():
        with reporter("compare", "questions", quiet=args.quiet) as progress:
            scored = score(resolve_db(args.db), request, progress=progress)
        assert scored.comparison is not None
        code = _report_compare(args, scored.comparison, list(scored.evaluations))
    args.exit_fast = True
    return code


def _report_compare(
    args: argparse.Namespace, multi: MultiComparison, scored: list[Evaluation]
) -> int:
    """Write ``labeler compare``'s report and its notice; the exit status."""
    results = {ev.result.run: ev.result for ev in scored}
    lone = len(multi.comparisons) == 1
    with open_output(args.output) as out:
        if args.format == "json":
            data = multi.comparisons[0].to_dict() if lone else multi.to_dict()
            out.write(json.dumps(data, ensure_ascii=False))
            out.write("\n")
        elif args.format == "html":
            from labeler.report import comparisons_html

            out.write(comparisons_html(multi, results))
        else:
            from labeler.report import comparisons_report

            out.write(comparisons_report(multi, fmt=args.format))
    pending = scored[0].pending if scored else ()
    if pending:
        print(
            f"labeler: {len(pending)} question(s) pending adjudication left out of every run",
            file=sys.stderr,
        )
    return 0
