"""The page screen's keys, and the order the footer shows them in.

Labelling keys come first in the footer (:func:`labeler.tui.keys.most_important_first`)
so a terminal 80 columns wide still shows them; the rest stay in the help screen (F1).
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

PAGE_BINDINGS: list[BindingType] = [
    Binding("escape", "back", "Back"),
    Binding("a,enter", "attach", "Attach", key_display="a"),
    Binding("1", "grade(1)", "Grade 1", show=False),
    Binding("2", "grade(2)", "Grade 2", show=False),
    Binding("3", "grade(3)", "Grade", key_display="1-3"),
    Binding("x", "remove", "Remove"),
    Binding("K", "key", "Key clause", show=False),
    Binding("w", "extend('word')", "Word", show=False),
    Binding("s", "extend('sentence')", "+Sentence"),
    Binding("b", "extend('block')", "+Block", show=False),
    Binding("W", "shrink('word')", "-Word", show=False),
    Binding("S", "shrink('sentence')", "-Sentence", show=False),
    Binding("B", "shrink('block')", "-Block", show=False),
    Binding("t", "trim", "Trim", show=False),
    Binding("slash", "find", "Find", key_display="/"),
    Binding("n", "find_step(1)", "Next match", show=False),
    Binding("N", "find_step(-1)", "Prev match", show=False),
    Binding("ctrl+t", "whole_word", "Whole words", show=False),
    Binding("ctrl+home", "page_edge(-1)", "Page start", show=False),
    Binding("ctrl+end", "page_edge(1)", "Page end", show=False),
    Binding("right_square_bracket", "element_step(1)", "Next element", key_display="]"),
    Binding("left_square_bracket", "element_step(-1)", "Prev element", show=False),
    Binding("full_stop", "question_step(1)", "Next Q", key_display="."),
    Binding("comma", "question_step(-1)", "Prev Q", show=False),
    Binding("A", "assist", "Assist", key_display="A"),
    Binding("v", "review", "Review Q", show=False),
    # assist mode: which run, how many chunks, jump to a chunk found on this page
    Binding("r", "assist_run(1)", "Assist run", show=False),
    Binding("plus", "assist_k(1)", "More chunks", show=False),
    Binding("minus", "assist_k(-1)", "Fewer chunks", show=False),
    Binding("c", "chunk_step(1)", "Next chunk", show=False),
    Binding("C", "chunk_step(-1)", "Prev chunk", show=False),
]

#: the footer's order (:mod:`labeler.tui.keys`): labelling first, so 80 columns keep it
PAGE_FOOTER_FIRST: tuple[str, ...] = (
    "attach",
    "question_step(1)",
    "next_unlabelled",
    "toggle_done",  # team gold sets only
    "remove",
    "grade(3)",
    "find",
    "element_step(1)",
    "back",
    "extend('sentence')",
    "undo",
)
