"""Planning assignments (pure): balanced loads, deterministic for a seed, existing
assignments kept and counted, samples that extend, bad arguments refused."""

from __future__ import annotations

from collections import Counter

import pytest

from labeler.errors import UsageError
from labeler.store.assign import plan_assignments

QUESTIONS = list(range(1, 11))
PEOPLE = ["ana", "bob", "cleo"]


def loads(pairs: list[tuple[int, str]], base: dict[str, int] | None = None) -> dict[str, int]:
    counted = Counter(base or {})
    counted.update(name for _, name in pairs)
    return dict(counted)


def test_every_question_gets_distinct_annotators_and_loads_stay_within_one() -> None:
    plan = plan_assignments(QUESTIONS, {}, PEOPLE, per_question=2, seed=3)
    # 10 questions × 2 = 20 assignments over 3 people: loads 7, 7, 6 in some order
    assert len(plan.add) == 20 and plan.chosen == 10 and plan.already == 0
    by_question: dict[int, list[str]] = {}
    for qid, name in plan.add:
        by_question.setdefault(qid, []).append(name)
    assert sorted(by_question) == QUESTIONS
    assert all(len(set(who)) == 2 for who in by_question.values())
    assert sorted(loads(list(plan.add)).values()) == [6, 7, 7]


def test_the_same_seed_plans_the_same_and_seeds_differ() -> None:
    def plan(seed: int) -> tuple[tuple[int, str], ...]:
        return plan_assignments(QUESTIONS, {}, PEOPLE, per_question=1, seed=seed).add

    assert plan(5) == plan(5)
    assert len({plan(seed) for seed in range(10)}) > 1


def test_existing_assignments_are_kept_counted_and_not_repeated() -> None:
    # q1 has ana and bob already (complete); q2 has ana; ana carries 2, bob 1, cleo 0.
    existing = {1: ["ana", "bob"], 2: ["ana"]}
    plan = plan_assignments([1, 2, 3], existing, PEOPLE, per_question=2, seed=0)
    assert plan.already == 1
    assert not any(qid == 1 for qid, _ in plan.add)
    # q2 needs one more, never ana again; q3 needs two. 3 picks on loads ana 2, bob 1,
    # cleo 0: cleo and bob go first, so no pick lands on ana (final loads 2, 2, 2).
    assert [name for qid, name in plan.add if qid == 2] != ["ana"]
    assert loads(list(plan.add), {"ana": 2, "bob": 1}) == {"ana": 2, "bob": 2, "cleo": 2}
    # running again on the result adds nothing
    after = {1: ["ana", "bob"], 2: ["ana"], 3: []}
    for qid, name in plan.add:
        after[qid].append(name)
    assert plan_assignments([1, 2, 3], after, PEOPLE, per_question=2, seed=0).add == ()


def test_a_larger_sample_with_the_same_seed_extends_the_smaller_one() -> None:
    small = plan_assignments(QUESTIONS, {}, PEOPLE, per_question=1, sample=3, seed=9)
    large = plan_assignments(QUESTIONS, {}, PEOPLE, per_question=1, sample=6, seed=9)
    assert small.chosen == 3 and large.chosen == 6
    assert {q for q, _ in small.add} < {q for q, _ in large.add}


@pytest.mark.parametrize(
    ("people", "per_question", "sample", "message"),
    [
        (["ana", "bob"], 3, None, "between 1 and the number of annotators \\(2\\), got 3"),
        (["ana", "ana"], 2, None, "between 1 and the number of annotators \\(1\\), got 2"),
        (["ana"], 0, None, "got 0"),
        (["ana"], 1, 0, "--sample must be at least 1"),
        ([" "], 1, None, "at least one name"),
    ],
)
def test_bad_arguments_are_refused(
    people: list[str], per_question: int, sample: int | None, message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        plan_assignments(QUESTIONS, {}, people, per_question=per_question, sample=sample)
