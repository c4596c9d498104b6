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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

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
