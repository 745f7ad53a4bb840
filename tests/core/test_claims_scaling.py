"""Scaling statements are checked as factors between two points of a law (interviewer/claims/scaling.py)."""

import pytest

from interviewer.claims import check_claims


def _verdicts(text: str) -> list[tuple[str, str]]:
    return [(c.quantity, c.verdict) for c in check_claims(text)]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Going from 2k to 8k context multiplies the per-sequence KV cache by 16.", "incorrect"),
        ("Going from 2k to 8k context multiplies the KV cache by 4.", "correct"),
        ("Doubling the context quadruples the KV cache.", "incorrect"),
        ("Doubling the context doubles the KV cache.", "correct"),
        ("Going from 2k to 8k tokens multiplies the attention score matrix by 16.", "correct"),
        ("Doubling the sequence length quadruples the attention FLOPs.", "correct"),
        ("Going from 8 to 64 GPUs in the ring makes the bandwidth-bound all-reduce about 8× slower.", "incorrect"),
        ("Going from 8 to 64 GPUs in the ring makes the all-reduce only about 12% slower.", "correct"),
        ("With ZeRO-3, going from 8 to 64 GPUs cuts the per-GPU model states by 8.", "correct"),
        ("Doubling the GPUs halves the per-GPU model states under ZeRO-3.", "correct"),
    ],
)
def test_scaling_statements(text: str, verdict: str) -> None:
    found = [v for quantity, v in _verdicts(text) if "scaling factor" in quantity]
    assert found == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        # the ring leaves the node: the link changes, which the 2(n-1)/n law holds fixed
        "Going from 8 GPUs in one node to 16 over two nodes makes the all-reduce about 5× slower.",
        # a change the laws do not cover (batch, bits) is not judged
        "Doubling the batch doubles the KV cache.",
        "Going from 16 to 8 bits halves the weights.",
    ],
)
def test_scaling_outside_the_laws_is_not_judged(text: str) -> None:
    assert not [c for c in check_claims(text) if "scaling factor" in c.quantity and c.verdict == "incorrect"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # "from an 8-GPU ring to 1,024 GPUs": the ring size written as an adjective
        ("Going from an 8-GPU ring to 1,024 GPUs multiplies the bytes each GPU has to send by about 128x.", "incorrect"),
        ("Going from an 8-GPU ring to 1,024 GPUs raises the bytes each GPU sends by only about 1.14x.", "correct"),
        ("Moving from a 4-GPU ring to 64 GPUs makes the bandwidth-bound all-reduce 16x slower.", "incorrect"),
        # two sizes in k with no unit, followed straight by what they do: context lengths
        ("Going from 4k to 8k makes the KV cache 4x bigger.", "incorrect"),
        ("Going from 4k to 8k makes the KV cache 2x bigger.", "correct"),
        ("From 2k to 8k, the attention score matrix grows 16x.", "correct"),
        ("From 2k to 8k, the attention score matrix grows 4x.", "incorrect"),
    ],
)
def test_scaling_changes_written_without_a_unit_noun(text: str, verdict: str) -> None:
    found = [v for quantity, v in _verdicts(text) if "scaling factor" in quantity]
    assert found == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        # a k-sized change whose unit is named is not a context length unless the unit says so
        "Going from 4k to 8k hidden size makes the KV cache 4x bigger.",
        "Going from 1k to 4k GPUs makes the KV cache 4x bigger.",
    ],
)
def test_k_sized_change_with_another_unit_is_not_a_context(text: str) -> None:
    assert not [c for c in check_claims(text) if "scaling factor" in c.quantity and c.verdict == "incorrect"]


def test_k_sized_change_of_another_count_is_not_a_context() -> None:
    # 2k to 8k requests: the attention FLOPs grow 4x with the traffic, not 16x with a context length
    text = "Traffic went from 2k to 8k, so the attention compute grows 4x."
    assert not [c for c in check_claims(text) if "scaling factor" in c.quantity and c.verdict == "incorrect"]


