"""Claims read as a careful interviewer reads them: own arithmetic, restatements, scope, retractions."""

from __future__ import annotations

import pytest

from interviewer.claims import check_claims

TEN_B = {"params": 10e9, "gpus": 8}


def verdicts(text: str, facts: dict | None = None) -> list[str]:
    return [c.verdict for c in check_claims(text, facts)]


@pytest.mark.parametrize(
    "text",
    [
        "2 x 80 x 8 x 128 x 2 = 655,360 bytes per token for the 70B.",
        "So 512 × 2048 = 4M tokens in a global batch.",
    ],
)
def test_written_arithmetic_is_checked_whatever_it_is_about(text):
    assert "incorrect" in verdicts(text)


@pytest.mark.parametrize(
    "text",
    [
        "2 × 24 layers × 20 KV heads × 128 × 2 bytes = 245,760 bytes per token.",
        "With an 8-stage pipeline and 32 microbatches, the bubble is (8-1)/(32+8-1) = 7/39, about 18%.",
        "τ = √(2·60·28,800) ≈ 1,860 s ≈ 31 min.",
        "At that rate the budget is gone in 720/14.4 = 50 h.",
        "Weights: 7B × 2 bytes = 14 GB.",
    ],
)
def test_right_or_unreadable_arithmetic_is_never_called_wrong(text):
    assert "incorrect" not in verdicts(text)


def test_a_restatement_in_another_unit_is_checked_against_itself():
    assert verdicts("1.2e7 s is roughly 14 days.") == ["incorrect"]
    assert verdicts("5.9e23 FLOPs at 2.0e17 FLOP/s is 2.9e6 s, which is about 8 days.")[-1] == "incorrect"
    assert "incorrect" not in verdicts("That is 2.9e6 s, which is about 34 days.")


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Adam's momentum and variance together are 80 GB for this model.", TEN_B),
        ("Twelve A100 replicas, each holding the full 4 GB of weights, is 48 GB of weights across the fleet.", {"params": 2e9}),
        ("If the 1,000 req/s peak held all day, that'd be 86.4 million requests.", {"rate": 1000, "latency": 0.2}),
    ],
)
def test_a_number_in_a_scope_the_topic_does_not_compute_is_asked_about_not_called_wrong(text, facts):
    checks = check_claims(text, facts)
    assert all(c.verdict != "incorrect" for c in checks)
    assert any(c.verdict == "unverifiable" and "which quantity did you mean" in c.explanation for c in checks) or not checks


@pytest.mark.parametrize(
    "text",
    [
        "I said 80 GB of model states before; that was wrong.",
        "I said 80 GB of model states for the 10B model. That was wrong, it is 160 GB.",
        "Earlier I claimed 80 GB for the model states of the 10B model, scratch that.",
        "Some people say 10B params with Adam need 80 GB, but that is wrong.",
        "Is it 80 GB of model states for the 10B model?",
    ],
)
def test_retractions_reports_and_questions_are_not_claims_of_their_numbers(text):
    assert "incorrect" not in verdicts(text, TEN_B)


def test_the_same_figure_asserted_is_still_caught():
    assert verdicts("10B params with Adam need 80 GB of model states.", TEN_B) == ["incorrect"]


# --- a realistic decode time above the bandwidth floor ---------------------------------------------


@pytest.mark.parametrize("text", [
    "Decode takes 20 ms per token on an A100.",
    "In practice we measured about 20 ms per token on an A100 with HF generate.",
    "On an A100 each token is roughly 25 ms, so 150 tokens take about 3.75 s.",
])
def test_a_decode_time_above_the_floor_is_asked_about_not_called_wrong(text: str) -> None:
    checks = [c for c in check_claims(text, {"params": "7e9"}) if c.quantity.startswith("decode")]
    assert checks, text
    for check in checks:
        assert check.verdict == "unverifiable", check.explanation
        assert "memory-bandwidth floor" in check.explanation


