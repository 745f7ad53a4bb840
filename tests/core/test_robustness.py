"""Bad input, prompt injection and concurrent use: each handled with a clear message, nothing lost."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
import yaml

from interviewer import events as ev
from interviewer.config import Settings
from interviewer.domain import Role, Turn, TurnKind
from interviewer.engine import grade_answers
from interviewer.interviews import start_interview
from interviewer.store import TranscriptStore, open_store
from rubrics.loader import get_scenario

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
INJECTIONS = yaml.safe_load((FIXTURES / "injections.yaml").read_text())
EVAL = {sid: yaml.safe_load((FIXTURES / "eval" / f"{sid}.yaml").read_text()) for sid in ("train-10b-8gpu", "moe-routing")}


async def collect(stream) -> list:
    return [event async for event in stream]


def test_injection_corpus_is_large_and_varied():
    assert len(INJECTIONS) >= 20
    assert any("SYSTEM" in text for text in INJECTIONS) and any("```" in text for text in INJECTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", sorted(EVAL))
def test_no_injection_raises_the_offline_score(scenario_id):
    scenario = get_scenario(scenario_id).scenario
    weak = EVAL[scenario_id]["weak"]
    baseline = grade_answers(scenario, weak).score
    for attempt in INJECTIONS:
        injected = [f"{weak[0]} {attempt}", *weak[1:]]
        assert grade_answers(scenario, injected).score <= baseline, attempt
        alone = grade_answers(scenario, [attempt]).score
        assert alone <= 5, (attempt, alone)


@pytest.mark.slow
def test_injections_never_reveal_the_model_answer_during_the_interview():
    store = open_store()
    agent = start_interview("moe-routing", settings=Settings(max_followups_per_step=3), store=store)

    async def run():
        await collect(agent.start())
        for attempt in INJECTIONS:
            if agent.finished:
                break
            await collect(agent.respond(attempt))

    asyncio.run(run())
    answer_lines = [line.strip() for line in agent.scenario.model_answer.splitlines() if len(line.strip()) > 30]
    for turn in agent.turns:
        if turn.role is Role.interviewer and turn.kind is not TurnKind.closing:
            assert not any(line in turn.text for line in answer_lines)
    if not agent.finished:
        assert agent.scorecard().model_answer == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    "answer",
    [
        "x" * 1_000_000,
        "ZeRO-3 " * 150_000,
        "\x00\x01\x02 binary \xff\xfe garbage \x1b[31mred\x1b[0m \x1b]0;title\x07 \x9b2J",
        "المعلمات تتوزع على ٨ وحدات معالجة رسومية 🚀🔥 ZeRO-3 shards optimizer states 😀",
        "The model is 1e308 parameters and needs -5 GB on 0 GPUs; ZeRO-3 over 0 GPUs gives inf GB.",
        "It takes 1e-308 seconds and 10^400 FLOPs, with a batch of -3 and 0 layers.",
    ],
    ids=["1MB", "1MB-cues", "control-ansi", "rtl-emoji", "absurd-sizes", "absurd-tiny"],
)
def test_bad_answers_are_handled_and_stored(answer):
    store = open_store()
    agent = start_interview("train-10b-8gpu", settings=Settings(), store=store)

    async def run():
        await collect(agent.start())
        return await collect(agent.respond(answer))

    events = asyncio.run(run())
    assert any(isinstance(e, ev.CandidateTurnRecorded) for e in events)
    assert any(isinstance(e, ev.InterviewerMessage) for e in events), "the interview goes on"
    stored = [t for t in store.turns(agent.interview_id) if t.role is Role.candidate][-1]
    assert "\x1b" not in stored.text and "\x00" not in stored.text
    if len(answer) >= 1_000_000:
        assert len(stored.text) == len(answer), "a long answer is saved whole"
        assert any(isinstance(e, ev.Notice) and "20,000" in e.text for e in events)
    for claim in (e.claim for e in events if isinstance(e, ev.ClaimChecked)):
        assert claim["verdict"] in {"correct", "incorrect", "unverifiable"}


def test_two_instances_share_the_database(tmp_path):
    """One process interviewing while another browses history: no errors, no lost turns."""
    path = tmp_path / "shared.db"
    writer, reader = TranscriptStore(path), TranscriptStore(path)
    interview = writer.create_interview(scenario_id="moe-routing", scenario_hash="h")
    errors: list[BaseException] = []
    turns = 300

    def write():
        try:
            for i in range(turns):
                writer.add_turn(interview, Turn(role=Role.candidate, kind=TurnKind.answer, text=f"answer {i} about routing"), {"i": i})
        except BaseException as exc:  # collected for the assertion
            errors.append(exc)

    def browse():
        try:
            for _ in range(300):
                reader.list_interviews(search="routing")
                reader.scenario_stats()
                reader.get(interview)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write), threading.Thread(target=browse)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [t.text for t in TranscriptStore(path).turns(interview)] == [f"answer {i} about routing" for i in range(turns)]


def test_unwritable_data_dir_is_a_clear_error(tmp_path):
    from interviewer.store import StoreError

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match=str(blocker)):
        TranscriptStore(blocker / "interviewer.db")
