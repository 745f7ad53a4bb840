"""One interview session: the typed state, the transcript, persistence and the events, whoever drives it.

A policy decides the next move; the session holds what is true whichever policy decided it. The
rubric policy (``engine.offline.OfflineInterviewer``) and the LLM policy (``llm.agent.LLMInterviewer``)
both read the session through its properties and change it only through its public methods
(``record_answer``, ``analyse``, ``say``, ``advance``, ``count_followup``, ``finish``, ...). Every turn
is stored, with the state after it, in one transaction the moment it exists, so a crash loses no
answered turn. The candidate's own notes (``add_note``, ``save_note``) are stored the same way, apart
from the turns: no policy, analysis or score ever reads them. The session imports no policy.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from interviewer.domain import Citation, InterviewStatus, Role, Scorecard, Turn, TurnKind, utcnow
from interviewer.engine.evidence import CriterionHit, EvidenceFinder, TurnAnalysis
from interviewer.engine.grading import check_claims_safely
from interviewer.engine.grounding import ground
from interviewer.engine.scoring import build_scorecard
from interviewer.events import CandidateTurnRecorded, CriteriaCovered, Event, InterviewerMessage, NoteSaved, Notice, StepAdvanced
from interviewer.store import TranscriptStore
from rubrics.schema import Criterion, Scenario, Step, Tier

CLOSING_TEXT = {
    "completed": "That's all my questions. Thank you! Your scorecard, with the model answer, is ready.",
    "ended": "We'll stop here. Your scorecard, with the model answer, is ready.",
    "time_limit": "We're out of time, so we'll stop here. Your scorecard, with the model answer, is ready.",
}
"""What the interviewer says when the interview ends, by finish reason."""


_FOLLOW_UPS = (TurnKind.followup, TurnKind.pushback, TurnKind.challenge)


class SessionState(BaseModel):
    """Everything about an interview that is not in its transcript; stored with every turn.

    Unknown keys in a stored state (written by another version) are ignored, and missing ones take
    their defaults, so an interview started by an older version resumes."""

    model_config = ConfigDict(extra="ignore")

    started: bool = False
    """The opening question has been asked."""
    step_index: int = 0
    """0-based index of the current step (== number of steps after the last one)."""
    followups: int = 0
    """Follow-ups asked on the current step."""
    pending_answer: bool = False
    """An answer is stored and not replied to yet (a resume replies to it)."""
    finished: bool = False
    finish_reason: str | None = None
    hints_used: int = 0
    hinted_steps: list[str] = Field(default_factory=list)
    hits: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Evidence per criterion id (``CriterionHit.to_dict()``)."""
    claims: list[dict[str, Any]] = Field(default_factory=list)
    """Every checked numeric claim (``ClaimCheck.model_dump()`` plus its ``step_id``)."""
    misconceptions: list[dict[str, Any]] = Field(default_factory=list)
    seen: list[str] = Field(default_factory=list)
    """Sentences already analysed (a repeated sentence earns nothing twice)."""
    used_probes: list[str] = Field(default_factory=list)
    """Rubric policy: probes already asked."""
    challenged: list[str] = Field(default_factory=list)
    """Rubric policy: claims already challenged or asked about."""
    pushed: list[str] = Field(default_factory=list)
    """Rubric policy: steps and anti-patterns already pushed back on."""
    llm_fallback: str | None = None
    """LLM policy: why this interview left LLM mode for good (a resumed interview stays offline)."""
    llm_strikes: int = 0
    """LLM policy: turns the endpoint failed and the rubric policy answered instead."""
    llm_unusable: bool = False
    """LLM policy: the endpoint cannot serve this interview at all (bad key, unknown model, no tool
    support), so LLM grading is not attempted either."""

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class InterviewSession:
    """The state, transcript and storage of one interview (see the module docstring)."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        store: TranscriptStore | None = None,
        interview_id: int | None = None,
        level: str = "senior",
        max_followups_per_step: int = 2,
        hint_penalty: float = 2.0,
        time_limit_s: float | None = None,
        started_at: datetime | None = None,
        use_embeddings: bool = True,
        grounding: bool = True,
        state: SessionState | dict[str, Any] | None = None,
        turns: list[Turn] | None = None,
        notes: dict[str, str] | None = None,
    ):
        self.scenario = scenario
        self.store = store
        self.interview_id = interview_id
        """Row id in the transcript store (None when running without a store)."""
        self.level = level
        self.max_followups = max_followups_per_step
        self.hint_penalty = hint_penalty
        self.time_limit_s = time_limit_s
        self.started_at = started_at or utcnow()
        self.grounding = grounding
        self.mode = "offline"
        """The label scorecards carry: ``offline``, ``llm:<model>``, or the fallback's."""
        self.evidence = EvidenceFinder(scenario, use_embeddings=use_embeddings)
        self.state = state if isinstance(state, SessionState) else SessionState.model_validate(state or {})
        self._turns: list[Turn] = list(turns or [])
        self._notes: dict[str, str] = dict(notes or {})
        """Step id → the candidate's note (a copy of what the store holds, or all there is without one)."""
        self._semantic_pending: TurnAnalysis | None = None
        """The last answer's analysis while its semantic similarity is not merged yet."""

    # -- what is true now ------------------------------------------------------------------------

    @property
    def turns(self) -> list[Turn]:
        return list(self._turns)

    @property
    def step_index(self) -> int:
        return self.state.step_index

    @property
    def current_step(self) -> Step | None:
        index = self.state.step_index
        return self.scenario.steps[index] if index < len(self.scenario.steps) else None

    @property
    def is_last_step(self) -> bool:
        return self.state.step_index + 1 >= len(self.scenario.steps)

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def hints_used(self) -> int:
        return self.state.hints_used

    @property
    def claims(self) -> list[dict]:
        return list(self.state.claims)

    @property
    def covered_criteria(self) -> set[str]:
        return {cid for cid, data in self.state.hits.items() if data.get("cues")}

    @property
    def followups_left(self) -> int:
        return max(0, self.max_followups - self.state.followups)

    def last_answer(self) -> Turn | None:
        return next((t for t in reversed(self._turns) if t.role is Role.candidate and t.kind is TurnKind.answer), None)

    def remaining_seconds(self) -> float | None:
        if self.time_limit_s is None:
            return None
        deadline = self.started_at + timedelta(seconds=self.time_limit_s)
        return max(0.0, (deadline - utcnow()).total_seconds())

    def out_of_time(self) -> bool:
        remaining = self.remaining_seconds()
        return remaining is not None and remaining <= 0

    def criterion_met(self, criterion: Criterion) -> bool:
        data = self.state.hits.get(criterion.id)
        return bool(data) and len(data.get("cues", [])) >= criterion.min_cues

    def missing_for_step(self, step: Step) -> list[Criterion]:
        """The step's criteria not met yet that the candidate's level is expected to show."""
        tiers = (Tier.must, Tier.good) if self.level == "senior" else (Tier.must,)
        return [c for tier in tiers for c in self.scenario.criteria if c.tier == tier and c.step == step.id and not self.criterion_met(c)]

    def criterion_hits(self) -> dict[str, CriterionHit]:
        return {cid: CriterionHit.from_dict(cid, data) for cid, data in self.state.hits.items()}

    # -- storage ---------------------------------------------------------------------------------

    def save(self) -> None:
        if self.store is not None and self.interview_id is not None:
            self.store.save_state(self.interview_id, self.state.dump())

    def record(self, turn: Turn) -> Turn:
        """Store a turn (with the state after it) and append it to the transcript."""
        if self.store is not None and self.interview_id is not None:
            turn = self.store.add_turn(self.interview_id, turn, self.state.dump())
        else:
            turn = turn.model_copy(update={"seq": len(self._turns)})
        self._turns.append(turn)
        return turn

    def say(self, kind: TurnKind, text: str, **meta: Any) -> InterviewerMessage:
        """Store an interviewer turn, filed under the current step."""
        step = self.current_step
        turn = Turn(role=Role.interviewer, kind=kind, text=text, step_id=step.id if step else None, meta=meta)
        return InterviewerMessage(self.record(turn))

    def record_answer(self, text: str) -> CandidateTurnRecorded:
        """Store the candidate's answer before anything looks at it; it is pending until replied to."""
        self.state.pending_answer = True
        step = self.current_step
        turn = Turn(role=Role.candidate, kind=TurnKind.answer, text=text, step_id=step.id if step else None)
        return CandidateTurnRecorded(self.record(turn))

    def record_skip(self) -> Turn:
        step = self.current_step
        return self.record(Turn(role=Role.candidate, kind=TurnKind.skip, text="(skipped)", step_id=step.id if step else None))

    def record_notice(self, text: str, **meta: Any) -> Turn:
        """A system line in the transcript (a fallback, say), not part of the dialogue."""
        return self.record(Turn(role=Role.system, kind=TurnKind.notice, text=text, meta=meta))

    # -- the candidate's notes: stored at once, never analysed or graded ----------------------------

    def notes(self) -> dict[str, str]:
        """Step id → the candidate's note, in the scenario's step order."""
        return {step.id: self._notes[step.id] for step in self.scenario.steps if step.id in self._notes}

    def note(self, step_id: str | None = None) -> str:
        """The note on ``step_id`` (default: the current step), "" when there is none."""
        step = self._note_step(step_id)
        return self._notes.get(step.id, "") if step is not None else ""

    def save_note(self, text: str, *, step_id: str | None = None) -> NoteSaved:
        """Replace the note on ``step_id`` (default: the current step) and store it before
        returning; blank text deletes it. Raises ValueError without ``step_id`` once the interview is
        over (there is no current question), or for a step the scenario does not have."""
        step = self._note_step(step_id)
        if step is None:
            raise ValueError("the interview is over: there is no question to take a note on")
        text = text.lstrip("\n").rstrip()  # an indented first line keeps its layout
        if self.store is not None and self.interview_id is not None:
            self.store.save_note(self.interview_id, step.id, text)
        if text:
            self._notes[step.id] = text
        else:
            self._notes.pop(step.id, None)
        return NoteSaved(step.id, self.scenario.step_index(step.id), step.title, text)

    def add_note(self, text: str) -> NoteSaved:
        """Add ``text`` on a new line of the current step's note (``/note TEXT``), stored at once."""
        if not text.strip():
            raise ValueError("a note needs some text")
        earlier = self.note()
        return self.save_note(f"{earlier}\n{text.strip()}" if earlier else text)

    def _note_step(self, step_id: str | None) -> Step | None:
        # A note names its question; once the interview is over there is no "current" one, but a
        # note on a named question still belongs to it (one typed as the time ran out, say).
        if step_id is None:
            return None if self.finished else self.current_step
        step = next((s for s in self.scenario.steps if s.id == step_id), None)
        if step is None:
            raise ValueError(f"no step {step_id!r} in scenario {self.scenario.id}")
        return step

    # -- moves every policy makes ----------------------------------------------------------------

    def begin(self) -> None:
        self.state.started = True

    def replied(self) -> None:
        """The pending answer has its reply (the next ``record`` stores that)."""
        self.state.pending_answer = False

    def count_followup(self) -> None:
        self.state.followups += 1

    def advance(self) -> Step | None:
        """Move to the next step (state only); the new current step, or None after the last one."""
        self.state.step_index += 1
        self.state.followups = 0
        return self.current_step

    def give_hint(self) -> Step | None:
        """Count a hint for the current step; None when it already had its hint."""
        step = self.current_step
        if step is None or step.id in self.state.hinted_steps:
            return None
        self.state.hints_used += 1
        self.state.hinted_steps.append(step.id)
        return step

    def step_event(self) -> StepAdvanced | None:
        step = self.current_step
        if step is None:
            return None
        return StepAdvanced(self.step_index, len(self.scenario.steps), step.id, step.title, step.question)

    def question_heading(self) -> str:
        """``**Question n of N.** <question>`` for the current step."""
        step = self.current_step
        assert step is not None
        return f"**Question {self.step_index + 1} of {len(self.scenario.steps)}.** {step.question.strip()}"

    def open_question(self) -> str:
        """The question the candidate is answering now: the last follow-up, push-back or challenge
        on this step that asked one, else the step's own question (what a reply to a clarifying
        question comes back to)."""
        step = self.current_step
        assert step is not None
        for turn in reversed(self._turns):
            if turn.step_id != step.id or (turn.role is Role.interviewer and turn.kind is TurnKind.question):
                break
            if turn.role is Role.interviewer and turn.kind in _FOLLOW_UPS and turn.meta.get("move") != "clarify":
                asked = [p.strip() for p in turn.text.split("\n\n") if p.strip().endswith("?") and not p.lstrip().startswith((">", "_"))]
                if asked:
                    return asked[-1]
        return step.question.strip()

    def opening_text(self) -> str:
        s = self.scenario
        given = "\n".join(f"- {fact}" for fact in s.given)
        parts = [f"## {s.title}", s.prompt.strip()]
        if given:
            parts.append(f"**Given**\n{given}")
        parts.append(f"**Question 1 of {len(s.steps)}.** {s.steps[0].question.strip()}")
        return "\n\n".join(parts)

    # -- analysing an answer ---------------------------------------------------------------------

    def analyse(self, text: str, *, semantic: bool = True) -> tuple[TurnAnalysis, list[dict]]:
        """Claims checked by the calculators and rubric evidence, merged into the state (blocking).

        With ``semantic=False`` the embedding similarity is left for ``merge_pending_semantic``, so
        a reply can go out before it is computed."""
        seen = set(self.state.seen)
        analysis = self.evidence.analyze(text, seen, semantic=semantic)
        self.state.seen = sorted(seen)
        claims = check_claims_safely("\n".join(analysis.sentences), dict(self.scenario.facts))
        for claim in claims:
            claim["step_id"] = self.current_step.id if self.current_step else None
        self.state.claims.extend(claims)
        misconceptions = self.state.misconceptions
        misconceptions.extend(m.to_dict() for m in analysis.misconceptions if m.to_dict() not in misconceptions)
        self._merge_hits(analysis)
        if not semantic:
            self._semantic_pending = analysis
        return analysis, claims

    async def merge_pending_semantic(self) -> bool:
        """Merge the last answer's semantic similarity into the state and save it; True when it
        added a criterion. Runs before any score is computed (see ``finish``)."""
        analysis, self._semantic_pending = self._semantic_pending, None
        if analysis is None:
            return False
        before = self.covered_criteria
        await asyncio.to_thread(self.evidence.add_semantic, analysis)
        self._drop_off_topic(analysis)
        self._merge_hits(analysis)
        self.save()
        return self.covered_criteria != before

    def _drop_off_topic(self, analysis: TurnAnalysis) -> None:
        """Take back what the answer's off-topic sentences contributed before similarity was known."""
        if not analysis.off_topic:
            return
        off_topic = set(analysis.off_topic)
        for cid, data in list(self.state.hits.items()):
            hit = CriterionHit.from_dict(cid, data)
            hit.discard(off_topic)
            self.state.hits[cid] = hit.to_dict()
        self.state.misconceptions = [m for m in self.state.misconceptions if m["quote"] not in off_topic]

    def _merge_hits(self, analysis: TurnAnalysis) -> None:
        hits = self.state.hits
        for cid, hit in analysis.hits.items():
            merged = CriterionHit.from_dict(cid, hits[cid]) if cid in hits else CriterionHit(cid)
            merged.merge(hit)
            hits[cid] = merged.to_dict()

    def analysis_events(self, analysis: TurnAnalysis, claims: list[dict]) -> list[Event]:
        """What the deterministic analysis of an answer found (claim checks, criteria, truncation)."""
        from interviewer.events import ClaimChecked

        events: list[Event] = [ClaimChecked(claim) for claim in claims]
        events.append(self.coverage_event(analysis))
        if analysis.truncated:
            events.append(
                Notice("That answer is very long; only its first 20,000 characters were analysed (all of it is saved).", "warning")
            )
        return events

    def coverage_event(self, analysis: TurnAnalysis) -> CriteriaCovered:
        return CriteriaCovered(tuple(analysis.criteria_hit), len(self.covered_criteria), len(self.scenario.criteria))

    async def cite(self, query: str, notes: list[str]) -> Citation | None:
        """The knowledge-base passage that backs a challenge or a probe (None with grounding off)."""
        if not self.grounding:
            return None
        from interviewer import retrieval

        if retrieval.warming_up():
            # An answer in the first seconds after launch: the index is still loading in the
            # background (seconds), and a citation is not worth keeping the candidate waiting.
            return None
        cited = frozenset(t.meta["citation"]["anchor"] for t in self._turns if isinstance(t.meta.get("citation"), dict) and t.meta["citation"].get("anchor"))
        return await asyncio.to_thread(ground, query, notes, cited)

    # -- the end ---------------------------------------------------------------------------------

    async def finish(self, reason: str, **closing_meta: Any) -> InterviewerMessage:
        """Mark the interview finished and store the closing line; the scorecard comes next."""
        await self.merge_pending_semantic()
        self.state.finished = True
        self.state.finish_reason = reason
        self.state.pending_answer = False
        return self.say(TurnKind.closing, CLOSING_TEXT[reason], move="close", **closing_meta)

    def scorecard(self) -> Scorecard:
        """The rubric scorer's card from the evidence so far (the model answer only once finished)."""
        return build_scorecard(
            self.scenario,
            self.criterion_hits(),
            self.state.claims,
            hints_used=self.state.hints_used,
            hint_penalty_points=self.hint_penalty,
            mode=self.mode,
            reveal_model_answer=self.finished,
            misconceptions=self.state.misconceptions,
            answers_by_step=self.answers_by_step(),
        )

    def answers_by_step(self) -> dict[str, list[str]]:
        """The candidate's answers so far, grouped by the step they were given at (for the coaching)."""
        by_step: dict[str, list[str]] = {}
        for turn in self._turns:
            if turn.role is Role.candidate and turn.kind is TurnKind.answer and turn.step_id:
                by_step.setdefault(turn.step_id, []).append(turn.text)
        return by_step

    def conclude(self, scorecard: Scorecard) -> Scorecard:
        """The final scorecard, with study citations, stored with the interview (blocking)."""
        scorecard = attach_study_citations(scorecard)
        if self.store is not None and self.interview_id is not None:
            self.store.finish(self.interview_id, scorecard, InterviewStatus.finished)
        return scorecard

    def stored_scorecard(self) -> Scorecard | None:
        if self.finished and self.store is not None and self.interview_id is not None:
            return self.store.get(self.interview_id).scorecard
        return None


