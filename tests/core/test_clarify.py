"""Clarifying questions: the offline interviewer answers what the candidate asks about the problem
from the scenario's facts, comes back to the open question, spends no follow-up on it, and the
scorecard lists what was asked and what mattered but was never asked.

The matcher's accuracy on turns nobody tuned on is measured in ``bench/clarify_accuracy.py``;
these tests pin the behaviour around it with real phrasings across five scenarios.
"""

from __future__ import annotations

import pytest
from offline_helpers import collect, cue_agent

from interviewer import events as ev
from interviewer.domain import TurnKind
from interviewer.engine.clarify import clarification, framing_of, matching_facts
from interviewer.engine.grading import grade_answers
from rubrics.loader import get_scenario, load_scenarios


def scenario(scenario_id: str):
    return get_scenario(scenario_id).scenario


def fact(scenario_id: str, fact_id: str):
    return next(f for f in scenario(scenario_id).ask_facts if f.id == fact_id)


pytestmark = pytest.mark.usefixtures("no_knowledge_index")


# (scenario, what the candidate types, the facts the reply must give)
QUESTION_ONLY = [
    ("serve-2b-p99", "Before I design anything: what is the peak request rate, and how long are typical prompts and replies?",
     ["peak-traffic", "prompt-length", "reply-length"]),
    ("serve-2b-p99", "Is there a budget for the GPUs?", ["serving-budget"]),
    ("serve-2b-p99", "how bursty is the traffic over a day", ["traffic-shape"]),
    ("serve-2b-p99", "Does the 100 ms mean time to first token or the whole response?", ["latency-scope"]),
    ("train-10b-8gpu", "What's the actual deadline? Is a few weeks a hard limit?", ["deadline"]),
    ("train-10b-8gpu", "Can we get more GPUs if the run is too long?", ["more-compute"]),
    ("train-10b-8gpu", "How often does the node fail or get interrupted?", ["failure-rate"]),
    ("realtime-translation", "What's our serving budget per month?", ["serving-budget"]),
    ("realtime-translation", "What should the user see if the translation is late? Can we show the original?", ["timeout-behaviour"]),
    ("compute-optimal-sizing", "Could we extend the reservation?", ["reservation-extension"]),
    ("compute-optimal-sizing", "What hardware will the model be served on?", ["serving-constraints"]),
    ("monitoring-drift", "How many cases can the analysts review per day?", ["analyst-capacity"]),
]


@pytest.mark.parametrize(("scenario_id", "turn", "expected"), QUESTION_ONLY)
def test_questions_are_matched_to_the_facts_they_ask_about(scenario_id, turn, expected):
    asked = clarification(scenario(scenario_id), turn)
    assert asked.only_questions
    assert [f.id for f in asked.facts] == expected


@pytest.mark.parametrize(("scenario_id", "turn", "expected"), QUESTION_ONLY[::3])
async def test_a_question_only_turn_gets_the_facts_then_the_open_question_and_costs_no_follow_up(store, scenario_id, turn, expected):
    agent = cue_agent(store, scenario_id)
    await collect(agent.start())
    step = agent.current_step
    events = await collect(agent.respond(turn))
    replies = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)]
    assert len(replies) == 1
    reply = replies[0]
    assert reply.kind is TurnKind.followup and reply.meta["move"] == "clarify" and reply.meta["facts"] == expected
    for fact_id in expected:
        assert " ".join(fact(scenario_id, fact_id).answer.split()) in " ".join(reply.text.split())
    assert reply.text.rstrip().endswith(step.question.strip())
    assert agent.current_step is step and agent.session.state.followups == 0
    assert not any(isinstance(e, ev.StepAdvanced) for e in events)


async def test_after_a_follow_up_the_reply_comes_back_to_the_follow_up(store):
    agent = cue_agent(store, "serve-2b-p99")
    await collect(agent.start())
    events = await collect(agent.respond("p99 latency means the 99th percentile of request latency."))
    follow_up = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert follow_up.kind is not TurnKind.question  # a follow-up on the same step
    question = [p for p in follow_up.text.split("\n\n") if p.strip().endswith("?")][-1]
    events = await collect(agent.respond("What's the peak request rate?"))
    reply = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert reply.text.endswith(f"Back to the question: {question}")
    assert agent.session.state.followups == 1


async def test_a_question_inside_an_answer_is_answered_before_the_next_move(store):
    agent = cue_agent(store, "train-10b-8gpu")
    await collect(agent.start())
    turn = ("Weights, gradients and Adam states take 16 bytes per parameter, 160 GB in total, so I'd shard them with ZeRO-3 "
            "to 20 GB per GPU. How fast can we write checkpoints to storage, by the way?")
    events = await collect(agent.respond(turn))
    reply = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][0]
    assert reply.text.startswith("Good question.")
    assert " ".join(fact("train-10b-8gpu", "storage-bandwidth").answer.split()) in " ".join(reply.text.split())
    assert reply.meta["move"] != "clarify"  # the answer was graded and the interview went on


