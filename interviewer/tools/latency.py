"""Latency and capacity calculators: roofline decode/prefill, ring all-reduce, pipeline bubble, Little's law."""

from __future__ import annotations

import math

from interviewer.tools.dtypes import BYTES_PER_ELEMENT, normalize_dtype
from interviewer.tools.errors import (
    CalculatorInputError,
    fraction_in_unit_interval,
    non_negative_float,
    positive_float,
    positive_int,
)
from interviewer.tools.hardware import get_gpu, peak_flops_for
from interviewer.tools.result import CalcResult
from interviewer.units import format_bytes_detailed, format_seconds_detailed

ROOFLINE_SOURCE = (
    "Roofline model (Williams, Waterman & Patterson 2009, CACM): time ≥ max(FLOPs / peak FLOP/s, bytes / bandwidth); "
    "decode reads every weight once per step (Pope et al. 2022, 'Efficiently Scaling Transformer Inference', §2-3); "
    "GPU figures from the NVIDIA datasheets (dense peaks)"
)
PREFILL_SOURCE = (
    "Roofline model (Williams et al. 2009): prefill does 2·N FLOPs per prompt token (Kaplan et al. 2020, §2.1) "
    "in large matmuls, so it is compute-bound: time ≈ 2·N·tokens / (peak × MFU); GPU figures from NVIDIA datasheets"
)
ALLREDUCE_SOURCE = (
    "Ring all-reduce = reduce-scatter + all-gather, 2(n−1) steps of S/n bytes: each GPU sends and receives "
    "2(n−1)/n·S bytes (Patarasuk & Yuan 2009, 'Bandwidth optimal all-reduce algorithms for clusters of workstations'; "
    "Thakur, Rabenseifner & Gropp 2005); time ≈ 2(n−1)/n·S/B + 2(n−1)·α"
)
BUBBLE_SOURCE = (
    "Pipeline bubble: (p−1) idle slots per device out of m+p−1 (Huang et al. 2019, GPipe, §2.3; "
    "Narayanan et al. 2021, 'Efficient Large-Scale Language Model Training on GPU Clusters', §2.2.1: bubble/ideal = (p−1)/m)"
)
LITTLE_SOURCE = "Little's law L = λ·W (Little 1961, 'A Proof for the Queuing Formula: L = λW', Operations Research 9(3))"


def decode_latency(
    params: float,
    dtype: str = "fp16",
    gpu: str | None = None,
    batch: int = 1,
    kv_bytes: float = 0.0,
    gpus: int = 1,
) -> CalcResult:
    """Lower bound on the time of one decode step (one new token for each of ``batch`` sequences).

    Roofline (Williams et al. 2009): a step must read every weight from HBM once
    (params × bytes/element, plus ``kv_bytes`` of KV cache for the whole batch) and do 2·params
    FLOPs per sequence. time ≥ max(bytes / bandwidth, FLOPs / peak). At small batch the memory
    term wins by orders of magnitude (Pope et al. 2022, §3), so decode is memory-bound:
    2B params in int8 on an A100-40GB (1,555 GB/s) is ≥ 1.29 ms/token; in fp16, 2.57 ms.
    With ``gpus`` > 1 (tensor parallel) weights and bandwidth are split evenly; communication is ignored.
    """
    n = positive_float("params", params)
    dtype_key = normalize_dtype(dtype)
    if gpu is None:
        raise CalculatorInputError("gpu", f"is required (e.g. a100-40gb, h100); known: {', '.join(_gpu_names())}")
    spec = get_gpu(gpu)
    batch_value = positive_int("batch", batch)
    kv = non_negative_float("kv_bytes", kv_bytes, kind="bytes")
    gpus_value = positive_int("gpus", gpus)

    weight_bytes = n * BYTES_PER_ELEMENT[dtype_key]
    bytes_read = weight_bytes + kv
    bandwidth = spec.bandwidth_bytes_per_s * gpus_value
    memory_time = bytes_read / bandwidth
    peak, compute_dtype, note = peak_flops_for(spec, dtype_key)
    flops = 2 * n * batch_value
    compute_time = flops / (peak * gpus_value)
    step_time = max(memory_time, compute_time)
    bound = "memory" if memory_time >= compute_time else "compute"
    ridge = peak / spec.bandwidth_bytes_per_s  # FLOP per byte where the two roofs meet
    # Batch at which the weight-read time equals the compute time (KV reads ignored).
    crossover_batch = ridge * BYTES_PER_ELEMENT[dtype_key] / 2
    fits = bytes_read <= spec.memory_bytes * gpus_value

    working = [
        f"bytes read per step: {n:.4g} params × {BYTES_PER_ELEMENT[dtype_key]:g} B ({dtype_key})"
        + (f" + {format_bytes_detailed(kv)} KV cache" if kv else "")
        + f" = {format_bytes_detailed(bytes_read)}",
        f"memory-bound time: {format_bytes_detailed(bytes_read)} / ({gpus_value} × {spec.bandwidth_bytes_per_s / 1e9:,.0f} GB/s) = {format_seconds_detailed(memory_time)}",
        f"compute-bound time: 2 × {n:.4g} × batch {batch_value} = {flops:.4g} FLOPs / ({gpus_value} × {peak / 1e12:.4g} TFLOP/s {compute_dtype}) = {format_seconds_detailed(compute_time)}",
        f"{bound}-bound: ≥ {format_seconds_detailed(step_time)} per step → ≤ {batch_value / step_time:,.1f} tokens/s total, {1 / step_time:,.1f} tokens/s per sequence",
        f"compute catches up with weight reads near batch ≈ {crossover_batch:,.0f} (ridge point {ridge:.0f} FLOP/byte)",
    ]
    if note:
        working.append(note)
    if not fits:
        working.append(f"warning: {format_bytes_detailed(bytes_read)} does not fit in {gpus_value} × {format_bytes_detailed(spec.memory_bytes)}")
    breakdown: dict[str, float | int | str] = {
        "gpu": spec.name,
        "gpus": gpus_value,
        "dtype": dtype_key,
        "batch": batch_value,
        "weight_bytes": weight_bytes,
        "kv_bytes": kv,
        "bytes_read_per_step": bytes_read,
        "bandwidth_bytes_per_s": bandwidth,
        "memory_bound_seconds": memory_time,
        "flops_per_step": flops,
        "peak_flops": peak * gpus_value,
        "compute_bound_seconds": compute_time,
        "bound": bound,
        "tokens_per_s": batch_value / step_time,
        "tokens_per_s_per_sequence": 1 / step_time,
        "crossover_batch": crossover_batch,
        "fits_in_memory": "yes" if fits else "no",
    }
    return CalcResult(name="decode-latency", value=step_time, unit="seconds", breakdown=breakdown, working=working, source=ROOFLINE_SOURCE)


