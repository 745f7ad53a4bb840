"""The knowledge base's Markdown notes, shipped in this package, and their chunking by heading.

A note is ``notes/<note-id>.md``: a ``# Title``, an introduction, ``## `` sections and a final
``## Sources``. Each section is one retrievable chunk cited as ``note-id#heading-slug``; sections
longer than the embedder's window are split at paragraph boundaries but keep their citation.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

MAX_CHUNK_CHARS = 1100
"""About 250 MiniLM tokens: longer text would be truncated by the embedder, so we split it."""

SOURCES_HEADING = "sources"


def slugify(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


@dataclass(frozen=True)
class Chunk:
    note: str
    title: str
    heading: str
    anchor: str
    """``note-id#heading-slug``: how the passage is cited."""
    part: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.anchor}~{self.part}"

    @property
    def embedding_text(self) -> str:
        return f"{self.title}: {self.heading}\n{self.text}"

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.embedding_text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Note:
    id: str
    title: str
    text: str
    chunks: list[Chunk] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


class NoteFormatError(ValueError):
    pass


def _split_long(body: str) -> list[str]:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    parts: list[str] = []
    current = ""
    for paragraph in paragraphs:
        if current and len(current) + len(paragraph) + 2 > MAX_CHUNK_CHARS:
            parts.append(current)
            current = paragraph
        else:
            current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        parts.append(current)
    return parts or [body.strip()]


def parse_note(note_id: str, text: str, file: str | None = None) -> Note:
    where = file or f"{note_id}.md"
    lines = text.splitlines()
    title_line = next((line for line in lines if line.strip()), "")
    if not title_line.startswith("# "):
        raise NoteFormatError(f"{where}: first line must be a '# Title' heading")
    title = title_line[2:].strip()
    sections: list[tuple[str, list[str]]] = [(title, [])]
    for line in lines[lines.index(title_line) + 1 :]:
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
        else:
            sections[-1][1].append(line)
    chunks: list[Chunk] = []
    sources: list[str] = []
    for heading, body_lines in sections:
        body = "\n".join(body_lines).strip()
        if slugify(heading) == SOURCES_HEADING:
            sources = [line.lstrip("-* ").strip() for line in body_lines if line.strip().startswith(("-", "*"))]
            continue
        if not body:
            continue
        anchor = f"{note_id}#{slugify(heading)}"
        for part, piece in enumerate(_split_long(body)):
            chunks.append(Chunk(note=note_id, title=title, heading=heading, anchor=anchor, part=part, text=piece))
    if not chunks:
        raise NoteFormatError(f"{where}: no content sections")
    return Note(id=note_id, title=title, text=text, chunks=chunks, sources=sources)


def _note_files() -> list[tuple[str, str]]:
    folder = resources.files("knowledge") / "notes"
    return sorted((entry.name, entry.read_text(encoding="utf-8")) for entry in folder.iterdir() if entry.name.endswith(".md"))


@lru_cache(maxsize=1)
def load_notes() -> dict[str, Note]:
    """Every shipped note by id."""
    return {name[:-3]: parse_note(name[:-3], text, name) for name, text in _note_files()}


def known_note_ids() -> set[str]:
    return set(load_notes())


def all_chunks(notes: dict[str, Note] | None = None) -> list[Chunk]:
    return [chunk for note in (notes or load_notes()).values() for chunk in note.chunks]
