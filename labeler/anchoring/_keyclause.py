"""The automatic key clause of a requirement (the rule the bundled requirements gold set uses).

A requirement that states a condition can be half retrieved and still mislead: "Writers MUST
NOT commit unless the lock is held" cut after "commit" says the opposite. Such an element
gets a *key span* (see :mod:`scoring.classify`): a chunk holding part of it counts as
Partial only when it holds the key whole.

The rule, :func:`key_clause`:

1. Find the first *condition word* in the text: ``MUST NOT``, ``SHALL``, ``unless``,
   ``except`` or ``only if`` (RFC 2119 style), as whole words, in any letter case, the two
   words of ``MUST NOT`` and ``only if`` separated by any run of whitespace. ``except``
   does not match ``exception``; ``MUST`` alone is no condition word.
2. The key runs from that word's first letter to the end of its sentence: up to, not
   including, the first ``.``, ``!`` or ``?`` at or after the word that is followed by
   whitespace or ends the text, skipping the periods of ``e.g.``, ``i.e.``, ``etc.`` and
   ``vs.``; without such an end, to the end of the text. Trailing whitespace is left out.
3. No condition word: no key. One key per element, the first condition's.

Worked example: in ``"Readers see old data. Writers MUST NOT commit unless the lock is
held."`` the first condition word is ``MUST NOT`` at offset 30, its sentence ends at the
final period (offset 69), so the key is ``(30, 69)``: ``"MUST NOT commit unless the lock
is held"``.
"""

from __future__ import annotations

import re

__all__ = ["CONDITION_WORDS", "key_clause"]

#: the condition words, as the rule names them
CONDITION_WORDS = ("MUST NOT", "SHALL", "unless", "except", "only if")

_CONDITION = re.compile(
    r"\b(?:must\s+not|shall|unless|except|only\s+if)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.")


def key_clause(text: str) -> tuple[int, int] | None:
    """The key span ``(s, e)`` of ``text`` (offsets into it) by the rule of the module
    docstring, or None when ``text`` holds no condition word."""
    found = _CONDITION.search(text)
    if found is None:
        return None
    start = found.start()
    end = len(text)
    for stop in _SENTENCE_END.finditer(text, found.end()):
        at = stop.start()
        if text[at] == "." and any(
            text[: at + 1].lower().endswith(a) and _word_start(text, at + 1 - len(a))
            for a in _ABBREVIATIONS
        ):
            continue
        end = at
        break
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _word_start(text: str, at: int) -> bool:
    """Whether offset ``at`` begins a word (the text's start or after a non-letter)."""
    return at == 0 or not text[at - 1].isalnum()
