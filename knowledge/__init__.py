"""The knowledge base: Markdown notes with sources, chunked by heading, and their Chroma indexer."""

from knowledge.notes import Chunk, Note, known_note_ids, load_notes, slugify

__all__ = ["Chunk", "Note", "known_note_ids", "load_notes", "slugify"]
