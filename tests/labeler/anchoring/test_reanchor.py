"""Re-anchoring labelled elements when their page changes: the rule and the ingest path.

Pages are ``.txt`` files (the ``text`` profile keeps them exactly), so offsets are known.
The tests through ingest and the store run on SQLite and PostgreSQL; the rule's own tests
need no database.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.anchoring import relocate
from labeler.pages import ingest_paths
from labeler.store import (
    ELEMENT_OK,
    ELEMENT_STALE,
    AuditEntry,
    Element,
    Store,
    add_element,
    add_query,
    create_gold_set,
    get_document,
    list_audit,
    open_store,
)

ELEMENT = "Exceptions are approved by the data owner."
OLD = (
    "Policy handbook. Section 4 covers exceptions to the access policy. "
    f"{ELEMENT} "
    "The data owner is named in the register kept by the security office."
)
AT = OLD.index(ELEMENT)

pytestmark = pytest.mark.backends("sqlite", "postgresql")  # tests that take a database


def test_edit_after_the_element_keeps_it_in_place() -> None:
    new = OLD.replace("security office", "compliance team")
    where = relocate(OLD, new, AT, AT + len(ELEMENT))
    assert (where.outcome, where.start) == ("kept", AT)


def test_edit_before_the_element_moves_it_by_the_inserted_length() -> None:
    new = "Version 2, revised. " + OLD
    where = relocate(OLD, new, AT, AT + len(ELEMENT))
    assert (where.outcome, where.start, where.end) == ("moved", AT + 20, AT + 20 + len(ELEMENT))
    assert where.start is not None and where.end is not None
    assert new[where.start : where.end] == ELEMENT


def test_edit_inside_the_element_makes_it_stale() -> None:
    new = OLD.replace("approved by the data owner", "approved by the data steward")
    where = relocate(OLD, new, AT, AT + len(ELEMENT))
    assert (where.outcome, where.start) == ("stale", None)
    assert where.reason == "text no longer on the page"


def test_duplicate_added_by_the_edit_is_told_apart_by_context() -> None:
    # the edit puts a copy of the element text first, in other surroundings
    new = f"FAQ: {ELEMENT} See below. " + OLD
    where = relocate(OLD, new, AT, AT + len(ELEMENT))
    assert where.outcome == "moved"
    assert where.start == new.index(ELEMENT, 10)  # the copy in the old surroundings
    assert where.candidates == 2


def test_exact_duplicate_of_text_and_context_is_a_tie_and_stale() -> None:
    # the page is shifted and then doubled: both copies have the same 32-code-point context
    new = "Preface. " + OLD + " " + OLD
    where = relocate(OLD, new, AT, AT + len(ELEMENT))
    assert where.outcome == "stale"
    assert "agree equally" in where.reason


def test_copy_in_unrelated_surroundings_is_not_the_labelled_passage() -> None:
    page = "Intro. " + "x" * 40 + f" {ELEMENT} " + "y" * 40 + " Outro."
    start = page.index(ELEMENT)
    new = "z" * 50 + f"\n{ELEMENT}\n" + "w" * 50  # text survives, context is all new
    where = relocate(page, new, start, start + len(ELEMENT))
    assert where.outcome == "stale"
    assert "share only" in where.reason


def test_surviving_copy_of_another_old_occurrence_is_not_taken() -> None:
    # two labelled-looking copies; the edit rewrites the first, the second survives untouched
    first = "Chapter one gives the rule, stated in full: "
    second = "Appendix B gives the rule, stated in full: "
    page = f"{first}{ELEMENT} Then more text follows. {second}{ELEMENT} The end."
    start = page.index(ELEMENT)
    new = page.replace(f"{first}{ELEMENT}", f"{first}Exceptions need the owner.", 1)
    where = relocate(page, new, start, start + len(ELEMENT))
    assert where.outcome == "stale"
    assert "copy of the text" in where.reason


def test_element_that_is_the_whole_page_moves_when_text_is_wrapped() -> None:
    where = relocate(ELEMENT, f"New title. {ELEMENT}", 0, len(ELEMENT))
    assert (where.outcome, where.start) == ("moved", 11)


_alphabet = st.sampled_from("ab .")


@settings(max_examples=150, deadline=None)
@given(
    page=st.text(_alphabet, min_size=1, max_size=80),
    span=st.tuples(st.integers(0, 79), st.integers(1, 8)),
    edit=st.tuples(st.integers(0, 80), st.integers(0, 6), st.text(_alphabet, max_size=6)),
)
def test_a_kept_or_moved_element_always_points_at_its_exact_text(
    page: str, span: tuple[int, int], edit: tuple[int, int, str]
) -> None:
    start = span[0] % len(page)
    end = min(len(page), start + span[1])
    at, cut, insert = edit
    at = min(at, len(page))
    new = page[:at] + insert + page[at + cut :]
    where = relocate(page, new, start, end)
    if where.outcome == "stale":
        assert where.start is None and where.reason
    else:
        assert where.start is not None and where.end is not None
        assert new[where.start : where.end] == page[start:end]
    if new == page:
        assert (where.outcome, where.start) == ("kept", start)


# --- through ingest and the store ------------------------------------------------------


def _label(store: Store, doc_id: str, text: str, qid: str) -> int:
    with store.write() as s:
        gold = create_gold_set(s, f"g-{qid}")
        query = add_query(s, gold, qid, "question?", actor="ana")
        doc = get_document(s, doc_id)
        start = doc.text.index(text)
        element = add_element(s, query, doc_id, start, start + len(text), annotator="ana")
        assert element.id is not None
        return element.id


def _element(store: Store, element_id: int) -> Element:
    with store.session() as s:
        element = s.get(Element, element_id)
        assert element is not None
        return element


def test_ingest_moves_and_stales_elements_and_audits_the_moves(
    store: Store, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    page = corpus / "policy.txt"
    page.write_text(OLD, encoding="utf-8")
    ingest_paths(store, [corpus])
    moving = _label(store, "policy.txt", ELEMENT, "q1")
    going = _label(store, "policy.txt", "named in the register", "q2")

    new = "Version 2. " + OLD.replace("named in the register", "listed in the register")
    page.write_text(new, encoding="utf-8")
    report = ingest_paths(store, [corpus])

    assert report.updated_ids == ("policy.txt",)
    assert [m.element_id for m in report.moved] == [moving]
    assert [s.element_id for s in report.stale] == [going]
    moved = _element(store, moving)
    assert (moved.status, moved.start, moved.text) == (ELEMENT_OK, AT + 11, ELEMENT)
    assert new[moved.start : moved.end] == ELEMENT
    stale = _element(store, going)
    assert stale.status == ELEMENT_STALE
    assert OLD[stale.start : stale.end] == stale.text  # offsets and text as labelled
    with store.session() as s:
        entries: list[AuditEntry] = list_audit(s, entity="element", entity_id=moving)
    last = entries[0]
    assert (last.actor, last.action) == ("ingest", "change")
    assert last.before is not None and last.after is not None
    assert (last.before["start"], last.after["start"]) == (AT, AT + 11)
    assert last.after["status"] == ELEMENT_OK


def test_ingest_leaves_elements_after_an_edit_alone(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "policy.txt"
    page.write_text(OLD, encoding="utf-8")
    ingest_paths(store, [page])
    element_id = _label(store, "policy.txt", ELEMENT, "q1")
    page.write_text(OLD + " Appendix added.", encoding="utf-8")
    report = ingest_paths(store, [page])
    assert (report.moved, report.stale) == ((), ())
    assert _element(store, element_id).start == AT
    with store.session() as s:
        assert len(list_audit(s, entity="element", entity_id=element_id)) == 1  # the add


def test_cli_ingest_prints_moved_and_stale_counts(db_url: str, tmp_path: Path) -> None:
    db = db_url
    page = tmp_path / "policy.txt"
    page.write_text(OLD, encoding="utf-8")
    with open_store(db) as store:
        ingest_paths(store, [page])
        _label(store, "policy.txt", ELEMENT, "q1")
        _label(store, "policy.txt", "security office", "q2")
    page.write_text("Preface. " + OLD.replace("security office", "office"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "ingest", "-q", str(page), "--db", db],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 labelled element(s) moved" in proc.stdout
    assert "1 labelled element(s) no longer match their page (stale)" in proc.stdout
    assert "moved label: policy.txt" in proc.stderr
    assert "stale label: policy.txt" in proc.stderr


def test_stale_label_whose_text_is_back_is_ok_again_in_the_same_pass(
    store: Store, tmp_path: Path
) -> None:
    """v1 → v2 edits inside the second label (stale); v2 → v3 undoes that edit and edits
    inside the first (same length, so the second is back at its offsets 162-177, counted by
    hand): one pass marks the first stale and brings the second back. v4 puts the first's
    text back, shifted: it stays stale."""
    page = tmp_path / "policy.txt"
    page.write_text(OLD, encoding="utf-8")
    ingest_paths(store, [page])
    first = _label(store, "policy.txt", ELEMENT, "q1")
    second = _label(store, "policy.txt", "security office", "q2")
    page.write_text(OLD.replace("security office", "security team"), encoding="utf-8")
    v2 = ingest_paths(store, [page])
    assert ([s.element_id for s in v2.stale], v2.restored) == ([second], ())

    page.write_text(OLD.replace("approved by", "accepted by"), encoding="utf-8")
    v3 = ingest_paths(store, [page])

    assert [s.element_id for s in v3.stale] == [first]
    assert [r.element_id for r in v3.restored] == [second]
    back = _element(store, second)
    assert (back.status, back.start, back.end) == (ELEMENT_OK, 162, 177)
    assert _element(store, first).status == ELEMENT_STALE
    with store.session() as s:
        last = list_audit(s, entity="element", entity_id=second)[0]
    assert (last.actor, last.action) == ("ingest", "change")
    assert last.before is not None and last.after is not None
    assert (last.before["status"], last.after["status"]) == (ELEMENT_STALE, ELEMENT_OK)

    # Its context is not stored, so only a stale label's own offsets vouch for it: the first
    # label's text back 9 code points further on (after a preface) is not enough.
    page.write_text("Preface. " + OLD, encoding="utf-8")
    v4 = ingest_paths(store, [page])
    assert (v4.restored, [m.element_id for m in v4.moved]) == ((), [second])
    assert _element(store, first).status == ELEMENT_STALE
