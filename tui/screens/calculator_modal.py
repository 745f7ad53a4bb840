"""The scratch calculator: run any calculator from a small form without leaving the interview.

The form is built from each calculator's signature (``inspect.signature``), so a new
calculator shows up here with no UI change, and a field left empty takes the signature's
default, as ``interviewer calc`` does. Calculators import torch, so they load and run in a
thread worker. The form starts on the calculator used last, with the scenario's given facts
filled in.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
    """The docstring's first paragraph as plain text (reST ``code`` marks dropped)."""
    text = (inspect.cleandoc(doc).split("\n\n")[0].replace("\n", " ") if doc else "").strip()
    return re.sub(r"`+([^`]*)`+", r"\1", text)


def default_text(default: Any) -> str:
    """What an empty optional field means, in the user's words rather than Python's."""
    if default is None:
        return "optional"
    if isinstance(default, bool):
        return f"default {'true' if default else 'false'}"
    if isinstance(default, float) and default.is_integer():
        return f"default {int(default)}"
    return f"default {default}"


FACT_INPUTS = {"model": "preset"}
"""A scenario fact that feeds a calculator input of another name (``model: llama-2-7b`` → preset)."""
UNPREFILLED_FACTS = {"tokens"}
"""Facts the candidate is meant to work out (a compute-optimal token count), never filled in."""


def _number_spellings(value: float) -> set[str]:
    number = int(value) if float(value).is_integer() else value
    spellings = {f"{number}", f"{number:,}"}
    for scale, suffix in ((1e12, "t"), (1e9, "b"), (1e6, "m"), (1e3, "k")):
        if abs(value) >= scale:
            spellings.add(f"{value / scale:g}{suffix}")
            spellings.add(f"{value / scale:g} {suffix}")
            break
    if isinstance(number, float) and number < 1:
        spellings.add(f"{number * 1000:g} ms")
    return spellings


