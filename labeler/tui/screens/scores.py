"""Scores: pick a run, see metrics per k, the Hit/Partial chart and the worst questions."""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, OptionList, Static

from labeler.evaluation import runs_to_score
from labeler.progress import Throttled, describe
from labeler.store import RunSummary, Store
from labeler.tui.bars import coverage_bar
from labeler.tui.hanging import Hanging
from labeler.tui.scoredata import ScoredRun, element_matrix, score_stored_run
from labeler.tui.widgets.chart import hit_partial_chart
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.context import AppContext

METRICS = ("hit", "partial", "mrr", "recall", "partial_recall", "precision", "ndcg")

#: seconds between two progress updates the scoring thread posts to the screen
SCORE_UPDATE_EVERY = 0.1


def no_runs_text(database: str, gold_set: str) -> Text:
    """The scores screen's empty state: the commands that store a run to score, in order
    (a chunk file, then the bundled BM25 retriever over it stored as a run, or a run made
    elsewhere imported), with the database and gold set they are for. Plain text: names
    are never read as markup."""
    name = shlex.quote(gold_set or "NAME")
    text = Text(f"no runs stored yet in {database}; to score gold set {gold_set!r}:\n")
    text.append(
        "  1. labeler chunks make --chunker structure -o chunks.jsonl\n"
        f"  2. labeler evaluate --gold-set {name} "
        "--retriever labeler.evaluation:bm25_retriever --retriever-arg chunks=chunks.jsonl "
        "--store-run bm25\n"
        "     or, for a run made elsewhere: labeler run import RUN.jsonl --name NAME\n",
        style="bold",
    )
    text.append("then press r")
    return text


def summary_text(scored: ScoredRun, k: int) -> Text:
    """What was scored, then the diagnoses at ``k``, then what was left out: one short line
    each (a line wraps at spaces only when names are long). Plain text: a run or gold set
    name is never read as markup."""
    result = scored.result
    counts = result.diagnosis_counts(k)
    text = Text()
    text.append(result.run, style="bold")
    text.append(" on ")
    text.append(result.gold_set, style="bold")
    text.append(f": {len(result.queries)} question(s) scored, θ={result.threshold}\n")
    text.append(
        f"at k={k}: {counts['full']} full, {counts['chunking']} chunking, "
        f"{counts['retrieval']} retrieval\n"
    )
    text.append(
        f"{len(result.missing_from_run)} missing from run, "
        f"{len(result.without_elements)} without elements, "
        f"{scored.stale_excluded} stale element(s) left out"
    )
    return text


