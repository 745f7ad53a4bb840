"""Mastery per topic, the review schedule of missed drills, and what to practise next.

Mastery is computed from what the store keeps (every checked drill answer, every criterion of
every finished interview), so it survives restarts and never drifts from its evidence:

- each drill answer counts 1 (correct) or 0, weighted by difficulty (easy 1, medium 1.5, hard 2);
- each interview criterion counts its score (0-1) with weight ``INTERVIEW_WEIGHT``, for the
  scenario it belongs to (a topic is a scenario id);
- every weight halves every ``HALF_LIFE_DAYS`` days, so recent results count more;
- score = Σ w·x / (Σ w + ``PRIOR_WEIGHT``): a prior of two "unknown" answers, so a topic becomes
  strong only with enough evidence (5 easy, 4 medium or 3 hard drills right).

The schedule is a Leitner system: a missed drill is due again in 1 day; each right answer moves
it to the next box (3, 7, 21 days) and after the last it leaves the schedule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from interviewer.domain import utcnow
from interviewer.drills.bank import DrillBank
from interviewer.drills.schema import DIFFICULTY_WEIGHTS, DrillItem
from interviewer.store.db import DrillAttempt

if TYPE_CHECKING:
    from interviewer.store.db import TranscriptStore
    from rubrics.schema import Scenario

HALF_LIFE_DAYS = 21.0
INTERVIEW_WEIGHT = 0.5
PRIOR_WEIGHT = 2.0
MIN_EVIDENCE = 0.75
"""Below this much (recency-weighted) evidence a topic is unknown."""
REVIEW_INTERVALS_DAYS = (1, 3, 7, 21)
SESSION_LENGTH = 10


class MasteryLevel(StrEnum):
    unknown = "unknown"
    weak = "weak"
    fair = "fair"
    strong = "strong"


LEVEL_THRESHOLDS = ((0.7, MasteryLevel.strong), (0.4, MasteryLevel.fair))
"""score ≥ 0.7 is strong, ≥ 0.4 fair, below that weak (with at least ``MIN_EVIDENCE``)."""


@dataclass(frozen=True)
class TopicMastery:
    topic: str
    level: MasteryLevel
    score: float
    """0-1, shrunk towards 0 when there is little evidence (see the module docstring)."""
    evidence: float
    """Recency- and difficulty-weighted amount of evidence."""
    drills_answered: int
    drills_correct: int
    interview_criteria: int
    due: int
    """Missed drills of this topic due for review now."""

    def to_json_dict(self) -> dict:
        return {
            "topic": self.topic,
            "level": self.level.value,
            "score": round(self.score, 3),
            "evidence": round(self.evidence, 2),
            "drills_answered": self.drills_answered,
            "drills_correct": self.drills_correct,
            "interview_criteria": self.interview_criteria,
            "due": self.due,
        }


def _recency(moment: datetime, now: datetime) -> float:
    age_days = max((now - moment).total_seconds() / 86400.0, 0.0)
    return 0.5 ** (age_days / HALF_LIFE_DAYS)


def level_for(score: float, evidence: float) -> MasteryLevel:
    if evidence < MIN_EVIDENCE:
        return MasteryLevel.unknown
    return next((level for threshold, level in LEVEL_THRESHOLDS if score >= threshold), MasteryLevel.weak)


def compute_mastery(
    topics: Iterable[str],
    attempts: Iterable[DrillAttempt],
    criteria: Iterable[tuple[str, datetime, float]],
    schedule: dict[str, tuple[int, datetime]] | None = None,
    bank: DrillBank | None = None,
    now: datetime | None = None,
) -> dict[str, TopicMastery]:
    """Mastery of each topic from drill answers and interview criteria (pure: no store, no clock)."""
    now = now or utcnow()
    topic_list = list(topics)
    weighted = {topic: 0.0 for topic in topic_list}
    weights = {topic: 0.0 for topic in topic_list}
    answered = dict.fromkeys(topic_list, 0)
    right = dict.fromkeys(topic_list, 0)
    criteria_count = dict.fromkeys(topic_list, 0)
    for attempt in attempts:
        if attempt.topic not in weights:
            continue
        weight = DIFFICULTY_WEIGHTS.get(attempt.difficulty, 1.0) * _recency(attempt.answered_at, now)
        weights[attempt.topic] += weight
        weighted[attempt.topic] += weight * attempt.correct
        answered[attempt.topic] += 1
        right[attempt.topic] += attempt.correct
    for scenario_id, finished_at, value in criteria:
        if scenario_id not in weights:
            continue
        weight = INTERVIEW_WEIGHT * _recency(finished_at, now)
        weights[scenario_id] += weight
        weighted[scenario_id] += weight * value
        criteria_count[scenario_id] += 1
    due = dict.fromkeys(topic_list, 0)
    if schedule and bank is not None:
        topic_of = {item.id: item.topic for item in bank.items}
        for item_id, (_, due_at) in schedule.items():
            if due_at <= now and topic_of.get(item_id) in due:
                due[topic_of[item_id]] += 1
    result = {}
    for topic in topic_list:
        score = weighted[topic] / (weights[topic] + PRIOR_WEIGHT)
        result[topic] = TopicMastery(
            topic, level_for(score, weights[topic]), score, weights[topic], answered[topic], right[topic], criteria_count[topic], due[topic]
        )
    return result


def next_review(box: int | None, correct: bool, now: datetime) -> tuple[int, datetime] | None:
    """The Leitner step: (box, due at) after this answer, or None when the item is not (or no longer) under review.

    ``box`` is the item's current box, None when it is not under review."""
    if not correct:
        return 0, now + timedelta(days=REVIEW_INTERVALS_DAYS[0])
    if box is None:
        return None
    following = box + 1
    if following >= len(REVIEW_INTERVALS_DAYS):
        return None
    return following, now + timedelta(days=REVIEW_INTERVALS_DAYS[following])


