"""The LLM interviewer: an OpenAI-compatible chat model plays the interviewer for the same scenario.

It wraps a fully built ``OfflineInterviewer`` and delegates to it everything that must stay
deterministic: storage (every turn is committed the moment it exists), the analysis of each
answer (claims checked by the calculators, rubric evidence), the step state, hints, and the
fallback. The model only writes the interviewer's words, choosing when to move on, with tools for
the knowledge base, the calculators, the claim checker, rubric coverage and private notes.

Any endpoint fault during a turn (unreachable, timeout, rate limit after retries, malformed tool
calls, an empty or cut-off reply, a stream that dies) ends LLM mode for this interview: a visible
notice, whatever text already streamed is kept (marked truncated), this turn is answered by the
rubric engine, and so is the rest of the interview. A failure is never silent and never loses a word.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interviewer.config import Settings
from interviewer.domain import Role, Scorecard, Turn, TurnKind
from interviewer.engine.evidence import TurnAnalysis
from interviewer.engine.offline import CLOSING_TEXT, OfflineInterviewer, attach_study_citations
from interviewer.engine.text import clean
from interviewer.events import (
    CandidateTurnRecorded,
    Event,
    InterviewerMessage,
    InterviewFinished,
    Notice,
    ScoreReady,
    TokenDelta,
)
from interviewer.llm.client import LLMEndpointError, describe_endpoint_error, make_chat_model
from interviewer.llm.prompts import interviewer_system_prompt, transcript_messages
from interviewer.llm.tools import TurnToolbox, rubric_coverage

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessageChunk, BaseMessage

    from rubrics.schema import Step

log = logging.getLogger(__name__)

MAX_TOOL_ROUNDS = 5
"""Model calls per turn: tool rounds plus the final reply. More means a model stuck in tool calls."""
MAX_MALFORMED_TOOL_ROUNDS = 1
"""Rounds with unparseable tool-call arguments the model may repair (it is told what was wrong)."""


class LLMReplyError(LLMEndpointError):
    """The endpoint answered, but not with a usable reply (empty, cut off, malformed tool calls)."""


@dataclass
class _Streamed:
    text: str = ""


class LLMInterviewer:
    """Implements ``InterviewAgent`` with a chat model for the words and the offline engine for the rest."""

    def __init__(self, offline: OfflineInterviewer, *, settings: Settings, chat_model: BaseChatModel | None = None):
        self.offline = offline
        """The rubric engine: state, storage, analysis and the fallback."""
        self.settings = settings
        self.scenario = offline.scenario
        self.interview_id = offline.interview_id
        self.level = offline.level
        self.model_name = settings.llm_model or "unknown"
        self._chat_model = chat_model
        """Injected (tests, other providers); otherwise built lazily from ``settings``."""
        self._strict_stream = chat_model is None
        """OpenAI-compatible streams end with a finish_reason; a stream without one died mid-reply."""
        self._final: Scorecard | None = None
        self._carried_notes: list[str] = []
        self.mode = f"llm:{self.model_name}"
        if self.fallback_reason is not None:
            self._use_offline_label()

    # -- InterviewAgent properties (the offline engine holds the state) --------------------------

    @property
    def turns(self) -> list[Turn]:
        return self.offline.turns

    @property
    def step_index(self) -> int:
        return self.offline.step_index

    @property
    def current_step(self) -> Step | None:
        return self.offline.current_step

    @property
    def finished(self) -> bool:
        return self.offline.finished

    @property
    def hints_used(self) -> int:
        return self.offline.hints_used

    @property
    def claims(self) -> list[dict]:
        return self.offline.claims

    @property
    def covered_criteria(self) -> set[str]:
        return self.offline.covered_criteria

    def remaining_seconds(self) -> float | None:
        return self.offline.remaining_seconds()

    @property
    def fallback_reason(self) -> str | None:
        """Why this interview left LLM mode (persisted in the state, so a resumed interview stays offline)."""
        return self.offline.state.get("llm_fallback")

    @property
    def state(self) -> dict[str, Any]:
        return self.offline.state

    # -- the conversation ------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Event]:
        state = self.offline.state
        if self.fallback_reason is None and state["started"] and not self.finished and state["pending_answer"]:
            # Interrupted after the answer was stored and before the reply: the model answers it now.
            last = next((t for t in reversed(self.offline.turns) if t.role is Role.candidate), None)
            if last is not None:
                if event := self.offline._step_event():
                    yield event
                yield Notice("Resumed: replying to your last answer.")
                async for event in self._reply_to(last.text):
                    yield event
                return
        # The opening (scenario, given facts, first question) is the scenario's own text, word for
        # word: every fact and number in it must be exactly right.
        async for event in self.offline.start():
            yield event

    async def respond(self, answer: str) -> AsyncIterator[Event]:
        if self.fallback_reason is not None:
            async for event in self.offline.respond(answer):
                yield event
            return
        if self.finished:
            yield Notice("This interview is finished; open the scorecard or start a new one.", "warning")
            return
        text = clean(answer)
        if not text.strip():
            yield Notice("Your answer is empty: type an answer, or ask for a hint or skip this question.", "warning")
            return
        self.offline.state["pending_answer"] = True
        step = self.current_step
        candidate = self.offline._record(
            Turn(role=Role.candidate, kind=TurnKind.answer, text=text, step_id=step.id if step else None)
        )
        yield CandidateTurnRecorded(candidate)
        async for event in self._reply_to(text):
            yield event

    async def _reply_to(self, text: str) -> AsyncIterator[Event]:
        analysis, claims = await asyncio.to_thread(self.offline._analyse, text)
        for event in self.offline.analysis_events(analysis, claims):
            yield event
        if self.offline.out_of_time():
            self.offline.state["pending_answer"] = False
            async for event in self._finish("time_limit"):
                yield event
            return
        async for event in self._llm_reply(analysis, claims):
            yield event

    async def _llm_reply(self, analysis: TurnAnalysis, claims: list[dict]) -> AsyncIterator[Event]:
        offline, state = self.offline, self.offline.state
        step = offline.current_step
        assert step is not None
        must_move_on = state["followups"] >= offline.max_followups
        toolbox = TurnToolbox(offline, allow_next_question=not must_move_on)
        system = interviewer_system_prompt(
            self.scenario,
            level=self.level,
            step=step,
            step_index=offline.step_index,
            coverage=rubric_coverage(self.scenario, state, step.id),
            claims=claims,
            followups_left=max(0, offline.max_followups - state["followups"]),
            grader_addressed=bool(analysis.injections),
            must_move_on=must_move_on,
        )
        from langchain_core.messages import SystemMessage

        messages: list[BaseMessage] = [SystemMessage(system), *transcript_messages(offline.turns)]
        streamed = _Streamed()
        try:
            async for piece in self._converse(messages, toolbox, streamed):
                yield TokenDelta(piece)
            if not streamed.text.strip() and not (must_move_on or toolbox.next_question_requested):
                raise LLMReplyError(f"empty reply from model '{self.model_name}'")
        except asyncio.CancelledError:
            if streamed.text.strip():
                self._keep_partial(streamed, toolbox, cancelled=True)
            raise
        except Exception as exc:  # every endpoint fault: fall back, keeping what was said
            reason = describe_endpoint_error(exc, self.settings)
            log.warning("LLM turn failed, falling back to the offline interviewer: %s", reason)
            notes = [*self._carried_notes, *toolbox.notes]
            if streamed.text.strip():
                yield self._keep_partial(streamed, toolbox)
                notes = []
            yield self._fall_back(reason, notes)
            async for event in offline.reply_with_rubric(analysis, claims):
                yield event
            return

        text = streamed.text.strip()
        advance = must_move_on or toolbox.next_question_requested
        meta: dict[str, Any] = {
            "mode": "llm",
            "model": self.model_name,
            "move": "advance" if advance else "llm",
            "tool_calls": [call.as_meta() for call in toolbox.calls],
            "private_notes": [*self._carried_notes, *toolbox.notes],
        }
        last_step = offline.step_index + 1 >= len(self.scenario.steps)
        if advance and not last_step:
            next_step = offline.advance_step()
            assert next_step is not None
            heading = f"**Question {offline.step_index + 1} of {len(self.scenario.steps)}.** {next_step.question.strip()}"
            suffix = f"\n\n{heading}" if text else heading
            yield TokenDelta(suffix)
            text += suffix
            kind = TurnKind.question
        elif advance:
            kind = TurnKind.followup  # the acknowledgement of the last answer, filed under the last step
        else:
            state["followups"] += 1
            kind = TurnKind.challenge if any(c.get("verdict") == "incorrect" for c in claims) else TurnKind.followup
        state["pending_answer"] = False
        if text:
            self._carried_notes = []
            yield offline._say(kind, text, **meta)
        else:
            self._carried_notes = meta["private_notes"]  # kept for the closing turn
        if advance and last_step:
            offline.advance_step()
            async for event in self._finish("completed"):
                yield event
            return
        if advance and (event := offline._step_event()):
            yield event

    async def _converse(self, messages: list[BaseMessage], toolbox: TurnToolbox, streamed: _Streamed) -> AsyncIterator[str]:
        """Stream the model's reply, running its tool calls between rounds; yields text as it arrives."""
        from langchain_core.messages import AIMessage, ToolMessage

        tools = toolbox.tools()
        by_name = {tool.name: tool for tool in tools}
        model = self._model().bind_tools(tools)
        malformed_rounds = 0
        for round_index in range(MAX_TOOL_ROUNDS):
            aggregate: AIMessageChunk | None = None
            separate = bool(streamed.text.strip())
            async for chunk in model.astream(messages):
                aggregate = chunk if aggregate is None else aggregate + chunk
                piece = chunk.text
                if piece:
                    if separate:
                        piece, separate = f"\n\n{piece.lstrip()}", False
                    streamed.text += piece
                    yield piece
            if aggregate is None:
                raise LLMReplyError(f"empty reply from model '{self.model_name}' (the stream carried nothing)")
            finish = (aggregate.response_metadata or {}).get("finish_reason")
            if finish == "length":
                raise LLMReplyError(f"the reply from model '{self.model_name}' was cut off (finish_reason=length)")
            if finish == "content_filter":
                raise LLMReplyError(f"the endpoint's content filter stopped the reply from model '{self.model_name}'")
            if finish is None and self._strict_stream:
                raise LLMReplyError(f"the stream from model '{self.model_name}' ended before the reply was complete")
            calls, malformed = _tool_calls(aggregate, round_index)
            if not calls and not malformed:
                return
            messages.append(AIMessage(content=aggregate.content, tool_calls=calls, invalid_tool_calls=malformed))
            if malformed:
                malformed_rounds += 1
                if malformed_rounds > MAX_MALFORMED_TOOL_ROUNDS:
                    names = ", ".join(sorted({m.get("name") or "?" for m in malformed}))
                    raise LLMReplyError(f"malformed tool call from model '{self.model_name}' ({names}: arguments are not valid JSON)")
            for call in calls:
                result = await asyncio.to_thread(toolbox.run, by_name, call["name"], call["args"])
                messages.append(ToolMessage(result, tool_call_id=call["id"], name=call["name"]))
            for bad in malformed:
                messages.append(
                    ToolMessage(
                        f"error: the arguments of {bad.get('name')} were not valid JSON ({str(bad.get('args'))[:200]!r}); "
                        "call the tool again with a JSON object of arguments",
                        tool_call_id=bad["id"],
                        name=bad.get("name") or "unknown",
                    )
                )
        raise LLMReplyError(f"model '{self.model_name}' kept calling tools without replying ({MAX_TOOL_ROUNDS} rounds)")

    def _model(self) -> BaseChatModel:
        if self._chat_model is None:
            self._chat_model = make_chat_model(self.settings, streaming=True)
        return self._chat_model

    def _keep_partial(self, streamed: _Streamed, toolbox: TurnToolbox, *, cancelled: bool = False) -> InterviewerMessage:
        """Store the text that streamed before the failure, so nothing already said is lost."""
        meta: dict[str, Any] = {
            "mode": "llm",
            "model": self.model_name,
            "move": "llm",
            "truncated": True,
            "tool_calls": [call.as_meta() for call in toolbox.calls],
            "private_notes": [*self._carried_notes, *toolbox.notes],
        }
        if cancelled:
            meta["cancelled"] = True
        self._carried_notes = []
        return self.offline._say(TurnKind.followup, streamed.text.strip(), **meta)

    def _use_offline_label(self) -> None:
        self.mode = f"offline (fallback from llm:{self.model_name})"
        self.offline.mode = self.mode

    def _fall_back(self, reason: str, notes: list[str]) -> Notice:
        """Leave LLM mode for the rest of this interview, with a notice in the UI and in the transcript
        (which also keeps any private notes not yet stored with a message)."""
        self.offline.state["llm_fallback"] = reason
        self._use_offline_label()
        self._carried_notes = []
        text = f"{reason}; continuing with the offline interviewer"
        meta: dict[str, Any] = {"fallback": reason}
        if notes:
            meta["private_notes"] = notes
        self.offline._record(Turn(role=Role.system, kind=TurnKind.notice, text=text, meta=meta))
        return Notice(text, "warning")

    # -- hints, skips, the end -------------------------------------------------------------------

    async def hint(self) -> AsyncIterator[Event]:
        async for event in self.offline.hint():
            yield event

    async def skip(self) -> AsyncIterator[Event]:
        if self.fallback_reason is not None:
            async for event in self.offline.skip():
                yield event
            return
        step = self.current_step
        if self.finished or step is None:
            yield Notice("Nothing to skip: the interview is over.", "warning")
            return
        self.offline._record(Turn(role=Role.candidate, kind=TurnKind.skip, text="(skipped)", step_id=step.id))
        message = self.offline._advance()
        if message is None:
            async for event in self._finish("completed"):
                yield event
            return
        yield message
        if event := self.offline._step_event():
            yield event

    async def end(self) -> AsyncIterator[Event]:
        if self.fallback_reason is not None:
            async for event in self.offline.end():
                yield event
            return
        if self.finished:
            yield ScoreReady(self.scorecard())
            return
        async for event in self._finish("ended"):
            yield event

    async def _finish(self, reason: str) -> AsyncIterator[Event]:
        state = self.offline.state
        state["finished"] = True
        state["finish_reason"] = reason
        meta: dict[str, Any] = {"move": "close", "mode": "llm", "model": self.model_name}
        if self._carried_notes:
            meta["private_notes"], self._carried_notes = self._carried_notes, []
        yield self.offline._say(TurnKind.closing, CLOSING_TEXT[reason], **meta)
        yield InterviewFinished(reason)  # type: ignore[arg-type]
        scorecard, problem = await asyncio.to_thread(self._grade)
        if problem:
            yield Notice(problem, "warning")
        yield ScoreReady(scorecard)

    def _grade(self) -> tuple[Scorecard, str | None]:
        """The LLM's scorecard (the rubric scorer's if the endpoint fails), stored with the interview."""
        from interviewer.llm.grading import fallback_scorecard, llm_scorecard

        deterministic = self.offline.scorecard()
        problem = None
        try:
            scorecard = llm_scorecard(
                self.scenario,
                self.offline.turns,
                deterministic,
                self.settings,
                chat_model=self._chat_model if not self._strict_stream else None,
            )
        except Exception as exc:  # the rubric scorer's card is always a complete answer
            reason = describe_endpoint_error(exc, self.settings)
            log.warning("LLM grading failed: %s", reason)
            problem = f"LLM grading failed ({reason}); the scorecard is the rubric scorer's."
            scorecard = fallback_scorecard(deterministic, reason, self.settings)
        scorecard = attach_study_citations(scorecard)
        if self.offline.store is not None and self.offline.interview_id is not None:
            from interviewer.domain import InterviewStatus

            self.offline.store.finish(self.offline.interview_id, scorecard, InterviewStatus.finished)
        self._final = scorecard
        return scorecard, problem

    def scorecard(self) -> Scorecard:
        if self._final is not None:
            return self._final
        offline = self.offline
        if self.finished and offline.store is not None and offline.interview_id is not None:
            stored = offline.store.get(offline.interview_id).scorecard
            if stored is not None:
                return stored
        return offline.scorecard()


