"""A small team gold set with known audit times, for the lead's view tests (store, CLI, TUI).

Built through the real verbs; after each step the audit entries it wrote get a chosen time
(the only write past a verb: the audit log records ``now``, and the figures need known
times). Page ``w.html``::

    0         1         2         3         4
    012345678901234567890123456789012345678901
    Alpha beta. Gamma delta epsilon. Zeta eta.

A = [0, 11) "Alpha beta.", G = [12, 32) "Gamma delta epsilon.", Z = [33, 42) "Zeta eta.".
Questions q1, q2, q3, each assigned to ana and bob by lea. Timeline (2026-03-02, UTC):

====== ===== =================================
09:00  ana   labels G on q1
09:01  ana   labels A on q1
09:02  ana   marks q1 done
09:04  ana   labels Z on q2
09:05  ana   marks q2 done
09:10  bob   labels G on q1
09:13  bob   marks q1 done
09:20  bob   marks q2 done (no answer)
09:30  ana   labels A on q3          (25 min after her last change: a break)
09:31  ana   labels Z on q3
09:32  ana   removes Z from q3
10:00  lea   accepts G on q1, settles q1; accepts Z on q2, settles q2
====== ===== =================================

The hand-worked figures are in :data:`EXPECTED` (as of :data:`AS_OF`, idle gap 10 min).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import col, func, select

from labeler.store import (
    Store,
    accept_group,
    add_query,
    assign_team_questions,
    attach_span,
    create_gold_set,
    flip_done,
    remove_span,
    settle_question,
    upsert_document,
)
from labeler.store.models import AuditEntry

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."
A, G, Z = (0, 11), (12, 32), (33, 42)
AS_OF = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)


def at(hour: int, minute: int) -> datetime:
    return datetime(2026, 3, 2, hour, minute, tzinfo=UTC)


class Stamper:
    """Gives the audit entries written since the last call a chosen time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seen = self._last()

    def _last(self) -> int:
        with self.store.session() as s:
            return int(s.exec(select(func.max(col(AuditEntry.id)))).one() or 0)

    def __call__(self, moment: datetime) -> None:
        last = self._last()
        with self.store.write() as s:
            s.execute(
                update(AuditEntry)
                .where(col(AuditEntry.id) > self.seen, col(AuditEntry.id) <= last)
                .values(at=moment)
            )
        self.seen = last


