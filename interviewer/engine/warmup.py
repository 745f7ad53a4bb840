"""Load the heavy parts (torch, the embedder, the calculators, the knowledge index) once, in a thread."""

from __future__ import annotations

import threading

from interviewer.engine.evidence import fixed_texts

_warm = threading.Event()
_warm_lock = threading.Lock()


def warm_up(chroma_url: str | None = None) -> None:
    """Load torch, the embedder, the calculators and the knowledge index. Blocking and idempotent:
    call it in a thread after the first screen is drawn."""
    with _warm_lock:
        if _warm.is_set():
            return
        from interviewer import retrieval
        from interviewer.embeddings import get_embedder

        # In the order a first answer needs them: its claim checks, then the embedder and the
        # index for the reply's citation; the criterion vectors only once the reply is out.
        retrieval.configure(chroma_url)
        with retrieval.warming(chroma_url):  # a reply meanwhile goes out without its citation
            try:
                import interviewer.claims  # noqa: F401  (imports the calculators)
            except ImportError:
                pass
            get_embedder().embed(["warm up"])
            retrieval.open_index()
        embed_rubric_criteria()
        _warm.set()


def embed_rubric_criteria() -> None:
    """Every shipped scenario's criterion vectors, into the on-disk cache (about 4 s the first
    time on 2 cores, a file read after that), so no first answer waits for them."""
    from interviewer.embeddings import embed_fixed
    from rubrics.loader import load_scenarios

    # One scenario at a time: an answer being analysed meanwhile gets the embedder in between.
    for scenario in load_scenarios():
        embed_fixed(fixed_texts(scenario))


def is_warm() -> bool:
    return _warm.is_set()
