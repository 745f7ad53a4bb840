"""Endpoint faults during an LLM-mode interview, each against the real HTTP stack.

Whatever goes wrong (timeout, rate limit after retries, malformed tool calls, an empty or cut-off
reply, a stream that dies, no server, a bad key, an unknown model, a server error), the failed turn
is answered by the offline engine after a visible notice, text that already streamed is kept, and the
transcript is complete. The next turn goes to the model again; after ``llm_max_strikes`` failed turns,
or at once on a fault that cannot heal (bad key, unknown model), the interview leaves LLM mode.
Recoverable trouble (a 429 followed by success, one malformed tool call, a tool that errors) costs
no turn at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from fake_openai_server import ScriptedReply
from llm_helpers import API_KEY, MODEL, collect, grader, is_grading, make_settings, tool_call
from pydantic import SecretStr

from interviewer import events as ev
from interviewer.domain import InterviewStatus, Role, TurnKind
from interviewer.interviews import resume_interview, start_interview

ANSWER = "An RNN is inherently sequential over time: h_t depends on h_{t-1}, so training cannot be parallelized across positions."
SECOND = "Backpropagation through time multiplies Jacobians, so gradients vanish; LSTM gates mitigate it but do not remove it."
FALLBACK_MODE = f"offline (fallback from llm:{MODEL})"


@dataclass
class Fault:
    replies: list[ScriptedReply]
    cause: str
    """Expected in the notice, in plain words."""
    partial: str | None = None
    """Text that streamed before the fault and must be kept (marked truncated)."""
    settings: dict[str, Any] = field(default_factory=dict)
    requests: int | None = None
    """Chat requests the client should have made (retries included)."""


LONG_REPLY = "Let me push on that. What exactly does the gradient from token 500 back to token 1 pass through?"

FAULTS = {
    "timeout": Fault([ScriptedReply(content="too late", delay=1.2)], "timed out after 0.3 s", settings={"llm_timeout": 0.3}),
    "rate-limit-exhausted": Fault(
        [ScriptedReply(status=429, error_message="Rate limit reached", headers={"retry-after-ms": "10"})] * 3,
        "rate limited by the endpoint (429",
        settings={"llm_max_retries": 2},
        requests=3,
    ),
    "malformed-tool-calls": Fault(
        [ScriptedReply(tool_calls=[("calculate_kv_cache", '{"preset": "llama-2-7b", "seq": ')])] * 2,
        "malformed tool call from model 'test-model' (calculate_kv_cache",
        requests=2,
    ),
    "empty-reply": Fault([ScriptedReply(content="")], "empty reply from model 'test-model'"),
    "truncated-length": Fault(
        [ScriptedReply(content=LONG_REPLY[:40], finish_reason="length")], "was cut off (finish_reason=length)", partial=LONG_REPLY[:40]
    ),
    "dies-mid-stream": Fault(
        [ScriptedReply(content=LONG_REPLY, drop_after_chunks=4, chunk_chars=6)],
        "closed the connection mid-reply",
        partial=LONG_REPLY[:24],
    ),
    "server-error": Fault([ScriptedReply(status=500, error_message="CUDA out of memory")], "returned HTTP 500"),
    "bad-key": Fault([], "rejected the API key (401", settings={"llm_api_key": SecretStr("sk-wrong-key-0123456789abcdef")}),
    "unknown-model": Fault([], "unknown model 'no-such-model' (404", settings={"llm_model": "no-such-model"}),
}


PERMANENT = {"bad-key", "unknown-model"}
"""Faults that cannot heal during the interview: they leave LLM mode at the first strike."""
NEXT_QUESTION = "And how do the gradients flow through an LSTM cell?"


def assert_fell_back(agent, events, cause: str, partial: str | None, *, left_llm_mode: bool = True) -> None:
    notices = [e for e in events if isinstance(e, ev.Notice) and e.severity == "warning"]
    assert len(notices) == 1, notices
    assert cause in notices[0].text
    if left_llm_mode:
        assert notices[0].text.endswith("continuing with the offline interviewer")
        assert agent.mode.startswith("offline (fallback from llm:")
    else:
        assert "the offline interviewer answered this turn (LLM mode continues" in notices[0].text
        assert agent.mode == f"llm:{MODEL}" and agent.fallback_reason is None
    messages = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)]
    if partial is not None:
        kept = messages[0]
        assert kept.text == partial.strip() and kept.meta["truncated"] is True and kept.meta["mode"] == "llm"
        streamed = "".join(e.text for e in events if isinstance(e, ev.TokenDelta))
        assert streamed == partial
        messages = messages[1:]
    else:
        assert not any(isinstance(e, ev.TokenDelta) for e in events)
    assert len(messages) == 1 and messages[0].meta.get("mode") is None, "the offline engine replied to this answer"
    assert messages[0].meta["move"] in ("probe", "advance", "challenge", "wrong-answer", "anti-pattern")


def assert_complete_transcript(store, agent, partial: str | None) -> None:
    turns = store.get(agent.interview_id).turns
    kinds = [(t.role, t.kind) for t in turns]
    assert kinds[0] == (Role.interviewer, TurnKind.question)
    assert turns[1].role is Role.candidate and turns[1].text == ANSWER
    rest = turns[2:]
    if partial is not None:
        assert rest[0].meta.get("truncated") and rest[0].text == partial.strip()
        rest = rest[1:]
    assert rest[0].role is Role.system and rest[0].kind is TurnKind.notice and "offline interviewer" in rest[0].text
    assert rest[1].role is Role.interviewer and rest[1].meta.get("mode") is None
    assert [t.seq for t in turns] == list(range(len(turns)))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FAULTS))
async def test_fault_falls_back_for_the_failed_turn_and_keeps_everything(name, server, store):
    fault = FAULTS[name]
    permanent = name in PERMANENT
    settings = make_settings(server, **fault.settings)
    server.enqueue(*fault.replies)
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())

    events = await collect(agent.respond(ANSWER))

    assert_fell_back(agent, events, fault.cause, fault.partial, left_llm_mode=permanent)
    assert_complete_transcript(store, agent, fault.partial)
    if fault.requests is not None:
        assert len(server.chat_requests) == fault.requests
    notice = next(e for e in events if isinstance(e, ev.Notice))
    assert API_KEY not in notice.text and "0123456789abcdef" not in notice.text

    before = len(server.chat_requests)
    if permanent:
        # The rest of the interview is offline: no more requests, the scorecard is the rubric scorer's.
        more = await collect(agent.respond(SECOND))
        assert [e.turn.meta.get("mode") for e in more if isinstance(e, ev.InterviewerMessage)] == [None]
        ended = await collect(agent.end())
        assert len(server.chat_requests) == before
        card = ended[-1].scorecard
        assert card.mode == agent.mode and all(c.source == "rubric" for c in card.criteria)
    else:
        # Only that turn was lost: the next answer goes to the model, and so does the grading.
        server.enqueue(ScriptedReply(content=NEXT_QUESTION))
        server.route(is_grading, grader({}, default="missed"))
        more = await collect(agent.respond(SECOND))
        assert [(e.turn.meta.get("mode"), e.turn.text) for e in more if isinstance(e, ev.InterviewerMessage)] == [("llm", NEXT_QUESTION)]
        ended = await collect(agent.end())
        assert len(server.chat_requests) == before + 2
        card = ended[-1].scorecard
        assert card.mode == f"llm:{MODEL}" and all(c.source == "llm" for c in card.criteria)
    record = store.get(agent.interview_id)
    assert record.status is InterviewStatus.finished
    assert [t.text for t in record.turns if t.role is Role.candidate] == [ANSWER, SECOND]


@pytest.mark.slow
async def test_a_few_strikes_leave_llm_mode_and_grading_is_still_attempted(server, store):
    settings = make_settings(server, llm_max_strikes=2)
    server.enqueue(ScriptedReply(status=500, error_message="CUDA out of memory"), ScriptedReply(content=""))
    server.route(is_grading, grader({}, default="missed"))
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    first = await collect(agent.respond(ANSWER))
    assert_fell_back(agent, first, "returned HTTP 500", None, left_llm_mode=False)
    assert agent.state.llm_strikes == 1
    second = await collect(agent.respond(SECOND))
    assert_fell_back(agent, second, "empty reply from model 'test-model'", None, left_llm_mode=True)
    before = len(server.chat_requests)
    await collect(agent.respond("Attention lets every position look at every other one at once."))
    assert len(server.chat_requests) == before, "out of LLM mode: the rubric engine answers"
    ended = await collect(agent.end())
    assert len(server.chat_requests) == before + 1 and is_grading(server.chat_requests[-1].body), "the grader is still asked"
    assert ended[-1].scorecard.mode == f"llm:{MODEL}"


@pytest.mark.slow
async def test_no_server_at_all(server, store):
    settings = make_settings(server)
    url = server.base_url
    server.stop()
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWER))
    assert_fell_back(agent, events, f"LLM endpoint unreachable (connection refused at {url})", None, left_llm_mode=False)
    assert_complete_transcript(store, agent, None)


@pytest.mark.slow
async def test_fallback_survives_resume(server, store):
    settings = make_settings(server, llm_max_strikes=1)
    server.enqueue(ScriptedReply(content=""))
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    await collect(agent.respond(ANSWER))
    assert agent.fallback_reason

    resumed = resume_interview(agent.interview_id, settings=settings, store=store)
    assert resumed.mode == FALLBACK_MODE
    before = len(server.chat_requests)
    events = await collect(resumed.respond(SECOND))
    assert len(server.chat_requests) == before
    assert any(isinstance(e, ev.InterviewerMessage) for e in events)


@pytest.mark.slow
async def test_rate_limit_then_success_retries_with_backoff_and_stays_llm(server, store):
    settings = make_settings(server, llm_max_retries=2)
    server.enqueue(
        ScriptedReply(status=429, error_message="Rate limit reached", headers={"retry-after-ms": "20"}),
        ScriptedReply(content="What does the gradient pass through between distant tokens?"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWER))
    assert not any(isinstance(e, ev.Notice) for e in events)
    assert len(server.chat_requests) == 2
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert message.meta["mode"] == "llm" and message.text.startswith("What does the gradient")
    assert agent.mode == f"llm:{MODEL}"


@pytest.mark.slow
async def test_one_malformed_tool_call_is_repaired(server, settings, store):
    server.enqueue(
        ScriptedReply(tool_calls=[("calculate_kv_cache", "{preset: llama-2-7b")]),
        ScriptedReply(tool_calls=[tool_call("calculate_kv_cache", preset="llama-2-7b", seq=4096, batch=1, dtype="fp16")]),
        ScriptedReply(content="For Llama-2-7B that cache is 2 GiB per sequence. What would you do about it?"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWER))
    assert not any(isinstance(e, ev.Notice) for e in events)
    repair = server.chat_requests[1].body["messages"]
    assert repair[-1]["role"] == "tool" and "not valid JSON" in repair[-1]["content"]
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert [c["name"] for c in message.meta["tool_calls"]] == ["calculate_kv_cache"]


@pytest.mark.slow
async def test_tool_errors_go_back_to_the_model(server, settings, store):
    server.enqueue(
        ScriptedReply(
            tool_calls=[
                tool_call("calculate_kv_cache", preset="no-such-model", seq=4096),
                tool_call("calculate_forward_flops", preset="gpt2", seq="lots"),
                tool_call("launch_missiles", target="moon"),
                tool_call("record_private_note", note=""),
                tool_call("calculate_model_states", params="10B"),  # a calculator this scenario does not use: not offered
            ]
        ),
        ScriptedReply(content="Let's come back to the numbers later. Why can't an RNN use all the known tokens at once?"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWER))
    assert not any(isinstance(e, ev.Notice) for e in events)
    results = [m["content"] for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert len(results) == 5 and all(r.startswith("error:") for r in results), results
    assert "no-such-model" in results[0] and "seq" in results[1] and "no tool named 'launch_missiles'" in results[2]
    assert "no tool named 'calculate_model_states'" in results[4]


async def test_grading_fault_gives_the_rubric_scorecard_with_a_notice(server, settings, store):
    server.route(is_grading, ScriptedReply(status=500, error_message="grader crashed"))
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.end())
    notices = [e for e in events if isinstance(e, ev.Notice)]
    assert notices and "LLM grading failed" in notices[0].text and "HTTP 500" in notices[0].text
    card = events[-1].scorecard
    assert all(c.source == "rubric" for c in card.criteria) and "LLM grading unavailable" in card.notices[-1]
    assert store.get(agent.interview_id).status is InterviewStatus.finished


async def test_grader_reply_that_is_not_json_is_retried_once(server, settings, store):
    replies = iter([ScriptedReply(content="Sure! Here is my assessment: all good."), None])

    def flaky_grader(body):
        reply = next(replies)
        return reply if reply is not None else grader({}, default="missed")(body)

    server.route(is_grading, flaky_grader)
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.end())
    assert not any(isinstance(e, ev.Notice) for e in events)
    assert events[-1].scorecard.mode == f"llm:{MODEL}"
    assert "not the JSON object" in server.chat_requests[-1].body["messages"][-1]["content"]


@pytest.mark.slow
async def test_resume_replies_to_an_answer_left_without_a_reply(server, settings, store):
    """Interrupted after the answer was stored and before the reply: the resumed interview answers it with the model."""
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    from interviewer.domain import Turn

    agent.state.pending_answer = True
    agent.session.record(Turn(role=Role.candidate, kind=TurnKind.answer, text=ANSWER, step_id=agent.current_step.id))

    server.enqueue(ScriptedReply(content="Picking up where we were: what does that mean for training time?"))
    resumed = resume_interview(agent.interview_id, settings=settings, store=store)
    assert resumed.mode == f"llm:{MODEL}"
    events = await collect(resumed.start())
    assert any(isinstance(e, ev.Notice) and e.text.startswith("Resumed") for e in events)
    reply = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert reply.meta["mode"] == "llm" and reply.text.startswith("Picking up")
    assert resumed.state.pending_answer is False
    assert server.chat_requests[-1].body["messages"][-1]["content"] == f"<candidate_answer>\n{ANSWER}\n</candidate_answer>"


@pytest.mark.slow
async def test_private_notes_of_a_failed_turn_are_kept(server, settings, store):
    server.enqueue(
        ScriptedReply(tool_calls=[tool_call("record_private_note", note="Confident, but never mentioned gradients.")]),
        ScriptedReply(status=500, error_message="boom"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    await collect(agent.respond(ANSWER))
    notice = next(t for t in store.get(agent.interview_id).turns if t.role is Role.system)
    assert notice.meta["private_notes"] == ["Confident, but never mentioned gradients."]


@pytest.mark.slow
async def test_a_tool_slower_than_its_timeout_returns_an_error_and_the_turn_goes_on(server, store, monkeypatch):
    import time

    from interviewer import retrieval

    monkeypatch.setattr(retrieval, "search", lambda *args, **kwargs: time.sleep(1.5) or [])
    settings = make_settings(server, llm_tool_timeout=0.3)
    server.enqueue(
        ScriptedReply(tool_calls=[tool_call("search_knowledge", query="backpropagation through time")]),
        ScriptedReply(content="Without a source, then: what does the gradient pass through?"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWER))
    assert not any(isinstance(e, ev.Notice) for e in events)
    results = [m["content"] for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert results == ["error: search_knowledge took longer than 0.3 s and was stopped; answer without it"]
    time.sleep(1.5)  # let the abandoned search end; the stored turn keeps the one timed-out record
    message = store.get(agent.interview_id).turns[-1]
    assert message.meta["mode"] == "llm" and [c["name"] for c in message.meta["tool_calls"]] == ["search_knowledge"]
    assert message.meta["tool_calls"][0]["result"].startswith("error: search_knowledge took longer")
