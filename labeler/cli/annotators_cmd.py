"""``labeler annotators add|role|list|revoke|rotate``: who may label through ``labeler
serve``, and their roles.

``add`` and ``rotate`` print the annotator's personal link, ``URL/?token=TOKEN``, on stdout:
the only time the token is shown (the database keeps its hash). Messages go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any
from urllib.parse import urlsplit

from labeler.errors import UsageError

#: where ``labeler serve`` listens by default, and so the links' default prefix
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"
#: the roles a registered annotator can have (``labeler.store.ROLES``, spelt here so that
#: building the parser loads no store)
ROLE_CHOICES = ("annotator", "lead")


def public_url(raw: str) -> str:
    """``raw`` without a trailing ``/`` when it is an http(s) URL with a host and no query,
    else :class:`UsageError`."""
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(
            f"--public-url {raw!r}: expected http(s)://HOST[:PORT][/PATH], no query or fragment"
        )
    return raw.rstrip("/")


def link(base: str, token: str) -> str:
    """The personal link for ``token`` under ``base`` (a :func:`public_url`)."""
    return f"{base}/?token={token}"


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "annotators",
        parents=[common],
        help="annotators of `labeler serve` and their personal links",
        description=(
            "Manage who may label in a browser through `labeler serve`. Each annotator has a "
            "secret personal link; the database stores only a hash of its token."
        ),
    )
    verbs = p.add_subparsers(dest="annotators_command", metavar="ACTION", required=True)
    url_help = f"the address annotators open (default {DEFAULT_PUBLIC_URL})"
    actor_help = "who does it, recorded in the audit log; needs the lead role (default: you)"
    add = verbs.add_parser(
        "add", parents=[common], help="create an annotator and print their link (shown once)"
    )
    add.add_argument("name", metavar="NAME")
    add.add_argument(
        "--role",
        choices=ROLE_CHOICES,
        default=ROLE_CHOICES[0],
        help="annotator: labels their own layer; lead: also assigns, adjudicates, deletes",
    )
    add.add_argument("--public-url", metavar="URL", default=DEFAULT_PUBLIC_URL, help=url_help)
    add.add_argument("--actor", default=None, help=actor_help)
    add.set_defaults(handler=run_add)
    role = verbs.add_parser(
        "role", parents=[common], help="give an annotator the role annotator or lead"
    )
    role.add_argument("name", metavar="NAME")
    role.add_argument("role", metavar="ROLE", choices=ROLE_CHOICES)
    role.add_argument("--actor", default=None, help=actor_help)
    role.set_defaults(handler=run_role)
    rotate = verbs.add_parser(
        "rotate",
        parents=[common],
        help="give an annotator a new link (the old one stops working; a revoked one works again)",
    )
    rotate.add_argument("name", metavar="NAME")
    rotate.add_argument("--public-url", metavar="URL", default=DEFAULT_PUBLIC_URL, help=url_help)
    rotate.set_defaults(handler=run_rotate)
    revoke = verbs.add_parser(
        "revoke", parents=[common], help="stop an annotator's link now (open sessions end)"
    )
    revoke.add_argument("name", metavar="NAME")
    revoke.set_defaults(handler=run_revoke)
    ls = verbs.add_parser(
        "list", parents=[common], help="list annotators and their roles (never their tokens)"
    )
    ls.add_argument("--format", choices=("table", "json"), default="table")
    ls.set_defaults(handler=run_list)


def run_add(args: argparse.Namespace) -> int:
    from labeler.store import create_annotator, open_store, resolve_annotator, resolve_db

    base = public_url(args.public_url)
    actor = resolve_annotator(args.actor)
    with open_store(resolve_db(args.db)) as store:
        token = create_annotator(store, args.name, args.role, actor=actor)
    print(link(base, token))
    print(
        f"labeler: {args.role} {args.name!r} added; the link above is shown only once "
        "(send it privately; `labeler annotators rotate` makes a new one)",
        file=sys.stderr,
    )
    return 0


def run_role(args: argparse.Namespace) -> int:
    from labeler.store import open_store, resolve_annotator, resolve_db, set_annotator_role

    actor = resolve_annotator(args.actor)
    with open_store(resolve_db(args.db), create=False) as store:
        changed = set_annotator_role(store, args.name, args.role, actor=actor)
    if changed:
        print(f"labeler: {args.name!r} is now {args.role}", file=sys.stderr)
    else:
        print(f"labeler: {args.name!r} was {args.role} already", file=sys.stderr)
    return 0


def run_rotate(args: argparse.Namespace) -> int:
    from labeler.store import open_store, resolve_db, rotate_annotator_token

    base = public_url(args.public_url)
    with open_store(resolve_db(args.db), create=False) as store:
        token = rotate_annotator_token(store, args.name)
    print(link(base, token))
    print(
        f"labeler: new link for {args.name!r}; the old one no longer works",
        file=sys.stderr,
    )
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    from labeler.store import open_store, resolve_db, revoke_annotator

    with open_store(resolve_db(args.db), create=False) as store:
        changed = revoke_annotator(store, args.name)
    if changed:
        print(f"labeler: revoked {args.name!r}; their open sessions end", file=sys.stderr)
    else:
        print(f"labeler: {args.name!r} was revoked already", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    from labeler.store import open_store, read_annotators, resolve_db

    with open_store(resolve_db(args.db), create=False) as store:
        rows = read_annotators(store)
        where = store.location
    if args.format == "json":
        listed = [
            {
                "name": r.name,
                "role": r.role,
                "active": r.active,
                "created_at": r.created_at.isoformat(),
                "revoked_at": None if r.revoked_at is None else r.revoked_at.isoformat(),
            }
            for r in rows
        ]
        print(json.dumps(listed, ensure_ascii=False, indent=2))
        return 0
    for row in rows:
        status = "active" if row.active else f"revoked {row.revoked_at:%Y-%m-%d %H:%M}"
        print(f"{row.name}\t{row.role}\t{status}\tadded {row.created_at:%Y-%m-%d %H:%M} UTC")
    if not rows:
        print(
            f"labeler: no annotators yet in {where} (`labeler annotators add NAME`)",
            file=sys.stderr,
        )
    return 0
