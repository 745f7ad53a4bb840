"""Checking numeric claims end to end (interviewer.claims.check_claims)."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interviewer.claims import ClaimCheck, check_claims
from interviewer.claims.model import PUBLIC_KEYS


def one(text: str, facts: dict | None = None) -> ClaimCheck:
    checks = check_claims(text, facts)
    assert len(checks) == 1, [c.explanation for c in checks]
    return checks[0]


# --- the four examples of the issue -------------------------------------------------------------


def test_adam_mixed_precision_10b_is_160_gb() -> None:
    check = one("10B params with Adam in mixed precision is 160 GB")
    assert check.verdict == "correct"
    assert check.quantity == "model-state memory"
    assert (check.claimed, check.computed, check.unit) == (160e9, 160e9, "bytes")
    assert check.calculator == "model-states"
    assert check.inputs["params"] == 10e9
    assert check.convention is None
    assert check.explanation.startswith("You said 160 GB; I get 160 GB. 16 bytes/param")
    assert any("2Ψ" in line or "bytes/param" in line for line in check.working)


def test_zero3_over_8_gpus_with_scenario_params() -> None:
    check = one("ZeRO-3 over 8 GPUs gets it to 20 GB each", {"params": 10e9})
    assert check.verdict == "correct"
    assert check.quantity == "model-state memory per GPU"
    assert check.computed == pytest.approx(20e9)
    assert check.inputs | {"gpus": 8, "zero": 3} == check.inputs
    assert any("scenario" in line for line in check.working)


def test_llama2_7b_kv_cache_at_4k_is_2_gb_read_as_gib() -> None:
    check = one("the KV cache for Llama-2-7B at 4k is 2 GB")
    assert check.verdict == "correct"
    assert check.computed == 2 * 2**30
    assert check.inputs["seq"] == 4096
    assert "GiB" in (check.convention or "")  # 2 GB matches 2 GiB exactly; 2.15 GB is 7% off


def test_decode_1ms_per_token_for_2b_int8_on_an_unqualified_a100() -> None:
    check = one("decode is memory-bound, about 1 ms/token for 2B int8 on an A100")
    assert check.verdict == "correct"
    # An unqualified A100 is the 40 GB part (1,555 GB/s → 1.29 ms) or the 80 GB part (2,039 GB/s → 0.98 ms).
    assert check.computed == pytest.approx(2e9 / 2039e9)
    assert check.convention is not None and "A100-80GB" in check.convention
    assert check.tolerance == pytest.approx(0.25)  # "about"


def test_the_a100_40gb_alone_would_be_too_far_from_1ms() -> None:
    check = one("decode is memory-bound, about 1 ms/token for 2B int8 on an A100 40GB")
    assert check.verdict == "incorrect"
    assert check.computed == pytest.approx(2e9 / 1555e9)


# --- conventions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "convention"),
    [
        ("Keeping fp32 gradients, a 10B model with mixed-precision Adam needs 180 GB", "18 bytes/param"),
        ("A 10B model with Adam in mixed precision is 180 GB of model states", "18 bytes/param"),
        ("A 10B model with Adam in mixed precision is 200 GB of model states", "20 bytes/param"),
        ("With p=4 and m=8 the pipeline bubble is 37.5%", "(p−1)/m"),
        ("An A100 has 2 TB/s of memory bandwidth", "A100-80GB"),
        ("The model states are 149 GB for 10B params with Adam", None),
    ],
)
def test_every_accepted_convention_is_accepted_and_named(text: str, convention: str | None) -> None:
    check = one(text)
    assert check.verdict == "correct", check.explanation
    if convention is None:
        assert check.convention is None or "GiB" in check.convention
    else:
        assert convention in (check.convention or ""), check.explanation


def test_gib_written_for_a_decimal_value_is_accepted_with_the_reading_named() -> None:
    assert one("Exactly 149 GiB of model states for 10B params with Adam").convention is None  # 149 GiB is 160 GB
    check = one("Exactly 160 GiB of model states for 10B params with Adam")  # 171.8 GB: 7% off, but 160 "GiB" meant GB
    assert check.verdict == "correct"
    assert "GiB read as GB" in (check.convention or "")


def test_the_usual_convention_wins_when_it_matches() -> None:
    check = one("GPT-2 XL has 1.5B parameters")
    assert check.verdict == "correct"
    assert check.convention is None  # total count, not the (closer) non-embedding count


def test_sparsity_peaks_are_wrong_and_the_explanation_says_why() -> None:
    check = one("The H100 SXM delivers 1979 TFLOPS in bf16")
    assert check.verdict == "incorrect"
    assert check.computed == pytest.approx(989.5e12)
    assert "sparsity" in check.explanation


def test_tokens_per_second_claims_are_checked_as_time_per_token() -> None:
    check = one("A 2B fp16 model on an A10G decodes at about 150 tokens/s")
    assert check.verdict == "correct"
    assert check.unit == "seconds"
    assert check.claimed == pytest.approx(1 / 150)


# --- directions and tolerance -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Prefill of a 2k-token prompt for Llama-2-7B on an A100 takes at least 50 ms", "correct"),  # ≥ 88 ms
        ("Prefill of a 2k-token prompt for Llama-2-7B on an A100 takes at least 1 s", "incorrect"),
        ("Decode for a 7B fp16 model on an H100 takes under 10 ms per token", "correct"),  # 4.2 ms
        ("Decode for a 7B fp16 model on an H100 takes under 1 ms per token", "incorrect"),
        ("The KV cache for Llama-2-7B at 4k is between 2 and 2.5 GB", "correct"),
        ("The KV cache for Llama-2-7B at 4k is between 5 and 6 GB", "incorrect"),
        ("A 10B model with Adam in mixed precision is exactly 160 GB of model states", "correct"),
        ("A 10B model with Adam in mixed precision is on the order of 300 GB of model states", "correct"),
        ("A 10B model with Adam in mixed precision is on the order of 1 TB of model states", "incorrect"),
    ],
)
def test_hedges_and_bounds(text: str, verdict: str) -> None:
    assert one(text).verdict == verdict


def test_default_tolerance_is_15_percent() -> None:
    assert one("A 10B model's fp16 weights are 23 GB").verdict == "correct"  # 15% over 20 GB
    assert one("A 10B model's fp16 weights are 24 GB").verdict == "incorrect"  # 20% over


# --- inputs: sentence, earlier sentences, scenario -------------------------------------------------


def test_the_sentence_values_win_over_the_scenario() -> None:
    check = one("A 7B model in fp16 is 14 GB of weights", {"params": 70e9, "dtype": "int8"})
    assert check.verdict == "correct"
    assert check.inputs["params"] == 7e9 and check.inputs["dtype"] == "fp16"


def test_earlier_sentences_give_context() -> None:
    checks = check_claims("Take Llama-2-7B at 4k context. Its KV cache is then about 2 GiB per sequence.")
    assert [c.verdict for c in checks] == ["correct"]
    assert any("earlier" in line for line in checks[0].working)


def test_a_new_model_replaces_the_one_from_context() -> None:
    # The topic does not carry over between full sentences (only across a semicolon): each names its cue.
    checks = check_claims("Llama-2-7B at 4k has a 2 GiB KV cache. Llama-2-70B at 4k has a 1.25 GiB KV cache thanks to GQA.")
    assert [c.verdict for c in checks] == ["correct", "correct"]


def test_a_scenario_batch_is_also_read_per_sequence() -> None:
    check = one("The KV cache is about 2 GiB", {"model": "llama-2-7b", "seq": 4096, "batch": 16})
    assert check.verdict == "correct"
    assert "per sequence" in (check.convention or "")


def test_facts_given_as_strings_are_read() -> None:
    check = one("ZeRO-3 over 8 GPUs gets it to 20 GB each", {"params": "10e9"})
    assert check.verdict == "correct"


# --- unverifiable, never guessed ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("The KV cache at 4k context is about 2 GB", "model"),
        ("Decode for a 7B model takes about 10 ms per token", "GPU"),
        ("With ZeRO-3 each GPU holds 20 GB", "parameter count"),
        ("The bubble is about 20%", "pipeline stages"),
        ("Each GPU holds 20 GB of Adam states", "ZeRO stage"),
    ],
)
def test_missing_inputs_make_a_claim_unverifiable_and_say_what_is_missing(text: str, missing: str) -> None:
    check = one(text)
    assert check.verdict == "unverifiable"
    assert check.computed is None
    assert missing in check.explanation


@pytest.mark.parametrize(
    "text",
    [
        "we use 8 GPUs",
        "We use 8 GPUs with ZeRO-3.",
        "Let's assume a 10B model and 4k context.",
        "Prefill is compute-bound while decode is memory-bound.",
        "An H100 costs about $2 per hour.",
        "",
    ],
)
def test_sentences_without_a_checkable_quantity_produce_nothing(text: str) -> None:
    assert check_claims(text) == []


# --- robustness -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1e308 params with Adam in mixed precision is 1e308 GB",
        "-10B params with Adam is 160 GB",
        "ZeRO-3 over 0 GPUs gets it to 20 GB each",
        "the KV cache for Llama-2-7B at 0 tokens is 2 GB",
        "decode for a 1e308B model in fp16 on an H100 takes 1 ms per token",
        "With 1e30 stages and 0 microbatches the bubble is 10%",
        "At 0 req/s and 0 ms latency we have 5 requests in flight",
        "A 2B fp16 model on an A10G decodes at 0 tokens/s",
        "ZeRO-3 over 8.5 GPUs gets it to 20 GB each",
        "1e999 GB of KV cache",
    ],
)
def test_absurd_inputs_never_crash(text: str) -> None:
    for check in check_claims(text, {"params": 10e9}):
        assert check.verdict in ("unverifiable", "incorrect", "correct")
        assert check.explanation


def test_negative_claims_are_incorrect() -> None:
    assert one("the KV cache for Llama-2-7B at 4k is -2 GB").verdict == "incorrect"


def test_a_megabyte_of_text_is_checked_in_bounded_time() -> None:
    text = ("8 GPUs 160 GB Adam ZeRO-3 KV cache 4k Llama-2-7B 2 GB about 1 ms/token " * 20000)[:1_000_000]
    start = time.perf_counter()
    checks = check_claims(text)
    assert time.perf_counter() - start < 60
    assert len(checks) <= 500


def test_a_megabyte_without_punctuation_or_claims() -> None:
    start = time.perf_counter()
    assert check_claims("1" * 1_000_000) == []
    assert check_claims("word " * 200_000) == []
    assert time.perf_counter() - start < 30


_SOUP = list("0123456789 .,;:-xe%kKMBGTiBsm/~") + ["GB", " params", " Adam", " KV cache", " A100", " ZeRO-3", " about", " ms/token", " tokens", " Llama-2-7B"]


@given(st.lists(st.sampled_from(_SOUP), max_size=120).map("".join))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_arbitrary_number_soup_never_crashes(text: str) -> None:
    for check in check_claims(text, {"params": 10e9, "gpus": 8}):
        assert check.verdict in ("correct", "incorrect", "unverifiable")


def test_non_string_text_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        check_claims(None)  # type: ignore[arg-type]


# --- the public shape ---------------------------------------------------------------------------------


def test_public_dict_has_exactly_the_cli_keys() -> None:
    check = one("10B params with Adam in mixed precision is 160 GB")
    public = check.to_public_dict()
    assert tuple(public) == PUBLIC_KEYS == ("text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "scope", "provenance")
    json.dumps(public)  # plain JSON all the way down
    assert public["text"] == "10B params with Adam in mixed precision is 160 GB"


def test_claimcheck_fields() -> None:
    check = one("About 1 ms/token for 2B int8 on an A100 when decoding")
    for field in ("text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "working", "calculator",
                  "inputs", "convention", "tolerance", "direction"):
        assert hasattr(check, field)
    assert check.direction == "approx"
    assert check.span is not None
    start, end = check.span
    assert "1 ms/token" in "About 1 ms/token for 2B int8 on an A100 when decoding"[start:end]


def test_several_claims_in_one_sentence_each_get_their_clause() -> None:
    checks = check_claims("Weights are 14 GB in fp16 for a 7B model, and the KV cache for Llama-2-7B at 4k is about 2 GB.")
    assert [c.quantity for c in checks] == ["weight memory", "KV cache size"]
    assert checks[1].text.startswith("and the KV cache")


def test_ratio_text_survives_values_a_float_cannot_divide() -> None:
    from interviewer.claims.checker import _ratio_text

    assert _ratio_text(5.45e-269, 1e50) == "more than 1e308× too low"
    assert _ratio_text(1e300, 1e-300) == "more than 1e308× too high"
    assert _ratio_text(2.0, 1.0) == "2× too high"
    assert _ratio_text(1.0, 4.0) == "4× too low"


def test_letters_that_regexes_fold_to_ascii_do_not_crash_the_unit_lookup() -> None:
    """Found by bench/fuzz_claims.py: "ſ" (long s) matched the unit "s" and was then looked up."""
    for text in ["Decode takes 5 ſ per token.", "A 7B model is 14 \u212aB.", "It takes 3 mınutes."]:
        assert isinstance(check_claims(text), list)
