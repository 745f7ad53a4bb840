"""The LLM policy: an OpenAI-compatible chat model plays the interviewer for the same scenario.

It drives the same ``InterviewSession`` as the rubric policy, through the session's public methods
only: storage (every turn is committed the moment it exists), the analysis of each answer (claims
checked by the calculators, rubric evidence), the step state and hints stay deterministic. The model
only writes the interviewer's words, choosing when to move on, with tools for the knowledge base,
the calculators the scenario uses, the claim checker, coverage and private notes.

What the candidate sees is filtered as it streams (``llm.stream``): reasoning and tool calls written
as text never reach the screen or the transcript. Every request is fitted into
``llm_context_tokens`` first (``llm.budget``).

An endpoint fault during a turn (unreachable, timeout, the turn's deadline, rate limit after
retries, malformed tool calls after one repair, an empty or cut-off reply, a stream that dies)
costs that turn only: a visible notice, whatever text already streamed is kept (marked truncated),
and the rubric policy answers this one answer. After ``llm_max_strikes`` failed turns, or at once
on a fault that cannot heal (bad key, unknown model, a server that cannot call tools), the
interview leaves LLM mode. LLM grading is still attempted at the end, with its own timeout. A
failure is never silent and never loses a word.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interviewer.config import Settings
from interviewer.domain import Scorecard, TurnKind
from interviewer.engine.clarify import clarification
from interviewer.engine.evidence import TurnAnalysis
from interviewer.engine.offline import OfflineInterviewer
from interviewer.engine.session import InterviewSession, SessionView
from interviewer.engine.text import clean
from interviewer.events import Event, InterviewerMessage, InterviewFinished, Notice, ScoreReady, TokenDelta
from interviewer.llm.budget import fit_history, fit_round, request_tokens, tool_schemas, undercount_warning
from interviewer.llm.client import LLMEndpointError, describe_endpoint_error, is_permanent, make_chat_model
from interviewer.llm.prompts import interviewer_system_prompt, transcript_messages
from interviewer.llm.stream import StreamFilter, parse_text_tool_calls
from interviewer.llm.tools import TurnToolbox, rubric_coverage

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessageChunk, BaseMessage

    from rubrics.schema import Scenario

log = logging.getLogger(__name__)

MAX_TOOL_ROUNDS = 5
"""Model calls per turn: tool rounds plus the final reply. More means a model stuck in tool calls."""
MAX_MALFORMED_TOOL_ROUNDS = 1
"""Rounds with unparseable tool-call arguments the model may repair (it is told what was wrong)."""
RAW_ARGUMENTS_SHOWN = 300
"""Characters of a malformed call's raw arguments quoted back to the model in the repair."""


class LLMReplyError(LLMEndpointError):
    """The endpoint answered, but not with a usable reply (empty, cut off, malformed tool calls)."""


class TurnDeadline(LLMEndpointError):
    """The turn took longer than ``llm_turn_timeout`` in all."""


