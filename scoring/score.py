"""Score a run against a gold set: classify, compute metrics per question, aggregate."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import accumulate, chain, compress
from typing import NamedTuple

from scoring.budget import Tokenizer, at_budgets, check_budgets, depth_and_tokens
from scoring.classify import (
    DEFAULT_THRESHOLD,
    PageIndex,
    best_overlap,
    check_threshold,
    fallback_split,
    keyed_overlap,
)
from scoring.inputs import (
    Chunk,
    GoldQuestion,
    Pages,
    Placement,
    Placements,
    QuestionOutline,
    Run,
    gold_index,
)
from scoring.metrics import Judgement, check_ks, metric_table
from scoring.querytable import QueryTable
from scoring.result import (
    KIND_OF_CODE,
    N_GOLD_GROUPS,
    Diagnosis,
    Flags,
    GroupScore,
    QueryScore,
    RunScore,
    n_gold_group,
    value_keys,
)
from scoring.snap import (
    Normalised,
    Snapped,
    check_snap_min,
    heads_held,
    normalised_lazily,
    snap_chunks,
    snap_heads,
)
from scoring.spans import Spot, question_prefix

__all__ = [
    "DEFAULT_KS",
    "PageCache",
    "aggregate",
    "judge_question",
    "score_questions",
    "score_questions_into",
    "score_run",
]

DEFAULT_KS: tuple[int, ...] = (1, 3, 5, 10)


class PageCache:
    """Lazily built ``PageIndex`` per document id; an unknown id gets an empty page.

    ``make_index`` builds each page's index (``PageIndex`` with its default anchors; tests
    pass other anchor settings to reach every path of the index).
    """

    __slots__ = ("_indexes", "_make_index", "_normals", "_pages")

    def __init__(self, pages: Pages, make_index: Callable[[str], PageIndex] = PageIndex) -> None:
        self._pages = pages
        self._make_index = make_index
        self._indexes: dict[str, PageIndex] = {}
        self._normals: dict[str, Normalised] = {}

    def text(self, doc: str) -> str:
        """The page text of ``doc`` (empty for an unknown id)."""
        return self[doc].text

    def normal(self, doc: str) -> Normalised:
        """``scoring.snap.normalise`` of the page, made once (only pages snapped onto; its
        map back only once a snap needs it)."""
        found = self._normals.get(doc)
        if found is None:
            found = self._normals[doc] = normalised_lazily(self[doc].text)
        return found

    def forget_lookups(self) -> None:
        """Forget every page's cached chunk and element lookups (``PageIndex.forget_lookups``),
        keeping the page indexes: between ranges of a run, so memory does not grow with it."""
        for index in self._indexes.values():
            index.forget_lookups()

    def __getitem__(self, doc: str) -> PageIndex:
        index = self._indexes.get(doc)
        if index is None:
            index = self._make_index(self._pages.get(doc, ""))
            self._indexes[doc] = index
        return index


def judge_question(
    question: GoldQuestion,
    chunks: Sequence[Chunk],
    pages: PageCache,
    threshold: float = DEFAULT_THRESHOLD,
    placements: Mapping[str, Placement] | None = None,
    placed: dict[str, list[Spot]] | None = None,
) -> tuple[Judgement, tuple[float, ...], Flags]:
    """Classify every (element, chunk) pair of one question (the hot loop of scoring).

    Returns the judgement, the best coverage per rank (max over elements) and the flags;
    ``placed``, when given, receives each cited page's chunk placements (``Spot`` rows in
    rank order, for every page holding a non-empty element).
    Grades are those of ``classify`` (docs/metrics.md, rules 1–3, with each element's key span),
    computed with the page's cached chunk positions and element occurrences; ``threshold``
    is assumed validated (and keys, by ``GoldElement``). Each chunk
    is located once per distinct page of the question, not once per element, and not at
    all on a page that ``placements`` (document id → placement) covers.

    Raises:
        ValueError: a chunk without text (``Chunk.text`` None) where its text is needed: on
            a page no placement with lengths covers, or one it is not found on (rule 3).
    """
    n_ranks = len(chunks)
    n_gold = question.n_gold
    texts = [c.text for c in chunks]
    # ranks whose chunk carries offsets (none in most runs: then nothing below looks at them)
    pinned = [r for r, c in enumerate(chunks) if c[3] is not None]
    mismatched: set[int] = set()
    graded: dict[int, list[int]] = {}  # rank index → grade per element, ranks with a grade
    best_cov = [0.0] * n_ranks
    first_full: list[int | None] = [None] * n_gold
    first_partial: list[int | None] = [None] * n_gold
    # first rank ≥ Partial were keys ignored (only read when some element has a key)
    first_unkeyed: list[int | None] = [None] * n_gold
    keyed_question = False
    fallback_ranks: set[int] = set()
    graded_ranks: set[int] = set()
    repeated_ranks: set[int] = set()
    repeated = missing = 0
    # page → (rank, chunk, first offset, chunk repeated, length) for every non-empty chunk
    if placed is None:
        placed = {}
    for i, element in enumerate(question.elements):
        index = pages[element.doc]
        text = element.text
        size = len(text)
        known = placements.get(element.doc) if placements else None
        starts = known.occurrences.get(text) if known is not None else None
        if starts is None:
            starts = index.occurrences(text)
        if len(starts) > 1:
            repeated += 1
        elif not starts:
            missing += 1
        if not size:
            continue
        spots = placed.get(element.doc)
        if spots is None:
            spots = placed[element.doc] = _spots(question, texts, index, known)
            if pinned:
                _pin(spots, chunks, pinned, element.doc, index.text, mismatched)
        head, tail = fallback_split(text)
        single = len(starts) == 1
        e0 = starts[0] if starts else 0
        e1 = e0 + size
        key = element.key
        key_text, k0, k1 = "", 0, 0
        if key is not None:
            keyed_question = True
            key_text = text[key[0] : key[1]]
            k0, k1 = e0 + key[0], e0 + key[1]
        for r, chunk, c0, chunk_repeated, length in spots:
            if c0 < 0:  # rule 3 (_spots made sure the text is there)
                assert chunk is not None
                fallback_ranks.add(r)
                if head in chunk:
                    if text in chunk:
                        grade, coverage = 2, 1.0
                    else:
                        held = len(tail) if len(tail) > len(head) and tail in chunk else len(head)
                        grade, coverage = 1, held / size
                elif tail and tail in chunk:
                    grade, coverage = 1, len(tail) / size
                else:
                    continue
                if grade == 1 and key is not None and key_text not in chunk:
                    grade = 0  # key lost: Partial without the key, not with it
                    if first_unkeyed[i] is None:
                        first_unkeyed[i] = r + 1
                else:
                    graded_ranks.add(r)
            else:  # rule 2
                if chunk_repeated:
                    repeated_ranks.add(r)
                c1 = c0 + length
                if single:  # the usual case: one occurrence, no search for the best
                    best = (e1 if e1 < c1 else c1) - (e0 if e0 > c0 else c0)
                else:
                    best = best_overlap(starts, size, c0, c1)
                if best >= size:
                    grade, coverage = 2, 1.0
                elif best <= 0:
                    continue
                else:
                    coverage = best / size
                    grade = 1 if coverage >= threshold else 0
                    if grade and key is not None:
                        if single:
                            keyed = best if c0 <= k0 and k1 <= c1 else 0
                        else:
                            keyed = keyed_overlap(starts, size, c0, c1, key)
                        if keyed / size < threshold:
                            grade = 0  # key lost
                            if first_unkeyed[i] is None:
                                first_unkeyed[i] = r + 1
            if coverage > best_cov[r]:
                best_cov[r] = coverage
            if grade:
                row = graded.get(r)
                if row is None:
                    row = graded[r] = [0] * n_gold
                row[i] = grade
                if first_partial[i] is None:
                    first_partial[i] = r + 1
                    if first_unkeyed[i] is None:
                        first_unkeyed[i] = r + 1
                if grade == 2 and first_full[i] is None:
                    first_full[i] = r + 1
    grades = [(0,) * n_gold] * n_ranks
    for r, row in graded.items():
        grades[r] = tuple(row)
    judgement = Judgement(
        element_grades=tuple(e.grade for e in question.elements),
        grades=tuple(grades),
        first_full=tuple(first_full),
        first_partial=tuple(first_partial),
        relevant=tuple(map(graded.__contains__, range(n_ranks))),
        first_partial_unkeyed=tuple(first_unkeyed) if keyed_question else (),
    )
    flags = Flags(
        repeated,
        len(fallback_ranks),
        len(repeated_ranks),
        missing,
        len(graded_ranks),
        len(mismatched),
    )
    return judgement, tuple(best_cov), flags


def _spots(
    question: GoldQuestion,
    texts: Sequence[str | None],
    index: PageIndex,
    known: Placement | None,
) -> list[Spot]:
    """``(rank, chunk, first offset or −1, repeated, length)`` of every non-empty chunk on
    one page: from the placement when it covers the ranks, else located in the page."""
    n_ranks = len(texts)
    if known is not None and len(known.starts) >= n_ranks:
        at, twice, lengths = known.starts, known.repeated, known.lengths
        if len(lengths) >= n_ranks:
            spots = [
                (r, t, at[r], bool(twice[r]), lengths[r] if t is None else len(t))
                for r, t in enumerate(texts)
                if (lengths[r] if t is None else t)
            ]
            for r, t, c0, _, _ in spots:
                if t is None and c0 < 0:
                    raise ValueError(f"{question.query_id}: rank {r + 1} needs its chunk text")
            return spots
        if None not in texts:
            return [(r, t, at[r], bool(twice[r]), len(t)) for r, t in enumerate(texts) if t]
    full = [t for t in texts if t is not None]
    if len(full) < n_ranks:
        missing = next(r for r, t in enumerate(texts) if t is None)
        raise ValueError(f"{question.query_id}: rank {missing + 1} needs its chunk text")
    return [(r, t, c0, twice, len(t)) for r, t, c0, twice in index.place(full)]


def _pin(
    spots: list[Spot],
    chunks: Sequence[Chunk],
    pinned: Sequence[int],
    doc: str,
    page: str,
    mismatched: set[int],
) -> None:
    """Put each chunk of ``pinned`` (ranks with offsets) whose ``doc`` is this page at its
    own offsets, in place in ``spots``, when they hold its text: ``page[start:end] == text``
    (for a chunk read without its text, a placement made at import, which applied the same
    test, put it at ``start`` with length ``end − start``). Such a chunk is not repeated:
    its position is known. A chunk whose offsets do not hold its text keeps the spot its
    text gives and its rank is added to ``mismatched``."""
    at = {spot[0]: i for i, spot in enumerate(spots)}
    for r in pinned:
        chunk = chunks[r]
        if chunk.doc != doc:
            continue
        i = at.get(r)
        if i is None:  # an empty chunk: never scored
            continue
        start, end = chunk.start, chunk.end
        assert start is not None and end is not None
        _, text, c0, _, length = spots[i]
        if text is None:
            held = c0 == start and length == end - start
        else:
            held = end - start == len(text) and page.startswith(text, start)
        if held:
            spots[i] = (r, text, start, False, end - start)
        else:
            mismatched.add(r)


def _diagnosis_parts(
    best_cov: Sequence[float], ks: tuple[int, ...], hits: Sequence[float], partials: Sequence[float]
) -> tuple[list[int], list[float], list[int]]:
    """Diagnosis at every k (ascending), as three lists: the kind's code from hit/partial
    at k (its index in ``KIND_OF_CODE``: 2 full, 1 chunking, 0 retrieval), and the best coverage among ranks ≤ k with the
    first rank reaching it (0: none), in one pass over the ranks."""
    codes: list[int] = []
    bests: list[float] = []
    ranks: list[int] = []
    best = 0.0
    rank = 0
    r = 0
    n = len(best_cov)
    for x, k in enumerate(ks):
        while r < k and r < n:
            if best_cov[r] > best:
                best, rank = best_cov[r], r + 1
            r += 1
        codes.append(2 if hits[x] else 1 if partials[x] else 0)
        bests.append(best)
        ranks.append(rank)
    return codes, bests, ranks


class _Judged(NamedTuple):
    """One question's chunks as scored (cut at the depth) and how they were judged."""

    ranked: list[Chunk]
    tokens: list[int]
    placed: dict[str, list[Spot]]
    judgement: Judgement
    best_cov: tuple[float, ...]
    flags: Flags


def _judge_one(
    question: GoldQuestion,
    chunks: Sequence[Chunk] | None,
    pages: PageCache,
    threshold: float,
    top: int,
    placements: Mapping[str, Placement] | None,
    budgets: tuple[int, ...],
    tokenizer: Tokenizer | None,
) -> _Judged:
    tokens: list[int] = []
    if tokenizer is not None and chunks is not None:
        depth, tokens = depth_and_tokens(chunks, top, budgets, tokenizer)
        ranked = list(chunks[:depth])
    else:
        ranked = list(chunks[:top]) if chunks is not None else []
    placed: dict[str, list[Spot]] = {}
    judgement, best_cov, flags = judge_question(
        question, ranked, pages, threshold, placements, placed
    )
    return _Judged(ranked, tokens, placed, judgement, best_cov, flags)


def _snap_one(
    question: GoldQuestion,
    judged: _Judged,
    pages: PageCache,
    threshold: float,
    placements: Mapping[str, Placement] | None,
    snap_min: float,
    held: Mapping[str, Mapping[int, bool]],
) -> tuple[_Judged, tuple[Snapped, ...]]:
    """Chunks off the page snapped (``snap_chunks``), and the question judged again."""
    snapped, snaps = snap_chunks(
        judged.ranked, judged.placed, pages.text, pages.normal, snap_min, held
    )
    if not snaps:
        return judged, ()
    placed: dict[str, list[Spot]] = {}
    judgement, best_cov, flags = judge_question(
        question, snapped, pages, threshold, placements, placed
    )
    flags = replace(flags, snapped=len(snaps))
    return _Judged(snapped, judged.tokens, placed, judgement, best_cov, flags), snaps


def _figures(
    question: GoldQuestion,
    judged: _Judged,
    pages: PageCache,
    ks: tuple[int, ...],
    placements: Mapping[str, Placement] | None,
    budgets: tuple[int, ...],
    tokenizer: Tokenizer | None,
) -> tuple[list[float], tuple[list[int], list[float], list[int]]]:
    """Every value of the question's row, in ``value_keys`` order, and its diagnosis parts."""
    ranked, tokens, placed, judgement, best_cov, _ = judged
    table = metric_table(judgement, ks)
    spans = question_prefix(question, ranked, placed, pages.__getitem__, placements)
    columns: list[Sequence[float]] = list(table)
    columns += spans.columns(ks)
    if tokenizer is not None:
        token_prefix = [0, *accumulate(tokens)]
        columns.append([float(token_prefix[min(k, len(tokens))]) for k in ks])
        if budgets:
            columns += at_budgets(judgement, spans, token_prefix, budgets)
    values = list(chain.from_iterable(columns))
    return values, _diagnosis_parts(best_cov, ks, table[0], table[1])


def _finish_one(
    question: GoldQuestion,
    chunks: Sequence[Chunk] | None,
    judged: _Judged,
    snaps: tuple[Snapped, ...],
    pages: PageCache,
    ks: tuple[int, ...],
    keys: Sequence[str],
    placements: Mapping[str, Placement] | None,
    budgets: tuple[int, ...],
    tokenizer: Tokenizer | None,
) -> QueryScore:
    values, (codes, bests, ranks) = _figures(
        question, judged, pages, ks, placements, budgets, tokenizer
    )
    return QueryScore(
        query_id=question.query_id,
        n_gold=question.n_gold,
        in_run=chunks is not None,
        n_chunks=len(chunks) if chunks is not None else 0,
        values=dict(zip(keys, values, strict=True)),
        diagnoses={
            k: Diagnosis(KIND_OF_CODE[code], best, rank or None)
            for k, code, best, rank in zip(ks, codes, bests, ranks, strict=True)
        },
        flags=judged.flags,
        judgement=judged.judgement,
        snaps=snaps,
    )


#: questions judged before their chunks are snapped together (the heads of all their chunks
#: to snap looked up on each page at once); bounds what is held between the passes
_SNAP_BATCH = 1024


class _Row(NamedTuple):
    """A question judged (and snapped), ready for its figures."""

    question: GoldQuestion
    chunks: Sequence[Chunk] | None
    judged: _Judged
    snaps: tuple[Snapped, ...]
    placements: Mapping[str, Placement] | None


def _judged_rows(
    questions: Iterable[GoldQuestion],
    run: Run,
    pages: PageCache,
    threshold: float,
    ks: tuple[int, ...],
    known: Placements,
    budgets: tuple[int, ...],
    tokenizer: Tokenizer | None,
    snap_min: float | None,
) -> Iterator[_Row]:
    """Each question with elements judged, in order, :data:`_SNAP_BATCH` at a time, each
    batch in two passes: judge each question; snap the chunks off the page of those that
    have any (``snap_min``), their heads looked up together (``scoring.snap.heads_held``),
    and judge them again."""

    def judged_batch(batch: Sequence[GoldQuestion]) -> list[_Row]:
        chunks = [run.get(q.query_id) for q in batch]
        places = [known.get(q.query_id) for q in batch]
        judged = [
            _judge_one(q, c, pages, threshold, ks[-1], p, budgets, tokenizer)
            for q, c, p in zip(batch, chunks, places, strict=True)
        ]
        snaps: list[tuple[Snapped, ...]] = [()] * len(batch)
        if snap_min is not None:
            todo = [i for i, j in enumerate(judged) if j.flags.fallback]
            wanted = [
                (judged[i].placed, snap_heads(judged[i].ranked, judged[i].placed)) for i in todo
            ]
            for i, held in zip(todo, heads_held(wanted, pages.normal), strict=True):
                judged[i], snaps[i] = _snap_one(
                    batch[i], judged[i], pages, threshold, places[i], snap_min, held
                )
        return list(map(_Row, batch, chunks, judged, snaps, places))

    batch: list[GoldQuestion] = []
    for question in questions:
        if not question.elements:
            continue
        batch.append(question)
        if len(batch) == _SNAP_BATCH:
            yield from judged_batch(batch)
            batch = []
    yield from judged_batch(batch)


def _means(rows: Sequence[QueryScore], keys: Sequence[str]) -> dict[str, float]:
    """Mean of every key over ``rows`` (exactly rounded sums); 0.0 for no rows."""
    if not rows:
        return dict.fromkeys(keys, 0.0)
    if isinstance(rows, QueryTable):  # by columns: the sums are the same, exactly rounded
        return {key: math.fsum(rows.column(key)) / len(rows) for key in keys}
    columns = zip(*(q.values.values() for q in rows), strict=True)
    n = len(rows)
    return {key: math.fsum(column) / n for key, column in zip(keys, columns, strict=True)}


def score_questions(
    questions: Iterable[GoldQuestion],
    pages: Pages,
    run: Run,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: object = DEFAULT_THRESHOLD,
    placements: Placements | None = None,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
    cache: PageCache | None = None,
    snap_min: object = None,
) -> list[QueryScore]:
    """One ``QueryScore`` per question with at least one element, in the given order.

    Each question's chunks (cut at ``max(ks)``) are classified against each element on the
    element's page (docs/metrics.md) and every metric of ``score_names`` (``METRIC_NAMES`` and
    the character-level ``SPAN_METRIC_NAMES``) is computed at every k;
    a question absent from ``run`` scores 0 with ``in_run`` false. Questions without
    elements are skipped. Scoring disjoint sets of questions separately (say, in several
    processes) and passing the rows to ``aggregate`` gives the same result as ``score_run``.
    ``placements`` (query id → document id → ``Placement``) saves locating chunks on the
    pages it covers, e.g. placements stored when the run was imported; the result is the
    same with or without them, provided they are right for the pages' current text.
    With a ``tokenizer``, ``tokens@k`` (tokens in the top k) is added and every metric is
    also computed at each token budget of ``budgets`` (``scoring.budget``: the ranks of the
    longest prefix holding at most that many tokens; scoring then reads past ``max(ks)``
    as far as the largest budget's prefix goes, and the flags count those ranks too).
    ``cache``, when given, is the ``PageCache`` of ``pages`` to use (and fill): scoring a
    run range by range with one cache indexes each page once.
    With ``snap_min`` (in (0, 1]), a chunk found on none of its question's cited pages is
    snapped onto one (``scoring.snap.snap_chunks``, alignment score at least ``snap_min``)
    and scored at the span found like a chunk with offsets, flagged ``snapped`` instead of
    ``fallback``; None (the default) scores such chunks by the fallback rule. Tokens are
    those of the chunks as retrieved.

    Raises:
        ValueError: an invalid k, threshold, budget or snap minimum; budgets without a
            tokenizer; a chunk without text where a tokenizer must count it.
    """
    theta = check_threshold(threshold)
    snap = None if snap_min is None else check_snap_min(snap_min)
    cutoffs = check_ks(ks)
    limits = _check_budgets(budgets, tokenizer)
    if cache is None:
        cache = PageCache(pages)
    keys = value_keys(cutoffs, limits, tokenizer is not None)
    rows = _judged_rows(
        questions, run, cache, theta, cutoffs, placements or {}, limits, tokenizer, snap
    )
    return [
        _finish_one(q, c, j, sn, cache, cutoffs, keys, p, limits, tokenizer)
        for q, c, j, sn, p in rows
    ]


def score_questions_into(
    table: QueryTable,
    positions: Sequence[int],
    questions: Iterable[GoldQuestion],
    pages: Pages,
    run: Run,
    *,
    threshold: object = DEFAULT_THRESHOLD,
    placements: Placements | None = None,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
    cache: PageCache | None = None,
    snap_min: object = None,
) -> int:
    """:func:`score_questions` with each row put straight into ``table`` (at the k of its
    ``ks``), the j-th question with elements as row ``positions[j]``: the rows
    ``QueryTable.put`` stores for the ``QueryScore`` s ``score_questions`` returns, without
    making them. Returns how many rows were put.

    Raises:
        ValueError: as :func:`score_questions`; the table's keys not those of these
            arguments; more questions with elements than ``positions``.
    """
    theta = check_threshold(threshold)
    snap = None if snap_min is None else check_snap_min(snap_min)
    cutoffs = check_ks(table.ks)
    limits = _check_budgets(budgets, tokenizer)
    if table.keys != tuple(value_keys(cutoffs, limits, tokenizer is not None)):
        raise ValueError("the table's keys are not those of this scoring")
    if cache is None:
        cache = PageCache(pages)
    rows = _judged_rows(
        questions, run, cache, theta, cutoffs, placements or {}, limits, tokenizer, snap
    )
    put = 0
    for question, chunks, judged, snaps, known in rows:
        if put == len(positions):
            raise ValueError("more questions with elements than positions")
        values, (codes, bests, ranks) = _figures(
            question, judged, cache, cutoffs, known, limits, tokenizer
        )
        table.put_parts(
            positions[put],
            question.query_id,
            question.n_gold,
            chunks is not None,
            len(chunks) if chunks is not None else 0,
            values,
            codes,
            bests,
            ranks,
            judged.flags,
            judged.judgement,
            snaps,
        )
        put += 1
    return put


def _check_budgets(budgets: Sequence[int], tokenizer: Tokenizer | None) -> tuple[int, ...]:
    limits = check_budgets(budgets)
    if limits and tokenizer is None:
        raise ValueError("token budgets need a tokenizer")
    return limits


def aggregate(
    questions: Iterable[GoldQuestion | QuestionOutline],
    scored: Iterable[QueryScore],
    run_ids: Iterable[str],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: object = DEFAULT_THRESHOLD,
    gold_set: str = "",
    run_name: str = "",
    budgets: Sequence[int] = (),
    tokenizer: str | None = None,
) -> RunScore:
    """The ``RunScore`` of the gold ``questions`` from their per-question rows.

    ``budgets`` and ``tokenizer`` (its name) must be those the rows were scored with.
    A question may be given by its :class:`~scoring.inputs.QuestionOutline` (all this
    reads of it besides its row).

    ``scored`` holds a row (from ``score_questions``, in any order) for every question with
    at least one element; ``run_ids`` are the query ids present in the run, in run order
    (those not in the gold set become ``unknown_in_run``). Aggregates are means over the
    rows in gold order, so the result equals ``score_run`` on the same inputs.

    Raises:
        ValueError: duplicate query ids, an invalid k or threshold, or ``scored`` not
            matching the questions with elements.
    """
    theta = check_threshold(threshold)
    cutoffs = check_ks(ks)
    limits = check_budgets(budgets)
    if limits and tokenizer is None:
        raise ValueError("token budgets need a tokenizer")
    gold = gold_index(questions)
    keys = value_keys(cutoffs, limits, tokenizer is not None)
    empty = [qid for qid, question in gold.items() if not question.n_gold]
    rows: Sequence[QueryScore]
    if isinstance(scored, QueryTable):
        rows = scored
        missing, groups, flags = _table_parts(scored, gold, keys)
    else:
        rows = _gold_rows(gold, scored)
        missing = tuple(q.query_id for q in rows if not q.in_run)
        groups = {}
        for group in N_GOLD_GROUPS:
            members = [q for q in rows if n_gold_group(q.n_gold) == group]
            if members:
                groups[group] = GroupScore(len(members), _means(members, keys))
        flags = Flags()
        for q in rows:
            flags = flags + q.flags
    unknown = tuple(qid for qid in run_ids if qid not in gold)
    return RunScore(
        gold_set=gold_set,
        run=run_name,
        threshold=theta,
        ks=cutoffs,
        queries=rows if isinstance(rows, QueryTable) else tuple(rows),
        metrics=_means(rows, keys),
        by_n_gold=groups,
        flags=flags,
        missing_from_run=missing,
        unknown_in_run=unknown,
        without_elements=tuple(empty),
        keys=sum(_keys(q) for q in gold.values()),
        budgets=limits,
        tokenizer=tokenizer,
    )


def _keys(question: GoldQuestion | QuestionOutline) -> int:
    """How many of the question's elements carry a key clause."""
    if isinstance(question, QuestionOutline):
        return question.keys
    return sum(e.key is not None for e in question.elements)


def _gold_rows(
    gold: Mapping[str, GoldQuestion | QuestionOutline], scored: Iterable[QueryScore]
) -> list[QueryScore]:
    """The rows of ``scored`` in gold order, one for each question with elements."""
    by_id = {q.query_id: q for q in scored}
    rows: list[QueryScore] = []
    for qid, question in gold.items():
        if not question.n_gold:
            continue
        row = by_id.get(qid)
        if row is None:
            raise ValueError(f"no scored row for gold question {qid!r}")
        rows.append(row)
    if len(rows) != len(by_id):
        raise ValueError("scored rows for questions that are not in the gold set")
    return rows


def _table_parts(
    table: QueryTable, gold: Mapping[str, GoldQuestion | QuestionOutline], keys: Sequence[str]
) -> tuple[tuple[str, ...], dict[str, GroupScore], Flags]:
    """Missing ids, n_gold groups and summed flags of a table, read by columns; the table
    must hold the gold questions with elements in gold order."""
    expected = (qid for qid, question in gold.items() if question.n_gold)
    if table.keys != tuple(keys) or not all(
        a == b for a, b in zip(table.ids, expected, strict=False)
    ):
        raise ValueError("the scored table does not hold the gold questions in gold order")
    if len(table) != sum(1 for q in gold.values() if q.n_gold):
        raise ValueError("the scored table does not hold every gold question with elements")
    missing = tuple(qid for qid, inside in zip(table.ids, table.in_run, strict=True) if not inside)
    groups: dict[str, GroupScore] = {}
    for group, chosen in _group_masks(table.n_gold).items():
        count = chosen.count(1)
        if count == len(table):
            groups[group] = GroupScore(count, _means(table, keys))
        elif count:
            means = {key: math.fsum(compress(table.column(key), chosen)) / count for key in keys}
            groups[group] = GroupScore(count, means)
    return missing, groups, table.flag_sums()


def _group_masks(n_gold: Sequence[int]) -> dict[str, bytes]:
    """Each group of ``N_GOLD_GROUPS`` → a byte a question, 1 where ``n_gold_group`` of its
    number of elements is that group (worked out with numpy: a call a question for each
    group took 0.4 s at 256,000 questions)."""
    import numpy as np

    counts = np.asarray(n_gold)
    distinct = np.unique(counts)  # a few numbers of elements: the rule applied to each
    return {
        group: np.isin(counts, [n for n in distinct if n_gold_group(int(n)) == group])
        .astype(np.uint8)
        .tobytes()
        for group in N_GOLD_GROUPS
    }


def score_run(
    questions: Iterable[GoldQuestion],
    pages: Pages,
    run: Run,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: object = DEFAULT_THRESHOLD,
    gold_set: str = "",
    run_name: str = "",
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
    snap_min: object = None,
) -> RunScore:
    """Score ``run`` against the gold ``questions`` whose elements live in ``pages``.

    For each gold question with at least one element, its chunks (cut at ``max(ks)``) are
    classified against each element on the element's page (docs/metrics.md) and every metric of
    ``score_names`` is computed at every k (and at every token budget, with a tokenizer).
    Aggregates are means over those questions;
    a question missing from the run scores 0 and is listed in ``missing_from_run``; run
    entries for unknown query ids are ignored and listed in ``unknown_in_run``; questions
    without elements are not scored and are listed in ``without_elements``. A document id
    missing from ``pages`` is treated as an empty page (its elements are flagged
    ``element_not_in_page``; chunks then go through the fallback rule).

    Args:
        questions: the gold questions (query ids must be unique).
        pages: document id → page text.
        run: query id → chunks in rank order.
        ks: cut-offs (integers ≥ 1), default ``(1, 3, 5, 10)``.
        threshold: θ in (0, 1] for Partial, default 0.5.
        gold_set, run_name: names carried into the result.
        budgets: token budgets (integers ≥ 1); they need ``tokenizer``.
        tokenizer: counts chunk tokens: adds ``tokens@k`` and the budget keys
            (``hit@500t``...), see ``score_questions``.
        snap_min: snap chunks found on no cited page onto one at this alignment score or
            more (``score_questions``); None: no snapping.

    Raises:
        ValueError: duplicate query ids, an invalid k, threshold or budget, budgets
            without a tokenizer.
    """
    gold = list(gold_index(questions).values())  # duplicates rejected before any work
    scored = score_questions(
        gold,
        pages,
        run,
        ks=ks,
        threshold=threshold,
        budgets=budgets,
        tokenizer=tokenizer,
        snap_min=snap_min,
    )
    return aggregate(
        gold,
        scored,
        run,
        ks=ks,
        threshold=threshold,
        gold_set=gold_set,
        run_name=run_name,
        budgets=budgets,
        tokenizer=tokenizer.name if tokenizer is not None else None,
    )
