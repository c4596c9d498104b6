"""``labeler evaluate``: call a retriever on every question of a gold set and score it
(:meth:`labeler.api.GoldSet.evaluate`, the same call as from Python)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from labeler.cli.output import add_quiet, open_output
from labeler.cli.score_cmd import add_snap_options, parse_ks, parse_threshold, snap_of
from labeler.errors import InputError

if TYPE_CHECKING:
    from labeler.api import RetrieverEvaluation

FORMATS = ("table", "json", "markdown")


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return number


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {value!r}") from None
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {value}")
    return number


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "evaluate",
        parents=[common],
        help="call a retriever on every question of a gold set and score its answers",
        description=(
            "Import package.module:attr, a callable (called with each question's text, and "
            "its id when its second positional parameter has no default) or a LangChain or "
            "LlamaIndex retriever, vector store or index as it is, ask it every question and "
            "score the ranked results it returns: strings, mappings with text/page_content, "
            "LangChain Documents, LlamaIndex nodes or NodeWithScore, with their offsets. "
            "Coroutines are awaited, --concurrency at a time. A question whose call raises, "
            "times out or returns more than --max-results results is reported as failed and "
            "scored as missing from the run (0)."
        ),
    )
    p.add_argument("--gold-set", required=True, metavar="NAME")
    p.add_argument("--retriever", required=True, metavar="MODULE:ATTR")
    p.add_argument(
        "--retriever-arg",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="(repeatable) MODULE:ATTR is a factory: called once with these keyword "
        "arguments (strings), it returns the retriever",
    )
    p.add_argument(
        "--k", type=parse_ks, default=(1, 3, 5, 10), metavar="K[,K...]", help="(default 1,3,5,10)"
    )
    p.add_argument(
        "--threshold", type=parse_threshold, default=0.5, help="Partial share (default 0.5)"
    )
    add_snap_options(p)
    p.add_argument("--store-run", metavar="NAME", help="also store the answers as run NAME")
    p.add_argument("--replace", action="store_true", help="--store-run may replace a run")
    p.add_argument(
        "--concurrency", type=_positive_int, default=1, help="calls in flight (default 1)"
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds a question's call may take before it counts as failed (default: none)",
    )
    p.add_argument(
        "--max-results",
        type=_positive_int,
        default=1000,
        metavar="N",
        help="results a question may return before it counts as failed (default 1000)",
    )
    p.add_argument("--fail-fast", action="store_true", help="stop at the first failed question")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument("-o", "--output", default="-", metavar="FILE", help="default: stdout")
    p.add_argument("--worst", type=int, default=20, help="worst questions listed (default 20)")
    add_quiet(p)
    p.set_defaults(handler=run)


def _factory_args(pairs: list[str] | None) -> dict[str, str] | None:
    if pairs is None:
        return None
    args: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            raise InputError("--retriever-arg", f"expected KEY=VALUE, got {pair!r}")
        args[key] = value
    return args


def run(args: argparse.Namespace) -> int:
    from labeler.api import open as open_db
    from labeler.evaluation import load_retriever
    from labeler.progress import reporter
    from labeler.store import resolve_db

    # ends without the interpreter's teardown, which waits for non-daemon threads: one a
    # retriever started and left running would hold the process after its report
    args.exit_fast = True
    factory_args = _factory_args(args.retriever_arg)
    # a gold set must be stored already: no database is refused, never created
    with open_db(resolve_db(args.db), create=False) as db:  # a bad --db fails before user code runs
        gold = db.gold_set(args.gold_set)
        retriever = load_retriever(args.retriever, factory_args)
        with reporter("evaluate", "questions", quiet=args.quiet) as progress:
            result = gold.evaluate(
                retriever,
                k=args.k,
                threshold=args.threshold,
                snap_min=snap_of(args),
                concurrency=args.concurrency,
                timeout=args.timeout,
                fail_fast=args.fail_fast,
                max_results=args.max_results,
                store_run=args.store_run,
                replace=args.replace,
                label=args.retriever,
                progress=progress,
            )
    with open_output(args.output) as out:
        if args.format == "json":
            out.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(report(result, fmt=args.format, worst=args.worst))
    if result.failures:
        print(
            f"labeler: {len(result.failures)} question(s) failed and scored 0 "
            f"(first: {result.failures[0].query_id}: {result.failures[0].error})",
            file=sys.stderr,
        )
    if args.store_run:
        print(f"labeler: stored run {args.store_run!r}", file=sys.stderr)
    return 0


def report(result: RetrieverEvaluation, *, fmt: str = "table", worst: int = 20) -> str:
    """``labeler score``'s report, then the latencies and the failed questions."""
    from labeler.report import markdown_table, markdown_text, score_report, text_table

    ev = result.evaluation
    text = score_report(ev.result, fmt=fmt, stale_excluded=ev.stale_excluded, worst=worst)
    md = fmt == "markdown"
    table = markdown_table if md else text_table

    def heading(title: str) -> str:
        return f"## {markdown_text(title)}" if md else f"{title}\n{'=' * len(title)}"

    lat = result.latency
    parts = [
        text.rstrip("\n"),
        "",
        heading(f"Latency of {result.retriever} (seconds per answered question)"),
        "",
        table(
            ["questions", "p50", "p95", "max", "mean"],
            [[lat.questions, *(f"{v:.4f}" for v in (lat.p50, lat.p95, lat.max, lat.mean))]],
        ).rstrip("\n"),
    ]
    if result.failures:
        parts += ["", heading(f"Failed questions ({len(result.failures)}, scored 0)"), ""]
        rows = [[f.query_id, f"{f.seconds:.3f}", f.error] for f in result.failures]
        parts.append(table(["query_id", "seconds", "error"], rows).rstrip("\n"))
    return "\n".join(parts) + "\n"