def _compact_number(value: float) -> str:
    """``10B`` for 10,000,000,000 (the calculators read that spelling); plain digits below a million."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(value) >= scale and float(f"{value / scale:g}") * scale == value:
            return f"{value / scale:g}{suffix}"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def given_inputs(scenario: Any) -> dict[str, str]:
    """Calculator inputs from the scenario's facts that its prompt and given facts state.

    Only what the candidate can read: a fact whose value is not in the visible text (the token
    count a question asks for) is left out, and so is the GPU when the text names several to
    choose from.
    """
    text = " ".join([str(scenario.prompt), *map(str, scenario.given)]).lower()
    inputs: dict[str, str] = {}
    for fact, value in dict(scenario.facts).items():
        if fact in UNPREFILLED_FACTS:
            continue
        if isinstance(value, str):
            if value.lower() not in text:
                continue
            shown = value
        else:
            if not any(re.search(rf"(?<![\d.,]){re.escape(spelling)}(?![\d])", text) for spelling in _number_spellings(float(value))):
                continue
            shown = _compact_number(value)
        inputs[FACT_INPUTS.get(fact, fact)] = shown
    if "gpu" in inputs and _gpus_named(text) > 1:
        del inputs["gpu"]
    return inputs


def _gpus_named(text: str) -> int:
    from interviewer.tools.hardware import GPUS

    return sum(1 for name in GPUS if name.lower() in text)


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


@dataclass
class CalculatorMemory:
    """What the scratch calculator keeps between openings, for the app's whole session."""

    last_used: str | None = None
    """The calculator chosen last: the dialog reopens on it."""
    typed: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per calculator, the values typed last time that differ from the scenario's given ones."""


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
        & .field.-invalid .field-label { color: $text-error; text-style: bold; }
        & #calculator-result { height: auto; max-height: 8; margin: 1 0 0 0; border-top: solid $foreground 20%; }
        & #calculator-buttons { height: auto; align-horizontal: right; margin: 1 0 0 0; }
        & Button { margin: 0 0 0 1; min-width: 10; }
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "insert", "Insert result"),
        Binding("ctrl+r", "run", "Run", key_display="Enter / Ctrl+R", tooltip="Run (Enter in a field, Ctrl+R anywhere)"),
    ]

    def __init__(self, given: Mapping[str, str] | None = None, memory: CalculatorMemory | None = None) -> None:
        """``given``: input name → value from the scenario's given facts (``given_inputs``);
        ``memory``: what the dialog remembers between openings (the app keeps one)."""
        super().__init__()
        self.given = dict(given or {})
        self.memory = memory if memory is not None else CalculatorMemory()
        self._form_name: str | None = None
        self.calculators: Mapping[str, Callable[..., Any]] = {}
        self.result: Any = None
        """The last CalcResult (its value goes into the answer on Ctrl+S)."""
        self.result_text = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="calculator-dialog") as dialog:
            dialog.border_title = "Scratch calculator"
            dialog.border_subtitle = "Enter / Ctrl+R run · Ctrl+S insert into answer · Esc close"
            yield Select([], prompt="Loading calculators…", compact=True, id="calculator-name")
            yield Static("", id="calculator-help")
            # Not focus stops: Tab from the calculator goes straight to its first field (an
            # invisible stop in between swallowed the first value typed).
            yield VerticalScroll(id="calculator-form", can_focus=False)
            yield VerticalScroll(Static("", id="calculator-output"), id="calculator-result", can_focus=False)
            with Horizontal(id="calculator-buttons"):
                yield Button("Close (Esc)", id="close", compact=True)
                yield Button("Insert (Ctrl+S)", id="insert", disabled=True, compact=True)
                yield Button("Run (Enter / Ctrl+R)", id="run", variant="primary", compact=True)

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
            last = self.memory.last_used
            select.value = last if last in calculators else sorted(calculators)[0]
            select.focus()

    @on(Select.Changed, "#calculator-name")
    async def _calculator_chosen(self, event: Select.Changed) -> None:
        if event.value is Select.NULL or event.value not in self.calculators:
            return
        self._remember_inputs()
        self.memory.last_used = str(event.value)
        await self._build_form(str(event.value))

    async def _build_form(self, name: str) -> None:
        function = self.calculators[name]
        self.query_one("#calculator-help", Static).update(Content(first_line(function.__doc__)))
        form = self.query_one("#calculator-form", VerticalScroll)
        await form.remove_children()
        self._form_name = name
        typed = self.memory.typed.get(name, {})
        prefilled = []
        rows = []
        for parameter in inspect.signature(function).parameters.values():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            required = parameter.default is inspect.Parameter.empty
            choices = field_choices(function, parameter.name)
            # What was typed last time wins over the scenario's value, which wins over the default.
            start = typed.get(parameter.name) or self.given.get(parameter.name)
            if parameter.name in self.given and parameter.name not in typed:
                prefilled.append(parameter.name)
            if choices:
                default = NOT_SET if required else str(parameter.default)
                if isinstance(parameter.default, bool):
                    default = default.lower()
                if start is not None and start in choices:
                    default = start
                options = [(choice, choice) for choice in choices]
                widget = Select(
                    options,
                    value=default if default in choices else Select.NULL,
                    allow_blank=required or default not in choices,
                    compact=True,
                    id=f"field-{parameter.name}",
                )
            else:
                placeholder = "required" if required else default_text(parameter.default)
                widget = Input(start or "", placeholder=placeholder, compact=True, id=f"field-{parameter.name}")
            rows.append(Horizontal(Label(parameter.name, classes="field-label"), widget, classes="field", id=f"row-{parameter.name}"))
        await form.mount_all(rows)
        if prefilled:
            self._show_output(Content.from_markup("[dim]From the scenario's given facts: $names[/dim]", names=", ".join(prefilled)))
        else:
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
        self._show_output(Content.from_markup("[$text-error]✘ $message[/]", message=message))
        if field:
            rows = self.query(f"#row-{field}")
            if rows:
                rows.first().add_class("-invalid")
                self.query_one(f"#field-{field}").focus()

    def _show_result(self, result: Any, shown: str) -> None:
        self.result = result
        self.result_text = shown
        lines = [Content.from_markup("[b $text-success]= $value[/]", value=shown)]
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
            self.app.notify("Run the calculator first (Enter or Ctrl+R).", severity="warning", timeout=2)
            return
        self._remember_inputs()
        self.dismiss(self.result_text)

    def _remember_inputs(self) -> None:
        """Keep what is typed in the form on screen for the next time its calculator is open."""
        if self._form_name is None:
            return
        values = {}
        for widget in self.query("#calculator-form Input"):
            name, value = (widget.id or "").removeprefix("field-"), widget.value.strip()
            if value and value != self.given.get(name):
                values[name] = value
        self.memory.typed[self._form_name] = values

    def action_close(self) -> None:
        self._remember_inputs()
        self.dismiss(None)
