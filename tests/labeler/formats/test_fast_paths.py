"""The readers' shortcuts for the common shapes of a run result and a gold element give
exactly what the full reading gives, whenever they take an input at all (Hypothesis over
mixed shapes, right and wrong)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.errors import InputError
from labeler.formats.gold_jsonl import MAX_GRADE, _full_element, _plain_element
from labeler.formats.run_jsonl import Columns, _full, _plain

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 4),
    st.integers(10**12, 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308 * 10, 2.5, 0.0]),
    st.text(max_size=3),
    st.just([]),
    st.just({"start": 1, "end": 2}),
)


@st.composite
def near(draw: st.DrawFn, base: dict[str, Any], extra: list[str]) -> dict[str, Any]:
    """``base`` (a plain shape) with fields dropped, changed or added: most draws sit on
    the edge between the shapes the shortcut takes and those it must leave alone."""
    item = {k: v for k, v in base.items() if draw(st.integers(0, 5))}
    for key in draw(st.lists(st.sampled_from([*base, *extra]), max_size=2)):
        item[key] = draw(VALUES)
    return item


@st.composite
def result(draw: st.DrawFn, strings: bool = True) -> Any:
    """A result near the plain shapes; an object always unless ``strings``."""
    if strings and draw(st.booleans()):
        return draw(st.text(max_size=3))
    base = {
        "text": draw(st.text(max_size=3)),
        "doc": draw(st.sampled_from(["p", None, 3])),
        "score": draw(st.sampled_from([1.5, 0.0, math.nan, math.inf, -math.inf, 2, None, True])),
        "start": draw(st.integers(-1, 3)),
        "end": draw(st.integers(-1, 3)),
    }
    return draw(near(base, ["rank", "metadata", "start_char_idx", "end_char_idx"]))


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_the_run_shortcut_reads_what_the_full_reading_reads(data: st.DataObject) -> None:
    # lists of objects only too: the shortcut checks those a field at a time over them all
    strings = data.draw(st.booleans())
    results = data.draw(st.lists(result(strings), max_size=4))
    plain = _plain(results)
    if plain is None:
        return
    try:
        full = _full(results, "run.jsonl", 1)
    except InputError as err:  # the shortcut took a result the full reading refuses
        raise AssertionError(f"{results!r}: {err}") from None
    assert [list(column) for column in plain] == [list(column) for column in Columns.of(full)]
    assert list(map(type, plain.scores)) == [type(c.score) for c in full]


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_the_gold_shortcut_reads_what_the_full_reading_reads(data: st.DataObject) -> None:
    base = {
        "doc": data.draw(st.sampled_from(["p", "", None, 3])),
        "text": data.draw(st.text(max_size=2)),
        "start": data.draw(st.integers(-1, 3)),
        "end": data.draw(st.integers(-1, 3)),
        "grade": data.draw(st.sampled_from([0, 1, 2, MAX_GRADE, MAX_GRADE + 1, None, True])),
    }
    item = data.draw(near(base, ["status", "key", "layer", "assisted"]))
    plain = _plain_element(item)
    if plain is None:
        return
    try:
        full = _full_element(item, 0, "gold.jsonl", 1)
    except InputError as err:  # the shortcut took an element the full reading refuses
        raise AssertionError(f"{item!r}: {err}") from None
    assert plain == full


def test_the_shortcuts_take_the_common_shapes() -> None:
    """Not a shortcut that never fires: the plain shapes the benchmarks write take it."""
    assert _plain([{"text": "a", "doc": "p", "score": 1.5, "start": 0, "end": 1}, "b"])
    assert _plain([{"text": "a", "doc": "p", "score": 1.5, "start": 0, "end": 1}])
    assert _plain([{"text": "a", "doc": "p", "score": 1.5}, {"text": "b"}])
    assert _plain_element({"doc": "p", "text": "a", "start": 0, "end": 1, "grade": 2})
    assert _plain_element({"doc": "p", "text": "a"})
