"""Claims from dev set g (bench/data/claims/claims_dev_g.yaml, the former sealed set 6) that the checker
called wrong although they were right, in their own and other phrasings, each with a wrong twin where
one exists."""

from __future__ import annotations

import pytest
from claim_helpers import checks, verdict_on


@pytest.mark.parametrize(("text", "scenario"), [
    # one part of the model states, said with the verb that shards it
    ("ZeRO-2 on the 8 cards: bf16 weights stay replicated at 20 GB, gradients shard to 2.5 GB and the fp32 optimizer states to 15 GB, so roughly 37.5 GB per GPU.", "train-10b-8gpu"),
    ("With ZeRO-2 the gradients shard to 2.5 GB per GPU.", "train-10b-8gpu"),
    # a figure in apposition to a per-GPU share is that share
    ("TP=8 inside the node and PP=4 across nodes means each GPU owns 1/32 of the 70B weights, roughly 4.4 GB in bf16.", "parallelism-allreduce"),
    # what a figure is of left unsaid: the fp32 states alone (a checkpoint) are a reading
    ("Sharded by node it's 120 GB over 8 nodes, so about 15 GB per node to upload.", "checkpointing-fault-tolerance"),
    # one layer's cache, and a cache per token with "of cache" between the figure and its scope
    ("The KV cache of a single layer for one 32k-token sequence is 512 MiB.", "kv-cache-long-context"),
    ("Llama-2-70B with its 8 KV heads stores about 320 KB of cache per token.", "kv-cache-long-context"),
    # a training step's throughput from the step time
    ("Global batch 1,024 x 2,048 tokens is 2.1M tokens; at a 126 s step that's about 16.6k tokens/s.", "train-10b-8gpu"),
    # a whole reply's time when the reply is named in the clause before
    ("Let's say we pick the A10G. A 400-token p99 reply at batch 1 then takes about 2.7 s of decode alone.", "serve-2b-p99"),
    # tokens per step as sequences of a length, and the tokens seen after so many steps
    ("Say the run uses 1,024 sequences of 4,096 tokens per step. Then by step 40k it has consumed about 168B tokens.", "mixed-precision-failures"),
    # a time per message whose length this sentence does not state
    ("Say a message averages 16 tokens and we decode a 300M-param fp16 model on an L4 at 300 GB/s. Each step reads 0.6 GB, so 2 ms per token and ~32 ms per message at batch 1.", "realtime-translation"),
    # a card's throughput over an unstated batch is no single stream's speed
    ("We need 30k decode tok/s; if one A100 sustains 5k tok/s, that's 6 GPUs.", "serve-2b-p99"),
    # a figure heard elsewhere and corrected in the same sentence
    ("I've heard 8 GB of KV per 4k sequence quoted for Llama-2-7B; it's actually about 2 GB.", "attention-vs-rnn"),
    ("I've heard 8 GB of KV per 4k sequence quoted for Llama-2-7B, but it's actually about 2 GB.", "attention-vs-rnn"),
])
def test_right_claims_from_dev_set_g_are_not_called_wrong(text: str, scenario: str) -> None:
    assert [c.explanation for c in checks(text, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize(("text", "claim", "scenario"), [
    ("With ZeRO-2 the gradients shard to 20 GB per GPU.", "20 GB", "train-10b-8gpu"),
    ("The KV cache of a single layer for one 32k-token sequence is 16 GiB.", "16 GiB", "kv-cache-long-context"),
    ("Llama-2-70B with its 8 KV heads stores about 2.5 MB of cache per token.", "2.5 MB", "kv-cache-long-context"),
    ("Global batch 1,024 x 2,048 tokens is 2.1M tokens; at a 126 s step that's about 160k tokens/s.", "160k tokens/s", "train-10b-8gpu"),
    ("Say the run uses 1,024 sequences of 4,096 tokens per step. Then by step 40k it has consumed about 16B tokens.", "16B tokens", "mixed-precision-failures"),
    ("We need 30k decode tok/s; if one A100 sustains 5k tok/s, that's 60 GPUs.", "60 GPUs", "serve-2b-p99"),
    ("I've heard 8 GB of KV per 4k sequence quoted for Llama-2-7B; it's actually about 8 GB.", "about 8 GB", "attention-vs-rnn"),
])
def test_their_wrong_twins_are_caught(text: str, claim: str, scenario: str) -> None:
    assert verdict_on(text, claim, scenario) == "incorrect"


def test_a_share_in_apposition_is_checked_as_that_share() -> None:
    text = "TP=8 inside the node and PP=4 across nodes means each GPU owns 1/32 of the 70B weights, roughly 4.4 GB in bf16."
    (check,) = [c for c in checks(text, "parallelism-allreduce") if c.claimed]
    assert check.verdict == "correct" and check.quantity == "weight memory per GPU"


@pytest.mark.parametrize(("wrong", "right", "scenario"), [
    # a result in apposition after a comma, "which is", roots and powers
    ("With C = 6ND and D = 20N, N = sqrt(6e23 / 120), which is about 22B parameters.",
     "With C = 6ND and D = 20N, N = sqrt(6e23 / 120), which is about 70B parameters.", "compute-optimal-sizing"),
    ("Bubble = (p-1)/(m+p-1) = 3/19, which is about 37% with 16 micro-batches.",
     "Bubble = (p-1)/(m+p-1) = 3/19, which is about 16% with 16 micro-batches.", "parallelism-allreduce"),
    ("bf16 keeps 7 mantissa bits, so machine epsilon is 2^-7, about 0.0008.",
     "bf16 keeps 7 mantissa bits, so machine epsilon is 2^-7, about 0.008.", "mixed-precision-failures"),
    ("Young's formula: sqrt(2 x 60 s x 7,200 s) is about 2,900 s between checkpoints.",
     "Young's formula: sqrt(2 x 60 s x 7,200 s) is about 930 s between checkpoints.", "checkpointing-fault-tolerance"),
    ("n^2 d at n = d = 4096 is 4096^2 x 4096, about 6.9e9.",
     "n^2 d at n = d = 4096 is 4096^2 x 4096, about 6.9e10.", "attention-vs-rnn"),
    # parameter and token counts carry their magnitudes: no unit scaling rescues a product of them
    ("Per step the 70B model needs 6 x 70B x 4.2M tokens, about 1.8e15 FLOPs.",
     "Per step the 70B model needs 6 x 70B x 4.2M tokens, about 1.8e18 FLOPs.", "parallelism-allreduce"),
    # an amount at a sustained rate
    ("1.2e22 FLOPs at roughly 1e15 FLOP/s sustained is about 40 days.",
     "1.2e22 FLOPs at roughly 1e15 FLOP/s sustained is about 139 days.", "train-10b-8gpu"),
    # tokens over so many steps, and FLOPs per generated token
    ("At 4M tokens per step for 40k steps, the model has seen about 16B tokens.",
     "At 4M tokens per step for 40k steps, the model has seen about 160B tokens.", "mixed-precision-failures"),
    ("Llama-2-7B needs about 135 GFLOPs per generated token.",
     "Llama-2-7B needs about 13.5 GFLOPs per generated token.", "attention-vs-rnn"),
])
def test_written_arithmetic_and_formulas_from_dev_set_g(wrong: str, right: str, scenario: str) -> None:
    assert any(c.verdict == "incorrect" for c in checks(wrong, scenario))
    assert [c.explanation for c in checks(right, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize("text", [
    "At batch 8 × 4k tokens, about 17 GB of KV cache.",  # a figure after a comma is that product only in its own unit
    "fp16 max = (2 - 2^-10) x 2^15 = 65,504.",  # a power that is the tail of a longer expression is not read alone
])
def test_apposition_and_powers_are_read_only_where_they_are_the_arithmetic(text: str) -> None:
    assert [c.explanation for c in checks(text, "kv-cache-long-context") if c.verdict == "incorrect"] == []


def test_a_figure_off_by_a_stated_count_in_an_unmarked_scope_is_asked_about_not_called_wrong() -> None:
    # 320 KB per token written without a scope the parser reads: the scenario's 32,768-token
    # context divides the sequence's cache into it exactly, so the checker asks
    text = "Llama-2-70B with its 8 KV heads keeps about 320 KB of K and V for each position it has seen."
    (check,) = [c for c in checks(text, "kv-cache-long-context") if c.claimed]
    assert check.verdict == "unverifiable" and check.computed is None
    assert "divided by 32,768 (the scenario's context length, 32,768)" in check.explanation and "Did you mean it per one of those 32,768?" in check.explanation


@pytest.mark.parametrize(("text", "claim", "scenario"), [
    # a scope the sentence marks was read: off by the GPU count there is still wrong
    ("Even with ZeRO-3 sharding, each of the 8 GPUs still has to hold about 160 GB of model states.", "about 160 GB", "train-10b-8gpu"),
    # an input the calculation took from the sentence was read: a batch counted once is still wrong
    ("At 0.5 MiB per token, a batch of 8 requests with 8k-token prompts needs only about 4 GiB of KV cache.", "about 4 GiB", "kv-cache-long-context"),
    ("For a 32k-token request the KV cache is about 0.5 MB.", "about 0.5 MB", "kv-cache-long-context"),
])
def test_a_marked_scope_or_a_used_input_keeps_the_wrong_verdict(text: str, claim: str, scenario: str) -> None:
    assert verdict_on(text, claim, scenario) == "incorrect"


@pytest.mark.parametrize(("wrong", "right", "scenario"), [
    # an amount, the time it takes, then the rate
    ("The 3.5 GB each GPU sends takes about 140 s over the 25 GB/s NIC.",
     "The 3.5 GB each GPU sends takes about 140 ms over the 25 GB/s NIC.", "parallelism-allreduce"),
    # a factor between two figures of one kind that their own ratio contradicts, either way round
    ("NVLink at 900 GB/s is only about 2x faster than each GPU's 50 GB/s InfiniBand link.",
     "NVLink at 900 GB/s is about 18x faster than each GPU's 50 GB/s InfiniBand link.", "moe-routing"),
    ("At 50 GB/s, IB is 2x slower than NVLink at 900 GB/s.",
     "At 50 GB/s, IB is 18x slower than NVLink at 900 GB/s.", "moe-routing"),
])
def test_own_figures_at_a_rate_and_in_a_ratio(wrong: str, right: str, scenario: str) -> None:
    assert any(c.verdict == "incorrect" for c in checks(wrong, scenario))
    assert [c.explanation for c in checks(right, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize(("text", "scenario"), [
    ("8 GPUs × 80 GB is 2x more than the 320 GB we need.", "train-10b-8gpu"),  # "2x" is a factor, and 80 GB a term
    ("A ring all-reduce of the 2 GB of gradients takes about 160 ms over the 25 GB/s NIC.", "parallelism-allreduce"),  # a ring sends ~2× the buffer
])
def test_factors_and_collectives_are_not_read_as_plain_rates_or_results(text: str, scenario: str) -> None:
    assert [c.explanation for c in checks(text, scenario) if c.verdict == "incorrect"] == []


@pytest.mark.parametrize(("wrong", "right", "scenario"), [
    # "each Adam moment" is one part of the states, not each GPU's share
    ("Each Adam moment in fp32 is only 20 GB for the 10B model, so the two together are small next to the weights.",
     "Each Adam moment in fp32 is about 40 GB for the 10B model.", "train-10b-8gpu"),
    # one layer's cache, with "of a full context" after it
    ("The KV cache for a single layer of a full 2048-token context is about 0.5 GB.",
     "The KV cache for a single layer of a full 2048-token context is about 21 MB.", "serve-2b-p99"),
    # the fp32 master copy plus both moments are parts of the states, not an fp32 weight size
    ("The fp32 master weights plus both Adam moments for 70B come to about 280 GB.",
     "The fp32 master weights plus both Adam moments for 70B come to about 840 GB.", "parallelism-allreduce"),
])
def test_named_parts_of_the_states_and_the_cache(wrong: str, right: str, scenario: str) -> None:
    assert any(c.verdict == "incorrect" for c in checks(wrong, scenario))
    assert [c.explanation for c in checks(right, scenario) if c.verdict == "incorrect"] == []


def test_the_keys_alone_are_half_the_cache() -> None:
    (check,) = [c for c in checks("Just the K half of the cache for one 32k-token request is about 8.6 GB.", "kv-cache-long-context") if c.claimed]
    assert check.verdict == "correct" and check.computed == pytest.approx(2**33)
