"""``python -m tui``: the app without the CLI (handy while developing)."""

from tui.app import run_app

run_app()
