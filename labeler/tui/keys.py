"""Footer order: the keys an annotator needs most are shown first, so a narrow terminal
(80 columns) cuts the least important ones off the footer's end."""

from __future__ import annotations

from textual.binding import ActiveBinding


def most_important_first(
    bindings: dict[str, ActiveBinding], first: tuple[str, ...]
) -> dict[str, ActiveBinding]:
    """``bindings`` (key → active binding, in Textual's order) with the bindings whose
    action is in ``first`` moved to the front in that order; the rest keep their order.

    Textual's footer shows keys in this dict's order, which otherwise starts with whatever
    the focused widget binds (a TextArea's ctrl+z put Undo first)."""
    rank = {action: i for i, action in enumerate(first)}
    items = sorted(bindings.items(), key=lambda kv: rank.get(kv[1].binding.action, len(rank)))
    return dict(items)