def prefill_latency(
    params: float,
    tokens: int,
    dtype: str = "fp16",
    gpu: str | None = None,
    batch: int = 1,
    mfu: float = 1.0,
    gpus: int = 1,
) -> CalcResult:
    """Time to process a prompt of ``tokens`` tokens for ``batch`` sequences (time to first token, lower bound).

    Prefill does 2·N FLOPs per token (Kaplan et al. 2020, §2.1; attention's s²·d term excluded) in
    large matmuls, so it is compute-bound: time ≈ 2·N·tokens·batch / (peak × MFU); the weight-read
    time (N × bytes / bandwidth) is a floor it rarely hits. ``mfu=1`` gives the roofline lower bound.
    """
    n = positive_float("params", params)
    tokens_value = positive_int("tokens", tokens)
    dtype_key = normalize_dtype(dtype)
    if gpu is None:
        raise CalculatorInputError("gpu", f"is required (e.g. a100-40gb, h100); known: {', '.join(_gpu_names())}")
    spec = get_gpu(gpu)
    batch_value = positive_int("batch", batch)
    utilization = fraction_in_unit_interval("mfu", mfu)
    gpus_value = positive_int("gpus", gpus)

    peak, compute_dtype, note = peak_flops_for(spec, dtype_key)
    flops = 2 * n * tokens_value * batch_value
    compute_time = flops / (peak * utilization * gpus_value)
    weight_bytes = n * BYTES_PER_ELEMENT[dtype_key]
    memory_time = weight_bytes / (spec.bandwidth_bytes_per_s * gpus_value)
    total = max(compute_time, memory_time)
    bound = "compute" if compute_time >= memory_time else "memory"
    working = [
        f"FLOPs: 2 × {n:.4g} params × {tokens_value:,} tokens × batch {batch_value} = {flops:.4g}",
        f"compute time: {flops:.4g} / ({gpus_value} × {peak / 1e12:.4g} TFLOP/s {compute_dtype} × MFU {utilization:.0%}) = {format_seconds_detailed(compute_time)}",
        f"weight-read floor: {format_bytes_detailed(weight_bytes)} / {spec.bandwidth_bytes_per_s * gpus_value / 1e9:,.0f} GB/s = {format_seconds_detailed(memory_time)}",
        f"{bound}-bound: {format_seconds_detailed(total)} ({tokens_value * batch_value / total:,.0f} prompt tokens/s)",
    ]
    if note:
        working.append(note)
    breakdown: dict[str, float | int | str] = {
        "gpu": spec.name,
        "gpus": gpus_value,
        "dtype": dtype_key,
        "tokens": tokens_value,
        "batch": batch_value,
        "flops": flops,
        "peak_flops": peak * gpus_value,
        "mfu": utilization,
        "compute_bound_seconds": compute_time,
        "memory_bound_seconds": memory_time,
        "bound": bound,
        "tokens_per_s": tokens_value * batch_value / total,
    }
    return CalcResult(name="prefill-latency", value=total, unit="seconds", breakdown=breakdown, working=working, source=PREFILL_SOURCE)


