"""Memory calculators against published numbers: ZeRO (model states), Korthikanti et al. (activations), KV cache."""

from __future__ import annotations

import pytest

from interviewer.tools import CalculatorInputError, run_calculator
from interviewer.tools.memory import activation_memory, kv_cache_size, model_state_memory

GB = 1e9
GiB = 2**30
MiB = 2**20


# --- model states: Rajbhandari et al. 2020 (ZeRO) -------------------------------------------


@pytest.mark.parametrize(
    ("stage", "published_gb"),
    [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)],
)
def test_zero_figure_1_for_7_5b_params_on_64_gpus(stage: int, published_gb: float) -> None:
    """ZeRO, Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, N_d = 64, K = 12 →
    baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB per device."""
    result = model_state_memory(params=7.5e9, gpus=64, zero=stage)
    assert result.unit == "bytes"
    assert result.value / GB == pytest.approx(published_gb, abs=0.05)


def test_zero_figure_1_exact_values() -> None:
    """The figure rounds 2Ψ+2Ψ+12Ψ/64 = 31.40625 GB, 2Ψ+14Ψ/64 = 16.640625 GB, 16Ψ/64 = 1.875 GB (ZeRO §5.1-5.3)."""
    values = [model_state_memory(params=7.5e9, gpus=64, zero=z).value for z in range(4)]
    assert values == [120e9, 31.40625e9, 16.640625e9, 1.875e9]


def test_mixed_precision_adam_is_16_bytes_per_parameter() -> None:
    """ZeRO §3.1: 2Ψ fp16 weights + 2Ψ fp16 gradients + KΨ optimizer states with K = 12."""
    breakdown = model_state_memory(params=1e9).breakdown
    assert (breakdown["weight_bytes_per_param"], breakdown["grad_bytes_per_param"], breakdown["optimizer_bytes_per_param"]) == (2, 2, 12)
    assert breakdown["bytes_per_param"] == 16


def test_fp32_gradients_give_18_bytes_per_parameter() -> None:
    """Agreed fact (CONTEXT.md): 18 bytes/param when gradients are kept in fp32."""
    assert model_state_memory(params=1e9, fp32_grads=True).value == 18e9


def test_fp32_adam_is_16_bytes_without_master_copy() -> None:
    """fp32 training: 4 (weights) + 4 (gradients) + 8 (Adam m, v); no separate master copy."""
    result = model_state_memory(params=1e9, precision="fp32")
    assert result.breakdown["optimizer_bytes_per_param"] == 8
    assert result.value == 16e9


@pytest.mark.parametrize(("stage", "expected_gb"), [(0, 160.0), (1, 55.0), (2, 37.5), (3, 20.0)])
def test_10b_params_over_8_gpus(stage: int, expected_gb: float) -> None:
    """ZeRO §3.1 / Figure 1 formulas with Ψ = 10B, N = 8 (agreed worked example in CONTEXT.md)."""
    assert model_state_memory(params=10e9, gpus=8, zero=stage).value == pytest.approx(expected_gb * GB)


def test_optimizer_variants() -> None:
    """SGD momentum keeps 1 state, Adafactor (Shazeer & Stern 2018) ~0 per parameter (factored, β1 = 0),
    8-bit Adam (Dettmers et al. 2022) 1 byte per moment: 75 % less optimizer state than fp32 Adam's 8 bytes."""
    def k(optimizer: str, precision: str = "fp32") -> float:
        return model_state_memory(params=1e9, optimizer=optimizer, precision=precision).breakdown["optimizer_bytes_per_param"]

    assert k("adam") == 8 and k("sgd") == 4 and k("adafactor") == 0 and k("adam8bit") == 2
    assert 1 - k("adam8bit") / k("adam") == pytest.approx(0.75)
    # Mixed precision adds the 4-byte fp32 master copy to each.
    assert [k(o, "mixed") for o in ("adam", "sgd", "adafactor", "adam8bit")] == [12, 8, 4, 6]
    # Pure bf16: weights, gradients and states all 2 bytes.
    assert model_state_memory(params=1e9, precision="bf16").value == 8e9


def test_zero_offload_keeps_only_fp16_weights_on_gpu() -> None:
    """ZeRO-Offload (Ren et al. 2021, §4): fp16 parameters stay on the GPU (2Ψ); fp16 gradients and the
    fp32 optimizer states (2Ψ + 12Ψ) go to CPU, so a 13B model fits one 32 GB V100 (the paper's headline)."""
    result = model_state_memory(params=13e9, gpus=1, zero=2, offload="cpu")
    assert result.value == 26e9
    assert result.breakdown["cpu_bytes_per_gpu"] == 14 * 13e9
    assert result.value < 32e9


