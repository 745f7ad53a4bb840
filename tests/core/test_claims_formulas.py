"""Formula applications and format constants (interviewer/claims/formulas.py): right within tolerance,
wrong when 1.5x off under every accepted convention."""

import pytest

from interviewer.claims import check_claims


@pytest.mark.parametrize(
    ("text", "quantity", "verdict"),
    [
        ("99.9% over 30 days allows about 8 hours of downtime.", "SLO error budget", "incorrect"),
        ("99.9% over 30 days allows about 43 minutes of downtime.", "SLO error budget", "correct"),
        ("A 99.99% monthly availability target (30 days) gives about 43 minutes of budget.", "SLO error budget", "incorrect"),
        ("A 99.99% monthly availability target gives about 4.3 minutes of budget.", "SLO error budget", "correct"),
        ("If 99.9% of requests must score within 50 ms, at 2,000 req/s we can afford about 20 late requests per second.",
         "requests over the SLO per second", "incorrect"),
        ("16 A100s for a month is about 1,150 GPU-hours.", "GPU-hours", "incorrect"),
        ("16 A100s for a month is about 11.5k GPU-hours.", "GPU-hours", "correct"),
        ("On H100, fp8 runs at about 4x the bf16 rate.", "fp8 vs bf16 peak rate", "incorrect"),
        ("int8 on the A100 is 2× the fp16 rate.", "int8 vs fp16 peak rate", "correct"),
        ("fp16 tops out around 32768, so big activations overflow.", "fp16 largest finite value", "incorrect"),
        ("fp16 tops out at 65,504.", "fp16 largest finite value", "correct"),
        ("fp16 subnormals bottom out around 6e-6.", "fp16 smallest subnormal", "incorrect"),
        ("fp16's smallest subnormal is 2^-24 ≈ 6.0e-8.", "fp16 smallest subnormal", "correct"),
    ],
)
def test_formula_checks(text: str, quantity: str, verdict: str) -> None:
    found = [c.verdict for c in check_claims(text) if c.quantity == quantity]
    assert found and found[0] == verdict, check_claims(text)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The global batch is 512 sequences of 2048 tokens. That's about 4M tokens per step.", "incorrect"),
        ("The global batch is 512 sequences of 2048 tokens, about 1M tokens per step.", "correct"),
    ],
)
def test_tokens_per_step_from_this_or_the_last_sentence(text: str, verdict: str) -> None:
    assert [c.verdict for c in check_claims(text) if c.quantity == "tokens per step"] == [verdict]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("We have 16 GPUs and a 4B model with mixed-precision Adam. ZeRO-3 leaves about 16 GB of model states per GPU.", "incorrect"),
        ("We have 16 GPUs and a 4B model with mixed-precision Adam. ZeRO-3 leaves about 4 GB of model states per GPU.", "correct"),
    ],
)
def test_premises_stated_just_before_are_inputs(text: str, verdict: str) -> None:
    # no scenario offers another GPU count or size: the answer's own premise is the only reading
    assert [c.verdict for c in check_claims(text)] == [verdict]


def test_a_gpu_after_versus_belongs_to_the_other_figure() -> None:
    # found running the app: "2.6 ms" was checked on the A10G named after "versus", and called wrong
    text = "Decode at small batch is bandwidth-bound, so pick the A100-40GB: 2.6 ms per token versus 6.7 ms on the A10G."
    from rubrics.loader import get_scenario

    verdicts = [c.verdict for c in check_claims(text, get_scenario("serve-2b-p99").scenario.facts)]
    assert "incorrect" not in verdicts and "correct" in verdicts


# --- replicas for a load, MoE expert capacity, throughput from step time -----------------------------


@pytest.mark.parametrize(("text", "verdict"), [
    ("we need 30,000 decode tokens/s at peak. say each A10G replica manages ~1,500 tokens/s — then it's about 60 replicas", "incorrect"),
    ("we need 30,000 decode tokens/s at peak. say each A10G replica manages ~1,500 tokens/s — then it's about 20 replicas", "correct"),
    ("A batch of 16 messages finishes in 50 ms, so one GPU handles 320 req/s; for the 1,000 req/s peak we need about 12 GPUs.", "incorrect"),
    ("A batch of 16 messages finishes in 50 ms, so one GPU handles 320 req/s; for the 1,000 req/s peak we need 4 GPUs.", "correct"),
])
def test_replicas_for_a_load(text: str, verdict: str) -> None:
    checks = [c for c in check_claims(text) if c.quantity.endswith("needed")]
    assert [c.verdict for c in checks] == [verdict], [c.explanation for c in checks]