def _ratio_verdicts(text: str, facts: dict | None = None, about: str = "ratio") -> list[str]:
    return [c.verdict for c in check_claims(text, facts) if about in c.quantity]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("int4 is one-eighth the size of fp16, that's where the big win comes from", "incorrect"),
        ("int4 is a quarter the size of fp16.", "correct"),
        ("int4 weights are a quarter of the fp16 bytes (a bit more with the group scales).", "correct"),
        ("With group scales, int4 weights come to about a third of the fp16 bytes.", "correct"),
        ("int4 cuts the 7B's weights 4x versus fp16.", "correct"),
        ("int4 cuts the 7B's weights 8x versus fp16.", "incorrect"),
        ("int8 weights halve the bytes vs fp16.", "correct"),
        ("int8 weights take 1/4 of the fp16 memory.", "incorrect"),
        ("Going from fp16 to int4 shrinks the weights 4x.", "correct"),
        ("Going from fp16 to int4 shrinks the weights 16x.", "incorrect"),
        ("fp32 weights take 2x the memory of bf16 weights.", "correct"),
        ("An fp32 checkpoint is 4 times the size of a bf16 one.", "incorrect"),
        ("fp16 is 4x smaller than fp32 for the checkpoint.", "incorrect"),
        ("An fp8 KV cache is half the size of a bf16 cache.", "correct"),
    ],
)
def test_storage_ratio_between_dtypes(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, about="storage ratio") == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "int4 is 8x faster than fp16.",  # a speed, not the storage
        "fp8 training cuts memory only 1.2x vs bf16 since the master weights stay fp32.",  # all of training's memory
        "int4 weights are at least 2x smaller than fp16 weights.",  # a bound, and a true one
        "The ceiling for weight-only int4 at batch 1 is 3x over fp16.",  # a speed-up
        "An fp8/int8 cache halves it.",  # two options against an unnamed fp16
        "fp16 is a quarter of the size of int4.",  # turned round: no verdict either way
    ],
)
def test_storage_ratio_not_judged(text: str) -> None:
    assert "incorrect" not in _ratio_verdicts(text, about="storage ratio")


LLAMA_2_7B = {"model": "llama-2-7b", "layers": 32, "heads": 32, "kv_heads": 32, "head_dim": 128}


