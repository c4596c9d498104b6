"""``labeler extract``: print the page text of files as a profile extracts it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.extract import DEFAULT_PROFILE, PROFILES, page_text


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "extract",
        parents=[common],  # --db is accepted like everywhere; extract never opens it
        help="print page text of files exactly as a profile extracts it",
        description=(
            "Print the page text of each FILE. With --format text and one file, exactly its "
            "text (no newline added); several files are separated by a newline. With "
            '--format jsonl, one line per file: {"file": PATH, "text": TEXT}.'
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        metavar="NAME",
        help=f"extraction profile (default: {DEFAULT_PROFILE}; also {', '.join(sorted(PROFILES))}, "
        "bs4-get-text, package.module:function or a 'labeler.profiles' entry point)",
    )
    p.add_argument("--engine", default=None, help="HTML parser engine of the profile")
    p.add_argument("--format", default="text", choices=("text", "jsonl"))
    p.set_defaults(handler=run)


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError(
            path, "is a directory (extract takes files; ingest takes folders)"
        ) from None
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None


def run(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    for i, name in enumerate(args.files):
        text = page_text(_read(name), args.profile, engine=args.engine)
        if args.format == "jsonl":
            line = json.dumps({"file": name, "text": text}, ensure_ascii=False) + "\n"
            out.write(line.encode("utf-8"))
        else:
            if i:
                out.write(b"\n")
            out.write(text.encode("utf-8"))
    out.flush()
    return 0
