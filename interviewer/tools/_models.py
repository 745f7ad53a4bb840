"""Minimal torch re-implementations of GPT-2, BERT and Llama, for counting on the ``meta`` device.

Imported only inside calculator functions (it imports torch at module level). Each module mirrors
the released architecture's parameter layout exactly, so summing ``numel`` reproduces published
counts, and its forward runs the same matmuls so ``FlopCounterMode`` counts the real FLOPs:
- GPT-2 (Radford et al. 2019; the released code): token + learned position embeddings, pre-LN
  blocks with a fused qkv Linear (bias), output projection, 4h GELU MLP (bias), final LayerNorm,
  LM head tied to the token embedding.
- BERT (Devlin et al. 2019): word + position (512) + token-type (2) embeddings and LayerNorm,
  post-LN encoder layers with biases everywhere, tanh pooler on [CLS]; no MLM head (the count
  of ``BertModel``).
- Llama (Touvron et al. 2023): untied embedding and LM head, RMSNorm (weight only), q/k/v/o
  without bias with grouped-query attention, SwiGLU MLP (gate, up, down; no bias); RoPE has no
  parameters and is elementwise, so it is omitted.

Attention scores use explicit ``matmul`` (QKᵀ and PV) in a submodule named ``core`` so the counter
attributes them to attention, and so they are counted on any device: ``FlopCounterMode``
counts ``scaled_dot_product_attention`` as 0 FLOPs on CPU tensors in torch 2.13 (the CPU flash
kernel has no FLOP formula), and on meta it counts the full s×s product, ignoring causal masking.
The causal factor is therefore applied by the caller, explicitly.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from interviewer.tools.presets import ModelConfig


class AttentionCore(nn.Module):
    """softmax(QKᵀ/√d)·V with explicit matmuls (no parameters)."""

    def __init__(self, causal: bool) -> None:
        super().__init__()
        self.causal = causal

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        if self.causal:
            seq = q.shape[-2]
            mask = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        return torch.matmul(scores.softmax(dim=-1), v)


def _split_heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    batch, seq, width = x.shape
    return x.view(batch, seq, heads, width // heads).transpose(1, 2)


def _merge_heads(x: torch.Tensor) -> torch.Tensor:
    batch, heads, seq, head_dim = x.shape
    return x.transpose(1, 2).reshape(batch, seq, heads * head_dim)


# --- GPT-2 --------------------------------------------------------------------------------


class GPT2Attention(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.heads = config.heads
        self.c_attn = nn.Linear(config.hidden, 3 * config.hidden)
        self.c_proj = nn.Linear(config.hidden, config.hidden)
        self.core = AttentionCore(causal=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.c_attn(x).split(x.shape[-1], dim=-1)
        out = self.core(_split_heads(q, self.heads), _split_heads(k, self.heads), _split_heads(v, self.heads))
        return self.c_proj(_merge_heads(out))


class GPT2MLP(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.c_fc = nn.Linear(config.hidden, config.ffn)
        self.c_proj = nn.Linear(config.ffn, config.hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class GPT2Block(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.hidden, eps=config.norm_eps)
        self.attn = GPT2Attention(config)
        self.ln_2 = nn.LayerNorm(config.hidden, eps=config.norm_eps)
        self.mlp = GPT2MLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2Model(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.wte = nn.Embedding(config.vocab, config.hidden)
        self.wpe = nn.Embedding(config.max_positions, config.hidden)
        self.blocks = nn.ModuleList(GPT2Block(config) for _ in range(config.layers))
        self.ln_f = nn.LayerNorm(config.hidden, eps=config.norm_eps)
        self.lm_head = nn.Linear(config.hidden, config.vocab, bias=False)
        if config.tied:
            self.lm_head.weight = self.wte.weight

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))


# --- BERT ---------------------------------------------------------------------------------


class BertLayer(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.heads = config.heads
        self.query = nn.Linear(config.hidden, config.hidden)
        self.key = nn.Linear(config.hidden, config.hidden)
        self.value = nn.Linear(config.hidden, config.hidden)
        self.core = AttentionCore(causal=False)
        self.attention_output = nn.Linear(config.hidden, config.hidden)
        self.attention_norm = nn.LayerNorm(config.hidden, eps=config.norm_eps)
        self.intermediate = nn.Linear(config.hidden, config.ffn)
        self.output = nn.Linear(config.ffn, config.hidden)
        self.output_norm = nn.LayerNorm(config.hidden, eps=config.norm_eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        heads = self.heads
        attended = self.core(_split_heads(self.query(x), heads), _split_heads(self.key(x), heads), _split_heads(self.value(x), heads))
        x = self.attention_norm(x + self.attention_output(_merge_heads(attended)))
        return self.output_norm(x + self.output(F.gelu(self.intermediate(x))))


class BertModel(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab, config.hidden)
        self.position_embeddings = nn.Embedding(config.max_positions, config.hidden)
        self.token_type_embeddings = nn.Embedding(config.type_vocab, config.hidden)
        self.embedding_norm = nn.LayerNorm(config.hidden, eps=config.norm_eps)
        self.blocks = nn.ModuleList(BertLayer(config) for _ in range(config.layers))
        self.pooler = nn.Linear(config.hidden, config.hidden)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        token_types = torch.zeros_like(input_ids)
        x = self.word_embeddings(input_ids) + self.position_embeddings(positions) + self.token_type_embeddings(token_types)
        x = self.embedding_norm(x)
        for block in self.blocks:
            x = block(x)
        return torch.tanh(self.pooler(x[:, 0]))


# --- Llama --------------------------------------------------------------------------------


class LlamaAttention(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.heads = config.heads
        self.kv_heads = config.kv_heads
        self.q_proj = nn.Linear(config.hidden, config.heads * config.head_dim, bias=False)
        self.k_proj = nn.Linear(config.hidden, config.kv_heads * config.head_dim, bias=False)
        self.v_proj = nn.Linear(config.hidden, config.kv_heads * config.head_dim, bias=False)
        self.o_proj = nn.Linear(config.heads * config.head_dim, config.hidden, bias=False)
        self.core = AttentionCore(causal=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = _split_heads(self.q_proj(x), self.heads)
        k = _split_heads(self.k_proj(x), self.kv_heads)
        v = _split_heads(self.v_proj(x), self.kv_heads)
        group = self.heads // self.kv_heads
        if group > 1:  # GQA: each KV head serves `group` query heads
            k = k.repeat_interleave(group, dim=1)
            v = v.repeat_interleave(group, dim=1)
        return self.o_proj(_merge_heads(self.core(q, k, v)))


class LlamaMLP(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden, config.ffn, bias=False)
        self.up_proj = nn.Linear(config.hidden, config.ffn, bias=False)
        self.down_proj = nn.Linear(config.ffn, config.hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaBlock(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.input_layernorm = nn.RMSNorm(config.hidden, eps=config.norm_eps)
        self.self_attn = LlamaAttention(config)
        self.post_attention_layernorm = nn.RMSNorm(config.hidden, eps=config.norm_eps)
        self.mlp = LlamaMLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))


class LlamaModel(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab, config.hidden)
        self.blocks = nn.ModuleList(LlamaBlock(config) for _ in range(config.layers))
        self.norm = nn.RMSNorm(config.hidden, eps=config.norm_eps)
        self.lm_head = nn.Linear(config.hidden, config.vocab, bias=False)
        if config.tied:
            self.lm_head.weight = self.embed_tokens.weight

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        x = self.embed_tokens(input_ids)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.norm(x))


_MODEL_CLASSES = {"gpt": GPT2Model, "bert": BertModel, "llama": LlamaModel}

_GROUP_OF_MODULE = {
    "wte": "token_embeddings", "word_embeddings": "token_embeddings", "embed_tokens": "token_embeddings",
    "wpe": "position_embeddings", "position_embeddings": "position_embeddings", "token_type_embeddings": "position_embeddings",
    "embedding_norm": "embedding_norm", "blocks": "blocks", "ln_f": "final_norm", "norm": "final_norm",
    "lm_head": "lm_head", "pooler": "pooler",
}


def build_on_meta(config: ModelConfig) -> nn.Module:
    """The model with every parameter on the ``meta`` device: shapes only, no storage."""
    with torch.device("meta"):
        return _MODEL_CLASSES[config.arch](config)


def parameter_groups(model: nn.Module) -> dict[str, int]:
    """Exact parameter counts by group; shared (tied) tensors are counted once."""
    groups = dict.fromkeys(("token_embeddings", "position_embeddings", "embedding_norm", "blocks", "final_norm", "lm_head", "pooler"), 0)
    for name, parameter in model.named_parameters():  # yields a tied (shared) tensor once
        groups[_GROUP_OF_MODULE[name.split(".")[0]]] += parameter.numel()
    return groups
