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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any, Protocol

from scoring import Chunk, GoldQuestion, Placement, Placements, QuestionOutline
from scoring.pooling import (
    JudgedCount,
    counts_at_ks,
    judged_ranges,
    lower_bound_warning,
)
from scoring.spans import intersection_length

__all__ = ["JudgedAtK", "RangeJudging", "judged_of"]


class JudgedSource(Protocol):
    """What judged@k reads from a database (a part of
    :class:`~labeler.evaluation.ScoringSource`)."""

    def ranked_rows(self, run: str, depth: int) -> Iterable[Row]: ...

    def judged_ranges(
        self, gold_set: str, query_ids: Sequence[str]
    ) -> dict[str, dict[str, list[tuple[int, int]]]]: ...

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]: ...


Row = tuple[str, int, str | None, str | None, int | None, int | None]
"""One result as judged@k reads it: ``(query id, rank, text, doc, start, end)``; the text
is None only for a chunk read without it whose placements cover it."""


class RangeSource(JudgedSource, Protocol):
    """What :class:`RangeJudging` reads besides: the texts of a question's chunks."""

    def chunk_texts(self, run: str, qids: Sequence[str]) -> dict[str, list[str]]: ...


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
    rows: Iterable[Row]
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

    def add(
        self,
        batch: Sequence[tuple[str, Sequence[Row]]],
        placements: Placements | None = None,
        texts: Callable[[str], Callable[[int], str]] | None = None,
    ) -> None:
        """Count ``batch`` (question id, its rows ranked down to the deepest k), placing
        rows from ``placements`` where they cover them (see :meth:`_judged`); ``texts(qid)``
        reads the texts of a question's rows read without them."""
        if not batch:
            return
        ranges = self.source.judged_ranges(self.gold_set, [qid for qid, _ in batch])
        for qid, rows in batch:
            mine = ranges.get(qid)
            placed = placements.get(qid) if placements is not None else None
            if mine:
                text_of = texts(qid) if texts is not None else None
                counted = self._judged(rows, mine, placed, text_of)
            else:
                counted = [
                    (r[1], 0, len(r[2]) if r[2] is not None else _length(placed or {}, r[1]))
                    for r in rows
                ]
            self.ids.append(qid)
            self._append(counts_at_ks(counted, self.ks))
        self.placer.forget_lookups()

    def _append(self, counts: Iterable[JudgedCount]) -> None:
        for count in counts:
            if count.chars > WIDE and self.chars.typecode == "I":  # judged <= chars
                self.judged, self.chars = array("q", self.judged), array("q", self.chars)
            self.judged.append(count.judged)
            self.chars.append(count.chars)

    def extend(self, ids: Sequence[str], judged: array[int], chars: array[int]) -> None:
        """Append counts worked out elsewhere (another process's share of the run)."""
        if judged.typecode != self.judged.typecode:  # widen to the wider of the two
            self.judged, self.chars = array("q", self.judged), array("q", self.chars)
            judged, chars = array("q", judged), array("q", chars)
        self.ids.extend(ids)
        self.judged.extend(judged)
        self.chars.extend(chars)

    def _judged(
        self,
        rows: Sequence[Row],
        mine: Mapping[str, Sequence[tuple[int, int]]],
        placed: Mapping[str, Placement] | None = None,
        text_of: Callable[[int], str] | None = None,
    ) -> list[tuple[int, int, int]]:
        """``(rank, judged characters, characters)`` of each row, placed as
        :func:`labeler.runs.place_rows` places it (only a row that may lie in a judged
        range is placed: one naming a page with judged ranges, or naming none).

        ``placed``: scoring's placements of the question's chunks (page → placement, see
        :class:`scoring.Placement`), made by that same rule; a row is placed from them on a
        page they cover, and looked for on the page otherwise. A row read without its text
        (None: placements cover it) takes its length from them and its text, when a page
        they do not cover needs it, from ``text_of(rank)``."""
        merged = judged_ranges(mine)
        anywhere = sorted(merged)
        placed = placed or {}
        fast = _judged_placed(rows, merged, anywhere, placed)
        if fast is not None:  # the placements answer every row: no page is read
            return fast
        wanted = {doc for _, _, _, doc, _, _ in rows if doc in merged and doc not in placed}
        if any(doc is None for _, _, _, doc, _, _ in rows):
            wanted.update(page for page in merged if page not in placed)
        missing = wanted - self.pages.keys() - self.absent
        if missing:
            self.pages.update(self.source.page_texts(sorted(missing)))
            self.absent.update(missing - self.pages.keys())
        out = []
        for _, rank, text, doc, start, end in rows:
            n = len(text) if text is not None else _length(placed, rank)
            inside = 0
            if n and (doc is None or doc in merged):
                at = self._place(rank, text, doc, start, end, anywhere, placed, text_of)
                if at is not None:
                    inside = intersection_length([(at[1], at[1] + n)], merged[at[0]])
            out.append((rank, inside, n))
        return out

    def _place(
        self,
        rank: int,
        text: str | None,
        doc: str | None,
        start: int | None,
        end: int | None,
        anywhere: Sequence[str],
        placed: Mapping[str, Placement],
        text_of: Callable[[int], str] | None,
    ) -> tuple[str, int] | None:
        """``(page, start)`` of the non-empty row ranked ``rank``, or None: from ``placed``
        on the pages it covers (its starts are the rule's: the row's own offsets where they
        hold its text, else the first copy), else by :class:`~labeler.runs.RowPlacer`."""
        r = rank - 1
        for page in anywhere if doc is None else (doc,):
            placement = placed.get(page)
            if placement is not None and r < len(placement.starts):
                at = placement.starts[r]
                if at >= 0:
                    return page, at
                continue
            if text is None:
                assert text_of is not None, "a row without its text needs text_of"
                text = text_of(rank)
            if doc is not None:
                return self.placer.place(doc, text, start, end)
            found = self.placer.first(page, text)
            if found >= 0:
                return page, found
        return None


