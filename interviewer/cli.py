"""The ``interviewer`` command line: the TUI with no arguments, and scriptable subcommands.

Subcommands live in ``interviewer/cli_*.py`` modules that each register themselves on ``app``;
this module stays small so ``interviewer --help`` and the TUI start fast. ``app`` is built on
first access (PEP 562 ``__getattr__``): plain ``interviewer`` starts the TUI without importing
Typer at all.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import typer

    app: typer.Typer


def _build_app() -> typer.Typer:
    from interviewer.cli_help import Typer

    return Typer(
        name="interviewer",
        help="Mock interviews on ML systems and Transformer internals, with numbers checked by torch calculators.",
        no_args_is_help=False,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )


def typer_app() -> typer.Typer:
    """The one Typer app (built on first call)."""
    if "app" not in globals():
        globals()["app"] = _build_app()
    return globals()["app"]


def __getattr__(name: str) -> Any:
    if name == "app":
        return typer_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit with a clear one-line error on stderr (never a traceback)."""
    import typer

    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def print_json(payload: Any) -> None:
    import typer

    typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))


def _register_subcommands() -> None:
    from interviewer import cli_calc, cli_check, cli_content, cli_drills, cli_interview, cli_llm  # noqa: F401  (each registers on app)


def main(argv: list[str] | None = None) -> None:
    from interviewer.logs import setup_logging

    args = sys.argv[1:] if argv is None else argv
    setup_logging()
    if not args:
        # The common case goes straight to the app: Typer, the subcommand modules and the
        # settings would cost about 0.3 s before the first screen (the app opens them later).
        from tui.app import run_app

        run_app()
        return
    _register_subcommands()
    typer_app()(args=args, prog_name="interviewer")
