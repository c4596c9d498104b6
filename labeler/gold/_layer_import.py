"""``gold import --layer``: a gold JSONL file as one annotator's own labels, all or nothing.

Which parts of the file are the annotator's:

* an element with a ``"layer"`` field (an ``--layer all`` export) counts only when it is in
  the annotator layer and its ``"annotator"`` is the one importing; every other element
  (no ``"layer"``: a plain or ``--layer final`` file, or ``annotator:NAME`` export) counts;
* a question is marked done by the annotator unless the line says ``"done": false`` (their
  labels are then replaced and their done mark removed) or has a ``"done_by"`` list
  without them; a line with such a list and none of their elements (another annotator's
  question in an ``all`` export) is skipped.

Every line is parsed and every element anchored in its page before anything is written;
the writes then run in one transaction, and a refusal there names the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.errors import InputError, LabelerError
from labeler.formats.gold_jsonl import GoldLine, read_gold
from labeler.gold._transfer import ResolvedQuestion, resolve_lines
from labeler.progress import Progress, counted, no_progress

if TYPE_CHECKING:
    from labeler.store import Store


@dataclass(frozen=True)
class LayerImport:
    """What a layer import did: the annotator's questions read (``questions``), how many
    were created, elements removed (their earlier labels) and added, questions marked done
    and done with no answer, and lines skipped (not theirs)."""

    gold_set: str
    annotator: str
    created_set: bool
    questions: int
    created: int
    removed: int
    added: int
    done: int
    no_answer: int
    skipped: int
    resolved: tuple[ResolvedQuestion, ...]


def own_part(line: GoldLine, annotator: str) -> tuple[GoldLine, bool] | None:
    """``line`` cut to ``annotator``'s elements, and whether they did the question; None when
    the line is not theirs at all (see the module docstring)."""
    kept = tuple(
        e
        for e in line.elements
        if e.layer is None or (e.layer == "annotator" and e.annotator == annotator)
    )
    done = line.done is not False and (line.done_by is None or annotator in line.done_by)
    if not kept and line.done_by is not None and annotator not in line.done_by:
        return None
    return replace(line, elements=kept), done


def import_layer_file(
    store: Store,
    path: str | Path,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    actor: str | None = None,
    allow_empty: bool = False,
    progress: Progress = no_progress,
) -> LayerImport:
    """Import ``path`` as ``annotator``'s layer of gold set ``gold_set`` (created when
    missing; made a team gold set). :class:`InputError` naming the line on any problem,
    and naming every adjudicated question whose labels or done mark the file would change
    (the adjudicated lock), the database then unchanged.

    ``actor`` (default: ``annotator``) is who imports: an annotator imports only their own
    layer; another's needs the lead role (:func:`labeler.store.roles.require_self_or_lead`,
    :class:`~labeler.errors.RoleError` before anything is written). The entries are audited
    under ``annotator``, whose labels they are (so their undo works as for labelling).
    ``progress(questions_resolved, questions, "")`` as the file's lines are resolved.

    A file whose every line is skipped (none is ``annotator``'s) would store nothing: that
    raises :class:`InputError` unless ``allow_empty``."""
    from labeler.store.goldsets import page_texts
    from labeler.store.layer_write import OwnSpan, team_gold_set, write_own_labels
    from labeler.store.postgres import text_holds_nul
    from labeler.store.roles import require_self_or_lead
    from labeler.store.settled import SettledError

    if not annotator.strip():
        raise InputError(path, "--layer needs an --annotator name")
    lines: list[GoldLine] = []
    done_of: dict[str, bool] = {}
    skipped = 0
    for line in read_gold(path, allow_nul=text_holds_nul(store.engine)):
        part = own_part(line, annotator)
        if part is None:
            skipped += 1
            continue
        for i, element in enumerate(part[0].elements):
            if element.stale:
                raise InputError(
                    path,
                    f"elements[{i}] is stale: an annotator's own labels must be on the page "
                    "as it is now (re-anchor it first)",
                    line.line,
                )
        lines.append(part[0])
        done_of[line.query_id] = part[1]
    if skipped and not lines and not allow_empty:
        raise InputError(
            path,
            f"nothing to import: {skipped} line(s), none with {annotator}'s labels or done "
            f"mark (each has a 'done_by' list without {annotator} and no element of their "
            "layer); check --annotator (--allow-empty accepts the file anyway)",
        )
    with store.session() as session:
        cache: dict[str, str | None] = {}

        def page_of(doc: str) -> str | None:
            if doc not in cache:
                cache[doc] = page_texts(session, [doc]).get(doc)
            return cache[doc]

        asked = counted(lines, progress, len(lines), every=100)
        resolved = tuple(resolve_lines(asked, path, page_of))
    created = removed = added = done = no_answer = 0
    settled: list[str] = []
    settled_ids: list[str] = []
    with store.write() as session:
        require_self_or_lead(
            session, annotator if actor is None else actor, annotator, "importing a layer"
        )
        gs, created_set = team_gold_set(session, gold_set, description)
        for q in resolved:
            try:
                result = write_own_labels(
                    session,
                    gs,
                    q.query_id,
                    [
                        OwnSpan(e.doc, e.start, e.end, e.grade, e.assisted, e.key)
                        for e in q.elements
                    ],
                    annotator=annotator,
                    done=done_of[q.query_id],
                    text=q.query,
                    notes=q.notes or "",
                )
            except InputError:
                raise
            except SettledError:
                # raised before anything of this question is written: look at the rest
                # too, so that the refusal names every adjudicated question at once
                settled.append(f"{q.query_id} (line {q.line})")
                settled_ids.append(q.query_id)
                continue
            except LabelerError as err:
                raise InputError(path, str(err), q.line) from None
            created += result.created
            removed += result.removed
            added += result.added
            done += result.done
            no_answer += result.done and not q.elements
        if settled:
            raise InputError(
                path,
                f"refused: {len(settled)} question(s) of the file are adjudicated and the file "
                f"changes {annotator}'s labels or done mark on them: {', '.join(settled)}; "
                "their evidence is settled; a lead reopens them first (labeler adjudicate "
                f"--gold-set {gold_set} --reopen {' '.join(dict.fromkeys(settled_ids))}, or "
                "on the adjudication screen, F5, s lists settled questions and r reopens "
                "one); nothing was imported",
            )
    return LayerImport(
        gold_set,
        annotator,
        created_set,
        len(resolved),
        created,
        removed,
        added,
        done,
        no_answer,
        skipped,
        resolved,
    )
