"""The scratch calculator: run any calculator from a small form without leaving the interview.

The form is built from each calculator's signature (``inspect.signature``), so a new
calculator shows up here with no UI change. Calculators import torch, so they load and run
in a thread worker.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

NOT_SET = "__not_set__"


def first_line(doc: str | None) -> str:
    return (inspect.cleandoc(doc).split("\n\n")[0].replace("\n", " ") if doc else "").strip()


def field_choices(function: Callable[..., Any], name: str) -> list[str] | None:
    """Options of a ``Literal[...]`` or ``bool`` parameter, for a select instead of a text box."""
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # unresolvable annotations: fall back to a text box
        return None
    hint = hints.get(name)
    if hint is bool:
        return ["true", "false"]
    options: list[str] = []
    for arg in typing.get_args(hint) if typing.get_origin(hint) is not Literal else [hint]:
        if typing.get_origin(arg) is Literal:
            options.extend(str(value) for value in typing.get_args(arg))
    return options or None


class CalculatorModal(ModalScreen[str | None]):
    """Dismisses with a snippet to insert into the answer (Ctrl+S), or None (Escape)."""

    DEFAULT_CSS = """
    CalculatorModal {
        align: center middle;
        & > #calculator-dialog {
            width: 84;
            max-width: 100%;
            height: auto;
            max-height: 100%;
            border: thick $primary 60%;
            border-title-align: left;
            background: $surface;
            padding: 0 1;
        }
        & #calculator-name { width: 1fr; margin: 0 0 0 0; }
        & #calculator-help { color: $text-muted; height: auto; max-height: 3; }
        & #calculator-form { height: auto; max-height: 9; margin: 1 0 0 0; }
        & .field { height: 1; }
        & .field-label { width: 22; color: $text-muted; }
        & .field Input, & .field Select { width: 1fr; }
        & .field.-invalid .field-label { color: $error; text-style: bold; }
        & #calculator-result { height: auto; max-height: 8; margin: 1 0 0 0; border-top: solid $foreground 20%; }
        & #calculator-buttons { height: auto; align-horizontal: right; margin: 1 0 0 0; }
        & Button { margin: 0 0 0 1; min-width: 10; }
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "insert", "Insert result"),
        Binding("ctrl+r", "run", "Run", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.calculators: Mapping[str, Callable[..., Any]] = {}
        self.result: Any = None
        """The last CalcResult (its value goes into the answer on Ctrl+S)."""
        self.result_text = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="calculator-dialog") as dialog:
            dialog.border_title = "Scratch calculator"
            dialog.border_subtitle = "Enter run · Ctrl+S insert into answer · Esc close"
            yield Select([], prompt="Loading calculators…", compact=True, id="calculator-name")
            yield Static("", id="calculator-help")
            yield VerticalScroll(id="calculator-form")
            yield VerticalScroll(Static("", id="calculator-output"), id="calculator-result")
            with Horizontal(id="calculator-buttons"):
                yield Button("Close (Esc)", id="close", compact=True)
                yield Button("Insert (Ctrl+S)", id="insert", disabled=True, compact=True)
                yield Button("Run (Enter)", id="run", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.load_calculators()

    @work(thread=True, exclusive=True, group="calculator", exit_on_error=False)
    def load_calculators(self) -> None:
        try:
            calculators = dict(self.app.services.calculators())
        except Exception as error:
            self.app.call_from_thread(self._unavailable, f"{type(error).__name__}: {error}")
            return
        self.app.call_from_thread(self._show_calculators, calculators)

    def _unavailable(self, problem: str) -> None:
        self.query_one("#calculator-output", Static).update(Content(f"Calculators are not available: {problem}"))
        self.query_one("#calculator-output", Static).add_class("-error")

    def _show_calculators(self, calculators: dict[str, Callable[..., Any]]) -> None:
        self.calculators = calculators
        select = self.query_one("#calculator-name", Select)
        select.set_options([(name, name) for name in sorted(calculators)])
        select.prompt = "Choose a calculator"
        if calculators:
            select.value = sorted(calculators)[0]
            select.focus()

    @on(Select.Changed, "#calculator-name")
    async def _calculator_chosen(self, event: Select.Changed) -> None:
        if event.value is Select.NULL or event.value not in self.calculators:
            return
        await self._build_form(str(event.value))

    async def _build_form(self, name: str) -> None:
        function = self.calculators[name]
        self.query_one("#calculator-help", Static).update(Content(first_line(function.__doc__)))
        form = self.query_one("#calculator-form", VerticalScroll)
        await form.remove_children()
        rows = []
        for parameter in inspect.signature(function).parameters.values():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            required = parameter.default is inspect.Parameter.empty
            choices = field_choices(function, parameter.name)
            if choices:
                default = NOT_SET if required else str(parameter.default)
                if isinstance(parameter.default, bool):
                    default = default.lower()
                options = [(choice, choice) for choice in choices]
                widget = Select(
                    options,
                    value=default if default in choices else Select.NULL,
                    allow_blank=required or default not in choices,
                    compact=True,
                    id=f"field-{parameter.name}",
                )
            else:
                placeholder = "required" if required else f"default {parameter.default!r}"
                widget = Input(placeholder=placeholder, compact=True, id=f"field-{parameter.name}")
            rows.append(Horizontal(Label(parameter.name, classes="field-label"), widget, classes="field", id=f"row-{parameter.name}"))
        await form.mount_all(rows)
        self._show_output(Content(""))
        self.result = None
        self.query_one("#insert", Button).disabled = True

    def _inputs(self) -> dict[str, Any]:
        """Field values as the calculator takes them: strings (``7.5B``, ``40%``) it parses itself."""
        name = self.query_one("#calculator-name", Select).value
        function = self.calculators[str(name)]
        inputs: dict[str, Any] = {}
        for parameter in inspect.signature(function).parameters.values():
            widgets = self.query(f"#field-{parameter.name}")
            if not widgets:
                continue
            widget = widgets.first()
            required = parameter.default is inspect.Parameter.empty
            if isinstance(widget, Select):
                value = None if widget.value is Select.NULL else str(widget.value)
                if value is not None and field_choices(function, parameter.name) == ["true", "false"]:
                    inputs[parameter.name] = value == "true"
                    continue
            else:
                value = widget.value.strip() or None
            if value is not None:
                inputs[parameter.name] = value
            elif required:
                inputs[parameter.name] = None  # the calculator answers "is required", naming the field
        return inputs

    def action_run(self) -> None:
        name = self.query_one("#calculator-name", Select).value
        if name is Select.NULL or name not in self.calculators:
            self.app.notify("Choose a calculator first.", severity="warning", timeout=2)
            return
        for row in self.query(".field.-invalid"):
            row.remove_class("-invalid")
        self._show_output(Content.from_markup("[dim]computing…[/dim]"))
        self.run_calculator(str(name), self._inputs())

    @work(thread=True, exclusive=True, group="calculator", exit_on_error=False)
    def run_calculator(self, name: str, inputs: dict[str, Any]) -> None:
        services = self.app.services
        try:
            result = services.run_calculator(name, **inputs)
        except ValueError as error:  # CalculatorInputError names the field
            self.app.call_from_thread(self._input_error, getattr(error, "field", None), str(error))
            return
        except Exception as error:
            self.app.call_from_thread(self._input_error, None, f"{type(error).__name__}: {error}")
            return
        try:
            shown = services.format_quantity(result.value, result.unit)
        except Exception:  # display only
            shown = f"{result.value:.6g} {result.unit}"
        self.app.call_from_thread(self._show_result, result, shown)

    def _input_error(self, field: str | None, message: str) -> None:
        self.result = None
        self.query_one("#insert", Button).disabled = True
        self._show_output(Content.from_markup("[$error]✘ $message[/]", message=message))
        if field:
            rows = self.query(f"#row-{field}")
            if rows:
                rows.first().add_class("-invalid")
                self.query_one(f"#field-{field}").focus()

    def _show_result(self, result: Any, shown: str) -> None:
        self.result = result
        self.result_text = shown
        lines = [Content.from_markup("[b $success]= $value[/]", value=shown)]
        lines.extend(Content.from_markup("[dim]  $line[/dim]", line=line) for line in result.working)
        if result.source:
            lines.append(Content.from_markup("[i]Source: $source[/i]", source=result.source))
        self._show_output(Content("\n").join(lines))
        self.query_one("#insert", Button).disabled = False

    def _show_output(self, content: Content) -> None:
        self.query_one("#calculator-output", Static).update(content)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_run()

    @on(Button.Pressed, "#run")
    def _run_pressed(self) -> None:
        self.action_run()

    @on(Button.Pressed, "#insert")
    def _insert_pressed(self) -> None:
        self.action_insert()

    @on(Button.Pressed, "#close")
    def _close_pressed(self) -> None:
        self.action_close()

    def action_insert(self) -> None:
        if self.result is None:
            self.app.notify("Run the calculator first (Enter).", severity="warning", timeout=2)
            return
        self.dismiss(self.result_text)

    def action_close(self) -> None:
        self.dismiss(None)
