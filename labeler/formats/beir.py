"""BEIR export of a gold set projected onto a chunk file (see :mod:`labeler.formats.qrels`).

A BEIR dataset folder:

* ``corpus.jsonl``: one chunk per line, ``{"_id": chunk id, "title": "", "text": chunk text,
  "metadata": {"doc": ..., "start": ..., "end": ...}}`` (title empty: a chunk is embedded as
  its text alone; the page id is in ``metadata``);
* ``queries.jsonl``: ``{"_id": query id, "text": question}`` for every question with
  elements (questions without any relevant chunk included: see ``Projection.unjudged``);
* ``qrels/test.tsv``: header ``query-id	corpus-id	score``, one row per relevant
  (question, chunk).

Query ids are written with :func:`labeler.chunks.id_safe` in both ``queries.jsonl`` and
``qrels/test.tsv`` (whitespace, control characters and ``%`` as ``%XX`` UTF-8 bytes: a tab
or newline would break the TSV), the same encoding as the chunk ids; distinct questions
keep distinct ids, and plain ids are written unchanged.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from labeler.chunks.slices import id_safe
from labeler.errors import InputError, write_failure
from labeler.formats.files import create_beside
from labeler.formats.qrels import Projection

QRELS_HEADER = "query-id\tcorpus-id\tscore"


def beir_files(projection: Projection) -> dict[str, str]:
    """The three files' contents, keyed by their path inside the dataset folder."""
    corpus = "".join(
        json.dumps(
            {
                "_id": c.id,
                "title": "",
                "text": c.text,
                "metadata": {"doc": c.doc, "start": c.start, "end": c.end},
            },
            ensure_ascii=False,
        )
        + "\n"
        for c in projection.corpus
    )
    queries = "".join(
        json.dumps({"_id": id_safe(q.query_id), "text": q.text}, ensure_ascii=False) + "\n"
        for q in projection.questions
    )
    rows = [QRELS_HEADER]
    for q in projection.questions:
        for cid, grade in projection.qrels.get(q.query_id, {}).items():
            rows.append(f"{id_safe(q.query_id)}\t{cid}\t{grade}")
    return {
        "corpus.jsonl": corpus,
        "queries.jsonl": queries,
        "qrels/test.tsv": "\n".join(rows) + "\n",
    }


def write_beir(folder: str | Path, projection: Projection) -> None:
    """Write the dataset into ``folder`` (created if needed; the three files replaced).

    Each file is written beside its final name and renamed into place (permissions as
    ``open()`` would give them: :func:`~labeler.formats.create_beside`). Raises
    :class:`~labeler.errors.OutputError` on a full disk or an I/O error (naming the folder),
    :class:`InputError` when the folder cannot be written otherwise.
    """
    root = Path(folder)
    try:
        (root / "qrels").mkdir(parents=True, exist_ok=True)
        for name, content in beir_files(projection).items():
            target = root / name
            fd, tmp = create_beside(target)
            try:
                with open(fd, "w", encoding="utf-8", newline="\n") as out:
                    out.write(content)
                os.replace(tmp, target)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
    except OSError as err:
        raise write_failure(err, err.filename or folder) or InputError(
            folder, f"cannot write the BEIR folder: {err.strerror or err}"
        ) from None
