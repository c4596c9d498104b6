"""Footer order: the keys an annotator needs most are shown first, so a narrow terminal
(80 columns) cuts the least important ones off the footer's end."""

from __future__ import annotations

from dataclasses import replace

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


#: footer labels that read differently in a team gold set (action → description)
TEAM_LABELS = {"next_unlabelled": "Next in queue"}


def team_labels(bindings: dict[str, ActiveBinding], team: bool) -> dict[str, ActiveBinding]:
    """``bindings`` with the descriptions of :data:`TEAM_LABELS` when ``team`` (a team gold
    set: ``u`` goes to the annotator's queue); unchanged otherwise."""
    if not team:
        return bindings
    out: dict[str, ActiveBinding] = {}
    for key, active in bindings.items():
        label = TEAM_LABELS.get(active.binding.action)
        if label is not None:
            active = active._replace(binding=replace(active.binding, description=label))
        out[key] = active
    return out
