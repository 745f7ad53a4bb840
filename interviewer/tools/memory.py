"""GPU memory calculators: model states (ZeRO), activations (Korthikanti et al.), KV cache.

All results are bytes. 1 GB = 1e9 bytes, 1 GiB = 2**30 bytes.
"""

from __future__ import annotations

import math

from interviewer.tools.dtypes import BYTES_PER_ELEMENT, normalize_dtype
from interviewer.tools.errors import CalculatorInputError, choice, non_negative_int, positive_float, positive_int
from interviewer.tools.presets import get_preset
from interviewer.tools.result import CalcResult
from interviewer.units import format_bytes_detailed

ZERO_SOURCE = (
    "Rajbhandari et al. 2020, 'ZeRO: Memory Optimizations Toward Training Trillion Parameter Models', "
    "§3.1 (2Ψ+2Ψ+KΨ, K=12 for mixed-precision Adam) and Figure 1 (P_os, P_os+g, P_os+g+p); "
    "Ren et al. 2021, 'ZeRO-Offload', §3-4 for CPU offload"
)

_PRECISION_ALIASES = {
    "mixed": "mixed", "amp": "mixed", "fp16": "mixed", "fp16-mixed": "mixed", "bf16-mixed": "mixed",
    "mixed-fp16": "mixed", "mixed-bf16": "mixed", "fp32": "fp32", "float32": "fp32", "full": "fp32",
    "bf16": "bf16", "pure-bf16": "bf16", "bf16-pure": "bf16", "bfloat16": "bf16",
}
_OPTIMIZER_ALIASES = {
    "adam": "adam", "adamw": "adam", "sgd": "sgd", "sgd-momentum": "sgd", "momentum": "sgd",
    "adafactor": "adafactor", "adam8bit": "adam8bit", "adam-8bit": "adam8bit", "8bit-adam": "adam8bit",
    "adamw8bit": "adam8bit", "adamw-8bit": "adam8bit", "bnb-adam8bit": "adam8bit",
}


def _optimizer_state_bytes(precision: str, optimizer: str) -> tuple[float, str]:
    """Bytes per parameter of optimizer state K (including any fp32 master copy) and its recipe."""
    master = 4.0 if precision == "mixed" else 0.0
    master_text = "fp32 master weights 4 + " if master else ""
    state_width = 2.0 if precision == "bf16" else 4.0
    state_name = "bf16" if precision == "bf16" else "fp32"
    if optimizer == "adam":
        return master + 2 * state_width, f"{master_text}{state_name} momentum {state_width:g} + {state_name} variance {state_width:g}"
    if optimizer == "sgd":
        return master + state_width, f"{master_text}{state_name} momentum {state_width:g}"
    if optimizer == "adafactor":
        # Shazeer & Stern 2018: beta1 = 0 (no first moment) and a factored second moment of
        # (rows + cols) numbers per matrix, negligible next to rows × cols.
        return master, f"{master_text}factored second moment ≈ 0 per parameter (rows+cols per matrix)"
    # adam8bit, Dettmers et al. 2022: both moments stored in 8 bits with block-wise quantization;
    # the per-block fp32 absmax constants (1 per 2048 values) add 0.004 bytes/param, ignored.
    return master + 2.0, f"{master_text}8-bit momentum 1 + 8-bit variance 1"


