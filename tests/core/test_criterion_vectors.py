"""Criterion vectors are embedded once per machine and kept in the data dir."""

from __future__ import annotations

import json

import pytest

from interviewer import embeddings

pytestmark = pytest.mark.slow  # each test embeds with the real MiniLM model


@pytest.fixture
def fresh_cache(isolated_home, tmp_path, monkeypatch):
    """A private index folder: the shared one of the other tests holds their vectors."""
    monkeypatch.setenv("INTERVIEWER_CHROMA_DIR", str(tmp_path / "index"))
    embeddings.forget_fixed_vectors()
    yield tmp_path / "index" / "criterion-vectors.json"
    embeddings.forget_fixed_vectors()


def test_fixed_vectors_match_the_embedder_and_are_saved(fresh_cache):
    texts = ["Shards optimizer states with ZeRO.", "Explains the KV cache size."]
    vectors = embeddings.embed_fixed(texts)
    assert vectors == embeddings.get_embedder().embed(texts)
    saved = json.loads(fresh_cache.read_text())
    assert len(saved) == 2 and all(len(v) == embeddings.DIMENSION for v in saved.values())


def test_a_new_process_reads_them_back_without_the_model(fresh_cache, monkeypatch):
    texts = ["Names the all-reduce algorithm."]
    expected = embeddings.embed_fixed(texts)
    embeddings.forget_fixed_vectors()

    def no_model():
        raise AssertionError("the embedder must not run for cached texts")

    monkeypatch.setattr(embeddings, "get_embedder", no_model)
    assert embeddings.embed_fixed(texts) == expected


def test_a_corrupt_cache_is_ignored_and_rewritten(fresh_cache):
    fresh_cache.parent.mkdir(parents=True)
    fresh_cache.write_text("{not json")
    texts = ["Estimates activation memory."]
    assert embeddings.embed_fixed(texts) == embeddings.get_embedder().embed(texts)
    assert len(json.loads(fresh_cache.read_text())) == 1


def test_an_edited_criterion_is_embedded_again(fresh_cache):
    embeddings.embed_fixed(["Uses pipeline parallelism."])
    embeddings.embed_fixed(["Uses pipeline parallelism with 1F1B."])
    assert len(json.loads(fresh_cache.read_text())) == 2
