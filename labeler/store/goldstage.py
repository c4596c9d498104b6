"""Staging a gold set's questions and elements on disk before :func:`import_gold_set` writes
them (or :func:`~labeler.store.layer_write.write_own_layer`, one annotator's labels), so that
an import's memory does not grow with its file.

A gold file is read, checked and anchored line by line into a :class:`GoldStage`, outside
the write lock; the write then reads the stage back in batches of :data:`BATCH` questions.
The stage is a private SQLite file in ``$TMPDIR`` that is unlinked as soon as it is open:
nothing but this process ever sees it, and a process killed outright leaves nothing behind
(the system frees an unlinked file with its last descriptor). A large file's later lines
are staged by a forked process into a named file of its own (:func:`part_file`), which the
import merges into its stage (:meth:`GoldStage.merge`) and removes in every case; one left
by imports killed outright is removed by the next import that splits (:func:`sweep_parts`).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.errors import StoreError
from labeler.store.runstage import stage_file, sweep_orphans

if TYPE_CHECKING:
    from labeler.store.goldrows import NewQuestion

#: questions per batch read back (and per multi-row INSERT of the write)
BATCH = 2_000

#: ``source``: the question's line in its file; ``done``: a layer import's done mark (else NULL)
_QUESTION = "external_id, text, notes, source, done"
_ELEMENT = (
    "qline, external_id, doc, start, end_, text, grade, annotator, stale, key_start, key_end, "
    "provenance, assisted, snap_score"
)
_JUDGED = "qline, external_id, doc, start, end_, annotator"
#: the stage's indexes (name: table and columns), each created when first needed
_INDEXES = {
    "element_line": "element (qline)",
    "element_span": "element (external_id, doc, start)",
    "element_text": "element (external_id, doc, text)",
    "question_id": "question (external_id)",
    "judged_line": "judged (qline)",
    "judged_id": "judged (external_id)",
}


@contextmanager
def _staging_errors() -> Iterator[None]:
    """A SQLite error of the staging file (e.g. the temporary directory's disk is full) as
    :class:`~labeler.errors.StoreError`."""
    try:
        yield
    except sqlite3.Error as err:
        raise StoreError(f"cannot stage the gold set: {err}") from None


class GoldStage:
    """Questions and elements waiting for the write, in the order they were added.

    ``path``: stage into that file (from :func:`part_file`, made by the process that forked
    this one to stage the later lines of a file: see :meth:`seal` and :meth:`merge`), which
    is then left where it is, not unlinked. Raises :class:`StoreError` when the temporary
    directory is unusable (full, read-only).
    """

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            try:
                fd, name = tempfile.mkstemp(prefix="labeler-gold-stage-", suffix=".sqlite")
            except OSError as err:
                raise StoreError(f"cannot create a staging file for the gold set: {err}") from None
            os.close(fd)
        else:
            name = str(path)
        self.questions = 0
        self.elements = 0
        try:
            self._conn: sqlite3.Connection | None = sqlite3.connect(name, isolation_level=None)
            if path is None:
                os.unlink(name)  # private from here on, and gone with the process
            self._conn.execute("PRAGMA journal_mode = OFF")
            self._conn.execute("PRAGMA synchronous = OFF")
            self._conn.execute(f"CREATE TABLE question (line INTEGER PRIMARY KEY, {_QUESTION})")
            self._conn.execute(f"CREATE TABLE element ({_ELEMENT})")
            self._conn.execute(f"CREATE TABLE judged ({_JUDGED})")
            self._conn.execute("BEGIN")
        except (OSError, sqlite3.Error) as err:
            self.close()
            raise StoreError(f"cannot stage the gold set in {name}: {err}") from None
        self._indexed: set[str] = set()
        self._aside = False  # query ids set aside (see set_aside)
        self._attached: Path | None = None  # the part file attached (see merge)

    def seal(self) -> None:
        """End staging into a file of :func:`part_file`: commit it and close it, leaving
        it for the forking process's :meth:`merge` (which then owns it)."""
        with _staging_errors():
            self._db.execute("COMMIT")
        self.close()

    @staticmethod
    def external_ids(part: Path) -> Iterator[str]:
        """The query ids staged in sealed file ``part`` (see :meth:`merge`)."""
        reader = sqlite3.connect(part)
        try:
            for (qid,) in reader.execute("SELECT external_id FROM question"):
                yield qid
        finally:
            reader.close()

    def merge(self, part: Path) -> None:
        """Append the questions staged in sealed file ``part`` (the later lines of the same
        file, staged by another process) after those staged here, as if added here."""
        before = self.questions
        with _staging_errors():
            self._attach(part)
            for table, columns in (
                ("question", f"line, {_QUESTION}"),
                ("element", _ELEMENT),
                ("judged", _JUDGED),
            ):
                line, rest = columns.split(", ", 1)  # the part's lines follow this stage's
                # rowid order: each table's rows in the order they were added there
                self._db.execute(
                    f"INSERT INTO {table} SELECT {line} + ?, {rest} FROM part.{table} "
                    "ORDER BY rowid",
                    (before,),
                )
            questions, elements = self._db.execute(
                "SELECT (SELECT count(*) FROM part.question), (SELECT count(*) FROM part.element)"
            ).fetchone()
        self.questions += int(questions)
        self.elements += int(elements)

    def _attach(self, part: Path) -> None:
        """Attach sealed file ``part`` as ``part`` (once: inside the staging transaction,
        detached as the connection closes)."""
        if self._attached != part:
            assert self._attached is None, "another part attached"
            self._db.execute("ATTACH DATABASE ? AS part", (str(part),))
            self._attached = part

    def repeats(self, part: Path, ids: set[str]) -> bool:
        """Whether a query id staged in sealed file ``part`` is one of ``ids`` or of those
        set aside here (:meth:`set_aside`: found here, not taken back into memory)."""
        if ids and any(map(ids.__contains__, self.external_ids(part))):
            return True
        if not self._aside:
            return False
        with _staging_errors():
            self._attach(part)
            found = self._db.execute(
                "SELECT 1 FROM part.question WHERE external_id IN (SELECT external_id FROM aside) "
                "LIMIT 1"
            ).fetchone()
        return found is not None

    def set_aside(self, ids: set[str]) -> None:
        """Move ``ids`` (the query ids read so far, kept to find a repeat across the two
        parts of a split file) into the staging file, emptying the set: a layer import
        writes while the forked process stages, and their memory would add to the write's.
        :meth:`repeats` looks them up there; :meth:`take_back` brings them back (when the
        later lines are read here after all)."""
        with _staging_errors():
            self._db.execute("CREATE TABLE IF NOT EXISTS aside (external_id)")
            self._db.executemany("INSERT INTO aside VALUES (?)", ((qid,) for qid in ids))
        self._aside = True
        ids.clear()

    def take_back(self, ids: set[str]) -> None:
        """Add the query ids :meth:`set_aside` moved here back to ``ids`` (nothing when none
        were)."""
        if not self._aside:
            return
        with _staging_errors():
            ids.update(qid for (qid,) in self._db.execute("SELECT external_id FROM aside"))
            self._db.execute("DELETE FROM aside")
        self._aside = False

    @property
    def _db(self) -> sqlite3.Connection:
        assert self._conn is not None, "gold stage already closed"
        return self._conn

    def add(self, questions: Iterable[NewQuestion]) -> None:
        """Stage ``questions`` (after those staged before)."""
        q_rows = []
        e_rows = []
        j_rows = []
        for q in questions:
            self.questions += 1
            q_rows.append((self.questions, q.external_id, q.text, q.notes, q.line, q.done))
            for e in q.elements:
                key = e.key or (None, None)
                e_rows.append(
                    (self.questions, q.external_id, e.doc, e.start, e.end, e.text, e.grade,
                     e.annotator, e.stale, *key, e.provenance, e.assisted, e.snap_score)
                )  # fmt: skip
            j_rows += [
                (self.questions, q.external_id, j.doc, j.start, j.end, j.annotator)
                for j in q.not_relevant
            ]
        self.elements += len(e_rows)
        with _staging_errors():
            self._db.executemany("INSERT INTO question VALUES (?, ?, ?, ?, ?, ?)", q_rows)
            self._db.executemany(f"INSERT INTO element VALUES ({', '.join('?' * 14)})", e_rows)
            self._db.executemany("INSERT INTO judged VALUES (?, ?, ?, ?, ?, ?)", j_rows)

    def _index(self, *names: str) -> None:
        """Create the indexes ``names`` of :data:`_INDEXES` not created yet: each when a
        read first needs it (a layer import reads the stage back by line only)."""
        for name in names:
            if name not in self._indexed:
                self._db.execute(f"CREATE INDEX {name} ON {_INDEXES[name]}")
                self._indexed.add(name)

    def batches(self, size: int = BATCH, after: int = 0) -> Iterator[list[NewQuestion]]:
        """The staged questions in order, ``size`` at a time, each with its elements;
        ``after``: those after the first ``after`` staged only."""
        from labeler.store.goldrows import NewElement, NewJudgement, NewQuestion

        self._index("element_line", "judged_line")
        last = after  # the questions are staged as lines 1, 2, ... (merged ones too)
        while True:
            rows = self._db.execute(
                f"SELECT line, {_QUESTION} FROM question WHERE line > ? ORDER BY line LIMIT ?",
                (last, size),
            ).fetchall()
            if not rows:
                return
            first, last = rows[0][0], rows[-1][0]
            elements: dict[int, list[NewElement]] = {}
            for (
                qline,
                _,
                doc,
                start,
                end,
                text,
                grade,
                who,
                stale,
                ks,
                ke,
                prov,
                assisted,
                snap_score,
            ) in self._db.execute(
                f"SELECT {_ELEMENT} FROM element WHERE qline BETWEEN ? AND ? ORDER BY qline, rowid",
                (first, last),
            ):
                key = None if ks is None else (ks, ke)
                elements.setdefault(qline, []).append(
                    NewElement(doc, start, end, text, grade, who, bool(stale), key, prov,
                               bool(assisted), snap_score)
                )  # fmt: skip
            judged: dict[int, list[NewJudgement]] = {}
            for qline, doc, start, end, who in self._db.execute(
                "SELECT qline, doc, start, end_, annotator FROM judged "
                "WHERE qline BETWEEN ? AND ? ORDER BY qline, rowid",
                (first, last),
            ):
                judged.setdefault(qline, []).append(NewJudgement(doc, start, end, who))
            yield [
                NewQuestion(
                    qid,
                    text,
                    notes,
                    tuple(elements.get(line, ())),
                    tuple(judged.get(line, ())),
                    source,
                    None if done is None else bool(done),
                )
                for line, qid, text, notes, source, done in rows
            ]

    def judged_of(self, external_ids: Sequence[str]) -> dict[str, set[tuple[str, int, int, str]]]:
        """External id → its staged not-relevant judgements (doc, start, end, annotator)."""
        self._index("judged_id")
        found: dict[str, set[tuple[str, int, int, str]]] = {}
        for i in range(0, len(external_ids), 500):
            part = external_ids[i : i + 500]
            for qid, doc, start, end, who in self._db.execute(
                "SELECT external_id, doc, start, end_, annotator FROM judged "
                f"WHERE external_id IN ({', '.join('?' * len(part))})",
                part,
            ):
                found.setdefault(qid, set()).add((doc, start, end, who))
        return found

    def notes_of(self, external_ids: Sequence[str]) -> dict[str, str]:
        """External id → notes, for those of ``external_ids`` that are staged."""
        self._index("question_id")
        found: dict[str, str] = {}
        for i in range(0, len(external_ids), 500):  # under SQLite's bound-parameter limit
            part = external_ids[i : i + 500]
            marks = ", ".join("?" * len(part))
            found.update(
                self._db.execute(
                    f"SELECT external_id, notes FROM question WHERE external_id IN ({marks})",
                    part,
                ).fetchall()
            )
        return found

    def holds(self, external_id: str, doc: str, start: int, end: int, text: str) -> bool:
        """Whether a staged element of question ``external_id`` on ``doc`` has these offsets
        or this text."""
        self._index("element_span", "element_text")
        row = self._db.execute(
            "SELECT 1 FROM element WHERE external_id = ? AND doc = ? AND "
            "((start = ? AND end_ = ?) OR text = ?) LIMIT 1",
            (external_id, doc, start, end, text),
        ).fetchone()
        return row is not None

    def close(self) -> None:
        """Drop the stage (safe to call more than once)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


#: the name of a part's file (see :func:`part_file`)
PART_PREFIX = "labeler-gold-part-"


def part_file() -> Path:
    """A new empty file for a forked process to stage the later lines of a gold file into
    (:class:`GoldStage` with its path), named with this host and process id so that an
    import after this process was killed outright removes it (:func:`sweep_parts`).

    Raises :class:`StoreError` when the temporary directory is unusable."""
    return stage_file(PART_PREFIX)


def sweep_parts() -> list[Path]:
    """Remove the part files left by gold imports killed on this host (see
    :func:`~labeler.store.runstage.sweep_orphans`)."""
    return sweep_orphans(Path(tempfile.gettempdir()), PART_PREFIX)


def staged(questions: Iterable[NewQuestion] | GoldStage) -> tuple[GoldStage, bool]:
    """``questions`` as a stage, and whether it was made here (then the caller closes it)."""
    if isinstance(questions, GoldStage):
        return questions, False
    stage = GoldStage()
    try:
        batch: list[NewQuestion] = []
        for q in questions:
            batch.append(q)
            if len(batch) >= BATCH:
                stage.add(batch)
                batch = []
        stage.add(batch)
    except BaseException:
        stage.close()
        raise
    return stage, True
