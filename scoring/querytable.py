"""Per-question rows kept compactly: what a large run's aggregates and intervals need.

A ``QueryScore`` is a few kilobytes of Python objects (a dict of every metric value, the
diagnoses, the judgement); a run of 256,000 questions held so costs gigabytes. A
``QueryTable`` keeps the same rows as flat arrays (every value as one float64, diagnoses
and flags as numbers, the judgement as ``marshal`` bytes) and rebuilds a ``QueryScore`` only
when one is asked for, so scoring in ranges keeps memory at the figures per question.
It is a ``Sequence[QueryScore]``: ``table[i]`` equals the row it was given.
"""

from __future__ import annotations

import dataclasses
import marshal
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, overload

from scoring.metrics import Judgement, key_lost_at
from scoring.result import KIND_OF_CODE, Diagnosis, Flags, QueryScore
from scoring.snap import Snapped

if TYPE_CHECKING:
    import numpy

__all__ = ["QueryTable"]

_N_FLAGS = len(fields(Flags))
_flag_values = attrgetter(*(f.name for f in fields(Flags)))  # in field order


class QueryTable(Sequence[QueryScore]):
    """``n`` rows of one score's ``keys`` (metric keys, in ``QueryScore.values`` order) and
    cut-offs ``ks``, filled with :meth:`put`; rows not put yet read as zeros.

    Columns: query id, n_gold, in_run, n_chunks, ``values`` (column-major: ``n`` values of
    each key in turn, so a key's column is one slice and the whole an n × m Fortran array), per k the diagnosis kind (0 retrieval, 1 chunking, 2 full, the severity), best
    coverage and best rank (0 for None), the flags, the judgement (packed bytes, all rows'
    in one buffer: a bytes object each cost 41 bytes more a row) and, for the few rows that
    have them, the snapped ranks.
    """

    __slots__ = (
        "_cov",
        "_flags",
        "_jat",
        "_jbuf",
        "_jlen",
        "_keyed",
        "_kind",
        "_rank",
        "_snaps",
        "ids",
        "in_run",
        "keys",
        "ks",
        "n_chunks",
        "n_gold",
        "values",
    )

    def __init__(self, keys: Sequence[str], ks: Sequence[int], n: int) -> None:
        self.keys = tuple(keys)
        self.ks = tuple(ks)
        m, nk = len(self.keys), len(self.ks)
        self.ids: list[str] = [""] * n
        self.n_gold = array("i", bytes(4 * n))
        self.in_run = bytearray(n)
        self.n_chunks = array("i", bytes(4 * n))
        self.values = array("d", bytes(8 * n * m))
        self._kind = bytearray(n * nk)
        self._cov = array("d", bytes(8 * n * nk))
        self._rank = array("i", bytes(4 * n * nk))
        self._flags = array("i", bytes(4 * n * _N_FLAGS))
        # row i's packed judgement is _jbuf[_jat[i] : _jat[i] + _jlen[i]] (a row put again
        # appends anew: the buffer only grows)
        self._jbuf = bytearray()
        self._jat = array("Q", bytes(8 * n))
        self._jlen = array("I", bytes(4 * n))
        self._keyed = bytearray(n)  # 1 where some element has a key (key_lost may be true)
        self._snaps: dict[int, tuple[Snapped, ...]] = {}  # sparse: rows with snapped ranks

    @classmethod
    def from_rows(
        cls, rows: Sequence[QueryScore], keys: Sequence[str], ks: Sequence[int]
    ) -> QueryTable:
        """A table holding ``rows`` in their order."""
        table = cls(keys, ks, len(rows))
        for i, row in enumerate(rows):
            table.put(i, row)
        return table

    def put(self, i: int, row: QueryScore) -> None:
        """Store ``row`` as row ``i`` (its values in ``keys`` order, diagnoses at ``ks``)."""
        diagnoses = [row.diagnoses[k] for k in self.ks]
        self.put_parts(
            i,
            row.query_id,
            row.n_gold,
            row.in_run,
            row.n_chunks,
            map(row.values.__getitem__, self.keys),
            [d.severity for d in diagnoses],
            [d.best_coverage for d in diagnoses],
            [d.best_rank or 0 for d in diagnoses],
            row.flags,
            row.judgement,
            row.snaps,
        )

    def put_parts(
        self,
        i: int,
        query_id: str,
        n_gold: int,
        in_run: bool,
        n_chunks: int,
        values: Iterable[float],
        kinds: Sequence[int],
        coverages: Sequence[float],
        ranks: Sequence[int],
        flags: Flags,
        judgement: Judgement,
        snaps: tuple[Snapped, ...],
    ) -> None:
        """Store as row ``i`` the row :meth:`put` stores for a ``QueryScore`` of these parts
        (``values`` in ``keys`` order; at each k of ``ks`` the diagnosis kind's code (0
        retrieval, 1 chunking, 2 full), the best coverage and the best rank, 0 for none),
        without the ``QueryScore``: scoring in ranges puts its rows so."""
        nk = len(self.ks)
        self.ids[i] = query_id
        self.n_gold[i] = n_gold
        self.in_run[i] = in_run
        self.n_chunks[i] = n_chunks
        # column x's value of row i is at x·n + i: every value in one strided assignment
        self.values[i :: len(self.ids)] = array("d", values)
        self._kind[i * nk : (i + 1) * nk] = bytes(kinds)
        self._cov[i * nk : (i + 1) * nk] = array("d", coverages)
        self._rank[i * nk : (i + 1) * nk] = array("i", ranks)
        self._flags[i * _N_FLAGS : (i + 1) * _N_FLAGS] = array("i", _flag_values(flags))
        if snaps:
            self._snaps[i] = snaps
        else:
            self._snaps.pop(i, None)
        self._keyed[i] = bool(judgement.first_partial_unkeyed)
        self._judge(i, _packed(judgement))

    def copy_row(self, i: int, other: QueryTable, j: int) -> None:
        """Row ``j`` of ``other`` (same keys and ks) as row ``i`` of this table."""
        m, nk = len(self.keys), len(self.ks)
        self.ids[i] = other.ids[j]
        self.n_gold[i] = other.n_gold[j]
        self.in_run[i] = other.in_run[j]
        self.n_chunks[i] = other.n_chunks[j]
        n, n_other, out, src = len(self.ids), len(other.ids), self.values, other.values
        for x in range(m):
            out[x * n + i] = src[x * n_other + j]
        self._kind[i * nk : (i + 1) * nk] = other._kind[j * nk : (j + 1) * nk]
        self._cov[i * nk : (i + 1) * nk] = other._cov[j * nk : (j + 1) * nk]
        self._rank[i * nk : (i + 1) * nk] = other._rank[j * nk : (j + 1) * nk]
        self._flags[i * _N_FLAGS : (i + 1) * _N_FLAGS] = other._flags[
            j * _N_FLAGS : (j + 1) * _N_FLAGS
        ]
        self._judge(i, other._judgement(j))
        self._keyed[i] = other._keyed[j]
        if j in other._snaps:
            self._snaps[i] = other._snaps[j]
        else:
            self._snaps.pop(i, None)

    def _judge(self, i: int, packed: bytes | bytearray) -> None:
        self._jat[i] = len(self._jbuf)
        self._jlen[i] = len(packed)
        self._jbuf += packed

    def _judgement(self, i: int) -> bytes:
        at = self._jat[i]
        return bytes(self._jbuf[at : at + self._jlen[i]])

    def row(self, i: int) -> QueryScore:
        """Row ``i`` rebuilt as a ``QueryScore``."""
        nk = len(self.ks)
        cov, rank, kind = self._cov, self._rank, self._kind
        return QueryScore(
            query_id=self.ids[i],
            n_gold=self.n_gold[i],
            in_run=bool(self.in_run[i]),
            n_chunks=self.n_chunks[i],
            values=dict(zip(self.keys, self.values[i :: len(self.ids)], strict=True)),
            diagnoses={
                k: Diagnosis(
                    KIND_OF_CODE[kind[i * nk + x]], cov[i * nk + x], rank[i * nk + x] or None
                )
                for x, k in enumerate(self.ks)
            },
            flags=Flags(*self._flags[i * _N_FLAGS : (i + 1) * _N_FLAGS]),
            judgement=_unpacked(self._judgement(i)),
            snaps=self._snaps.get(i, ()),
        )

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> QueryScore: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[QueryScore, ...]: ...

    def __getitem__(self, index: int | slice) -> QueryScore | tuple[QueryScore, ...]:
        if isinstance(index, slice):
            return tuple(self.row(i) for i in range(*index.indices(len(self))))
        n = len(self)
        if not -n <= index < n:
            raise IndexError("QueryTable index out of range")
        return self.row(index % n)

    def __iter__(self) -> Iterator[QueryScore]:
        return map(self.row, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"QueryTable({len(self)} rows, {len(self.keys)} keys)"

    def column(self, key: str) -> array[float]:
        """Every row's value of ``key``, in row order."""
        n = len(self.ids)
        j = self.keys.index(key)
        return self.values[j * n : (j + 1) * n]

    def mask(self, flags: Sequence[bool] | bytes | bytearray) -> QueryTable:
        """The rows where ``flags`` is true, in order, as a new table."""
        chosen = [i for i, f in enumerate(flags) if f]
        out = QueryTable(self.keys, self.ks, len(chosen))
        for x, i in enumerate(chosen):
            out.copy_row(x, self, i)
        return out

    def kinds(self, k: int) -> bytes:
        """Each row's diagnosis kind at ``k`` as one byte (0 retrieval, 1 chunking, 2 full)."""
        nk = len(self.ks)
        return bytes(self._kind[self.ks.index(k) :: nk])

    def coverages(self, k: int) -> array[float]:
        """Each row's best coverage among ranks ≤ ``k``."""
        return self._cov[self.ks.index(k) :: len(self.ks)]

    def flag_sums(self) -> Flags:
        """Every flag summed over the rows."""
        return Flags(*(sum(self._flags[f::_N_FLAGS]) for f in range(_N_FLAGS)))

    def lowest_snap(self) -> float | None:
        """The lowest alignment score of a snapped chunk in any row (None: none)."""
        return min((s.score for snaps in self._snaps.values() for s in snaps), default=None)

    def key_lost(self, k: int) -> int:
        """Rows where a key clause turned a partial@k into a miss."""
        return sum(
            key_lost_at(_unpacked(self._judgement(i)), k)
            for i, keyed in enumerate(self._keyed)
            if keyed
        )

    def order(self, positions: Sequence[int]) -> Sequence[QueryScore]:
        """The rows at ``positions``, in that order, rebuilt one at a time when read."""
        return _Rows(self, positions)

    def parts(self) -> Iterator[Any]:
        """The table as a sequence of ``marshal``-able parts, each a megabyte or so (one
        column of values at a time): what :meth:`merge_parts` reads, one part at a time, so
        that another process's share of a large run is never held whole twice."""
        return self._parts()

    def _parts(self) -> Iterator[Any]:
        n = len(self.ids)
        yield self.keys, self.ks, self.ids
        flat: tuple[array[Any] | bytearray, ...] = (self.n_gold, self.in_run, self.n_chunks)
        for column in (*flat, self._keyed):
            yield bytes(column)
        for x in range(len(self.keys)):
            yield self.values[x * n : (x + 1) * n].tobytes()
        wide: tuple[array[Any] | bytearray, ...] = (self._kind, self._cov, self._rank, self._flags)
        for column in wide:
            yield bytes(column)
        yield self._jbuf, self._jat.tobytes(), self._jlen.tobytes()
        yield [(i, [tuple(snap) for snap in snaps]) for i, snaps in self._snaps.items()]

    def merge_parts(self, parts: Iterator[Any], positions: Sequence[int]) -> None:
        """Row ``j`` of the table whose :meth:`parts` these are (same keys and ks) as row
        ``positions[j]`` of this one, each part read in place and dropped before the next.
        Raises ``ValueError`` when its keys, ks or number of rows differ (and whatever
        ``parts`` raises: a part cut short leaves the rows merged so far, which the caller
        puts again)."""
        keys, ks, ids = next(parts)
        if tuple(keys) != self.keys or tuple(ks) != self.ks or len(ids) != len(positions):
            raise ValueError("the rows merged do not match this table")
        import numpy as np

        n, nk = len(self.ids), len(self.ks)
        for j, i in enumerate(positions):
            self.ids[i] = ids[j]
        del ids
        at = np.asarray(positions, dtype=np.intp)
        narrow: tuple[tuple[array[Any] | bytearray, Any], ...] = (
            (self.n_gold, "i"),
            (self.in_run, "B"),
            (self.n_chunks, "i"),
            (self._keyed, "B"),
        )
        for target, code in narrow:
            _scatter(target, next(parts), code, at, 1)
        values = np.frombuffer(self.values, dtype=np.float64)
        for x in range(len(self.keys)):
            values[x * n + at] = np.frombuffer(next(parts), dtype=np.float64)
        del values
        rows: tuple[tuple[array[Any] | bytearray, Any, int], ...] = (
            (self._kind, "B", nk),
            (self._cov, "d", nk),
            (self._rank, "i", nk),
            (self._flags, "i", _N_FLAGS),
        )
        for target, code, width in rows:
            _scatter(target, next(parts), code, at, width)
        # the packed judgements are appended as sent, each row pointed at its own
        buf, at_bytes, len_bytes = next(parts)
        base = len(self._jbuf)
        self._jbuf += buf
        starts = np.frombuffer(self._jat, dtype=np.uint64)
        starts[at] = np.frombuffer(at_bytes, dtype=np.uint64) + np.uint64(base)
        lengths = np.frombuffer(self._jlen, dtype=np.uint32)
        lengths[at] = np.frombuffer(len_bytes, dtype=np.uint32)
        del buf, starts, lengths, at_bytes, len_bytes
        for i in positions:
            self._snaps.pop(i, None)
        for j, snaps in next(parts):
            self._snaps[positions[j]] = tuple(Snapped(*snap) for snap in snaps)

    def merge_table(self, other: QueryTable, positions: Sequence[int]) -> None:
        """Row ``j`` of ``other`` (same keys and ks) as row ``positions[j]`` of this table
        (:meth:`merge_parts` of its :meth:`parts`: a column at a time, not a row)."""
        self.merge_parts(other._parts(), positions)


def _packed(j: Judgement) -> bytes:
    """A row's judgement in about 100 bytes (a quarter of its ``marshal`` form, which is 56
    MB at 256,000 questions): the elements' label grades, the grades of each rank and
    element as one byte each (0, 1, 2), and the first partial ranks with keys ignored;
    first full and partial ranks and relevant ranks are worked out again from the grades
    (:meth:`Judgement.from_grades`, the rule scoring fills them by)."""
    flat = b"".join(map(bytes, j.grades))
    return marshal.dumps((j.element_grades, flat, j.first_partial_unkeyed, len(j.grades)))


def _unpacked(packed: bytes) -> Judgement:
    """The judgement ``_packed`` packed."""
    element_grades, flat, unkeyed, ranks = marshal.loads(packed)
    n = len(element_grades)
    rows = [flat[r * n : (r + 1) * n] for r in range(ranks)]
    judgement = Judgement.from_grades(element_grades, rows)
    return dataclasses.replace(judgement, first_partial_unkeyed=unkeyed) if unkeyed else judgement


def _scatter(
    target: array[Any] | bytearray, cells: bytes, code: str, at: numpy.ndarray, width: int
) -> None:
    """Cells ``[j·width, (j+1)·width)`` of ``cells`` (items of format ``code``, as
    ``target``'s) into ``[i·width, (i+1)·width)`` of ``target`` for ``i = at[j]``."""
    import numpy as np

    dtype = np.dtype(code)
    view = np.frombuffer(target, dtype=dtype).reshape(-1, width)
    view[at] = np.frombuffer(cells, dtype=dtype).reshape(-1, width)


class _Rows(Sequence[QueryScore]):
    """Rows of a table in a given order, rebuilt when read."""

    __slots__ = ("_positions", "_table")

    def __init__(self, table: QueryTable, positions: Sequence[int]) -> None:
        self._table = table
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, index: int) -> QueryScore: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[QueryScore, ...]: ...

    def __getitem__(self, index: int | slice) -> QueryScore | tuple[QueryScore, ...]:
        if isinstance(index, slice):  # a slice is read: the rows it holds, rebuilt
            return tuple(map(self._table.row, self._positions[index]))
        return self._table.row(self._positions[index])

    def __iter__(self) -> Iterator[QueryScore]:
        return map(self._table.row, self._positions)
