"""Claims from dev set e (bench/data/claims/claims_dev_e.yaml, the former sealed set 4) that the checker
called wrong although they were right, each with a wrong twin that must still be caught."""

from __future__ import annotations

import pytest
from claim_helpers import incorrect_anywhere, verdict_on

from interviewer.claims import check_claims
from rubrics.loader import get_scenario


@pytest.mark.parametrize(("text", "scenario"), [
    # the whole a per-GPU share is cut from is a total
    ("With ZeRO-3 across the 8 cards, the 160 GB of model states shards down to about 20 GB per GPU, which leaves roughly half of each 40 GB card for activations.", "train-10b-8gpu"),
    # a scope that opens the sentence: per GPU, per token
    ("Suppose we put the whole model on 2 H100s with TP. Each GPU then holds about 47 GB of bf16 weights.", "moe-routing"),
    ("Per token, a forward pass costs about 13.5 GFLOPs for the 7B, 2 FLOPs per parameter.", "attention-vs-rnn"),
    # one head's score matrix is not the model's weights
    ("With a 4k context instead of 2k, one head's fp16 score matrix in Llama-2-7B is 32 MiB.", "attention-vs-rnn"),
    # a request rate restated per minute is not a concurrency
    ("2,000 req/s is 1.2e5 requests a minute.", "monitoring-drift"),
    # a training token costs 6·N unless the sentence says forward
    ("The cluster does about 2e17 useful FLOP/s. A 70B model needs 4.2e11 FLOPs per token, so we chew through ~480k tokens per second.", "compute-optimal-sizing"),
    # a training step is not a decode step
    ("A step is 6 × 70B × 4.2M tokens ≈ 1.76e18 FLOPs, and at 40% of 128 × 312 TFLOP/s we do 1.6e16 per second, so ~110 s per step.", "parallelism-allreduce"),
    # a batch's per-stream rate and a per-card total are above the floor, and a required load is no claim
    ("Each A10G might sustain about 20 concurrent streams at ~30 tok/s each, so 600 tok/s per card; we need 30k tok/s, so about 50 A10Gs.", "serve-2b-p99"),
    # a figure reported and corrected at once
    ("Earlier I said fp16 max was around 6.5e5; no, it's 65,504.", "mixed-precision-failures"),
])
def test_right_claims_from_dev_set_e_are_not_called_wrong(text: str, scenario: str) -> None:
    assert incorrect_anywhere(text, scenario) == []


@pytest.mark.parametrize(("text", "claim", "scenario"), [
    ("With ZeRO-3 across the 8 cards, the 160 GB of model states shards down to about 40 GB per GPU.", "40 GB", "train-10b-8gpu"),
    ("Suppose we put the whole model on 2 H100s with TP. Each GPU then holds about 93 GB of bf16 weights.", "93 GB", "moe-routing"),
    ("Per token, a forward pass costs about 50 GFLOPs for the 7B, 2 FLOPs per parameter.", "50 GFLOPs", "attention-vs-rnn"),
    ("At 8k tokens one head's fp16 attention matrix is 32 MiB.", "32 MiB", "attention-vs-rnn"),
    ("2,000 req/s is 1.2e6 requests a minute.", "1.2e6 requests a minute", "monitoring-drift"),
    ("A 70B model needs 4.2e12 FLOPs per token for training.", "4.2e12 FLOPs", "compute-optimal-sizing"),
    ("Each A10G might sustain about 20 concurrent streams at ~30 tok/s each, so 600 tok/s per card; we need 30k tok/s, so about 10 A10Gs.", "10 A10Gs", "serve-2b-p99"),
    ("Each HDR NIC does 25 Gb/s, so the 2 GB all-reduce takes about 140 ms.", "25 Gb/s", "parallelism-allreduce"),
])
def test_their_wrong_twins_are_caught(text: str, claim: str, scenario: str) -> None:
    assert verdict_on(text, claim, scenario) == "incorrect"


def test_a_result_worked_from_a_wrong_input_is_not_judged_by_it() -> None:
    """The wrong premise is pointed out; the time computed from it is left alone, with the reason."""
    text = "Each HDR NIC does 25 Gb/s, so the 2 GB all-reduce takes about 140 ms."
    checks = check_claims(text, dict(get_scenario("parallelism-allreduce").scenario.facts))
    time = next(c for c in checks if c.unit == "seconds")
    assert time.verdict == "unverifiable"
    assert "25 Gb/s is itself off" in time.explanation


def test_several_ports_together_are_not_one_ports_rate() -> None:
    assert incorrect_anywhere("DGX A100 has 8 HDR compute NICs (one per GPU): 200 GB/s per node per direction.", "parallelism-allreduce") == []


