"""Screens of the annotator TUI."""
