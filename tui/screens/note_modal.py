"""The candidate's own note on the current question: Ctrl+S saves it, Esc closes without saving.

A modal of its own, so the answer being typed stays in the answer editor untouched."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea


class NoteModal(ModalScreen[str | None]):
    """Dismisses with the note's text (blank: delete the note), or None when cancelled."""

    DEFAULT_CSS = """
    NoteModal {
        align: center middle;
        & > Vertical {
            width: 72;
            max-width: 95%;
            height: auto;
            border: thick $secondary 60%;
            background: $surface;
            padding: 0 1;
        }
        & #note-help { color: $text-muted; margin: 0 0 1 0; }
        & #note-text { height: 8; }
    }
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save note"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, question: str, text: str = "", *, on_abandoned: Callable[[str], None] | None = None) -> None:
        """``on_abandoned`` gets the typed text when the modal goes away without Ctrl+S or Esc (the
        interview ended under it and the app switched to the scorecard), so the note is not lost."""
        super().__init__()
        self.question = question
        self.initial_text = text
        self.on_abandoned = on_abandoned
        self._note_closed = False
        self._typed = text

    def compose(self) -> ComposeResult:
        with Vertical(id="note-frame") as frame:
            frame.border_title = "Your note"
            frame.border_subtitle = "Ctrl+S save · Esc cancel"
            yield Label(f"{self.question}\nKept with this question for the replay and the export; never graded.", id="note-help", markup=False)
            yield TextArea(self.initial_text, id="note-text", soft_wrap=True, tab_behavior="focus", show_line_numbers=False,
                           placeholder="Anything you want to remember about this question.")

    def on_mount(self) -> None:
        editor = self.query_one("#note-text", TextArea)
        editor.move_cursor(editor.document.end)
        editor.focus()

    def action_save(self) -> None:
        self._note_closed = True
        self.dismiss(self.query_one("#note-text", TextArea).text)

    def action_cancel(self) -> None:
        self._note_closed = True
        self.dismiss(None)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._typed = event.text_area.text

    def on_unmount(self) -> None:
        if not self._note_closed and self.on_abandoned is not None and self._typed != self.initial_text:
            self.on_abandoned(self._typed)
