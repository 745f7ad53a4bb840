"""How the core's values are written for people: one function per value, shared by the CLI, the
TUI and the export, so that an interview reads the same everywhere.

Plain Python, no pydantic or Textual: the TUI's first screen imports this.
"""

from __future__ import annotations

STATUS_LABELS: dict[str, str] = {"active": "unfinished", "finished": "finished", "abandoned": "abandoned"}
"""An interview's stored status (``InterviewStatus``) → what the app calls it."""


def status_label(status: str) -> str:
    """``active`` → ``unfinished``; other statuses are their own names."""
    return STATUS_LABELS.get(str(status), str(status))


def format_score(score: float) -> str:
    """A total out of 100 to one decimal (``71.8``), the precision ``grade --json`` reports."""
    return f"{score:.1f}"


def level_labels(target: str | None, estimated: str) -> list[str]:
    """``["target: mid", "estimated: senior"]``: the level the interview was run at, beside the
    level the answers showed. Without a target (unknown), only the estimate."""
    labels = [f"target: {target}"] if target else []
    return [*labels, f"estimated: {estimated}"]


def level_line(target: str | None, estimated: str) -> str:
    """``target: mid · estimated: senior`` (see ``level_labels``)."""
    return " · ".join(level_labels(target, estimated))
