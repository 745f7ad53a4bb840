"""The pydantic v2 schema of an interview scenario (one YAML file in ``rubrics/scenarios``).

A scenario is data: the interviewer engine, the grader and the TUI read it and never
hard-code interview content. Every criterion names the evidence a grader looks for, so
a score can always be traced back to the candidate's words.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

TIER_WEIGHTS: dict[str, float] = {"must": 0.60, "good": 0.30, "bonus": 0.10}
"""Weight of each criterion tier in the total score (must-have 60%, good-to-have 30%, bonus 10%)."""

KNOWN_CALCULATORS: frozenset[str] = frozenset(
    {
        "model-states",
        "activations",
        "kv-cache",
        "params",
        "forward-flops",
        "train-flops",
        "decode-latency",
        "prefill-latency",
        "allreduce",
        "bubble",
        "chinchilla",
        "time-to-train",
        "littles-law",
    }
)
"""Calculator names a criterion's numeric check may name (the ``interviewer calc`` names)."""

_ID = r"^[a-z0-9][a-z0-9-]*$"


class StrictModel(BaseModel):
    """Base for rubric models: unknown keys are errors, so typos in YAML are caught."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


class Kind(StrEnum):
    design = "design"
    concept = "concept"


class Tier(StrEnum):
    must = "must"
    good = "good"
    bonus = "bonus"

    @property
    def weight(self) -> float:
        return TIER_WEIGHTS[self.value]


def _check_patterns(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        try:
            re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise ValueError(f"cue {pattern!r} is not a valid regular expression: {exc}") from exc
    return patterns


class Levels(StrictModel):
    mid: str
    """What a solid mid-level answer covers."""
    senior: str
    """What a senior answer adds (trade-offs, numbers, failure modes)."""


class Step(StrictModel):
    id: str = Field(pattern=_ID)
    title: str = Field(min_length=1, max_length=30)
    """The step's name wherever one is shown (progress list, step bar, CLI): "Batching and
    capacity", not the id. At most 30 characters: one line of the side panel in a wide terminal."""
    question: str
    """What the interviewer asks at this step."""
    hint: str
    """Given on request; costs a little score."""
    key_decision: str
    """The decision this step is about, in one sentence."""
    common_wrong_answer: str
    """The wrong answer candidates often give, described for the interviewer."""
    wrong_answer_cues: list[str] = Field(default_factory=list)
    """Regexes that detect the common wrong answer in a candidate's turn."""
    probes: list[str] = Field(min_length=1)
    """Follow-up questions, used at most once each."""
    contradicts: list[str] = Field(default_factory=list)
    """Criteria the common wrong answer contradicts: asserting it cancels their credit."""
    outline: list[str] = Field(min_length=3, max_length=5)
    """An outline of a strong answer to this step, 3-5 ordered points, shown as coaching on the
    scorecard (only after the interview, so it may name the figures the step is graded on)."""
    tip: str = Field(min_length=1)
    """One pro tip for this step, shown with the outline."""

    _cues = field_validator("wrong_answer_cues")(classmethod(lambda cls, v: _check_patterns(v)))


Requirement = Literal["mention", "explanation", "number", "tradeoff", "question"]
"""What a criterion asks of the candidate: naming a technique (``mention``: a bare keyword earns
partial credit), an explanation or mechanism, a number (matched by value), a trade-off, or asking
about the problem (``question``: the candidate's questions are the evidence)."""


class NumericCheck(StrictModel):
    calculator: str
    """One of ``KNOWN_CALCULATORS``."""
    inputs: dict[str, Any] = Field(default_factory=dict)
    """Keyword inputs of the calculator, e.g. ``{params: 10e9, gpus: 8, zero: 3}``."""
    quantity: str
    """What the number is, in words ("model-state memory per GPU")."""

    @field_validator("calculator")
    @classmethod
    def _known_calculator(cls, name: str) -> str:
        if name not in KNOWN_CALCULATORS:
            raise ValueError(f"unknown calculator {name!r}; known: {', '.join(sorted(KNOWN_CALCULATORS))}")
        return name


class Criterion(StrictModel):
    id: str = Field(pattern=_ID)
    tier: Tier
    step: str | None = None
    """The step this criterion belongs to (follow-up probes come from that step)."""
    description: str
    """What the candidate must show, as a grader would phrase it."""
    evidence: list[str] = Field(default_factory=list)
    """Evidence cues: case-insensitive regexes a grader looks for in the candidate's words. Never a
    literal number: the quantities in ``description`` are matched by value (any unit or notation)."""
    min_cues: int = Field(default=1, ge=1)
    """How many distinct cues must match for the criterion to be met (fewer: partly met)."""
    requires: list[Requirement] = Field(default_factory=lambda: ["explanation"], min_length=1)
    """What meeting it takes; see ``Requirement``. Unset, the strictest reading: an explanation
    (a bare mention of a term earns nothing). Every shipped scenario sets it explicitly."""
    check: NumericCheck | None = None
    """An optional numeric check the candidate's figure is compared against."""
    notes: list[str] = Field(min_length=1)
    """Knowledge note ids (``knowledge/notes/<id>.md``) to read when this is missed."""
    probe: str | None = None
    """A follow-up question that targets exactly this criterion."""
    asks_about: list[str] = Field(default_factory=list)
    """Framing: ids of the scenario's ``ask_facts``. A question (or a stated intent to ask) that
    reaches one of them is a cue, so the criterion is met by asking about ``min_cues`` of them and
    partly met by one. Needs ``requires: [question]``."""

    _cues = field_validator("evidence")(classmethod(lambda cls, v: _check_patterns(v)))

    @model_validator(mode="after")
    def _has_evidence(self) -> Criterion:
        if not self.evidence and not self.asks_about and "number" not in self.requires:
            raise ValueError(
                "evidence: needs at least one cue (or requires: [number], matched by the description's quantities, or asks_about)"
            )
        if self.asks_about and "question" not in self.requires:
            raise ValueError("asks_about: the criterion must require a question (requires: [question])")
        return self


