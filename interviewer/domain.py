"""Domain types shared by the engine, the store, the CLI and the TUI (pydantic, no UI code)."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field


def utcnow() -> datetime:
    return datetime.now(UTC)


PUBLIC_CLAIM_KEYS = ("text", "quantity", "claimed", "computed", "unit", "verdict", "explanation")
"""The keys of a claim in ``interviewer check --json`` and ``interviewer grade --json``."""


class Role(StrEnum):
    interviewer = "interviewer"
    candidate = "candidate"
    system = "system"
    """Notices from the app itself (fallback to offline mode, time limit), not part of the dialogue."""


class TurnKind(StrEnum):
    question = "question"
    """The opening prompt or a step's main question."""
    followup = "followup"
    """A probe for something missing."""
    challenge = "challenge"
    """A wrong number, challenged with the computed value and the working."""
    pushback = "pushback"
    """An anti-pattern or common wrong answer, pushed back on."""
    hint = "hint"
    answer = "answer"
    skip = "skip"
    notice = "notice"
    closing = "closing"


class Citation(BaseModel):
    """A knowledge-base passage the interviewer relies on, cited as ``note#heading``."""

    note: str
    heading: str
    anchor: str
    """``note-id#heading-slug``."""
    passage: str
    """The quoted passage (trimmed)."""


class Turn(BaseModel):
    seq: int = 0
    """Position in the interview, assigned by the store (0-based)."""
    role: Role
    kind: TurnKind
    text: str
    step_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    meta: dict[str, Any] = Field(default_factory=dict)
    """Claim checks, criteria hit, citations, probe ids: what the grader and the replay need."""


class Status(StrEnum):
    met = "met"
    partial = "partial"
    missed = "missed"


class CriterionResult(BaseModel):
    id: str
    tier: Literal["must", "good", "bonus"]
    description: str
    status: Status
    score: float = Field(ge=0.0, le=1.0)
    evidence: list[str] = Field(default_factory=list)
    """The candidate's own words, quoted, that meet (or partly meet) the criterion."""
    matched_cues: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    """Knowledge note ids to study when this is not met."""
    source: str = "rubric"
    """Who judged it: ``rubric`` (deterministic) or ``llm``."""
    rationale: str = ""

    def public_dict(self) -> dict[str, Any]:
        return {"id": self.id, "tier": self.tier, "status": self.status.value, "score": round(self.score, 3), "evidence": self.evidence}


class StudyItem(BaseModel):
    note: str
    reason: str
    citation: Citation | None = None


class StepCoaching(BaseModel):
    """Suggestions for one step: how a strong answer is built, one tip, and what this answer's
    structure lacked. Advice, not grading: it never changes the score."""

    step: str
    title: str
    outline: list[str]
    """The rubric's outline of a strong answer, in order."""
    tip: str
    missing: list[str] = Field(default_factory=list)
    """Structure this step's answer lacked (framing, numbers, a trade-off, a close), each with what would fix it."""

    def public_dict(self) -> dict[str, Any]:
        return {"step": self.step, "title": self.title, "outline": self.outline, "tip": self.tip, "missing": self.missing}


class AskedQuestion(BaseModel):
    topic: str
    """The scenario fact's topic ("peak request rate")."""
    question: str
    """The candidate's words."""


class Framing(BaseModel):
    """The clarifying questions the candidate asked about the problem, matched to the scenario's
    facts, and the facts a strong candidate would have asked about but this one never did."""

    asked: list[AskedQuestion] = Field(default_factory=list)
    never_asked: list[str] = Field(default_factory=list)
    """Topics of ask-only facts that matter; shown only once the interview is over."""

    def public_dict(self) -> dict[str, Any]:
        return {"asked": [a.model_dump() for a in self.asked], "never_asked": list(self.never_asked)}

    def by_question(self) -> list[tuple[str, list[str]]]:
        """(the candidate's question, the topics it asked about), in the order asked: one question
        often asks about several facts, and is shown once."""
        grouped: dict[str, list[str]] = {}
        for asked in self.asked:
            grouped.setdefault(asked.question, []).append(asked.topic)
        return list(grouped.items())


COACHING_LABEL = "Suggestions"
"""How coaching is labelled wherever it is shown: advice, not part of the grade."""


