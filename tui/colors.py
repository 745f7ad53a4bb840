"""Text colors that stay readable on both the dark and the light theme."""

from __future__ import annotations


def accent_text(app) -> str:
    """The accent for text: ``$text-accent`` on a dark theme; on a light one the accent is pale
    orange on light grey (1.5:1, and 3.3:1 as ``$text-accent``), so ``$text-primary`` (10:1)."""
    try:
        dark = app.current_theme.dark
    except Exception:  # no app yet
        dark = True
    return "$text-accent" if dark else "$text-primary"
