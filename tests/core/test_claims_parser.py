"""From free text to entities, mentions and claims (interviewer.claims.parser, entities, topics)."""

from __future__ import annotations

import pytest

from interviewer.claims.entities import find_entities
from interviewer.claims.parser import (
    DEFAULT_TOLERANCE,
    EXACT_TOLERANCE,
    HEDGED_TOLERANCE,
    parse_sentence,
    split_sentences,
)
from interviewer.claims.topics import classify


def _mentions(text: str) -> list[tuple[str, str, str | None]]:
    return [(m.text, m.dim, m.role) for m in parse_sentence(text).mentions]


def _claims(text: str) -> list[tuple[str, str]]:
    parsed = parse_sentence(text)
    found = []
    for mention in parsed.mentions:
        topic = classify(parsed, mention)
        if topic is not None:
            found.append((mention.text, topic.id))
    return found


# --- entities -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        ("Llama-2-7B", ("llama-2-7b",)),
        ("llama2-70b", ("llama-2-70b",)),
        ("Llama 2 13B", ("llama-2-13b",)),
        ("Llama-3-8B", ("llama-3-8b",)),
        ("Llama 70B", ("llama-2-70b", "llama-3-70b")),  # versionless: both readings
        ("GPT-2 XL", ("gpt2-xl",)),
        ("GPT-2 small", ("gpt2",)),
        ("GPT-2", ("gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl")),
        ("BERT-base", ("bert-base",)),
    ],
)
def test_model_names_resolve_to_presets(text: str, variants: tuple[str, ...]) -> None:
    models = [e for e in find_entities(f"take {text} here") if e.kind == "model"]
    assert len(models) == 1
    assert models[0].variants == variants


def test_model_names_with_a_size_but_no_preset_keep_the_nominal_size() -> None:
    (gpt3,) = [e for e in find_entities("GPT-3 175B is big") if e.kind == "model"]
    assert gpt3.params == 175e9
    (mistral,) = [e for e in find_entities("Mistral-7B is small") if e.kind == "model"]
    assert mistral.params == 7e9


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        ("A100", ("A100-40GB", "A100-80GB")),  # ambiguous: accept either and say which
        ("A100-80GB", ("A100-80GB",)),
        ("A100 40GB", ("A100-40GB",)),
        ("80GB A100", ("A100-80GB",)),
        ("H100", ("H100-SXM",)),
        ("H100 SXM", ("H100-SXM",)),
        ("H100 PCIe", ()),  # not in the hardware table: no figures rather than wrong ones
        ("A10G", ("A10G",)),
        ("8x H100s", ("H100-SXM",)),
    ],
)
def test_gpu_names(text: str, variants: tuple[str, ...]) -> None:
    gpus = [e for e in find_entities(f"on {text} we run") if e.kind == "gpu"]
    assert len(gpus) == 1
    assert gpus[0].variants == variants


def test_dtypes_zero_stages_and_the_word_zero() -> None:
    entities = find_entities("ZeRO-3 in bf16 with int8 weights, 4-bit KV, FSDP, DDP, zero GPUs")
    kinds = [(e.kind, e.value) for e in entities]
    assert ("zero", 3) in kinds
    assert ("dtype", "bf16") in kinds and ("dtype", "int8") in kinds and ("dtype", "int4") in kinds
    assert kinds.count(("zero", 3)) == 2  # ZeRO-3 and FSDP
    assert ("zero", 0) in kinds  # DDP
    assert not any(e.text == "zero" for e in entities)  # the English word is a number, not ZeRO


# --- mentions -------------------------------------------------------------------------------


def test_numbers_inside_names_are_never_mentions() -> None:
    assert _mentions("Llama-2-7B on an A100 80GB in fp16 with ZeRO-3") == []


def test_inputs_get_roles() -> None:
    mentions = _mentions("10B params, 8 GPUs, 32 layers, hidden size 4096, 32 heads, at 4k, batch of 16, 4 stages, 16 microbatches")
    assert ("10B params", "parameters", "params") in mentions
    assert ("8 GPUs", "number", "gpus") in mentions
    assert ("32 layers", "number", "layers") in mentions
    assert ("4096", "number", "hidden") in mentions
    assert ("32 heads", "number", "heads") in mentions
    assert ("4k", "number", "seq") in mentions
    assert ("16", "number", "batch") in mentions
    assert ("4 stages", "number", "stages") in mentions
    assert ("16 microbatches", "number", "microbatches") in mentions


def test_at_4k_is_a_4096_token_context() -> None:
    (seq,) = [m for m in parse_sentence("the KV cache at 4k is 2 GB").mentions if m.role == "seq"]
    assert seq.value == 4096


def test_gpu_counts_next_to_gpu_names() -> None:
    (count,) = parse_sentence("train on 8x A100 for a week").mentions[:1]
    assert count.role == "gpus" and count.value == 8


