"""``labeler tui`` (and ``labeler`` alone): open the annotator's Textual workplace.

Textual is imported only when the command runs, so ``labeler --help`` and every other
command stay free of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

#: the corpus bundled with the repository, ingested on first run when the database is empty
BUNDLED_CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "tui",
        parents=[common],
        help="open the labelling TUI (also what `labeler` alone does)",
        description=(
            "Open the annotator TUI: questions, documents, the page view for selecting exact "
            "spans, and scores. Every change is committed at once and audited with the "
            "annotator's name. On an empty database the bundled corpus is ingested first."
        ),
    )
    add_arguments(p)
    p.set_defaults(handler=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``labeler tui`` (shared with the bare ``labeler`` invocation)."""
    p.add_argument(
        "--gold-set",
        metavar="NAME",
        default=None,
        help="gold set to label (created when missing; default: the first one)",
    )
    p.add_argument(
        "--annotator",
        "--actor",
        dest="annotator",
        metavar="NAME",
        default=None,
        help=(
            "who is labelling (default: $LABELER_ANNOTATOR, else the user name); a registered "
            "annotator's role decides what the TUI offers and allows"
        ),
    )


def run(args: argparse.Namespace) -> int:
    from labeler.serve.watch import watch_from_environment
    from labeler.store import resolve_db

    watch_from_environment()  # a `labeler serve` session: end with the server
    from labeler.tui import run_tui

    corpus = BUNDLED_CORPUS if BUNDLED_CORPUS.is_dir() else None
    return run_tui(
        resolve_db(getattr(args, "db", None)),
        gold_set=getattr(args, "gold_set", None),
        annotator=getattr(args, "annotator", None),
        corpus=corpus,
    )
