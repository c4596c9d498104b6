"""Widgets of the annotator TUI."""
