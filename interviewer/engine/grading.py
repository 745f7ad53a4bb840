"""Grade a finished set of answers without running the conversation (``interviewer grade``, the
benches, and the LLM grader's rubric baseline). Beside ``scoring``: it gathers the evidence that
``scoring`` weighs, and imports nothing above the engine."""

from __future__ import annotations

import logging
from typing import Any

from interviewer.domain import Scorecard
from interviewer.engine.coaching import answers_in_step_order
from interviewer.engine.evidence import CriterionHit, EvidenceFinder
from interviewer.engine.scoring import build_scorecard
from rubrics.schema import Scenario

log = logging.getLogger(__name__)


def check_claims_safely(text: str, facts: dict[str, Any]) -> list[dict]:
    """Claim checks as dicts; a failure in the checker never breaks the interview."""
    try:
        from interviewer.claims import check_claims

        return [claim.model_dump() for claim in check_claims(text, facts)]
    except Exception:  # the checker is best-effort inside a live interview
        log.exception("claim checking failed")
        return []


def grade_answers(scenario: Scenario, answers: list[str], *, use_embeddings: bool = True) -> Scorecard:
    """Score a finished set of answers (one per turn) without running the conversation."""
    hits, claims, misconceptions = collect_evidence(scenario, answers, use_embeddings=use_embeddings)
    return build_scorecard(scenario, hits, claims, mode="offline", misconceptions=misconceptions,
                           answers_by_step=answers_in_step_order(scenario, answers))


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
