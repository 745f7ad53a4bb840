"""What any interviewer (offline rubric engine or LLM) offers the CLI and the TUI."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from interviewer.domain import Scorecard, Turn
from interviewer.events import Event, NoteSaved
from rubrics.schema import Scenario, Step


@runtime_checkable
class InterviewAgent(Protocol):
    scenario: Scenario
    interview_id: int | None
    """Row id in the transcript store (None when running without a store, e.g. ``grade``)."""
    mode: str
    """``offline`` or ``llm:<model>``."""
    level: str
    """Target level the candidate chose: ``mid`` or ``senior``."""

    @property
    def turns(self) -> list[Turn]: ...
    @property
    def step_index(self) -> int: ...
    @property
    def current_step(self) -> Step | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def hints_used(self) -> int: ...
    @property
    def claims(self) -> list[dict]: ...
    @property
    def covered_criteria(self) -> set[str]: ...
    def remaining_seconds(self) -> float | None:
        """Seconds left under the time limit (None without a limit)."""

    def start(self) -> AsyncIterator[Event]:
        """Open the interview (prompt, given facts, first question); on resume, re-ask what is pending."""

    def respond(self, answer: str) -> AsyncIterator[Event]:
        """Take a candidate answer: store it, check claims, match criteria, reply."""

    def hint(self) -> AsyncIterator[Event]: ...
    def skip(self) -> AsyncIterator[Event]: ...
    def end(self) -> AsyncIterator[Event]:
        """Finish now: yields InterviewFinished and ScoreReady."""

    def scorecard(self) -> Scorecard:
        """The score so far (on demand) or the final one."""

    def notes(self) -> dict[str, str]:
        """Step id → the candidate's own note, in step order (never graded)."""

    def note(self, step_id: str | None = None) -> str:
        """The note on a step (default: the current one), "" when there is none."""

    def save_note(self, text: str, *, step_id: str | None = None) -> NoteSaved:
        """Replace the note on a step (default: the current one), stored before it returns;
        blank text deletes it. ValueError once the interview is over."""

    def add_note(self, text: str) -> NoteSaved:
        """Add a line to the current step's note, stored before it returns."""