def seed_lead(store: Store) -> dict[str, int]:
    """Build the gold set "gold" of the module docstring in ``store``; its question ids."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        ids = {}
        for name in ("q1", "q2", "q3"):
            q = add_query(s, gold, name, f"question {name}", actor="lea")
            assert q.id is not None
            ids[name] = q.id
    assign_team_questions(store, "gold", ["ana", "bob"], per_question=2, actor="lea")
    stamp = Stamper(store)
    stamp(at(8, 0))

    def label(who: str, q: str, span: tuple[int, int], moment: datetime) -> int:
        row = attach_span(store, ids[q], "w.html", *span, annotator=who).element
        stamp(moment)
        return row.id

    def done(who: str, q: str, moment: datetime) -> None:
        assert flip_done(store, ids[q], who)
        stamp(moment)

    label("ana", "q1", G, at(9, 0))
    label("ana", "q1", A, at(9, 1))
    done("ana", "q1", at(9, 2))
    label("ana", "q2", Z, at(9, 4))
    done("ana", "q2", at(9, 5))
    label("bob", "q1", G, at(9, 10))
    done("bob", "q1", at(9, 13))
    done("bob", "q2", at(9, 20))
    label("ana", "q3", A, at(9, 30))
    z3 = label("ana", "q3", Z, at(9, 31))
    remove_span(store, z3, actor="ana")
    stamp(at(9, 32))
    accept_group(store, ids["q1"], "w.html", *G, actor="lea")
    settle_question(store, ids["q1"], by="lea")
    accept_group(store, ids["q2"], "w.html", *Z, actor="lea")
    settle_question(store, ids["q2"], by="lea")
    stamp(at(10, 0))
    return ids


# -- the figures, worked by hand ------------------------------------------------------------
#
# Time (gaps of at most 10 min count, each to the question of the event ending it):
#   ana: 09:00→09:01→09:02 (q1: 60 + 60 = 120 s), →09:04→09:05 (q2: 120 + 60 = 180 s),
#        09:05→09:30 is 25 min: a break; 09:30→09:31→09:32 (q3: 60 + 60 = 120 s).
#        active 120 + 180 + 120 = 420 s; labels 5 (G, A, Z, A, Z: the removed Z was labelled
#        too) → 5 / 420 × 3600 = 42.86… labels/h; median over her done q1, q2 = (120 + 180)/2 = 150.
#   bob: 09:10→09:13 (q1: 180 s), →09:20 (q2: 420 s); active 600 s; labels 1 → 6.0/h;
#        median (180 + 420)/2 = 300.
# Pace as of 11:00: ana 2 done over 2 h since 09:00 = 1/h, 1 left → 12:00;
#   bob 2 done over 110 min since 09:10 = 12/11 per hour, 1 left → 55 min → 11:55.
#
# Agreement with the final layer (q1 final {G}, q2 final {Z}; q3 not settled):
#   ana q1 {A, G} vs {G}: exact 2·1/3 = 2/3; partial P = 1/2, R = 1 → 2/3.
#       q2 {Z} vs {Z}: identical.
#       overall exact 2·(1+1)/(3+2) = 0.8; partial P = 2/3 (G, Z of A, G, Z), R = 1 → 0.8.
#       α on characters (both questions cite w.html, 42 characters each, two coders):
#         q1: both 1 on G (20), ana alone on A (11), both 0 on the other 11;
#         q2: both 1 on Z (9), both 0 on 33. Coincidences: o11 = 2·29, o00 = 2·44,
#         o01 = o10 = 11; n0 = 99, n1 = 69, n = 168.
#         α = 1 − (n − 1)·(o01 + o10)/(2·n0·n1) = 1 − 167·22/(2·99·69).
#       q1 alone: n0 = 2·11 + 11 = 33, n1 = 2·20 + 11 = 51, n = 84: α = 1 − 83·22/(2·33·51).
#   bob q1 {G} vs {G}: identical; q2 {} vs {Z}: exact 0, partial 0.
#       overall exact 2·1/(1 + 2) = 2/3; partial P = 1/1, R = 1/2 → 2/3.
#       α: q1 both 1 on 20, both 0 on 22; q2 final alone on 9, both 0 on 33:
#         o11 = 40, o00 = 2·55, o01 = o10 = 9; n0 = 119, n1 = 49:
#         α = 1 − 167·18/(2·119·49).
#       q2 alone: n0 = 2·33 + 9 = 75, n1 = 9, n = 84: α = 1 − 83·18/(2·75·9).
ANA_ALPHA = 1 - 167 * 22 / (2 * 99 * 69)
ANA_Q1_ALPHA = 1 - 83 * 22 / (2 * 33 * 51)
BOB_ALPHA = 1 - 167 * 18 / (2 * 119 * 49)
BOB_Q2_ALPHA = 1 - 83 * 18 / (2 * 75 * 9)

#: per annotator, every figure of ``gold progress --format json`` as of AS_OF
EXPECTED = {
    "ana": {
        "annotator": "ana",
        "assigned": 3,
        "done": 2,
        "no_answer": 0,
        "remaining": 1,
        "labels": 5,
        "active_seconds": 420.0,
        "labels_per_hour": 5 / 420 * 3600,
        "median_seconds_per_question": 150.0,
        "timed_questions": 2,
        "settled": 2,
        "exact_f1": 0.8,
        "partial_f1": 0.8,
        "char_alpha": ANA_ALPHA,
        "differs_most": [
            {"query_id": "q1", "exact_f1": 2 / 3, "partial_f1": 2 / 3, "char_alpha": ANA_Q1_ALPHA}
        ],
        "pace_per_hour": 1.0,
        "done_by": "2026-03-02T12:00:00+00:00",
    },
    "bob": {
        "annotator": "bob",
        "assigned": 3,
        "done": 2,
        "no_answer": 1,
        "remaining": 1,
        "labels": 1,
        "active_seconds": 600.0,
        "labels_per_hour": 6.0,
        "median_seconds_per_question": 300.0,
        "timed_questions": 2,
        "settled": 2,
        "exact_f1": 2 / 3,
        "partial_f1": 2 / 3,
        "char_alpha": BOB_ALPHA,
        "differs_most": [
            {"query_id": "q2", "exact_f1": 0.0, "partial_f1": 0.0, "char_alpha": BOB_Q2_ALPHA}
        ],
        "pace_per_hour": 2 / (110 / 60),
        "done_by": "2026-03-02T11:55:00+00:00",
    },
}


def close(got: Any, want: Any) -> bool:
    """``got == want``, floats to 1e-12 (α is exact up to its last division), recursively."""
    if isinstance(want, float) and isinstance(got, int | float) and not isinstance(got, bool):
        return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(want, dict):
        return (
            isinstance(got, dict)
            and got.keys() == want.keys()
            and all(close(got[k], want[k]) for k in want)
        )
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(close(g, w) for g, w in zip(got, want, strict=True))
        )
    return bool(got == want)
