"""Lines that fit a width without cutting a word: a readout or hint made of parts, each
with shorter forms, shown whole or not at all."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

#: what joins the parts of a readout line
SEPARATOR = "  ·  "

#: one part of a line: its forms, longest (preferred) first
Part = str | Sequence[str]


def fit_parts(parts: Sequence[Part], width: int, separator: str = SEPARATOR) -> str:
    """The parts joined by ``separator``, each in its longest form that still fits in
    ``width`` cells, in order; the first part that fits in no form ends the line (a later,
    shorter part is not shown in its place: the order is the order of importance).

    The first part is always shown, in its shortest form when none fits; it is then the
    only thing on the line and may run past ``width``. A width of 0 or less (not laid out
    yet) fits everything in its longest form."""
    forms = [[p] if isinstance(p, str) else list(p) for p in parts]
    if not forms:
        return ""
    if width <= 0:
        return separator.join(f[0] for f in forms)
    first = next((f for f in forms[0] if cell_len(f) <= width), forms[0][-1])
    line = first
    for options in forms[1:]:
        room = width - cell_len(line) - cell_len(separator)
        chosen = next((f for f in options if cell_len(f) <= room), None)
        if chosen is None:
            break
        line += separator + chosen
    return line
