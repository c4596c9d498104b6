"""``labeler demo``: the bundled demo end to end (see :mod:`labeler.demo`), then the TUI or
the report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from labeler.cli.score_cmd import parse_budgets, parse_ks

DEFAULT_DIR = "labeler-demo"


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return number


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    del common  # see --db below
    p = commands.add_parser(
        "demo",
        help="demo: bundled pages, demo gold set, BM25 over two chunkers, scores",
        description=(
            "Ingest the pages the bundled demo gold set cites (plus distractors), import the "
            "gold set as 'demo', chunk the pages with fixed token windows and with the "
            "structure-aware chunker, retrieve with BM25, import both runs, score and compare "
            "them, then open the TUI on the result (or print the reports with --no-tui). "
            "The database defaults to DIR/demo.db, never to your labels database."
        ),
    )
    # not the shared --db: the demo's default is its own database, not $LABELER_DB
    p.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="database file or SQLAlchemy URL to build or reuse (default: DIR/demo.db)",
    )
    p.add_argument("--no-tui", action="store_true", help="print the reports instead of the TUI")
    p.add_argument(
        "--k",
        type=parse_ks,
        default=(1, 3, 5, 10),
        metavar="K[,K...]",
        help="cut-offs; the runs keep the top max(K) chunks (default: 1,3,5,10)",
    )
    p.add_argument(
        "--budget",
        type=parse_budgets,
        default=None,
        metavar="TOKENS[,TOKENS...]",
        help="token budgets both runs are also scored and compared at (default: 500,1000,2000)",
    )
    p.add_argument(
        "--size", type=_positive, default=800, help="tokens per fixed window (default: 800)"
    )
    p.add_argument(
        "-o",
        "--output",
        default=DEFAULT_DIR,
        metavar="DIR",
        help=f"folder for the run files and the default database (default: ./{DEFAULT_DIR})",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from labeler.demo import DEMO_BUDGETS, GOLD_SET, demo_report, run_demo
    from labeler.errors import InputError
    from labeler.store import display_location, open_store

    out = Path(args.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(out, f"cannot create the output folder: {err.strerror or err}") from None
    db = args.db or str(out / "demo.db")
    store = open_store(db)
    try:
        outcome = run_demo(
            store,
            out,
            ks=args.k,
            size=args.size,
            say=lambda line: print(line, file=sys.stderr),
            budgets=args.budget or DEMO_BUDGETS,
        )
    finally:
        store.close()
    print(
        f"demo built in {outcome.seconds:.1f} s; database {display_location(db)}", file=sys.stderr
    )
    if args.no_tui:
        sys.stdout.write(demo_report(outcome))
        return 0
    from labeler.tui import run_tui

    return run_tui(db, gold_set=GOLD_SET)
