"""Latency/capacity calculators and the GPU table against datasheets and published formulas."""

from __future__ import annotations

import pytest

from interviewer.tools import GPUS, CalculatorInputError, get_gpu
from interviewer.tools.latency import allreduce_time, decode_latency, littles_law, pipeline_bubble, prefill_latency

TERA = 1e12
GB = 1e9

# NVIDIA datasheets (dense; the sparsity figures are twice these), agreed in CONTEXT.md.
DATASHEET = {
    # name: (fp32 TF, fp16 TF, bf16 TF or None, memory GB, bandwidth GB/s)
    "V100-SXM2-32GB": (15.7, 125, None, 32, 900),
    "T4": (8.1, 65, None, 16, 320),
    "A10G": (35, 70, 70, 24, 600),
    "L4": (30.3, 121, 121, 24, 300),
    "A100-40GB": (19.5, 312, 312, 40, 1555),
    "A100-80GB": (19.5, 312, 312, 80, 2039),
    "H100-SXM": (67, 989.5, 989.5, 80, 3350),
    "H200": (67, 989.5, 989.5, 141, 4800),
}


@pytest.mark.parametrize(("name", "figures"), sorted(DATASHEET.items()))
def test_hardware_table_matches_datasheets(name: str, figures: tuple) -> None:
    fp32, fp16, bf16, memory_gb, bandwidth_gbs = figures
    spec = GPUS[name]
    assert spec.peak_flops["fp32"] == fp32 * TERA
    assert spec.peak_flops["fp16"] == fp16 * TERA
    assert spec.peak_flops.get("bf16") == (bf16 * TERA if bf16 else None)
    assert spec.memory_bytes == memory_gb * GB
    assert spec.bandwidth_bytes_per_s == bandwidth_gbs * GB
    assert spec.source


def test_hopper_dense_is_half_the_sparsity_figure() -> None:
    """H100 SXM datasheet: FP8 3,958 and BF16 1,979 TFLOPS *with sparsity*; dense is half."""
    h100 = get_gpu("h100")
    assert h100.peak_flops["fp8"] * 2 == 3958 * TERA
    assert h100.peak_flops["bf16"] * 2 == 1979 * TERA
    assert h100.interconnect_bytes_per_s == 900 * GB


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [("a100", "A100-40GB"), ("A100 40GB", "A100-40GB"), ("a100-80gb", "A100-80GB"), ("h100", "H100-SXM"),
     ("H100 SXM5", "H100-SXM"), ("nvidia h200", "H200"), ("v100", "V100-SXM2-32GB"), ("t4", "T4"), ("L4", "L4")],
)
def test_gpu_aliases(alias: str, canonical: str) -> None:
    assert get_gpu(alias).name == canonical


def test_unknown_gpu_names_the_field() -> None:
    with pytest.raises(CalculatorInputError) as raised:
        get_gpu("rtx-9090")
    assert raised.value.field == "gpu"


def test_decode_2b_int8_on_a100_40gb() -> None:
    """Roofline (Williams et al. 2009): 2e9 B / 1.555e12 B/s ≈ 1.29 ms per token; fp16 twice that."""
    int8 = decode_latency(params=2e9, dtype="int8", gpu="a100-40gb")
    assert int8.unit == "seconds"
    assert int8.value == pytest.approx(2e9 / 1555e9)
    assert int8.value * 1e3 == pytest.approx(1.29, abs=0.005)
    assert int8.breakdown["bound"] == "memory"
    fp16 = decode_latency(params=2e9, dtype="fp16", gpu="a100")
    assert fp16.value * 1e3 == pytest.approx(2.57, abs=0.005)


def test_decode_2b_fp16_on_a10g() -> None:
    """4e9 B / 600e9 B/s ≈ 6.7 ms per token."""
    assert decode_latency(params=2e9, dtype="bf16", gpu="a10g").value * 1e3 == pytest.approx(6.67, abs=0.01)


def test_decode_batch_amortizes_weights_until_compute_bound() -> None:
    """Each step reads the weights once for the whole batch (Pope et al. 2022): tokens/s grows with batch
    until 2·N·B / peak exceeds the weight-read time, past the ridge point (312e12 / 1.555e12 ≈ 200 FLOP/B)."""
    small = decode_latency(params=7e9, dtype="fp16", gpu="a100", batch=1)
    medium = decode_latency(params=7e9, dtype="fp16", gpu="a100", batch=64)
    large = decode_latency(params=7e9, dtype="fp16", gpu="a100", batch=1024)
    assert small.value == medium.value  # still memory-bound
    assert medium.breakdown["tokens_per_s"] == pytest.approx(64 * small.breakdown["tokens_per_s"])
    assert large.breakdown["bound"] == "compute"
    assert small.breakdown["crossover_batch"] == pytest.approx(312e12 / 1555e9, rel=1e-9)


