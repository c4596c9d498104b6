"""The ``labeler`` command line: parse arguments, call the layers, print.

Only this package turns :class:`~labeler.errors.LabelerError` into exit codes. Data goes to
stdout, diagnostics to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from labeler import __version__
from labeler.cli.output import STDOUT
from labeler.errors import LabelerError, OutputError, write_failure
from labeler.store import ORIGIN_CLI, set_default_origin, set_wait_notice

#: exit code for a bug in the labeller itself (BSD sysexits EX_SOFTWARE)
EXIT_INTERNAL = 70


DB_HELP = "database file or SQLAlchemy URL (default: $LABELER_DB, else ./labels.db)"


def db_parent() -> argparse.ArgumentParser:
    """Options every command that touches the database shares.

    They are also options of ``labeler`` itself (:func:`build_parser`), so they may come
    before the command as well as after it. Here their default is ``SUPPRESS``: a
    subcommand writes only what was given after it, which then wins over the value given
    before (and ``None``, the main parser's default, stays when neither was given).
    """
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help=DB_HELP)
    return parent


#: the module of each command (``labeler.cli.<module>``, whose ``register`` adds it), in the
#: order ``labeler --help`` lists them
COMMANDS: dict[str, str] = {
    "extract": "extract_cmd",
    "ingest": "ingest_cmd",
    "gold": "gold_cmd",
    "adjudicate": "team_cmd",
    "chunks": "chunks_cmd",
    "run": "run_cmd",
    "pool": "pool_cmd",
    "score": "score_cmd",
    "compare": "score_cmd",
    "evaluate": "evaluate_cmd",
    "correctness": "correctness_cmd",
    "tui": "tui_cmd",
    "agreement": "agreement_cmd",
    "serve": "serve_cmd",
    "annotators": "annotators_cmd",
    "demo": "demo_cmd",
    "doctor": "doctor_cmd",
    "search": "search_cmd",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or only ``command``'s (one of
    :data:`COMMANDS`, with any other its module registers), which is all that parsing a
    command line naming it needs: only that command's module is imported and only its
    options built (about 0.05 s of every command's start otherwise)."""
    parser = argparse.ArgumentParser(
        prog="labeler",
        description="Label exact-span gold sets on page text and score retrieval runs.",
    )
    parser.add_argument("--version", action="version", version=f"labeler {__version__}")
    parser.add_argument("--db", metavar="PATH", default=None, help=DB_HELP)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = db_parent()
    modules = COMMANDS.values() if command is None else [COMMANDS[command]]
    for module in dict.fromkeys(modules):
        importlib.import_module(f"labeler.cli.{module}").register(commands, common)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs when it is one of :data:`COMMANDS` and nothing before it
    but ``--db PATH`` (the only option of ``labeler`` itself that takes a value); None
    otherwise (no command, a help or version option, an abbreviated option, an unknown
    command: the whole parser answers those)."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--db":
            i += 2
        elif word.startswith("--db="):
            i += 1
        elif word.startswith("-"):
            return None
        else:
            return word if word in COMMANDS else None
    return None


def entry() -> NoReturn:
    """The console script and ``python -m labeler``: run :func:`main` and exit with its code.

    Commands that set ``exit_fast`` (score and compare, once they have written their output
    and closed the database) end the process without the interpreter's teardown, which would
    free their few hundred thousand objects one by one: about 0.05 s of a 0.7 s command
    (mypy's ``--fast-exit`` does the same).
    """
    args = argparse.Namespace()
    code = main(namespace=args)
    if getattr(args, "exit_fast", False):
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    raise SystemExit(code)


def parse_arguments(
    argv: Sequence[str] | None = None, *, namespace: argparse.Namespace | None = None
) -> argparse.Namespace:
    """The parsed command line (``sys.argv[1:]`` when ``argv`` is None). No command, as in
    ``labeler`` or ``labeler --db x.db``, is the ``tui`` command with the options given.
    Bad arguments exit through argparse (status 2, usage on stderr)."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(command_of(words))
    args = parser.parse_args(argv, namespace=namespace)
    if args.command is None:
        # `labeler` alone opens the TUI on the default database (README's main command).
        args = parser.parse_args(
            ["tui", *(sys.argv[1:] if argv is None else argv)], namespace=namespace
        )
    return args


def main(argv: Sequence[str] | None = None, *, namespace: argparse.Namespace | None = None) -> int:
    """Run one command; returns the process exit code. ``namespace`` receives the parsed
    arguments (and what the command records in them, such as ``exit_fast``)."""
    for stream in (sys.stdout, sys.stderr):
        # page text is Unicode whatever the locale says; never fail on printing it
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    args = parse_arguments(argv, namespace=namespace)
    # a write waiting for another process's write lock says so on stderr after a second
    set_wait_notice(lambda message: print(f"labeler: {message}", file=sys.stderr, flush=True))
    # what a command writes is audited as the CLI's (the TUI it may start says its own)
    before = set_default_origin(ORIGIN_CLI)
    try:
        return _run(args)
    finally:
        set_default_origin(before)


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; a labeller error becomes its exit code (see :func:`main`)."""
    from labeler.formats import line_limit

    try:
        with line_limit(getattr(args, "max_line_bytes", None)):
            code: int = args.handler(args)
        _flush_stdout()  # now, while a failure can still be reported (not at exit)
        return code
    except LabelerError as err:
        if isinstance(err, OutputError) and err.path == STDOUT:
            _discard_stdout()
        print(f"labeler: error: {err}", file=sys.stderr)
        return err.exit_code
    except UnicodeEncodeError as err:
        # Python hands over command-line bytes that are not UTF-8 as lone surrogates; the
        # database and every output refuse them when they are written.
        bad = err.object[err.start : err.end] if isinstance(err.object, str) else ""
        shown = ascii(err.object)[:200] if isinstance(err.object, str) else "?"
        print(
            f"labeler: error: {shown}: not valid Unicode text (lone surrogate {bad!a}: "
            "a name or path given in bytes that are not UTF-8?)",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("labeler: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (e.g. `| head`); not an error of ours
        _discard_stdout()
        return 0
    except OSError as err:
        failure = _write_failure(err)
        if failure is None:
            return _internal(err)
        print(f"labeler: error: {failure}", file=sys.stderr)
        return failure.exit_code
    except Exception as err:
        return _internal(err)


def _flush_stdout() -> None:
    """Flush stdout; a write the system refuses becomes :class:`OutputError`."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise write_failure(err, STDOUT) or err from None


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's flush at exit of what is still
    buffered neither fails again nor prints a second message."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _write_failure(err: OSError) -> OutputError | None:
    """A disk-full, quota, read-only or I/O error as the labeller error naming the file.

    Files the labeller writes are written through :func:`~labeler.cli.output.open_output`
    or name themselves in ``err.filename``; a full disk with no file named is standard
    output (printed tables and messages).
    """
    if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) and err.filename is None:
        return write_failure(err, "(file not known)")
    failure = write_failure(err, err.filename if err.filename is not None else STDOUT)
    if failure is not None and failure.path == STDOUT:
        _discard_stdout()
    return failure


def _internal(err: BaseException) -> int:
    """Report a bug of the labeller itself (exit :data:`EXIT_INTERNAL`)."""
    if os.environ.get("LABELER_DEBUG"):
        import traceback

        traceback.print_exception(err)
    print(
        f"labeler: internal error: {type(err).__name__}: {err} "
        "(set LABELER_DEBUG=1 for the traceback)",
        file=sys.stderr,
    )
    return EXIT_INTERNAL
