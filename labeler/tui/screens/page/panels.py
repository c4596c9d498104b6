"""What the page screen draws around the text: span colours, the question bar, the
elements panel and the selection readout.

Each function reads the screen's rows and the app's current question at the moment it
draws, so a redraw after any change shows the state as it is now. Span styles stack in
one order: other questions' elements, then find matches, then the current question's
elements (the focused one brighter), then key clauses underlined on top.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from rich.markup import escape
from rich.text import Text
from textual.widgets import Static

from labeler.store import ElementRow, Store, seen_question_elements
from labeler.tui import span_marks
from labeler.tui.fit import Part, fit_parts
from labeler.tui.grade_keys import GRADE_LEGEND, grade_meaning
from labeler.tui.teamwork import team_state
from labeler.tui.widgets.page_view import (
    CURRENT,
    FOCUSED,
    FOUND,
    KEY,
    OTHER,
    STALE,
    Span,
)

if TYPE_CHECKING:
    from labeler.tui.screens.page.page_state import PageContext


def question_name(screen: PageContext, query_id: int) -> str:
    """The external id of ``query_id`` in the gold set, for messages."""
    q = next((x for x in screen.labeler.questions if x.id == query_id), None)
    return q.external_id if q is not None else "a question no longer in this gold set"


def paint_spans(screen: PageContext) -> None:
    """Colour the page: every element, the find matches (first 2000) and key clauses."""
    qid = screen.labeler.current_query_id
    painted: list[Span] = []
    for e in screen.elements:
        if e.query_id != qid:
            painted.append(Span(e.start, e.end, STALE if e.status == "stale" else OTHER))
    if screen.needle:
        painted += [Span(m, m + len(screen.needle), FOUND) for m in screen.matches[:2000]]
    for e in screen.elements:
        if e.query_id == qid:
            style = FOCUSED if e.id == screen.focused_id else CURRENT
            painted.append(Span(e.start, e.end, STALE if e.status == "stale" else style))
    # key clauses underlined on top of their elements' colours
    painted += [
        Span(e.key_start, e.key_end, KEY)
        for e in screen.elements
        if e.key_start is not None and e.key_end is not None and e.status != "stale"
    ]
    screen.view.set_spans(painted)


def show_question(screen: PageContext) -> None:
    """The question bar: the current question, its place, n_gold, team state, mode."""
    app = screen.labeler
    q = app.current_question
    bar = screen.query_one("#question-bar", Static)
    if q is None:
        bar.update("[b]no question[/b] — add one on the Questions screen (F2, then a)")
        return
    index = [x.id for x in app.questions].index(q.id) + 1
    assist = "  [b black on yellow] ASSIST [/]" if app.assist else "  [dim]blind[/dim]"
    state = f"  [b]{escape(team_state(q))}[/b]" if q.team else ""
    bar.update(
        f"[b]{escape(q.external_id)}[/b] ({index}/{len(app.questions)})  "
        f"{escape(q.text)}  [dim]· n_gold {q.n_gold}[/dim]{state}{assist}"
    )


def show_elements(screen: PageContext) -> None:
    """The elements panel: the current question's elements here, else where it has some."""
    mine = screen.mine()
    lines = Text(f"Elements here ({len(mine)})\n", style="bold")
    for e in mine:
        marker = "▶ " if e.id == screen.focused_id else "  "
        flags = " assisted" if e.assisted else ""
        flags += " STALE" if e.status == "stale" else ""
        if e.key_start is not None:
            flags += f" key {e.key_start}–{e.key_end}"
        lines.append(f"{marker}{e.start}–{e.end} g{e.grade} {e.annotator}{flags}\n")
        shown = e.text if len(e.text) <= 70 else e.text[:69] + "…"
        lines.append(f"   {shown!r}\n", style="dim")
    if not mine and screen.elsewhere:
        lines.append(screen.elsewhere + "\n", style="yellow")
    others = len(screen.elements) - len(mine)
    if others:
        lines.append(f"\n{others} element(s) of other questions (dim)\n", style="dim")
    screen.query_one("#elements", Static).update(lines)


