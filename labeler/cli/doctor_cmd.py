"""``labeler doctor``: check a database's invariants and list stale labels."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from labeler.cli.output import add_quiet

if TYPE_CHECKING:  # the doctor loads the ORM: import it only when the command runs
    from labeler.doctor import DoctorReport

_MARK = {"ok": "ok", "warning": "WARN", "error": "FAIL", "skipped": "skip"}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "doctor",
        parents=[common],
        help="check the database (integrity, foreign keys, spans, schema) and list stale labels",
        description=(
            "Open the database read-only and check: integrity_check, foreign_key_check, "
            "the schema version, that every ok element's text equals its page slice, stale "
            "labels (listed: gold set, question, page, offsets, text) and run results whose "
            "question is in no gold set (a warning). On PostgreSQL (--db postgresql://...) "
            "all checks run in one read-only snapshot; integrity_check is SQLite's and is "
            "skipped, and the server enforces foreign keys itself (the check confirms every "
            "constraint is validated). Exit 0 when all is well (warnings allowed), 1 when "
            "something needs fixing; stale labels count."
        ),
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_quiet(p)
    p.set_defaults(handler=run)


def render_table(report: DoctorReport) -> str:
    """The report as lines for a terminal: one line per check, then the stale labels."""
    lines = [f"database {report.database}"]
    for check in report.checks:
        lines.append(f"  {_MARK[check.status]:<4}  {check.name:<13} {check.summary}")
        for detail in check.details:
            shown = ", ".join(
                f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in detail.items()
            )
            lines.append(f"          - {shown}")
    if report.stale:
        lines.append("stale labels (gold set, question, doc, offsets, text):")
        for s in report.stale:
            text = s.text if len(s.text) <= 70 else s.text[:69] + "…"
            lines.append(f"  {s.gold_set}\t{s.query}\t{s.doc}\t{s.start}-{s.end}\t{text!r}")
    errors = sum(c.status == "error" for c in report.checks)
    warnings = sum(c.status == "warning" for c in report.checks)
    if report.ok:
        verdict = "all checks passed" + (f" ({warnings} warning(s))" if warnings else "")
    else:
        verdict = f"{errors} check(s) failed, {warnings} warning(s): see FAIL lines above"
    lines.append(verdict)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from labeler.doctor import diagnose
    from labeler.progress import reporter
    from labeler.store import resolve_db

    with reporter("doctor", "checks", quiet=args.quiet) as progress:
        report = diagnose(resolve_db(args.db), progress=progress)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render_table(report))
    return 0 if report.ok else 1