def _judged_placed(
    rows: Sequence[Row],
    merged: Mapping[str, Sequence[tuple[int, int]]],
    anywhere: Sequence[str],
    placed: Mapping[str, Placement],
) -> list[tuple[int, int, int]] | None:
    """What ``_Counting._judged`` gives, in one loop without a call a row, when the
    placements answer everything (the usual case of a run read for scoring): no row names
    a page, the rows are ranks 1, 2, ... in order, every page with judged ranges has a
    placement covering every rank, and the first placement gives the length of each row
    read without its text. None when one of these does not hold.

    A row is then on the first page (in ``anywhere``'s order) where its placement start
    is not −1, and its judged characters are its overlap with that page's ranges (summed
    over the disjoint ranges: what ``intersection_length`` counts)."""
    if not placed or not anywhere:
        return None
    covering = []
    for page in anywhere:
        placement = placed.get(page)
        if placement is None or len(placement.starts) < len(rows):
            return None
        covering.append((placement.starts, merged[page]))
    lengths = next(iter(placed.values())).lengths
    out = []
    for i, (_, rank, text, doc, _, _) in enumerate(rows):
        if doc is not None or rank != i + 1:
            return None
        if text is not None:
            n = len(text)
        elif rank <= len(lengths):
            n = int(lengths[i])
        else:
            return None
        inside = 0
        if n:
            for starts, ranges in covering:
                at = starts[i]
                if at >= 0:
                    end = at + n
                    for a, b in ranges:
                        lo = a if a > at else at
                        hi = b if b < end else end
                        if hi > lo:
                            inside += hi - lo
                    break
        out.append((rank, inside, n))
    return out


def _length(placed: Mapping[str, Placement], rank: int) -> int:
    """The length of the chunk ranked ``rank`` that was read without its text, from the
    placements that cover it (one holds it: see ``Placement.lengths``)."""
    for placement in placed.values():
        if rank <= len(placement.lengths):
            return int(placement.lengths[rank - 1])
    raise AssertionError(f"no placement gives the length of the chunk ranked {rank}")


class RangeJudging:
    """judged@k of a stored run counted while it is scored range by range (see
    :func:`~labeler.evaluation._ranges.score_ranges`'s ``judge``), from the chunks and the
    placements scoring read: the run is not read a second time and a row found on a page by
    scoring is not looked for again. Gives what :func:`judged_of` gives for the same run.

    Call it with each range's scored questions (ascending ids), their chunks and placements;
    :meth:`result` is the run's :class:`JudgedAtK` over the ranges in the order given.
    """

    def __init__(self, source: RangeSource, gold_set: str, run: str, ks: Sequence[int]) -> None:
        self.run = run
        self.ks = tuple(ks)
        self.depth = max(self.ks)
        self._counting = _Counting(source, gold_set, self.ks)
        self._source = source
        self.ranges = 0

    def __call__(
        self,
        questions: Sequence[GoldQuestion | QuestionOutline],
        chunks: Mapping[str, Sequence[Chunk]],
        placements: Placements,
    ) -> None:
        from labeler.store.rows import JUDGED_BATCH

        self.ranges += 1
        batch: list[tuple[str, list[Row]]] = []
        for question in questions:
            qid = question.query_id
            ranked = chunks.get(qid)
            if not ranked:
                continue
            rows = [(qid, r, c.text, c.doc, c.start, c.end) for r, c in enumerate(ranked, 1)]
            batch.append((qid, rows[: self.depth]))
            if len(batch) == JUDGED_BATCH:
                self._counting.add(batch, placements, self._texts)
                batch = []
        self._counting.add(batch, placements, self._texts)

    def on(self, source: RangeSource) -> RangeJudging:
        """A new, empty count of the same run, reading through ``source`` (another
        process's own connection)."""
        return RangeJudging(source, self._counting.gold_set, self.run, self.ks)

    def _texts(self, qid: str) -> Callable[[int], str]:
        texts: list[str] = []

        def text_of(rank: int) -> str:
            if not texts:
                texts.extend(self._source.chunk_texts(self.run, [qid]).get(qid, ()))
            return texts[rank - 1]

        return text_of

    def result(self) -> JudgedAtK:
        """The counts so far, as :class:`JudgedAtK`."""
        c = self._counting
        return JudgedAtK(self.ks, tuple(c.ids), c.judged, c.chars)

    def to_plain(self) -> tuple[list[str], str, bytes, bytes]:
        """The counts as plain values (``marshal``-able): ids, typecode, the two arrays."""
        c = self._counting
        return c.ids, c.judged.typecode, c.judged.tobytes(), c.chars.tobytes()

    def extend(
        self, plain: tuple[list[str], str, bytes, bytes], strings: Mapping[str, str] = {}
    ) -> None:
        """Append the counts of a later range given by :meth:`to_plain`; its ids are kept
        as the equal strings of ``strings`` where it has them (one copy of each id)."""
        ids, typecode, judged, chars = plain
        ids = [strings.get(qid, qid) for qid in ids]
        more_judged, more_chars = array(typecode), array(typecode)
        more_judged.frombytes(judged)
        more_chars.frombytes(chars)
        self._counting.extend(ids, more_judged, more_chars)
