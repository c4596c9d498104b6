"""Agreement speed: ``scoring.agreement`` (span boundaries) against the ``krippendorff``
package (one value per character), and on megabyte pages where the package cannot go.

    python benchmarks/bench_agreement.py [--questions 2000] [--page-size 1000000]
                                         [--small-questions 100] [--small-page 2000 20000]

Data (seeded): three annotators; each question cites one or two pages; an annotator marks a
question done with probability 0.85 and picks 0–3 spans of up to 300 characters: per shared "true" span, the
span itself (p = 0.5), its boundaries moved by up to 8 characters (0.3) or nothing, and
sometimes (0.3) one span elsewhere.

1. Large: ``--questions`` questions over pages of ``--page-size`` characters: time of
   ``agreement`` (all three pairs, per question, overall). The package would need one value per
   character and annotator: its matrix size is printed, not built.
2. Small: the same generator with pages of each ``--small-page`` size. α over all annotators by
   both (values must agree), time of each, and the ratio. For the package, building the
   reliability matrix (numpy, vectorised per span) is timed apart from ``krippendorff.alpha``.
Best of ``--repeat`` runs, warm, in this process.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import AgreementInput, Span
from scoring.agreement import agreement

ANNOTATORS = ("a", "b", "c")


def make_data(n_questions: int, page_size: int, n_pages: int, seed: int) -> AgreementInput:
    rng = random.Random(seed)
    lengths = {f"page{i:03d}": page_size for i in range(n_pages)}
    names = sorted(lengths)
    questions: dict[str, dict[str, frozenset[Span]]] = {}
    for q in range(n_questions):
        cited = rng.sample(names, k=min(len(names), rng.choice((1, 1, 2))))
        truths = []
        for page in cited:
            start = rng.randrange(page_size - 300)
            truths.append((page, start, start + rng.randint(20, 300)))
        layers: dict[str, frozenset[Span]] = {}
        for ann in ANNOTATORS:
            if rng.random() > 0.85:
                continue
            spans = set()
            for page, start, end in truths:
                draw = rng.random()
                if draw < 0.5:
                    spans.add(Span(page, start, end))
                elif draw < 0.8:
                    s = max(0, start + rng.randint(-8, 8))
                    e = min(page_size, max(s + 1, end + rng.randint(-8, 8)))
                    spans.add(Span(page, s, e))
            if rng.random() < 0.3:
                page = rng.choice(cited)
                s = rng.randrange(page_size - 300)
                spans.add(Span(page, s, s + rng.randint(10, 300)))
            layers[ann] = frozenset(spans)
        questions[f"q{q:05d}"] = layers
    return AgreementInput(questions, lengths)


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return min(times), value


def reliability_matrix(data: AgreementInput) -> Any:
    """One row per annotator, one column per character of each page cited on each question
    done by 2+ annotators: 1 inside the annotator's spans, 0 outside, nan if not done."""
    import numpy as np

    blocks = []
    for layers in data.questions.values():
        done = [a for a in ANNOTATORS if a in layers]
        if len(done) < 2:
            continue
        for page in sorted({sp.page for a in done for sp in layers[a]}):
            block = np.full((len(ANNOTATORS), data.page_lengths[page]), np.nan)
            for i, ann in enumerate(ANNOTATORS):
                if ann in layers:
                    block[i, :] = 0.0
                    for sp in layers[ann]:
                        if sp.page == page:
                            block[i, sp.start : sp.end] = 1.0
            blocks.append(block)
    return np.concatenate(blocks, axis=1)


def compare_small(size: int, n_questions: int, n_pages: int, args: argparse.Namespace) -> None:
    """α by both on pages of ``size`` characters; times and the ratio."""
    import krippendorff

    small = make_data(n_questions, size, n_pages, args.seed)
    t_ours, ours = best(lambda: agreement(small).overall.char_alpha, args.repeat)
    t_build, matrix = best(lambda: reliability_matrix(small), args.repeat)
    t_pkg, theirs = best(
        lambda: krippendorff.alpha(
            reliability_data=matrix, value_domain=[0.0, 1.0], level_of_measurement="nominal"
        ),
        args.repeat,
    )
    assert ours is not None and math.isclose(ours, float(theirs), rel_tol=1e-9), (ours, theirs)
    print(
        f"small: {n_questions} questions, pages of {size:,} characters, "
        f"{matrix.shape[1]:,} units: alpha {ours:.6f} (package {float(theirs):.6f})"
    )
    print(
        f"       agreement (all figures) {t_ours * 1000:.1f} ms; krippendorff.alpha "
        f"{t_pkg * 1000:.1f} ms + matrix {t_build * 1000:.1f} ms; "
        f"ratio package/ours {(t_pkg + t_build) / t_ours:.1f}x "
        f"(alpha call alone {t_pkg / t_ours:.1f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=2000)
    parser.add_argument("--page-size", type=int, default=1_000_000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--small-questions", type=int, default=100)
    parser.add_argument("--small-page", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    big = make_data(args.questions, args.page_size, args.pages, args.seed)
    t_big, ag = best(lambda: agreement(big, gold_set="bench"), args.repeat)
    units = 0
    for layers in big.questions.values():
        done = [a for a in ANNOTATORS if a in layers]
        if len(done) >= 2:
            units += sum(big.page_lengths[p] for p in {s.page for a in done for s in layers[a]})
    print(
        f"large: {ag.questions} questions done by 2+, pages of {args.page_size:,} characters, "
        f"{units:,} character units: agreement {t_big * 1000:.1f} ms "
        f"(overall alpha {ag.overall.char_alpha:.4f}, exact F1 {ag.overall.exact_f1:.3f}, "
        f"partial F1 {ag.overall.partial_f1:.3f})"
    )
    print(
        f"       the package's reliability matrix would hold {units * len(ANNOTATORS):,} "
        f"float64 values ({units * len(ANNOTATORS) * 8 / 2**30:.1f} GiB)"
    )

    for size in args.small_page:
        compare_small(size, args.small_questions, max(2, args.pages // 20), args)


if __name__ == "__main__":
    main()
