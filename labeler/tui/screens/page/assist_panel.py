"""The page screen's assist side: a stored run's top chunks for the current question.

The panel shows only in assist mode (``A``). ``r`` steps through the stored runs, ``+``
and ``-`` change how many chunks are shown (:func:`labeler.tui.assist.step_k`), ``c`` and
``C`` select the next/previous shown chunk whose text is on this page. A load answered
after the run, question or count changed is dropped (a newer one follows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from labeler.store import Store
from labeler.tui.assist import AssistChunk, assist_chunks, step_k
from labeler.tui.bars import coverage_bar

if TYPE_CHECKING:
    from labeler.tui.screens.page.page_state import PageContext


def load_assist(screen: PageContext) -> None:
    """Show or hide the panel; in assist mode, load and draw the run's chunks."""
    panel = screen.query_one("#assist", Static)
    app = screen.labeler
    q = app.current_question
    panel.display = app.assist
    if not app.assist or q is None or app.assist_run is None:
        return
    run, qid, ext, k, page = app.assist_run, q.id, q.external_id, app.assist_k, screen.page
    stored = page.stored

    def load(store: Store) -> list[AssistChunk]:
        return assist_chunks(store, run.id, qid, ext, k, stored, annotator=app.annotator)

    def show(chunks: list[AssistChunk]) -> None:
        if (run, qid, k) != (app.assist_run, app.current_query_id, app.assist_k):
            return  # a newer load follows
        screen.chunks = chunks
        screen.chunk_index = -1
        out = Text(f"Assist: run {run.name}, top {len(chunks)}\n", style="bold")
        out.append("r: run · +/-: how many · c/C: jump to a chunk\n", style="dim")
        if not chunks:
            out.append("no results for this question\n", style="dim")
        for c in chunks:
            out.append(f"#{c.rank} ")
            out.append_text(coverage_bar(c.coverage, 12))
            if c.at is not None:
                out.append(f" here {c.at[0]}–{c.at[1]}", style="green")
            elif c.doc_id and c.doc_id != screen.document_id:
                out.append(f" on {c.doc_id}", style="dim")
            shown = c.text if len(c.text) <= 80 else c.text[:79] + "…"
            out.append(f"\n   {shown!r}\n", style="dim")
        panel.update(out)

    app.db(load, show, what="assist")


def step_run(screen: PageContext, delta: int) -> None:
    """Show the next (``delta=1``) stored run's chunks in assist mode, wrapping round."""
    app = screen.labeler
    if not app.runs:
        screen.notify("no run stored: import a run first", severity="warning")
        return
    ids = [r.id for r in app.runs]
    current = app.assist_run.id if app.assist_run is not None else None
    index = ids.index(current) if current in ids else -1
    app.choose_assist_run(ids[(index + delta) % len(ids)])


def step_count(screen: PageContext, delta: int) -> None:
    """Show more (``delta=1``) or fewer (``delta=-1``) of the run's chunks."""
    app = screen.labeler
    app.assist_k = step_k(app.assist_k, delta)
    screen.notify(f"assist: top {app.assist_k} chunks", timeout=2)


def step_chunk(screen: PageContext, delta: int) -> None:
    """Select the next/previous assist chunk whose text is on this page (wrapping)."""
    if not screen.labeler.assist:
        screen.notify("assist mode is off: press A first", severity="warning", timeout=3)
        return
    here = [i for i, c in enumerate(screen.chunks) if c.at is not None]
    if not here:
        elsewhere = sorted({c.doc_id for c in screen.chunks if c.doc_id})
        where = f" (they are on: {', '.join(elsewhere)})" if elsewhere else ""
        screen.notify(f"none of the shown chunks is on this page{where}", severity="warning")
        return
    index = screen.chunk_index
    after = [i for i in here if (i > index if delta > 0 else i < index)]
    if delta > 0:
        screen.chunk_index = after[0] if after else here[0]
    else:
        screen.chunk_index = after[-1] if after else here[-1]
    chunk = screen.chunks[screen.chunk_index]
    assert chunk.at is not None
    screen.view.select_offsets(*chunk.at)
    screen.query_one("#readout", Static).update(
        f"chunk #{chunk.rank} at {chunk.at[0]}–{chunk.at[1]}  ·  a: attach it"
    )
