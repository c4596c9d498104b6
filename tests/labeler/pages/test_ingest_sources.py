"""Ingest and where a page comes from: a document id stored from another source file is not
replaced without ``replace_source``; symbolic links out of a folder are not followed.

Pages are ``.txt`` files (the ``text`` profile keeps them exactly), so texts and offsets
are known by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from labeler.pages import ingest_paths
from labeler.store import (
    ELEMENT_OK,
    ELEMENT_STALE,
    Element,
    Store,
    add_element,
    add_query,
    create_gold_set,
    get_document,
    list_audit,
    upsert_document,
)
from labeler.store.document_table import SourceConflict

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Foreign keys are off by default. Enable them with PRAGMA foreign_keys = ON."
LABEL = "Enable them with PRAGMA foreign_keys = ON."  # at 33
OTHER = "An unrelated page that happens to have the same file name."


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def label(store: Store, doc_id: str) -> int:
    with store.write() as s:
        query = add_query(s, create_gold_set(s, "g"), "fk-enable", "How?", actor="ana")
        element = add_element(s, query, doc_id, 33, 33 + len(LABEL), annotator="ana")
        assert element.id is not None
        return element.id


def element(store: Store, element_id: int) -> Element:
    with store.session() as s:
        found = s.get(Element, element_id)
        assert found is not None
        return found


def page(store: Store, doc_id: str) -> tuple[str, str]:
    with store.session() as s:
        doc = get_document(s, doc_id)
        return doc.text, doc.source_path


def test_same_id_from_another_file_is_refused_and_the_rest_is_stored(
    store: Store, tmp_path: Path
) -> None:
    original = write(tmp_path / "corpus" / "fk.txt", PAGE)
    ingest_paths(store, [tmp_path / "corpus"])
    element_id = label(store, "fk.txt")
    intruder = write(tmp_path / "other" / "fk.txt", OTHER)
    write(tmp_path / "other" / "new.txt", "A new page.")

    report = ingest_paths(store, [tmp_path / "other"])

    assert report.added_ids == ("new.txt",)
    assert report.updated_ids == ()
    ((path, reason),) = report.failed
    assert path == str(intruder)
    assert str(original) in reason and "--replace-source" in reason
    assert page(store, "fk.txt") == (PAGE, str(original))
    assert element(store, element_id).status == ELEMENT_OK


def test_replace_source_then_the_original_again_brings_the_label_back(
    store: Store, tmp_path: Path
) -> None:
    original = write(tmp_path / "corpus" / "fk.txt", PAGE)
    ingest_paths(store, [tmp_path / "corpus"])
    element_id = label(store, "fk.txt")
    intruder = write(tmp_path / "other" / "fk.txt", OTHER)

    replaced = ingest_paths(store, [intruder], replace_source=True)
    assert replaced.updated_ids == ("fk.txt",)
    assert [s.element_id for s in replaced.stale] == [element_id]
    assert page(store, "fk.txt") == (OTHER, str(intruder))

    refused = ingest_paths(store, [tmp_path / "corpus"])  # now the corpus is the other file
    assert [f.path for f in refused.failed] == [str(original)]
    assert element(store, element_id).status == ELEMENT_STALE

    back = ingest_paths(store, [tmp_path / "corpus"], replace_source=True)
    assert back.updated_ids == ("fk.txt",) and back.failed == ()
    assert [r.element_id for r in back.restored] == [element_id]
    restored = element(store, element_id)
    assert (restored.status, restored.start, restored.end) == (ELEMENT_OK, 33, 75)
    with store.session() as s:
        last = list_audit(s, entity="element", entity_id=element_id)[0]
    assert (last.actor, last.action) == ("ingest", "change")
    assert last.before is not None and last.after is not None
    assert (last.before["status"], last.after["status"]) == (ELEMENT_STALE, ELEMENT_OK)


def test_same_file_through_a_linked_folder_is_an_ordinary_update(
    store: Store, tmp_path: Path
) -> None:
    real = write(tmp_path / "corpus" / "fk.txt", PAGE)
    (tmp_path / "alias").symlink_to(tmp_path / "corpus", target_is_directory=True)
    ingest_paths(store, [tmp_path / "corpus"])
    write(real, PAGE + " More.")
    report = ingest_paths(store, [tmp_path / "alias"])
    assert (report.updated_ids, report.failed) == (("fk.txt",), ())
    assert page(store, "fk.txt")[0] == PAGE + " More."


def test_identical_bytes_from_a_moved_folder(store: Store, tmp_path: Path) -> None:
    """The bytes are the same page: nothing to refuse and nothing written; asked with
    replace_source, the new path is recorded (so chunking reads the file from there)."""
    write(tmp_path / "old" / "fk.txt", PAGE)
    ingest_paths(store, [tmp_path / "old"])
    moved = write(tmp_path / "new" / "fk.txt", PAGE)
    quiet = ingest_paths(store, [tmp_path / "new"])
    assert (quiet.unchanged_ids, quiet.failed) == (("fk.txt",), ())
    assert page(store, "fk.txt")[1] == str(tmp_path / "old" / "fk.txt")
    asked = ingest_paths(store, [tmp_path / "new"], replace_source=True)
    assert asked.updated_ids == ("fk.txt",)
    assert page(store, "fk.txt") == (PAGE, str(moved))


def test_links_out_of_a_folder_are_not_followed(store: Store, tmp_path: Path) -> None:
    outside = write(tmp_path / "secret.txt", "not part of the corpus")
    corpus = tmp_path / "corpus"
    write(corpus / "page.txt", PAGE)
    (corpus / "leak.txt").symlink_to(outside)
    (corpus / "sub").mkdir()
    (corpus / "sub" / "up.txt").symlink_to(Path("..") / ".." / "secret.txt")
    (corpus / "same.txt").symlink_to("page.txt")  # inside the folder: read like the file

    report = ingest_paths(store, [corpus])

    assert sorted(report.added_ids) == ["page.txt", "same.txt"]
    assert sorted(report.skipped_paths) == [str(corpus / "leak.txt"), str(corpus / "sub/up.txt")]
    assert report.failed == ()
    assert [n.split(":")[0] for n in report.notes] == [
        str(corpus / "leak.txt"),
        str(corpus / "sub/up.txt"),
    ]
    assert all(f"symbolic link to {outside}" in n for n in report.notes)
    # named on the command line, the same link is followed (the user gave it)
    given = ingest_paths(store, [corpus / "leak.txt"])
    assert given.added_ids == ("leak.txt",)
    assert page(store, "leak.txt") == ("not part of the corpus", str(corpus / "leak.txt"))


def test_the_store_refuses_too_inside_its_transaction(store: Store, tmp_path: Path) -> None:
    """upsert_document checks again (ingest's early check reads before the write lock)."""
    with store.write() as s:
        upsert_document(
            s, doc_id="fk.txt", source_path="/a/fk.txt", sha256="1", profile="text", text=PAGE
        )
    refused = r"already stored from another file, /a/fk\.txt"
    with pytest.raises(SourceConflict, match=refused), store.write() as s:
        upsert_document(
            s, doc_id="fk.txt", source_path="/b/fk.txt", sha256="2", profile="text", text=OTHER
        )
    assert page(store, "fk.txt") == (PAGE, "/a/fk.txt")
    with store.write() as s:
        done = upsert_document(
            s,
            doc_id="fk.txt",
            source_path="/b/fk.txt",
            sha256="2",
            profile="text",
            text=OTHER,
            replace_source=True,
        )
    assert done.outcome == "updated" and page(store, "fk.txt") == (OTHER, "/b/fk.txt")
