"""``labeler serve``: the annotator TUI in browsers, one secret link per annotator.

aiohttp and textual-serve are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from labeler.cli.annotators_cmd import public_url
from labeler.errors import UsageError

#: seconds without input after which a session ends
DEFAULT_IDLE_TIMEOUT = 1800.0


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "serve",
        parents=[common],
        help="serve the annotator TUI in browsers (one secret link per annotator)",
        description=(
            "Serve the annotator TUI over HTTP: each annotator opens their personal link "
            "(`labeler annotators add NAME` prints it) and gets their own TUI process, "
            "which writes under their name. Requests without a valid token get 401. "
            "Listens on 127.0.0.1 unless --host says otherwise; put it behind a TLS "
            "reverse proxy before exposing it beyond this machine."
        ),
    )
    p.add_argument("--gold-set", metavar="NAME", default=None, help="gold set every session opens")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument(
        "--public-url",
        metavar="URL",
        default=None,
        help="the address browsers use, e.g. https://labels.example.org behind a proxy "
        "(default: the address each request names)",
    )
    p.add_argument(
        "--max-sessions",
        type=int,
        metavar="N",
        default=None,
        help="sessions open at once (default: 4 per CPU, fewer if memory is short, at least 2)",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        metavar="S",
        default=DEFAULT_IDLE_TIMEOUT,
        help=f"end a session after S seconds without input (default {DEFAULT_IDLE_TIMEOUT:.0f})",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from labeler.serve.listen import configure_logging, serve
    from labeler.serve.server import ServeConfig
    from labeler.serve.sessions import default_max_sessions
    from labeler.store import open_store, read_annotators, resolve_db

    if args.max_sessions is not None and args.max_sessions < 1:
        raise UsageError(f"--max-sessions {args.max_sessions}: must be at least 1")
    if args.idle_timeout <= 0:
        raise UsageError(f"--idle-timeout {args.idle_timeout}: must be more than 0 seconds")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: must be 0 to 65535")
    db = resolve_db(args.db)
    config = ServeConfig(
        db=db,
        gold_set=args.gold_set,
        host=args.host,
        port=args.port,
        public_url=public_url(args.public_url) if args.public_url else None,
        max_sessions=args.max_sessions or default_max_sessions(),
        idle_timeout=args.idle_timeout,
    )
    with open_store(db) as store:
        annotators = [a.name for a in read_annotators(store, active_only=True)]

        def announce(address: str) -> None:
            shown = config.public_url or address
            print(f"labeler serve: listening on {address}", file=sys.stderr, flush=True)
            if annotators:
                print(
                    f"labeler serve: {len(annotators)} annotator(s) ({', '.join(annotators)}) "
                    f"open their links: {shown}/?token=... (`labeler annotators rotate NAME` "
                    "prints a new one)",
                    file=sys.stderr,
                    flush=True,
                )
            else:
                print(
                    f"labeler serve: no annotators yet in {store.location}: "
                    "`labeler annotators add NAME "
                    f"--public-url {shown}` prints a link",
                    file=sys.stderr,
                    flush=True,
                )
            print(
                f"labeler serve: at most {config.max_sessions} sessions, idle ones end after "
                f"{config.idle_timeout:.0f} s; ctrl+c stops",
                file=sys.stderr,
                flush=True,
            )

        configure_logging()
        asyncio.run(serve(store, config, announce))
    return 0
