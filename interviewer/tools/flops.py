"""Compute calculators: counted forward FLOPs, 6·N·D training compute, Chinchilla sizing, time to train."""

from __future__ import annotations

import math
from functools import lru_cache

from interviewer.tools.dtypes import normalize_dtype
from interviewer.tools.errors import CalculatorInputError, fraction_in_unit_interval, positive_float, positive_int
from interviewer.tools.hardware import get_gpu, peak_flops_for
from interviewer.tools.presets import ModelConfig, resolve_model_config
from interviewer.tools.result import CalcResult
from interviewer.units import format_seconds_detailed

FORWARD_SOURCE = (
    "Counted with torch.utils.flop_counter.FlopCounterMode (2 FLOPs per multiply-add, matmuls only) on a meta-device "
    "forward pass; compared with 2·N FLOPs per token (Kaplan et al. 2020, §2.1 Table 1) plus attention's QKᵀ and AV "
    "matmuls, 4·s²·d per layer per sequence (2·s²·d each); the causal factor (s+1)/(2s) is applied explicitly"
)
TRAIN_SOURCE = (
    "C ≈ 6·N·D: 2·N·D forward + 4·N·D backward (Kaplan et al. 2020, 'Scaling Laws for Neural Language Models', §2.1); "
    "GPT-3 175B on 300B tokens = 3.14e23 FLOPs (Brown et al. 2020, Table D.1)"
)
CHINCHILLA_SOURCE = (
    "Hoffmann et al. 2022, 'Training Compute-Optimal Large Language Models' (Chinchilla): about 20 tokens per parameter "
    "(Table 3; Chinchilla 70B on 1.4T tokens), with C = 6·N·D, so N_opt = sqrt(C/120), D_opt = 20·N_opt"
)
TIME_SOURCE = (
    "time = C / (GPUs × peak FLOP/s × MFU) (Chowdhery et al. 2022, PaLM, Appendix B defines MFU; "
    "Narayanan et al. 2021, 'Efficient Large-Scale Language Model Training on GPU Clusters', §5.1 Eq. 4); "
    "peak is the dense datasheet figure"
)


def _causal_fraction(seq: int) -> float:
    """Fraction of the s×s score matrix a causal mask keeps: s(s+1)/2 of s² entries."""
    return (seq + 1) / (2 * seq)


