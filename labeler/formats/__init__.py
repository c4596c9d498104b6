"""Interchange formats: streaming readers that name the line of every problem, and writers."""
