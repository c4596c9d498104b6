"""Chunk audit on hand-made pages where every cut is known."""

from __future__ import annotations

import pytest

from labeler.chunks import (
    AuditElement,
    Chunk,
    OmegaCeilings,
    audit_chunks,
    fixed_token_chunks,
)

PAGE = "alpha beta gamma delta epsilon zeta eta theta"
OTHER = "One sentence here. Another sentence there."


def element(qid: str, doc: str, page: str, text: str, grade: int = 1) -> AuditElement:
    start = page.index(text)
    return AuditElement(qid, doc, start, start + len(text), text, grade)


def chunks() -> list[Chunk]:
    # two windows of four tokens: "alpha beta gamma delta" | "epsilon zeta eta theta"
    return [*fixed_token_chunks("p", PAGE, size=4), Chunk("o", 0, 18, OTHER[:18])]


def test_cut_whole_and_uncovered_elements() -> None:
    cut = element("q1", "p", PAGE, "gamma delta epsilon")
    whole = element("q2", "p", PAGE, "beta gamma")
    other = element("q3", "o", OTHER, "One sentence here.")
    missing = element("q3", "o", OTHER, "Another sentence there.")
    report = audit_chunks(chunks(), [cut, whole, other, missing])

    fates = {f.element.text: f for f in report.fates}
    f = fates["gamma delta epsilon"]
    assert (f.status, f.pieces, f.whole) == ("cut", 2, False)
    assert f.best_share == pytest.approx(len("gamma delta") / len("gamma delta epsilon"))
    assert f.kept  # 11/19 = 0.58 >= 0.5
    assert (fates["beta gamma"].status, fates["beta gamma"].pieces) == ("whole", 1)
    assert fates["Another sentence there."].status == "uncovered"
    assert fates["Another sentence there."].pieces == 0

    assert report.chunks == 3 and report.questions == 3
    assert (report.overall.elements, report.overall.whole, report.overall.cut) == (4, 2, 1)
    assert (report.overall.uncovered, report.overall.kept) == (1, 3)
    assert report.hit_ceiling == pytest.approx(2 / 3)  # q2 and q3 have an element whole
    assert report.partial_ceiling == pytest.approx(1.0)
    assert (report.by_doc["p"].elements, report.by_doc["p"].whole, report.by_doc["p"].cut) == (
        2,
        1,
        1,
    )
    assert (report.by_doc["o"].whole, report.by_doc["o"].uncovered) == (1, 1)
    assert [x.element.text for x in report.cut] == [
        "gamma delta epsilon",
        "Another sentence there.",
    ]


def test_threshold_decides_what_is_kept() -> None:
    cut = element("q1", "p", PAGE, "gamma delta epsilon")
    strict = audit_chunks(chunks(), [cut], threshold=0.6)
    assert strict.overall.kept == 0
    assert (strict.hit_ceiling, strict.partial_ceiling) == (0.0, 0.0)
    with pytest.raises(ValueError, match="threshold"):
        audit_chunks(chunks(), [cut], threshold=0)


def test_overlapping_windows_count_every_piece() -> None:
    windows = fixed_token_chunks("p", PAGE, size=3, overlap=2)  # every token starts a window
    e = element("q1", "p", PAGE, "gamma delta epsilon zeta")
    fate = audit_chunks(windows, [e]).fates[0]
    # windows starting at beta..zeta overlap it; none holds its four tokens
    assert (fate.status, fate.pieces) == ("cut", 6)
    assert fate.best_share == pytest.approx(len("gamma delta epsilon") / len(e.text))


def test_json_summary() -> None:
    e = element("q1", "p", PAGE, "gamma delta epsilon")
    obj = audit_chunks(chunks(), [e]).to_json()
    assert obj["elements"] == {"elements": 1, "whole": 0, "cut": 1, "uncovered": 0, "kept": 1}
    assert obj["cut_elements"][0]["pieces"] == 2 and obj["cut_elements"][0]["query_id"] == "q1"
    assert obj["hit_ceiling"] == 0.0 and obj["partial_ceiling"] == 1.0
    assert audit_chunks([], []).to_json()["hit_ceiling"] == 0.0


