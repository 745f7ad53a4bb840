"""Claims from dev set f (bench/data/claims/claims_dev_f.yaml, the former sealed set 5) that the checker
called wrong although they were right, in their own and other phrasings, each with a wrong twin where
one exists."""

from __future__ import annotations

import pytest
from claim_helpers import checks, verdict_on


@pytest.mark.parametrize(("text", "scenario"), [
    # a whole that "becomes" or "is" the per-GPU share
    ("With ZeRO-1 we only shard the optimizer states, so the 120 GB of fp32 master weights plus Adam moments becomes 15 GB per GPU, but every card still keeps the full bf16 weights and gradients.", "train-10b-8gpu"),
    ("With TP=8 inside a node, the 140 GB of bf16 weights of the 70B model is 17.5 GB per GPU, and that's before any pipeline split.", "parallelism-allreduce"),
    # a list of the model states is the model states
    ("Training with plain data parallelism on the 16 A100s, a 600M-parameter model's 9.6 GB of weights, gradients and Adam states is replicated, so every GPU holds the full 9.6 GB.", "realtime-translation"),
    # a capacity of memory is no claim of a size
    ("For the emergency dump, the shard each node stages fits in the 2 TB of CPU RAM on the node easily.", "checkpointing-fault-tolerance"),
    ("At 0.5 MiB per token, 66 GB of free memory holds about 126k tokens of cache.", "kv-cache-long-context"),
    # the working of a limit, and a limit reported and rejected
    ("fp16's largest normal is (2 − 2^-10) × 2^15 = 65,504.", "mixed-precision-failures"),
    ("Some blog claimed bf16 tops out around 65k; that's wrong, bf16 has fp32's exponent range.", "mixed-precision-failures"),
    # a factor belongs to the quantity of its own clause
    ("Going from 2k to 8k context multiplies the attention score compute by 16, while the KV cache only grows 4×.", "attention-vs-rnn"),
    # a training step's token rate, and a deadline to finish within
    ("At 16k tokens/s, a 2M-token batch takes about 2 minutes per step.", "train-10b-8gpu"),
    ("To finish 200B tokens within 30 days at 40% MFU, we'd need about 5 nodes like this one.", "train-10b-8gpu"),
    # an MoE token passes through its active parameters
    ("Imagine serving at batch 1 and only touching the two active experts per layer. Then each token reads about 26 GB of weights, roughly 8 ms on an H100.", "moe-routing"),
    ("The forward pass costs about 26 GFLOPs per token.", "moe-routing"),
    # a batched card's throughput in a fleet sizing; the activation sent at a stage boundary
    ("Peak decode is 200 req/s × 150 tokens; with about 3,000 tok/s per A100, we'd need about 10 GPUs.", "serve-2b-p99"),
    ("The activation at a stage boundary is 4096 × 8192 × 2 bytes per sequence, about 67 MB; over one 25 GB/s NIC that's roughly 2.7 ms.", "parallelism-allreduce"),
])
def test_right_claims_from_dev_set_f_are_not_called_wrong(text: str, scenario: str) -> None:
    assert [c.explanation for c in checks(text, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize(("text", "claim", "scenario"), [
    ("With TP=8 inside a node, the 140 GB of bf16 weights of the 70B model is 140 GB per GPU.", "140 GB per GPU", "parallelism-allreduce"),
    ("With plain data parallelism, a 600M-parameter model's 2 GB of weights, gradients and Adam states is replicated on every GPU.", "2 GB", "realtime-translation"),
    ("fp16 tops out around 6.5k.", "6.5k", "mixed-precision-failures"),
    ("bf16 tops out around 65k.", "65k", "mixed-precision-failures"),
    ("Going from 2k to 8k context multiplies the attention score compute by 4, while the KV cache only grows 4×.", "by 4", "attention-vs-rnn"),
    ("The forward pass costs about 300 GFLOPs per token.", "300 GFLOPs", "moe-routing"),
])
def test_their_wrong_twins_are_caught(text: str, claim: str, scenario: str) -> None:
    assert verdict_on(text, claim, scenario) == "incorrect"


@pytest.mark.parametrize(("text", "scenario"), [
    # from the judge's former sealed set (bench/data/judge_dev4): right numbers in thorough answers
    ("80 GB minus 13.5 GB of weights minus ~6 GB of overhead leaves about 60 GB for the cache.", "kv-cache-long-context"),
    ("Per node that's 20 GB of shards, trivial against 2 TB of RAM.", "checkpointing-fault-tolerance"),
    ("Quick fix to what I said before: the fp16 max isn't ~6,550, I dropped a digit, it's 65,504.", "mixed-precision-failures"),
    ("Activations: with recomputation you keep ~34sbh x 48 ≈ 13.7 GB per sequence.", "train-10b-8gpu"),
    ("1.2e7 s / 86,400 ≈ 139 days.", "train-10b-8gpu"),
    ("We'd need ~40 A100s instead of 8 to do 200B in four weeks.", "train-10b-8gpu"),
    ("Size: fp32 weights 4 B + m 4 B + v 4 B = 12 bytes/param × 10B = 120 GB.", "checkpointing-fault-tolerance"),
])
def test_right_numbers_in_thorough_answers_are_not_called_wrong(text: str, scenario: str) -> None:
    assert [c.explanation for c in checks(text, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize(("text", "claim", "scenario"), [
    ("1.2e7 s / 86,400 ≈ 13 days.", "13 days", "train-10b-8gpu"),
    ("fp16 tops out around 6,550.", "6,550", "mixed-precision-failures"),
    ("12 bytes/param × 10B = 12 GB.", "12 GB", "checkpointing-fault-tolerance"),
])
def test_wrong_twins_of_thorough_answers_are_caught(text: str, claim: str, scenario: str) -> None:
    assert verdict_on(text, claim, scenario) == "incorrect"


@pytest.mark.parametrize(("text", "claim", "expected"), [
    ("With mixed-precision AdamW you carry the bf16 working copy of the weights (2 bytes), the bf16 gradients (2 bytes), and the fp32 master copy (4 bytes).", "4 bytes", "correct"),
    ("With mixed-precision AdamW you carry the bf16 working copy of the weights (2 bytes) and more.", "2 bytes", "correct"),
    ("With mixed-precision AdamW you carry the bf16 gradients (8 bytes).", "8 bytes", "incorrect"),
    ("KV per token: 2 × 24 × 20 × 128 × 2 B = 245,760 B/token ≈ 0.25 MB.", "0.25 MB", "correct"),
])
def test_bytes_per_parameter_of_one_part_and_a_restated_per_token_size(text: str, claim: str, expected: str) -> None:
    assert verdict_on(text, claim, "train-10b-8gpu" if "AdamW" in text else "serve-2b-p99") == expected


@pytest.mark.parametrize(("text", "claim", "expected"), [
    ("With ZeRO-3, the 10B example goes from 160 GB to 20 GB per GPU over 8 GPUs.", "160 GB", "correct"),
    ("With ZeRO-3, the 10B example goes from 160 GB to 40 GB per GPU over 8 GPUs.", "40 GB", "incorrect"),
])
def test_from_a_whole_to_a_per_gpu_share(text: str, claim: str, expected: str) -> None:
    assert verdict_on(text, claim, "parallelism-allreduce") == expected