def attach_study_citations(scorecard: Scorecard) -> Scorecard:
    """Point each study item at the passage of its note that best explains the missed criterion."""
    for item in scorecard.study:
        if item.citation is None:
            item.citation = ground(item.reason.split(": ", 1)[-1], [item.note])
    return scorecard


class SessionView:
    """The ``InterviewAgent`` properties of a policy, read from its ``session`` (both policies use it)."""

    session: InterviewSession

    @property
    def mode(self) -> str:
        return self.session.mode

    @property
    def state(self) -> SessionState:
        return self.session.state

    @property
    def turns(self) -> list[Turn]:
        return self.session.turns

    @property
    def step_index(self) -> int:
        return self.session.step_index

    @property
    def current_step(self) -> Step | None:
        return self.session.current_step

    @property
    def finished(self) -> bool:
        return self.session.finished

    @property
    def hints_used(self) -> int:
        return self.session.hints_used

    @property
    def claims(self) -> list[dict]:
        return self.session.claims

    @property
    def covered_criteria(self) -> set[str]:
        return self.session.covered_criteria

    def remaining_seconds(self) -> float | None:
        return self.session.remaining_seconds()

    def notes(self) -> dict[str, str]:
        return self.session.notes()

    def note(self, step_id: str | None = None) -> str:
        return self.session.note(step_id)

    def save_note(self, text: str, *, step_id: str | None = None) -> NoteSaved:
        return self.session.save_note(text, step_id=step_id)

    def add_note(self, text: str) -> NoteSaved:
        return self.session.add_note(text)
