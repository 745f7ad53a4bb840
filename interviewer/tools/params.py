"""Exact parameter counts, by building the model on torch's ``meta`` device and summing ``numel``."""

from __future__ import annotations

from functools import lru_cache

from interviewer.tools.presets import PRESET_BY_CONFIG, PRESET_PARAMETER_GROUPS, ModelConfig, resolve_model_config
from interviewer.tools.result import CalcResult

PARAMS_SOURCE = (
    "Exact count of a torch re-implementation built on the meta device (GPT-2: Radford et al. 2019; "
    "BERT: Devlin et al. 2019; Llama: Touvron et al. 2023 with GQA, Ainslie et al. 2023, and SwiGLU, Shazeer 2020); "
    "cross-check 12·L·d² non-embedding parameters: Kaplan et al. 2020, 'Scaling Laws for Neural Language Models', §2.1 Table 1"
)


@lru_cache(maxsize=64)
def _groups(config: ModelConfig) -> tuple[tuple[str, int], ...]:
    preset = PRESET_BY_CONFIG.get(config)
    if preset is not None:
        return tuple(PRESET_PARAMETER_GROUPS[preset].items())  # exact constants: no torch import for a named model
    return _built_groups(config)


def _built_groups(config: ModelConfig) -> tuple[tuple[str, int], ...]:
    from interviewer.tools._models import build_on_meta, parameter_groups

    return tuple(parameter_groups(build_on_meta(config)).items())


def count_parameters(config: ModelConfig) -> dict[str, int]:
    """Exact parameter counts of ``config`` by group (token/position embeddings, blocks, norms, head, pooler)."""
    return dict(_groups(config))


def parameter_count(
    preset: str | None = None,
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
    """Exact number of parameters of a GPT-2-, BERT- or Llama-style model (or a named preset).

    The model is built as ``torch.nn`` modules on the ``meta`` device (shapes without storage, so a
    70B model costs no memory) and its parameters' ``numel`` are summed; tied embeddings are
    counted once. Defaults for custom dimensions: GPT ffn = 4h, 1,024 learned positions, tied LM
    head; BERT ffn = 4h, 512 positions, 2 token types, pooler, no MLM head; Llama ffn =
    256·⌈(8h/3)/256⌉, no position parameters (RoPE), untied LM head.

    Cross-check (Kaplan et al. 2020, Table 1): non-embedding parameters ≈ 12·L·d² (4d² attention
    + 8d² MLP per layer, ignoring biases and norms); the ratio is in the breakdown.
    """
    label, config = resolve_model_config(
        preset=preset, layers=layers, hidden=hidden, heads=heads, vocab=vocab, ffn=ffn,
        kv_heads=kv_heads, arch=arch, tied=tied, max_positions=max_positions,
    )
    groups = count_parameters(config)
    total = sum(groups.values())
    embedding_params = groups["token_embeddings"] + groups["position_embeddings"] + groups["lm_head"]
    non_embedding = total - embedding_params
    rule_of_thumb = 12 * config.layers * config.hidden**2
    per_layer = groups["blocks"] // config.layers

    working = [
        f"{label}: {config.arch}, L={config.layers}, h={config.hidden}, heads={config.heads}, kv_heads={config.kv_heads}, "
        f"ffn={config.ffn}, vocab={config.vocab:,}, {'tied' if config.tied else 'untied'} embeddings",
        f"built on the meta device and summed numel: {total:,} parameters",
        f"per layer {per_layer:,} × {config.layers} layers = {groups['blocks']:,}",
        f"embeddings: token {groups['token_embeddings']:,} + position/type {groups['position_embeddings']:,}"
        + (f" + untied LM head {groups['lm_head']:,}" if groups["lm_head"] else " (LM head tied to the token embedding)" if config.arch != "bert" else ""),
        f"non-embedding {non_embedding:,} vs 12·L·d² = {rule_of_thumb:,} (ratio {non_embedding / rule_of_thumb:.3f})",
    ]
    breakdown: dict[str, float | int | str] = {
        "model": label,
        "arch": config.arch,
        "total": total,
        **groups,
        "per_layer": per_layer,
        "non_embedding": non_embedding,
        "rule_of_thumb_12Ld2": rule_of_thumb,
        "non_embedding_over_12Ld2": non_embedding / rule_of_thumb,
    }
    source = PARAMS_SOURCE if config.source == "custom dimensions" else f"{PARAMS_SOURCE}; architecture: {config.source}"
    return CalcResult(name="params", value=float(total), unit="parameters", breakdown=breakdown, working=working, source=source)
