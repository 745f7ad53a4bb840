"""The grader on answers of known quality, for each of the six named scenarios (tests/fixtures/eval).

Acceptance: strong > adequate > weak > off-topic for every scenario; the injection answer scores
no higher than the weak one; every planted wrong number is flagged. Also: every scenario's model
answer is graded senior and none of its numbers is computed as wrong by the calculators.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interviewer.engine import grade_answers
from interviewer.engine.grading import check_claims_safely
from rubrics.loader import get_scenario, load_scenarios

pytestmark = pytest.mark.slow

EVAL_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
NAMED = ["train-10b-8gpu", "serve-2b-p99", "realtime-translation", "attention-vs-rnn", "moe-routing", "parallelism-allreduce"]
LEVELS = ["strong", "adequate", "weak", "off_topic", "injection", "wrong_numbers"]


def load_eval(scenario_id: str) -> dict:
    return yaml.safe_load((EVAL_DIR / f"{scenario_id}.yaml").read_text())


@pytest.fixture(scope="module")
def scores() -> dict[str, dict[str, object]]:
    table = {}
    for scenario_id in NAMED:
        data = load_eval(scenario_id)
        scenario = get_scenario(scenario_id).scenario
        table[scenario_id] = {level: grade_answers(scenario, data[level]) for level in LEVELS}
    return table


@pytest.mark.parametrize("scenario_id", NAMED)
def test_eval_fixture_is_complete(scenario_id):
    data = load_eval(scenario_id)
    steps = len(get_scenario(scenario_id).scenario.steps)
    for level in LEVELS:
        assert data[level] and all(isinstance(turn, str) and turn.strip() for turn in data[level]), level
    assert len(data["strong"]) == steps
    assert len(data["planted_wrong"]) >= 2


@pytest.mark.parametrize("scenario_id", NAMED)
def test_quality_levels_rank_in_order(scores, scenario_id):
    s = {level: card.score for level, card in scores[scenario_id].items()}
    assert s["strong"] > s["adequate"] > s["weak"] > s["off_topic"], s
    assert s["off_topic"] <= 10, "fluent off-topic text must score near zero"
    assert s["injection"] <= s["weak"], "an injection attempt must not raise the score"


@pytest.mark.parametrize("scenario_id", NAMED)
def test_levels_are_estimated_sensibly(scores, scenario_id):
    assert scores[scenario_id]["strong"].level == "senior"
    assert scores[scenario_id]["off_topic"].level == "below mid"


@pytest.mark.parametrize("scenario_id", NAMED)
def test_every_planted_wrong_number_is_flagged(scores, scenario_id):
    claims = scores[scenario_id]["wrong_numbers"].claims
    wrong = [c for c in claims if c["verdict"] == "incorrect"]
    for planted in load_eval(scenario_id)["planted_wrong"]:
        needle = " ".join(planted.lower().split())
        assert any(needle in " ".join(c["text"].lower().split()) or " ".join(c["text"].lower().split()) in needle for c in wrong), (
            f"planted wrong number not flagged: {planted!r}; incorrect claims: {[c['text'] for c in wrong]}"
        )


@pytest.mark.parametrize("scenario_id", NAMED)
def test_strong_answers_have_no_wrong_numbers(scores, scenario_id):
    wrong = [c for c in scores[scenario_id]["strong"].claims if c["verdict"] == "incorrect"]
    assert wrong == [], [(c["text"], c["explanation"]) for c in wrong]


@pytest.mark.parametrize("scenario", load_scenarios(), ids=lambda s: s.id)
def test_model_answer_numbers_agree_with_the_calculators(scenario):
    claims = check_claims_safely(scenario.model_answer, dict(scenario.facts))
    wrong = [(c["text"], c["explanation"]) for c in claims if c["verdict"] == "incorrect"]
    assert wrong == []


@pytest.mark.parametrize("scenario", load_scenarios(), ids=lambda s: s.id)
def test_model_answer_grades_senior(scenario):
    paragraphs = [p for p in scenario.model_answer.split("\n\n") if p.strip()]
    card = grade_answers(scenario, paragraphs)
    assert card.level == "senior", {c.id: c.status.value for c in card.criteria}
    assert card.score >= 80
