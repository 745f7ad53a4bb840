"""Retrieval over the knowledge base for the engine, the CLI and the LLM tools.

One index per process, opened lazily (chromadb and the embedder are heavy imports) and synced
incrementally on open, so a changed note is picked up without a full rebuild.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from interviewer import locations
from knowledge.indexer import IndexReport, KnowledgeIndex, Passage, make_client

_lock = threading.Lock()
_indexes: dict[str | None, KnowledgeIndex] = {}
_default_url: str | None = None
_warming: set[str | None] = set()
"""Chroma locations a background warm-up is loading (the embedder, then the index) right now."""


@contextmanager
def warming(chroma_url: str | None = None) -> Iterator[None]:
    """Mark the index as being loaded in the background for the duration (``warming_up``)."""
    _warming.add(chroma_url)
    try:
        yield
    finally:
        _warming.discard(chroma_url)


def warming_up(chroma_url: str | None = None) -> bool:
    """True while a background warm-up is still loading this index: a search now would wait
    seconds for it, so an optional one (a citation) is better skipped."""
    chroma_url = chroma_url or _default_url
    return chroma_url in _warming and chroma_url not in _indexes


def configure(chroma_url: str | None) -> None:
    """Use this Chroma server (None: the embedded index in the data dir) for later searches."""
    global _default_url
    _default_url = chroma_url


def open_index(chroma_url: str | None = None, *, sync: bool = True, progress=None) -> tuple[KnowledgeIndex, IndexReport | None]:
    """The process-wide index for this Chroma location (embedded data dir when ``chroma_url`` is None)."""
    from interviewer.embeddings import get_embedder

    chroma_url = chroma_url or _default_url
    with _lock:
        index = _indexes.get(chroma_url)
        if index is not None:
            return index, None
        index = KnowledgeIndex(make_client(chroma_url, None if chroma_url else locations.chroma_dir()), get_embedder())
        report = index.sync(progress) if sync else None
        _indexes[chroma_url] = index
        return index, report


def search(query: str, k: int = 5, *, notes: list[str] | None = None, chroma_url: str | None = None) -> list[Passage]:
    index, _ = open_index(chroma_url)
    return _cached_search(index, query, k, tuple(notes or ()))


@lru_cache(maxsize=512)
def _cached_search(index: KnowledgeIndex, query: str, k: int, notes: tuple[str, ...]) -> list[Passage]:
    return index.search(query, k, notes=list(notes) or None)