class ScoresScreen(Screen[None]):
    """Score a stored run against the current gold set, in place."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rescore", "Rescore"),
        Binding("enter", "drill", "Drill in", show=False),
    ]

    #: below this many columns the runs list goes above the scores, which get the whole
    #: width (side by side at 80 columns the scores had ~48 and the chart's labels were cut)
    STACK_BELOW: ClassVar[int] = 100

    # Screen CSS (not DEFAULT_CSS) so that these rules, more specific, win over app.tcss's
    # #runs-pane width and border in the stacked layout.
    CSS = """
    ScoresScreen #scores-body { height: 1fr; }
    ScoresScreen.-stacked #scores-body { layout: vertical; }
    ScoresScreen.-stacked #runs-pane {
        width: 1fr;
        height: auto;
        border-right: none;
    }
    ScoresScreen.-stacked #runs { height: auto; max-height: 5; }
    ScoresScreen.-stacked #score-pane { height: 1fr; }
    ScoresScreen #chart { height: auto; margin-top: 1; }
    ScoresScreen.-empty #runs-pane, ScoresScreen.-empty #metrics, ScoresScreen.-empty #chart,
    ScoresScreen.-empty #worst-title, ScoresScreen.-empty #worst { display: none; }
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock  # times the progress shown while a run is scored
        self.started = clock()
        self.runs: list[RunSummary] = []
        self.scored: ScoredRun | None = None
        self.worst: list[str] = []

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="scores-body"):
            with Vertical(id="runs-pane"):
                runs = OptionList(id="runs")
                runs.border_title = "Runs"  # in the border: a row saved when stacked
                yield runs
            with VerticalScroll(id="score-pane"):
                yield Static("pick a run", id="score-summary")
                yield RowTable(id="metrics", cursor_type="none")
                yield Static("", id="chart")
                yield Static(
                    "Worst questions first (enter: drill in)",
                    id="worst-title",
                    classes="pane-title",
                )
                yield RowTable(id="worst", cursor_type="row", zebra_stripes=True)
        yield LabelerFooter()

    def on_mount(self) -> None:
        self.reload()

    def on_resize(self) -> None:
        self.set_class(self.size.width < self.STACK_BELOW, "-stacked")

    def reload(self) -> None:
        self.labeler.db(runs_to_score, self._show_runs, what="load runs")

    def _show_runs(self, runs: list[RunSummary]) -> None:
        self.runs = runs
        # nothing to pick and no scores: the pane and the empty tables leave the room to
        # the text naming the commands that store a run
        self.set_class(not runs, "-empty")
        options = self.query_one("#runs", OptionList)
        options.clear_options()
        for r in runs:
            options.add_option(f"{r.name} ({r.questions} q)")
        if not runs:
            self.query_one("#score-summary", Static).update(
                Hanging(no_runs_text(self.labeler.database, self.labeler.gold_set_name))
            )
        elif self.scored is None:
            options.highlighted = 0
            self._score(runs[0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        run = self.runs[event.option_index]
        self.labeler.assist_run = run  # the run chosen here is the one assist mode shows
        self._score(run)

    def action_rescore(self) -> None:
        options = self.query_one("#runs", OptionList)
        if options.highlighted is not None and self.runs:
            self._score(self.runs[options.highlighted])
        else:
            self.reload()

    def _score(self, run: RunSummary) -> None:
        app = self.labeler
        name = app.gold_set_name
        if not name:
            return
        self.query_one("#score-summary", Static).update(f"scoring {run.name}…")
        self.started = self.clock()

        def report(done: int, total: int | None, _item: str) -> None:
            # call_from_thread waits for it: every update is drawn before the score is
            app.call_from_thread(self._scoring, run.name, done, total)

        def job(store: Store) -> ScoredRun:
            return score_stored_run(store, name, run, Throttled(report, SCORE_UPDATE_EVERY))

        app.db(job, self._show_score, what="score")

    def _scoring(self, run: str, done: int, total: int | None) -> None:
        """Show how far scoring ``run`` is: questions done, rate and time left."""
        words = describe(done, total, self.clock() - self.started, "questions")
        self.query_one("#score-summary", Static).update(f"scoring {run}… {words}")

    def _show_score(self, scored: ScoredRun) -> None:
        self.scored = scored
        result = scored.result
        k_worst = 5 if 5 in result.ks else result.ks[-1]
        self.query_one("#score-summary", Static).update(summary_text(scored, k_worst))
        metrics = self.query_one("#metrics", DataTable)
        metrics.clear(columns=True)
        metrics.add_columns("metric", *[f"@{k}" for k in result.ks])
        for name in METRICS:
            metrics.add_row(name, *[f"{result.value(name, k):.3f}" for k in result.ks])
        self.query_one("#chart", Static).update(
            hit_partial_chart(
                result.run,
                result.ks,
                [result.value("hit", k) for k in result.ks],
                [result.value("partial", k) for k in result.ks],
            )
        )
        worst = self.query_one("#worst", DataTable)
        worst.clear(columns=True)
        worst.add_columns("question", "n_gold", "diagnosis", "best coverage", f"recall@{k_worst}")
        self.worst = []
        for q in result.worst_first(k_worst):
            d = q.diagnoses[k_worst]
            style = {"retrieval": "red", "chunking": "yellow", "full": "green"}[str(d.kind)]
            worst.add_row(
                q.query_id,
                str(q.n_gold),
                Text(str(d.kind), style=style),
                coverage_bar(d.best_coverage, 12),
                f"{q.value('recall', k_worst):.2f}",
            )
            self.worst.append(q.query_id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "worst":
            self._drill(event.cursor_row)

    def action_drill(self) -> None:
        self._drill(self.query_one("#worst", DataTable).cursor_row)

    def _drill(self, row: int) -> None:
        if self.scored is None or not 0 <= row < len(self.worst):
            return
        self.app.push_screen(DrillScreen(self.scored, self.worst[row]))


class DrillScreen(ModalScreen[None]):
    """Each expected element of a question against the top-k chunks, with coverage bars."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, scored: ScoredRun, query_id: str) -> None:
        super().__init__()
        self.scored = scored
        self.query_id = query_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="drill"):
            yield Static(self._render_text())

    def _render_text(self) -> Text:
        result = self.scored.result
        k = 5 if 5 in result.ks else result.ks[-1]
        row = next(q for q in result.queries if q.query_id == self.query_id)
        question = self.scored.questions[self.query_id]
        d = row.diagnoses[k]
        out = Text(f"{self.query_id}: {question.text}\n", style="bold")
        if d.best_rank is None:  # no chunk of the top k holds any of it
            out.append(f"diagnosis at k={k}: {d.kind} (not retrieved in the top {k})\n\n")
        else:
            out.append(
                f"diagnosis at k={k}: {d.kind} (best coverage {d.best_coverage:.0%} "
                f"at rank {d.best_rank})\n\n"
            )
        for element, cells in element_matrix(self.scored, self.query_id, k):
            shown = element.text if len(element.text) <= 90 else element.text[:89] + "…"
            out.append(f"{element.doc} [{element.start}:{element.end}] g{element.grade}\n")
            out.append(f"  {shown!r}\n", style="dim")
            if not cells:
                out.append("  (no chunks for this question in the run)\n", style="red")
            for cell in cells:
                out.append(f"  #{cell.rank:<3}")
                out.append_text(coverage_bar(cell.coverage, 24))
                out.append(f"  {('none', 'partial', 'full')[cell.grade]}\n")
            out.append("\n")
        chunks = self.scored.chunks.get(self.query_id, [])[:k]
        out.append("Top chunks\n", style="bold")
        for rank, chunk in enumerate(chunks, start=1):
            text = chunk.text or ""  # the TUI reads runs whole, so this is the chunk's text
            shown = text if len(text) <= 110 else text[:109] + "…"
            out.append(f"  #{rank} {shown!r}\n", style="dim")
        return out