def _tool_calls(message: AIMessageChunk, round_index: int) -> tuple[list[dict], list[dict]]:
    """Tool calls with arguments that parse as a JSON object, and the ones that do not.

    LangChain parses streamed arguments leniently (a cut-off ``{"a": 1, "b": `` becomes
    ``{"a": 1}``), which would run a tool on inputs the model never finished; the raw argument
    strings are checked here instead.
    """
    valid: list[dict] = []
    malformed: list[dict] = []
    raw = message.tool_call_chunks
    if raw:
        for position, chunk in enumerate(raw):
            call_id = chunk.get("id") or f"call_{round_index}_{position}"
            name = chunk.get("name") or ""
            arguments = chunk.get("args") or "{}"
            try:
                parsed = json.loads(arguments)
            except json.JSONDecodeError as exc:
                malformed.append({"type": "invalid_tool_call", "id": call_id, "name": name, "args": arguments, "error": str(exc)})
                continue
            if not isinstance(parsed, dict) or not name:
                malformed.append({"type": "invalid_tool_call", "id": call_id, "name": name, "args": arguments, "error": "not an object"})
                continue
            valid.append({"type": "tool_call", "id": call_id, "name": name, "args": parsed})
        return valid, malformed
    for position, call in enumerate(message.tool_calls):
        valid.append({**call, "id": call.get("id") or f"call_{round_index}_{position}"})
    for position, bad in enumerate(message.invalid_tool_calls):
        malformed.append({**bad, "id": bad.get("id") or f"bad_{round_index}_{position}"})
    return valid, malformed