def model_state_memory(
    params: float,
    gpus: int = 1,
    zero: int = 0,
    precision: str = "mixed",
    optimizer: str = "adam",
    offload: str = "none",
    fp32_grads: bool = False,
) -> CalcResult:
    """Model-state memory per GPU (weights + gradients + optimizer states) under ZeRO data parallelism.

    Source: Rajbhandari et al. 2020 (ZeRO), §3.1: mixed-precision Adam keeps fp16 weights (2Ψ),
    fp16 gradients (2Ψ) and K·Ψ of optimizer state with K = 12 (fp32 master weights, momentum,
    variance), 16Ψ in all. Figure 1, over N data-parallel GPUs:
    stage 0 (DDP) (2+2+K)Ψ; stage 1 (P_os) 2Ψ + 2Ψ + KΨ/N; stage 2 (P_os+g) 2Ψ + (2+K)Ψ/N;
    stage 3 (P_os+g+p) (2+2+K)Ψ/N. For Ψ = 7.5B, N = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.

    Precisions: ``mixed`` (fp16/bf16 weights and gradients, fp32 master copy inside K; with
    ``fp32_grads`` the gradients are 4 bytes, 18 bytes/param for Adam); ``fp32`` (4 + 4 + states,
    no master copy); ``bf16`` (pure bf16: weights, gradients and optimizer states all 2 bytes).
    Optimizers: Adam/AdamW (2 moments), SGD with momentum (1), Adafactor (Shazeer & Stern 2018:
    no momentum, factored second moment ≈ 0 per parameter), 8-bit Adam (Dettmers et al. 2022:
    1 byte per moment). ``offload="cpu"`` is ZeRO-Offload (Ren et al. 2021): gradients, optimizer
    states and the fp32 master copy live in CPU memory (partitioned over the N ranks, so it needs
    ZeRO stage ≥ 1); the GPU keeps only the 16-bit weights (partitioned too under stage 3).
    """
    params_value = positive_float("params", params)
    gpus_value = positive_int("gpus", gpus)
    zero_stage = non_negative_int("zero", zero)
    if zero_stage > 3:
        raise CalculatorInputError("zero", "must be 0, 1, 2 or 3")
    precision_key = _PRECISION_ALIASES.get(str(precision).strip().lower())
    if precision_key is None:
        raise CalculatorInputError("precision", f"must be one of mixed, fp32, bf16 (got {precision!r})")
    optimizer_key = _OPTIMIZER_ALIASES.get(str(optimizer).strip().lower())
    if optimizer_key is None:
        raise CalculatorInputError("optimizer", f"must be one of adam, sgd, adafactor, adam8bit (got {optimizer!r})")
    offload_key = choice("offload", offload, ("none", "cpu"))
    if offload_key == "cpu" and zero_stage == 0:
        raise CalculatorInputError("offload", "cpu offload needs --zero 1, 2 or 3 (ZeRO-Offload partitions what it offloads)")
    if fp32_grads and precision_key != "mixed":
        raise CalculatorInputError("fp32_grads", "only applies to mixed precision")

    weight_bytes = {"mixed": 2.0, "fp32": 4.0, "bf16": 2.0}[precision_key]
    grad_bytes = 4.0 if (precision_key == "fp32" or fp32_grads) else 2.0
    optimizer_bytes, optimizer_recipe = _optimizer_state_bytes(precision_key, optimizer_key)
    per_param_total = weight_bytes + grad_bytes + optimizer_bytes
    n = gpus_value

    weights_shard = n if zero_stage >= 3 else 1
    grads_shard = n if zero_stage >= 2 else 1
    optimizer_shard = n if zero_stage >= 1 else 1
    weights_gpu = weight_bytes * params_value / weights_shard
    grads_gpu = grad_bytes * params_value / grads_shard
    optimizer_gpu = optimizer_bytes * params_value / optimizer_shard
    cpu_bytes = 0.0
    if offload_key == "cpu":
        cpu_bytes = (grad_bytes + optimizer_bytes) * params_value / n
        grads_gpu = optimizer_gpu = 0.0
    per_gpu = weights_gpu + grads_gpu + optimizer_gpu

    weight_name = {"mixed": "16-bit", "fp32": "fp32", "bf16": "bf16"}[precision_key]
    grad_name = "fp32" if grad_bytes == 4 else weight_name
    stage_formula = {
        0: f"({weight_bytes:g}+{grad_bytes:g}+{optimizer_bytes:g})·Ψ",
        1: f"{weight_bytes:g}·Ψ + {grad_bytes:g}·Ψ + {optimizer_bytes:g}·Ψ/N",
        2: f"{weight_bytes:g}·Ψ + ({grad_bytes:g}+{optimizer_bytes:g})·Ψ/N",
        3: f"({weight_bytes:g}+{grad_bytes:g}+{optimizer_bytes:g})·Ψ/N",
    }[zero_stage]
    working = [
        f"bytes/param: weights {weight_bytes:g} ({weight_name}) + gradients {grad_bytes:g} ({grad_name}) + "
        f"optimizer K={optimizer_bytes:g} ({optimizer_recipe}) = {per_param_total:g}",
        f"unsharded: {per_param_total:g} B × {params_value:.4g} params = {format_bytes_detailed(per_param_total * params_value)}",
        f"ZeRO-{zero_stage} over N={n}: {stage_formula} = {format_bytes_detailed(weights_gpu)} weights + "
        f"{format_bytes_detailed(grads_gpu)} gradients + {format_bytes_detailed(optimizer_gpu)} optimizer = {format_bytes_detailed(per_gpu)} per GPU",
    ]
    if offload_key == "cpu":
        working.append(
            f"CPU offload: gradients + optimizer states ({grad_bytes:g}+{optimizer_bytes:g})·Ψ/N = "
            f"{format_bytes_detailed(cpu_bytes)} of CPU memory per rank; the GPU keeps only the {weight_name} weights"
        )
    breakdown: dict[str, float | int | str] = {
        "params": params_value,
        "gpus": n,
        "zero_stage": zero_stage,
        "precision": precision_key,
        "optimizer": optimizer_key,
        "offload": offload_key,
        "weight_bytes_per_param": weight_bytes,
        "grad_bytes_per_param": grad_bytes,
        "optimizer_bytes_per_param": optimizer_bytes,
        "bytes_per_param": per_param_total,
        "total_bytes_unsharded": per_param_total * params_value,
        "weights_bytes_per_gpu": weights_gpu,
        "grads_bytes_per_gpu": grads_gpu,
        "optimizer_bytes_per_gpu": optimizer_gpu,
        "cpu_bytes_per_gpu": cpu_bytes,
    }
    return CalcResult(name="model-states", value=per_gpu, unit="bytes", breakdown=breakdown, working=working, source=ZERO_SOURCE)


