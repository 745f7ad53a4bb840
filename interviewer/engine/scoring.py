"""Turn accumulated evidence into a scorecard: per-criterion status, tier scores, total, level.

The weights are the rubric's tiers (must-have 60%, good-to-have 30%, bonus 10%); a tier's score is
the mean of its criteria's scores. Evidence comes from ``evidence`` (asserted, on-topic statements;
see there). A criterion is:
- met with ``min_cues`` distinct cues asserted (a quantity matched by value is a cue);
- partly met with fewer, with a bare mention when the criterion is about naming a technique, or with
  a close paraphrase;
- missed when the candidate only rejected it, or asserted a misconception that contradicts it.
A wrong number lowers only the criterion about that quantity (the calculators' value equals one
the criterion names): it cannot be fully met, and a number corrected later earns partial credit
with both statements quoted.
"""

from __future__ import annotations

from collections.abc import Iterable

from interviewer.domain import CriterionResult, Framing, Scorecard, Status, StepCoaching, StudyItem
from interviewer.engine import judge_model
from interviewer.engine.clarify import framing_of, is_asking
from interviewer.engine.coaching import coach
from interviewer.engine.evidence import SEMANTIC_PARTIAL, VALUE_TOLERANCE, CriterionHit, criterion_quantities
from interviewer.engine.text import quote
from interviewer.units import BASE_UNIT
from rubrics.schema import TIER_WEIGHTS, Criterion, Scenario

PARTIAL_SCORE = 0.5
_SCORE = {Status.met: 1.0, Status.partial: PARTIAL_SCORE, Status.missed: 0.0}
MAX_QUOTES = 2

SENIOR_MUST, SENIOR_GOOD = 0.75, 0.45
MID_MUST = 0.45


def _is_one_of(claim: dict, key: str, quantities: tuple[tuple[str, float], ...]) -> bool:
    """Whether the claim's ``key`` value ("computed" or "claimed") is one of these quantities, in their unit."""
    value, unit = claim.get(key), claim.get("unit")
    if not value or not unit:
        return False
    return any(BASE_UNIT.get(dim) == unit and abs(value / expected - 1) <= VALUE_TOLERANCE for dim, expected in quantities if expected)


def claims_about(scenario: Scenario, criterion: Criterion, claims: Iterable[dict]) -> list[dict]:
    """The checked claims about this criterion's quantities (the calculators' value is one it names).

    An "incorrect" verdict on a number the rubric itself names (for any criterion) is most likely the
    checker reading the wrong scope, not the candidate's error: it never counts against a criterion."""
    quantities = criterion_quantities(scenario, criterion)
    everywhere = tuple(q for other in scenario.criteria for q in criterion_quantities(scenario, other))
    return [
        c for c in claims
        if c.get("verdict") in ("correct", "incorrect") and _is_one_of(c, "computed", quantities)
        and not (c["verdict"] == "incorrect" and _is_one_of(c, "claimed", everywhere))
    ]


def claim_contradicts(scenario: Scenario, criterion: Criterion, claims: Iterable[dict]) -> dict | None:
    """The first incorrect claim about this criterion's quantity."""
    return next((c for c in claims_about(scenario, criterion, claims) if c["verdict"] == "incorrect"), None)


def mention_earns_partial(criterion: Criterion) -> bool:
    """A bare mention earns partial credit only on a criterion about naming a technique, not one
    that asks for a number."""
    return "mention" in criterion.requires and "number" not in criterion.requires


def rubric_rule(criterion: Criterion, hit: CriterionHit, contradicted_by: list[dict]) -> tuple[Status, str, list[str]]:
    """The evidence-only verdict from counted cues: status, rationale, quotes."""
    cue_count = len(hit.cues)
    evidence = [quote(q) for q in hit.quotes[:MAX_QUOTES]]
    asked = "question" not in criterion.requires or any(is_asking(q) for q in hit.quotes)
    numbered = "number" not in criterion.requires or any(cue.startswith("= ") for cue in hit.cues)
    counted = "open facts asked about" if criterion.asks_about else "evidence cues asserted"
    if cue_count >= criterion.min_cues and asked and numbered:
        status = Status.met
        rationale = f"{cue_count} {counted} (needs {criterion.min_cues})."
    elif cue_count > 0:
        status = Status.partial
        rationale = (f"{cue_count} of {criterion.min_cues} {counted}." if cue_count < criterion.min_cues
                     else "Asserted, but without the number it asks for." if not numbered
                     else "Stated, but not asked about the problem.")
    elif hit.hedged:
        status, rationale = Status.partial, "Said, but hedged rather than committed to."
        evidence = [quote(q) for q in hit.hedged_quotes[:1]]
    elif hit.mentions and mention_earns_partial(criterion):
        status, rationale = Status.partial, "Named, but not explained."
        evidence = [quote(q) for q in hit.mention_quotes[:1]]
    elif hit.semantic >= SEMANTIC_PARTIAL and hit.semantic_quote:
        status = Status.partial
        rationale = f"Paraphrased (similarity {hit.semantic:.2f}) without the specifics a grader looks for."
        evidence = [quote(hit.semantic_quote)]
    elif hit.rejected:
        status, rationale, evidence = Status.missed, f"Rejected rather than asserted: “{quote(hit.rejected[0])}”", []
    else:
        status, evidence = Status.missed, []
        rationale = "No evidence in the answers." if not hit.mentions else "Only named in a list, where an explanation is needed."
    if contradicted_by and status is not Status.missed:
        status = Status.partial if status is Status.met else Status.missed
        rationale += f" But it is contradicted by a misconception: “{quote(contradicted_by[0]['quote'])}”"
        if status is Status.missed:
            evidence = []
    return status, rationale, evidence