def probe_weights(bank: DrillBank, scenarios: Iterable[Scenario]) -> dict[str, float]:
    """How often interviews probe each topic, relative to the average topic (mean 1).

    A topic's count is the number of interview criteria, across every scenario, that cite one of
    the notes its drills practise: KV-cache and ZeRO notes are probed by several scenarios."""
    scenario_list = list(scenarios)
    counts: dict[str, float] = {}
    for topic in bank.topics():
        notes = {item.note for item in bank.for_topic(topic)}
        counts[topic] = float(sum(1 for scenario in scenario_list for criterion in scenario.criteria if notes & set(criterion.notes)))
    mean = sum(counts.values()) / len(counts) if counts else 1.0
    return {topic: (count / mean if mean else 1.0) for topic, count in counts.items()}


@dataclass(frozen=True)
class TopicPriority:
    topic: str
    priority: float
    """(1 − mastery score) × how often interviews probe the topic; highest first."""
    mastery: TopicMastery
    probe_weight: float


def topic_priorities(mastery: dict[str, TopicMastery], weights: dict[str, float]) -> list[TopicPriority]:
    priorities = [
        TopicPriority(topic, (1.0 - entry.score) * weights.get(topic, 1.0), entry, weights.get(topic, 1.0)) for topic, entry in mastery.items()
    ]
    return sorted(priorities, key=lambda p: (-p.priority, p.topic))


_DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}
_START_AT = {MasteryLevel.unknown: 0, MasteryLevel.weak: 0, MasteryLevel.fair: 1, MasteryLevel.strong: 2}


def _fresh_items(items: list[DrillItem], level: MasteryLevel, answered_right: set[str]) -> list[DrillItem]:
    """A topic's items in the order to practise them: not yet answered right first, starting at the
    difficulty the mastery level calls for (easy for unknown/weak, medium for fair, hard for strong)."""
    start = _START_AT[level]
    return sorted(
        items,
        key=lambda item: (item.id in answered_right, (_DIFFICULTY_ORDER[item.difficulty.value] - start) % 3, items.index(item)),
    )