class AntiPattern(StrictModel):
    id: str = Field(pattern=_ID)
    description: str
    cues: list[str] = Field(min_length=1)
    """Regexes that detect the anti-pattern in a candidate's turn."""
    pushback: str
    """What the interviewer says when it sees it."""
    notes: list[str] = Field(default_factory=list)
    contradicts: list[str] = Field(default_factory=list)
    """Criteria this anti-pattern contradicts: asserting it cancels their credit."""

    _cues = field_validator("cues")(classmethod(lambda cls, v: _check_patterns(v)))


class AskFact(StrictModel):
    """A fact about the problem the interviewer tells a candidate who asks about it.

    ``given: false`` facts are revealed only when asked (dataset size, budget, deadline, traffic
    shape, acceptable quality loss): asking about them is the framing a strong candidate does.
    ``given: true`` facts restate a line of ``given`` so that a question about it is answered too."""

    id: str = Field(pattern=_ID)
    topic: str = Field(min_length=1, max_length=60)
    """What the fact is about, as a short noun phrase ("peak request rate"); the scorecard lists
    the topics asked about and, for ``matters`` facts, the ones never asked."""
    cues: list[str] = Field(min_length=1)
    """Regexes that recognise a question about this topic (matched against the question only)."""
    answer: str = Field(min_length=1)
    """What the interviewer replies, in one or two sentences, as an interviewer would say it."""
    given: bool = False
    """The fact is already stated to the candidate in ``given``."""
    matters: bool = True
    """A strong candidate would ask about this before designing (only for facts not given)."""

    _cues = field_validator("cues")(classmethod(lambda cls, v: _check_patterns(v)))


class Scenario(StrictModel):
    id: str = Field(pattern=_ID)
    title: str
    kind: Kind
    topics: list[str] = Field(default_factory=list)
    prompt: str
    given: list[str] = Field(default_factory=list)
    """Facts and constraints stated to the candidate."""
    facts: dict[str, float | int | str] = Field(default_factory=dict)
    """The given facts as values, used to fill in claim checks (params, gpus, gpu, seq, ...)."""
    ask_facts: list[AskFact] = Field(default_factory=list)
    """Facts the interviewer gives when asked (see ``AskFact``)."""
    levels: Levels
    steps: list[Step] = Field(min_length=1)
    criteria: list[Criterion] = Field(min_length=3)
    anti_patterns: list[AntiPattern] = Field(default_factory=list)
    model_answer: str

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        for label, items in (
            ("steps", self.steps),
            ("criteria", self.criteria),
            ("anti_patterns", self.anti_patterns),
            ("ask_facts", self.ask_facts),
        ):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"{label}: duplicate id {item.id!r}")
                seen.add(item.id)
        step_ids = {step.id for step in self.steps}
        criterion_ids = {criterion.id for criterion in self.criteria}
        for label, items in (("steps", self.steps), ("anti_patterns", self.anti_patterns)):
            for item in items:
                unknown = [cid for cid in item.contradicts if cid not in criterion_ids]
                if unknown:
                    raise ValueError(f"{label}: {item.id}: contradicts unknown criteria {unknown}")
        fact_ids = {fact.id for fact in self.ask_facts}
        for criterion in self.criteria:
            unknown = [fid for fid in criterion.asks_about if fid not in fact_ids]
            if unknown:
                raise ValueError(f"criteria: {criterion.id}: asks_about unknown ask_facts {unknown}")
            if criterion.step is not None and criterion.step not in step_ids:
                raise ValueError(f"criteria: {criterion.id}: step {criterion.step!r} is not one of {sorted(step_ids)}")
        tiers = {criterion.tier for criterion in self.criteria}
        missing = {Tier.must, Tier.good} - tiers
        if missing:
            raise ValueError(f"criteria: no {' or '.join(sorted(missing))} criterion")
        return self

    def criteria_for(self, tier: Tier) -> list[Criterion]:
        return [c for c in self.criteria if c.tier == tier]

    def step_index(self, step_id: str) -> int:
        return next(i for i, step in enumerate(self.steps) if step.id == step_id)
