"""Architectures of well-known models, as published in their papers and released configs.

Each preset is exactly the released checkpoint's shape, so ``parameter_count`` reproduces the
published parameter counts to the last digit (GPT-2: Radford et al. 2019 and the released
``config.json``; BERT: Devlin et al. 2019 Table/§3 with the released vocabularies; Llama 2:
Touvron et al. 2023b Table 1 + ``params.json``; Llama 3: Meta 2024 model card + ``params.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from interviewer.tools.errors import CalculatorInputError

Arch = Literal["gpt", "bert", "llama"]


@dataclass(frozen=True)
class ModelConfig:
    arch: Arch
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    max_positions: int
    """Learned position embeddings for GPT-2/BERT; the trained context length for Llama (RoPE, no parameters)."""
    tied: bool
    """Whether the LM head shares the token-embedding matrix (BERT here: no LM head, the pooler is counted)."""
    source: str
    type_vocab: int = 0
    """BERT's segment (token-type) embeddings; 0 for the others."""
    norm_eps: float = 1e-5


def _gpt2(layers: int, hidden: int, heads: int, source: str) -> ModelConfig:
    return ModelConfig(
        arch="gpt", layers=layers, hidden=hidden, heads=heads, kv_heads=heads, head_dim=hidden // heads,
        ffn=4 * hidden, vocab=50257, max_positions=1024, tied=True, source=source,
    )


def _bert(layers: int, hidden: int, heads: int, source: str) -> ModelConfig:
    return ModelConfig(
        arch="bert", layers=layers, hidden=hidden, heads=heads, kv_heads=heads, head_dim=hidden // heads,
        ffn=4 * hidden, vocab=30522, max_positions=512, tied=True, source=source, type_vocab=2, norm_eps=1e-12,
    )


def _llama(layers: int, hidden: int, heads: int, kv_heads: int, ffn: int, vocab: int, context: int, source: str) -> ModelConfig:
    return ModelConfig(
        arch="llama", layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=hidden // heads,
        ffn=ffn, vocab=vocab, max_positions=context, tied=False, source=source,
    )


_GPT2 = "Radford et al. 2019, 'Language Models are Unsupervised Multitask Learners', Table 2; openai-community released config"
_BERT = "Devlin et al. 2019, 'BERT', §3 (BASE L=12 H=768 A=12; LARGE L=24 H=1024 A=16), uncased WordPiece vocab 30,522"
_LLAMA2 = "Touvron et al. 2023, 'Llama 2', Table 1 and §2.2 (GQA, 8 KV heads, for 70B); dims as LLaMA 1 (Touvron et al. 2023a, Table 2); meta-llama params.json"
_LLAMA3 = "Meta 2024, 'The Llama 3 Herd of Models' (Dubey et al.) Table 3; meta-llama params.json (vocab 128,256, GQA 8 KV heads)"

MODEL_PRESETS: dict[str, ModelConfig] = {
    "gpt2": _gpt2(12, 768, 12, _GPT2),
    "gpt2-medium": _gpt2(24, 1024, 16, _GPT2),
    "gpt2-large": _gpt2(36, 1280, 20, _GPT2),
    "gpt2-xl": _gpt2(48, 1600, 25, _GPT2),
    "bert-base": _bert(12, 768, 12, _BERT),
    "bert-large": _bert(24, 1024, 16, _BERT),
    "llama-2-7b": _llama(32, 4096, 32, 32, 11008, 32000, 4096, _LLAMA2),
    "llama-2-13b": _llama(40, 5120, 40, 40, 13824, 32000, 4096, _LLAMA2),
    "llama-2-70b": _llama(80, 8192, 64, 8, 28672, 32000, 4096, _LLAMA2),
    "llama-3-8b": _llama(32, 4096, 32, 8, 14336, 128256, 8192, _LLAMA3),
    "llama-3-70b": _llama(80, 8192, 64, 8, 28672, 128256, 8192, _LLAMA3),
}

