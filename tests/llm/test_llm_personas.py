"""LLM mode against servers that behave like the ones users run (``personas``), and against the
stream shapes they send: a scripted five-answer interview completes in LLM mode for most turns,
shows no model-private text, keeps every request within the configured context, and grades with
the LLM or with a notice; ``llm check`` names each known misconfiguration's fix."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fake_openai_server import ScriptedReply
from llm_helpers import API_KEY, MODEL, collect, grader, is_grading, make_settings, tool_call
from personas import MISCONFIGURED, PERSONAS, Persona, PersonaServer

from interviewer import events as ev
from interviewer.domain import InterviewStatus, Role
from interviewer.interviews import start_interview
from interviewer.llm.budget import FIRST_REQUEST_TOKENS

PRIVATE = "PRIVATE-MARK"
"""In every piece of model-private text the personas send: none of it may reach the candidate."""

ANSWERS = [
    "The hidden state h_t depends on h_{t-1}, so an RNN is inherently sequential over time and cannot be parallelized "
    "across positions in training. Backpropagation through time multiplies a Jacobian per step, so gradients vanish.",
    "Each token is projected to queries, keys and values and we compute softmax(QK^T/sqrt(d_k))V. Multi-head attention "
    "runs several heads and concatenates them; each sub-layer has a residual connection and layer norm.",
    "Self-attention costs O(n^2 d) per layer while a recurrent layer costs O(n d^2), so attention is cheaper when n < d.",
    "Attention is permutation invariant, so position must be injected: sinusoidal or learned embeddings, RoPE or ALiBi.",
    "Decoding uses a KV cache. For Llama-2-7B in fp16 the KV cache is 0.5 MiB per token, so 2 GiB for 4096 tokens.",
]
"""Five answers, one per question of attention-vs-rnn."""


def five_turn_script() -> list[ScriptedReply]:
    """What a small local model does over five answers: reasoning, think blocks, a tool call
    written as text, a malformed call it repairs, a calculator, and moving on each time."""
    return [
        # 1: reasoning in the server's field and a think block in the content, then tools, then the transition
        ScriptedReply(
            reasoning=f"{PRIVATE} the candidate knows BPTT",
            content=f"<think>{PRIVATE} should I move on? yes</think>",
            tool_calls=[tool_call("record_private_note", note="Solid on BPTT."), tool_call("next_question")],
        ),
        ScriptedReply(content="Good, that is the heart of why recurrence is slow to train."),
        # 2: a malformed call (repaired with {} in the history), then a tool call written as Hermes text
        ScriptedReply(tool_calls=[("calculate_forward_flops", '{"preset": "gpt2", "seq": ')]),
        ScriptedReply(content=f'<think>{PRIVATE}</think>Right. <tool_call>{{"name": "next_question", "arguments": {{}}}}</tool_call>'),
        ScriptedReply(content="That covers the layer well."),
        # 3: Llama-style JSON written as the whole reply, then the transition
        ScriptedReply(content='{"name": "next_question", "parameters": {}}'),
        ScriptedReply(content="Yes, n versus d is the trade-off that matters."),
        # 4: text and the call in one reply, then an empty final round
        ScriptedReply(content="Good contrast between absolute and relative schemes.", tool_calls=[tool_call("next_question")]),
        ScriptedReply(content=""),
        # 5, the last question: size the cache, then close
        ScriptedReply(tool_calls=[tool_call("calculate_kv_cache", preset="llama-2-7b", seq=4096, batch=1, dtype="fp16")]),
        ScriptedReply(content="The calculator agrees: 2 GiB per sequence.", tool_calls=[tool_call("next_question")]),
        ScriptedReply(content=""),
    ]


@pytest.fixture
def persona_server(request) -> Iterator[PersonaServer]:
    persona: Persona = request.param
    with PersonaServer(persona, models=(MODEL,), api_key=API_KEY) as fake:
        yield fake


def private_free(agent, events) -> None:
    streamed = "".join(e.text for e in events if isinstance(e, ev.TokenDelta))
    assert PRIVATE not in streamed and "<think>" not in streamed and "<tool_call>" not in streamed
    assert '"name"' not in streamed
    for turn in agent.turns:
        assert PRIVATE not in turn.text and "<tool_call>" not in turn.text, turn


@pytest.mark.slow
@pytest.mark.parametrize("persona_server", list(PERSONAS.values()), ids=list(PERSONAS), indirect=True)
async def test_five_answer_interview_against_each_persona(persona_server, store):
    server = persona_server
    settings = make_settings(server, llm_context_tokens=server.persona.context_tokens)
    server.enqueue(*five_turn_script())
    server.route(is_grading, grader({"sequential-training": ("met", "an RNN is inherently sequential over time")}))
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    events = await collect(agent.start())
    for answer in ANSWERS:
        events += await collect(agent.respond(answer))

    replies = [e.turn for e in events if isinstance(e, ev.InterviewerMessage) and e.turn.kind.value != "closing"][1:]
    in_llm_mode = [t for t in replies if t.meta.get("mode") == "llm"]
    assert len(in_llm_mode) >= 4 and agent.fallback_reason is None, [(t.meta.get("mode"), t.text[:60]) for t in replies]
    private_free(agent, events)
    # Every request fitted the server's context (nothing refused, nothing cut off the front), and
    # the first one is small enough for any server.
    assert server.overflows == [], server.overflows
    interview_requests = [r for r in server.chat_requests if not is_grading(r.body)]
    assert all(r.body["max_tokens"] == settings.llm_max_tokens for r in interview_requests)
    from fake_openai_server import prompt_tokens

    assert prompt_tokens(interview_requests[0].body) <= FIRST_REQUEST_TOKENS
    # The tools ran: the note, the calculator, and the calls written as text moved the interview on.
    calls = [c["name"] for t in in_llm_mode for c in t.meta["tool_calls"]]
    assert {"record_private_note", "next_question", "calculate_kv_cache"} <= set(calls)
    assert agent.finished
    score = next(e.scorecard for e in events if isinstance(e, ev.ScoreReady))
    notices = [e.text for e in events if isinstance(e, ev.Notice) and e.severity == "warning"]
    assert score.mode == f"llm:{MODEL}" or any("LLM grading failed" in n for n in notices), notices
    assert score.mode == f"llm:{MODEL}", "every persona grades with the LLM (LM Studio after refusing JSON mode)"
    record = store.get(agent.interview_id)
    assert record.status is InterviewStatus.finished
    assert [t.text for t in record.turns if t.role is Role.candidate] == ANSWERS


@pytest.mark.slow
@pytest.mark.parametrize("persona_server", [PERSONAS["llama.cpp"]], ids=["llama.cpp"], indirect=True)
async def test_reasoning_whose_opener_was_in_the_prompt_is_never_kept_and_not_shown_again(persona_server, store):
    """A template that puts <think> in the prompt (DeepSeek-R1 distills, QwQ) streams the reasoning
    bare, closed by </think>: the stored turn keeps only the reply, and from then on the start of each
    reply is held back until the close tag, so the candidate does not see it stream."""
    server = persona_server
    server.enqueue(
        ScriptedReply(content=f"{PRIVATE} the candidate explained BPTT; ask about gating.</think>\n\nHow do LSTM gates change that?"),
        ScriptedReply(content=f"{PRIVATE} fine, now attention.</think>Good. What does a head compute?"),
    )
    agent = start_interview("attention-vs-rnn", settings=make_settings(server), store=store, mode="llm")
    await collect(agent.start())
    first = await collect(agent.respond(ANSWERS[0]))
    second = await collect(agent.respond("Gates let the cell state carry gradients across many steps."))
    replies = [e.turn for e in [*first, *second] if isinstance(e, ev.InterviewerMessage)]
    assert [t.text for t in replies] == ["How do LSTM gates change that?", "Good. What does a head compute?"]
    assert all(t.meta.get("mode") == "llm" and PRIVATE in " ".join(t.meta["reasoning"]) for t in replies)
    assert PRIVATE not in "".join(e.text for e in second if isinstance(e, ev.TokenDelta))
    assert all(PRIVATE not in t.text for t in store.get(agent.interview_id).turns)


@pytest.mark.parametrize("persona_server", [PERSONAS["ollama"]], ids=["ollama"], indirect=True)
async def test_ollama_cutting_the_front_of_the_prompt_is_noticed(persona_server, store):
    """Ollama loaded with a 1,024-token context answers 200 to a longer prompt, having dropped its
    front: the usage count gives it away, and the candidate sees a warning with the fix."""
    server = persona_server
    server.persona = Persona("ollama", context_tokens=1024, overflow="truncate-front")
    server.enqueue(ScriptedReply(content="What does the gradient pass through?"))
    settings = make_settings(server)  # llm_context_tokens left at 8192: more than the server gives
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWERS[0]))
    warnings = [e.text for e in events if isinstance(e, ev.Notice) and e.severity == "warning"]
    assert server.overflows and len(warnings) == 1
    assert "probably cut the front of the prompt" in warnings[0] and "OLLAMA_CONTEXT_LENGTH" in warnings[0]
    assert any(t.role is Role.system and "cut the front" in t.text for t in store.get(agent.interview_id).turns)


@pytest.mark.slow
@pytest.mark.parametrize("persona_server", [PERSONAS["vllm"]], ids=["vllm"], indirect=True)
async def test_a_long_interview_is_trimmed_to_the_context_not_refused(persona_server, store):
    """vLLM refuses any request over --max-model-len: the oldest exchanges are left out (and the
    model is told), so a long interview keeps going in LLM mode."""
    server = persona_server
    long_answer = "Attention compares every query with every key. " * 60  # ~700 tokens each
    server.default = ScriptedReply(content="Go on: what does that cost in memory?")
    settings = make_settings(server, llm_context_tokens=4096, max_followups_per_step=10)
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    for _ in range(6):
        events = await collect(agent.respond(long_answer))
        assert not [e for e in events if isinstance(e, ev.Notice) and e.severity == "warning"]
    assert server.overflows == []
    last = server.chat_requests[-1].body["messages"]
    assert "oldest messages of this interview are left out" in last[0]["content"]
    assert last[1]["role"] == "user"


STREAM_VARIANTS = {
    "whole-call-in-one-delta": ScriptedReply(tool_calls=[tool_call("next_question")], tool_call_style="one-delta"),
    "repeated-names": ScriptedReply(tool_calls=[tool_call("record_private_note", note="ok"), tool_call("next_question")], tool_call_style="repeated-names"),
    "interleaved-calls": ScriptedReply(tool_calls=[tool_call("record_private_note", note="ok"), tool_call("next_question")], tool_call_style="interleaved"),
    "index-0-parallel-calls": ScriptedReply(tool_calls=[tool_call("record_private_note", note="ok"), tool_call("next_question")], tool_call_style="index-0"),
    "finish-on-content": ScriptedReply(content="Why is that a problem at long range?", finish_style="on-content"),
    "finish-sent-twice": ScriptedReply(content="Why is that a problem at long range?", finish_style="twice"),
    "chunks-without-delta": ScriptedReply(content="Why is that a problem at long range?", empty_chunks=True),
    "stalls-between-tokens": ScriptedReply(content="Why is that a problem?", gap=0.15, chunk_chars=8),
}
"""Stream shapes that must work: the turn is answered by the model."""

FAULTY_STREAMS = {
    "in-band-error-after-200": (ScriptedReply(content="Why is that a problem at long range?", error_after_chunks=2), {}, "LLM call failed"),
    "a-stream-that-never-ends": (ScriptedReply(content="and so on ", endless=True, gap=0.05), {"llm_turn_timeout": 1.5}, "llm_turn_timeout"),
    "a-stall-longer-than-the-timeout": (ScriptedReply(content="Why is that?", gap=1.0), {"llm_timeout": 0.4}, "timed out after 0.4 s"),
    "finish-length-sent-twice": (ScriptedReply(content="Why is that", finish_reason="length", finish_style="twice"), {}, "cut off (finish_reason=length)"),
}
"""Stream shapes that fail the turn: the rubric engine answers it, with a notice."""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STREAM_VARIANTS))
async def test_stream_variants_are_read_correctly(name, server, store):
    reply = STREAM_VARIANTS[name]
    follow_up = ScriptedReply(content="Good, moving on.")
    server.enqueue(reply, follow_up)
    agent = start_interview("attention-vs-rnn", settings=make_settings(server), store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWERS[0]))
    assert not [e for e in events if isinstance(e, ev.Notice) and e.severity == "warning"], name
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert message.meta["mode"] == "llm"
    if reply.tool_calls:
        names = [c["name"] for c in message.meta["tool_calls"]]
        assert names == [n for n, _ in reply.tool_calls], names
        assert agent.step_index == 1, "next_question ran"
        if "record_private_note" in names:
            assert message.meta["private_notes"] == ["ok"]
    else:
        assert message.text == reply.content


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FAULTY_STREAMS))
async def test_faulty_streams_cost_that_turn_only(name, server, store):
    reply, overrides, cause = FAULTY_STREAMS[name]
    server.enqueue(reply, ScriptedReply(content="Next: what about gradients?"))
    agent = start_interview("attention-vs-rnn", settings=make_settings(server, **overrides), store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWERS[0]))
    warnings = [e.text for e in events if isinstance(e, ev.Notice) and e.severity == "warning"]
    assert len(warnings) == 1 and cause in warnings[0] and "the offline interviewer answered this turn" in warnings[0], warnings
    assert agent.mode == f"llm:{MODEL}"
    more = await collect(agent.respond(ANSWERS[1]))
    assert [e.turn.meta.get("mode") for e in more if isinstance(e, ev.InterviewerMessage)][-1] == "llm"


@pytest.mark.slow
async def test_429_with_retry_after_in_seconds_is_waited_out(server, store):
    server.enqueue(
        ScriptedReply(status=429, error_message="Too many requests", headers={"Retry-After": "1"}),
        ScriptedReply(content="What does the gradient pass through?"),
    )
    agent = start_interview("attention-vs-rnn", settings=make_settings(server, llm_max_retries=1), store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond(ANSWERS[0]))
    assert not [e for e in events if isinstance(e, ev.Notice)]
    assert len(server.chat_requests) == 2
    assert [e.turn.meta.get("mode") for e in events if isinstance(e, ev.InterviewerMessage)] == ["llm"]


# -- llm check ------------------------------------------------------------------------------------

FIXES = {
    "ollama-model-without-tools": "pull a tool-capable one",
    "vllm-without-auto-tool-choice": "--enable-auto-tool-choice --tool-call-parser",
    "llama.cpp-without-jinja": "--jinja",
    "vllm-small-context": "--max-model-len",
    "llama.cpp-small-context": "-c 8192",
    "ollama-small-context": "OLLAMA_CONTEXT_LENGTH",
}


def llm_check(persona: Persona, monkeypatch, *flags: str):
    from typer.testing import CliRunner

    from interviewer import cli

    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    with PersonaServer(persona, models=(MODEL,), api_key=API_KEY) as server:
        server.default = ScriptedReply(content="Good. What limits parallel training of an RNN?")
        cli._register_subcommands()
        return CliRunner().invoke(cli.app, ["llm", "check", "--base-url", server.base_url, "--llm", MODEL, *flags])


@pytest.mark.parametrize("name", list(MISCONFIGURED))
def test_llm_check_names_each_misconfiguration_and_its_fix(name, monkeypatch):
    result = llm_check(MISCONFIGURED[name], monkeypatch, "--json")
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert payload["ok"] is False and FIXES[name] in payload["error"], payload["error"]


@pytest.mark.parametrize("persona", list(PERSONAS))
def test_llm_check_passes_against_each_well_configured_persona(persona, monkeypatch):
    result = llm_check(PERSONAS[persona], monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: model '{MODEL}'")
