"""A full interview in LLM mode against a real OpenAI-compatible HTTP server on 127.0.0.1.

The real openai client and LangChain stack stream the replies (SSE with tool-call deltas), the model
calls retrieval and a calculator, keeps private notes, moves through every question, and the
interview ends with the LLM's scorecard in the ``interviewer grade --json`` shape.
"""

from __future__ import annotations

import json
import re

import pytest
from fake_openai_server import ScriptedReply
from llm_helpers import API_KEY, MODEL, collect, grader, is_grading, tool_call

from interviewer import events as ev
from interviewer import locations
from interviewer.domain import InterviewStatus, Role, TurnKind
from interviewer.engine import grade_answers
from interviewer.interviews import start_interview
from interviewer.llm.agent import LLMInterviewer

ANSWERS = [
    # recurrence-limits
    "The hidden state h_t depends on h_{t-1}, so an RNN is inherently sequential over time and cannot be parallelized "
    "across positions in training. Backpropagation through time multiplies a Jacobian per step, so gradients vanish or "
    "explode; LSTM gates mitigate this but do not remove it.",
    # layer-anatomy, first try
    "Attention mixes the tokens.",
    # layer-anatomy, after the follow-up
    "Each token is projected to queries, keys and values and we compute softmax(QK^T/sqrt(d_k))V, a weighted sum of "
    "the values. Multi-head attention runs several heads on d/h dimensions and concatenates them through the output "
    "projection W_O. Each sub-layer has a residual connection and layer norm, followed by a feed-forward MLP.",
    # cost-comparison
    "Self-attention costs O(n^2 d) per layer while a recurrent layer costs O(n d^2), so attention is cheaper when n < d, "
    "and it needs O(1) sequential operations instead of O(n).",
    # position
    "Attention is permutation invariant, so position must be injected: sinusoidal or learned absolute embeddings, or "
    "RoPE, which rotates queries and keys, and ALiBi, which extrapolate better to longer contexts.",
    # inference
    "Decoding is sequential and uses a KV cache. For Llama-2-7B in fp16 the KV cache is 0.5 MiB per token, so 2 GiB "
    "for a 4096-token sequence, whereas an RNN keeps a fixed-size state.",
]

GOOD_QUOTES = {
    "sequential-training": ("met", "an RNN is inherently sequential over time and cannot be parallelized across positions in training"),
    "vanishing-gradients": ("met", "Backpropagation through time multiplies a Jacobian per step, so gradients vanish or explode"),
    "scaled-dot-product": ("met", "compute softmax(QK^T/sqrt(d_k))V, a weighted sum of the values"),
    "multi-head": ("partial", "Multi-head attention runs several heads on d/h dimensions"),
    "residual-layernorm": ("met", "Each sub-layer has a residual connection and layer norm"),
}


def script_full_interview(server) -> None:
    server.enqueue(
        # answer 1: look something up, note something for the grader, move on; then the transition
        ScriptedReply(
            tool_calls=[
                tool_call("search_knowledge", query="vanishing gradients LSTM gating backpropagation through time"),
                tool_call("record_private_note", note="Clear on BPTT and gating; did not mention teacher forcing."),
                tool_call("next_question"),
            ]
        ),
        ScriptedReply(content="Good: that is exactly why recurrence is hard to scale, in speed and in learning."),
        # answer 2: a plain follow-up, streamed
        ScriptedReply(content="Can you be more concrete: how are the attention weights computed, and what surrounds the block?"),
        # answer 3: check coverage, move on
        ScriptedReply(tool_calls=[tool_call("rubric_coverage"), tool_call("next_question")]),
        ScriptedReply(content="That's a complete picture of the layer."),
        # answer 4: move on at once (tool call and text in one reply)
        ScriptedReply(content="Right, the n versus d trade-off is the key point.", tool_calls=[tool_call("next_question")]),
        ScriptedReply(content=""),  # an empty final round after the tool call is fine: the reply already has text
        # answer 5
        ScriptedReply(tool_calls=[tool_call("next_question")]),
        ScriptedReply(content="Good contrast between absolute and relative schemes."),
        # answer 6: size the cache with the calculator, then finish
        ScriptedReply(
            tool_calls=[tool_call("calculate_kv_cache", preset="llama-2-7b", seq=4096, batch=1, dtype="fp16")]
        ),
        ScriptedReply(content="The calculator agrees: 2 GiB per 4,096-token sequence.", tool_calls=[tool_call("next_question")]),
        ScriptedReply(content=""),
    )
    server.route(is_grading, grader(GOOD_QUOTES))


