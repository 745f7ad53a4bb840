"""The offline interviewer: rubric-driven, deterministic, and complete without any network.

It walks the scenario's steps. After each answer it checks every numeric claim, finds the
evidence each criterion asks for, and picks one move, in this order: challenge a wrong number
(with the computed value and the working), push back on a common wrong answer or an
anti-pattern, probe a missing criterion of the current step (each probe used once, at most
``max_followups_per_step`` per step), or move on. Every turn is stored the moment it exists.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

from interviewer.claims.checker import asks_which_quantity
from interviewer.domain import Citation, InterviewStatus, Role, Scorecard, Turn, TurnKind, utcnow
from interviewer.engine.evidence import CriterionHit, EvidenceFinder, TurnAnalysis, content_stems
from interviewer.engine.export import escape_markdown
from interviewer.engine.grounding import ground
from interviewer.engine.scoring import build_scorecard
from interviewer.engine.text import clean, quote
from interviewer.events import (
    CandidateTurnRecorded,
    ClaimChecked,
    CriteriaCovered,
    Event,
    HintGiven,
    InterviewerMessage,
    InterviewFinished,
    Notice,
    ScoreReady,
    StepAdvanced,
)
from interviewer.store import TranscriptStore
from rubrics.schema import Criterion, Scenario, Step, Tier

log = logging.getLogger(__name__)

_ACKS = ("Thanks.", "OK.", "Understood.", "Noted.", "Right.")

CLOSING_TEXT = {
    "completed": "That's all my questions. Thank you! Your scorecard, with the model answer, is ready.",
    "ended": "We'll stop here. Your scorecard, with the model answer, is ready.",
    "time_limit": "We're out of time, so we'll stop here. Your scorecard, with the model answer, is ready.",
}
"""What the interviewer says when the interview ends, by finish reason."""


def check_claims_safely(text: str, facts: dict[str, Any]) -> list[dict]:
    """Claim checks as dicts; a failure in the checker never breaks the interview."""
    try:
        from interviewer.claims import check_claims

        return [claim.model_dump() for claim in check_claims(text, facts)]
    except Exception:  # the checker is best-effort inside a live interview
        log.exception("claim checking failed")
        return []


def _initial_state() -> dict[str, Any]:
    return {
        "step_index": 0,
        "followups": 0,
        "used_probes": [],
        "challenged": [],
        "pushed": [],
        "hints_used": 0,
        "hinted_steps": [],
        "hits": {},
        "claims": [],
        "misconceptions": [],
        "seen": [],
        "pending_answer": False,
        "finished": False,
        "finish_reason": None,
        "started": False,
    }


class OfflineInterviewer:
    """Implements ``InterviewAgent`` with the rubric, the embedder and the calculators."""

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
        state: dict[str, Any] | None = None,
        turns: list[Turn] | None = None,
    ):
        self.scenario = scenario
        self.store = store
        self.interview_id = interview_id
        self.mode = "offline"
        self.level = level
        self.max_followups = max_followups_per_step
        self.hint_penalty = hint_penalty
        self.time_limit_s = time_limit_s
        self.started_at = started_at or utcnow()
        self.grounding = grounding
        self.evidence = EvidenceFinder(scenario, use_embeddings=use_embeddings)
        self._semantic_pending: TurnAnalysis | None = None
        """The last answer's analysis while its semantic similarity is not merged yet."""
        self.state = {**_initial_state(), **(state or {})}
        self._turns: list[Turn] = list(turns or [])

    # -- InterviewAgent properties -------------------------------------------------------------

    @property
    def turns(self) -> list[Turn]:
        return list(self._turns)

    @property
    def step_index(self) -> int:
        return self.state["step_index"]

    @property
    def current_step(self) -> Step | None:
        index = self.state["step_index"]
        return self.scenario.steps[index] if index < len(self.scenario.steps) else None

    @property
    def finished(self) -> bool:
        return self.state["finished"]

    @property
    def hints_used(self) -> int:
        return self.state["hints_used"]

    @property
    def claims(self) -> list[dict]:
        return list(self.state["claims"])

    @property
    def covered_criteria(self) -> set[str]:
        return {cid for cid, data in self.state["hits"].items() if data.get("cues")}

    def remaining_seconds(self) -> float | None:
        if self.time_limit_s is None:
            return None
        deadline = self.started_at + timedelta(seconds=self.time_limit_s)
        return max(0.0, (deadline - utcnow()).total_seconds())

    # -- storage -------------------------------------------------------------------------------

    def _record(self, turn: Turn) -> Turn:
        if self.store is not None and self.interview_id is not None:
            turn = self.store.add_turn(self.interview_id, turn, self.state)
        else:
            turn = turn.model_copy(update={"seq": len(self._turns)})
        self._turns.append(turn)
        return turn

    def _say(self, kind: TurnKind, text: str, **meta: Any) -> InterviewerMessage:
        step = self.current_step
        turn = Turn(role=Role.interviewer, kind=kind, text=text, step_id=step.id if step else None, meta=meta)
        return InterviewerMessage(self._record(turn))

    # -- the conversation ----------------------------------------------------------------------

    def _step_event(self) -> StepAdvanced | None:
        step = self.current_step
        if step is None:
            return None
        return StepAdvanced(self.step_index, len(self.scenario.steps), step.id, step.title, step.question)

    def _opening_text(self) -> str:
        s = self.scenario
        given = "\n".join(f"- {fact}" for fact in s.given)
        parts = [f"## {s.title}", s.prompt.strip()]
        if given:
            parts.append(f"**Given**\n{given}")
        parts.append(f"**Question 1 of {len(s.steps)}.** {s.steps[0].question.strip()}")
        return "\n\n".join(parts)

    async def start(self) -> AsyncIterator[Event]:
        if not self.state["started"]:
            self.state["started"] = True
            yield self._say(TurnKind.question, self._opening_text(), move="open")
            if event := self._step_event():
                yield event
            return
        if event := self._step_event():
            yield event
        if self.finished:
            return
        if self.state["pending_answer"]:
            # Interrupted after the answer was stored and before the reply: answer it now.
            last = next((t for t in reversed(self._turns) if t.role is Role.candidate), None)
            if last is not None:
                yield Notice("Resumed: replying to your last answer.")
                async for event in self._reply_to(last.text):
                    yield event
                return
        yield Notice("Resumed where you left off.")

    async def respond(self, answer: str) -> AsyncIterator[Event]:
        if self.finished:
            yield Notice("This interview is finished; open the scorecard or start a new one.", "warning")
            return
        text = clean(answer)
        if not text.strip():
            yield Notice("Your answer is empty: type an answer, or ask for a hint or skip this question.", "warning")
            return
        self.state["pending_answer"] = True
        candidate = self._record(
            Turn(role=Role.candidate, kind=TurnKind.answer, text=text, step_id=self.current_step.id if self.current_step else None)
        )
        yield CandidateTurnRecorded(candidate)
        async for event in self._reply_to(text):
            yield event

    async def _reply_to(self, text: str) -> AsyncIterator[Event]:
        # The next move depends on cues and claims only: the reply goes out before the
        # embedding similarity (tens to hundreds of milliseconds on a long answer) is added.
        await self._add_pending_semantic()  # a caller that stopped reading the last turn early
        analysis, claims = await asyncio.to_thread(self._analyse, text, semantic=False)
        self._semantic_pending = analysis
        for event in self.analysis_events(analysis, claims):
            yield event
        if self.out_of_time():
            self.state["pending_answer"] = False
            async for event in self._finish("time_limit"):
                yield event
            return
        async for event in self.reply_with_rubric(analysis, claims):
            yield event
        if await self._add_pending_semantic():
            yield CriteriaCovered(tuple(analysis.criteria_hit), len(self.covered_criteria), len(self.scenario.criteria))

    async def _add_pending_semantic(self) -> bool:
        """Merge the last answer's semantic similarity into the state and save it; True when
        it added a criterion. Runs before any score is computed (see ``_finish``)."""
        analysis, self._semantic_pending = self._semantic_pending, None
        if analysis is None:
            return False
        before = self.covered_criteria
        await asyncio.to_thread(self.evidence.add_semantic, analysis)
        self._drop_off_topic(analysis)
        self._merge_hits(analysis)
        if self.store is not None and self.interview_id is not None:
            self.store.save_state(self.interview_id, self.state)
        return self.covered_criteria != before

    def analysis_events(self, analysis: TurnAnalysis, claims: list[dict]) -> list[Event]:
        """What the deterministic analysis of an answer found (claim checks, criteria, truncation)."""
        events: list[Event] = [ClaimChecked(claim) for claim in claims]
        covered = self.covered_criteria
        events.append(CriteriaCovered(tuple(analysis.criteria_hit), len(covered), len(self.scenario.criteria)))
        if analysis.truncated:
            events.append(
                Notice("That answer is very long; only its first 20,000 characters were analysed (all of it is saved).", "warning")
            )
        return events

    def out_of_time(self) -> bool:
        remaining = self.remaining_seconds()
        return remaining is not None and remaining <= 0

    async def reply_with_rubric(self, analysis: TurnAnalysis, claims: list[dict]) -> AsyncIterator[Event]:
        """The rubric engine's reply to an analysed answer (also the LLM interviewer's fallback)."""
        message, advanced = await self._next_move(analysis, claims)
        self.state["pending_answer"] = False
        if message is not None:
            yield message
        if advanced:
            if self.current_step is None:
                async for event in self._finish("completed"):
                    yield event
                return
            if event := self._step_event():
                yield event

    def _analyse(self, text: str, *, semantic: bool = True) -> tuple[TurnAnalysis, list[dict]]:
        seen = set(self.state["seen"])
        analysis = self.evidence.analyze(text, seen, semantic=semantic)
        self.state["seen"] = sorted(seen)
        claims = check_claims_safely("\n".join(analysis.sentences), dict(self.scenario.facts))
        for claim in claims:
            claim["step_id"] = self.current_step.id if self.current_step else None
        self.state["claims"].extend(claims)
        misconceptions = self.state.setdefault("misconceptions", [])
        misconceptions.extend(m.to_dict() for m in analysis.misconceptions if m.to_dict() not in misconceptions)
        self._merge_hits(analysis)
        return analysis, claims

    def _drop_off_topic(self, analysis: TurnAnalysis) -> None:
        """Take back what the answer's off-topic sentences contributed before similarity was known."""
        if not analysis.off_topic:
            return
        off_topic = set(analysis.off_topic)
        for cid, data in list(self.state["hits"].items()):
            hit = CriterionHit.from_dict(cid, data)
            hit.discard(off_topic)
            self.state["hits"][cid] = hit.to_dict()
        self.state["misconceptions"] = [m for m in self.state.get("misconceptions", []) if m["quote"] not in off_topic]

    def _merge_hits(self, analysis: TurnAnalysis) -> None:
        hits = self.state["hits"]
        for cid, hit in analysis.hits.items():
            merged = CriterionHit.from_dict(cid, hits[cid]) if cid in hits else CriterionHit(cid)
            merged.merge(hit)
            hits[cid] = merged.to_dict()

    def _criterion_met(self, criterion: Criterion) -> bool:
        data = self.state["hits"].get(criterion.id)
        return bool(data) and len(data.get("cues", [])) >= criterion.min_cues

    def _ack(self) -> str:
        return _ACKS[len(self._turns) % len(_ACKS)]

    async def _next_move(self, analysis: TurnAnalysis, claims: list[dict]) -> tuple[InterviewerMessage | None, bool]:
        step = self.current_step
        assert step is not None
        prefix = ""
        if analysis.injections:
            prefix = "I only grade the technical content of your answers, so I'll set aside the part addressed to the grader. "
        can_follow_up = self.state["followups"] < self.max_followups

        wrong = next((c for c in claims if c.get("verdict") == "incorrect" and c["text"] not in self.state["challenged"]), None)
        if wrong is not None and can_follow_up:
            self.state["challenged"].append(wrong["text"])
            self.state["followups"] += 1
            citation = await self._ground(f"{wrong.get('quantity', '')} {wrong['text']}", [])
            # A list, not an indented code block: Markdown wraps list items, while code lines ran off
            # the right edge of the transcript.
            working = "\n".join(f"- {escape_markdown(line)}" for line in wrong.get("working") or [])
            text = (
                f"{prefix}You said “{quote(wrong['text'])}”. I get a different number: {wrong['explanation']}"
                + (f"\n\nWorking:\n\n{working}" if working else "")
                + _quoted(citation)
                + "\n\nHow does that change your plan?"
            )
            return self._say(TurnKind.challenge, text, move="challenge", claim=wrong, citation=_dump(citation)), False

        unsure = next((c for c in claims if asks_which_quantity(c) and c["text"] not in self.state["challenged"]), None)
        if unsure is not None and can_follow_up:
            # A number that may be right in a scope the calculators did not compute: ask, as a careful interviewer would.
            self.state["challenged"].append(unsure["text"])
            self.state["followups"] += 1
            text = f"{prefix}About “{quote(unsure['text'])}”: {unsure['explanation']}"
            return self._say(TurnKind.followup, text, move="clarify-claim", claim=unsure), False

        if step.id in analysis.wrong_answer_steps and step.id not in self.state["pushed"] and can_follow_up:
            self.state["pushed"].append(step.id)
            said = next((m.quote for m in analysis.misconceptions if m.id == step.id), "")
            probe = self._unused(step.probes, about=said)
            if probe is not None:
                self.state["followups"] += 1
                related = [n for c in self.scenario.criteria if c.step == step.id for n in c.notes]
                citation = await self._ground(step.key_decision, related)
                text = f"{prefix}I'm not convinced by that part of your answer. {probe}{_cited(citation)}"
                return self._say(TurnKind.pushback, text, move="wrong-answer", citation=_dump(citation)), False

        anti = next((a for a in self.scenario.anti_patterns if a.id in analysis.anti_patterns and a.id not in self.state["pushed"]), None)
        if anti is not None and can_follow_up:
            self.state["pushed"].append(anti.id)
            self.state["followups"] += 1
            citation = await self._ground(anti.description, anti.notes)
            text = f"{prefix}{anti.pushback}{_quoted(citation)}"
            return self._say(TurnKind.pushback, text, move="anti-pattern", anti_pattern=anti.id, citation=_dump(citation)), False

        if can_follow_up:
            missing = self._missing_for_step(step)
            for criterion in missing:
                probe = criterion.probe if criterion.probe and criterion.probe not in self.state["used_probes"] else None
                probe = probe or self._unused(step.probes)
                if probe is None:
                    break
                self.state["used_probes"].append(probe)
                self.state["followups"] += 1
                citation = await self._ground(criterion.description, criterion.notes)
                text = f"{prefix}{self._ack()} {probe}{_cited(citation)}"
                return self._say(TurnKind.followup, text, move="probe", criterion=criterion.id, citation=_dump(citation)), False

        return self._advance(prefix), True

    def _missing_for_step(self, step: Step) -> list[Criterion]:
        tiers = (Tier.must, Tier.good) if self.level == "senior" else (Tier.must,)
        return [
            c for tier in tiers for c in self.scenario.criteria if c.tier == tier and c.step == step.id and not self._criterion_met(c)
        ]

    def _unused(self, probes: list[str], *, about: str = "") -> str | None:
        """The first probe not used yet; with ``about`` (the candidate's sentence), the unused probe
        that shares the most words with it, so a push-back answers the part that was wrong."""
        unused = [probe for probe in probes if probe not in self.state["used_probes"]]
        if not unused:
            return None
        words = content_stems(about)
        probe = max(unused, key=lambda p: len(words & content_stems(p))) if words else unused[0]
        self.state["used_probes"].append(probe)
        return probe

    def advance_step(self) -> Step | None:
        """Move to the next step (state only); the new current step, or None after the last one."""
        self.state["step_index"] += 1
        self.state["followups"] = 0
        return self.current_step

    def _advance(self, prefix: str = "") -> InterviewerMessage | None:
        step = self.advance_step()
        if step is None:
            return None
        total = len(self.scenario.steps)
        text = f"{prefix}{self._ack()} Let's move on.\n\n**Question {self.step_index + 1} of {total}.** {step.question.strip()}"
        return self._say(TurnKind.question, text, move="advance")

    async def _ground(self, query: str, notes: list[str]) -> Citation | None:
        if not self.grounding:
            return None
        from interviewer import retrieval

        if retrieval.warming_up():
            # An answer in the first seconds after launch: the index is still loading in the
            # background (seconds), and a citation is not worth keeping the candidate waiting.
            return None
        return await asyncio.to_thread(ground, query, notes)

    async def hint(self) -> AsyncIterator[Event]:
        step = self.current_step
        if self.finished or step is None:
            yield Notice("No question is open, so there is no hint to give.", "warning")
            return
        if step.id in self.state["hinted_steps"]:
            yield Notice("You already had the hint for this question (it is above).", "information")
            return
        self.state["hints_used"] += 1
        self.state["hinted_steps"].append(step.id)
        penalty = f" (costs {self.hint_penalty:g} points)" if self.hint_penalty else ""
        message = self._say(TurnKind.hint, f"**Hint**{penalty}: {step.hint.strip()}", move="hint")
        yield HintGiven(message.turn, self.state["hints_used"])

    async def skip(self) -> AsyncIterator[Event]:
        step = self.current_step
        if self.finished or step is None:
            yield Notice("Nothing to skip: the interview is over.", "warning")
            return
        self._record(Turn(role=Role.candidate, kind=TurnKind.skip, text="(skipped)", step_id=step.id))
        message = self._advance()
        if message is None:
            async for event in self._finish("completed"):
                yield event
            return
        yield message
        if event := self._step_event():
            yield event

    async def end(self) -> AsyncIterator[Event]:
        if self.finished:
            yield ScoreReady(self.scorecard())
            return
        async for event in self._finish("ended"):
            yield event

    async def _finish(self, reason: str) -> AsyncIterator[Event]:
        await self._add_pending_semantic()
        self.state["finished"] = True
        self.state["finish_reason"] = reason
        closing = CLOSING_TEXT[reason]
        self.state["step_index"] = max(self.state["step_index"], 0)
        yield self._say(TurnKind.closing, closing, move="close")
        yield InterviewFinished(reason)  # type: ignore[arg-type]
        scorecard = await asyncio.to_thread(self._final_scorecard)
        yield ScoreReady(scorecard)

    def _final_scorecard(self) -> Scorecard:
        scorecard = self.scorecard()
        scorecard = attach_study_citations(scorecard)
        if self.store is not None and self.interview_id is not None:
            self.store.finish(self.interview_id, scorecard, InterviewStatus.finished)
        return scorecard

    def scorecard(self) -> Scorecard:
        hits = {cid: CriterionHit.from_dict(cid, data) for cid, data in self.state["hits"].items()}
        return build_scorecard(
            self.scenario,
            hits,
            self.state["claims"],
            hints_used=self.state["hints_used"],
            hint_penalty_points=self.hint_penalty,
            mode=self.mode,
            reveal_model_answer=self.finished,
            misconceptions=self.state.get("misconceptions", []),
        )


def attach_study_citations(scorecard: Scorecard) -> Scorecard:
    """Point each study item at the passage of its note that best explains the missed criterion."""
    for item in scorecard.study:
        if item.citation is None:
            item.citation = ground(item.reason.split(": ", 1)[-1], [item.note])
    return scorecard


def _dump(citation: Citation | None) -> dict | None:
    return citation.model_dump() if citation else None


def _cited(citation: Citation | None) -> str:
    """A probe names its source without quoting it, so it does not give the answer away."""
    return f"\n\n_Grounded in `{citation.anchor}`._" if citation else ""


def _quoted(citation: Citation | None) -> str:
    if citation is None:
        return ""
    passage = "\n> ".join(citation.passage.splitlines())
    return f"\n\n> {passage}\n>\n> — `{citation.anchor}`"
