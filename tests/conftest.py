"""Shared test set-up: every test gets its own data dir; the knowledge index is built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def shared_chroma_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("chroma")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, shared_chroma_dir) -> Path:
    """Point INTERVIEWER_HOME at a fresh folder; never touch the user's data or config."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("INTERVIEWER_HOME", str(home))
    monkeypatch.setenv("INTERVIEWER_CHROMA_DIR", str(shared_chroma_dir))
    for key in list(os.environ):
        if key.startswith("INTERVIEWER_") and key not in ("INTERVIEWER_HOME", "INTERVIEWER_CHROMA_DIR"):
            monkeypatch.delenv(key)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return home


@pytest.fixture
def store():
    """The transcript store in this test's isolated home (tests/tui overrides it with its own)."""
    from interviewer.store import open_store

    opened = open_store()
    yield opened
    opened.close()