def allreduce_time(bytes: float, gpus: int, bandwidth: float, latency: float = 0.0) -> CalcResult:  # `bytes`: the CLI flag is --bytes
    """Ring all-reduce of ``bytes`` over ``gpus`` ranks with per-link ``bandwidth`` (bytes/s, one direction).

    The ring does a reduce-scatter then an all-gather, n−1 steps each, every step moving S/n bytes
    per GPU, so each GPU sends (and receives) 2(n−1)/n·S bytes, nearly 2S for large n and
    independent of n: bandwidth-optimal (Patarasuk & Yuan 2009). Time ≈ 2(n−1)/n·S/B + 2(n−1)·α
    with α the per-step latency (``latency``, seconds).
    """
    size = positive_float("bytes", bytes, kind="bytes")
    n = positive_int("gpus", gpus)
    link = positive_float("bandwidth", bandwidth, kind="bandwidth")
    alpha = non_negative_float("latency", latency, kind="seconds")
    steps = 2 * (n - 1)
    sent = steps / n * size
    bandwidth_time = sent / link
    latency_time = steps * alpha
    total = bandwidth_time + latency_time
    working = [
        f"2(n−1) = {steps} steps of S/n = {format_bytes_detailed(size / n)}",
        f"bytes sent per GPU: 2(n−1)/n × S = {steps}/{n} × {format_bytes_detailed(size)} = {format_bytes_detailed(sent)} (the same received)",
        f"bandwidth term: {format_bytes_detailed(sent)} / {link / 1e9:.4g} GB/s = {format_seconds_detailed(bandwidth_time)}",
    ]
    if alpha:
        working.append(f"latency term: {steps} × {format_seconds_detailed(alpha)} = {format_seconds_detailed(latency_time)}")
    working.append(f"total {format_seconds_detailed(total)}" if n > 1 else "one GPU: nothing to reduce")
    breakdown: dict[str, float | int | str] = {
        "bytes": size,
        "gpus": n,
        "steps": steps,
        "chunk_bytes": size / n,
        "bytes_sent_per_gpu": sent,
        "bytes_received_per_gpu": sent,
        "traffic_factor": steps / n,
        "bandwidth_bytes_per_s": link,
        "bandwidth_seconds": bandwidth_time,
        "latency_seconds": latency_time,
        "algorithm_bandwidth_bytes_per_s": size / total if total else 0.0,
    }
    return CalcResult(name="allreduce", value=total, unit="seconds", breakdown=breakdown, working=working, source=ALLREDUCE_SOURCE)


def pipeline_bubble(stages: int, microbatches: int) -> CalcResult:
    """Fraction of a pipeline-parallel step spent idle: (p−1)/(m+p−1).

    With p stages and m micro-batches (GPipe or 1F1B), each device is busy for m forward+backward
    slots out of m+p−1 (Huang et al. 2019, §2.3). Narayanan et al. 2021 (§2.2.1) quote the same
    bubble relative to the ideal time, (p−1)/m, also in the breakdown. E.g. p=4, m=8: 3/11 = 27 %.
    """
    p = positive_int("stages", stages)
    m = positive_int("microbatches", microbatches)
    fraction = (p - 1) / (m + p - 1)
    working = [
        f"(p−1)/(m+p−1) = {p - 1}/{m + p - 1} = {fraction:.4g} of the step is bubble",
        f"relative to ideal compute time: (p−1)/m = {p - 1}/{m} = {(p - 1) / m:.4g}",
    ]
    breakdown: dict[str, float | int | str] = {
        "stages": p,
        "microbatches": m,
        "bubble_over_total": fraction,
        "bubble_over_ideal": (p - 1) / m,
        "efficiency": 1 - fraction,
    }
    return CalcResult(name="bubble", value=fraction, unit="fraction", breakdown=breakdown, working=working, source=BUBBLE_SOURCE)


def littles_law(rate: float, latency: float, concurrency_per_replica: int | None = None) -> CalcResult:
    """Requests in flight L = λ·W (Little 1961) for arrival rate λ (requests/s) and time in system W (s).

    E.g. 1,000 req/s at 0.2 s → 200 concurrent requests. With ``concurrency_per_replica`` (requests
    one replica can hold at that latency, e.g. its batch size) the breakdown gives the replicas needed.
    """
    arrival = positive_float("rate", rate, kind="rate")
    wait = positive_float("latency", latency, kind="seconds")
    in_flight = arrival * wait
    working = [f"L = λ·W = {arrival:,.4g} req/s × {format_seconds_detailed(wait)} = {in_flight:,.4g} requests in flight"]
    breakdown: dict[str, float | int | str] = {"rate": arrival, "latency": wait, "in_flight": in_flight}
    if concurrency_per_replica is not None:
        per_replica = positive_int("concurrency_per_replica", concurrency_per_replica)
        replicas = math.ceil(in_flight / per_replica - 1e-9)
        breakdown["concurrency_per_replica"] = per_replica
        breakdown["replicas_needed"] = replicas
        working.append(f"replicas ≥ {in_flight:,.4g} / {per_replica} = {replicas} (no headroom; add some for bursts)")
    return CalcResult(name="littles-law", value=in_flight, unit="count", breakdown=breakdown, working=working, source=LITTLE_SOURCE)


def _gpu_names() -> list[str]:
    from interviewer.tools.hardware import GPUS

    return list(GPUS)