def test_zero_stage_3_with_offload_partitions_weights() -> None:
    assert model_state_memory(params=8e9, gpus=8, zero=3, offload="cpu").value == 2e9


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"params": 1e9, "gpus": 0}, "gpus"),
        ({"params": 1e9, "gpus": 2.5}, "gpus"),
        ({"params": -1}, "params"),
        ({"params": 1e9, "zero": 4}, "zero"),
        ({"params": 1e9, "precision": "fp64"}, "precision"),
        ({"params": 1e9, "optimizer": "lion"}, "optimizer"),
        ({"params": 1e9, "offload": "cpu", "zero": 0}, "offload"),
        ({"params": 1e9, "offload": "nvme"}, "offload"),
    ],
)
def test_model_states_bad_inputs_name_the_field(inputs: dict, field: str) -> None:
    with pytest.raises(CalculatorInputError) as raised:
        model_state_memory(**inputs)
    assert raised.value.field == field


# --- activations: Korthikanti et al. 2022 ----------------------------------------------------

# Table 3 of Korthikanti et al. 2022 (all with s = 2048, t = 8).
GPT3_175B = {"layers": 96, "hidden": 12288, "heads": 96, "seq": 2048, "micro_batch": 1}
MT_NLG_530B = {"layers": 105, "hidden": 20480, "heads": 128, "seq": 2048, "micro_batch": 1}
MODEL_1T = {"layers": 128, "hidden": 25600, "heads": 160, "seq": 2048, "micro_batch": 1}
SBH_GPT3 = 2048 * 1 * 12288


def _per_layer(**inputs: object) -> float:
    return activation_memory(**inputs).breakdown["per_layer_bytes"]  # type: ignore[return-value]


def test_korthikanti_eq1_no_parallelism() -> None:
    """Korthikanti et al. 2022, Eq. 1: sbh(34 + 5as/h) bytes per layer; for GPT-3, 5as/h = 80."""
    assert _per_layer(**GPT3_175B) == SBH_GPT3 * (34 + 80)
    result = activation_memory(**GPT3_175B)
    assert result.value == 96 * SBH_GPT3 * 114
    assert result.breakdown["attention_term_5as_over_h"] == 80


def test_korthikanti_tensor_parallel() -> None:
    """Table 2, tensor parallel: sbh(10 + 24/t + 5as/(ht)); t = 8 → sbh·23 for GPT-3."""
    assert _per_layer(**GPT3_175B, tp=8) == SBH_GPT3 * (10 + 24 / 8 + 80 / 8)


def test_korthikanti_tensor_and_sequence_parallel() -> None:
    """Table 2 / Eq. 3: sbh/t·(34 + 5as/h)."""
    assert _per_layer(**GPT3_175B, tp=8, sp=True) == pytest.approx(SBH_GPT3 / 8 * 114)


def test_korthikanti_selective_recomputation() -> None:
    """Table 2: TP + selective sbh(10 + 24/t); TP + SP + selective 34·sbh/t; selective alone 34·sbh."""
    assert _per_layer(**GPT3_175B, tp=8, recompute="selective") == SBH_GPT3 * 13
    assert _per_layer(**GPT3_175B, tp=8, sp=True, recompute="selective") == pytest.approx(34 * SBH_GPT3 / 8)
    assert _per_layer(**GPT3_175B, recompute="selective") == 34 * SBH_GPT3


def test_korthikanti_full_recomputation() -> None:
    """Table 2 / §5: full recomputation stores only each layer's input, 2sbh (2sbhL in all)."""
    assert activation_memory(**GPT3_175B, recompute="full").value == 2 * SBH_GPT3 * 96
    assert _per_layer(**GPT3_175B, tp=8, sp=True, recompute="full") == 2 * SBH_GPT3


@pytest.mark.parametrize(("config", "attention_share"), [(GPT3_175B, 0.70), (MT_NLG_530B, 0.65)])
def test_selective_recomputation_saves_the_attention_share(config: dict, attention_share: float) -> None:
    """§5: selective recomputation drops the 5as/h term; with Table 3's configs it is 80/114 = 70 %
    of GPT-3's and 64/98 = 65 % of MT-NLG's per-layer activations."""
    full = activation_memory(**config).value
    selective = activation_memory(**config, recompute="selective").value
    assert 1 - selective / full == pytest.approx(attention_share, abs=0.005)