@pytest.mark.slow
@pytest.mark.usefixtures("log_to_file")
async def test_full_interview_streams_uses_tools_and_ends_with_llm_scorecard(server, settings, store):
    script_full_interview(server)
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    assert isinstance(agent, LLMInterviewer) and agent.mode == f"llm:{MODEL}"

    events = await collect(agent.start())
    for answer in ANSWERS:
        events += await collect(agent.respond(answer))

    assert not [e for e in events if isinstance(e, ev.Notice) and e.severity != "information"], "no fault, no fallback"
    assert agent.finished and agent.fallback_reason is None

    # Streaming: every LLM message is preceded by its TokenDeltas, which add up to its text.
    pending = ""
    llm_messages = []
    for event in events:
        if isinstance(event, ev.TokenDelta):
            pending += event.text
        elif isinstance(event, ev.InterviewerMessage):
            if event.turn.meta.get("mode") == "llm" and event.turn.kind is not TurnKind.closing:
                assert pending == event.turn.text
                llm_messages.append(event.turn)
            pending = ""
    assert len(llm_messages) == 6
    assert sum(isinstance(e, ev.TokenDelta) for e in events) > 20, "replies arrive in many small pieces"
    assert [e.index for e in events if isinstance(e, ev.StepAdvanced)] == [0, 1, 2, 3, 4]

    # Tool calls: retrieval with note#heading citations, the calculator's computed number, notes kept private.
    calls = [call for turn in llm_messages for call in turn.meta["tool_calls"]]
    search = next(c for c in calls if c["name"] == "search_knowledge")
    assert re.match(r"\[[a-z0-9-]+#[a-z0-9-]+\] ", search["result"]), search["result"]
    kv = next(c for c in calls if c["name"] == "calculate_kv_cache")
    assert kv["result"].startswith("kv-cache = ") and "2.14748e+09 bytes" in kv["result"], kv["result"]
    note = "Clear on BPTT and gating; did not mention teacher forcing."
    assert llm_messages[0].meta["private_notes"] == [note]
    assert all(note not in t.text for t in agent.turns), "private notes are never shown during the interview"

    # The tool results went back to the model as tool messages.
    tool_messages = [m for r in server.chat_requests if r.body for m in r.body["messages"] if m["role"] == "tool"]
    assert any("bytes" in m["content"] and "Working" in m["content"] for m in tool_messages)

    # A moved-on reply ends with the next question, word for word.
    second = agent.scenario.steps[1].question.strip()
    assert llm_messages[0].text.endswith(second) and llm_messages[0].kind is TurnKind.question
    assert llm_messages[1].kind is TurnKind.followup

    # The scorecard: the LLM's, in the same JSON shape as `interviewer grade --json`.
    score = next(e.scorecard for e in events if isinstance(e, ev.ScoreReady))
    assert score.mode == f"llm:{MODEL}"
    deterministic = grade_answers(agent.scenario, ANSWERS)
    ours, reference = score.grade_json(), deterministic.grade_json()
    assert set(ours) == set(reference)
    assert [c["id"] for c in ours["criteria"]] == [c["id"] for c in reference["criteria"]]
    assert all(set(c) == set(reference["criteria"][0]) for c in ours["criteria"])
    json.dumps(ours)
    by_id = {c.id: c for c in score.criteria}
    assert by_id["sequential-training"].source == "llm" and by_id["sequential-training"].status == "met"
    assert by_id["multi-head"].status == "partial"
    assert score.model_answer == agent.scenario.model_answer, "revealed at the end"

    # Stored: finished, with the same scorecard; the transcript is complete.
    record = store.get(agent.interview_id)
    assert record.status is InterviewStatus.finished and record.scorecard.mode == f"llm:{MODEL}"
    assert [t.text for t in record.turns if t.role is Role.candidate] == ANSWERS
    assert record.turns[-1].kind is TurnKind.closing

    # The model answer never reached the interviewer model, nor any interviewer turn before the end.
    snippet = "removed the recurrence altogether"
    interview_requests = [r for r in server.chat_requests if r.body and not is_grading(r.body)]
    assert interview_requests and all(snippet not in json.dumps(r.body) for r in interview_requests)
    assert all(snippet not in t.text for t in record.turns)
    # Candidate text reached the model as data, inside the tags.
    last = interview_requests[-1].body["messages"]
    assert any(m["role"] == "user" and m["content"].startswith("<candidate_answer>") for m in last)
    assert all(r.body["stream"] for r in interview_requests)
    assert interview_requests[0].body["tools"], "tools were offered"

    # The API key went to the server (and only there): not in the database, the export or the log.
    assert all(r.headers.get("authorization") == f"Bearer {API_KEY}" for r in server.chat_requests)
    store.db.execute("PRAGMA wal_checkpoint(FULL)")
    for path in locations.data_dir().rglob("*"):
        if path.is_file():
            assert API_KEY.encode() not in path.read_bytes(), path
    assert locations.log_file().stat().st_size > 0, "the HTTP stack logged at DEBUG"
    from interviewer.engine import export_markdown

    exported = export_markdown(record)
    assert "inherently sequential over time" in exported
    assert API_KEY not in exported and API_KEY[-12:] not in exported


