"""Start and resume interviews: the one place that wires scenario, settings, store, session and policy.

It sits above both policies (the engine's rubric policy and ``interviewer.llm``'s), so neither the
session nor scoring ever imports the LLM policy (a contract in ``pyproject.toml``).
"""

from __future__ import annotations

from interviewer.config import Settings
from interviewer.domain import InterviewStatus
from interviewer.engine.offline import OfflineInterviewer
from interviewer.engine.protocol import InterviewAgent
from interviewer.engine.session import InterviewSession, SessionState
from interviewer.store import TranscriptStore
from rubrics.loader import get_scenario


def _resolve_mode(settings: Settings, mode: str | None) -> str:
    if mode in (None, "auto"):
        return "llm" if settings.llm_model else "offline"
    if mode not in ("offline", "llm"):
        raise ValueError(f"unknown mode {mode!r}: use offline or llm")
    return mode


def _policy(session: InterviewSession, settings: Settings, mode: str) -> InterviewAgent:
    if mode == "llm":
        from interviewer.llm.agent import LLMInterviewer

        return LLMInterviewer(session, settings=settings)
    return OfflineInterviewer(session=session)


def start_interview(
    scenario_id: str,
    *,
    settings: Settings,
    store: TranscriptStore | None,
    level: str = "senior",
    time_limit_minutes: float | None = None,
    mode: str | None = None,
) -> InterviewAgent:
    if level not in ("mid", "senior"):
        raise ValueError(f"unknown level {level!r}: use mid or senior")
    loaded = get_scenario(scenario_id)
    resolved = _resolve_mode(settings, mode)
    limit_minutes = time_limit_minutes if time_limit_minutes is not None else settings.time_limit_minutes
    time_limit_s = limit_minutes * 60 if limit_minutes else None
    from interviewer import retrieval

    retrieval.configure(settings.chroma_url)
    interview_id = None
    if store is not None:
        interview_id = store.create_interview(
            scenario_id=loaded.scenario.id,
            scenario_hash=loaded.hash,
            title=loaded.scenario.title,
            mode=resolved,
            model=settings.llm_model if resolved == "llm" else None,
            level=level,
            time_limit_s=time_limit_s,
        )
    session = InterviewSession(
        loaded.scenario,
        store=store,
        interview_id=interview_id,
        level=level,
        max_followups_per_step=settings.max_followups_per_step,
        hint_penalty=settings.hint_penalty,
        time_limit_s=time_limit_s,
    )
    return _policy(session, settings, resolved)


def resume_interview(interview_id: int, *, settings: Settings, store: TranscriptStore) -> InterviewAgent:
    record = store.get(interview_id)
    loaded = get_scenario(record.scenario_id)
    from interviewer import retrieval

    retrieval.configure(settings.chroma_url)
    session = InterviewSession(
        loaded.scenario,
        store=store,
        interview_id=interview_id,
        level=record.level,
        max_followups_per_step=settings.max_followups_per_step,
        hint_penalty=settings.hint_penalty,
        time_limit_s=record.time_limit_s,
        started_at=record.started_at,
        state=SessionState.model_validate(store.state(interview_id)),
        turns=record.turns,
        notes=record.notes_by_step(),
    )
    if record.status is InterviewStatus.abandoned:
        store.set_status(interview_id, InterviewStatus.active)
    return _policy(session, settings, "llm" if record.mode == "llm" and settings.llm_model else "offline")
