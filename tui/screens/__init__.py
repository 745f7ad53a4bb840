"""Screens and modals of the interviewer app, one per module."""