@pytest.mark.parametrize("config", [GPT3_175B, MT_NLG_530B, MODEL_1T])
def test_sequence_parallel_plus_selective_is_about_5x_less(config: dict) -> None:
    """Abstract: sequence parallelism + selective recomputation reduce activation memory by about 5x
    against the tensor-parallel baseline (Table 3 configs, t = 8)."""
    baseline = activation_memory(**config, tp=8).value
    reduced = activation_memory(**config, tp=8, sp=True, recompute="selective").value
    assert 4.5 < baseline / reduced < 6


def test_pipeline_first_stage_still_holds_l_layers() -> None:
    """§4.2.3: with 1F1B the first stage holds p micro-batches of L/p layers, i.e. L layers' worth."""
    no_pipeline = activation_memory(**GPT3_175B, tp=8, sp=True).value
    with_pipeline = activation_memory(**GPT3_175B, tp=8, sp=True, pp=8)
    assert with_pipeline.value == pytest.approx(no_pipeline)
    assert with_pipeline.breakdown["layers_per_stage"] == 12


def test_activations_linear_in_micro_batch_superlinear_in_seq() -> None:
    one = activation_memory(layers=1, hidden=1024, heads=16, seq=1024, micro_batch=1).value
    two = activation_memory(layers=1, hidden=1024, heads=16, seq=1024, micro_batch=2).value
    assert two == 2 * one
    double_seq = activation_memory(layers=1, hidden=1024, heads=16, seq=2048, micro_batch=1).value
    assert double_seq > 2 * one  # the 5as²b term is quadratic in s


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"tp": 7}, "tp"),
        ({"heads": 7}, "heads"),
        ({"recompute": "partial"}, "recompute"),
        ({"micro_batch": 0}, "micro_batch"),
    ],
)
def test_activations_bad_inputs(inputs: dict, field: str) -> None:
    with pytest.raises(CalculatorInputError) as raised:
        activation_memory(**{**GPT3_175B, **inputs})
    assert raised.value.field == field


# --- KV cache ---------------------------------------------------------------------------------


def test_llama2_7b_kv_cache_at_4k_fp16_is_2_gib() -> None:
    """Llama-2-7B (Touvron et al. 2023: 32 layers, 32 heads of 128): 2·32·32·128·4096·2 B = 2 GiB."""
    result = kv_cache_size(layers=32, kv_heads=32, head_dim=128, seq=4096, batch=1, dtype="fp16")
    assert result.value == 2 * GiB
    assert kv_cache_size(preset="llama-2-7b", seq=4096).value == 2 * GiB
    assert result.breakdown["bytes_per_token"] == 0.5 * MiB


def test_llama2_70b_gqa_kv_cache_per_token() -> None:
    """Llama-2-70B uses GQA with 8 KV heads over 80 layers (Touvron et al. 2023, §2.2): 0.3125 MiB/token in fp16."""
    result = kv_cache_size(preset="llama-2-70b", seq=1)
    assert result.value == 0.3125 * MiB


def test_mqa_gqa_mha_and_dtypes() -> None:
    """MQA (Shazeer 2019) keeps one KV head: 1/heads of MHA's cache; int4 is a quarter of fp16, fp8 half."""
    mha = kv_cache_size(layers=32, kv_heads=32, head_dim=128, seq=2048, batch=4).value
    assert kv_cache_size(layers=32, kv_heads=1, head_dim=128, seq=2048, batch=4).value == mha / 32
    assert kv_cache_size(layers=32, kv_heads=8, head_dim=128, seq=2048, batch=4).value == mha / 4
    assert kv_cache_size(layers=32, kv_heads=32, head_dim=128, seq=2048, batch=4, dtype="int4").value == mha / 4
    assert kv_cache_size(layers=32, kv_heads=32, head_dim=128, seq=2048, batch=4, dtype="float8").value == mha / 2
    assert kv_cache_size(layers=32, kv_heads=32, head_dim=128, seq=2048, batch=4, dtype="float32").value == mha * 2


def test_kv_cache_rejects_encoders_and_bad_dtypes() -> None:
    with pytest.raises(CalculatorInputError) as raised:
        kv_cache_size(preset="bert-base", seq=128)
    assert raised.value.field == "preset"
    with pytest.raises(CalculatorInputError) as raised:
        kv_cache_size(layers=2, kv_heads=2, head_dim=64, seq=8, dtype="fp12")
    assert raised.value.field == "dtype"
    with pytest.raises(CalculatorInputError) as raised:
        run_calculator("kv-cache", layers=2, kv_heads=2, head_dim=64)
    assert raised.value.field == "seq"
