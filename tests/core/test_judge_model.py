"""The calibrated judge: reproducible from the dev files, and held to its hard limits."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from interviewer.domain import Status
from interviewer.engine import judge_model

ROOT = Path(__file__).resolve().parents[2]
AT = {name: i for i, name in enumerate(judge_model.FEATURES)}


def test_the_shipped_model_loads_and_names_its_features():
    model = judge_model.load()
    assert model is not None and len(model.weights) == len(judge_model.FEATURES)


@pytest.mark.slow
def test_the_shipped_weights_are_what_the_dev_files_train():
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "train_judge.py"), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def _random_features(rng: random.Random) -> list[float]:
    x = [0.0] * len(judge_model.FEATURES)
    x[AT["asserted_cues"]] = rng.choice([0, 0, 1, 2, 3])
    x[AT["value_cues"]] = rng.choice([0, 0, 1])
    x[AT["min_cues"]] = rng.choice([1, 2])
    x[AT["rubric_cues"]] = rng.choice([2, 4, 6])
    x[AT["asserted_share"]] = x[AT["asserted_cues"]] / x[AT["rubric_cues"]]
    x[AT["rule_threshold_met"]] = float(x[AT["asserted_cues"]] + x[AT["value_cues"]] >= x[AT["min_cues"]])
    x[AT["mentions"]], x[AT["hedged"]], x[AT["rejected"]] = rng.choice([0, 1]), rng.choice([0, 1]), rng.choice([0, 1])
    x[AT["similarity"]], x[AT["coverage"]] = rng.random(), rng.random()
    for need in ("mention", "explanation", "number", "tradeoff", "question"):
        x[AT[f"requires_{need}"]] = float(rng.random() < 0.4)
    x[AT[rng.choice(["tier_must", "tier_good", "tier_bonus"])]] = 1.0
    x[AT["contradicted"]] = float(rng.random() < 0.2)
    cues = x[AT["asserted_cues"]] + x[AT["value_cues"]]
    # The rule's verdict as the rule reaches it: met needs enough asserted cues, partial some evidence.
    if cues >= x[AT["min_cues"]]:
        x[AT["rule_status"]] = rng.choice([0.5, 1.0])
    elif cues or x[AT["hedged"]] or x[AT["similarity"]] >= 0.62:
        x[AT["rule_status"]] = 0.5
    else:
        x[AT["rule_status"]] = rng.choice([0.0, 0.5]) if x[AT["mentions"]] else 0.0
    return x


def test_hard_limits_hold_for_any_evidence():
    model, rng = judge_model.load(), random.Random(0)
    rank = {Status.missed: 0, Status.partial: 1, Status.met: 2}
    for _ in range(5000):
        x = _random_features(rng)
        status, probability = judge_model.decide(model, x)
        rule = judge_model.STATUSES[round(x[AT["rule_status"]] * 2)]
        asserted = x[AT["asserted_cues"]] + x[AT["value_cues"]] > 0
        assert 0.0 <= probability <= 1.0
        if rule is Status.met:
            assert status is Status.met
        if not asserted:
            assert status is not Status.met
        if (asserted or x[AT["hedged"]]) and not x[AT["contradicted"]]:
            assert status is not Status.missed
        if x[AT["contradicted"]]:
            assert rank[status] <= rank[rule]
        if not (asserted or x[AT["hedged"]] or x[AT["mentions"]] or x[AT["similarity"]] >= 0.62):
            assert status is Status.missed
