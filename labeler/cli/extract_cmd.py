"""``labeler extract``: print the page text of files as a profile extracts it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from labeler.cli.output import add_max_line_bytes
from labeler.cli.score_cmd import parse_jobs
from labeler.errors import InputError, LabelerError, UsageError
from labeler.extract import DEFAULT_PROFILE, PROFILES, PageError, extract_many


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "extract",
        parents=[common],  # --db is accepted like everywhere; extract never opens it
        help="print page text of files exactly as a profile extracts it",
        description=(
            "Print the page text of each FILE. With --format text and one file, exactly its "
            "text (no newline added); several files are separated by a newline. With "
            '--format jsonl, one line per file: {"file": PATH, "text": TEXT}. Each file is '
            "extracted on its own: one that cannot be read or extracted gets one line on "
            "stderr (PATH: reason), nothing on stdout, and the others are still printed; "
            "the exit status is then 1."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    add_max_line_bytes(p, "input file (a page is read whole, as one line)")
    p.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        metavar="NAME",
        help=f"extraction profile (default: {DEFAULT_PROFILE}; also {', '.join(sorted(PROFILES))}, "
        "bs4-get-text, package.module:function or a 'labeler.profiles' entry point)",
    )
    p.add_argument("--engine", default=None, help="HTML parser engine of the profile")
    p.add_argument("--format", default="text", choices=("text", "jsonl"))
    p.add_argument(
        "--jobs",
        type=parse_jobs,
        default=None,
        metavar="N",
        help="processes to extract the files in (default: one per CPU when there is a "
        "quarter megabyte of files or more per process; 1 = no extra process). The output "
        "does not depend on it.",
    )
    p.set_defaults(handler=run)


def _read(path: str | os.PathLike[str]) -> bytes:
    """The bytes of file ``path``, at most the line limit of them (``/dev/zero``, a FIFO
    that never ends: refused once past it, in bounded memory)."""
    from labeler.formats import read_bounded

    path = os.fspath(path)

    try:
        with open(path, "rb") as handle:
            return read_bounded(handle, path)
    except IsADirectoryError:
        raise InputError(
            path, "is a directory (extract takes files; ingest takes folders)"
        ) from None
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None


def _failure(name: str, failed: PageError) -> InputError:
    """What is said of file ``name`` that could not be read (``_read``'s own error) or
    extracted."""
    err = failed.error
    if failed.stage == "read" and isinstance(err, InputError):
        return err
    if isinstance(err, LabelerError):
        return InputError(name, f"cannot extract text: {err}")
    return InputError(name, f"cannot extract text: {type(err).__name__}: {err}")


def run(args: argparse.Namespace) -> int:
    from labeler.extract import get_profile

    profile = get_profile(args.profile)  # an unknown name: ExtractError, exit 1
    if args.engine is not None and args.engine not in profile.engines:
        known = ", ".join(profile.engines) or "none"
        raise UsageError(
            f"unknown engine {args.engine!r} for profile {profile.name}; known: {known}"
        )
    out = sys.stdout.buffer
    failed = 0
    printed = 0
    # one file's failure never ends the batch; the files are extracted in up to --jobs
    # processes and printed in the order given
    results = extract_many(args.files, args.profile, engine=args.engine, read=_read, jobs=args.jobs)
    for name, result in zip(args.files, results, strict=True):
        if isinstance(result, PageError):
            failed += 1
            print(f"labeler: {_failure(name, result)}", file=sys.stderr)
            continue
        text = result.text
        if args.format == "jsonl":
            line = json.dumps({"file": name, "text": text}, ensure_ascii=False) + "\n"
            out.write(line.encode("utf-8"))
        else:
            if printed:
                out.write(b"\n")
            out.write(text.encode("utf-8"))
        printed += 1
        out.flush()
    return 1 if failed else 0
