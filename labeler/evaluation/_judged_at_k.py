"""judged@k of a scored run: how much of what it retrieves at each k was ever judged.

Every scoring of one run reports it (``labeler score``, ``GoldSet.score``), so it is worked
out here, in the core, once for every front end. A question's judged ranges are the spans of
its elements of every layer that are not stale and its not-relevant judgements of every
layer: judged@k does not depend on the layer scored. The run is read a second time, streamed
by question, only down to the deepest k; what is kept is two counts per question and k in
flat arrays, so the memory it adds does not grow with the run's results.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any, Protocol

from scoring import Chunk
from scoring.pooling import (
    JudgedCount,
    counts_at_ks,
    judged_ranges,
    lower_bound_warning,
)
from scoring.spans import intersection_length

__all__ = ["JudgedAtK", "judged_of"]


class JudgedSource(Protocol):
    """What judged@k reads from a database (a part of
    :class:`~labeler.evaluation.ScoringSource`)."""

    def ranked_rows(self, run: str, depth: int) -> Iterable[Row]: ...

    def judged_ranges(
        self, gold_set: str, query_ids: Sequence[str]
    ) -> dict[str, dict[str, list[tuple[int, int]]]]: ...

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]: ...


Row = tuple[str, int, str, str | None, int | None, int | None]
"""One result as judged@k reads it: ``(query id, rank, text, doc, start, end)``."""


class _PerQuestion(Mapping[str, Mapping[int, JudgedCount]]):
    """Question id → k → :class:`~scoring.pooling.JudgedCount`, read from the arrays."""

    def __init__(self, table: JudgedAtK) -> None:
        self._table = table
        self._at = {qid: i for i, qid in enumerate(table.ids)}

    def __getitem__(self, qid: str) -> Mapping[int, JudgedCount]:
        return self._table.counts_of(self._at[qid])

    def __iter__(self) -> Iterator[str]:
        return iter(self._table.ids)

    def __len__(self) -> int:
        return len(self._table.ids)


@dataclass(frozen=True, eq=False)
class JudgedAtK:
    """A run's judged@k at every k of ``ks`` for the questions ``ids`` it answered (the
    scored questions with at least one result at the deepest k), in the order read.

    ``judged[i * len(ks) + j]`` and ``chars[i * len(ks) + j]`` are question ``ids[i]``'s
    judged and all characters of its chunks ranked ``<= ks[j]``
    (:func:`scoring.pooling.judged_at_ks`).
    """

    ks: tuple[int, ...]
    ids: tuple[str, ...]
    judged: array[int]
    chars: array[int]

    def counts_of(self, i: int) -> dict[int, JudgedCount]:
        """k → the counts of the ``i``-th question."""
        n = len(self.ks)
        return {
            k: JudgedCount(self.judged[i * n + j], self.chars[i * n + j])
            for j, k in enumerate(self.ks)
        }

    def per_question(self) -> Mapping[str, Mapping[int, JudgedCount]]:
        """Question id → k → counts (a view on the arrays)."""
        return _PerQuestion(self)

    def totals(self) -> dict[int, JudgedCount]:
        """The run's judged@k per k: judged over all characters, summed over questions."""
        n = len(self.ks)
        return {  # slices of the flat arrays: C-speed sums, no object per question
            k: JudgedCount(sum(self.judged[j::n]), sum(self.chars[j::n]))
            for j, k in enumerate(self.ks)
        }

    def shares(self, k: int) -> dict[str, float | None]:
        """Question id → its judged@``k`` (None: no characters), read from the arrays."""
        j = self.ks.index(k)
        return {q: self._share(i, j) for i, q in enumerate(self.ids)}

    def _share(self, i: int, j: int) -> float | None:
        """Question ``ids[i]``'s judged@``ks[j]`` (:attr:`JudgedCount.share`)."""
        at = i * len(self.ks) + j
        return JudgedCount(self.judged[at], self.chars[at]).share

    def warning(self) -> str | None:
        """The lower-bound warning at the deepest k (judged@k under
        :data:`scoring.pooling.LOW_JUDGED`), None when the run is judged enough or
        retrieved nothing."""
        k = max(self.ks)
        return lower_bound_warning(self.totals()[k], k)

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """The Score JSON's ``judged_at_k``: ``k`` → ``{"judged", "chars", "share"}``, each
        question's ``share`` per k (``per_query``, by id; null: no characters; ``{}`` when
        ``per_query`` is false: :meth:`per_query_items` gives it piece by piece) and the
        ``warning`` (null when none)."""
        totals = self.totals()
        k = max(self.ks)
        return {
            "k": {
                str(k): {"judged": t.judged, "chars": t.chars, "share": t.share}
                for k, t in totals.items()
            },
            "per_query": dict(self.per_query_items()) if per_query else {},
            "warning": lower_bound_warning(totals[k], k),
        }

    def per_query_items(self) -> Iterator[tuple[str, dict[str, float | None]]]:
        """``(question id, {str(k): share})`` by id, as the JSON's ``per_query`` holds them,
        one question at a time."""
        for i in sorted(range(len(self.ids)), key=self.ids.__getitem__):
            yield self.ids[i], {str(k): self._share(i, j) for j, k in enumerate(self.ks)}


