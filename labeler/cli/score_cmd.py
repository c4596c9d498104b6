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
    from scoring import RunScore

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


def _run_score(args: argparse.Namespace, source: ScoringSource) -> int:
    from labeler.evaluate import evaluate

    layer = getattr(args, "layer", "final")
    annotator = layer[len("annotator:") :] if layer.startswith("annotator:") else None
    if annotator is not None:
        known = source.layer_annotators(args.gold_set)
        if annotator not in known:
            raise UsageError(
                f"{annotator!r} marked no question of gold set {args.gold_set!r} done "
                f"(annotators who did: {', '.join(known) or 'none'})"
            )
    ev = evaluate(
        source,
        args.gold_set,
        args.run,
        ks=args.k,
        threshold=args.threshold,
        jobs=args.jobs,
        annotator=annotator,
    )
    result = ev.result
    layers: list[tuple[str, RunScore]] = []
    if layer == "each":
        layers.append(("final", result))
        for name in source.layer_annotators(args.gold_set):
            each = evaluate(
                source,
                args.gold_set,
                args.run,
                ks=args.k,
                threshold=args.threshold,
                jobs=args.jobs,
                annotator=name,
            )
            layers.append((each.layer, each.result))
    with open_output(args.output) as out:
        if args.format == "json":
            data = result.to_dict(per_query=True)
            data["stale_excluded"] = ev.stale_excluded
            data["layer"] = ev.layer
            data["pending"] = {"count": len(ev.pending), "query_ids": list(ev.pending)}
            if layers:
                data["layers"] = [
                    {"layer": name, "queries": len(r.queries), "metrics": dict(r.metrics)}
                    for name, r in layers
                ]
            # json.dumps, not json.dump: only the one-shot path uses the C encoder; the
            # data is a fresh tree, so the encoder's cycle check is work for nothing
            out.write(json.dumps(data, ensure_ascii=False, check_circular=False))
            out.write("\n")
        elif args.format == "html":
            from labeler.report.html import score_html

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
            from labeler.report.score_report import score_report

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
    if args.per_query:
        with open_output(args.per_query) as out:
            for q in result.queries:
                out.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
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
    return 0


def _layers_section(fmt: str, layers: list[tuple[str, RunScore]], k: int) -> str:
    """The ``--layer each`` table as a text or Markdown section."""
    from labeler.report.score_report import layer_rows
    from labeler.report.tables import markdown_table, text_table

    title = f"By layer (k = {k})"
    if fmt == "markdown":
        return f"\n## {title}\n\n{markdown_table(*layer_rows(layers, k))}\n"
    return f"\n{title}\n{'=' * len(title)}\n\n{text_table(*layer_rows(layers, k))}\n"


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
    if a.pending:
        print(
            f"labeler: {len(a.pending)} question(s) pending adjudication left out of both runs",
            file=sys.stderr,
        )
    return 0