def _calibrated(scenario: Scenario, criterion: Criterion, hit: CriterionHit, rule: Status, rationale: str, evidence: list[str],
                contradicted: bool) -> tuple[Status, str, list[str]]:
    model = judge_model.load()
    if model is None:
        return rule, rationale, evidence
    x = judge_model.features(scenario, criterion, hit, rule, contradicted=contradicted)
    status, probability = judge_model.decide(model, x)
    if status is rule:
        return rule, rationale, evidence
    rationale += f" Calibrated against expert grading: {status.value} (probability {probability:.2f})."
    if status is Status.missed:
        return status, rationale, []
    if not evidence:
        pool = hit.quotes or hit.hedged_quotes or ([hit.semantic_quote] if hit.semantic_quote else []) or hit.mention_quotes
        evidence = [quote(q) for q in pool[:MAX_QUOTES]]
    return status, rationale, evidence


def judge_criterion(scenario: Scenario, criterion: Criterion, hit: CriterionHit | None, claims: list[dict], *,
                    contradicted_by: list[dict] | None = None, calibrated: bool = True) -> CriterionResult:
    hit = hit or CriterionHit(criterion.id)
    contradicted_by = contradicted_by or []
    status, rationale, evidence = rubric_rule(criterion, hit, contradicted_by)
    if calibrated and not criterion.asks_about:  # the learned judge has never seen a framing criterion
        status, rationale, evidence = _calibrated(scenario, criterion, hit, status, rationale, evidence, bool(contradicted_by))
    score = _SCORE[status]
    about = claims_about(scenario, criterion, claims)
    wrong = next((c for c in about if c["verdict"] == "incorrect"), None)
    if wrong is not None:
        later_right = next((c for c in about[about.index(wrong) + 1:] if c["verdict"] == "correct"), None)
        if later_right is not None:
            status, score = Status.partial, PARTIAL_SCORE
            rationale += f" A wrong number was corrected later: first “{quote(wrong['text'])}”, then “{quote(later_right['text'])}”."
            evidence = [quote(wrong["text"]), quote(later_right["text"])]
        elif status is Status.met:
            status, score = Status.partial, PARTIAL_SCORE
            rationale += f" But the number was wrong: {wrong.get('explanation', '')}"
        elif status is Status.partial and evidence and all(q in quote(wrong["text"]) or quote(wrong["text"]) in q for q in evidence):
            status, score = Status.missed, 0.0
            rationale = f"The only evidence is a wrong number: {wrong.get('explanation', '')}"
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


def estimate_level(tiers: dict[str, float], *, misconceptions: int = 0) -> str:
    """Senior: nearly all must-haves and a fair share of good-to-haves (the rubric's ``levels.senior``
    adds trade-offs and numbers on top of ``levels.mid``), and no asserted misconception; mid: most
    must-haves."""
    if tiers["must"] >= SENIOR_MUST and tiers["good"] >= SENIOR_GOOD and not misconceptions:
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
    misconceptions: list[dict] | None = None,
    answers_by_step: dict[str, list[str]] | None = None,
) -> Scorecard:
    """``answers_by_step``: the candidate's answers to each step, for the coaching (none: every step
    unanswered); the coaching is left out with the model answer (``reveal_model_answer=False``)."""
    misconceptions = list(misconceptions or [])
    results = [
        judge_criterion(scenario, c, hits.get(c.id), claims,
                        contradicted_by=[m for m in misconceptions if c.id in m.get("contradicts", [])])
        for c in scenario.criteria
    ]
    return scorecard_from_results(
        scenario,
        results,
        claims,
        hints_used=hints_used,
        hint_penalty_points=hint_penalty_points,
        mode=mode,
        reveal_model_answer=reveal_model_answer,
        misconceptions=misconceptions,
        # Like the model answer, the outlines name what the steps are graded on: only once it is over.
        coaching=coach(scenario, answers_by_step or {}) if reveal_model_answer else [],
        framing=framing_of(scenario, [a for answers in (answers_by_step or {}).values() for a in answers], reveal=reveal_model_answer),
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
    misconceptions: list[dict] | None = None,
    coaching: list[StepCoaching] | None = None,
    framing: Framing | None = None,
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
        level=estimate_level(tiers, misconceptions=len(misconceptions or [])),
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
        misconceptions=list(misconceptions or []),
        coaching=list(coaching or []),
        framing=framing or Framing(),
    )
