"""Widgets of the interviewer app, one main class per module."""
