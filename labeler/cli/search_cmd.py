"""``labeler search``: the ranked full-text search of the stored pages, for scripts and shells."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store loads the ORM: import it only when the command runs
    from labeler.store import SearchPage, SearchResult

#: results printed unless --limit says otherwise
DEFAULT_LIMIT = 20


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "search",
        parents=[common],
        help="find stored pages by id and full text, best first, with a snippet of the match",
        description=(
            "Search the stored pages as the TUI's documents list does: pages whose id matches "
            "the whole query first (the id itself or its last path part, then id prefix, then "
            "id contains), then pages whose text holds every word, ranked by the database's "
            'full-text index (SQLite FTS5 bm25, PostgreSQL ts_rank). "Words in double quotes" '
            "must stand together in that order; case never matters; words match whole. Each "
            "result shows its rank (none for an id match), a snippet with the matched words "
            "between « and », and with --gold-set the elements of that gold set's final layer "
            "on the page (question:start-end). Reads only: a missing database is an error. "
            "Exit 0 when something matched; 1 when nothing did, the database is missing or "
            "the gold set unknown; 2 for an empty query or a limit below 1."
        ),
    )
    p.add_argument("query", metavar="QUERY", help='words, "a phrase", or a page id or path')
    p.add_argument("--gold-set", metavar="NAME", help="list this gold set's elements on each page")
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"print the best N results (default {DEFAULT_LIMIT})",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=run)


def _elements(result: SearchResult) -> list[str]:
    return [f"{qid}:{start}-{end}" for qid, start, end in result.elements]


def counted(found: SearchPage) -> str:
    """How many pages match: ``N`` or, past the count's cap (PostgreSQL), ``at least N``."""
    return f"{found.total}" if found.exact else f"at least {found.total}"


def render_table(found: SearchPage, results: list[SearchResult], gold_set: bool) -> str:
    """One line per page (id, rank, snippet), its gold-set elements indented under it."""
    query = found.query
    if not results:
        return f"no page matches {query!r}"
    lines = []
    for r in results:
        rank = "id" if r.hit.rank is None else f"{r.hit.rank:.3f}"
        lines.append(f"{r.hit.id}\t{rank}\t{r.hit.snippet}")
        if gold_set:
            shown = ", ".join(_elements(r)) or "none"
            lines.append(f"    elements: {shown}")
    more = (
        f" (the best {len(results)} shown; --limit for more)" if found.total > len(results) else ""
    )
    if found.ranked is not None:
        more += f" (ranked among the first {found.ranked} found; the rest in storing order)"
    lines.append(f"{counted(found)} page(s) match {query!r}{more}")
    return "\n".join(lines)


def to_json(found: SearchPage, results: list[SearchResult], gold_set: str | None) -> Any:
    return {
        "query": found.query,
        "total": found.total,
        "total_exact": found.exact,
        "ranked": found.ranked,
        "gold_set": gold_set,
        "results": [
            {
                "doc_id": r.hit.id,
                "rank": r.hit.rank,
                "matched_by": "id" if r.hit.rank is None else "text",
                "snippet": r.hit.snippet,
                "position": r.hit.position if r.hit.position >= 0 else None,
                **(
                    {"elements": [{"question": q, "start": s, "end": e} for q, s, e in r.elements]}
                    if gold_set is not None
                    else {}
                ),
            }
            for r in results
        ],
    }


def run(args: argparse.Namespace) -> int:
    from labeler.store import open_store, resolve_db, search_pages

    # a search only reads: it never creates the database it was pointed at (the shared
    # "no database at PATH" refusal of every read-only command)
    with open_store(resolve_db(args.db), create=False) as store:
        found, results = search_pages(store, args.query, gold_set=args.gold_set, limit=args.limit)
    if args.format == "json":
        print(json.dumps(to_json(found, results, args.gold_set), ensure_ascii=False, indent=2))
    else:
        print(render_table(found, results, args.gold_set is not None))
    return 0 if results else 1
