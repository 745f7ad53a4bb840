"""Fixtures shared by the core tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_knowledge_index(monkeypatch):
    """Retrieval finds nothing, so a scorecard's study items load no index (use with ``usefixtures``)."""
    from interviewer import retrieval

    monkeypatch.setattr(retrieval, "search", lambda *args, **kwargs: [])
