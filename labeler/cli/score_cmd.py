"""``labeler score`` and ``labeler compare``: score stored runs against stored labels."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing
from typing import TYPE_CHECKING, Any

from labeler.cli.output import open_output
from labeler.errors import UsageError
from labeler.gcpause import gc_paused

if TYPE_CHECKING:
    from labeler.evaluate import ScoringSource
    from scoring.budget import Tokenizer

FORMATS = ("table", "json", "markdown", "html")


def parse_ks(value: str) -> tuple[int, ...]:
    """``"1,4,10"`` → ``(1, 4, 10)``: positive integers, sorted, duplicates dropped."""
    try:
        ks = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {value!r}"
        ) from None
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError(f"every k must be a positive integer, got {value!r}")
    return tuple(ks)


def parse_budgets(value: str) -> tuple[int, ...]:
    """``"500,1000"`` → ``(500, 1000)``: positive token counts, sorted, duplicates dropped."""
    try:
        budgets = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated token counts, got {value!r}"
        ) from None
    if not budgets or budgets[0] < 1:
        raise argparse.ArgumentTypeError(f"every budget must be a positive integer, got {value!r}")
    return tuple(budgets)


def parse_threshold(value: str) -> float:
    try:
        threshold = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not 0 < threshold <= 1:
        raise argparse.ArgumentTypeError(f"the threshold must be in (0, 1], got {value}")
    return threshold


def parse_jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"--jobs must be at least 1, got {value}")
    return jobs


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


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    score = commands.add_parser(
        "score",
        parents=[common],
        help="score a stored run against a gold set's stored spans",
        description="Score a run in place against the stored labels (DESIGN §6 metrics).",
    )
    _common(score)
    score.add_argument("--run", required=True, metavar="NAME")
    score.add_argument("--per-query", metavar="FILE", help="also write per-question rows (JSONL)")
    score.add_argument("--worst", type=int, default=20, help="worst questions listed (default 20)")
    score.set_defaults(handler=run_score)

    compare = commands.add_parser(
        "compare",
        parents=[common],
        help="compare two runs on one gold set (deltas, moved questions, paired test)",
    )
    _common(compare)
    compare.add_argument(
        "--run",
        action="append",
        required=True,
        metavar="NAME",
        help="give twice: --run A --run B (delta = B − A)",
    )
    compare.add_argument("--permutations", type=int, default=10_000)
    compare.add_argument("--seed", type=int, default=0)
    compare.set_defaults(handler=run_compare)


def run_score(args: argparse.Namespace) -> int:
    from labeler.evaluate import open_source
    from labeler.store.location import resolve_db

    # scoring and its output make no reference cycles (see gcpause); the source is closed
    # here, so the process may end without tearing down (see labeler.cli.entry)
    with gc_paused(), closing(open_source(resolve_db(args.db))) as source:
        code = _run_score(args, source)
    args.exit_fast = True
    return code


def tokenizer_of(args: argparse.Namespace) -> Tokenizer | None:
    """The tokenizer ``--tokenizer`` names; ``words`` when only ``--budget`` is given;
    None when neither is (no token metrics)."""
    from labeler.tokenizers import DEFAULT_TOKENIZER, make_tokenizer

    if args.tokenizer is None and not args.budget:
        return None
    return make_tokenizer(args.tokenizer or DEFAULT_TOKENIZER)


def _run_score(args: argparse.Namespace, source: ScoringSource) -> int:
    from labeler.evaluate import evaluate

    ev = evaluate(
        source,
        args.gold_set,
        args.run,
        ks=args.k,
        threshold=args.threshold,
        jobs=args.jobs,
        budgets=args.budget,
        tokenizer=tokenizer_of(args),
    )
    result = ev.result
    with open_output(args.output) as out:
        if args.format == "json":
            data = result.to_dict(per_query=True)
            data["stale_excluded"] = ev.stale_excluded
            # json.dumps, not json.dump: only the one-shot path uses the C encoder; the
            # data is a fresh tree, so the encoder's cycle check is work for nothing
            out.write(json.dumps(data, ensure_ascii=False, check_circular=False))
            out.write("\n")
        elif args.format == "html":
            from labeler.report.html import score_html

            out.write(score_html(result, stale_excluded=ev.stale_excluded, worst=args.worst))
        else:
            from labeler.report.score_report import score_report

            out.write(
                score_report(
                    result, fmt=args.format, stale_excluded=ev.stale_excluded, worst=args.worst
                )
            )
    if args.per_query:
        with open_output(args.per_query) as out:
            for q in result.queries:
                out.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
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
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from labeler.evaluate import open_source
    from labeler.store.location import resolve_db

    if len(args.run) != 2:
        raise UsageError(f"compare takes exactly two --run options, got {len(args.run)}")
    with gc_paused(), closing(open_source(resolve_db(args.db))) as source:
        code = _run_compare(args, source)
    args.exit_fast = True
    return code


def _run_compare(args: argparse.Namespace, source: ScoringSource) -> int:
    from labeler.evaluate import compare

    comparison, a, b = compare(
        source,
        args.gold_set,
        args.run[0],
        args.run[1],
        ks=args.k,
        threshold=args.threshold,
        permutations=args.permutations,
        seed=args.seed,
        jobs=args.jobs,
        budgets=args.budget,
        tokenizer=tokenizer_of(args),
    )
    with open_output(args.output) as out:
        if args.format == "json":
            out.write(json.dumps(comparison.to_dict(per_query=True), ensure_ascii=False))
            out.write("\n")
        elif args.format == "html":
            from labeler.report.html import comparison_html

            out.write(comparison_html(comparison, a.result, b.result))
        else:
            from labeler.report.score_report import comparison_report

            out.write(comparison_report(comparison, fmt=args.format))
    return 0