@lru_cache(maxsize=32)
def _counted_forward(config: ModelConfig, seq: int, batch: int) -> tuple[int, int, int, int]:
    """(block linear FLOPs, LM-head/pooler FLOPs, dense attention-matmul FLOPs, total) of one meta forward."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from interviewer.tools._models import build_on_meta

    model = build_on_meta(config)
    input_ids = torch.zeros(batch, seq, dtype=torch.long, device="meta")
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(input_ids)
    by_module = counter.get_flop_counts()
    overall = {str(op).split(".")[-1]: count for op, count in by_module["Global"].items()}
    unexpected = set(overall) - {"mm", "addmm", "bmm", "baddbmm"}
    if unexpected:  # pragma: no cover - the modules above use only linear layers and matmuls
        raise AssertionError(f"unexpected counted ops {sorted(unexpected)}")
    linear_all = overall.get("mm", 0) + overall.get("addmm", 0)
    attention = overall.get("bmm", 0) + overall.get("baddbmm", 0)
    head = sum(
        sum(ops.values()) for name, ops in by_module.items() if name.endswith(".lm_head") or name.endswith(".pooler")
    )
    return linear_all - head, head, attention, linear_all + attention


MAX_COUNTED_ELEMENTS = 2**60
"""Largest activation (attention scores: batch × heads × seq²) the meta device can size: its
byte count must stay inside int64. Found by bench/fuzz_claims.py (seq = 4e8 overflowed)."""


def forward_flops(
    preset: str | None = None,
    seq: int | None = None,
    batch: int = 1,
    causal: bool | None = None,
    layers: int | None = None,
    hidden: int | None = None,
    heads: int | None = None,
    vocab: int | None = None,
    ffn: int | None = None,
    kv_heads: int | None = None,
    arch: str | None = None,
    tied: bool | None = None,
    max_positions: int | None = None,
) -> CalcResult:
    """Forward-pass FLOPs for ``batch`` sequences of ``seq`` tokens, counted, not estimated.

    The model (see ``interviewer.tools._models``) runs a forward pass on ``meta`` tensors under
    ``torch.utils.flop_counter.FlopCounterMode``: shapes propagate, nothing is allocated, so a
    70B model takes seconds and no memory. The counter counts matmuls only (2 FLOPs per
    multiply-add); norms, softmax, activations and RoPE are elementwise and not counted.

    Attention's QKᵀ and AV are counted over the full s×s matrix (the counter knows nothing of
    masks). For decoder models (``causal`` defaults to True for GPT and Llama, False for BERT),
    those FLOPs are multiplied by (s+1)/(2s), the fraction of the matrix a causal mask keeps, which
    is what a causal kernel that skips masked blocks approaches. Dense counts are in the breakdown.

    Compared with the estimate 2·N·tokens (Kaplan et al. 2020, §2.1) + 4·s²·d·L per sequence
    (QKᵀ and AV, 2·s²·d each; halved for causal).
    """
    label, config = resolve_model_config(
        preset=preset, layers=layers, hidden=hidden, heads=heads, vocab=vocab, ffn=ffn,
        kv_heads=kv_heads, arch=arch, tied=tied, max_positions=max_positions,
    )
    seq_value = positive_int("seq", seq)
    batch_value = positive_int("batch", batch)
    if config.arch in ("gpt", "bert") and seq_value > config.max_positions:
        raise CalculatorInputError("seq", f"exceeds {label}'s {config.max_positions} learned positions")
    is_causal = (config.arch != "bert") if causal is None else bool(causal)
    widest = max(config.heads * seq_value, config.vocab, config.ffn, config.hidden)
    if batch_value * seq_value * widest > MAX_COUNTED_ELEMENTS:
        raise CalculatorInputError(
            "seq", f"batch × seq is too large to count: one activation would exceed 2^{MAX_COUNTED_ELEMENTS.bit_length() - 1} elements"
        )

    block_linear, head, attention_dense, _ = _counted_forward(config, seq_value, batch_value)
    factor = _causal_fraction(seq_value) if is_causal else 1.0
    attention = attention_dense * factor
    total = block_linear + head + attention
    tokens = seq_value * batch_value

    from interviewer.tools.params import count_parameters

    groups = count_parameters(config)
    total_params = sum(groups.values())
    # Parameters that take part in a matmul for every token: the blocks, plus the LM head (the tied
    # embedding matrix, for GPT-2). Embedding lookups cost no FLOPs; BERT's pooler sees one token.
    per_token_matmul_params = groups["blocks"] + (config.vocab * config.hidden if config.arch != "bert" else 0)
    estimate_linear = 2 * per_token_matmul_params * tokens + 2 * groups["pooler"] * batch_value
    estimate_naive = 2 * total_params * tokens
    estimate_attention = 4 * batch_value * seq_value**2 * config.hidden * config.layers * factor
    estimate = estimate_linear + estimate_attention
    matmul_note = "blocks; the pooler sees only [CLS]" if config.arch == "bert" else "blocks + LM head; embedding lookups cost no FLOPs"

    working = [
        f"{label}, batch {batch_value} × seq {seq_value:,} = {tokens:,} tokens, forward on the meta device under FlopCounterMode",
        f"linear layers in blocks: {block_linear:.4g} FLOPs; LM head/pooler: {head:.4g} FLOPs",
        f"attention QKᵀ + AV counted dense: {attention_dense:.4g} FLOPs"
        + (f" × causal factor (s+1)/(2s) = {factor:.4f} → {attention:.4g}" if is_causal else " (bidirectional, no causal factor)"),
        f"total counted: {total:.4g} FLOPs ({total / tokens:.4g} per token)",
        f"estimate 2·N_matmul·tokens + 4·s²·d·L·b{'·(s+1)/(2s)' if is_causal else ''} = {estimate_linear:.4g} + {estimate_attention:.4g} = "
        f"{estimate:.4g} (counted/estimate = {total / estimate:.4f}; N_matmul = {per_token_matmul_params:,}: {matmul_note})",
        f"rule of thumb 2·N·tokens with all N = {total_params:,}: {estimate_naive:.4g} (+ attention = {estimate_naive + estimate_attention:.4g})",
    ]
    breakdown: dict[str, float | int | str] = {
        "model": label,
        "seq": seq_value,
        "batch": batch_value,
        "tokens": tokens,
        "causal": "yes" if is_causal else "no",
        "linear_flops": block_linear,
        "lm_head_flops": head,
        "attention_flops_dense": attention_dense,
        "causal_factor": factor,
        "attention_flops": attention,
        "attention_share": attention / total,
        "flops_per_token": total / tokens,
        "params": total_params,
        "matmul_params": per_token_matmul_params,
        "estimate_2N_matmul_tokens": estimate_linear,
        "estimate_2N_tokens": estimate_naive,
        "estimate_attention_4s2dL": estimate_attention,
        "estimate_total": estimate,
        "counted_over_estimate": total / estimate,
    }
    return CalcResult(name="forward-flops", value=float(total), unit="FLOPs", breakdown=breakdown, working=working, source=FORWARD_SOURCE)


def training_flops(params: float, tokens: float) -> CalcResult:
    """Training compute C ≈ 6·N·D FLOPs (Kaplan et al. 2020, §2.1).

    Per token, the forward pass costs 2N (one multiply-add per parameter) and the backward pass
    4N (gradients with respect to activations and to weights), ignoring the attention term.
    GPT-3 (N = 175B, D = 300B tokens) comes to 3.14e23 FLOPs (Brown et al. 2020, Table D.1).
    Activation recomputation adds another forward: 8·N·D of hardware FLOPs (Narayanan et al. 2021, Eq. 4).
    """
    n = positive_float("params", params)
    d = positive_float("tokens", tokens)
    total = 6 * n * d
    working = [
        f"forward 2·N·D = 2 × {n:.4g} × {d:.4g} = {2 * n * d:.4g}",
        f"backward 4·N·D = {4 * n * d:.4g}",
        f"total 6·N·D = {total:.4g} FLOPs ({total / (1e15 * 86400):.4g} PF-days)",
    ]
    breakdown: dict[str, float | int | str] = {
        "params": n,
        "tokens": d,
        "forward_flops": 2 * n * d,
        "backward_flops": 4 * n * d,
        "pf_days": total / (1e15 * 86400),
        "with_recompute_8ND": 8 * n * d,
    }
    return CalcResult(name="train-flops", value=total, unit="FLOPs", breakdown=breakdown, working=working, source=TRAIN_SOURCE)


def compute_optimal(compute: float | None = None, params: float | None = None, tokens_per_param: float = 20.0) -> CalcResult:
    """Compute-optimal training tokens (Chinchilla): D ≈ 20·N, with C = 6·N·D = 120·N².

    Give either ``compute`` (FLOPs; then N = sqrt(C/120)) or ``params`` (then D = 20·N, C = 6·N·D).
    Source: Hoffmann et al. 2022, Table 3 and §3 (Chinchilla: 70B parameters on 1.4T tokens,
    the same budget as Gopher, ≈5.76e23 FLOPs). The 20:1 ratio is the paper's rule of thumb;
    its fitted approaches give slightly different ratios at each scale.
    """
    if (compute is None) == (params is None):
        raise CalculatorInputError("compute" if compute is None else "params", "give exactly one of --compute or --params")
    ratio = positive_float("tokens_per_param", tokens_per_param)
    if params is not None:
        n = positive_float("params", params)
        d = ratio * n
        c = 6 * n * d
        working = [f"D = {ratio:g} × N = {ratio:g} × {n:.4g} = {d:.4g} tokens", f"C = 6·N·D = {c:.4g} FLOPs"]
    else:
        c = positive_float("compute", compute, kind="flops")
        n = math.sqrt(c / (6 * ratio))
        d = ratio * n
        working = [
            f"C = 6·N·D and D = {ratio:g}·N ⇒ C = {6 * ratio:g}·N²",
            f"N = sqrt({c:.4g} / {6 * ratio:g}) = {n:.4g} parameters",
            f"D = {ratio:g} × N = {d:.4g} tokens",
        ]
    breakdown: dict[str, float | int | str] = {"params": n, "tokens": d, "compute": c, "tokens_per_param": ratio}
    return CalcResult(name="chinchilla", value=d, unit="tokens", breakdown=breakdown, working=working, source=CHINCHILLA_SOURCE)


def time_to_train(
    flops: float | None = None,
    gpus: int = 1,
    gpu: str | None = None,
    peak_flops: float | None = None,
    dtype: str = "bf16",
    mfu: float = 0.4,
    params: float | None = None,
    tokens: float | None = None,
) -> CalcResult:
    """Wall-clock training time: C / (GPUs × peak FLOP/s × MFU), in seconds.

    ``flops`` is the training compute (or give ``params`` and ``tokens`` for 6·N·D); the peak
    comes from ``gpu`` (dense datasheet figure for ``dtype``) or ``peak_flops``. MFU (model FLOPs
    utilization, Chowdhery et al. 2022, Appendix B) is the achieved fraction of peak, typically
    0.3-0.6. Example: 1.2e22 FLOPs on 8 A100s (312 TFLOP/s) at 40 % MFU ≈ 1.2e7 s ≈ 139 days.
    Narayanan et al. 2021 (§5.1, Eq. 4) estimate GPT-3 175B on 300B tokens with 1,024 A100s at
    140 TFLOP/s achieved, counting 8·N·D with recomputation, as about 34 days.
    """
    if flops is None:
        if params is None or tokens is None:
            raise CalculatorInputError("flops", "is required (or give --params and --tokens for 6·N·D)")
        compute = 6 * positive_float("params", params) * positive_float("tokens", tokens)
        compute_text = f"C = 6·N·D = {compute:.4g} FLOPs"
    else:
        compute = positive_float("flops", flops, kind="flops")
        compute_text = f"C = {compute:.4g} FLOPs"
    gpus_value = positive_int("gpus", gpus)
    utilization = fraction_in_unit_interval("mfu", mfu)
    note = ""
    if peak_flops is not None:
        peak = positive_float("peak_flops", peak_flops, kind="flop_rate")
        peak_text = f"peak {peak / 1e12:.4g} TFLOP/s (given)"
        gpu_name = "custom"
        dtype_used = normalize_dtype(dtype)
    elif gpu is not None:
        spec = get_gpu(gpu)
        dtype_used = normalize_dtype(dtype)
        peak, dtype_used, note = peak_flops_for(spec, dtype_used)
        gpu_name = spec.name
        peak_text = f"{spec.name} dense {dtype_used} peak {peak / 1e12:.4g} TFLOP/s"
    else:
        raise CalculatorInputError("gpu", "is required (or give --peak-flops)")
    throughput = gpus_value * peak * utilization
    seconds = compute / throughput
    working = [
        compute_text,
        f"{gpus_value} GPUs × {peak_text} × MFU {utilization:.0%} = {throughput:.4g} FLOP/s",
        f"time = {compute:.4g} / {throughput:.4g} = {seconds:.4g} s = {format_seconds_detailed(seconds)}",
    ]
    if note:
        working.append(note)
    breakdown: dict[str, float | int | str] = {
        "flops": compute,
        "gpus": gpus_value,
        "gpu": gpu_name,
        "dtype": dtype_used,
        "peak_flops_per_gpu": peak,
        "mfu": utilization,
        "achieved_flops_per_s": throughput,
        "days": seconds / 86400,
        "gpu_hours": seconds * gpus_value / 3600,
    }
    return CalcResult(name="time-to-train", value=seconds, unit="seconds", breakdown=breakdown, working=working, source=TIME_SOURCE)