@pytest.mark.parametrize(
    ("text", "facts", "verdict"),
    [
        ("GQA with 8 KV heads instead of 64 shrinks the 70B's cache by 64x.", None, "incorrect"),
        ("GQA with 8 KV heads for 64 query heads cuts the 70B's cache 8x vs full MHA.", None, "correct"),
        ("Going from 64 heads to GQA with 8 KV heads divides the KV cache memory by 8.", None, "correct"),
        ("Moving to GQA with 8 KV heads cuts KV cache by 4x versus the 32 we have.", None, "correct"),
        ("Moving to GQA with 8 KV heads cuts KV cache by 16x versus the 32 we have.", None, "incorrect"),
        ("MQA would shrink the KV cache by 8x.", LLAMA_2_7B, "incorrect"),
        ("MQA would shrink the KV cache by 32x.", LLAMA_2_7B, "correct"),
        ("With 4 KV heads the cache is an eighth of what it is now.", LLAMA_2_7B, "correct"),
        ("With 4 KV heads the cache is half of what it is now.", LLAMA_2_7B, "incorrect"),
    ],
)
def test_kv_cache_against_kv_heads(text: str, facts: dict | None, verdict: str) -> None:
    assert _ratio_verdicts(text, facts, about="KV heads") == [verdict], check_claims(text, facts)


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("GQA with 8 KV heads shrinks the cache 8x.", None),  # against how many heads? unstated
        ("For Llama-2-70B, MQA would shrink the cache 64x.", LLAMA_2_7B),  # not the scenario's model
        ("GQA-8 instead of 64 heads makes memory-bound decode only 1.3x faster.", None),  # the weights are read too
        ("GQA with 8 KV heads plus an fp8 cache cuts memory 16x versus the 64 heads in fp16.", None),  # two factors
        ("Llama-3-8B uses GQA with 8 KV heads, so its cache is 4x smaller: 128 KB vs 512 KB per token.", None),
    ],
)
def test_kv_heads_ratio_not_judged(text: str, facts: dict | None) -> None:
    assert "incorrect" not in _ratio_verdicts(text, facts, about="KV heads")


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("bf16's precision is about 3x coarser than fp16's since it has 3 fewer mantissa bits.", "incorrect"),
        ("bf16's precision is about 8x coarser than fp16's since it has 3 fewer mantissa bits.", "correct"),
        ("fp16's rounding step is 8x finer than bf16's.", "correct"),
        ("fp16's rounding step is 3x finer than bf16's.", "incorrect"),
        ("fp32's epsilon is 8192 times smaller than fp16's.", "correct"),
        ("fp32's epsilon is 10x smaller than fp16's.", "incorrect"),
        ("fp8 has about 128x the epsilon of fp16.", "correct"),
        ("fp8 has about 16x the epsilon of fp16.", "incorrect"),
        ("E4M3's spacing is 2x finer than E5M2's.", "correct"),
        ("bf16 has 8x lower resolution than fp16.", "correct"),
    ],
)
def test_value_spacing_between_float_formats(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, about="value spacing") == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "bf16 has 3 fewer mantissa bits than fp16, so about 1.4x fewer decimal digits of precision.",  # digits, not the step
        "bf16's range is about 1e34x wider than fp16's.",  # the exponent, not the spacing
        "bf16 has 8x higher resolution than fp16.",  # turned round: no verdict either way
    ],
)
def test_value_spacing_not_judged(text: str) -> None:
    assert "incorrect" not in _ratio_verdicts(text, about="value spacing")


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The A100-40GB has about 4.5x the HBM bandwidth of the A10G.", "incorrect"),
        ("The A100-40GB has about 2.6x the HBM bandwidth of the A10G.", "correct"),
        ("An H100 has roughly 2x the memory bandwidth of an A100.", "correct"),  # 3.35 vs 1.555 or 2.039 TB/s
        ("An H100 has roughly 4x the memory bandwidth of an A100.", "incorrect"),
        ("The H200 has 3x the memory of the H100.", "incorrect"),  # 141 vs 80 GB, 4.8 vs 3.35 TB/s
        ("The L4's bandwidth is a tenth of the A10G's.", "incorrect"),  # 300 vs 600 GB/s
        ("The L4's bandwidth is half of the A10G's.", "correct"),
    ],
)
def test_gpu_datasheet_ratios(text: str, verdict: str) -> None:
    assert [c.verdict for c in check_claims(text) if c.quantity.endswith(" ratio") and "memory" in c.quantity] == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "Eight A100s have 4x the bandwidth of an H100.",  # several GPUs
        "The A100 has 9x the NVLink bandwidth of the A10G's PCIe.",  # the links, not the HBM
        "The H100 has 3x the compute of the A100.",  # which precision?
    ],
)
def test_gpu_ratios_not_judged(text: str) -> None:
    assert not [c for c in check_claims(text) if c.quantity.endswith(" ratio") and c.verdict == "incorrect"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("NVLink's 600 GB/s is 24x the 25 GB/s NIC, which is why TP stays inside the node.", "correct"),
        ("NVLink at 900 GB/s is 18x the 50 GB/s per-GPU IB link.", "correct"),
        ("NVLink's 600 GB/s is 6x the 25 GB/s NIC.", "incorrect"),
        ("The H100's 3.35 TB/s is about 3x the A100-80GB's 2,039 GB/s.", "incorrect"),
        ("the A100-40GB's 1555 GB/s vs the A10G's 600 makes small-batch decode about 5x faster per token", "incorrect"),
        ("For memory-bound decode, 3.35 TB/s versus 2 TB/s means tokens come about 4x faster.", "incorrect"),
    ],
)
def test_ratio_of_two_stated_values(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, about="two stated values") == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "1555 GB/s vs 600 GB/s, yet the A10G is only 1.5x slower at batch 64 since it is compute-bound.",  # not bandwidth-bound
        "The 80 GB card is 5x the 24 GB one in KV room.",  # the room left after the weights, not the capacity
        "3.35 TB/s vs 2 TB/s plus fp8 weights makes small-batch decode 3x faster.",  # two factors
        "2 TB/s vs 600 GB/s lets us serve 10x the users.",  # users, not a bandwidth-bound time
    ],
)
def test_stated_value_ratio_not_judged(text: str) -> None:
    assert "incorrect" not in _ratio_verdicts(text, about="two stated values")


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("swap the 70B for a 35B and the lifetime inference FLOPs drop 4x", "incorrect"),
        ("Swap the 70B for a 35B and the lifetime inference FLOPs halve.", "correct"),
        ("Going from a 7B to a 70B model makes the FLOPs per token 10x higher.", "correct"),
        ("Going from a 7B to a 70B model makes the FLOPs per token 100x higher.", "incorrect"),
        ("Replacing the 13B with a 1.3B cuts the forward-pass FLOPs by about 10x.", "correct"),
        ("Replacing the 13B with a 1.3B cuts the forward-pass FLOPs by about 100x.", "incorrect"),
    ],
)
def test_inference_flops_against_the_parameter_count(text: str, verdict: str) -> None:
    found = [v for quantity, v in _verdicts(text) if quantity == "inference FLOPs scaling factor"]
    assert found == [verdict], check_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "From 70B to 35B, the training compute drops 4x at compute-optimal data.",  # D grows with N too
        "Swapping the 70B for a 35B MoE with 8 experts cuts inference compute 8x.",  # active parameters
        "From 70B to 35B in int4, the inference compute per token drops 4x.",  # another change
    ],
)
def test_parameter_scaling_not_judged(text: str) -> None:
    assert not [c for c in check_claims(text) if "scaling factor" in c.quantity and c.verdict == "incorrect"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Total vs active params is only about 1.8x for Mixtral, so memory isn't that much worse than compute suggests.", "incorrect"),
        ("Mixtral 8x7B's active parameters are about a quarter of its total.", "correct"),
        ("Mixtral 8x7B's active parameters are about a tenth of its total.", "incorrect"),
        ("For Mixtral, total parameters are 3.6x the active ones.", "correct"),
        ("For Mixtral 8x22B, total parameters are 8x the active ones.", "incorrect"),
    ],
)
def test_mixtral_total_over_active(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, about="total vs active") == [verdict], check_claims(text)


