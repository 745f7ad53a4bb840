"""A calibrated judge: a small softmax regression over the rubric rule's evidence features.

The rubric rule (``scoring.rubric_rule``) decides met / partial / missed from counted cues. Expert
graders are subtler about "partly met": they weigh how much of the criterion the answer covers, how
close its best sentence comes, whether numbers back it. This model reads the same evidence (cue
counts, value matches, mentions, hedges, rejections, similarity, word coverage, what the criterion
requires, its tier, the rule's own verdict) and picks the status an expert would most likely give.
It does not read how long the answer is: a terse correct statement is as good as a long one.

It only weighs what the rule left open: a criterion the rule calls met (enough asserted cues) stays
met. Hard limits keep it honest (``decide``): it never meets a criterion without an asserted cue or
a matched number, never credits a criterion with no evidence at all, never drops one with an
asserted cue below partial, and never lifts a criterion a misconception contradicts above the
rule's verdict. ``bench/train_judge.py`` measures it leave-one-scenario-out on the dev sets with
these limits and records the figure in the weights file.

The weights (``judge_model.json``) are trained by ``bench/train_judge.py`` on the dev answer sets
only (``bench/data/judge_dev``, ``judge_dev2``, ``judge_dev3``), deterministically; the file records the data it
was trained on and the leave-one-scenario-out agreement measured before shipping.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from interviewer.domain import Status
from interviewer.engine.evidence import SEMANTIC_PARTIAL, CriterionHit, coverage, criterion_quantities
from rubrics.schema import Criterion, Scenario

WEIGHTS_FILE = Path(__file__).with_name("judge_model.json")
STATUSES = (Status.missed, Status.partial, Status.met)
_RULE_SCORE = {Status.missed: 0.0, Status.partial: 0.5, Status.met: 1.0}

FEATURES = (
    "asserted_cues", "value_cues", "min_cues", "rubric_cues", "asserted_share", "rule_threshold_met",
    "mentions", "hedged", "rejected", "similarity", "coverage",
    "requires_mention", "requires_explanation", "requires_number", "requires_tradeoff", "requires_question",
    "has_quantities", "tier_must", "tier_good", "tier_bonus", "contradicted", "rule_status",
)


def features(scenario: Scenario, criterion: Criterion, hit: CriterionHit, rule: Status, *, contradicted: bool) -> list[float]:
    regex = [cue for cue in hit.cues if not cue.startswith("= ")]
    values = [cue for cue in hit.cues if cue.startswith("= ")]
    return [
        float(len(regex)), float(len(values)), float(criterion.min_cues), float(len(criterion.evidence)),
        len(regex) / max(1, len(criterion.evidence)), float(len(hit.cues) >= criterion.min_cues),
        float(len(hit.mentions)), float(len(hit.hedged)), float(len(hit.rejected)), hit.semantic, coverage(criterion, hit),
        *(float(need in criterion.requires) for need in ("mention", "explanation", "number", "tradeoff", "question")),
        float(bool(criterion_quantities(scenario, criterion))),
        *(float(criterion.tier.value == tier) for tier in ("must", "good", "bonus")),
        float(contradicted), _RULE_SCORE[rule],
    ]


@dataclass(frozen=True)
class Model:
    mean: list[float]
    scale: list[float]
    weights: list[list[float]]
    """One row per feature, one column per status (missed, partial, met)."""
    bias: list[float]

    def probabilities(self, x: list[float]) -> list[float]:
        z = [(v - m) / s for v, m, s in zip(x, self.mean, self.scale, strict=True)]
        logits = [self.bias[k] + sum(zi * row[k] for zi, row in zip(z, self.weights, strict=True)) for k in range(len(STATUSES))]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return [e / total for e in exps]


@lru_cache(maxsize=1)
def load() -> Model | None:
    """The shipped model, or None when its file is missing (the rule alone then judges)."""
    try:
        data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE}: trained on other features; run bench/train_judge.py")
    return Model(data["mean"], data["scale"], data["weights"], data["bias"])


_AT = {name: index for index, name in enumerate(FEATURES)}


def decide(model: Model, x: list[float]) -> tuple[Status, float]:
    """The model's status within the hard limits (read from the features themselves), and its probability."""
    probabilities = model.probabilities(x)
    rule = STATUSES[round(x[_AT["rule_status"]] * 2)]
    if rule is Status.met:
        return rule, probabilities[STATUSES.index(rule)]  # enough asserted cues: the rule's "met" stands
    status = STATUSES[max(range(len(STATUSES)), key=probabilities.__getitem__)]
    asserted = x[_AT["asserted_cues"]] + x[_AT["value_cues"]] > 0
    named = x[_AT["mentions"]] > 0 and x[_AT["requires_mention"]] and not x[_AT["requires_number"]]
    any_evidence = asserted or x[_AT["hedged"]] > 0 or x[_AT["similarity"]] >= SEMANTIC_PARTIAL or named
    contradicted = bool(x[_AT["contradicted"]])
    if not any_evidence:
        status = Status.missed
    elif not asserted and status is Status.met:
        status = Status.partial
    elif (asserted or x[_AT["hedged"]] > 0) and status is Status.missed and not contradicted:
        status = Status.partial  # a cue the candidate asserted (or hedged) is evidence: the model weighs it, it cannot erase it
    if contradicted and _RULE_SCORE[status] > _RULE_SCORE[rule]:
        status = rule
    return status, probabilities[STATUSES.index(status)]