@pytest.mark.parametrize(
    ("text", "direction", "tolerance"),
    [
        ("the KV cache is 2 GB", "approx", DEFAULT_TOLERANCE),
        ("the KV cache is about 2 GB", "approx", HEDGED_TOLERANCE),
        ("the KV cache is roughly 2 GB", "approx", HEDGED_TOLERANCE),
        ("the KV cache is ~2 GB", "approx", HEDGED_TOLERANCE),
        ("the KV cache is 2 GB or so", "approx", HEDGED_TOLERANCE),
        ("the KV cache is exactly 2 GB", "approx", EXACT_TOLERANCE),
        ("the KV cache is at least 2 GB", "at_least", DEFAULT_TOLERANCE),
        ("the KV cache is more than 2 GB", "at_least", DEFAULT_TOLERANCE),
        ("the KV cache is under 2 GB", "at_most", DEFAULT_TOLERANCE),
        ("the KV cache is less than 2 GB", "at_most", DEFAULT_TOLERANCE),
        ("the KV cache is 2 GB at most", "at_most", DEFAULT_TOLERANCE),
        ("the KV cache is on the order of 2 GB", "approx", 2.0),
        ("the KV cache is 2 GB ± 5%", "approx", 0.05),
    ],
)
def test_hedges_set_direction_and_tolerance(text: str, direction: str, tolerance: float) -> None:
    mention = parse_sentence(text).mentions[0]
    assert (mention.direction, mention.tolerance) == (direction, pytest.approx(tolerance))


def test_ranges() -> None:
    (mention,) = parse_sentence("somewhere between 150 and 170 GB").mentions
    assert (mention.low, mention.high) == (150e9, 170e9)
    (mention,) = parse_sentence("it needs 150-170 GB").mentions
    assert (mention.low, mention.high) == (150e9, 170e9)


def test_per_gpu_and_total_markers() -> None:
    (each,) = parse_sentence("ZeRO-3 gets it to 20 GB each").mentions
    assert "per_gpu" in each.markers
    (total,) = parse_sentence("that's 160 GB in total").mentions
    assert "total" in total.markers
    (per_token,) = parse_sentence("the KV cache is 0.5 MB per token").mentions
    assert "per_token" in per_token.markers


def test_sentences_split_on_full_stops_but_not_decimals_or_abbreviations() -> None:
    pieces = [s for _, s in split_sentences("It is 1.5 GB, e.g. for 4k tokens. Then 3 GB! And 2 GB; next 1 GB\nlast 5 GB")]
    assert pieces == ["It is 1.5 GB, e.g. for 4k tokens.", "Then 3 GB!", "And 2 GB;", "next 1 GB", "last 5 GB"]


def test_sentences_without_any_number_are_skipped() -> None:
    assert split_sentences("Prefill is compute-bound. Decode is memory-bound.") == []


def test_long_run_ons_are_cut_into_bounded_pieces() -> None:
    pieces = split_sentences("8 GPUs and 160 GB " * 5000)
    assert pieces and max(len(text) for _, text in pieces) <= 600


# --- which numbers are claims -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("10B params with Adam in mixed precision is 160 GB", [("160 GB", "model-states")]),
        ("the KV cache for Llama-2-7B at 4k is 2 GB", [("2 GB", "kv-cache")]),
        ("decode is memory-bound, about 1 ms/token for 2B int8 on an A100", [("1 ms/token", "decode")]),
        ("Weights: 7B × 2 bytes = 14 GB", [("14 GB", "weights")]),  # operands are not claims
        ("13.5 GB of weights plus 17 GB of KV cache", [("13.5 GB", "weights"), ("17 GB", "kv-cache")]),
        ("All-reducing 20 GB over 8 GPUs at 300 GB/s takes 117 ms", [("117 ms", "allreduce")]),
        ("With 4 stages and 16 microbatches the bubble is 16%", [("16%", "bubble")]),
        ("An A100 does 312 TFLOPs of bf16", [("312 TFLOPs", "peak-flops")]),
        ("Training 10B on 200B tokens is 1.2e22 FLOPs", [("1.2e22 FLOPs", "train-flops")]),
        ("1.2e22 FLOPs on 8 A100s at 40% MFU takes 139 days", [("139 days", "time-to-train")]),
        ("Chinchilla says 10B params want 200B tokens", [("200B tokens", "chinchilla-tokens")]),
        ("GPT-2 small has 124M parameters", [("124M parameters", "params")]),
        ("At 1000 req/s and 200 ms latency, 200 requests are in flight", [("200 requests", "littles-law")]),
    ],
)
def test_claims_are_found(text: str, claims: list[tuple[str, str]]) -> None:
    assert _claims(text) == claims


@pytest.mark.parametrize(
    "text",
    [
        "we use 8 GPUs",
        "Let's assume a 10B model and 4k context.",
        "I'd pick a batch size of 32 and a learning rate of 3e-4.",
        "The cluster has 64 A100s connected with 200 Gb/s InfiniBand.",
        "Use 4-bit quantization to fit on 24 GB cards.",
        "A 405B model in bf16 won't fit on one node of 8 H100s (640 GB)",
        "Latency went from 50 ms to 30 ms after batching.",
    ],
)
def test_inputs_and_unanchored_numbers_are_not_claims(text: str) -> None:
    assert _claims(text) == []


def test_a_sum_of_other_claims_is_not_checked() -> None:
    assert _claims("The weights are 14 GB for a 7B model in fp16 and with the KV cache it is 16 GB") == [("14 GB", "weights")]