PRESET_PARAMETER_GROUPS: dict[str, dict[str, int]] = {
    # Exact counts by group, as summing numel over the meta-device build gives them (the agreed
    # totals: gpt2 124,439,808 ... llama-3-70b 70,553,706,496). Constants so that counting a
    # preset needs no torch import; tests/core/test_preset_parameter_counts.py rebuilds each one.
    "gpt2": {"token_embeddings": 38_597_376, "position_embeddings": 786_432, "embedding_norm": 0, "blocks": 85_054_464, "final_norm": 1_536, "lm_head": 0, "pooler": 0},
    "gpt2-medium": {"token_embeddings": 51_463_168, "position_embeddings": 1_048_576, "embedding_norm": 0, "blocks": 302_309_376, "final_norm": 2_048, "lm_head": 0, "pooler": 0},
    "gpt2-large": {"token_embeddings": 64_328_960, "position_embeddings": 1_310_720, "embedding_norm": 0, "blocks": 708_387_840, "final_norm": 2_560, "lm_head": 0, "pooler": 0},
    "gpt2-xl": {"token_embeddings": 80_411_200, "position_embeddings": 1_638_400, "embedding_norm": 0, "blocks": 1_475_558_400, "final_norm": 3_200, "lm_head": 0, "pooler": 0},
    "bert-base": {"token_embeddings": 23_440_896, "position_embeddings": 394_752, "embedding_norm": 1_536, "blocks": 85_054_464, "final_norm": 0, "lm_head": 0, "pooler": 590_592},
    "bert-large": {"token_embeddings": 31_254_528, "position_embeddings": 526_336, "embedding_norm": 2_048, "blocks": 302_309_376, "final_norm": 0, "lm_head": 0, "pooler": 1_049_600},
    "llama-2-7b": {"token_embeddings": 131_072_000, "position_embeddings": 0, "embedding_norm": 0, "blocks": 6_476_267_520, "final_norm": 4_096, "lm_head": 131_072_000, "pooler": 0},
    "llama-2-13b": {"token_embeddings": 163_840_000, "position_embeddings": 0, "embedding_norm": 0, "blocks": 12_688_179_200, "final_norm": 5_120, "lm_head": 163_840_000, "pooler": 0},
    "llama-2-70b": {"token_embeddings": 262_144_000, "position_embeddings": 0, "embedding_norm": 0, "blocks": 68_452_352_000, "final_norm": 8_192, "lm_head": 262_144_000, "pooler": 0},
    "llama-3-8b": {"token_embeddings": 525_336_576, "position_embeddings": 0, "embedding_norm": 0, "blocks": 6_979_584_000, "final_norm": 4_096, "lm_head": 525_336_576, "pooler": 0},
    "llama-3-70b": {"token_embeddings": 1_050_673_152, "position_embeddings": 0, "embedding_norm": 0, "blocks": 68_452_352_000, "final_norm": 8_192, "lm_head": 1_050_673_152, "pooler": 0},
}
PRESET_BY_CONFIG: dict[ModelConfig, str] = {config: name for name, config in MODEL_PRESETS.items()}

PRESET_ALIASES: dict[str, str] = {
    "gpt2small": "gpt2", "gpt2124m": "gpt2", "gpt2355m": "gpt2-medium", "gpt2774m": "gpt2-large",
    "gpt215b": "gpt2-xl", "gpt21558m": "gpt2-xl",
    "bertbaseuncased": "bert-base", "bertlargeuncased": "bert-large",
    "llama27bhf": "llama-2-7b", "llama213bhf": "llama-2-13b", "llama270bhf": "llama-2-70b",
    "llama38b": "llama-3-8b", "llama370b": "llama-3-70b", "metallama38b": "llama-3-8b", "metallama370b": "llama-3-70b",
}


def _key(text: str) -> str:
    text = text.lower().strip()
    for prefix in ("meta-llama/", "openai-community/", "google-bert/"):
        text = text.removeprefix(prefix)
    return "".join(ch for ch in text if ch.isalnum())


_INDEX = {_key(name): name for name in MODEL_PRESETS} | PRESET_ALIASES


def get_preset(name: str, field: str = "preset") -> tuple[str, ModelConfig]:
    """(canonical name, config) for a preset name or alias such as ``meta-llama/Llama-2-7b-hf``."""
    if not isinstance(name, str) or not name.strip():
        raise CalculatorInputError(field, f"must name a preset ({', '.join(MODEL_PRESETS)})")
    canonical = _INDEX.get(_key(name))
    if canonical is None:
        raise CalculatorInputError(field, f"unknown preset {name!r}; known: {', '.join(MODEL_PRESETS)}")
    return canonical, MODEL_PRESETS[canonical]


