"""Explanation texts of retrieval correctness in English, German and French."""

from __future__ import annotations

__all__ = ["explain"]

_TEMPLATES = {
    "en": (
        "{mr} of {nr} reference contexts were retrieved (recall {recall}); "
        "{mc} of {nc} retrieved chunks matched a reference "
        "(rank-weighted precision {precision}); score {score}."
    ),
    "de": (
        "{mr} von {nr} Referenzkontexten wurden gefunden (Recall {recall}); "
        "{mc} von {nc} gelieferten Abschnitten passten zu einer Referenz "
        "(ranggewichtete Präzision {precision}); Wert {score}."
    ),
    "fr": (
        "{mr} contextes de référence sur {nr} ont été retrouvés (rappel {recall}) ; "
        "{mc} extraits sur {nc} correspondaient à une référence "
        "(précision pondérée par le rang {precision}) ; score {score}."
    ),
}
_NOTHING = {
    "en": "Nothing was retrieved; score {score}.",
    "de": "Es wurde nichts gefunden; Wert {score}.",
    "fr": "Rien n'a été retrouvé ; score {score}.",
}


_TRUNCATED = {
    "en": (
        " Some long texts were compared approximately (on their first {limit} characters, "
        "or with a bounded search)."
    ),
    "de": (
        " Einige lange Texte wurden nur näherungsweise verglichen (über ihre ersten {limit} "
        "Zeichen oder mit begrenzter Suche)."
    ),
    "fr": (
        " Certains textes longs n'ont été comparés qu'approximativement (sur leurs {limit} "
        "premiers caractères, ou par une recherche bornée)."
    ),
}


def _number(value: float, language: str) -> str:
    text = f"{value:.2f}"
    return text if language == "en" else text.replace(".", ",")


def explain(
    language: str,
    *,
    score: float,
    precision: float,
    recall: float,
    matched_references: int,
    references: int,
    matched_chunks: int,
    chunks: int,
    truncated: bool = False,
) -> str:
    """One-sentence explanation in ``language`` (``en``, ``de`` or ``fr``; numbers with two
    decimals, a decimal comma in German and French). ``truncated`` adds a second sentence
    saying that some long texts were compared approximately."""
    fmt = {
        "score": _number(score, language),
        "precision": _number(precision, language),
        "recall": _number(recall, language),
        "mr": matched_references,
        "nr": references,
        "mc": matched_chunks,
        "nc": chunks,
    }
    template = _NOTHING[language] if chunks == 0 else _TEMPLATES[language]
    text = template.format(**fmt)
    if truncated:
        from scoring.correctness._match import EXACT_LIMIT

        text += _TRUNCATED[language].format(limit=EXACT_LIMIT)
    return text