@pytest.mark.slow
async def test_follow_up_budget_forces_move_on(server, store):
    from llm_helpers import make_settings

    settings = make_settings(server, max_followups_per_step=1)
    server.enqueue(
        ScriptedReply(content="What does the gradient pass through?"),
        ScriptedReply(content="OK, thanks."),  # budget used: the app moves on whatever the model says
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    await collect(agent.respond("RNNs are slow."))
    assert agent.step_index == 0
    events = await collect(agent.respond("They are sequential."))
    assert agent.step_index == 1
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert message.text.startswith("OK, thanks.") and agent.scenario.steps[1].question.strip() in message.text
    tools_offered = {t["function"]["name"] for t in server.chat_requests[-1].body["tools"]}
    assert "next_question" not in tools_offered and "search_knowledge" in tools_offered
    assert "used every follow-up" in server.chat_requests[-1].body["messages"][0]["content"]


async def test_hint_and_skip_keep_working_and_the_end_grades_with_the_llm(server, settings, store):
    server.route(is_grading, grader({}, default="missed"))
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    hint = await collect(agent.hint())
    assert isinstance(hint[0], ev.HintGiven)
    skipped = await collect(agent.skip())
    assert agent.step_index == 1 and any(isinstance(e, ev.StepAdvanced) for e in skipped)
    ended = await collect(agent.end())
    assert isinstance(ended[-1], ev.ScoreReady)
    card = ended[-1].scorecard
    assert card.mode == f"llm:{MODEL}" and card.hints_used == 1 and card.score == 0.0
    assert agent.scorecard() is card


@pytest.mark.slow
@pytest.mark.real_retrieval
async def test_search_tool_uses_the_real_knowledge_index(server, settings, store):
    server.enqueue(
        ScriptedReply(tool_calls=[tool_call("search_knowledge", query="KV cache size per token Llama-2-7B")]),
        ScriptedReply(content="How big is the cache for one 4,096-token sequence?"),
    )
    agent = start_interview("attention-vs-rnn", settings=settings, store=store, mode="llm")
    await collect(agent.start())
    events = await collect(agent.respond("Decoding uses a KV cache."))
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    result = message.meta["tool_calls"][0]["result"]
    assert "[kv-cache#" in result


@pytest.mark.parametrize(
    ("scenario_id", "question", "fact_id"),
    [
        ("serve-2b-p99", "Is there a budget for the GPUs?", "serving-budget"),
        ("train-10b-8gpu", "What's the actual deadline? Is a few weeks a hard limit?", "deadline"),
    ],
)
async def test_a_clarifying_question_is_answered_through_the_scenario_fact_tool(server, settings, store, scenario_id, question, fact_id):
    agent = start_interview(scenario_id, settings=settings, store=store, mode="llm")
    fact = next(f for f in agent.scenario.ask_facts if f.id == fact_id)
    server.enqueue(
        ScriptedReply(tool_calls=[tool_call("scenario_fact", question=question)]),
        ScriptedReply(content=f"{fact.answer} Now, back to the question."),
    )
    await collect(agent.start())
    events = await collect(agent.respond(question))
    message = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    call = message.meta["tool_calls"][0]
    assert call["name"] == "scenario_fact" and " ".join(fact.answer.split())[:200] in call["result"]
    assert message.meta["move"] == "clarify" and fact.answer in message.text
    assert agent.step_index == 0 and agent.session.state.followups == 0  # asking costs no follow-up
    first = server.chat_requests[0].body
    assert "only asks about the problem" in first["messages"][0]["content"]
    offered = {t["function"]["name"] for t in first["tools"]}
    assert "scenario_fact" in offered and "next_question" not in offered


async def test_the_scenario_fact_tool_says_when_the_scenario_does_not_specify(server, settings, store):
    from interviewer.llm.tools import TurnToolbox

    agent = start_interview("train-10b-8gpu", settings=settings, store=store, mode="llm")
    toolbox = TurnToolbox(agent.session)
    assert "does not specify" in toolbox.scenario_fact("Which cloud provider are we on?")
    assert "already in the brief" in toolbox.scenario_fact("How many tokens of data do we have?")