ACTIVATION_SOURCE = (
    "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer Models', "
    "§4.1 Eq. 1 (sbh(34 + 5as/h)), §4.2 and Table 2 (tensor/sequence parallel, selective and full recomputation), "
    "§4.2.3 (pipeline: the first stage holds p micro-batches of L/p layers), §5 (selective recomputation)"
)


def activation_memory(
    layers: int,
    hidden: int,
    heads: int,
    seq: int,
    micro_batch: int,
    tp: int = 1,
    sp: bool = False,
    recompute: str = "none",
    pp: int = 1,
) -> CalcResult:
    """Activation memory per GPU for all transformer layers, 16-bit activations and 1-byte dropout masks.

    Source: Korthikanti et al. 2022, Table 2 (bytes per layer; s = sequence, b = micro-batch,
    h = hidden, a = heads, t = tensor-parallel size):
      no parallelism                       sbh(34 + 5as/h)            (Eq. 1)
      tensor parallel                      sbh(10 + 24/t + 5as/(ht))
      tensor + sequence parallel           sbh/t · (34 + 5as/h)
      tensor parallel + selective recomp.  sbh(10 + 24/t)
      tensor + sequence + selective        34·sbh/t
      full recomputation                   2sbh (only the layer input, §5; the paper notes 2sbh/t would
                                           need an extra all-gather per layer and does not use it)
    The 5as/h term is the attention score/softmax/dropout tensors (quadratic in s) that selective
    recomputation drops. With pipeline parallelism p (1F1B, §4.2.3), the first stage holds L/p layers for
    p in-flight micro-batches, so the per-GPU total stays L × per-layer (Eq. 5 for TP+SP). The small
    extra terms of §4.3 (embedding dropout, final LayerNorm, output layer, ≈0.01 % for the 22B model)
    and the interleaved-schedule factor 1 + (p−1)/(pm) are not included.
    """
    layers_value = positive_int("layers", layers)
    hidden_value = positive_int("hidden", hidden)
    heads_value = positive_int("heads", heads)
    seq_value = positive_int("seq", seq)
    batch_value = positive_int("micro_batch", micro_batch)
    t = positive_int("tp", tp)
    p = positive_int("pp", pp)
    recompute_key = choice("recompute", recompute, ("none", "selective", "full"))
    if hidden_value % heads_value:
        raise CalculatorInputError("heads", f"must divide --hidden ({hidden_value} is not a multiple of {heads_value})")
    if heads_value % t:
        raise CalculatorInputError("tp", f"must divide --heads ({heads_value} heads over {t} GPUs)")
    s, b, h, a = seq_value, batch_value, hidden_value, heads_value
    sbh = s * b * h
    attention_term = 5 * a * s / h  # 5as/h, Korthikanti Eq. 1

    if recompute_key == "full":
        # Korthikanti §5: only each layer's input, 2sbh; keeping a 1/t shard per rank (2sbh/t) would
        # need an extra all-gather per layer, which the paper does not consider (Table 2: 2sbh).
        formula = "2sbh"
        linear_part, attention_part = 2.0, 0.0
    elif sp:
        linear_part = 34 / t
        attention_part = 0.0 if recompute_key == "selective" else attention_term / t
        formula = "34·sbh/t" if recompute_key == "selective" else "sbh/t·(34 + 5as/h)"
    else:
        linear_part = 10 + 24 / t
        attention_part = 0.0 if recompute_key == "selective" else attention_term / t
        if t == 1:
            formula = "34·sbh" if recompute_key == "selective" else "sbh(34 + 5as/h)"
        else:
            formula = "sbh(10 + 24/t)" if recompute_key == "selective" else "sbh(10 + 24/t + 5as/(ht))"
    per_layer = sbh * (linear_part + attention_part)
    layers_per_stage = math.ceil(layers_value / p)
    in_flight = p
    total = per_layer * layers_per_stage * in_flight

    working = [
        f"s={s}, b={b}, h={h}, a={a}, t={t}, sequence parallel={'yes' if sp else 'no'}, recompute={recompute_key}",
        f"per layer: {formula} = sbh × ({linear_part:.4g} + {attention_part:.4g}) = {sbh:,} × {linear_part + attention_part:.4g} = {format_bytes_detailed(per_layer)}",
        f"5as/h = {attention_term:.4g} (the quadratic attention part, {attention_term / (34 + attention_term):.0%} of sbh(34 + 5as/h))",
    ]
    if p > 1:
        working.append(f"pipeline p={p}: first stage holds {layers_per_stage} layers × {in_flight} in-flight micro-batches (1F1B)")
    working.append(f"total: {format_bytes_detailed(per_layer)} × {layers_per_stage * in_flight} = {format_bytes_detailed(total)} per GPU")
    breakdown: dict[str, float | int | str] = {
        "per_layer_bytes": per_layer,
        "layers": layers_value,
        "layers_per_stage": layers_per_stage,
        "in_flight_microbatches": in_flight,
        "sbh": sbh,
        "linear_coefficient": linear_part,
        "attention_coefficient": attention_part,
        "attention_term_5as_over_h": attention_term,
        "formula": formula,
        "tp": t,
        "pp": p,
        "sequence_parallel": "yes" if sp else "no",
        "recompute": recompute_key,
    }
    return CalcResult(name="activations", value=total, unit="bytes", breakdown=breakdown, working=working, source=ACTIVATION_SOURCE)


