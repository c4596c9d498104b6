"""Ragas-style dataset export of a gold set: one JSON line per question,

```json
{"user_input": "Who approves a policy exception?",
 "reference_contexts": ["Exceptions are approved by the data owner."]}
```

``reference_contexts`` are the question's element texts in label order (exact page slices).
Questions without elements are left out (nothing to evaluate against). Lines load with
``ragas.EvaluationDataset.from_list`` after ``json.loads``; a retrieval run adds
``retrieved_contexts`` to each.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from labeler.formats.qrels import Question


def ragas_lines(questions: Iterable[Question]) -> Iterator[str]:
    """One JSON line (without newline) per question that has elements."""
    for q in questions:
        if q.spans:
            yield json.dumps(
                {"user_input": q.text, "reference_contexts": [s.text for s in q.spans]},
                ensure_ascii=False,
            )
