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


MAX_PASSAGES_TRIED = 6
"""How far down the ranking a citation may go to find a passage this interview has not cited yet."""


def ground(query: str, notes: list[str], cited: frozenset[str] = frozenset()) -> Citation | None:
    """The best passage for ``query`` within ``notes`` (all notes when empty) that is not among the
    ``cited`` anchors (each passage is cited once per interview); None if there is none, or if
    retrieval fails."""
    from interviewer import retrieval

    k = min(len(cited) + 1, MAX_PASSAGES_TRIED)
    try:
        passages = [p for p in retrieval.search(query, k=k, notes=notes or None) if p.anchor not in cited]
        if not passages and notes:
            passages = [p for p in retrieval.search(query, k=k) if p.anchor not in cited]
    except Exception:  # grounding is an enrichment: never let the index break an interview
        log.exception("knowledge retrieval failed")
        return None
    if not passages:
        return None
    best = passages[0]
    return Citation(note=best.note, heading=best.heading, anchor=best.anchor, passage=_excerpt(best.text))
