"""Readings a blind-written claim set (bench/data/claims/claims_dev_c.yaml) showed were wrong: each
was a correct number called incorrect. One test per reading, in several phrasings."""

from __future__ import annotations

import pytest

from interviewer.claims import check_claims
from rubrics.loader import get_scenario


def facts(scenario: str) -> dict:
    return dict(get_scenario(scenario).scenario.facts)


def verdicts(text: str, given: dict | None = None) -> list[str]:
    return [c.verdict for c in check_claims(text, given or {})]


@pytest.mark.parametrize(("text", "value"), [
    ("L = λW → 1,000/s × 0.2 s = two hundred requests in flight, tops", 200),
    ("model states for 10B params w/ Adam: a hundred and sixty gigs, give or take", 160e9),
    ("that comes to one hundred and twenty-five ms per step", 0.125),
    ("Three hundred GPUs is what it takes.", 300),
])
def test_numbers_in_words_with_hundreds(text: str, value: float) -> None:
    checks = check_claims(text, {})
    assert all(c.verdict != "incorrect" for c in checks), [c.explanation for c in checks]
    from interviewer.claims.parser import parse_sentence

    assert value in [m.value for m in parse_sentence(text, 0).mentions]


@pytest.mark.parametrize("text", [
    "Finishing a 400-token reply inside 100 ms isn't realistic on either GPU, so the SLO has to mean first token.",
    "Serving a 2B model at 1 ms per token is impossible on an A10G.",
    "A full 400-token reply in 100 ms is not achievable here.",
    "Expecting 0.25 ms per token on the A10G is simply unrealistic.",
])
def test_a_figure_rejected_as_infeasible_is_not_a_claim(text: str) -> None:
    assert "incorrect" not in verdicts(text, facts("serve-2b-p99"))


def test_a_figure_before_the_rejected_clause_is_still_checked() -> None:
    assert verdicts("A 10B model with Adam needs 80 GB of model states, so one 80 GB GPU is not realistic.") == ["incorrect"]


@pytest.mark.parametrize("text", [
    "70B w/ ZeRO-3 across the 512 GPUs is ~2.2 GB of states per GPU, fine on 80 GB parts",
    "With ZeRO-3 a 10B model is 20 GB per GPU over 8 GPUs, which fits 24 GB chips.",
])
def test_a_memory_size_naming_the_hardware_is_not_a_claim(text: str) -> None:
    assert verdicts(text) == ["correct"]


@pytest.mark.parametrize("text", [
    "With ZeRO-3 over all 64 H100s, each rank owns 2.5 GB of the 160 GB of model states (weights, grads, master copy, both moments).",
    "Under ZeRO-3 on 64 GPUs every GPU keeps 2.5 GB out of the total 160 GB of model states.",
])
def test_the_whole_after_a_share_is_the_total(text: str) -> None:
    assert verdicts(text, {"params": 10e9}) == ["correct", "correct"]


@pytest.mark.parametrize(("text", "expected"), [
    ("each GPU pushes 3.5 GB through its 25 GB/s NIC, so ~140 ms per all-reduce", ["correct", "correct"]),
    ("The ring all-reduce of the gradients takes about 0.14 s on the 25 GB/s NICs.", ["correct"]),
    ("All-reducing the 70B model's gradients over the 128 GPUs on 25 GB/s NICs takes 11 s.", ["correct"]),
    ("All-reducing the 70B model's gradients over the 128 GPUs on 25 GB/s NICs takes 1.1 s.", ["incorrect"]),
])
def test_the_scenarios_own_allreduce_question_is_a_reading(text: str, expected: list[str]) -> None:
    assert verdicts(text, facts("parallelism-allreduce")) == expected


@pytest.mark.parametrize("text", [
    "For the 70B comparison model the cache is 0.3125 MiB per token because only the 8 KV heads are stored.",
    "The 70B one with GQA needs just 0.3125 MiB of KV cache per token.",
])
def test_a_kv_figure_for_another_named_size_is_asked_about(text: str) -> None:
    assert "incorrect" not in verdicts(text, facts("kv-cache-long-context"))


