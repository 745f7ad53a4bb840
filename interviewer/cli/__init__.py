"""The ``interviewer`` command line: scriptable subcommands, and the root options of the TUI.

Subcommands live in the modules of this package (``calc``, ``check``, ``content``, ``interview``,
``llm``, ``drills``), each with a ``register(app)`` that this module calls explicitly; they import ``base`` and
``help``, never this module, so there is no cycle. This module stays
small so ``interviewer --help`` starts fast; ``app`` is built on first access (PEP 562
``__getattr__``). The console script is ``tui.entry.cli``: plain ``interviewer`` starts the TUI
without importing Typer at all, and this package never imports the TUI.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    app: typer.Typer


def _build_app() -> typer.Typer:
    from interviewer.cli.help import Typer

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


_registered = False


def _register_subcommands() -> None:
    """Each subcommand module adds its commands to the one app, in the order ``--help`` lists them."""
    from interviewer.cli import calc, check, content, drills, interview, llm

    global _registered
    if _registered:
        return
    app = typer_app()
    for module in (calc, check, content, interview, llm, drills):
        module.register(app)
    _registered = True


def main(argv: list[str] | None = None, *, launch_app: Callable[..., None] | None = None) -> None:
    """The subcommands (``interviewer interview ...``); with no command, the root's options then
    ``launch_app`` (the console script in ``tui.entry`` passes it, so this package never imports the TUI)."""
    from interviewer.cli import base
    from interviewer.logs import setup_logging

    if launch_app is not None:
        base.APP_LAUNCHER = launch_app
    args = sys.argv[1:] if argv is None else argv
    setup_logging()
    _register_subcommands()
    typer_app()(args=args, prog_name="interviewer")
