"""Compute calculators: 6·N·D, Chinchilla, time to train, and forward FLOPs counted on the meta device."""

from __future__ import annotations

import pytest

from interviewer.tools import CalculatorInputError
from interviewer.tools.flops import compute_optimal, forward_flops, time_to_train, training_flops

DAY = 86400


def test_gpt3_training_compute() -> None:
    """Brown et al. 2020, Table D.1: GPT-3 175B trained on 300B tokens took 3.14e23 FLOPs (6·N·D, Kaplan et al. 2020 §2.1)."""
    result = training_flops(params=175e9, tokens=300e9)
    assert result.unit == "FLOPs"
    assert result.value == pytest.approx(3.14e23, rel=0.005)
    assert result.breakdown["forward_flops"] * 3 == pytest.approx(result.value)
    assert result.breakdown["pf_days"] == pytest.approx(3640, rel=0.005)  # Table D.1: 3.64E+03 PF-days


def test_chinchilla_70b_on_1_4t_tokens() -> None:
    """Hoffmann et al. 2022: Chinchilla, 70B parameters on 1.4T tokens, used Gopher's budget (≈5.76e23 FLOPs)."""
    result = compute_optimal(params=70e9)
    assert result.unit == "tokens"
    assert result.value == pytest.approx(1.4e12)
    assert result.breakdown["compute"] == pytest.approx(5.76e23, rel=0.03)


def test_chinchilla_10b_and_inverse() -> None:
    """Agreed worked example: 10B → 200B tokens, 1.2e22 FLOPs; inverting C = 120·N² gives 10B back
    (Hoffmann et al. 2022, Table 3 lists 10B → 205.1B tokens, 1.23e22 FLOPs)."""
    forward = compute_optimal(params=10e9)
    assert forward.value == pytest.approx(200e9)
    assert forward.breakdown["compute"] == pytest.approx(1.2e22)
    inverse = compute_optimal(compute=1.2e22)
    assert inverse.breakdown["params"] == pytest.approx(10e9)
    assert inverse.value == pytest.approx(200e9)


def test_chinchilla_needs_exactly_one_input() -> None:
    with pytest.raises(CalculatorInputError):
        compute_optimal()
    with pytest.raises(CalculatorInputError):
        compute_optimal(compute=1e22, params=1e9)


def test_time_to_train_8_a100_at_40_percent_mfu() -> None:
    """C / (GPUs × peak × MFU): 1.2e22 FLOPs on 8 A100s (312 TFLOP/s dense bf16) at 40 % ≈ 1.2e7 s ≈ 139 days."""
    result = time_to_train(flops=1.2e22, gpus=8, gpu="a100", mfu=0.4)
    assert result.unit == "seconds"
    assert result.value == pytest.approx(1.2e22 / (8 * 312e12 * 0.4))
    assert result.value / DAY == pytest.approx(139, abs=0.5)


@pytest.mark.parametrize(
    ("params", "tokens", "gpus", "achieved_tflops", "published_days"),
    [(175e9, 300e9, 1024, 140, 34), (1e12, 450e9, 3072, 163, 84)],
)
def test_narayanan_training_time_estimates(params: float, tokens: float, gpus: int, achieved_tflops: float, published_days: float) -> None:
    """Narayanan et al. 2021, §5.1 Eq. 4: time ≈ 8·T·P / (n·X) with recomputation; GPT-3 on 1,024 A100s at
    140 TFLOP/s ≈ 34 days; 1T parameters on 450B tokens with 3,072 A100s at 163 TFLOP/s ≈ 84 days."""
    result = time_to_train(flops=8 * params * tokens, gpus=gpus, peak_flops=achieved_tflops * 1e12, mfu=1.0)
    assert result.value / DAY == pytest.approx(published_days, rel=0.03)


def test_time_to_train_from_params_and_tokens_and_percent_mfu() -> None:
    a = time_to_train(params=10e9, tokens=200e9, gpus=8, gpu="A100 40GB", mfu="40%")
    b = time_to_train(flops=1.2e22, gpus=8, gpu="a100-40gb", mfu=40)
    assert a.value == pytest.approx(b.value)


def test_time_to_train_bad_inputs() -> None:
    with pytest.raises(CalculatorInputError) as raised:
        time_to_train(flops=1e22, gpus=8, gpu="a100", mfu=1.5e3)
    assert raised.value.field == "mfu"
    with pytest.raises(CalculatorInputError) as raised:
        time_to_train(flops=1e22, gpus=8)
    assert raised.value.field == "gpu"
    with pytest.raises(CalculatorInputError) as raised:
        time_to_train(flops=1e22, gpus=8, gpu="tpu-v4")
    assert raised.value.field == "gpu"


