"""Typed events the interview engine yields; the CLI and the TUI only render these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from interviewer.domain import Scorecard, Turn


@dataclass(frozen=True)
class TokenDelta:
    """A piece of an interviewer message being streamed (LLM mode)."""

    text: str


@dataclass(frozen=True)
class InterviewerMessage:
    """A complete interviewer turn (question, follow-up, challenge, push-back, closing). Already stored."""

    turn: Turn


@dataclass(frozen=True)
class CandidateTurnRecorded:
    """The candidate's answer, stored before any analysis so a crash cannot lose it."""

    turn: Turn


@dataclass(frozen=True)
class HintGiven:
    turn: Turn
    hints_used: int


@dataclass(frozen=True)
class ClaimChecked:
    """One numeric claim from the candidate's answer, checked by the calculators."""

    claim: dict
    """``ClaimCheck.model_dump()``: text, quantity, claimed, computed, unit, verdict, explanation, working."""


@dataclass(frozen=True)
class CriteriaCovered:
    """Criteria the last answer gave evidence for (for progress displays)."""

    criterion_ids: tuple[str, ...]
    covered: int
    total: int


@dataclass(frozen=True)
class StepAdvanced:
    index: int
    """0-based index of the step now current."""
    total: int
    step_id: str
    title: str
    """The step's human name (``Step.title``), for display."""
    question: str


@dataclass(frozen=True)
class NoteSaved:
    """The candidate's note on a step is stored (``text`` empty: the note was deleted)."""

    step_id: str
    index: int
    """0-based index of the step the note is on."""
    title: str
    """The step's human name, for the confirmation."""
    text: str


@dataclass(frozen=True)
class Notice:
    """Something the user should see that is not part of the dialogue (e.g. fallback to offline)."""

    text: str
    severity: Literal["information", "warning", "error"] = "information"


@dataclass(frozen=True)
class InterviewFinished:
    reason: Literal["completed", "ended", "time_limit"]


@dataclass(frozen=True)
class ScoreReady:
    scorecard: Scorecard


Event = (
    TokenDelta
    | InterviewerMessage
    | CandidateTurnRecorded
    | HintGiven
    | ClaimChecked
    | CriteriaCovered
    | StepAdvanced
    | NoteSaved
    | Notice
    | InterviewFinished
    | ScoreReady
)
