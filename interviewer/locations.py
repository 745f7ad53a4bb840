"""Where the app keeps its data and config (XDG), overridable for tests and users.

``INTERVIEWER_HOME`` puts everything (database, Chroma index, config, logs) in one folder;
otherwise data goes to ``$XDG_DATA_HOME/interviewer`` and config to ``$XDG_CONFIG_HOME/interviewer``.
"""

from __future__ import annotations

import os
from pathlib import Path


def _xdg(env: str, default: str) -> Path:
    value = os.environ.get(env)
    return Path(value) if value else Path.home() / default


def data_dir() -> Path:
    home = os.environ.get("INTERVIEWER_HOME")
    path = Path(home) if home else _xdg("XDG_DATA_HOME", ".local/share") / "interviewer"
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    home = os.environ.get("INTERVIEWER_HOME")
    return Path(home) if home else _xdg("XDG_CONFIG_HOME", ".config") / "interviewer"


def config_file() -> Path:
    explicit = os.environ.get("INTERVIEWER_CONFIG")
    return Path(explicit) if explicit else config_dir() / "config.toml"


def database_path() -> Path:
    return data_dir() / "interviewer.db"


def chroma_dir() -> Path:
    """The embedded knowledge index; ``INTERVIEWER_CHROMA_DIR`` lets several data dirs share one."""
    explicit = os.environ.get("INTERVIEWER_CHROMA_DIR")
    return Path(explicit) if explicit else data_dir() / "chroma"


def log_file() -> Path:
    return data_dir() / "interviewer.log"


def ui_state_file() -> Path:
    """Choices made in the app that outlive it (the theme picked from the palette)."""
    return data_dir() / "ui-state.json"


def screenshots_dir() -> Path:
    """Where the palette's "Screenshot" saves (Textual's default, ~/Downloads, may not exist)."""
    return data_dir() / "screenshots"


def catalog_cache_file() -> Path:
    """The home screen's scenario list from the last validation (``interviewer.catalog``)."""
    return data_dir() / "catalog-cache.json"