@pytest.mark.parametrize(("text", "verdict"), [
    ("Decode takes 90 ms per token on an A100.", "incorrect"),  # 10× the floor: slower than any real loop
    ("Decode takes 3 ms per token on an A100.", "incorrect"),  # faster than the bandwidth allows
    ("Theoretically decode is about 20 ms per token on an A100.", "incorrect"),  # said to be the floor
    ("At full bandwidth decode is about 20 ms per token on an A100.", "incorrect"),
    ("Decode takes about 8 ms per token on an A100.", "correct"),
])
def test_the_floor_still_decides_outside_the_realistic_band(text: str, verdict: str) -> None:
    checks = [c for c in check_claims(text, {"params": "7e9"}) if c.quantity.startswith("decode")]
    assert [c.verdict for c in checks] == [verdict], [c.explanation for c in checks]


def test_an_int8_time_equal_to_the_16_bit_floor_is_still_the_slip_it_looks_like() -> None:
    # 6.6 ms is the fp16 floor of a 6.7B model on an A100-80GB; int8 reads half the bytes.
    checks = check_claims("With int8 weights decode takes about 6.6 ms per token on an A100-80GB.", {"params": "6.74e9"})
    assert [c.verdict for c in checks] == ["incorrect"], [c.explanation for c in checks]


def test_a_time_faster_than_one_gpu_and_far_slower_than_a_split_is_no_realistic_figure() -> None:
    # The scenario's 64 GPUs give a 64-way split reading (0.12 ms) beside one GPU (7.7 ms): 0.8 ms is
    # faster than one GPU can read the weights and 6.7× a split's floor, so it is wrong under both.
    from rubrics.loader import get_scenario

    facts = dict(get_scenario("moe-routing").scenario.facts)
    checks = check_claims("reading the 12.9B active parameters takes about 0.8 ms per token", facts)
    assert [c.verdict for c in checks] == ["incorrect"], [c.explanation for c in checks]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We're training a 3B model with mixed-precision Adam, no sharding. So each GPU needs about 24 GB of model states.", "incorrect"),
        ("We're training a 3B model with mixed-precision Adam, no sharding. So each GPU needs about 48 GB of model states.", "correct"),
        ("Plain DDP with mixed-precision Adam on a 3B model: each GPU holds about 48 GB of model states.", "correct"),
        ("Plain DDP with mixed-precision Adam on a 3B model: each GPU holds about 6 GB of model states.", "incorrect"),
    ],
)
def test_an_unsharded_replica_per_gpu_needs_no_gpu_count(text, expected):
    assert verdicts(text, {}) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Sharded save: every one of the 64 ranks writes just under two gigs of its own master weights + moments.",
        "With tensor parallel 2 each GPU keeps 16 of the 32 KV heads, so a full 32k-token request costs 8 GiB of cache per GPU.",
        "Spread over 4 cards, that's about 35 GB of fp16 weights for the 70B on each.",
    ],
)
def test_a_share_over_a_count_the_calculator_did_not_use_is_asked_about_not_called_wrong(text):
    facts = {"params": 10e9} if "ranks" in text else {"model": "llama-2-7b"} if "KV" in text else {}
    assert "incorrect" not in verdicts(text, facts)


def test_a_flops_count_worked_out_next_to_a_spelled_rate_is_not_a_peak():
    """Seen in a tmux run of serve-2b-p99: "2 x 2e9 x 500 = 2e12 FLOPs, so about 6.4 ms at the A100's
    312 TFLOP/s peak" had its 2e12 FLOPs checked as the A100's peak FLOP/s, and the interviewer asked
    about it. The sentence spells the rate "/s" and works the count out: the count is no peak."""
    from interviewer.claims import check_claims
    from interviewer.claims.checker import asks_which_quantity
    from rubrics.loader import get_scenario

    facts = dict(get_scenario("serve-2b-p99").scenario.facts)
    text = "Prefill is compute-bound: 2 x 2e9 x 500 = 2e12 FLOPs, so about 6.4 ms at the A100's 312 TFLOP/s peak."
    checks = check_claims(text, facts)
    assert all(c.quantity != "peak FLOP/s (dense)" for c in checks)
    assert not any(asks_which_quantity(c.model_dump()) for c in checks)
    assert any(c.quantity == "prefill time" and c.verdict == "correct" for c in checks)
    # A sloppy "FLOPs" for a GPU's rate is still read as its peak.
    peak = check_claims("The A100 does 312e12 FLOPs in bf16.", facts)
    assert [(c.quantity, c.verdict) for c in peak] == [("peak FLOP/s (dense)", "correct")]
