"""Unit level: the tools, the agent loop with LangChain's fake chat model, key handling, cancellation."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from llm_helpers import API_KEY, collect
from pydantic import SecretStr

from interviewer import events as ev
from interviewer.config import Settings
from interviewer.domain import Role, TurnKind
from interviewer.engine.offline import OfflineInterviewer
from interviewer.llm.agent import LLMInterviewer
from interviewer.llm.client import describe_endpoint_error, make_chat_model, redact
from interviewer.llm.tools import TurnToolbox, calculator_tool_name, calculator_tools
from rubrics.loader import get_scenario

SCENARIO = get_scenario("attention-vs-rnn").scenario


class ToolStreamingFakeChatModel(GenericFakeChatModel):
    """``GenericFakeChatModel`` that also streams tool calls (as ``tool_call_chunks``) and accepts ``bind_tools``."""

    delay: float = 0.0

    def bind_tools(self, tools: Any, **kwargs: Any):
        return self

    def _stream(self, messages, stop=None, run_manager=None, **kwargs) -> Iterator[ChatGenerationChunk]:
        message = next(self.messages)
        message = AIMessage(content=message) if isinstance(message, str) else message
        for piece in re.split(r"(\s)", message.content):
            if piece:
                yield ChatGenerationChunk(message=AIMessageChunk(content=piece))
        for index, call in enumerate(message.tool_calls):
            import json

            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[{"name": call["name"], "args": json.dumps(call["args"]), "id": call["id"], "index": index}],
                )
            )

    async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
        for chunk in self._stream(messages, stop, run_manager, **kwargs):
            if self.delay:
                await asyncio.sleep(self.delay)
            yield chunk


def calls(*specs: tuple[str, dict]) -> list[dict]:
    return [{"name": name, "args": args, "id": f"call_{i}", "type": "tool_call"} for i, (name, args) in enumerate(specs)]


def offline_agent(store=None) -> OfflineInterviewer:
    return OfflineInterviewer(SCENARIO, store=store, use_embeddings=False, grounding=False)


def llm_agent(messages: list, store=None, **model: Any) -> LLMInterviewer:
    chat = ToolStreamingFakeChatModel(messages=iter(messages), **model)
    return LLMInterviewer(offline_agent(store).session, settings=Settings(llm_model="fake"), chat_model=chat)


# -- tools ----------------------------------------------------------------------------------------


def test_one_tool_per_calculator_with_its_own_inputs():
    from interviewer.tools import CALCULATORS

    tools = {tool.name: tool for tool in calculator_tools()}
    assert set(tools) == {calculator_tool_name(name) for name in CALCULATORS if name != "microbench"}
    schema = tools["calculate_model_states"].args
    assert {"params", "gpus", "zero"} <= set(schema)
    result = tools["calculate_model_states"].invoke({"params": "10B", "gpus": 8, "zero": 3})
    assert result.startswith("model-states = ") and "2e+10 bytes" in result and "Source:" in result
    assert tools["calculate_model_states"].invoke({"params": -1}).startswith("error:")
    assert tools["calculate_model_states"].invoke({"gpus": 8}).startswith("error:"), "a missing input is an error string"


def test_toolbox_tools_never_expose_the_model_answer():
    offline = offline_agent()
    box = TurnToolbox(offline.session)
    by_name = {tool.name: tool for tool in box.tools()}
    coverage = box.run(by_name, "rubric_coverage", {})
    first = [c for c in SCENARIO.criteria if c.step == SCENARIO.steps[0].id]
    assert "Question 1 (current):\n- shown: 0 points\n- partly shown: 0 points\n- not yet shown: 2 points" in coverage
    assert all(c.probe in coverage for c in first if c.probe), "what is missing is said as the rubric's own questions"
    for criterion in SCENARIO.criteria:  # never the criteria themselves: no ids, no descriptions
        assert f"[{criterion.id}]" not in coverage and " ".join(criterion.description.split()) not in coverage
    for snippet in ("removed the recurrence altogether", "Bahdanau"):
        assert snippet not in coverage
    assert box.run(by_name, "record_private_note", {"note": "  shaky on   BPTT "}) == "noted" and box.notes == ["shaky on BPTT"]
    assert "question 2 of 5" in box.run(by_name, "next_question", {}) and box.next_question_requested
    assert box.run(by_name, "search_knowledge", {"query": 42, "k": "many"}).startswith("error:")
    assert [c.name for c in box.calls] == ["rubric_coverage", "record_private_note", "next_question", "search_knowledge"]


def test_check_claims_tool_reports_the_calculators_verdict():
    box = TurnToolbox(offline_agent())
    by_name = {tool.name: tool for tool in box.tools()}
    verdict = box.run(by_name, "check_claims", {"text": "For Llama-2-7B in fp16 the KV cache at 4096 tokens is 16 GiB per sequence."})
    assert ": incorrect." in verdict and "2 GiB" in verdict
    assert box.run(by_name, "check_claims", {"text": "hello"}) == "no checkable numeric claims found"


# -- the agent loop with a fake chat model ---------------------------------------------------------


async def test_stream_tool_call_and_notes_with_the_fake_model():
    agent = llm_agent(
        [
            AIMessage(content="", tool_calls=calls(("record_private_note", {"note": "knows BPTT"}), ("calculate_kv_cache", {"preset": "llama-2-7b", "seq": 4096}))),
            "And what does the LSTM change about that path?",
        ]
    )
    await collect(agent.start())
    events = await collect(agent.respond("Gradients vanish through time because of backpropagation through time."))
    deltas = [e.text for e in events if isinstance(e, ev.TokenDelta)]
    message = next(e.turn for e in events if isinstance(e, ev.InterviewerMessage))
    assert len(deltas) > 5 and "".join(deltas) == message.text == "And what does the LSTM change about that path?"
    assert message.meta["private_notes"] == ["knows BPTT"] and message.kind is TurnKind.followup
    assert [c["name"] for c in message.meta["tool_calls"]] == ["record_private_note", "calculate_kv_cache"]
    assert agent.state.followups == 1


async def test_a_wrong_number_makes_the_reply_a_challenge():
    agent = llm_agent(["The calculators disagree: that's 2 GiB, not 16 GiB. How did you get 16?"])
    await collect(agent.start())
    events = await collect(agent.respond("For Llama-2-7B in fp16 the KV cache at 4096 tokens is 16 GiB per sequence."))
    claims = [e.claim for e in events if isinstance(e, ev.ClaimChecked)]
    message = next(e.turn for e in events if isinstance(e, ev.InterviewerMessage))
    assert [c["verdict"] for c in claims] == ["incorrect"]
    assert message.kind is TurnKind.challenge


@pytest.mark.slow
async def test_cancelled_turn_keeps_what_streamed(store):
    from interviewer.interviews import start_interview

    agent = start_interview("attention-vs-rnn", settings=Settings(llm_model="fake"), store=store, mode="offline")
    llm = LLMInterviewer(
        agent.session, settings=Settings(llm_model="fake"), chat_model=ToolStreamingFakeChatModel(messages=iter(["one two three four five six seven"]), delay=0.05)
    )
    await collect(llm.start())
    seen: list[str] = []

    async def consume():
        async for event in llm.respond("RNNs are sequential."):
            if isinstance(event, ev.TokenDelta):
                seen.append(event.text)

    task = asyncio.create_task(consume())
    while len(seen) < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    turns = store.get(agent.interview_id).turns
    assert turns[1].role is Role.candidate
    kept = turns[-1]
    assert kept.meta["truncated"] and kept.meta["cancelled"] and kept.text.startswith("one two")


# -- the key ----------------------------------------------------------------------------------------


def test_api_key_stays_secret():
    settings = Settings(llm_model="m", llm_base_url="http://127.0.0.1:9/v1", llm_api_key=SecretStr(API_KEY))
    model = make_chat_model(settings, streaming=True)
    assert API_KEY not in repr(model) and API_KEY not in str(model.model_dump())
    assert API_KEY not in repr(settings) and API_KEY not in settings.model_dump_json()
    assert redact(f"Incorrect API key provided: {API_KEY}", settings) == "Incorrect API key provided: [redacted]"
    assert redact("Incorrect API key provided: sk-abcd****wxyz.") == "Incorrect API key provided: [redacted key]"


def test_keyless_local_server_gets_a_placeholder_and_openai_needs_a_key():
    local = make_chat_model(Settings(llm_model="llama3.1:8b", llm_base_url="http://localhost:11434/v1"), streaming=False)
    assert local.openai_api_key.get_secret_value() == "not-needed"
    with pytest.raises(Exception, match="no API key for OpenAI"):
        make_chat_model(Settings(llm_model="gpt-4o-mini"), streaming=False)


def test_unknown_errors_are_described_without_the_key():
    settings = Settings(llm_model="m", llm_api_key=SecretStr(API_KEY))
    text = describe_endpoint_error(RuntimeError(f"boom {API_KEY}"), settings)
    assert text.startswith("the LLM call failed (RuntimeError: boom") and API_KEY not in text


def test_implements_the_interview_agent_protocol():
    from interviewer.engine.protocol import InterviewAgent

    agent = llm_agent([])
    assert isinstance(agent, InterviewAgent)
    assert agent.mode == "llm:fake" and agent.level == "senior" and agent.step_index == 0 and agent.turns == []


def test_system_prompt_carries_the_calculator_verdicts_and_not_the_model_answer():
    from interviewer.llm.prompts import interviewer_system_prompt
    from interviewer.llm.tools import rubric_coverage

    step = SCENARIO.steps[4]
    claim = {"text": "the KV cache is 16 GiB", "verdict": "incorrect", "explanation": "You said 16 GiB; I get 2 GiB."}
    prompt = interviewer_system_prompt(
        SCENARIO,
        level="senior",
        step=step,
        step_index=4,
        coverage=rubric_coverage(SCENARIO, {}, step.id),
        claims=[claim],
        followups_left=1,
        grader_addressed=False,
        must_move_on=False,
    )
    assert "“the KV cache is 16 GiB”: incorrect. You said 16 GiB; I get 2 GiB." in prompt
    assert "Current question (5 of 5)" in prompt and "Follow-ups left for this question: 1." in prompt
    assert SCENARIO.model_answer.strip()[:80] not in prompt and "Bahdanau" not in prompt
    assert step.hint.strip() not in prompt, "hints cost points: the model does not hand them out"
