"""PostgreSQL's ranked text matches, ranking a capped candidate set (the list while typing).

Ranking every match with ``ts_rank`` reads each matching page's ``tsvector`` (stored out of
line, TOAST): for a word on every one of 100,000 pages that is over a second. Finding the
matches themselves is cheap (the GIN index, then the heap rows), so a search first takes
up to :data:`COUNT_CAP` matches as the index yields them, and ranks only the first
:data:`RANK_CAP` of those (plus every match named for a phrase):

- at most :data:`RANK_CAP` matches: every one is ranked, the order exact, the count exact;
- more: the ranked part is the first :data:`RANK_CAP` matches in storing order (the heap's
  order, which a bitmap scan of the index follows) and the pages named for a phrase; the
  other matches follow it in storing order, each still showing its own rank. The count is
  exact up to :data:`COUNT_CAP`, beyond that "at least :data:`COUNT_CAP`" until a page past
  the ranked part is read (that read counts the rest exactly).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text

#: matches ranked by ts_rank at most (beyond: storing order)
RANK_CAP = 2000
#: matches counted at most before the total is "at least" this many
COUNT_CAP = 10_000


@dataclass(frozen=True)
class TextMatches:
    """One page of a search's text matches on PostgreSQL."""

    #: (page id, rank) in result order
    rows: list[tuple[str, float]]
    #: text matches in all (exact, or a lower bound when not ``exact``)
    total: int
    exact: bool
    #: how many matches the ranked part holds when it is not all of them (None: all ranked)
    ranked: int | None


@contextmanager
def index_plan(conn: Connection) -> Iterator[None]:
    """Inside: this transaction's plans find matches through the GIN index (a bitmap scan,
    never a sequential scan that would read every page's vector) in one process (a
    parallel scan would give no storing order); the settings are put back after."""
    names = ("enable_seqscan", "max_parallel_workers_per_gather")
    was = [conn.execute(text(f"SELECT current_setting('{n}')")).scalar_one() for n in names]
    for name, value in zip(names, ("off", "0"), strict=True):
        conn.execute(text("SELECT set_config(:n, :v, true)"), {"n": name, "v": value})
    try:
        yield
    finally:
        for name, value in zip(names, was, strict=True):
            conn.execute(text("SELECT set_config(:n, :v, true)"), {"n": name, "v": value})


def text_matches(
    conn: Connection,
    *,
    where: str,
    named: str,
    not_by_id: str,
    tsq: str,
    score: str,
    params: dict[str, Any],
    offset: int,
    limit: int,
) -> TextMatches:
    """Matches ``offset`` to ``offset + limit`` (see the module's order). ``where`` is the
    match condition on ``document d`` and the query ``q.q`` (``tsq``); ``named`` counts the
    phrases ``d``'s id holds; ``not_by_id`` excludes the pages listed as id matches;
    ``score`` is the rank of ``d`` for ``q.q``."""
    source = f"document d, (SELECT {tsq} AS q) AS q"
    with index_plan(conn):
        seen = [
            str(t)
            for t in conn.execute(
                text(f"SELECT d.ctid::text FROM {source} WHERE {where} LIMIT :seen"),
                {**params, "seen": COUNT_CAP},
            ).scalars()
        ]
        exact = len(seen) < COUNT_CAP
        ranked_part, named_extra, boundary = seen, [], None
        if len(seen) > RANK_CAP:
            ranked_part, boundary = seen[:RANK_CAP], seen[RANK_CAP - 1]
            # pages named for a phrase come first wherever they are stored: found by the
            # ids alone (the primary key's index), then checked against the query
            holders = list(
                conn.execute(
                    text(
                        f"SELECT d.id FROM document d WHERE {named} > 0 AND {not_by_id} "
                        "ORDER BY d.id LIMIT :cap"
                    ),
                    {**params, "cap": RANK_CAP},
                ).scalars()
            )
            if holders:
                first = set(ranked_part)
                named_extra = [
                    str(t)
                    for t in conn.execute(
                        text(
                            f"SELECT d.ctid::text FROM {source} WHERE d.id = ANY(:holders) "
                            f"AND {where}"
                        ),
                        {**params, "holders": holders},
                    ).scalars()
                    if str(t) not in first
                ]
        ranked_tids = ranked_part + named_extra
        rows: list[tuple[str, float]] = []
        if offset < len(ranked_tids):
            rows = [
                (str(i), float(s))
                for i, s in conn.execute(
                    text(
                        f"SELECT d.id, {score} FROM {source} "
                        "WHERE d.ctid = ANY(CAST(:tids AS tid[])) "
                        f"ORDER BY {named} DESC, {score} DESC, d.id LIMIT :limit OFFSET :offset"
                    ),
                    {**params, "tids": ranked_tids, "limit": limit, "offset": offset},
                ).all()
            ]
        # counted exactly, seen holds every match (named ones too); else at least COUNT_CAP
        total = len(seen)
        if boundary is None or len(rows) == limit:
            return TextMatches(rows, total, exact, None if boundary is None else len(ranked_tids))
        # past the ranked part: the rest in storing order, counted exactly on the way
        rest = (
            f"FROM {source} WHERE {where} AND d.ctid > CAST(:boundary AS tid) "
            "AND NOT d.ctid = ANY(CAST(:extra AS tid[]))"
        )
        rest_params = {**params, "boundary": boundary, "extra": named_extra}
        n_rest = None
        for i, s, n in conn.execute(
            text(
                f"SELECT d.id, {score}, r.n FROM (SELECT d.ctid AS t, count(*) OVER () AS n "
                f"{rest} ORDER BY d.ctid LIMIT :limit OFFSET :offset) r "
                f"JOIN document d ON d.ctid = r.t, (SELECT {tsq} AS q) AS q ORDER BY r.t"
            ),
            {
                **rest_params,
                "limit": limit - len(rows),
                "offset": max(0, offset - len(ranked_tids)),
            },
        ).all():
            rows.append((str(i), float(s)))
            n_rest = int(n)
        if n_rest is None:
            n_rest = int(conn.execute(text(f"SELECT count(*) {rest}"), rest_params).scalar_one())
    return TextMatches(rows, len(ranked_tids) + n_rest, True, len(ranked_tids))