# --- forward FLOPs, counted with FlopCounterMode on the meta device ---------------------------


@pytest.mark.slow
def test_gpt2_forward_flops_counted_against_formula() -> None:
    """2 FLOPs per weight per token for every matmul (Kaplan et al. 2020 §2.1) + 4·s²·d·L for QKᵀ and AV."""
    seq, h, layers, vocab = 1024, 768, 12, 50257
    result = forward_flops(preset="gpt2", seq=seq, batch=1)
    breakdown = result.breakdown
    # Linear layers per layer: qkv 3h², proj h², MLP 8h², each 2 FLOPs per MAC per token.
    assert breakdown["linear_flops"] == 2 * seq * layers * 12 * h * h
    assert breakdown["lm_head_flops"] == 2 * seq * h * vocab
    assert breakdown["attention_flops_dense"] == 4 * seq * seq * h * layers
    assert breakdown["causal_factor"] == pytest.approx((seq + 1) / (2 * seq))
    assert result.value == pytest.approx(breakdown["linear_flops"] + breakdown["lm_head_flops"] + breakdown["attention_flops"])
    assert breakdown["counted_over_estimate"] == pytest.approx(1.0, abs=0.01)


@pytest.mark.slow
def test_llama2_70b_forward_is_about_2n_per_token() -> None:
    """70B on meta: counted FLOPs ≈ 2·N per token plus the causal attention term (no memory used)."""
    result = forward_flops(preset="llama-2-70b", seq=2048, batch=1)
    per_token = result.breakdown["flops_per_token"]
    n = 68_976_648_192
    assert 2 * n * 0.99 < per_token < 2 * n * 1.05
    assert result.breakdown["counted_over_estimate"] == pytest.approx(1.0, abs=0.002)


@pytest.mark.slow
def test_bert_is_bidirectional_and_batch_scales_linearly() -> None:
    one = forward_flops(preset="bert-base", seq=128, batch=1)
    two = forward_flops(preset="bert-base", seq=128, batch=2)
    assert one.breakdown["causal"] == "no" and one.breakdown["causal_factor"] == 1.0
    assert two.value == pytest.approx(2 * one.value)


@pytest.mark.slow
def test_causal_flag_and_position_limit() -> None:
    dense = forward_flops(preset="gpt2", seq=256, causal=False)
    causal = forward_flops(preset="gpt2", seq=256)
    assert dense.value - causal.value == pytest.approx(dense.breakdown["attention_flops_dense"] * (1 - 257 / 512))
    with pytest.raises(CalculatorInputError) as raised:
        forward_flops(preset="gpt2", seq=2048)
    assert raised.value.field == "seq"


@pytest.mark.slow
def test_flop_counter_sdpa_quirks_in_this_torch() -> None:
    """Why the models use explicit matmuls: in torch 2.13, FlopCounterMode counts scaled_dot_product_attention
    as 0 on CPU tensors, and on meta counts the full s×s product even with is_causal=True."""
    import torch
    import torch.nn.functional as F
    from torch.utils.flop_counter import FlopCounterMode

    def count(device: str, causal: bool) -> int:
        q = torch.randn(1, 2, 64, 32, device=device)
        with FlopCounterMode(display=False) as counter:
            F.scaled_dot_product_attention(q, q, q, is_causal=causal)
        return counter.get_total_flops()

    full = 4 * 2 * 64 * 64 * 32
    assert count("meta", causal=False) == full
    assert count("meta", causal=True) == full
    assert count("cpu", causal=True) == 0


@pytest.mark.slow
def test_bench_flops_70b_runs_in_seconds_without_memory() -> None:
    """bench/flops_70b.py: a 70B forward count on meta takes seconds and no tensor memory."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "bench" / "flops_70b.py"
    completed = subprocess.run([sys.executable, str(script), "--runs", "1", "--json"], capture_output=True, text=True, check=True, timeout=120)
    report = json.loads(completed.stdout)
    assert report["parameters"] == 68_976_648_192
    assert report["median_seconds"] < 30
    assert report["peak_rss_delta_bytes"] < 256 * 2**20  # vs 138 GB of fp16 weights


def test_a_sequence_too_long_to_count_is_a_clear_input_error() -> None:
    """Found by bench/fuzz_claims.py: seq = 4e8 overflowed torch's int64 storage size."""
    import pytest

    from interviewer.tools.errors import CalculatorInputError
    from interviewer.tools.flops import forward_flops

    with pytest.raises(CalculatorInputError, match="too large to count"):
        forward_flops(preset="llama-2-7b", seq=418_750_800, batch=64)