KV_SOURCE = (
    "KV cache = 2 (K and V) × layers × kv_heads × head_dim × seq × batch × bytes/element "
    "(Pope et al. 2022, 'Efficiently Scaling Transformer Inference', §3.1; MQA: Shazeer 2019; "
    "GQA: Ainslie et al. 2023); Llama-2-7B at 4,096 tokens in fp16 = 2 GiB"
)


def kv_cache_size(
    layers: int | None = None,
    kv_heads: int | None = None,
    head_dim: int | None = None,
    seq: int | None = None,
    batch: int = 1,
    dtype: str = "fp16",
    preset: str | None = None,
) -> CalcResult:
    """Bytes of KV cache for ``batch`` sequences of ``seq`` tokens.

    Source: each layer caches one key and one value vector per KV head per token (Pope et al. 2022,
    §3.1): 2·L·n_kv·d_head·s·b·bytes. MHA has n_kv = n_heads, MQA (Shazeer 2019) n_kv = 1, GQA
    (Ainslie et al. 2023) 1 < n_kv < n_heads (Llama-2-70B: 8 of 64). A ``preset`` supplies layers,
    KV heads and head dim; explicit arguments override it.
    """
    preset_name = None
    if preset is not None:
        preset_name, config = get_preset(preset)
        if config.arch == "bert":
            raise CalculatorInputError("preset", f"{preset_name} is an encoder (bidirectional, no autoregressive decoding): it has no KV cache")
        layers = config.layers if layers is None else layers
        kv_heads = config.kv_heads if kv_heads is None else kv_heads
        head_dim = config.head_dim if head_dim is None else head_dim
    layers_value = positive_int("layers", layers)
    kv_heads_value = positive_int("kv_heads", kv_heads)
    head_dim_value = positive_int("head_dim", head_dim)
    seq_value = positive_int("seq", seq)
    batch_value = positive_int("batch", batch)
    dtype_key = normalize_dtype(dtype)
    element_bytes = BYTES_PER_ELEMENT[dtype_key]
    per_token = 2 * layers_value * kv_heads_value * head_dim_value * element_bytes
    total = per_token * seq_value * batch_value
    working = [
        f"per token: 2 × {layers_value} layers × {kv_heads_value} KV heads × {head_dim_value} head dim × {element_bytes:g} B ({dtype_key}) "
        f"= {per_token:,.0f} B ({per_token / 2**20:.4g} MiB)",
        f"× {seq_value:,} tokens × {batch_value} sequences = {format_bytes_detailed(total)}",
    ]
    breakdown: dict[str, float | int | str] = {
        "bytes_per_token": per_token,
        "bytes_per_sequence": per_token * seq_value,
        "layers": layers_value,
        "kv_heads": kv_heads_value,
        "head_dim": head_dim_value,
        "seq": seq_value,
        "batch": batch_value,
        "dtype": dtype_key,
        "bytes_per_element": element_bytes,
    }
    if preset_name:
        breakdown["preset"] = preset_name
    return CalcResult(name="kv-cache", value=total, unit="bytes", breakdown=breakdown, working=working, source=KV_SOURCE)
