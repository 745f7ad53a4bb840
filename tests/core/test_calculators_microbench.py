"""Measured CPU micro-benchmarks: bounded in time, reporting ratios (loose bounds: the machine may be busy)."""

from __future__ import annotations

import time

import pytest

from interviewer.tools.microbench import run_microbench


@pytest.mark.slow
def test_attention_time_grows_superlinearly_with_sequence() -> None:
    """O(s²·d) attention (Vaswani et al. 2017, Table 1): doubling s should roughly quadruple the time."""
    start = time.perf_counter()
    result = run_microbench("attention", budget=0.5)
    assert time.perf_counter() - start < 10
    assert result.unit == "ratio"
    assert result.breakdown["attention.scaling_exponent"] > 1.5
    assert result.value > 2.5


@pytest.mark.slow
def test_kv_cache_gives_same_tokens_faster() -> None:
    result = run_microbench("kv-cache", budget=0.5)
    assert result.breakdown["kv-cache.same_tokens"] == 1.0
    assert result.value > 1.0


@pytest.mark.slow
def test_int8_dynamic_quantization() -> None:
    result = run_microbench("int8", budget=0.3)
    assert result.breakdown["int8.relative_error"] < 0.05
    assert result.breakdown["int8.fp32_weight_bytes"] == 4 * result.breakdown["int8.int8_weight_bytes"]
    assert result.value > 0