@pytest.mark.parametrize(
    ("scenario_id", "turn"),
    [
        ("serve-2b-p99", "Why does the reply length matter so much? Because every output token is a full decode step."),
        ("monitoring-drift", "So where do you look when p99 degrades? Start by splitting the time into queueing and inference."),
        ("train-10b-8gpu", "Model states are 16 bytes per parameter, 160 GB, so nothing fits on one 40 GB GPU without sharding."),
        ("kv-cache-long-context", "The KV cache is 512 KB per token, so 16 GB for 32k tokens. Does that make sense?"),
    ],
)
def test_rhetorical_questions_and_plain_answers_get_no_clarification(scenario_id, turn):
    assert not clarification(scenario(scenario_id), turn)


@pytest.mark.parametrize(
    ("scenario_id", "turn"),
    [("train-10b-8gpu", "Which cloud provider are we on?"), ("realtime-translation", "I'd like to know the team size.")],
)
async def test_a_question_the_scenario_cannot_answer_is_the_candidates_call(store, scenario_id, turn):
    agent = cue_agent(store, scenario_id)
    await collect(agent.start())
    events = await collect(agent.respond(turn))
    reply = [e.turn for e in events if isinstance(e, ev.InterviewerMessage)][-1]
    assert "the brief doesn't say, so that's your call. State your assumption" in reply.text
    assert reply.meta["facts"] == [] and agent.session.state.followups == 0


def test_a_question_that_reaches_only_the_brief_is_told_the_rest_is_its_call():
    asked = clarification(scenario("parallelism-allreduce"), "Is this cluster shared with other teams?")
    assert [f.given for f in asked.facts] == [True]
    from interviewer.engine.clarify import clarification_reply

    assert "Anything beyond what the brief says is your call" in clarification_reply(asked)


def test_most_specific_fact_wins_and_ask_only_beats_the_brief():
    serve = scenario("serve-2b-p99")
    assert [f.id for f in matching_facts(serve, "Is there a budget for the GPUs?")] == ["serving-budget"]
    train = scenario("train-10b-8gpu")
    assert [f.id for f in matching_facts(train, "Can we get more GPUs?")] == ["more-compute"]


def test_every_scenario_has_ask_only_facts_that_matter_and_each_fact_is_reachable():
    for s in load_scenarios():
        assert any(not f.given for f in s.ask_facts), s.id
        if s.kind.value == "design":
            assert sum(f.matters and not f.given for f in s.ask_facts) >= 3, s.id
        for f in s.ask_facts:
            assert f.id in {g.id for g in matching_facts(s, f"What about the {f.topic}?")} or any(
                g.id == f.id for g in matching_facts(s, f.topic)
            ), f"{s.id}: {f.id} is not reached by a question naming its own topic"


def test_the_scorecard_lists_what_was_asked_and_what_mattered_but_was_never_asked():
    serve = scenario("serve-2b-p99")
    answers = ["What's the budget for serving?", "Decode is memory-bound: each token reads the 4 GB of weights."]
    card = grade_answers(serve, answers, use_embeddings=False)
    assert [(a.topic, a.question) for a in card.framing.asked] == [("serving budget", "What's the budget for serving?")]
    mattered = {f.topic for f in serve.ask_facts if f.matters and not f.given}
    assert set(card.framing.never_asked) == mattered - {"serving budget"}
    assert card.grade_json()["framing"]["asked"] == [{"topic": "serving budget", "question": "What's the budget for serving?"}]
    # Before the end the never-asked topics stay hidden: they name what the candidate should ask.
    assert framing_of(serve, answers, reveal=False).never_asked == []


async def test_never_asked_topics_appear_only_once_the_interview_is_over(store):
    agent = cue_agent(store, "serve-2b-p99")
    await collect(agent.start())
    await collect(agent.respond("What is the peak request rate?"))
    assert agent.scorecard().framing.never_asked == [] and agent.scorecard().framing.asked[0].topic == "peak request rate"
    events = await collect(agent.end())
    card = next(e.scorecard for e in events if isinstance(e, ev.ScoreReady))
    assert "serving budget" in card.framing.never_asked


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        (["Before I design anything: what does the 100 ms cover, and is there a serving budget?"], "met"),
        (["I'd like to know how bursty the traffic is.", "Decode is memory-bound."], "partial"),
        (["Decode is memory-bound: each token reads the 4 GB of weights."], "missed"),
        # Naming the topics without asking is not framing.
        (["The 100 ms covers time to first token, traffic is bursty and the budget is tight."], "missed"),
    ],
)
def test_the_framing_criterion_is_met_by_asking_about_the_open_facts(answers, expected):
    card = grade_answers(scenario("serve-2b-p99"), answers, use_embeddings=False)
    framing = next(c for c in card.criteria if c.id == "frames-the-problem")
    assert framing.status.value == expected
    if expected != "missed":
        assert framing.evidence[0] == answers[0]


def test_every_design_scenario_credits_framing():
    for s in load_scenarios():
        framing = [c for c in s.criteria if c.asks_about]
        assert (len(framing) == 1) == (s.kind.value == "design"), s.id
        if framing:
            assert set(framing[0].asks_about) <= {f.id for f in s.ask_facts if not f.given}