@dataclass
class Round:
    """One model call of a turn, as it streamed."""

    sent: int
    """Estimated prompt tokens of the request."""
    hygiene: StreamFilter = field(default_factory=StreamFilter)
    aggregate: AIMessageChunk | None = None
    finish: str | None = None
    raw_calls: list[dict[str, Any]] = field(default_factory=list)
    """Tool calls as streamed, assembled here rather than by LangChain, which merges every delta
    that shares an index: Ollama sends parallel calls all at index 0 (each whole, with its own id),
    and some servers repeat the name in every delta ("next_questionnext_question")."""
    _open: dict[Any, dict[str, Any]] = field(default_factory=dict)

    def add_tool_chunks(self, chunks: list[dict[str, Any]]) -> None:
        for chunk in chunks:
            index, call_id, name = chunk.get("index"), chunk.get("id"), chunk.get("name") or ""
            current = self._open.get(index)
            if current is None or (call_id and current["id"] and call_id != current["id"]):
                current = {"index": index, "id": call_id, "name": name, "args": chunk.get("args") or ""}
                self.raw_calls.append(current)
                self._open[index] = current
                continue
            if name and name != current["name"]:
                current["name"] += name  # a name split over deltas; the same name again is a repeat
            current["id"] = current["id"] or call_id
            current["args"] += chunk.get("args") or ""

    @property
    def server_count(self) -> int | None:
        usage = getattr(self.aggregate, "usage_metadata", None) or {}
        return usage.get("input_tokens")

    def undercount(self, context_tokens: int) -> str | None:
        return undercount_warning(self.sent, self.server_count, context_tokens)

    def raise_unless_complete(self, model_name: str, *, strict: bool) -> None:
        if self.aggregate is None:
            raise LLMReplyError(f"empty reply from model '{model_name}' (the stream carried nothing)")
        if self.finish == "length":
            raise LLMReplyError(f"the reply from model '{model_name}' was cut off (finish_reason=length)")
        if self.finish == "content_filter":
            raise LLMReplyError(f"the endpoint's content filter stopped the reply from model '{model_name}'")
        if self.finish is None and strict:
            raise LLMReplyError(f"the stream from model '{model_name}' ended before the reply was complete")


@dataclass
class _Streamed:
    text: str = ""
    private: list[str] = field(default_factory=list)
    """Reasoning the filter held back (kept in the turn's meta, never shown)."""