def llama_default_ffn(hidden: int, multiple_of: int = 256) -> int:
    """Llama's SwiGLU width when none is given: 2/3 of 4h, rounded up to a multiple of 256.

    Source: Touvron et al. 2023a (LLaMA) §2.2 ("2/3·4d instead of 4d as in PaLM") and the
    reference ``FeedForward`` code (``multiple_of=256``); gives 11,008 for h=4,096 and
    13,824 for h=5,120. Llama-2-70B and Llama 3 set ``ffn_dim_multiplier``; pass ``ffn`` for those.
    """
    width = int(2 * 4 * hidden / 3)
    return multiple_of * ((width + multiple_of - 1) // multiple_of)


def resolve_model_config(
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
) -> tuple[str, ModelConfig]:
    """A (label, config) from a preset, explicit dimensions, or a preset with some dimensions overridden."""
    from dataclasses import replace

    from interviewer.tools.errors import choice, positive_int

    if preset is not None:
        name, config = get_preset(preset)
        if arch is not None and choice("arch", arch, ("gpt", "bert", "llama")) != config.arch:
            raise CalculatorInputError("arch", f"{name} is a {config.arch} model; drop --arch or --preset")
        overrides: dict[str, object] = {}
        for field_name, value in (("layers", layers), ("hidden", hidden), ("heads", heads), ("vocab", vocab), ("ffn", ffn), ("kv_heads", kv_heads), ("max_positions", max_positions)):
            if value is not None:
                overrides[field_name] = positive_int(field_name, value)
        if tied is not None:
            overrides["tied"] = bool(tied)
        if overrides:
            name = f"{name} (modified: {', '.join(f'{k}={v}' for k, v in overrides.items())})"
            if "heads" in overrides and "kv_heads" not in overrides and config.kv_heads == config.heads:
                overrides["kv_heads"] = overrides["heads"]
            config = replace(config, **overrides)
            config = replace(config, head_dim=config.hidden // config.heads)
            _check_shape(config)
        return name, config

    arch_key = choice("arch", arch if arch is not None else "gpt", ("gpt", "bert", "llama"))
    missing = [flag for flag, value in (("layers", layers), ("hidden", hidden), ("heads", heads), ("vocab", vocab)) if value is None]
    if missing:
        raise CalculatorInputError(missing[0], "is required (or give --preset NAME)")
    layers_value = positive_int("layers", layers)
    hidden_value = positive_int("hidden", hidden)
    heads_value = positive_int("heads", heads)
    vocab_value = positive_int("vocab", vocab)
    kv_value = positive_int("kv_heads", kv_heads) if kv_heads is not None else heads_value
    if arch_key == "llama":
        ffn_value = positive_int("ffn", ffn) if ffn is not None else llama_default_ffn(hidden_value)
    else:
        ffn_value = positive_int("ffn", ffn) if ffn is not None else 4 * hidden_value
    default_positions = {"gpt": 1024, "bert": 512, "llama": 4096}[arch_key]
    positions = positive_int("max_positions", max_positions) if max_positions is not None else default_positions
    tied_value = bool(tied) if tied is not None else arch_key != "llama"
    config = ModelConfig(
        arch=arch_key,  # type: ignore[arg-type]
        layers=layers_value,
        hidden=hidden_value,
        heads=heads_value,
        kv_heads=kv_value,
        head_dim=hidden_value // heads_value,
        ffn=ffn_value,
        vocab=vocab_value,
        max_positions=positions,
        tied=tied_value,
        source="custom dimensions",
        type_vocab=2 if arch_key == "bert" else 0,
        norm_eps=1e-12 if arch_key == "bert" else 1e-5,
    )
    _check_shape(config)
    label = f"custom {arch_key} (L={layers_value}, h={hidden_value}, a={heads_value}, V={vocab_value})"
    return label, config


def _check_shape(config: ModelConfig) -> None:
    if config.hidden % config.heads:
        raise CalculatorInputError("heads", f"must divide --hidden ({config.hidden} is not a multiple of {config.heads})")
    if config.heads % config.kv_heads:
        raise CalculatorInputError("kv_heads", f"must divide --heads ({config.heads} query heads, {config.kv_heads} KV heads)")
    if config.arch != "llama" and config.kv_heads != config.heads:
        raise CalculatorInputError("kv_heads", f"{config.arch} models use multi-head attention (kv_heads = heads); use --arch llama for GQA/MQA")
