"""The interview screen on the real rubric policy (no embedder): a clarifying question gets the
scenario's fact and the open question again, and the scorecard lists what was asked."""

from __future__ import annotations

import dataclasses

from tui_helpers import settle

from interviewer.engine.offline import OfflineInterviewer
from rubrics.loader import get_scenario
from tui.app import make_app
from tui.screens.interview_screen import InterviewScreen
from tui.widgets.transcript_view import TranscriptView


def offline_factory(store):
    def start(scenario_id: str, *, level: str = "senior", time_limit_minutes: float | None = None, mode: str | None = None):
        loaded = get_scenario(scenario_id)
        interview_id = store.create_interview(scenario_id=scenario_id, scenario_hash=loaded.hash, title=loaded.scenario.title)
        return OfflineInterviewer(loaded.scenario, store=store, interview_id=interview_id, level=level, use_embeddings=False, grounding=False)

    return start


async def test_a_clarifying_question_is_answered_in_the_transcript(settings, store, core, monkeypatch):
    from interviewer import retrieval

    monkeypatch.setattr(retrieval, "search", lambda *args, **kwargs: [])
    app = make_app(settings, store=store, services=dataclasses.replace(core.services(), agent_factory=offline_factory(store)))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.start_interview("serve-2b-p99", level="senior", mode="offline", time_limit_minutes=None)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        screen.query_one("#answer").text = "Before I design anything: is there a budget for serving, and how bursty is the traffic?"
        await pilot.press("ctrl+s")
        await settle(pilot)
        text = " ".join(screen.query_one(TranscriptView).plain_text().split())
        scenario = screen.agent.scenario
        for fact_id in ("serving-budget", "traffic-shape"):
            answer = next(f.answer for f in scenario.ask_facts if f.id == fact_id)
            assert " ".join(answer.split()) in text
        assert f"Back to the question: {' '.join(scenario.steps[0].question.split())}" in text
        assert screen.agent.step_index == 0
        await pilot.press("f10", "enter")
        await settle(pilot)
        framing = app.screen.query_one("#framing")
        shown = str(framing.render())
        assert "serving budget" in shown and "Never asked, but it mattered" in shown
