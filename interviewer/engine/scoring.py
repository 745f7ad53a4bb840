"""Turn accumulated evidence into a scorecard: per-criterion status, tier scores, total, level.

The weights are the rubric's tiers (must-have 60%, good-to-have 30%, bonus 10%); a tier's score is
the mean of its criteria's scores. A criterion whose numeric check the candidate got wrong (a claim
the calculators computed as incorrect) cannot be fully met.
"""

from __future__ import annotations

from collections.abc import Iterable

from interviewer.domain import CriterionResult, Scorecard, Status, StudyItem
from interviewer.engine.evidence import SEMANTIC_PARTIAL, CriterionHit
from interviewer.engine.text import quote
from rubrics.schema import TIER_WEIGHTS, Criterion, Scenario

PARTIAL_SCORE = 0.5
MAX_QUOTES = 2

SENIOR_MUST, SENIOR_GOOD = 0.75, 0.45
MID_MUST = 0.45


def claim_contradicts(criterion: Criterion, claims: Iterable[dict]) -> dict | None:
    """An incorrect claim about the quantity this criterion's numeric check is about."""
    if criterion.check is None:
        return None
    for claim in claims:
        if claim.get("verdict") != "incorrect":
            continue
        if claim.get("calculator") == criterion.check.calculator:
            return claim
    return None


def judge_criterion(criterion: Criterion, hit: CriterionHit | None, claims: list[dict]) -> CriterionResult:
    hit = hit or CriterionHit(criterion.id)
    cue_count = len(hit.cues)
    if cue_count >= criterion.min_cues:
        status, score = Status.met, 1.0
        rationale = f"{cue_count} evidence cue(s) found (needs {criterion.min_cues})."
    elif cue_count > 0:
        status, score = Status.partial, PARTIAL_SCORE
        rationale = f"{cue_count} of {criterion.min_cues} evidence cues found."
    elif hit.semantic >= SEMANTIC_PARTIAL:
        status, score = Status.partial, PARTIAL_SCORE
        rationale = f"Paraphrased (similarity {hit.semantic:.2f}) without the specifics a grader looks for."
    else:
        status, score = Status.missed, 0.0
        rationale = "No evidence in the answers."
    wrong = claim_contradicts(criterion, claims)
    if wrong and status is Status.met:
        status, score = Status.partial, PARTIAL_SCORE
        rationale += f" But the number was wrong: {wrong.get('explanation', '')}"
    evidence = [quote(q) for q in hit.quotes[:MAX_QUOTES]]
    if not evidence and status is Status.partial and hit.semantic_quote:
        evidence = [quote(hit.semantic_quote)]
    return CriterionResult(
        id=criterion.id,
        tier=criterion.tier.value,
        description=criterion.description,
        status=status,
        score=score,
        evidence=evidence,
        matched_cues=sorted(hit.cues),
        notes=list(criterion.notes),
        rationale=rationale,
    )


def tier_scores(results: list[CriterionResult]) -> dict[str, float]:
    tiers = {}
    for tier in TIER_WEIGHTS:
        scores = [r.score for r in results if r.tier == tier]
        tiers[tier] = sum(scores) / len(scores) if scores else 0.0
    return tiers


def weighted_total(tiers: dict[str, float]) -> float:
    """Out of 100. A tier with no criteria in the rubric would give its weight to nobody; the schema
    requires must and good criteria, and a missing bonus tier simply caps the total at 90."""
    return 100.0 * sum(TIER_WEIGHTS[tier] * tiers.get(tier, 0.0) for tier in TIER_WEIGHTS)


def estimate_level(tiers: dict[str, float]) -> str:
    """Senior: nearly all must-haves and a fair share of good-to-haves (the rubric's ``levels.senior``
    adds trade-offs and numbers on top of ``levels.mid``); mid: most must-haves."""
    if tiers["must"] >= SENIOR_MUST and tiers["good"] >= SENIOR_GOOD:
        return "senior"
    if tiers["must"] >= MID_MUST:
        return "mid"
    return "below mid"


def build_scorecard(
    scenario: Scenario,
    hits: dict[str, CriterionHit],
    claims: list[dict],
    *,
    hints_used: int = 0,
    hint_penalty_points: float = 0.0,
    mode: str = "offline",
    reveal_model_answer: bool = True,
) -> Scorecard:
    results = [judge_criterion(c, hits.get(c.id), claims) for c in scenario.criteria]
    return scorecard_from_results(
        scenario,
        results,
        claims,
        hints_used=hints_used,
        hint_penalty_points=hint_penalty_points,
        mode=mode,
        reveal_model_answer=reveal_model_answer,
    )


def scorecard_from_results(
    scenario: Scenario,
    results: list[CriterionResult],
    claims: list[dict],
    *,
    hints_used: int = 0,
    hint_penalty_points: float = 0.0,
    mode: str = "offline",
    reveal_model_answer: bool = True,
    notices: list[str] | None = None,
) -> Scorecard:
    """Weights, total, level, strengths, gaps and study list from per-criterion results (whoever judged them)."""
    tiers = tier_scores(results)
    penalty = min(hints_used * hint_penalty_points, weighted_total(tiers))
    total = max(0.0, weighted_total(tiers) - penalty)
    strengths = [f"{r.description} — “{r.evidence[0]}”" for r in results if r.status is Status.met and r.evidence][:6]
    gaps = [r.description for r in results if r.status is not Status.met and r.tier == "must"]
    gaps += [r.description for r in results if r.status is Status.missed and r.tier == "good"]
    study: list[StudyItem] = []
    seen_notes: set[str] = set()
    for r in results:
        if r.status is Status.met:
            continue
        for note in r.notes:
            if note not in seen_notes:
                seen_notes.add(note)
                study.append(StudyItem(note=note, reason=f"{r.tier}: {r.description}"))
    return Scorecard(
        scenario=scenario.id,
        score=round(total, 1),
        level=estimate_level(tiers),
        tiers=tiers,
        criteria=results,
        claims=[dict(c) for c in claims],
        hints_used=hints_used,
        hint_penalty=round(penalty, 2),
        strengths=strengths,
        gaps=gaps,
        study=study,
        model_answer=scenario.model_answer if reveal_model_answer else "",
        mode=mode,
        notices=list(notices or []),
    )
