"""``labeler pool``: what the runs retrieve that nobody judged, per question, for judging."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store loads the ORM: import it only when the command runs
    from labeler.runs import PoolReport

#: characters of a region's text shown in the table
SHOWN = 60


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "pool",
        parents=[common],
        help="the page regions the runs' top K retrieve that no element or judgement covers",
        description=(
            "Pool stored runs for judging, as TREC pools the union of the runs' top K: for "
            "each question of the gold set, the page regions inside any run's top K chunks "
            "that no element of the question (any layer) covers and no not-relevant judgement "
            "holds (overlapping or touching chunks merged per page), ordered by how many runs "
            "retrieved them, then by the best rank; and per run, how many of its top-K "
            "chunks and characters are unjudged. A chunk is placed on its page by its offsets "
            "where they hold its text, else by its text; one not on its page is counted "
            "unplaced (its characters unjudged). Reads only. Exit 0; 1 for an unknown gold "
            "set or run; 2 for a depth below 1."
        ),
    )
    p.add_argument("--gold-set", required=True, metavar="NAME", help="the gold set to pool")
    p.add_argument(
        "--run",
        action="append",
        required=True,
        metavar="NAME",
        help="a stored run to pool (repeat for each run)",
    )
    p.add_argument(
        "--depth", type=int, required=True, metavar="K", help="pool each run's top K chunks"
    )
    p.add_argument("--format", choices=("table", "jsonl"), default="table")
    p.set_defaults(handler=run)


def render_table(report: PoolReport) -> str:
    """Per question its regions (runs, best rank, page, offsets, characters, text), then
    per run its totals."""
    from labeler.report import plural

    lines = [
        f"pool of gold set {report.gold_set!r}: runs {', '.join(report.runs)}, depth {report.depth}"
    ]
    for q in report.questions:
        lines.append(f"{q.query_id}: {plural(len(q.regions), 'unjudged region')}")
        for g in q.regions:
            text = report.text_of(g)
            shown = text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"
            lines.append(
                f"  {','.join(g.runs)}\tbest {g.best_rank}\t{g.doc} {g.start}-{g.end}\t"
                f"{g.end - g.start} chars\t{json.dumps(shown, ensure_ascii=False)}"
            )
    lines.append("run\tchunks\tunjudged chunks\tchars\tunjudged chars\tunplaced")
    for t in report.totals:
        share = f" ({t.unjudged_chars / t.chars:.1%})" if t.chars else ""
        lines.append(
            f"{t.run}\t{t.chunks}\t{t.unjudged_chunks}\t{t.chars}\t"
            f"{t.unjudged_chars}{share}\t{t.unplaced}"
        )
    return "\n".join(lines)


def jsonl_lines(report: PoolReport) -> list[str]:
    """One ``"kind": "region"`` line per region (questions in order, each most retrieved
    first), then one ``"kind": "run"`` line per run with its totals."""
    out = []
    for q in report.questions:
        for g in q.regions:
            item = {
                "kind": "region",
                "query_id": q.query_id,
                "doc": g.doc,
                "start": g.start,
                "end": g.end,
                "runs": list(g.runs),
                "best_rank": g.best_rank,
                "text": report.text_of(g),
            }
            out.append(json.dumps(item, ensure_ascii=False))
    for t in report.totals:
        item = {
            "kind": "run",
            "run": t.run,
            "depth": report.depth,
            "chunks": t.chunks,
            "unjudged_chunks": t.unjudged_chunks,
            "chars": t.chars,
            "unjudged_chars": t.unjudged_chars,
            "unplaced": t.unplaced,
        }
        out.append(json.dumps(item, ensure_ascii=False))
    return out


def run(args: argparse.Namespace) -> int:
    from labeler.runs import pool_runs
    from labeler.store import open_store, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        report = pool_runs(store, args.gold_set, args.run, args.depth)
    if args.format == "jsonl":
        for line in jsonl_lines(report):
            print(line)
    else:
        print(render_table(report))
    return 0
