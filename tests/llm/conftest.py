"""Fixtures for LLM mode: a real OpenAI-compatible HTTP server on 127.0.0.1, settings pointing at it,
a store in the test's data dir, and a quick keyword retrieval standing in for the Chroma index
(one slow test uses the real index)."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterator

import pytest
from fake_openai_server import FakeOpenAIServer
from llm_helpers import API_KEY, MODEL, make_settings

from interviewer import locations
from interviewer.config import Settings


@functools.lru_cache(maxsize=1)
def _tokenised_chunks():
    from knowledge.notes import all_chunks

    return [(chunk, set(re.findall(r"[a-z0-9]+", chunk.text.lower()))) for chunk in all_chunks()]


@pytest.fixture(autouse=True)
def keyword_retrieval(monkeypatch, request) -> None:
    """``interviewer.retrieval.search`` over the real notes by word overlap: the tools and the offline
    grounding get real passages and citations without building the Chroma index (~20 s)."""
    if request.node.get_closest_marker("real_retrieval"):
        return
    from interviewer import retrieval
    from knowledge.indexer import Passage

    def search(query: str, k: int = 5, *, notes: list[str] | None = None, chroma_url: str | None = None) -> list[Passage]:
        words = set(re.findall(r"[a-z0-9]+", query.lower()))
        scored = [(len(words & chunk_words), chunk) for chunk, chunk_words in _tokenised_chunks() if not notes or chunk.note in notes]
        scored.sort(key=lambda pair: -pair[0])
        return [
            Passage(anchor=c.anchor, note=c.note, heading=c.heading, title=c.title, text=c.text, score=overlap / max(1, len(words)))
            for overlap, c in scored[:k]
            if overlap
        ]

    monkeypatch.setattr(retrieval, "search", search)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(models=(MODEL, "other-model"), api_key=API_KEY) as fake:
        yield fake


@pytest.fixture
def settings(server) -> Settings:
    return make_settings(server)


@pytest.fixture
def log_to_file() -> Iterator[None]:
    """Everything the app and its HTTP stack log, at DEBUG, into the data dir's log file."""
    handler = logging.FileHandler(locations.log_file(), encoding="utf-8")
    handler.setLevel(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    previous = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
        handler.close()


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "real_retrieval: use the real Chroma knowledge index instead of the keyword stand-in")
