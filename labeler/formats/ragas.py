"""Ragas-style dataset export of a gold set: one JSON line per question,

```json
{"user_input": "Who approves a policy exception?",
 "reference_contexts": ["Exceptions are approved by the data owner."],
 "retrieved_contexts": ["Policy exceptions ...", "Exceptions are approved by ..."]}
```

The field names are those of Ragas's single-turn sample (``SingleTurnSample``), so each line
loads with ``ragas.EvaluationDataset.from_list`` after ``json.loads``.
``reference_contexts`` are the question's element texts in label order (exact page slices).
``retrieved_contexts`` is written only when a run is given: that run's chunk texts for the
question in rank order, ``[]`` when the run has no line for it (it retrieved nothing that
Ragas could score), so a context metric scores the same run the labeller scores.
Questions without elements are left out (nothing to evaluate against).

``read_ragas`` reads such lines back for ``gold import --format ragas``: the reference
contexts become elements on the pages ``reference_context_ids`` name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.formats.gold_jsonl import GoldElementLine, GoldLine
from labeler.formats.jsonlines import optional, read_objects, require
from labeler.formats.qrels import Question


def ragas_lines(
    questions: Iterable[Question], retrieved: Mapping[str, Sequence[str]] | None = None
) -> Iterator[str]:
    """One JSON line (without newline) per question that has elements; with ``retrieved``
    (question id → chunk texts in rank order), each line's ``retrieved_contexts`` is
    ``retrieved[query_id]``, or ``[]`` for a question it lacks."""
    for q in questions:
        if q.spans:
            obj: dict[str, Any] = {
                "user_input": q.text,
                "reference_contexts": [s.text for s in q.spans],
            }
            if retrieved is not None:
                obj["retrieved_contexts"] = list(retrieved.get(q.query_id, ()))
            yield json.dumps(obj, ensure_ascii=False)


def read_ragas(path: str | Path, *, allow_nul: bool = True) -> Iterator[GoldLine]:
    """Ragas single-turn samples (one JSON object a line) as gold lines to import.

    ``user_input`` (required, a string) is the question; each of ``reference_contexts``
    (required, a list of strings) is an element text on the page named by the same
    position of ``reference_context_ids`` (Ragas's field for the contexts' ids: here
    stored document ids; one id a context), or on ``doc`` for every context when the line
    has that instead. ``query_id`` (a string) names the question, else it is ``rN`` for
    line N. Every element is grade 1 and without offsets: it is found on its page by its
    text (``gold import --snap`` aligns a text that is not there verbatim). Raises
    :class:`InputError` naming the line on anything else.
    """
    seen: set[str] = set()
    for number, obj in read_objects(path, allow_nul=allow_nul):
        query = require(obj, "user_input", str, path, number)
        contexts = require(obj, "reference_contexts", list, path, number)
        if not all(isinstance(c, str) and c.strip() for c in contexts):
            raise InputError(path, "field 'reference_contexts' must hold non-empty strings", number)
        doc = optional(obj, "doc", str, path, number)
        ids = obj.get("reference_context_ids")
        if ids is None:
            if doc is None:
                raise InputError(
                    path,
                    "needs 'reference_context_ids' (the document id of each reference "
                    "context) or 'doc' (one document id for all)",
                    number,
                )
            ids = [doc] * len(contexts)
        if (
            not isinstance(ids, list)
            or len(ids) != len(contexts)
            or not all(isinstance(i, str) and i for i in ids)
        ):
            raise InputError(
                path,
                f"field 'reference_context_ids' must be a list of {len(contexts)} document "
                "id(s), one per reference context",
                number,
            )
        qid = optional(obj, "query_id", str, path, number) or f"r{number}"
        if qid in seen:
            raise InputError(path, f"query_id {qid!r} appears twice", number)
        seen.add(qid)
        elements = tuple(
            GoldElementLine(d, text, None, None, 1) for d, text in zip(ids, contexts, strict=True)
        )
        yield GoldLine(number, qid, query, elements, None)
