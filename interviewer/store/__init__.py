"""SQLite transcript store with versioned migrations."""

from interviewer.store.db import StoreError, TranscriptStore, open_store

__all__ = ["StoreError", "TranscriptStore", "open_store"]
