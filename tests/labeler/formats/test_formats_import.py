"""Label Studio and doccano span imports: import → export JSONL gives the expected spans,
UTF-16 offsets (emoji page) are read as the formats' unit and converted, bad files change
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.errors import InputError
from labeler.extract import page_text
from labeler.formats.span_import import RawSpan, RawTask, resolve_tasks, utf16_map
from labeler.formats.span_units import OffsetUnit

EMOJI = "<p>Party 🎉 time. The 🚀 rocket launches at noon.</p><p>Second 😀 para.</p>"
PLAIN = "<p>Plain page with a span.</p>"


def text_of(html: str) -> str:
    return page_text(html.encode("utf-8"))


def u16(text: str, cp: int) -> int:
    """The UTF-16 (JavaScript) index of code point offset ``cp``."""
    return len(text[:cp].encode("utf-16-le")) // 2


def js_span(text: str, span: str) -> tuple[int, int]:
    start = text.index(span)
    return u16(text, start), u16(text, start + len(span))


@pytest.fixture()
def db(tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "emoji.html").write_text(EMOJI, encoding="utf-8")
    (docs / "plain.html").write_text(PLAIN, encoding="utf-8")
    path = str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", path, "-q"]) == 0
    return path


def exported(db: str, tmp_path: Path, name: str) -> list[dict[str, object]]:
    out = tmp_path / f"{name}.jsonl"
    assert main(["gold", "export", "--gold-set", name, "-o", str(out), "--db", db]) == 0
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def spans(rows: list[dict[str, object]]) -> dict[str, list[tuple[str, int, int, str]]]:
    return {
        str(r["query_id"]): [
            (e["doc"], e["start"], e["end"], e["text"])
            for e in r["elements"]  # type: ignore[attr-defined]
        ]
        for r in rows
    }


def labelstudio_export(emoji: str) -> list[dict[str, object]]:
    rocket, second = js_span(emoji, "rocket launches at noon."), js_span(emoji, "Second 😀 para.")

    def result(start: int, end: int, text: str, label: str) -> dict[str, object]:
        value = {"start": start, "end": end, "text": text, "labels": [label]}
        return {"type": "labels", "from_name": "label", "to_name": "text", "value": value}

    return [
        {"id": 11, "data": {"text": emoji}, "annotations": [
            {"result": [result(*rocket, "rocket launches at noon.", "q1"),
                        result(*second, "Second 😀 para.", "q2"),
                        {"type": "choices", "value": {"choices": ["x"]}}]},
            {"was_cancelled": True, "result": [result(0, 5, "Party", "q9")]},
        ]},
        {"id": 12, "data": {"doc": "plain.html"}, "meta": {}, "annotations": [
            {"result": [result(0, 5, "a span", "q1")]},  # wrong offsets: --prefer text
        ]},
    ]  # fmt: skip


def test_labelstudio_round_trip_with_utf16_offsets(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emoji, plain = text_of(EMOJI), text_of(PLAIN)
    assert emoji == "Party 🎉 time. The 🚀 rocket launches at noon. Second 😀 para."
    path = tmp_path / "ls.json"
    path.write_text(json.dumps(labelstudio_export(emoji), ensure_ascii=False), encoding="utf-8")
    args = ["gold", "import", str(path), "--format", "labelstudio", "--gold-set", "ls"]
    assert main([*args, "--db", db]) == 1  # task 12's offsets cut "Plain", not its text
    assert "task 2 (id 12), annotation 1, result 1, span 0-5: offsets 0-5 (UTF-16 code " in (
        capsys.readouterr().err
    )
    assert main([*args, "--db", db, "--prefer", "text"]) == 0
    out, err = capsys.readouterr()
    assert "2 span(s) on pages with characters outside the BMP: offsets read as UTF-16" in err
    assert "1 span(s) placed by their text at its first occurrence" in err
    assert "2 questions (one per label), 3 elements" in out
    r = emoji.index("rocket")
    s = emoji.index("Second")
    p = plain.index("a span")
    assert spans(exported(db, tmp_path, "ls")) == {
        "q1": [("emoji.html", r, r + 24, "rocket launches at noon."),
               ("plain.html", p, p + 6, "a span")],
        "q2": [("emoji.html", s, s + 14, "Second 😀 para.")],
    }  # fmt: skip


def test_doccano_round_trip_with_both_span_shapes(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emoji, plain = text_of(EMOJI), text_of(PLAIN)
    rows = [
        {"id": 1, "text": emoji, "label": [[*js_span(emoji, "rocket launches"), "q1"],
                                           [*js_span(emoji, "time."), "q2"]]},
        {"id": 2, "text": plain, "meta": {"doc": "plain.html"},
         "entities": [{"id": 5, "start_offset": 0, "end_offset": 5, "label": "q2"}]},
    ]  # fmt: skip
    path = tmp_path / "doccano.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    args = ["gold", "import", str(path), "--format", "doccano", "--gold-set", "dc"]
    assert main([*args, "--db", db]) == 0
    err = capsys.readouterr().err
    assert "2 span(s) on pages with characters outside the BMP: offsets read as UTF-16" in err
    r, t = emoji.index("rocket"), emoji.index("time.")
    assert spans(exported(db, tmp_path, "dc")) == {
        "q1": [("emoji.html", r, r + 15, "rocket launches")],
        "q2": [("emoji.html", t, t + 5, "time."), ("plain.html", 0, 5, "Plain")],
    }


def test_bad_imports_change_nothing(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    rows = [
        {"text": text_of(PLAIN), "label": [[0, 5, "q1"]]},
        {"text": "a page nobody ingested", "label": [[0, 1, "q1"]]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    base = ["gold", "import", str(path), "--format", "doccano", "--gold-set", "x", "--db", db]
    assert main(base) == 1
    assert "bad.jsonl:2: line 2: its text equals no stored page" in capsys.readouterr().err
    assert main(["gold", "export", "--gold-set", "x", "--db", db]) == 1  # not created
    assert "no gold set 'x'" in capsys.readouterr().err

    ls = tmp_path / "bad.json"
    ls.write_text(json.dumps([{"id": 3, "data": {"doc": "plain.html"}, "annotations": [
        {"result": [{"type": "labels", "value": {"start": 0, "end": 3, "text": "nope",
                                                 "labels": ["q1"]}}]}]}]))  # fmt: skip
    args = ["gold", "import", str(ls), "--format", "labelstudio", "--gold-set", "y", "--db", db]
    assert main(args) == 1
    assert (
        "task 1 (id 3), annotation 1, result 1, span 0-3: offsets 0-3 (UTF-16 code units) "
        "cut 'Pla' but its text says 'nope'; give --prefer offsets"
    ) in capsys.readouterr().err
    assert main([*args, "--prefer", "text"]) == 1
    assert "span 0-3: text 'nope' is not on page 'plain.html'" in capsys.readouterr().err
    ls.write_text("[{")
    assert main(args) == 1
    assert "broken JSON" in capsys.readouterr().err


def test_offset_readings() -> None:
    """Offsets are read in the unit asked for, never chosen by what they cut: the same
    numbers give different spans under the two units, and disagreeing text is refused."""
    text = "a😀b cde"
    assert utf16_map(text) == {0: 0, 1: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7}
    page = {"d": text}

    def placed(unit: OffsetUnit, *raw: RawSpan) -> dict[str, list[tuple[int, int, str]]]:
        task = RawTask("t", None, text, None, raw)
        result = resolve_tasks("f", [task], page.get, lambda t: ["d"], unit=unit)
        return {
            q.query_id: [(e.start, e.end, e.text) for e in q.elements] for q in result.questions
        }

    # no text: the same numbers read as asked (" cd" and "cde" by hand from the map above)
    assert placed("utf16", RawSpan("nt", 4, 7, None, "s")) == {"nt": [(3, 6, " cd")]}
    assert placed("codepoint", RawSpan("nt", 4, 7, None, "s")) == {"nt": [(4, 7, "cde")]}
    # with text, in the right unit
    assert placed("utf16", RawSpan("js", 5, 8, "cde", "s")) == {"js": [(4, 7, "cde")]}
    assert placed("codepoint", RawSpan("cp", 4, 7, "cde", "s")) == {"cp": [(4, 7, "cde")]}
    # with text, in the other unit: refused, saying which unit would fit
    with pytest.raises(
        InputError,
        match=r"offsets 4-7 \(UTF-16 code units\) cut ' cd' but its "
        r"text says 'cde' \(read as code points they cut exactly its text",
    ):
        placed("utf16", RawSpan("cp", 4, 7, "cde", "s"))
    # 2 is inside the emoji's surrogate pair in UTF-16 (units 1-3): refused, not moved
    with pytest.raises(InputError, match="start 2 falls between the two UTF-16 units of U\\+1F600"):
        placed("utf16", RawSpan("nt2", 2, 3, None, "s"))
    assert placed("codepoint", RawSpan("nt2", 2, 3, None, "s")) == {"nt2": [(2, 3, "b")]}


def dump(db: str) -> list[str]:
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(db)) as conn:
        return list(conn.iterdump())


@pytest.mark.parametrize("label", ["", "   ", "\t\u2028\u00a0"])
def test_blank_labels_are_refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], label: str
) -> None:
    """A label of "" or whitespace would become a question id no export can write and our
    own JSONL import refuses: both formats refuse it, naming file, task or line and label."""
    plain = text_of(PLAIN)
    before = dump(db)
    ls = tmp_path / "blank.json"
    ls.write_text(json.dumps([{"id": 7, "data": {"doc": "plain.html"}, "annotations": [
        {"result": [{"type": "labels", "value": {"start": 0, "end": 5, "text": "Plain",
                                                 "labels": ["q1", label]}}]}]}]))  # fmt: skip
    args = ["gold", "import", str(ls), "--format", "labelstudio", "--gold-set", "y", "--db", db]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{ls}: task 1 (id 7), annotation 1, result 1, span 0-5: label {label!r} is" in err
    assert "empty or only whitespace" in err and len(err.strip().splitlines()) == 1

    dc = tmp_path / "blank.jsonl"
    rows = [
        {"text": plain, "label": [[0, 5, "q1"]]},
        {"text": plain, "label": [[0, 5, "q2"], [6, 10, label]]},
    ]
    dc.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    args = ["gold", "import", str(dc), "--format", "doccano", "--gold-set", "y", "--db", db]
    assert main(args) == 1
    err = capsys.readouterr().err
    # "" was already refused by the doccano reader; whitespace by the shared check
    assert f"{dc}:2: " in err and "label" in err and len(err.strip().splitlines()) == 1
    assert f"label {label!r} is empty or only whitespace" in err or (
        label == "" and "label must be a non-empty string" in err
    )
    assert dump(db) == before