def test_replicas_with_stated_headroom_are_not_judged() -> None:
    text = "Peak is 30,000 tokens/s and each replica manages 1,500 tokens/s, so with 50% headroom we need 30 replicas."
    assert [c for c in check_claims(text) if c.quantity.endswith("needed")] == []


@pytest.mark.parametrize(("text", "verdict"), [
    ("with capacity factor 1.0 and 8192 tokens per batch (top-2 over the 8 experts) each expert gets room for 1024 tokens", "incorrect"),
    ("with capacity factor 1.0 and 8192 tokens per batch (top-2 over the 8 experts) each expert gets room for 2048 tokens", "correct"),
    ("The MoE layer has 16 experts, top-1 routing and capacity factor 1.25. With 8192 tokens per batch each expert's capacity is 1280.", "incorrect"),
    ("The MoE layer has 16 experts, top-1 routing and capacity factor 1.25. With 8192 tokens per batch each expert's capacity is 640.", "correct"),
])
def test_expert_capacity(text: str, verdict: str) -> None:
    checks = [c for c in check_claims(text) if c.quantity.startswith("expert capacity")]
    assert [c.verdict for c in checks] == [verdict], [c.explanation for c in checks]


def test_expert_capacity_needs_the_top_k() -> None:
    text = "capacity factor 1.25, 8192 tokens per batch and 16 experts, so each expert's capacity is 1280."
    assert [c for c in check_claims(text) if c.quantity.startswith("expert capacity")] == []


@pytest.mark.parametrize(("text", "verdict"), [
    ("each step is 512 seqs of 2048 tokens and takes 63 s, so the node pushes about 166k tokens/s.", "incorrect"),
    ("each step is 512 seqs of 2048 tokens and takes 63 s, so the node pushes about 16.6k tokens/s.", "correct"),
    ("Step time is 2.5 s and each step consumes 256 sequences of 4096 tokens. So throughput is around 80-100k tokens/s.", "incorrect"),
    ("Step time is 2.5 s and each step consumes 256 sequences of 4096 tokens. So throughput is around 400-450k tokens/s.", "correct"),
])
def test_throughput_from_step_time(text: str, verdict: str) -> None:
    checks = [c for c in check_claims(text) if c.quantity.startswith("training throughput")]
    assert [c.verdict for c in checks] == [verdict], [c.explanation for c in checks]


@pytest.mark.parametrize(("text", "verdict"), [
    ("At 2 GB/s to the object store, 120 GB takes about 60 ms.", "incorrect"),
    ("With 25 GB/s per NIC, a 2 GB shard lands in about 8 s.", "incorrect"),
    ("16 A100s for a month is about 11.5k GPU-minutes of training.", "incorrect"),
    ("16 A100s for a month is about 690k GPU-minutes.", "correct"),
    ("Training the 70B on 1.4T tokens with only 500B unique means about 1.5 epochs over the unique data.", "incorrect"),
    ("Training the 70B on 1.4T tokens with only 500B unique means about 2.8 epochs over the unique data.", "correct"),
    ("We have 500B unique tokens. Training on 2T tokens is 4 epochs.", "correct"),
    ("If the global batch is 4M tokens, step 40k is about 16B tokens into the run.", "incorrect"),
    ("If the global batch is 4M tokens, step 40k is about 160B tokens into the run.", "correct"),
    ("With 2M tokens per step, after 10k steps we have seen 20B tokens.", "correct"),
])
def test_times_at_a_rate_gpu_minutes_epochs_and_tokens_by_step(text: str, verdict: str) -> None:
    assert verdict in [c.verdict for c in check_claims(text)]
    if verdict == "correct":
        assert "incorrect" not in [c.verdict for c in check_claims(text)]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("fp8 on H100 buys you ~4x the dense bf16 matmul throughput.", "incorrect"),
        ("fp8 on H100 gives 2x the dense bf16 throughput.", "correct"),
        ("On the A100, int8 reaches 2x the dense fp16 peak.", "correct"),
        ("On the A100, int8 reaches 8x the dense fp16 peak.", "incorrect"),
    ],
)
def test_peak_ratio_against_the_dense_figure(text: str, verdict: str) -> None:
    assert [c.verdict for c in check_claims(text) if "peak rate" in c.quantity] == [verdict], check_claims(text)


def test_peak_ratio_with_sparsity_is_not_judged() -> None:
    # 2:4-sparse fp8 (3,958) is 4x dense bf16 (989.5) on H100: right, and not the dense-to-dense ratio
    assert not [c for c in check_claims("fp8 with 2:4 sparsity is 4x the dense bf16 rate on H100.") if "peak rate" in c.quantity]