def test_moe_ratio_without_a_known_model_is_not_judged() -> None:
    # the split depends on the model: no verdict without Mixtral named
    assert not _ratio_verdicts("Total vs active params is only about 1.8x for this MoE.", about="total vs active")


COMPUTE_OPTIMAL_70B = {"params": 70e9, "tokens": 1.4e12}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Lifetime inference at 10T tokens for a 70B is roughly 10x the training compute.", "incorrect"),
        ("Lifetime inference at 10T tokens for a 70B is roughly 2.4x the training compute.", "correct"),
        ("Serving 10T tokens costs about 2x the pre-training compute.", "correct"),  # 8·N·D with recomputation: 1.8x
        ("The training compute is a tenth of serving 10T tokens.", "incorrect"),
    ],
)
def test_inference_over_training_compute(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, COMPUTE_OPTIMAL_70B, about="inference vs training") == [verdict], check_claims(text, COMPUTE_OPTIMAL_70B)


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Serving 10T tokens a year for 3 years is about 7x the training compute.", COMPUTE_OPTIMAL_70B),  # years multiply
        ("Lifetime inference at 10T tokens for a 7B is roughly 10x the training compute.", COMPUTE_OPTIMAL_70B),  # another model
        ("Lifetime inference at 10T tokens is roughly 10x the training compute.", None),  # training tokens unknown
    ],
)
def test_inference_over_training_not_judged(text: str, facts: dict | None) -> None:
    assert not _ratio_verdicts(text, facts, about="inference vs training")


def test_all_reduce_is_not_read_as_a_reduction() -> None:
    # the "reduce" of "all-reduce" says nothing about the direction: "8× slower" is a factor of 8
    checks = [c for c in check_claims("Going from 8 to 64 GPUs in the ring makes the bandwidth-bound all-reduce about 8× slower.")
              if "scaling factor" in c.quantity]
    assert [(c.verdict, c.claimed) for c in checks] == [("incorrect", 8.0)]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Going from 32 KV heads to 8 shrinks the cache by 4x.", "correct"),
        ("Going from 32 KV heads to 8 shrinks the cache by 16x.", "incorrect"),
        ("Going from 32 KV heads to 8 KV heads cuts the KV cache memory to a quarter.", "correct"),
        ("Going from 64 KV heads to 8 KV heads cuts the KV cache memory to a half.", "incorrect"),
    ],
)
def test_kv_cache_from_some_kv_heads_to_fewer(text: str, verdict: str) -> None:
    assert _ratio_verdicts(text, about="KV heads") == [verdict], check_claims(text)
