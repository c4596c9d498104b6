"""What key clauses change on the bundled requirements gold set, per chunker.

    python benchmarks/bench_keys.py [--out DIR]

Ingests the pages ``corpora/sqlite-docs/gold/requirements.jsonl`` cites into a fresh
database in ``DIR`` (a temporary folder by default), imports the gold set (104 of its
elements carry a key clause, see ``labeler/keyclause.py``), chunks the pages as the demo does
(800-token windows and structure chunks), retrieves with BM25 using each requirement's own
text as the query (the question ids say nothing), and scores both runs. Prints Hit@k,
Partial@k and the questions whose partial a key clause turned into a miss ("key lost");
Partial@k without keys is Partial@k plus key lost ÷ questions.

    python benchmarks/bench_keys.py --page-view [--sizes 80x24,120x36,200x60] [--rounds 5]

Times the TUI's page view on the largest bundled page (``requirements.html``, 944,524
characters) under Pilot instead: opening it, and each key (``shift+right``, ``w``, ``s``,
moves, a jump to the page's end and a selection there), against a bare Textual app's key
round trip (a key bound to an action that updates one Static) in the same process, rounds
interleaved, at each terminal size. Prints the median wall and CPU milliseconds of each and
the ratio of CPU to the bare app's key round trip (the app work a key costs; the machine's
other load shows in the wall times more than in the CPU times) and the peak memory.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labeler.demo import CORPUS, chunk_pages, fixed_run_name  # noqa: E402
from labeler.evaluation import build_index, evaluate, write_run  # noqa: E402
from labeler.formats.gold_jsonl import read_gold  # noqa: E402
from labeler.gold import import_gold_file  # noqa: E402
from labeler.pages import ingest_paths  # noqa: E402
from labeler.runs import import_run_file  # noqa: E402
from labeler.store import open_store  # noqa: E402
from labeler.store.goldsets import page_texts  # noqa: E402

KS = (1, 3, 5, 10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="work folder (default: temporary)")
    parser.add_argument(
        "--page-view", action="store_true", help="time the TUI's page view instead (see above)"
    )
    parser.add_argument("--sizes", default="80x24,120x36,200x60", help="terminal sizes")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per size (interleaved)")
    args = parser.parse_args()
    if args.page_view:
        sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
        return page_view(args.out, [(w, h) for w, h in sizes], args.rounds)
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="bench-keys-"))
    started = time.perf_counter()
    gold = CORPUS / "gold" / "requirements.jsonl"
    pages = sorted({e.doc for line in read_gold(gold) for e in line.elements})
    docs = out / "docs"
    for doc in pages:
        (docs / doc).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / doc, docs / doc)
    store = open_store(str(out / "labels.db"))
    ingest_paths(store, [docs])
    questions, _ = import_gold_file(store, gold, "requirements", annotator="bench", replace=True)
    with store.session() as session:
        texts = page_texts(session, pages)
    fixed, structure = chunk_pages(texts, CORPUS, size=800)
    asked = [dataclasses.replace(q, query=q.elements[0].text) for q in questions]
    print(f"{len(questions)} questions on {len(pages)} pages")
    print(f"{'run':<12}{'k':>4}{'hit':>8}{'partial':>9}{'key lost':>10}{'without keys':>14}")
    for name, chunks in ((fixed_run_name(800), fixed), ("structure", structure)):
        path = out / f"{name}.jsonl"
        write_run(asked, build_index(chunks), max(KS), path)
        import_run_file(store, path, name, replace=True)
        result = evaluate(store, "requirements", name, ks=KS).result
        n = len(result.queries)
        for k in KS:
            lost = result.key_lost_count(k)
            partial = result.value("partial", k)
            print(
                f"{name:<12}{k:>4}{result.value('hit', k):>8.4f}{partial:>9.4f}{lost:>10}"
                f"{partial + lost / n:>14.4f}"
            )
    store.close()
    print(f"keys: {result.keys} elements; {time.perf_counter() - started:.0f} s; work folder {out}")
    return 0


PAGE = "requirements.html"
SMALL = "requirements-4k.html"
#: the keys timed, in order: selection growth, moves, a jump to the end and a selection there
KEYS = (
    "shift+right",
    "shift+right",
    "w",
    "s",
    "s",
    "down",
    "pagedown",
    "shift+down",
    "ctrl+end",
    "shift+left",
    "w",
    "s",
)


def page_store(out: Path) -> Path:
    """A database holding ``requirements.html`` (ingested) and a gold set with one question."""
    from labeler.store import add_query, create_gold_set, upsert_document

    docs = out / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copy(CORPUS / PAGE, docs / PAGE)
    path = out / "page.db"
    store = open_store(str(path))
    ingest_paths(store, [docs])
    with store.session() as session:
        text = page_texts(session, [PAGE])[PAGE]
    with store.write() as session:
        # the page's first 4 KB: what opening and keys cost whatever the page's size
        upsert_document(
            session,
            doc_id=SMALL,
            source_path=SMALL,
            sha256="first 4 KB",
            profile="text",
            text=text[:4096],
        )
        gold_set = create_gold_set(session, "bench", "page view benchmark")
        add_query(session, gold_set, "q1", "What does the page require?", actor="bench")
    store.close()
    return path


Sample = tuple[float, float]  # (wall s, CPU s)


async def timed(work: object) -> Sample:
    wall, cpu = time.perf_counter(), time.process_time()
    await work  # type: ignore[misc]
    return time.perf_counter() - wall, time.process_time() - cpu


async def bare_round(size: tuple[int, int], presses: int) -> list[Sample]:
    """A bare Textual app's key round trip: a key whose action updates one Static."""
    from textual.app import App, ComposeResult
    from textual.binding import BindingType
    from textual.widgets import Static

    class Bare(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [("x", "count", "count")]
        count = 0

        def compose(self) -> ComposeResult:
            yield Static("0", id="n")

        def action_count(self) -> None:
            self.count += 1
            self.query_one("#n", Static).update(str(self.count))

    app = Bare()
    samples = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(presses):
            samples.append(await timed(key_trip(app, pilot, "x")))
    return samples


async def key_trip(app: object, pilot: object, key: str) -> None:
    """Press ``key`` and wait until what it changed is drawn (the same for both apps)."""
    await pilot.press(key)  # type: ignore[attr-defined]
    await app.screen.wait_for_refresh()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def page_round(
    db: Path, size: tuple[int, int], page: str = PAGE
) -> tuple[Sample, list[Sample]]:
    """Open ``page`` in the labeller's TUI, then press :data:`KEYS` one by one."""
    from labeler.tui.app import LabelerApp
    from labeler.tui.screens.page import PageScreen

    store = open_store(str(db))
    app = LabelerApp(store, annotator="bench", gold_set="bench", resume=False)
    try:
        async with app.run_test(size=size, notifications=False) as pilot:
            await settled(app, pilot)

            async def open_page() -> None:
                app.push_screen(PageScreen(page))
                await settled(app, pilot)

            opened = await timed(open_page())
            if not getattr(app.screen, "loaded", False):
                raise SystemExit("the page screen did not load the page")
            keys = [await timed(key_trip(app, pilot, key)) for key in KEYS]
    finally:
        store.close()
    return opened, keys


async def settled(app: object, pilot: object) -> None:
    """Every database job finished and drawn."""
    for _ in range(5):
        await app.workers.wait_for_complete()  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        if not [w for w in app.workers if w.is_running]:  # type: ignore[attr-defined]
            break
    await app.screen.wait_for_refresh()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def page_view(out: Path | None, sizes: list[tuple[int, int]], rounds: int) -> int:
    """The ``--page-view`` benchmark (see the module docstring)."""
    work = out or Path(tempfile.mkdtemp(prefix="bench-page-view-"))
    db = page_store(work)
    print(f"{PAGE}: page view under Pilot, {rounds} rounds per size, interleaved with a bare app")
    print("median ms (wall / CPU); ratio = CPU ÷ the bare app's key round trip CPU")
    for size in sizes:
        bare: list[Sample] = []
        opens: list[Sample] = []
        keys: list[list[Sample]] = [[] for _ in KEYS]
        small_opens: list[Sample] = []
        small_keys: list[Sample] = []
        for _ in range(rounds):
            bare += asyncio.run(bare_round(size, len(KEYS)))
            opened, timings = asyncio.run(page_round(db, size))
            opens.append(opened)
            for each, sample in zip(keys, timings, strict=True):
                each.append(sample)
            opened, timings = asyncio.run(page_round(db, size, SMALL))
            small_opens.append(opened)
            small_keys += timings
        base_wall = statistics.median(s[0] for s in bare)
        base_cpu = statistics.median(s[1] for s in bare)
        print(f"\n{size[0]}x{size[1]}: bare app key {base_wall * 1e3:.1f} / {base_cpu * 1e3:.1f}")
        rows = [("open", opens)] + [(f"key {k}", s) for k, s in zip(KEYS, keys, strict=True)]
        rows += [("4 KB page: open", small_opens), ("4 KB page: any key", small_keys)]
        for name, samples in rows:
            wall = statistics.median(s[0] for s in samples)
            cpu = statistics.median(s[1] for s in samples)
            print(f"  {name:<18}{wall * 1e3:>9.1f}{cpu * 1e3:>9.1f}   ×{cpu / base_cpu:>6.1f}")
        worst = max(statistics.median(s[1] for s in samples) for samples in keys)
        print(
            f"  slowest key CPU {worst * 1e3:.1f} ms; app work over the bare round trip "
            f"{(worst - base_cpu) * 1e3:.1f} ms"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory {peak:.0f} MB; work folder {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
