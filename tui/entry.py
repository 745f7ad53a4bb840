"""The ``interviewer`` console script: the composition root of the CLI and the terminal app.

``interviewer.cli`` knows nothing of the TUI (``interviewer`` never imports ``tui``, a contract
in ``pyproject.toml``); this module hands it the app's launcher. With no arguments it goes
straight to the app: Typer, the subcommand modules and the settings would cost about 0.3 s
before the first screen (the app opens them later).
"""

from __future__ import annotations

import sys
from typing import Any


def launch_app(**options: Any) -> None:
    from tui.app import run_app

    run_app(**options)


def cli(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        from interviewer.logs import setup_logging

        setup_logging()
        launch_app()
        return
    from interviewer.cli import main

    main(args, launch_app=launch_app)
