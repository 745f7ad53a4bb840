"""Ground what the interviewer says in a knowledge-base passage, cited as ``note#heading``."""

from __future__ import annotations

import logging
import re

from interviewer.domain import Citation
from interviewer.engine.text import quote

log = logging.getLogger(__name__)

PASSAGE_CHARS = 320


def _excerpt(text: str) -> str:
    """The passage's first sentences, up to about PASSAGE_CHARS characters."""
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    excerpt = ""
    for sentence in sentences:
        if excerpt and len(excerpt) + len(sentence) > PASSAGE_CHARS:
            break
        excerpt = f"{excerpt} {sentence}".strip()
    return quote(excerpt, PASSAGE_CHARS + 80)


def ground(query: str, notes: list[str]) -> Citation | None:
    """The best passage for ``query`` within ``notes`` (all notes when empty); None if retrieval fails."""
    from interviewer import retrieval

    try:
        passages = retrieval.search(query, k=1, notes=notes or None)
        if not passages and notes:
            passages = retrieval.search(query, k=1)
    except Exception:  # grounding is an enrichment: never let the index break an interview
        log.exception("knowledge retrieval failed")
        return None
    if not passages:
        return None
    best = passages[0]
    return Citation(note=best.note, heading=best.heading, anchor=best.anchor, passage=_excerpt(best.text))
