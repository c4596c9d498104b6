"""The HTML score and comparison reports: the chart's point tooltips name the metric at its
k (``Hit@1``), and the flags table says what each flag means, as the text report does.

Scores worked by hand on one page, ``one two three four five six``:

* q1 expects ``two three``; rank 1 ``one two three`` holds it whole: Hit@1 = Partial@1 = 1.
* q2 expects ``four five six`` (13 characters); rank 1 ``one`` misses it, rank 2
  ``four five`` covers 9 of its 13 characters (0.69 >= 0.5): Partial from k = 2, never Hit.

So Hit@1 = Hit@2 = 0.5, Partial@1 = 0.5 and Partial@2 = 1.0. Run b answers q2 at rank 1
with ``four five six``: its Hit@1 = Hit@2 = Partial@1 = Partial@2 = 1.0.
"""

from __future__ import annotations

import re
from html import escape

from labeler.report.html import comparison_html, score_html
from scoring import Chunk, GoldElement, GoldQuestion, compare_runs, score_run

PAGE = "one two three four five six"
QUESTIONS = [
    GoldQuestion("q1", "first", (GoldElement("p", "two three"),)),
    GoldQuestion("q2", "second", (GoldElement("p", "four five six"),)),
]
RUN_A = {"q1": [Chunk("one two three")], "q2": [Chunk("one"), Chunk("four five")]}
RUN_B = {"q1": [Chunk("one two three")], "q2": [Chunk("four five six"), Chunk("one")]}

#: the text report's meanings (labeler.report.text_report), written out again here
MEANINGS = {
    "repeated": "elements whose text occurs more than once on its page",
    "fallback": "ranks with a chunk not found on an element's page (judged by containment)",
    "chunk_repeated": "ranks whose chunk occurs more than once on an element's page",
    "element_not_in_page": "elements whose text is not on its stored page",
    "fallback_graded": "ranks where such a chunk still held an element (Partial or Full)",
}


def tooltips(page: str) -> list[str]:
    return re.findall(r"<circle [^>]*><title>([^<]*)</title></circle>", page)


def test_score_chart_tooltips_name_the_metric_at_k() -> None:
    result = score_run(QUESTIONS, {"p": PAGE}, RUN_A, ks=(1, 2), gold_set="g", run_name="a")
    page = score_html(result)
    assert tooltips(page) == [
        "Hit@1 = 0.500",
        "Hit@2 = 0.500",
        "Partial@1 = 0.500",
        "Partial@2 = 1.000",
    ]
    assert "@k@" not in page
    assert ">Hit@k</text>" in page and ">Partial@k</text>" in page  # the legend keeps @k


def test_comparison_chart_tooltips_name_metric_k_and_run() -> None:
    a = score_run(QUESTIONS, {"p": PAGE}, RUN_A, ks=(1, 2), gold_set="g", run_name="a")
    b = score_run(QUESTIONS, {"p": PAGE}, RUN_B, ks=(1, 2), gold_set="g", run_name="b")
    page = comparison_html(compare_runs(a, b, permutations=10), a, b)
    assert tooltips(page) == [
        "Hit@1 a = 0.500",
        "Hit@2 a = 0.500",
        "Partial@1 a = 0.500",
        "Partial@2 a = 1.000",
        "Hit@1 b = 1.000",
        "Hit@2 b = 1.000",
        "Partial@1 b = 1.000",
        "Partial@2 b = 1.000",
    ]
    assert ">Hit@k a</text>" in page and ">Partial@k b</text>" in page


def test_flags_table_keeps_each_flag_meaning() -> None:
    result = score_run(QUESTIONS, {"p": PAGE}, RUN_A, ks=(1, 2), gold_set="g", run_name="a")
    page = score_html(result)
    flags = page.split("<h2>Flags</h2>", 1)[1].split("</table>", 1)[0]
    assert "<th>flag</th><th>count</th><th>meaning</th>" in flags
    for flag, meaning in MEANINGS.items():
        assert f"<tr><td>{flag}</td><td>0</td><td>{escape(meaning)}</td></tr>" in flags
