"""Driving the offline interviewer in tests without the embedder (``use_embeddings=False``) or the
knowledge index (``grounding=False``; the ``no_knowledge_index`` fixture in conftest.py covers the
scorecard's study items), so no model is loaded."""

from __future__ import annotations

from interviewer.engine.offline import OfflineInterviewer
from rubrics.loader import get_scenario


async def collect(stream) -> list:
    return [event async for event in stream]


def cue_agent(store, scenario_id: str = "attention-vs-rnn", **options) -> OfflineInterviewer:
    """An offline interviewer stored like ``start_interview``'s, judging by cues and claims only."""
    loaded = get_scenario(scenario_id)
    interview_id = store.create_interview(scenario_id=scenario_id, scenario_hash=loaded.hash, title=loaded.scenario.title)
    return OfflineInterviewer(loaded.scenario, store=store, interview_id=interview_id, use_embeddings=False, grounding=False, **options)
