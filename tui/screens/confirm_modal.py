"""A yes/no question; ``dismiss`` returns True only for an explicit yes."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ConfirmationModal(ModalScreen[bool]):
    """Enter or ``y`` confirms; Escape or ``n`` cancels."""

    DEFAULT_CSS = """
    ConfirmationModal {
        align: center middle;
        & > Vertical {
            width: 56;
            max-width: 90%;
            height: auto;
            border: thick $primary 60%;
            background: $surface;
            padding: 1 2;
        }
        & #question { width: 1fr; margin: 0 0 1 0; }
        & Horizontal { height: auto; align-horizontal: right; }
        & Button { margin: 0 0 0 1; }
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", show=False),
        Binding("n,escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, *, confirm: str = "Yes", cancel: str = "Cancel") -> None:
        super().__init__()
        self.question = question
        self.confirm_label = confirm
        self.cancel_label = cancel

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, id="question", markup=False)
            with Horizontal():
                yield Button(f"{self.cancel_label} (Esc)", id="cancel", compact=True)
                yield Button(f"{self.confirm_label} (Enter)", id="confirm", variant="error", compact=True)

    def on_mount(self) -> None:
        self.query_one("#confirm", Button).focus()

    @on(Button.Pressed, "#confirm")
    def _confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
