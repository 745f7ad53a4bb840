"""The ``interviewer`` command line: the TUI with no arguments, and scriptable subcommands.

Subcommands live in ``interviewer/cli_*.py`` modules that each register themselves on ``app``;
this module stays small so ``interviewer --help`` and the TUI start fast.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

app = typer.Typer(
    name="interviewer",
    help="Mock interviews on ML systems and Transformer internals, with numbers checked by torch calculators.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with a clear one-line error on stderr (never a traceback)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def print_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))


def _register_subcommands() -> None:
    from interviewer import cli_calc, cli_check, cli_content, cli_interview, cli_llm  # noqa: F401  (each registers on app)


def main(argv: list[str] | None = None) -> None:
    from interviewer.logs import setup_logging

    setup_logging()
    _register_subcommands()
    app(args=argv if argv is not None else sys.argv[1:], prog_name="interviewer")