def judged_of(
    source: JudgedSource,
    gold_set: str,
    run: str | Mapping[str, Sequence[Chunk]],
    ks: Sequence[int],
    questions: Iterable[str],
) -> JudgedAtK:
    """judged@k of ``run`` (a stored run's name, or in-memory chunks in rank order) on
    ``gold_set`` at every k of ``ks``, for the ``questions`` it answered.

    A chunk is placed as pooling places it (:func:`labeler.runs.place_rows`): on the page
    its result names, at its offsets where they hold its text, else at the first copy of its
    text; a chunk naming no page on the first of the question's judged pages (by id) that
    holds its text. A chunk placed nowhere counts its characters as unjudged.
    """
    from labeler.store.rows import JUDGED_BATCH

    cutoffs = tuple(ks)
    depth = max(cutoffs)
    # the scored ids, sorted to be found by bisection: a set or dict of them would cost
    # more than everything judged@k keeps per question
    known = sorted(questions)
    rows: Iterable[tuple[str, int, str, str | None, int | None, int | None]]
    if isinstance(run, str):
        rows = source.ranked_rows(run, depth)
    else:
        rows = (
            (qid, rank, c.text or "", c.doc, c.start, c.end)
            for qid in sorted(run)
            for rank, c in enumerate(run[qid][:depth], 1)
        )
    counting = _Counting(source, gold_set, cutoffs)
    batch: list[tuple[str, list[Row]]] = []
    for qid, group in groupby(rows, key=itemgetter(0)):
        at = bisect_left(known, qid)
        if at == len(known) or known[at] != qid:
            continue
        batch.append((known[at], list(group)))  # the scored id's own string, kept once
        if len(batch) == JUDGED_BATCH:
            counting.add(batch)
            batch = []
    counting.add(batch)
    return JudgedAtK(cutoffs, tuple(counting.ids), counting.judged, counting.chars)


#: the largest count the 4-byte arrays hold
WIDE = 2**32 - 1


class _Counting:
    """judged@k counts of batches of questions, each batch's judged ranges read at once."""

    def __init__(self, source: JudgedSource, gold_set: str, ks: tuple[int, ...]) -> None:
        from labeler.runs import RowPlacer

        self.source, self.gold_set, self.ks = source, gold_set, ks
        self.pages: dict[str, str] = {}
        self.placer = RowPlacer(self.pages)
        self.absent: set[str] = set()  # docs named by results that are not stored
        self.ids: list[str] = []
        # 4 bytes a count (a question's top k under 4 GB of text); 8 past that
        self.judged: array[int] = array("I")
        self.chars: array[int] = array("I")

    def add(self, batch: Sequence[tuple[str, Sequence[Row]]]) -> None:
        if not batch:
            return
        ranges = self.source.judged_ranges(self.gold_set, [qid for qid, _ in batch])
        for qid, rows in batch:
            self.ids.append(qid)
            mine = ranges.get(qid)
            counted = self._judged(rows, mine) if mine else [(r[1], 0, len(r[2])) for r in rows]
            for count in counts_at_ks(counted, self.ks):
                if count.chars > WIDE and self.chars.typecode == "I":  # judged <= chars
                    self.judged, self.chars = array("q", self.judged), array("q", self.chars)
                self.judged.append(count.judged)
                self.chars.append(count.chars)
        self.placer.forget_lookups()

    def _judged(
        self, rows: Sequence[Row], mine: Mapping[str, Sequence[tuple[int, int]]]
    ) -> list[tuple[int, int, int]]:
        """``(rank, judged characters, characters)`` of each row, placed as
        :func:`labeler.runs.place_rows` places it (only a row that may lie in a judged
        range is placed: one naming a page with judged ranges, or naming none)."""
        merged = judged_ranges(mine)
        anywhere = sorted(merged)
        wanted = {doc for _, _, _, doc, _, _ in rows if doc in merged}
        if any(doc is None for _, _, _, doc, _, _ in rows):
            wanted.update(merged)
        missing = wanted - self.pages.keys() - self.absent
        if missing:
            self.pages.update(self.source.page_texts(sorted(missing)))
            self.absent.update(missing - self.pages.keys())
        out = []
        for _, rank, text, doc, start, end in rows:
            n = len(text)
            inside = 0
            if doc is None or doc in merged:
                at = self.placer.place(doc, text, start, end, anywhere)
                if at is not None:
                    inside = intersection_length([(at[1], at[1] + n)], merged[at[0]])
            out.append((rank, inside, n))
        return out
