"""``labeler score|compare`` with the character-level metrics and ``--budget`` /
``--tokenizer``, end to end on a hand-made page; figures worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.chunks import count_words, make_tokenizer
from labeler.cli import main
from labeler.extract import page_text

pytestmark = pytest.mark.backends("sqlite", "postgresql")

HAND = "<h1>Title</h1><p>alpha beta gamma delta epsilon zeta eta theta</p>"
ELEMENT = "gamma delta"  # 11 code points
# tokens as `labeler chunks make` counts them: 4, 2, 1; lengths 22, 12, 5
CHUNKS = ["alpha beta gamma delta", "epsilon zeta", "Title"]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def db(tmp_path: Path, db_url: str) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hand.html").write_text(HAND, encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    text = page_text(HAND.encode())
    start = text.index(ELEMENT)
    gold = [
        {
            "query_id": "q1",
            "query": "?",
            "elements": [{"doc": "hand.html", "start": start, "end": start + 11, "text": ELEMENT}],
        }
    ]
    assert main(["gold", "import", str(write_jsonl(tmp_path / "g.jsonl", gold)), "--gold-set", "g", "--db", db_url]) == 0  # fmt: skip
    run = [{"query_id": "q1", "results": [{"text": c} for c in CHUNKS]}]
    assert main(["run", "import", str(write_jsonl(tmp_path / "r.jsonl", run)), "--name", "r", "--db", db_url, "-q"]) == 0  # fmt: skip
    worse = [{"query_id": "q1", "results": [{"text": c} for c in reversed(CHUNKS)]}]
    assert main(["run", "import", str(write_jsonl(tmp_path / "w.jsonl", worse)), "--name", "w", "--db", db_url, "-q"]) == 0  # fmt: skip
    return db_url


SCORE = ["score", "--gold-set", "g", "--run", "r", "--k", "1,3"]


def test_span_metrics_in_the_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main([*SCORE, "--format", "json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    m = data["metrics"]
    # k=1: the 22-code-point chunk holds G (11) whole → recall 1, precision 11/22, IoU 11/22
    assert (m["span_recall@1"], m["span_precision@1"], m["span_iou@1"]) == (1.0, 0.5, 0.5)
    # k=3: Σ|r| = 22 + 12 + 5 = 39 → 11/39
    assert m["span_precision@3"] == pytest.approx(11 / 39)
    assert m["span_iou@3"] == pytest.approx(11 / 39)
    assert data["budgets"] == [] and data["tokenizer"] is None
    assert not any(key.startswith("tokens") for key in m)  # no tokenizer, no token counts


def test_budgets_and_tokens(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main([*SCORE, "--budget", "100,3,4,6", "--format", "json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    m = data["metrics"]
    assert data["budgets"] == [3, 4, 6, 100] and data["tokenizer"] == "words"
    # cumulative tokens 4, 6, 7: 3 tokens hold no chunk, 4 the first, 6 two, 100 all three
    assert [m[f"hit@{b}t"] for b in (3, 4, 6, 100)] == [0.0, 1.0, 1.0, 1.0]
    assert [m[f"tokens@{b}t"] for b in (3, 4, 6, 100)] == [0.0, 4.0, 6.0, 7.0]
    assert [m[f"span_precision@{b}t"] for b in (4, 6)] == [0.5, pytest.approx(11 / 34)]
    assert (m["tokens@1"], m["tokens@3"]) == (4.0, 7.0)
    assert main([*SCORE, "--budget", "4,6", "--db", db]) == 0
    table = capsys.readouterr().out
    assert "@4t" in table and "@6t" in table
    assert "span_recall" in table and "tokens" in table


def test_tokenizer_alone_adds_tokens_at_k(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main([*SCORE, "--tokenizer", "words", "--format", "json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["tokens@3"] == 7.0 and data["budgets"] == []


def test_html_report_and_compare(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    html = tmp_path / "r.html"
    assert main([*SCORE, "--budget", "4", "--format", "html", "-o", str(html), "--db", db]) == 0
    page = html.read_text(encoding="utf-8")
    assert "span_iou" in page and "@4t" in page
    capsys.readouterr()
    compare = ["compare", "--gold-set", "g", "--run", "r", "--run", "w", "--k", "1"]
    assert main([*compare, "--budget", "4", "--format", "json", "--db", db]) == 0
    metrics = json.loads(capsys.readouterr().out)["metrics"]
    # w ranks "Title" (5 code points, 1 token) first: span_recall@1 1 → 0; at 4 tokens w
    # holds "Title" and "epsilon zeta" (3 tokens), so hit@4t also falls 1 → 0
    assert metrics["span_recall@1"]["delta"] == -1.0
    assert metrics["hit@4t"]["delta"] == -1.0


def test_bad_budget_and_tokenizer(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*SCORE, "--budget", "0", "--db", db])
    assert exc.value.code == 2
    assert "every budget must be a positive integer" in capsys.readouterr().err
    assert main([*SCORE, "--tokenizer", "bpe", "--db", db]) == 2
    assert "unknown tokenizer 'bpe'" in capsys.readouterr().err


@pytest.mark.backends("sqlite")
def test_words_count_as_chunks_make_does() -> None:
    assert count_words("Hello, world!") == 4
    assert make_tokenizer("words").count("a-b c") == 4  # "a", "-", "b", "c"


@pytest.mark.backends("sqlite")
def test_tiktoken_tokenizer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real tiktoken ``Encoding`` with byte-level ranks only (no merges: one token per
    UTF-8 byte); only the lookup by name is replaced, since no encoding file can be
    downloaded here."""
    tiktoken = pytest.importorskip("tiktoken")
    encoding = tiktoken.Encoding(
        name="bytes",
        pat_str=r"\S+|\s+",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={},
    )
    monkeypatch.setattr(tiktoken, "get_encoding", lambda name: encoding)
    tokenizer = make_tokenizer("tiktoken:bytes")
    assert tokenizer.name == "tiktoken:bytes"
    assert tokenizer.count("héllo") == 6  # é is two bytes


@pytest.mark.backends("sqlite")
def test_tiktoken_that_cannot_load_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    tiktoken = pytest.importorskip("tiktoken")

    def fail(name: str) -> None:
        raise ValueError(f"Unknown encoding {name}")

    monkeypatch.setattr(tiktoken, "get_encoding", fail)
    from labeler.errors import UsageError

    with pytest.raises(UsageError, match="cannot load encoding 'nope'"):
        make_tokenizer("tiktoken:nope")