class LLMInterviewer(SessionView):
    """Implements ``InterviewAgent`` with a chat model for the words and the session for the rest."""

    def __init__(self, session: InterviewSession, *, settings: Settings, chat_model: BaseChatModel | None = None):
        self.session = session
        """The interview's state, transcript and storage, shared with the fallback policy."""
        self.rubric = OfflineInterviewer(session=session)
        """The rubric policy: answers a turn the endpoint failed, and the rest after too many strikes."""
        self.settings = settings
        self.scenario: Scenario = session.scenario
        self.interview_id = session.interview_id
        self.level = session.level
        self.model_name = settings.llm_model or "unknown"
        self._chat_model = chat_model
        """Injected (tests, other providers); otherwise built lazily from ``settings``."""
        self._strict_stream = chat_model is None
        """OpenAI-compatible streams end with a finish_reason; a stream without one died mid-reply."""
        self._final: Scorecard | None = None
        self._carried_notes: list[str] = []
        self._warned_undercount = False
        self._reasoning_first = False
        """The model was seen to stream its reasoning with the opener in the prompt (a bare </think>)."""
        session.mode = f"llm:{self.model_name}"
        if self.fallback_reason is not None:
            self._use_offline_label()

    @property
    def fallback_reason(self) -> str | None:
        """Why this interview left LLM mode (persisted in the state, so a resumed interview stays offline)."""
        return self.session.state.llm_fallback

    # -- the conversation ------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Event]:
        session = self.session
        if self.fallback_reason is None and session.state.started and not self.finished and session.state.pending_answer:
            # Interrupted after the answer was stored and before the reply: the model answers it now.
            last = session.last_answer()
            if last is not None:
                if event := session.step_event():
                    yield event
                yield Notice("Resumed: replying to your last answer.")
                async for event in self._reply_to(last.text):
                    yield event
                return
        # The opening (scenario, given facts, first question) is the scenario's own text, word for
        # word: every fact and number in it must be exactly right.
        async for event in self._offline_until_the_end(self.rubric.start()):
            yield event

    async def respond(self, answer: str) -> AsyncIterator[Event]:
        if self.fallback_reason is not None:
            async for event in self._offline_until_the_end(self.rubric.respond(answer)):
                yield event
            return
        if self.finished:
            yield Notice("This interview is finished; open the scorecard or start a new one.", "warning")
            return
        text = clean(answer)
        if not text.strip():
            yield Notice("Your answer is empty: type an answer, or ask for a hint or skip this question.", "warning")
            return
        yield self.session.record_answer(text)
        async for event in self._reply_to(text):
            yield event

    async def _reply_to(self, text: str) -> AsyncIterator[Event]:
        session = self.session
        analysis, claims = await asyncio.to_thread(session.analyse, text)
        for event in session.analysis_events(analysis, claims):
            yield event
        if session.out_of_time():
            session.replied()
            async for event in self._finish("time_limit"):
                yield event
            return
        async for event in self._llm_reply(analysis, claims, text):
            yield event

    def first_request(
        self, toolbox: TurnToolbox, analysis: TurnAnalysis, claims: list[dict], must_move_on: bool = False, only_questions: bool = False
    ) -> list[BaseMessage]:
        """The turn's first request (system prompt and history), fitted into the context budget."""
        from langchain_core.messages import SystemMessage

        session = self.session
        step = session.current_step
        assert step is not None

        def system(omitted: int) -> SystemMessage:
            return SystemMessage(
                interviewer_system_prompt(
                    self.scenario,
                    level=self.level,
                    step=step,
                    step_index=session.step_index,
                    coverage=rubric_coverage(self.scenario, session.state, step.id),
                    claims=claims,
                    followups_left=session.followups_left,
                    grader_addressed=bool(analysis.injections),
                    must_move_on=must_move_on,
                    omitted_messages=omitted,
                    only_questions=only_questions,
                )
            )

        history = transcript_messages(session.turns)
        tools_tokens = request_tokens([], schemas=tool_schemas(toolbox.tools()))
        budget = dict(tools_tokens=tools_tokens, context_tokens=self.settings.llm_context_tokens, reply_tokens=self.settings.llm_max_tokens)
        kept, omitted = fit_history(system(0), history, **budget)
        if omitted:
            kept, omitted = fit_history(system(omitted + 2), history, **budget)  # the note itself costs a few tokens
        return [system(omitted), *kept]

    async def _llm_reply(self, analysis: TurnAnalysis, claims: list[dict], answer: str) -> AsyncIterator[Event]:
        session = self.session
        # A turn that only asks about the problem is answered and costs no follow-up (as offline).
        only_questions = clarification(self.scenario, answer).only_questions
        must_move_on = session.followups_left == 0 and not only_questions
        toolbox = TurnToolbox(session, allow_next_question=not (must_move_on or only_questions))
        streamed = _Streamed()
        try:
            messages = self.first_request(toolbox, analysis, claims, must_move_on, only_questions)
            async for event in self._converse(messages, toolbox, streamed):
                yield event
            if not streamed.text.strip() and not (must_move_on or toolbox.next_question_requested):
                raise LLMReplyError(f"empty reply from model '{self.model_name}'")
        except asyncio.CancelledError:
            if streamed.text.strip():
                self._keep_partial(streamed, toolbox, cancelled=True)
            raise
        except Exception as exc:  # every endpoint fault: this turn goes to the rubric policy, keeping what was said
            reason = describe_endpoint_error(exc, self.settings)
            log.warning("LLM turn failed, the rubric engine answers it: %s", reason)
            notes = [*self._carried_notes, *toolbox.notes]
            if streamed.text.strip():
                yield self._keep_partial(streamed, toolbox)
                notes = []
            yield self._strike(reason, notes, permanent=is_permanent(exc))
            replies = self.rubric.reply_with_rubric(analysis, claims, answer)
            async for event in self._offline_until_the_end(replies):
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
        if streamed.private:
            meta["reasoning"] = streamed.private
        last_step = session.is_last_step
        if advance and not last_step:
            session.advance()
            heading = session.question_heading()
            suffix = f"\n\n{heading}" if text else heading
            yield TokenDelta(suffix)
            text += suffix
            kind = TurnKind.question
        elif advance:
            kind = TurnKind.followup  # the acknowledgement of the last answer, filed under the last step
        elif only_questions:
            kind = TurnKind.followup
            meta["move"] = "clarify"
        else:
            session.count_followup()
            kind = TurnKind.challenge if any(c.get("verdict") == "incorrect" for c in claims) else TurnKind.followup
        session.replied()
        if text:
            self._carried_notes = []
            yield session.say(kind, text, **meta)
        else:
            self._carried_notes = meta["private_notes"]  # kept for the closing turn
        if advance and last_step:
            session.advance()
            async for event in self._finish("completed"):
                yield event
            return
        if advance and (event := session.step_event()):
            yield event

    async def _converse(self, messages: list[BaseMessage], toolbox: TurnToolbox, streamed: _Streamed) -> AsyncIterator[Event]:
        """Stream the model's reply, running its tool calls between rounds; yields the visible text as
        it arrives (and a notice when the server seems to have truncated the prompt)."""
        from langchain_core.messages import AIMessage, ToolMessage

        deadline = asyncio.get_running_loop().time() + self.settings.llm_turn_timeout
        tools = toolbox.tools()
        by_name = {tool.name: tool for tool in tools}
        schemas = tool_schemas(tools)
        model = self.chat_model().bind_tools(tools)
        malformed_rounds = 0
        for round_index in range(MAX_TOOL_ROUNDS):
            sent = fit_round(messages, schemas=schemas, context_tokens=self.settings.llm_context_tokens, reply_tokens=self.settings.llm_max_tokens)
            current = Round(sent=sent, hygiene=StreamFilter(reasoning_first=self._reasoning_first))
            before = streamed.text
            separate = bool(before.strip())
            async for piece in self.stream_round(model, messages, current, deadline):
                if separate:
                    piece, separate = f"\n\n{piece.lstrip()}", False
                streamed.text += piece
                yield TokenDelta(piece)
            hygiene = current.hygiene
            if hygiene.retracted:
                # A bare </think>: what streamed before it was reasoning. The stored turn (which the
                # TUI draws over the streamed text) keeps only the reply, and the next rounds hold
                # the start back until the close tag.
                self._reasoning_first = True
                streamed.text = f"{before}\n\n{hygiene.visible}" if before.strip() and hygiene.visible else before + hygiene.visible
            streamed.private += hygiene.private
            if (warning := self._undercount(current)) is not None:
                yield warning
            current.raise_unless_complete(self.model_name, strict=self._strict_stream)
            calls, malformed = _tool_calls(current, round_index)
            if not calls and not malformed and hygiene.tool_texts:
                calls, malformed = _text_tool_calls(hygiene.tool_texts, round_index)
            if not calls and not malformed:
                return
            # A malformed call is replayed with empty arguments (servers reject invalid JSON in the
            # history with a 400), and its raw text goes back in the tool result.
            replayed = [*calls, *({"type": "tool_call", "id": bad["id"], "name": bad.get("name") or "unknown_tool", "args": {}} for bad in malformed)]
            messages.append(AIMessage(content=hygiene.visible, tool_calls=replayed))
            if malformed:
                malformed_rounds += 1
                if malformed_rounds > MAX_MALFORMED_TOOL_ROUNDS:
                    names = ", ".join(sorted({m.get("name") or "?" for m in malformed}))
                    raise LLMReplyError(f"malformed tool call from model '{self.model_name}' ({names}: arguments are not valid JSON)")
            for call in calls:
                result = await self._run_tool(toolbox, by_name, call["name"], call["args"])
                messages.append(ToolMessage(result, tool_call_id=call["id"], name=call["name"]))
            for bad in malformed:
                raw = str(bad.get("args") or "")[:RAW_ARGUMENTS_SHOWN]
                messages.append(
                    ToolMessage(
                        f"error: the arguments of {bad.get('name') or 'this call'} were not valid JSON, so it did not run "
                        f"(you sent: {raw!r}); call the tool again with a JSON object of arguments",
                        tool_call_id=bad["id"],
                        name=bad.get("name") or "unknown_tool",
                    )
                )
        raise LLMReplyError(f"model '{self.model_name}' kept calling tools without replying ({MAX_TOOL_ROUNDS} rounds)")

    async def stream_round(self, model: Any, messages: list[BaseMessage], current: Round, deadline: float) -> AsyncIterator[str]:
        """One model call, streamed under the turn's deadline; yields the text the candidate may see
        and fills ``current`` (the whole message, the last finish_reason, what the filter held back)."""
        loop = asyncio.get_running_loop()
        stream = model.astream(messages).__aiter__()
        while True:
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                chunk = await asyncio.wait_for(stream.__anext__(), remaining)
            except StopAsyncIteration:
                break
            except TimeoutError:
                await stream.aclose()
                raise TurnDeadline(
                    f"model '{self.model_name}' took longer than llm_turn_timeout ({self.settings.llm_turn_timeout:g} s)"
                ) from None
            current.aggregate = chunk if current.aggregate is None else current.aggregate + chunk
            # The last non-empty finish_reason: servers repeat it, or send it on a content chunk,
            # and LangChain concatenates the repeats ("lengthlength").
            current.finish = (chunk.response_metadata or {}).get("finish_reason") or current.finish
            current.add_tool_chunks(getattr(chunk, "tool_call_chunks", None) or [])
            if piece := current.hygiene.feed(chunk.text):
                yield piece
        if tail := current.hygiene.close():
            yield tail

    async def _run_tool(self, toolbox: TurnToolbox, by_name: dict, name: str, args: Any) -> str:
        """Run one tool call in a thread, under ``llm_tool_timeout``; a slow tool is an error result."""
        limit = self.settings.llm_tool_timeout
        try:
            return await asyncio.wait_for(asyncio.to_thread(toolbox.run, by_name, name, args), limit)
        except TimeoutError:
            log.warning("tool %s took longer than %g s", name, limit)
            return toolbox.timed_out(name, args, limit)

    def _undercount(self, current: Round) -> Notice | None:
        warning = current.undercount(self.settings.llm_context_tokens)
        if warning is None or self._warned_undercount:
            return None
        self._warned_undercount = True
        log.warning("%s", warning)
        self.session.record_notice(warning, undercount={"sent_estimate": current.sent, "server_count": current.server_count})
        return Notice(warning, "warning")

    def chat_model(self) -> BaseChatModel:
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
        return self.session.say(TurnKind.followup, streamed.text.strip(), **meta)

    def _use_offline_label(self) -> None:
        self.session.mode = f"offline (fallback from llm:{self.model_name})"

    def _strike(self, reason: str, notes: list[str], *, permanent: bool) -> Notice:
        """Count a failed turn, with a notice in the UI and in the transcript (which also keeps any
        private notes not yet stored with a message); leave LLM mode after too many, or at once
        when the fault cannot heal."""
        state = self.session.state
        state.llm_strikes += 1
        self._carried_notes = []
        meta: dict[str, Any] = {"fallback": reason, "strike": state.llm_strikes}
        if notes:
            meta["private_notes"] = notes
        if permanent or state.llm_strikes >= self.settings.llm_max_strikes:
            state.llm_fallback = reason
            state.llm_unusable = permanent
            self._use_offline_label()
            text = f"{reason}; continuing with the offline interviewer"
        else:
            left = self.settings.llm_max_strikes - state.llm_strikes
            text = f"{reason}; the offline interviewer answered this turn (LLM mode continues; {left} more failed turn{'s' if left != 1 else ''} ends it)"
        self.session.record_notice(text, **meta)
        return Notice(text, "warning")

    async def _offline_until_the_end(self, events: AsyncIterator[Event]) -> AsyncIterator[Event]:
        """The rubric policy's events, with its closing replaced by the LLM grading attempt."""
        async for event in events:
            if isinstance(event, InterviewFinished):
                if self._carried_notes:
                    self.session.record_notice("private notes of the last turn", private_notes=self._carried_notes)
                    self._carried_notes = []
                yield event
                async for graded in self._grade_events():
                    yield graded
                return
            if isinstance(event, ScoreReady):
                continue  # a rubric policy finish without InterviewFinished does not happen; be safe
            yield event

    # -- hints, skips, the end -------------------------------------------------------------------

    async def hint(self) -> AsyncIterator[Event]:
        async for event in self.rubric.hint():
            yield event

    async def skip(self) -> AsyncIterator[Event]:
        async for event in self._offline_until_the_end(self.rubric.skip()):
            yield event

    async def end(self) -> AsyncIterator[Event]:
        if self.finished:
            yield ScoreReady(self.scorecard())
            return
        async for event in self._finish("ended"):
            yield event

    async def _finish(self, reason: str) -> AsyncIterator[Event]:
        meta: dict[str, Any] = {"mode": "llm" if self.fallback_reason is None else "offline", "model": self.model_name}
        if self._carried_notes:
            meta["private_notes"], self._carried_notes = self._carried_notes, []
        yield await self.session.finish(reason, **meta)
        yield InterviewFinished(reason)  # type: ignore[arg-type]
        async for event in self._grade_events():
            yield event

    async def _grade_events(self) -> AsyncIterator[Event]:
        if self.state.llm_unusable:
            # The endpoint cannot serve this interview at all (bad key, unknown model, ...): the
            # notice that ended LLM mode said so; the rubric scorer's card says it again.
            self._final = card = await asyncio.to_thread(lambda: self.session.conclude(self.session.scorecard()))
            yield ScoreReady(card)
            return
        scorecard, problem = await asyncio.to_thread(self._grade)
        if problem:
            yield Notice(problem, "warning")
        yield ScoreReady(scorecard)

    def _grade(self) -> tuple[Scorecard, str | None]:
        """The LLM's scorecard (the rubric scorer's, with a notice, if grading fails), stored with the
        interview. Attempted even after the interview left LLM mode: the grader is one request with
        its own timeout."""
        from interviewer.llm.grading import fallback_scorecard, llm_scorecard

        deterministic = self.session.scorecard()
        problem = None
        try:
            scorecard = llm_scorecard(
                self.scenario,
                self.session.turns,
                deterministic,
                self.settings,
                chat_model=self._chat_model if not self._strict_stream else None,
            )
        except Exception as exc:  # the rubric scorer's card is always a complete answer
            reason = describe_endpoint_error(exc, self.settings)
            log.warning("LLM grading failed: %s", reason)
            problem = f"LLM grading failed ({reason}); the scorecard is the rubric scorer's."
            scorecard = fallback_scorecard(deterministic, reason, self.settings)
        self._final = scorecard = self.session.conclude(scorecard)
        return scorecard, problem

    def scorecard(self) -> Scorecard:
        if self._final is not None:
            return self._final
        stored = self.session.stored_scorecard()
        return stored if stored is not None else self.session.scorecard()


def _tool_calls(current: Round, round_index: int) -> tuple[list[dict], list[dict]]:
    """Tool calls with arguments that parse as a JSON object, and the ones that do not.

    LangChain parses streamed arguments leniently (a cut-off ``{"a": 1, "b": `` becomes
    ``{"a": 1}``), which would run a tool on inputs the model never finished; the raw argument
    strings are checked here instead (assembled by ``Round.add_tool_chunks``).
    """
    valid: list[dict] = []
    malformed: list[dict] = []
    raw = current.raw_calls
    message = current.aggregate
    assert message is not None
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


def _text_tool_calls(texts: list[str], round_index: int) -> tuple[list[dict], list[dict]]:
    """Tool calls the model wrote as text, as real calls (ids of our own); unparseable ones as malformed."""
    parsed, bad = parse_text_tool_calls(texts)
    calls = [{"type": "tool_call", "id": f"text_call_{round_index}_{i}", "name": name, "args": args} for i, (name, args) in enumerate(parsed)]
    malformed = [{"type": "invalid_tool_call", "id": f"text_bad_{round_index}_{i}", "name": "", "args": raw} for i, raw in enumerate(bad)]
    return calls, malformed
