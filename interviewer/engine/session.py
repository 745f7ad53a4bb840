"""Start, resume and grade interviews: the one place that wires scenario, settings, store and agent."""

from __future__ import annotations

import threading

from interviewer.config import Settings
from interviewer.domain import InterviewStatus, Scorecard
from interviewer.engine.evidence import CriterionHit, EvidenceFinder, fixed_texts
from interviewer.engine.offline import OfflineInterviewer, check_claims_safely
from interviewer.engine.protocol import InterviewAgent
from interviewer.engine.scoring import build_scorecard
from interviewer.store import TranscriptStore
from rubrics.loader import get_scenario
from rubrics.schema import Scenario

_warm = threading.Event()
_warm_lock = threading.Lock()


def warm_up(chroma_url: str | None = None) -> None:
    """Load torch, the embedder, the calculators and the knowledge index. Blocking and idempotent:
    call it in a thread after the first screen is drawn."""
    with _warm_lock:
        if _warm.is_set():
            return
        from interviewer import retrieval
        from interviewer.embeddings import get_embedder

        # In the order a first answer needs them: its claim checks, then the embedder and the
        # index for the reply's citation; the criterion vectors only once the reply is out.
        retrieval.configure(chroma_url)
        with retrieval.warming(chroma_url):  # a reply meanwhile goes out without its citation
            try:
                import interviewer.claims  # noqa: F401  (imports the calculators)
            except ImportError:
                pass
            get_embedder().embed(["warm up"])
            retrieval.open_index()
        embed_rubric_criteria()
        _warm.set()


def embed_rubric_criteria() -> None:
    """Every shipped scenario's criterion vectors, into the on-disk cache (about 4 s the first
    time on 2 cores, a file read after that), so no first answer waits for them."""
    from interviewer.embeddings import embed_fixed
    from rubrics.loader import load_scenarios

    # One scenario at a time: an answer being analysed meanwhile gets the embedder in between.
    for scenario in load_scenarios():
        embed_fixed(fixed_texts(scenario))


def is_warm() -> bool:
    return _warm.is_set()


def _resolve_mode(settings: Settings, mode: str | None) -> str:
    if mode in (None, "auto"):
        return "llm" if settings.llm_model else "offline"
    if mode not in ("offline", "llm"):
        raise ValueError(f"unknown mode {mode!r}: use offline or llm")
    return mode


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
    offline = OfflineInterviewer(
        loaded.scenario,
        store=store,
        interview_id=interview_id,
        level=level,
        max_followups_per_step=settings.max_followups_per_step,
        hint_penalty=settings.hint_penalty,
        time_limit_s=time_limit_s,
    )
    if resolved == "llm":
        from interviewer.llm.agent import LLMInterviewer

        return LLMInterviewer(offline, settings=settings)
    return offline


def resume_interview(interview_id: int, *, settings: Settings, store: TranscriptStore) -> InterviewAgent:
    record = store.get(interview_id)
    loaded = get_scenario(record.scenario_id)
    from interviewer import retrieval

    retrieval.configure(settings.chroma_url)
    offline = OfflineInterviewer(
        loaded.scenario,
        store=store,
        interview_id=interview_id,
        level=record.level,
        max_followups_per_step=settings.max_followups_per_step,
        hint_penalty=settings.hint_penalty,
        time_limit_s=record.time_limit_s,
        started_at=record.started_at,
        state=store.state(interview_id),
        turns=record.turns,
    )
    if record.status is InterviewStatus.abandoned:
        store.set_status(interview_id, InterviewStatus.active)
    if record.mode == "llm" and settings.llm_model:
        from interviewer.llm.agent import LLMInterviewer

        return LLMInterviewer(offline, settings=settings)
    return offline


def grade_answers(scenario: Scenario, answers: list[str], *, use_embeddings: bool = True) -> Scorecard:
    """Score a finished set of answers (one per turn) without running the conversation."""
    hits, claims, misconceptions = collect_evidence(scenario, answers, use_embeddings=use_embeddings)
    return build_scorecard(scenario, hits, claims, mode="offline", misconceptions=misconceptions)


def collect_evidence(scenario: Scenario, answers: list[str], *, use_embeddings: bool = True) -> tuple[dict[str, CriterionHit], list[dict], list[dict]]:
    """What a finished set of answers shows: evidence per criterion, checked claims, misconceptions."""
    finder = EvidenceFinder(scenario, use_embeddings=use_embeddings)
    finder.preload(answers)
    seen: set[str] = set()
    hits: dict[str, CriterionHit] = {}
    claims: list[dict] = []
    misconceptions: list[dict] = []
    for answer in answers:
        analysis = finder.analyze(answer, seen)
        for cid, hit in analysis.hits.items():
            hits.setdefault(cid, CriterionHit(cid)).merge(hit)
        misconceptions.extend(m.to_dict() for m in analysis.misconceptions)
        claims.extend(check_claims_safely("\n".join(analysis.sentences), dict(scenario.facts)))
    return hits, claims, misconceptions