def test_key_span_decides_kept() -> None:
    # "gamma delta epsilon" is PAGE[11:30]; the windows are [0, 22) and [23, 45). The first
    # holds "gamma delta" = [11, 22), 11/19 ≥ 0.5. A key inside that piece ("gamma" at
    # [11, 16)) keeps the element; a key in the other piece ("epsilon" at [23, 30)) does not,
    # and the Partial ceiling drops with it. Whole and share are unchanged.
    cut = element("q1", "p", PAGE, "gamma delta epsilon")
    assert (cut.start, cut.end) == (11, 30) and PAGE[11:16] == "gamma"
    assert [(c.start, c.end) for c in chunks()[:2]] == [(0, 22), (23, 45)]
    held = AuditElement(*vars_of(cut), key=(11, 16))
    lost = AuditElement(*vars_of(cut), key=(23, 30))
    (kept,) = audit_chunks(chunks(), [held]).fates
    (dropped,) = audit_chunks(chunks(), [lost]).fates
    assert kept.kept and not dropped.kept
    assert kept.best_share == dropped.best_share == pytest.approx(11 / 19)
    assert audit_chunks(chunks(), [lost]).partial_ceiling == 0.0


def vars_of(e: AuditElement) -> tuple[str, str, int, int, str, int]:
    return e.query_id, e.doc, e.start, e.end, e.text, e.grade


def test_omega_ceilings_by_hand() -> None:
    # PAGE offsets: alpha 0-5 beta 6-10 gamma 11-16 delta 17-22 epsilon 23-30 zeta 31-35
    # windows: [0, 22) "alpha beta gamma delta", [23, 45) "epsilon zeta eta theta"
    # q1 "gamma delta epsilon" = [11, 30): both windows overlap it; U = 22 + 22 = 44,
    #   C = [11, 22) + [23, 30) = 18, G ∖ U = the space at 22 → 18/44, IoU 18/(44 + 1)
    # q2 "beta gamma" = [6, 16): first window only → 10/22 for all three
    # q3 "One sentence here." [0, 18) held by the "o" chunk [0, 18) (which ends one short
    #   of "Another sentence there." [19, 42), so does not touch it) → C 18, U 18, |G| 41:
    #   precision 1, IoU 18/(18 + 23)
    q1 = element("q1", "p", PAGE, "gamma delta epsilon")
    q2 = element("q2", "p", PAGE, "beta gamma")
    q3 = [
        element("q3", "o", OTHER, "One sentence here."),
        element("q3", "o", OTHER, "Another sentence there."),
    ]
    report = audit_chunks(chunks(), [q1, q2, *q3])
    assert report.precision_omega == pytest.approx((18 / 44 + 10 / 22 + 1.0) / 3)
    assert report.iou_omega == pytest.approx((18 / 45 + 10 / 22 + 18 / 41) / 3)
    assert report.precision_omega_paid == pytest.approx((18 / 44 + 10 / 22 + 1.0) / 3)
    assert report.to_json()["precision_omega"] == report.precision_omega
    assert report.omega_by_question["q3"] == OmegaCeilings(1.0, 18 / 41, 1.0)


def hand(start: int, end: int) -> Chunk:
    return Chunk("p", start, end, PAGE[start:end])


def test_omega_counts_chunks_that_only_touch_an_element() -> None:
    # "gamma delta" = [11, 22). Chunks: [0, 11) "alpha beta " ends where it starts (touches),
    # [6, 16) "beta gamma" overlaps, [22, 30) " epsilon" starts where it ends (touches),
    # [23, 30) "epsilon" neither (one code point away). R = the first three:
    # U = [0, 16) + [22, 30) = 16 + 8 = 24, C = [11, 16) = 5, G ∖ U = [16, 22) = 6 code
    # points outside every chunk; Σ|r| = 11 + 10 + 8 = 29.
    e = element("q1", "p", PAGE, "gamma delta")
    assert (e.start, e.end) == (11, 22)
    report = audit_chunks([hand(0, 11), hand(6, 16), hand(22, 30), hand(23, 30)], [e])
    assert report.precision_omega == pytest.approx(5 / 24)
    assert report.iou_omega == pytest.approx(5 / (24 + 6))
    assert report.precision_omega_paid == pytest.approx(5 / 29)
    # the element's own fate still counts only the chunk that overlaps it
    assert (report.fates[0].pieces, report.fates[0].status) == (1, "cut")


