"""The app-wide keys: screens, help, the annotator's queue, team work and undo/redo.

``D`` and ``F5`` act in team gold sets only (:meth:`LabelerApp.check_action` hides them
elsewhere). ctrl+z and ctrl+y take priority because a read-only TextArea would swallow
them otherwise.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("ctrl+q", "quit", "Quit", priority=True),
    Binding("f1,question_mark", "help", "Help", key_display="F1/?"),
    Binding("f2", "show_mode('questions')", "Questions"),
    Binding("f3", "show_mode('documents')", "Documents"),
    Binding("f4", "show_mode('scores')", "Scores"),
    Binding("u", "next_unlabelled", "Next unlabelled", key_display="u"),
    # team gold sets only (check_action hides them elsewhere)
    Binding("D", "toggle_done", "Done", key_display="D"),
    Binding("f5", "adjudicate", "Adjudicate"),
    # an annotator's F5 (the binding above refused by check_action) says which role it needs
    Binding("f5", "needs_lead('adjudicating')", show=False),
    # TextArea swallows ctrl+z / ctrl+y even read-only: take them first.
    Binding("ctrl+z", "undo", "Undo", priority=True),
    Binding("ctrl+y", "redo", "Redo", priority=True),
]