@pytest.mark.parametrize(("text", "claim", "scenario", "expected"), [
    ("Imagine a 4-GPU box with 24 GB cards. With ZeRO-3 the 10B's model states come to about 20 GB per card.", "20 GB", "train-10b-8gpu", "incorrect"),
    ("Imagine a 4-GPU box with 24 GB cards. With ZeRO-3 the 10B's model states come to about 40 GB per card.", "40 GB", "train-10b-8gpu", "correct"),
    ("Say we serve 8k-token prompts. Then each one's KV is around 16 GB.", "16 GB", "kv-cache-long-context", "incorrect"),
    ("Say we serve 8k-token prompts. Then each one's KV is around 4 GiB.", "4 GiB", "kv-cache-long-context", "correct"),
    ("Suppose we go with the A10G. Its batch-1 decode step is then about 2.6 ms.", "2.6 ms", "serve-2b-p99", "incorrect"),
    ("Suppose we go with the A10G. Its batch-1 decode step is then about 6.7 ms.", "6.7 ms", "serve-2b-p99", "correct"),
])
def test_a_hypothetical_set_up_in_the_sentence_before_supplies_the_inputs(text: str, claim: str, scenario: str, expected: str) -> None:
    """"Imagine ...", "Say ...", "Suppose ..." change the set-up on purpose: the next sentence is
    judged with those inputs, not the scenario's (which would call the forgotten premise right)."""
    assert verdict_on(text, claim, scenario) == expected


@pytest.mark.parametrize(("text", "claim", "scenario", "expected"), [
    ("One Adam moment in fp32 is about 20 GB for this model.", "20 GB", "train-10b-8gpu", "incorrect"),
    ("One Adam moment in fp32 is about 40 GB for this model.", "40 GB", "train-10b-8gpu", "correct"),
    ("For the 7B, the two Adam moments together come to roughly 28 GB.", "28 GB", "mixed-precision-failures", "incorrect"),
    ("For the 7B, the two Adam moments together come to roughly 56 GB.", "56 GB", "mixed-precision-failures", "correct"),
])
def test_a_named_part_of_the_model_states_is_judged_as_that_part(text: str, claim: str, scenario: str, expected: str) -> None:
    """The component the sentence names ("one Adam moment in fp32") is computed and compared with,
    instead of asking which quantity was meant."""
    assert verdict_on(text, claim, scenario) == expected


@pytest.mark.parametrize(("text", "claim", "scenario", "expected"), [
    ("For the nightly job, if we shard the int8 model TP=2, each A100 holds about 6.7 GB of weights.", "6.7 GB", "quantization-tradeoffs", "incorrect"),
    ("For the nightly job, if we shard the int8 model TP=2, each A100 holds about 3.4 GB of weights.", "3.4 GB", "quantization-tradeoffs", "correct"),
    ("With TP=8 inside the node, each A100 holds an eighth of the 140 GB of bf16 weights, so ~17.5 GB per GPU just for weights.", "140 GB", "parallelism-allreduce", "correct"),
])
def test_each_named_gpu_is_a_per_gpu_scope_and_a_share_of_names_the_whole(text: str, claim: str, scenario: str, expected: str) -> None:
    assert verdict_on(text, claim, scenario) == expected


@pytest.mark.parametrize(("text", "claim", "scenario", "expected"), [
    ("For a batch of 8 prompts of 500 tokens each, prefill is about 2 TFLOPs.", "2 TFLOPs", "serve-2b-p99", "incorrect"),
    ("For a batch of 8 prompts of 500 tokens each, prefill is about 16 TFLOPs.", "16 TFLOPs", "serve-2b-p99", "correct"),
    ("One layer's attention score matrix at n = 4096 across the 32 heads is about 64 MB in fp16.", "64 MB", "attention-vs-rnn", "incorrect"),
    ("One layer's attention score matrix at n = 4096 across the 32 heads is about 1 GiB in fp16.", "1 GiB", "attention-vs-rnn", "correct"),
])
def test_a_count_of_prompts_is_a_batch_and_stated_heads_are_all_counted(text: str, claim: str, scenario: str, expected: str) -> None:
    assert verdict_on(text, claim, scenario) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("fp32 weights are 2x bf16, and Adam adds 8 bytes per param on top.", "correct"),
    ("Adam adds 12 bytes per parameter on top of the bf16 weights and grads.", "correct"),
    ("On top of the weights, the optimizer adds an extra 8 bytes per parameter.", "correct"),
    ("Adam adds 30 bytes per parameter on top of the weights.", "incorrect"),
])
def test_what_the_optimizer_adds_is_not_the_total(text: str, expected: str) -> None:
    """Found by the helper that wrote the ratio rules: "adds 8 bytes per param on top" was compared
    with the 16-byte total."""
    verdicts = [c.verdict for c in check_claims(text) if c.quantity == "model-state bytes per parameter"]
    assert verdicts == [expected]
