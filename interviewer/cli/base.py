"""What every ``interviewer`` subcommand module shares: one-line errors, JSON output, and the
launcher of the terminal app. The subcommand modules import this, never the package's
``__init__``, which imports them to register their commands: the registration is explicit and
there is no cycle."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

APP_LAUNCHER: Callable[..., None] | None = None
"""Starts the terminal app (``tui.entry.launch_app``, handed over by the console script)."""


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with a clear one-line error on stderr (never a traceback)."""
    import typer

    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def print_json(payload: Any) -> None:
    import typer

    typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))


def launch_app(**options: Any) -> None:
    """Start the terminal app with these options (settings, store, resume_id)."""
    if APP_LAUNCHER is None:
        fail("the terminal app is not available from here: run the `interviewer` command")
    APP_LAUNCHER(**options)