class Scorecard(BaseModel):
    scenario: str
    score: float = Field(ge=0.0, le=100.0)
    """Total out of 100: tier scores weighted must 60 / good 30 / bonus 10, minus hint penalties."""
    level: Literal["senior", "mid", "below mid"]
    tiers: dict[str, float]
    """``must``, ``good``, ``bonus``: each the mean criterion score in [0, 1]."""
    criteria: list[CriterionResult]
    claims: list[dict[str, Any]] = Field(default_factory=list)
    """Claim checks with their working (``ClaimCheck.model_dump()``)."""
    hints_used: int = 0
    hint_penalty: float = 0.0
    strengths: list[str] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    study: list[StudyItem] = Field(default_factory=list)
    model_answer: str = ""
    mode: str = "offline"
    notices: list[str] = Field(default_factory=list)
    """E.g. disagreements between the LLM judge and the rubric scorer."""
    misconceptions: list[dict[str, Any]] = Field(default_factory=list)
    """Common wrong answers and anti-patterns the candidate asserted: ``id``, ``description``,
    ``quote`` (the candidate's words) and ``contradicts`` (criterion ids whose credit they cancel)."""
    coaching: list[StepCoaching] = Field(default_factory=list)
    """Per step, in the scenario's order: suggestions (outline, tip, missing structure)."""
    framing: Framing = Field(default_factory=Framing)
    """What the candidate asked about the problem (and, once over, what they never asked)."""

    def grade_json(self, notes: dict[str, str] | None = None) -> dict[str, Any]:
        """The ``interviewer grade --json`` contract; ``notes`` are the candidate's own notes by
        step id (``InterviewRecord.notes_by_step``), never graded: empty for a file of answers."""
        return {
            "scenario": self.scenario,
            "score": round(self.score, 1),
            "level": self.level,
            "tiers": {tier: round(value, 3) for tier, value in self.tiers.items()},
            "criteria": [c.public_dict() for c in self.criteria],
            "claims": [{key: claim.get(key) for key in PUBLIC_CLAIM_KEYS} for claim in self.claims],
            "misconceptions": [{key: m.get(key) for key in ("id", "description", "quote", "contradicts")} for m in self.misconceptions],
            "coaching": [c.public_dict() for c in self.coaching],
            "framing": self.framing.public_dict(),
            "notes": dict(notes or {}),
        }


class CandidateNote(BaseModel):
    """The candidate's own note on one question (step): kept with the interview, shown in the
    replay and the export, searchable in history, and never read as an answer or graded."""

    step_id: str
    text: str
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class InterviewStatus(StrEnum):
    active = "active"
    finished = "finished"
    abandoned = "abandoned"


class InterviewRecord(BaseModel):
    """One interview as stored: header, turns and (once finished) the scorecard."""

    id: int
    scenario_id: str
    scenario_hash: str
    title: str = ""
    mode: str = "offline"
    model: str | None = None
    level: str = "senior"
    status: InterviewStatus = InterviewStatus.active
    started_at: datetime
    finished_at: datetime | None = None
    score: float | None = None
    time_limit_s: float | None = None
    turns: list[Turn] = Field(default_factory=list)
    scorecard: Scorecard | None = None
    notes: list[CandidateNote] = Field(default_factory=list)
    """The candidate's notes, one per step at most, in the order they were first written."""

    def notes_by_step(self) -> dict[str, str]:
        """Step id → the candidate's note on that step (what ``Scorecard.grade_json`` carries)."""
        return {note.step_id: note.text for note in self.notes}

    def transcript(self) -> list[Turn | CandidateNote]:
        """The turns in order, each note right after the last turn of its step (a note on a step
        with no turn, which only an edited database has, comes last)."""
        last_turn_of_step = {turn.step_id: index for index, turn in enumerate(self.turns) if turn.step_id is not None}
        after: dict[int, list[CandidateNote]] = {}
        unplaced: list[CandidateNote] = []
        for note in self.notes:
            index = last_turn_of_step.get(note.step_id)
            if index is None:
                unplaced.append(note)
            else:
                after.setdefault(index, []).append(note)
        items: list[Turn | CandidateNote] = []
        for index, turn in enumerate(self.turns):
            items.append(turn)
            items.extend(after.get(index, []))
        return items + unplaced