def load_elsewhere(screen: PageContext) -> None:
    """When the current question has no element on this page, find the pages where it
    has some, so the panel (and ``]``) can say where to go."""
    qid = screen.labeler.current_query_id
    if qid is None or screen.mine():
        screen.elsewhere = ""
        return
    document_id, annotator = screen.document_id, screen.labeler.annotator

    def load(store: Store) -> list[ElementRow]:
        return seen_question_elements(store, qid, annotator)

    def loaded(rows: list[ElementRow]) -> None:
        if qid != screen.labeler.current_query_id or screen.mine():
            return  # stale answer: a newer redraw asked again
        counts: dict[str, int] = {}
        for e in rows:
            if e.document_id != document_id:
                counts[e.document_id] = counts.get(e.document_id, 0) + 1
        name = question_name(screen, qid)
        if counts:
            pages = ", ".join(f"{doc} ({n})" for doc, n in counts.items())
            screen.elsewhere = f"{name} has elements on: {pages}  (v: review)"
        else:
            screen.elsewhere = f"{name} has no elements on any page yet"
        show_elements(screen)

    screen.labeler.db(load, loaded, what="question pages")


def match_readout(screen: PageContext) -> str | None:
    """``match 2/3 of 'needle' at 120`` (and ``whole words``, a wrap) while the selection
    is the current match; None otherwise."""
    if not screen.needle or not 0 <= screen.match_index < len(screen.matches):
        return None
    m = screen.matches[screen.match_index]
    if screen.view.offsets != (m, m + len(screen.needle)):
        return None
    text = f"match {screen.match_index + 1}/{len(screen.matches)} of {screen.needle!r} at {m}"
    if screen.whole_word:
        text += " (whole words)"
    if screen.wrapped:
        text += f"  ·  {screen.wrapped}"
    return text


def show_readout(screen: PageContext) -> None:
    """The line under the page: the element under the cursor (its grade, the 1-3 legend,
    its key clause), else the cursor, else the selection and how often its text repeats
    on the page (more than once: warned, scoring flags it). A find match selected says
    first which of how many it is (``match 2/3 of 'size' at 120``, a wrap round)."""
    if not screen.loaded:
        return
    start, end = screen.view.offsets
    readout = screen.query_one("#readout", Static)
    found = match_readout(screen)
    cursor = screen.view.cursor_offset
    inside = next(
        (
            e
            for e in screen.mine()
            if (start == end and e.start <= cursor <= e.end) or (start, end) == (e.start, e.end)
        ),
        None,
    )
    # the readout's room: the line less its padding (fit_parts keeps every hint whole)
    width = readout.size.width - 2 if readout.size.width else 0
    # One line high and as wide as the screen whatever it says (app.tcss): no layout
    # pass needed, which would lay out and repaint the whole screen on every key.
    update = functools.partial(readout.update, layout=False)
    if inside is not None and found is None:
        # What the grade means, where the annotator is about to press 1-3.
        key = (
            [f"key {inside.key_start}–{inside.key_end}"]
            if inside.key_start is not None
            else ["K on a selection inside: key clause", "K: key clause"]
        )
        meaning = grade_meaning(inside.grade)
        update(
            fit_parts(
                [
                    f"{inside.start}–{inside.end}",
                    [meaning, meaning.split(":")[0]],
                    [f"1-3: {GRADE_LEGEND}", "1-3: grade"],
                    key,
                ],
                width,
            )
        )
        readout.set_class(False, "-warning")
        return
    if start == end:
        update(
            fit_parts(
                [
                    [f"cursor {start} of {len(screen.page)}", f"cursor {start}"],
                    [
                        "select with shift+arrows, mouse drag, w/s/b (extend), "
                        "W/S/B (shrink), t (trim)",
                        "select: shift+arrows, w/s/b, W/S/B, t",
                        "select: shift+arrows",
                    ],
                ],
                width,
            )
        )
        readout.set_class(False, "-warning")
        return
    selected = screen.page.stored[start:end]
    n = span_marks.count_occurrences(screen.page.stored, selected)
    many = f"{n}+" if n >= span_marks.COUNT_CAP else str(n)
    place: list[str] = [f"{start}–{end}"]
    if found is not None:  # the match's place first; the repetition still warns
        place = [found, found.split("  ·  ")[0]]
    parts: list[Part] = [place, f"{end - start} chars", f"{many}× on page"]
    if n > 1:
        parts.insert(1, ["⚠ repeated text: scoring will flag this element", "⚠ repeated text"])
    update(fit_parts(parts, width))
    readout.set_class(n > 1, "-warning")
