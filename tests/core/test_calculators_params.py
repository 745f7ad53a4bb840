"""Exact parameter counts (built on the meta device) against the released models' published counts."""

from __future__ import annotations

import pytest

from interviewer.tools import MODEL_PRESETS, CalculatorInputError, get_preset
from interviewer.tools.params import parameter_count
from interviewer.tools.presets import llama_default_ffn

# Counts of the released checkpoints (sum of numel of the Hugging Face models: GPT2LMHeadModel with tied
# head, BertModel with pooler, LlamaForCausalLM with untied head); agreed in CONTEXT.md.
PUBLISHED_COUNTS = {
    "gpt2": 124_439_808,  # Radford et al. 2019 ("117M"/"124M"), released config
    "gpt2-medium": 354_823_168,
    "gpt2-large": 774_030_080,
    "gpt2-xl": 1_557_611_200,  # "1.5B"
    "bert-base": 109_482_240,  # Devlin et al. 2019, BERT-BASE "110M", uncased vocab 30,522
    "bert-large": 335_141_888,  # BERT-LARGE "340M"
    "llama-2-7b": 6_738_415_616,  # Touvron et al. 2023 (Llama 2), Table 1
    "llama-2-13b": 13_015_864_320,
    "llama-2-70b": 68_976_648_192,
    "llama-3-8b": 8_030_261_248,  # Meta 2024, Llama 3 model card
    "llama-3-70b": 70_553_706_496,
}


@pytest.mark.parametrize(("preset", "published"), sorted(PUBLISHED_COUNTS.items()))
def test_preset_parameter_count_is_exact(preset: str, published: int) -> None:
    result = parameter_count(preset=preset)
    assert result.unit == "parameters"
    assert int(result.value) == published
    assert result.breakdown["total"] == published


def test_every_preset_has_a_published_count() -> None:
    assert set(MODEL_PRESETS) == set(PUBLISHED_COUNTS)


def test_gpt2_breakdown_matches_the_closed_form() -> None:
    """GPT-2 small: per layer 12h² + 13h; embeddings V·h + 1024·h; final LayerNorm 2h; head tied."""
    h, layers, vocab = 768, 12, 50257
    breakdown = parameter_count(preset="gpt2").breakdown
    assert breakdown["per_layer"] == 12 * h * h + 13 * h
    assert breakdown["token_embeddings"] == vocab * h
    assert breakdown["position_embeddings"] == 1024 * h
    assert breakdown["final_norm"] == 2 * h
    assert breakdown["lm_head"] == 0
    assert breakdown["total"] == layers * (12 * h * h + 13 * h) + vocab * h + 1024 * h + 2 * h


@pytest.mark.parametrize("preset", ["gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl"])
def test_non_embedding_params_match_12_L_d_squared(preset: str) -> None:
    """Kaplan et al. 2020, §2.1 / Table 1: N ≈ 12·n_layer·d_model² non-embedding parameters."""
    breakdown = parameter_count(preset=preset).breakdown
    assert breakdown["non_embedding_over_12Ld2"] == pytest.approx(1.0, abs=0.005)


@pytest.mark.slow
def test_custom_llama_dimensions_reproduce_llama2_7b() -> None:
    """LLaMA §2.2: SwiGLU width 2/3·4h rounded up to a multiple of 256 = 11,008 for h = 4,096."""
    assert llama_default_ffn(4096) == 11008 and llama_default_ffn(5120) == 13824
    custom = parameter_count(layers=32, hidden=4096, heads=32, vocab=32000, arch="llama")
    assert int(custom.value) == PUBLISHED_COUNTS["llama-2-7b"]


@pytest.mark.slow
def test_tied_vs_untied_and_gqa() -> None:
    """Tying the LM head saves exactly V·h; GQA with 8 of 64 KV heads shrinks k/v projections 8x (Ainslie et al. 2023)."""
    tied = parameter_count(layers=2, hidden=256, heads=4, vocab=1000, arch="llama", tied=True).value
    untied = parameter_count(layers=2, hidden=256, heads=4, vocab=1000, arch="llama").value
    assert untied - tied == 1000 * 256
    mha = parameter_count(layers=1, hidden=512, heads=8, vocab=10, arch="llama", ffn=1024).value
    gqa = parameter_count(layers=1, hidden=512, heads=8, kv_heads=2, vocab=10, arch="llama", ffn=1024).value
    assert mha - gqa == 2 * 512 * (512 - 2 * 64)


@pytest.mark.slow
def test_bert_style_custom_matches_bert_base() -> None:
    assert int(parameter_count(layers=12, hidden=768, heads=12, vocab=30522, arch="bert").value) == PUBLISHED_COUNTS["bert-base"]


def test_preset_aliases() -> None:
    assert get_preset("meta-llama/Llama-2-7b-hf")[0] == "llama-2-7b"
    assert get_preset("bert-base-uncased")[0] == "bert-base"
    assert get_preset("GPT2")[0] == "gpt2"
    assert get_preset("Meta-Llama-3-8B")[0] == "llama-3-8b"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"preset": "gpt5"}, "preset"),
        ({"layers": 2, "hidden": 100, "heads": 3, "vocab": 10}, "heads"),
        ({"layers": 2, "hidden": 128, "heads": 4, "vocab": 10, "kv_heads": 3, "arch": "llama"}, "kv_heads"),
        ({"layers": 2, "hidden": 128, "heads": 4, "vocab": 10, "kv_heads": 2, "arch": "gpt"}, "kv_heads"),
        ({"layers": 2, "hidden": 128, "heads": 4}, "vocab"),
        ({"layers": 2, "hidden": 128, "heads": 4, "vocab": 10, "arch": "t5"}, "arch"),
    ],
)
def test_params_bad_inputs(inputs: dict, field: str) -> None:
    with pytest.raises(CalculatorInputError) as raised:
        parameter_count(**inputs)
    assert raised.value.field == field