def test_decode_kv_bytes_and_tensor_parallel() -> None:
    base = decode_latency(params=7e9, dtype="fp16", gpu="h100", kv_bytes=2**31)
    assert base.value == pytest.approx((14e9 + 2**31) / 3350e9)
    split = decode_latency(params=7e9, dtype="fp16", gpu="h100", kv_bytes=2**31, gpus=2)
    assert split.value == pytest.approx(base.value / 2)


def test_decode_falls_back_for_missing_precisions() -> None:
    """T4 has no bf16 tensor cores: the fp16 peak is used and the working says so."""
    result = decode_latency(params=1e9, dtype="bf16", gpu="t4")
    assert any("no bf16" in line for line in result.working)


def test_prefill_is_compute_bound() -> None:
    """Prefill does 2·N FLOPs per prompt token (Kaplan et al. 2020 §2.1): 7B × 2,048 tokens on an H100 at 50 % MFU."""
    result = prefill_latency(params=7e9, tokens=2048, gpu="h100", dtype="bf16", mfu=0.5)
    assert result.value == pytest.approx(2 * 7e9 * 2048 / (989.5e12 * 0.5))
    assert result.breakdown["bound"] == "compute"


@pytest.mark.parametrize("gpus", [2, 4, 8, 64, 1024])
def test_ring_allreduce_bytes_per_gpu(gpus: int) -> None:
    """Patarasuk & Yuan 2009: ring all-reduce sends 2(n−1)/n·S bytes per GPU (reduce-scatter + all-gather)."""
    result = allreduce_time(bytes=1e9, gpus=gpus, bandwidth=100e9)
    sent = 2 * (gpus - 1) / gpus * 1e9
    assert result.breakdown["bytes_sent_per_gpu"] == pytest.approx(sent)
    assert result.value == pytest.approx(sent / 100e9)
    assert sent < 2e9


def test_allreduce_latency_term_and_single_gpu() -> None:
    """Thakur et al. 2005: time ≈ 2(n−1)/n·S/B + 2(n−1)·α."""
    result = allreduce_time(bytes="2GiB", gpus=8, bandwidth="25 GB/s", latency="5us")
    assert result.value == pytest.approx(14 / 8 * 2**31 / 25e9 + 14 * 5e-6)
    assert allreduce_time(bytes=1e9, gpus=1, bandwidth=1e9).value == 0


@pytest.mark.parametrize(("stages", "microbatches", "fraction"), [(4, 8, 3 / 11), (8, 64, 7 / 71), (2, 1, 0.5), (1, 4, 0.0)])
def test_pipeline_bubble(stages: int, microbatches: int, fraction: float) -> None:
    """GPipe (Huang et al. 2019, §2.3) / Narayanan et al. 2021 §2.2.1: bubble = (p−1)/(m+p−1) of the step."""
    result = pipeline_bubble(stages=stages, microbatches=microbatches)
    assert result.unit == "fraction"
    assert result.value == pytest.approx(fraction)
    assert result.breakdown["bubble_over_ideal"] == pytest.approx((stages - 1) / microbatches)


def test_littles_law() -> None:
    """Little 1961: L = λ·W; 1,000 req/s × 0.2 s = 200 requests in flight."""
    result = littles_law(rate=1000, latency=0.2)
    assert result.value == pytest.approx(200)
    assert littles_law(rate="1k/s", latency="200ms", concurrency_per_replica=32).breakdown["replicas_needed"] == 7


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: decode_latency(params=1e9, dtype="fp16"), "gpu"),
        (lambda: decode_latency(params=1e9, dtype="fp13", gpu="a100"), "dtype"),
        (lambda: allreduce_time(bytes="7.5B", gpus=8, bandwidth=1e9), "bytes"),
        (lambda: allreduce_time(bytes=1e9, gpus=8, bandwidth="600gb/s"), "bandwidth"),
        (lambda: pipeline_bubble(stages=0, microbatches=4), "stages"),
        (lambda: littles_law(rate=-1, latency=1), "rate"),
    ],
)
def test_latency_bad_inputs(call, field: str) -> None:
    with pytest.raises(CalculatorInputError) as raised:
        call()
    assert raised.value.field == field
