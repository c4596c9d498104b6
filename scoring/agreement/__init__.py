"""Agreement between annotators who labelled the same questions: the figures, their result
values and their text formats.

:func:`agreement` computes them (formulas and edge cases in
:mod:`scoring.agreement._agreement`), on span boundaries (:mod:`scoring.agreement._counts`);
:class:`Agreement` and its parts hold them (:mod:`scoring.agreement._figures`);
:func:`render_agreement` writes them as a table, Markdown, HTML or JSON
(:mod:`scoring.agreement._render`).

Each name loads its module on first use (PEP 562), so importing :class:`Span` alone does not
load the computation or the text formats.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.agreement._agreement import AgreementInput, AgreementInputError, agreement
    from scoring.agreement._counts import Span
    from scoring.agreement._figures import (
        Agreement,
        OverallAgreement,
        PairAgreement,
        QuestionAgreement,
    )
    from scoring.agreement._render import AGREEMENT_FORMATS, render_agreement

__all__ = [
    "AGREEMENT_FORMATS",
    "Agreement",
    "AgreementInput",
    "AgreementInputError",
    "OverallAgreement",
    "PairAgreement",
    "QuestionAgreement",
    "Span",
    "agreement",
    "render_agreement",
]

_HOMES: dict[str, str] = {
    "AGREEMENT_FORMATS": "scoring.agreement._render",
    "Agreement": "scoring.agreement._figures",
    "AgreementInput": "scoring.agreement._agreement",
    "AgreementInputError": "scoring.agreement._agreement",
    "OverallAgreement": "scoring.agreement._figures",
    "PairAgreement": "scoring.agreement._figures",
    "QuestionAgreement": "scoring.agreement._figures",
    "Span": "scoring.agreement._counts",
    "agreement": "scoring.agreement._agreement",
    "render_agreement": "scoring.agreement._render",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scoring.agreement' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
