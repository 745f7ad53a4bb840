"""The multi-line answer editor: Enter adds a line, Ctrl+S (or Ctrl+J) sends."""

from __future__ import annotations

from textual.widgets import TextArea

SEND_KEYS_HINT = "Ctrl+S send · Enter new line"
BUSY_HINT = "the interviewer is replying · keep typing"
"""Shown on the editor's border: most terminals cannot tell Ctrl+Enter from Enter, so the
send key is one that every terminal (and tmux) passes through unchanged."""


class AnswerEditor(TextArea):
    """A soft-wrapping TextArea whose text the screen takes when the candidate sends it."""

    DEFAULT_CSS = """
    AnswerEditor {
        height: 8;
        min-height: 4;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            "",
            id=id,
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            placeholder="Type your answer. Enter adds a new line; Ctrl+S sends it.",
        )
        self.border_title = "Your answer"
        self.border_subtitle = SEND_KEYS_HINT

    def show_busy(self, busy: bool) -> None:
        """Say on the border whether Ctrl+S can send right now."""
        if not self.read_only:
            self.border_subtitle = BUSY_HINT if busy else SEND_KEYS_HINT

    def take_text(self) -> str:
        """The answer to send (stripped), clearing the editor."""
        text = self.text.strip()
        if text:
            self.clear()
        return text

    def restore(self, text: str) -> None:
        """Put back an answer that could not be sent, keeping anything typed since."""
        current = self.text.strip()
        self.text = f"{text}\n\n{current}" if current else text
        self.move_cursor(self.document.end)

    def insert_snippet(self, snippet: str) -> None:
        """Insert at the cursor (the scratch calculator's result)."""
        self.insert(snippet)
