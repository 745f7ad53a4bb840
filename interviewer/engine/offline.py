"""The rubric policy: the offline interviewer, deterministic and complete without any network.

It walks the scenario's steps. It answers the candidate's questions about the problem from the
scenario's facts first (``clarify``; a turn of questions only gets those answers and the open
question again). After each answer it checks every numeric claim, finds the evidence each
criterion asks for, and picks one move, in this order: challenge a wrong number
(with the computed value and the working), push back on a common wrong answer or an
anti-pattern, probe a missing criterion of the current step (each probe used once, at most
``max_followups_per_step`` per step), or move on. It drives an ``InterviewSession`` through its
public methods only; the session stores every turn the moment it exists.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from interviewer.claims.checker import asks_which_quantity
from interviewer.domain import Citation, Scorecard, TurnKind
from interviewer.engine.clarify import clarification, clarification_reply
from interviewer.engine.evidence import TurnAnalysis
from interviewer.engine.export import escape_markdown
from interviewer.engine.session import InterviewSession, SessionView
from interviewer.engine.text import clean, content_stems, quote
from interviewer.events import (
    Event,
    HintGiven,
    InterviewerMessage,
    InterviewFinished,
    Notice,
    ScoreReady,
)
from rubrics.schema import Criterion, Scenario, Step

_ACKS = ("Thanks.", "OK.", "Understood.", "Noted.", "Right.")


class OfflineInterviewer(SessionView):
    """Implements ``InterviewAgent`` with the rubric, the embedder and the calculators.

    Built on a session (``session=``, as the LLM policy's fallback shares its session), or on a
    scenario and the keyword arguments of ``InterviewSession`` for a session of its own."""

    def __init__(self, scenario: Scenario | None = None, *, session: InterviewSession | None = None, **session_options: Any):
        if session is None:
            assert scenario is not None, "give a scenario or a session"
            session = InterviewSession(scenario, **session_options)
        self.session = session
        self.scenario = session.scenario
        self.interview_id = session.interview_id
        self.level = session.level

    # -- the conversation ------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Event]:
        session = self.session
        if not session.state.started:
            session.begin()
            yield session.say(TurnKind.question, session.opening_text(), move="open")
            if event := session.step_event():
                yield event
            return
        if event := session.step_event():
            yield event
        if self.finished:
            return
        if session.state.pending_answer:
            # Interrupted after the answer was stored and before the reply: answer it now.
            last = session.last_answer()
            if last is not None:
                yield Notice("Resumed: replying to your last answer.")
                async for event in self.reply_to(last.text):
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
        yield self.session.record_answer(text)
        async for event in self.reply_to(text):
            yield event

    async def reply_to(self, text: str) -> AsyncIterator[Event]:
        """Analyse a stored answer and reply to it."""
        session = self.session
        # The next move depends on cues and claims only: the reply goes out before the
        # embedding similarity (tens to hundreds of milliseconds on a long answer) is added.
        await session.merge_pending_semantic()  # a caller that stopped reading the last turn early
        analysis, claims = await asyncio.to_thread(session.analyse, text, semantic=False)
        for event in session.analysis_events(analysis, claims):
            yield event
        if session.out_of_time():
            session.replied()
            async for event in self.finish("time_limit"):
                yield event
            return
        async for event in self.reply_with_rubric(analysis, claims, text):
            yield event
        if await session.merge_pending_semantic():
            yield session.coverage_event(analysis)

    async def reply_with_rubric(self, analysis: TurnAnalysis, claims: list[dict], answer: str) -> AsyncIterator[Event]:
        """The rubric engine's reply to an analysed answer (also the LLM interviewer's fallback).

        Questions about the problem are answered first, from the scenario's facts. A turn that is
        only questions gets those answers and the open question again, and costs no follow-up."""
        asked = clarification(self.scenario, answer)
        if asked.only_questions:
            self.session.replied()
            text = f"{clarification_reply(asked)}\n\nBack to the question: {self.session.open_question()}"
            yield self.session.say(TurnKind.followup, text, move="clarify", facts=[fact.id for fact in asked.facts])
            return
        message, advanced = await self._next_move(analysis, claims, f"{clarification_reply(asked)}\n\n" if asked else "")
        self.session.replied()
        if message is not None:
            yield message
        if advanced:
            if self.current_step is None:
                async for event in self.finish("completed"):
                    yield event
                return
            if event := self.session.step_event():
                yield event

    def _ack(self) -> str:
        return _ACKS[len(self.session.turns) % len(_ACKS)]

    async def _next_move(self, analysis: TurnAnalysis, claims: list[dict], prefix: str = "") -> tuple[InterviewerMessage | None, bool]:
        """``prefix``: what the reply says first (the answers to the candidate's questions)."""
        step = self.current_step
        assert step is not None
        if analysis.injections:
            prefix += "I only grade the technical content of your answers, so I'll set aside the part addressed to the grader. "
        can_follow_up = self.session.followups_left > 0

        wrong = next((c for c in claims if c.get("verdict") == "incorrect" and c["text"] not in self.state.challenged), None)
        if wrong is not None and can_follow_up:
            self.state.challenged.append(wrong["text"])
            self.session.count_followup()
            citation = await self.session.cite(f"{wrong.get('quantity', '')} {wrong['text']}", [])
            # A list, not an indented code block: Markdown wraps list items, while code lines ran off
            # the right edge of the transcript.
            working = "\n".join(f"- {escape_markdown(line)}" for line in wrong.get("working") or [])
            text = (
                f"{prefix}You said “{quote(wrong['text'])}”. I get a different number: {wrong['explanation']}"
                + (f"\n\nWorking:\n\n{working}" if working else "")
                + _quoted(citation)
                + "\n\nHow does that change your plan?"
            )
            return self.session.say(TurnKind.challenge, text, move="challenge", claim=wrong, citation=_dump(citation)), False

        unsure = next((c for c in claims if asks_which_quantity(c) and c["text"] not in self.state.challenged), None)
        if unsure is not None and can_follow_up:
            # A number that may be right in a scope the calculators did not compute: ask, as a careful interviewer would.
            self.state.challenged.append(unsure["text"])
            self.session.count_followup()
            text = f"{prefix}About “{quote(unsure['text'])}”: {unsure['explanation']}"
            return self.session.say(TurnKind.followup, text, move="clarify-claim", claim=unsure), False

        if step.id in analysis.wrong_answer_steps and step.id not in self.state.pushed and can_follow_up:
            self.state.pushed.append(step.id)
            said = next((m.quote for m in analysis.misconceptions if m.id == step.id), "")
            probe = self._unused(step.probes, about=said)
            if probe is not None:
                self.session.count_followup()
                related = [n for c in self.scenario.criteria if c.step == step.id for n in c.notes]
                citation = await self.session.cite(step.key_decision, related)
                text = f"{prefix}I'm not convinced by that part of your answer. {probe}{_cited(citation)}"
                return self.session.say(TurnKind.pushback, text, move="wrong-answer", citation=_dump(citation)), False

        anti = next((a for a in self.scenario.anti_patterns if a.id in analysis.anti_patterns and a.id not in self.state.pushed), None)
        if anti is not None and can_follow_up:
            self.state.pushed.append(anti.id)
            self.session.count_followup()
            citation = await self.session.cite(anti.description, anti.notes)
            text = f"{prefix}{anti.pushback}{_quoted(citation)}"
            return self.session.say(TurnKind.pushback, text, move="anti-pattern", anti_pattern=anti.id, citation=_dump(citation)), False

        if can_follow_up:
            # A criterion this very answer spoke to (an asserted cue) is not probed: its probe is
            # written to draw the point out from scratch and would ask again what was just said.
            missing = [c for c in self.session.missing_for_step(step) if not _spoke_to(analysis, c)]
            for criterion in missing:
                probe = criterion.probe if criterion.probe and criterion.probe not in self.state.used_probes else None
                probe = probe or self._step_probe_for(step, criterion, analysis)
                if probe is None:
                    break
                self.state.used_probes.append(probe)
                self.session.count_followup()
                citation = await self.session.cite(criterion.description, criterion.notes)
                text = f"{prefix}{self._ack()} {probe}{_cited(citation)}"
                return self.session.say(TurnKind.followup, text, move="probe", criterion=criterion.id, citation=_dump(citation)), False

        return self._advance(prefix), True

    def _step_probe_for(self, step: Step, criterion: Criterion, analysis: TurnAnalysis) -> str | None:
        """The step's unused probe closest to a criterion that has no probe of its own, leaving out
        probes closer to a criterion already met or just spoken to: those would ask again."""
        covered = [c for c in self.scenario.criteria if c.step == step.id and c.id != criterion.id
                   and (self.session.criterion_met(c) or _spoke_to(analysis, c))]
        target = content_stems(criterion.description)

        def asks_again(probe: str) -> bool:
            # Step probes often paraphrase a criterion's own probe ("from which event to which
            # event would you measure?"): half their content words shared is the same question.
            words = content_stems(probe)
            return any(
                len(words & content_stems(c.description)) > len(words & target)
                or (c.probe and len(words & content_stems(c.probe)) >= max(2, len(words) // 2))
                for c in covered
            )

        return self._unused([p for p in step.probes if not asks_again(p)], about=criterion.description)

    def _unused(self, probes: list[str], *, about: str = "") -> str | None:
        """The first probe not used yet; with ``about`` (the candidate's sentence), the unused probe
        that shares the most words with it, so a push-back answers the part that was wrong."""
        unused = [probe for probe in probes if probe not in self.state.used_probes]
        if not unused:
            return None
        words = content_stems(about)
        probe = max(unused, key=lambda p: len(words & content_stems(p))) if words else unused[0]
        self.state.used_probes.append(probe)
        return probe

    def _advance(self, prefix: str = "") -> InterviewerMessage | None:
        if self.session.advance() is None:
            return None
        text = f"{prefix}{self._ack()} Let's move on.\n\n{self.session.question_heading()}"
        return self.session.say(TurnKind.question, text, move="advance")

    async def hint(self) -> AsyncIterator[Event]:
        step = self.current_step
        if self.finished or step is None:
            yield Notice("No question is open, so there is no hint to give.", "warning")
            return
        if self.session.give_hint() is None:
            yield Notice("You already had the hint for this question (it is above).", "information")
            return
        penalty = f" (costs {self.session.hint_penalty:g} points)" if self.session.hint_penalty else ""
        message = self.session.say(TurnKind.hint, f"**Hint**{penalty}: {step.hint.strip()}", move="hint")
        yield HintGiven(message.turn, self.session.hints_used)

    async def skip(self) -> AsyncIterator[Event]:
        if self.finished or self.current_step is None:
            yield Notice("Nothing to skip: the interview is over.", "warning")
            return
        self.session.record_skip()
        message = self._advance()
        if message is None:
            async for event in self.finish("completed"):
                yield event
            return
        yield message
        if event := self.session.step_event():
            yield event

    async def end(self) -> AsyncIterator[Event]:
        if self.finished:
            yield ScoreReady(self.scorecard())
            return
        async for event in self.finish("ended"):
            yield event

    async def finish(self, reason: str) -> AsyncIterator[Event]:
        """Close the interview with the rubric scorer's scorecard."""
        yield await self.session.finish(reason)
        yield InterviewFinished(reason)  # type: ignore[arg-type]
        scorecard = await asyncio.to_thread(lambda: self.session.conclude(self.session.scorecard()))
        yield ScoreReady(scorecard)

    def scorecard(self) -> Scorecard:
        return self.session.scorecard()


def _spoke_to(analysis: TurnAnalysis, criterion: Criterion) -> bool:
    """Whether this answer asserted one of the criterion's cues."""
    hit = analysis.hits.get(criterion.id)
    return hit is not None and bool(hit.cues)


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