# --- misses from the same set: wrong numbers that got no verdict, or the wrong one -------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("even at 50% MFU the compute-optimal 10B run on this node needs no more than 40 days", ["incorrect"]),
    ("even at 50% MFU the compute-optimal 10B run on this node needs no more than 120 days", ["correct"]),
    ("even at 50% MFU the compute-optimal 10B run on this node needs more than 40 days", ["correct"]),
])
def test_no_more_than_is_an_upper_bound(text: str, expected: list[str]) -> None:
    checks = [c for c in check_claims(text, facts("train-10b-8gpu")) if c.unit == "seconds"]
    assert [c.verdict for c in checks] == expected, [c.explanation for c in checks]


@pytest.mark.parametrize(("text", "expected"), [
    ("The 120 GB checkpoint at 2 GB/s takes 60 minutes to upload.", "incorrect"),
    ("a 40 GB shard over a 400 Gb/s NIC goes across in about 0.1 s", "incorrect"),
    ("a 40 GB shard over a 400 Gb/s NIC goes across in about 0.8 s", None),
])
def test_an_amount_at_a_stated_rate_is_checked_whatever_it_is(text: str, expected: str | None) -> None:
    times = [c for c in check_claims(text) if c.unit == "seconds"]
    assert [c.verdict for c in times] == ([expected] if expected else []), [c.explanation for c in times]


@pytest.mark.parametrize(("text", "verdict"), [
    ("Our model has 40 layers with 40 KV heads of dim 128, and we keep the cache in fp16. That works out to about 0.2 MB of KV per token.", "incorrect"),
    ("Our model has 40 layers with 40 KV heads of dim 128, and we keep the cache in fp16. That works out to about 0.8 MB of KV per token.", "correct"),
])
def test_heads_of_dim_n_is_the_head_dimension(text: str, verdict: str) -> None:
    assert verdicts(text) == [verdict]


@pytest.mark.parametrize(("text", "verdict"), [
    ("stretching context from 4k to 32k grows the per-sequence KV cache 64-fold", "incorrect"),
    ("stretching context from 4k to 32k grows the per-sequence KV cache 8-fold", "correct"),
    ("Going from 8 to 16 GPUs in the ring roughly doubles what each GPU has to send.", "incorrect"),
    ("going from 2k to 8k tokens, the attention score matrix jumps 16x", "correct"),
])
def test_fold_and_verb_factors_in_scaling_statements(text: str, verdict: str) -> None:
    assert verdicts(text) == [verdict]


@pytest.mark.parametrize("text", [
    "one Adam moment in fp32 is ~40 GB for this model",
    "For this model a single Adam moment is about 40 GB in fp32.",
])
def test_a_component_named_before_the_number(text: str) -> None:
    assert verdicts(text, facts("train-10b-8gpu")) == ["correct"]


@pytest.mark.parametrize(("text", "verdict"), [
    ("if we just go FSDP full-shard, the model states come to roughly forty gigs per GPU, so we'd have nothing left for activations", "incorrect"),
    ("with FSDP the model states come to twenty gigs per GPU", "correct"),
])
def test_a_sentence_whose_only_number_is_a_tens_word_is_read(text: str, verdict: str) -> None:
    assert verdicts(text, facts("train-10b-8gpu")) == [verdict]


@pytest.mark.parametrize(("text", "verdict"), [
    ("Even the 400-token p99 reply stays under 500 ms on the A100-40GB if we batch well.", "incorrect"),
    ("A 400-token reply takes about 300 ms on the A100-40GB.", "incorrect"),
    ("A 400-token reply takes about 1.1 s on the A100-40GB.", "correct"),
])
def test_a_whole_reply_of_stated_length_is_decoding(text: str, verdict: str) -> None:
    assert verdicts(text, facts("serve-2b-p99")) == [verdict]


def test_a_reply_time_that_must_be_met_is_a_target() -> None:
    assert verdicts("The 400-token p99 reply must stay under 500 ms.", facts("serve-2b-p99")) == []