def test_omega_counts_overlapping_chunks_once_in_the_union() -> None:
    # six 3-token windows overlap or touch [11, 35) "gamma delta epsilon zeta" (24 code
    # points): [0, 16) [6, 22) [11, 30) [17, 35) [23, 39) [31, 45), 16+16+19+18+16+14 = 99
    # in all, union [0, 45) = 45. All of G is covered: precision_Ω = IoU_Ω = 24/45; paid,
    # each window at its own length, 24/99
    windows = fixed_token_chunks("p", PAGE, size=3, overlap=2)
    assert [(c.start, c.end) for c in windows] == [
        (0, 16), (6, 22), (11, 30), (17, 35), (23, 39), (31, 45)
    ]  # fmt: skip
    e = element("q1", "p", PAGE, "gamma delta epsilon zeta")
    report = audit_chunks(windows, [e])
    assert report.precision_omega == pytest.approx(24 / 45)
    assert report.iou_omega == pytest.approx(24 / 45)
    assert report.precision_omega_paid == pytest.approx(24 / 99)


def test_omega_of_a_question_with_several_elements() -> None:
    # q1: "beta" [6, 10) and "gamma" [11, 16). Chunks: [0, 6) touches beta at 6; [10, 11)
    # (the space) touches both, counted once; [11, 22) overlaps gamma; [22, 45) touches
    # neither (gamma ends at 16). No chunk holds any of beta.
    # U = [0, 6) + [10, 22) = 6 + 12 = 18, G = 4 + 5 = 9, C = [11, 16) = 5, G ∖ U = 4,
    # Σ|r| = 6 + 1 + 11 = 18 → precision 5/18, IoU 5/22, paid 5/18.
    # q2: "theta" [40, 45), only [22, 45) (23 code points) → 5/23 for all three.
    q1 = [element("q1", "p", PAGE, "beta"), element("q1", "p", PAGE, "gamma")]
    q2 = element("q2", "p", PAGE, "theta")
    cs = [hand(0, 6), hand(10, 11), hand(11, 22), hand(22, 45)]
    report = audit_chunks(cs, [*q1, q2])
    assert report.omega_by_question == {
        "q1": OmegaCeilings(5 / 18, 5 / 22, 5 / 18),
        "q2": OmegaCeilings(5 / 23, 5 / 23, 5 / 23),
    }
    assert report.precision_omega == pytest.approx((5 / 18 + 5 / 23) / 2)
    assert report.iou_omega == pytest.approx((5 / 22 + 5 / 23) / 2)
    assert report.to_json()["omega_by_question"]["q1"] == {
        "precision_omega": 5 / 18,
        "iou_omega": 5 / 22,
        "precision_omega_paid": 5 / 18,
    }


def test_omega_of_a_question_no_chunk_overlaps_is_zero() -> None:
    e = element("q1", "o", OTHER, "Another sentence there.")
    report = audit_chunks(chunks(), [e])
    assert (report.precision_omega, report.iou_omega, report.precision_omega_paid) == (0, 0, 0)
    # a chunk that only touches it: in R, but C is empty
    touched = audit_chunks([Chunk("o", 0, 19, OTHER[:19])], [e])
    assert touched.omega_by_question["q1"] == OmegaCeilings(0.0, 0.0, 0.0)
    empty = audit_chunks([], [])
    assert (empty.precision_omega, empty.iou_omega, empty.precision_omega_paid) == (0, 0, 0)