def choose_session(
    bank: DrillBank,
    mastery: dict[str, TopicMastery],
    schedule: dict[str, tuple[int, datetime]],
    attempts: Iterable[DrillAttempt],
    *,
    weights: dict[str, float] | None = None,
    topic: str | None = None,
    now: datetime | None = None,
    length: int = SESSION_LENGTH,
) -> list[DrillItem]:
    """Ten drills: missed ones that are due first (oldest due first), then fresh items.

    With ``topic``, only that topic's items; without ("practise next"), up to four items from each
    topic in priority order (lowest mastery × most probed first)."""
    now = now or utcnow()
    known = {item.id: item for item in bank.items}
    answered_right = {attempt.item_id for attempt in attempts if attempt.correct}
    due = sorted((due_at, item_id) for item_id, (_, due_at) in schedule.items() if due_at <= now and item_id in known)
    chosen: list[DrillItem] = [known[item_id] for _, item_id in due if topic is None or known[item_id].topic == topic][:length]
    if topic is not None:
        level = mastery[topic].level if topic in mastery else MasteryLevel.unknown
        for item in _fresh_items(bank.for_topic(topic), level, answered_right):
            if len(chosen) >= length:
                break
            if item not in chosen:
                chosen.append(item)
        return chosen
    per_topic = 4
    for priority in topic_priorities(mastery, weights or {}):
        taken = 0
        for item in _fresh_items(bank.for_topic(priority.topic), priority.mastery.level, answered_right):
            if len(chosen) >= length or taken >= per_topic:
                break
            if item not in chosen:
                chosen.append(item)
                taken += 1
        if len(chosen) >= length:
            break
    return chosen


class DrillProgress:
    """The drills' view of the store: record answers, read mastery, pick the next session."""

    def __init__(self, store: TranscriptStore, bank: DrillBank, scenarios: Iterable[Scenario] = ()) -> None:
        self.store = store
        self.bank = bank
        self.weights = probe_weights(bank, scenarios) if scenarios else {}

    def record(self, item: DrillItem, answer: str, correct: bool, now: datetime | None = None) -> tuple[int, datetime] | None:
        """Store the answer and move the item in the review schedule; returns its new (box, due at)."""
        now = now or utcnow()
        current = self.store.drill_schedule().get(item.id)
        schedule = next_review(current[0] if current else None, correct, now)
        attempt = DrillAttempt(item.id, item.topic, item.kind.value, item.difficulty.value, correct, answer, now)
        self.store.record_drill_attempt(attempt, schedule)
        return schedule

    def mastery(self, now: datetime | None = None) -> dict[str, TopicMastery]:
        return compute_mastery(
            self.bank.topics(), self.store.drill_attempts(), self.store.criterion_results(), self.store.drill_schedule(), self.bank, now
        )

    def priorities(self, now: datetime | None = None) -> list[TopicPriority]:
        return topic_priorities(self.mastery(now), self.weights)

    def session(self, topic: str | None = None, now: datetime | None = None) -> list[DrillItem]:
        now = now or utcnow()
        return choose_session(
            self.bank, self.mastery(now), self.store.drill_schedule(), self.store.drill_attempts(), weights=self.weights, topic=topic, now=now
        )


def open_progress(store: TranscriptStore) -> DrillProgress:
    """Progress over the shipped drills and scenarios."""
    from interviewer.drills.bank import load_bank
    from rubrics.loader import load_scenarios

    return DrillProgress(store, load_bank(), load_scenarios())


def mastery_summary(mastery: dict[str, TopicMastery]) -> str:
    """One line: "2 strong · 3 fair · 1 weak · 6 unknown"."""
    counts = {level: 0 for level in MasteryLevel}
    for entry in mastery.values():
        counts[entry.level] += 1
    order = (MasteryLevel.strong, MasteryLevel.fair, MasteryLevel.weak, MasteryLevel.unknown)
    return " · ".join(f"{counts[level]} {level.value}" for level in order if counts[level]) or "no topics"


def overview_line(store: TranscriptStore | None, now: datetime | None = None) -> str:
    """The one-line mastery summary the home and history screens show."""
    if store is None:
        return "Mastery: unavailable (no transcript database)"
    tracker = open_progress(store)
    priorities = tracker.priorities(now)
    summary = mastery_summary({p.topic: p.mastery for p in priorities})
    due = sum(p.mastery.due for p in priorities)
    due_text = f" · {due} drill{'s' if due != 1 else ''} due for review" if due else ""
    return f"Mastery: {summary}{due_text} · next: {priorities[0].topic}" if priorities else "Mastery: no drills"
