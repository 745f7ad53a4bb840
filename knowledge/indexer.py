"""Index the notes into a Chroma collection (embedded or a server) and search them.

Re-indexing is incremental: each chunk's content hash is stored in its metadata, so only new or
changed chunks are embedded and written, and chunks of deleted sections are removed. Embeddings
are computed locally (``interviewer.embeddings``); Chroma's own default embedding function, which
downloads a model, is never used.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from knowledge.lexical import BM25
from knowledge.notes import Chunk, all_chunks

COLLECTION = "interviewer-knowledge"
CANDIDATES = 30
"""How many passages each ranking contributes to the fusion."""
RRF_K = 60
"""Reciprocal-rank-fusion constant (Cormack, Clarke & Buettcher 2009)."""
EMBEDDER_ID = "all-MiniLM-L6-v2"
"""Stored in the collection metadata: a different embedder means a full rebuild."""


class Embedder(Protocol):
    def embed(self, texts: list[str]) -> list[list[float]]: ...


class IndexError_(RuntimeError):
    """The index cannot be reached or written (bad server URL, unwritable folder)."""


@dataclass(frozen=True)
class IndexReport:
    added: int
    updated: int
    removed: int
    unchanged: int
    seconds: float

    @property
    def changed(self) -> int:
        return self.added + self.updated + self.removed


@dataclass(frozen=True)
class Passage:
    anchor: str
    note: str
    heading: str
    title: str
    text: str
    score: float
    """Cosine similarity to the query (higher is closer)."""

    def public_dict(self) -> dict[str, Any]:
        return {"citation": self.anchor, "note": self.note, "heading": self.heading, "score": round(self.score, 4), "text": self.text}


def make_client(chroma_url: str | None = None, path: Path | None = None):
    """An embedded PersistentClient at ``path``, or an HttpClient for ``chroma_url``. The caller
    names the directory (``interviewer.retrieval`` passes the data dir's): ``knowledge`` imports
    nothing of the app above it."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    settings = ChromaSettings(anonymized_telemetry=False)
    if chroma_url:
        parsed = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
        if not parsed.hostname:
            raise IndexError_(f"--chroma-url {chroma_url!r}: expected http://HOST:PORT")
        try:
            return chromadb.HttpClient(
                host=parsed.hostname, port=parsed.port or 8000, ssl=parsed.scheme == "https", settings=settings
            )
        except Exception as exc:  # chromadb raises ValueError/ConnectionError variants
            raise IndexError_(f"cannot reach the Chroma server at {chroma_url}: {exc}") from exc
    if path is None:
        raise IndexError_("no Chroma location: give a server URL or the directory of the embedded index")
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=settings)


class KnowledgeIndex:
    def __init__(self, client, embedder: Embedder, chunks: Sequence[Chunk] | None = None):
        self.client = client
        self.embedder = embedder
        self.chunks = list(chunks) if chunks is not None else all_chunks()
        self.collection = self._collection()

    def _collection(self):
        try:
            collection = self.client.get_or_create_collection(
                COLLECTION, embedding_function=None, metadata={"hnsw:space": "cosine", "embedder": EMBEDDER_ID}
            )
        except Exception as exc:
            raise IndexError_(f"cannot open the knowledge collection: {exc}") from exc
        if (collection.metadata or {}).get("embedder") != EMBEDDER_ID:
            self.client.delete_collection(COLLECTION)
            collection = self.client.create_collection(
                COLLECTION, embedding_function=None, metadata={"hnsw:space": "cosine", "embedder": EMBEDDER_ID}
            )
        return collection

    def stored_hashes(self) -> dict[str, str]:
        stored = self.collection.get(include=["metadatas"])
        return {id_: (meta or {}).get("hash", "") for id_, meta in zip(stored["ids"], stored["metadatas"] or [], strict=False)}

    def sync(self, progress: Callable[[int, int], None] | None = None, batch_size: int = 32) -> IndexReport:
        """Bring the collection in line with the notes; embed only what changed."""
        started = time.perf_counter()
        stored = self.stored_hashes()
        wanted = {chunk.id: chunk for chunk in self.chunks}
        to_write = [chunk for chunk in self.chunks if stored.get(chunk.id) != chunk.hash]
        removed = [id_ for id_ in stored if id_ not in wanted]
        added = sum(1 for chunk in to_write if chunk.id not in stored)
        if removed:
            self.collection.delete(ids=removed)
        total = len(to_write)
        if progress:
            progress(0, total)
        for start in range(0, total, batch_size):
            batch = to_write[start : start + batch_size]
            vectors = self.embedder.embed([chunk.embedding_text for chunk in batch])
            self.collection.upsert(
                ids=[chunk.id for chunk in batch],
                embeddings=vectors,
                documents=[chunk.text for chunk in batch],
                metadatas=[
                    {"note": c.note, "heading": c.heading, "title": c.title, "anchor": c.anchor, "hash": c.hash} for c in batch
                ],
            )
            if progress:
                progress(min(start + batch_size, total), total)
        return IndexReport(
            added=added,
            updated=total - added,
            removed=len(removed),
            unchanged=len(self.chunks) - total,
            seconds=time.perf_counter() - started,
        )

    @cached_property
    def _lexical(self) -> BM25:
        return BM25([chunk.embedding_text for chunk in self.chunks])

    def _dense(self, query: str, n: int, where: dict | None) -> list[tuple[str, float]]:
        result = self.collection.query(
            query_embeddings=self.embedder.embed([query[:4000]]),
            n_results=n,
            where=where,
            include=["distances"],
        )
        return [(id_, 1.0 - float(d)) for id_, d in zip(result["ids"][0], result["distances"][0], strict=True)]

    def search(self, query: str, k: int = 5, *, notes: Sequence[str] | None = None, per_note: int = 1) -> list[Passage]:
        """Top passages for a query: dense (MiniLM in Chroma) and BM25 rankings fused by reciprocal rank.

        ``notes`` restricts the search to those note ids; ``per_note`` caps passages from one note, so
        the top results span the notes that answer the question (None: no cap).
        """
        if not query.strip():
            return []
        where = None
        if notes:
            where = {"note": {"$in": list(notes)}} if len(notes) > 1 else {"note": notes[0]}
        pool = max(CANDIDATES, 4 * k)
        dense = self._dense(query, pool, where)
        by_id = {chunk.id: chunk for chunk in self.chunks}
        allowed = set(notes) if notes else None
        lexical_ids = [
            self.chunks[i].id for i in self._lexical.top(query, pool * 2) if allowed is None or self.chunks[i].note in allowed
        ][:pool]
        fused: dict[str, float] = {}
        for ranking in ([id_ for id_, _ in dense], lexical_ids):
            for rank, id_ in enumerate(ranking):
                fused[id_] = fused.get(id_, 0.0) + 1.0 / (RRF_K + rank + 1)
        similarity = dict(dense)
        passages: list[Passage] = []
        taken: dict[str, int] = {}
        for id_ in sorted(fused, key=lambda i: -fused[i]):
            chunk = by_id.get(id_)
            if chunk is None:  # indexed by an older version of the notes; the next sync removes it
                continue
            if per_note is not None and taken.get(chunk.note, 0) >= per_note:
                continue
            taken[chunk.note] = taken.get(chunk.note, 0) + 1
            passages.append(
                Passage(
                    anchor=chunk.anchor,
                    note=chunk.note,
                    heading=chunk.heading,
                    title=chunk.title,
                    text=chunk.text,
                    score=similarity.get(id_, 0.0),
                )
            )
            if len(passages) == k:
                break
        return passages
