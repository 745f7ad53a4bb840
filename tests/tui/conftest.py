"""Fixtures for the TUI tests: a temporary INTERVIEWER_HOME, a real store, fake core services.

The fakes themselves live in ``tui_fakes.py`` (a unique module name, so the tests can import
them without clashing with other test folders).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from tui_fakes import FakeCore

from interviewer.config import Settings
from interviewer.store.db import TranscriptStore
from tui.app import InterviewerApp, make_app


@pytest.fixture(autouse=True)
def interviewer_home(isolated_home: Path) -> Path:
    """The data and config folder of ``tests/conftest.py``'s ``isolated_home``, in UTC.

    UTC so that the dates shown in tables and snapshots do not depend on the machine.
    """
    previous = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield isolated_home
    if previous is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = previous
    time.tzset()


@pytest.fixture
def store(interviewer_home: Path) -> TranscriptStore:
    store = TranscriptStore(interviewer_home / "interviewer.db")
    yield store
    store.close()


@pytest.fixture
def core(store: TranscriptStore) -> FakeCore:
    return FakeCore(store)


@pytest.fixture
def settings() -> Settings:
    return Settings(theme="textual-dark")


@pytest.fixture
def app(settings: Settings, store: TranscriptStore, core: FakeCore) -> InterviewerApp:
    return make_app(settings, store=store, services=core.services())
