"""Help in the usual notation for every command: ``check [OPTIONS] TEXT``, ``--scenario ID``.

Recent Typer releases print a required argument as ``{text}`` in the usage line, its type after
its name (``text <str>``) and an option's value as its Python type (``--time-limit <float range>``,
``--fact <list[str]>``). Commands and groups built from ``Typer`` below print the metavar instead:
the one a parameter declares (``metavar="KEY=VALUE"``), else its name in capitals (``--kv-heads
KV_HEADS``, argument ``TEXT``), as argparse does. Only public Click hooks are overridden
(``collect_usage_pieces``, ``format_options``), so older Typer releases print the same.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


def _fill_metavars(params: list[Any]) -> None:
    for param in params:
        if param.metavar is not None:
            continue
        if param.param_type_name == "argument":
            param.metavar = param.name.upper()
        elif param.param_type_name == "option" and not param.is_flag and not getattr(param, "count", False):
            longest = max(param.opts, key=len).lstrip("-")
            param.metavar = longest.upper().replace("-", "_")


def _argument_usage(ctx: Any, command: Any) -> list[str]:
    pieces = []
    for param in command.get_params(ctx):
        if param.param_type_name != "argument":
            continue
        name = param.metavar + ("..." if param.nargs != 1 else "")
        pieces.append(name if param.required else f"[{name}]")
    return pieces


def _format_parameters(ctx: Any, command: Any, formatter: Any) -> None:
    arguments, options = [], []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        if param.param_type_name == "argument":
            arguments.append((param.metavar, record[1]))  # the name alone, not "TEXT <str>"
        else:
            options.append(record)
    for title, rows in (("Arguments", arguments), ("Options", options)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


class Command(TyperCommand):
    """A command whose help shows metavars (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _fill_metavars(self.params)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return ([self.options_metavar] if self.options_metavar else []) + _argument_usage(ctx, self)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_parameters(ctx, self, formatter)


class Group(TyperGroup):
    """A group (``interviewer``, ``interviewer kb``, ...) whose help shows metavars."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _fill_metavars(self.params)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + _argument_usage(ctx, self) + [self.subcommand_metavar]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_parameters(ctx, self, formatter)
        self.format_commands(ctx, formatter)


class Typer(typer.Typer):
    """``typer.Typer`` whose groups are ``Group`` and whose commands are ``Command`` by default
    (a ``cls`` given explicitly should subclass them)."""

    def __init__(self, *args: Any, cls: type[TyperGroup] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, cls=cls or Group, **kwargs)

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or Command, **kwargs)
