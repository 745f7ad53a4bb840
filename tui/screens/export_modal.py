"""Export an interview (transcript + scorecard) to a Markdown file the user names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

if TYPE_CHECKING:
    from interviewer.domain import InterviewRecord


def default_export_path(record: InterviewRecord) -> Path:
    return Path.cwd() / f"interview-{record.id}-{record.scenario_id}.md"


class ExportModal(ModalScreen[Path | None]):
    """Enter writes the file (the core renders the Markdown); Escape cancels."""

    DEFAULT_CSS = """
    ExportModal {
        align: center middle;
        & > Vertical {
            width: 76;
            max-width: 100%;
            height: auto;
            border: thick $primary 60%;
            background: $surface;
            padding: 1 2;
        }
        & #export-path { margin: 1 0; }
        & Horizontal { height: auto; align-horizontal: right; }
        & Button { margin: 0 0 0 1; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, record: InterviewRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        with Vertical() as dialog:
            dialog.border_title = "Export to Markdown"
            yield Label("Transcript and scorecard will be written to:")
            yield Input(str(default_export_path(self.record)), id="export-path")
            with Horizontal():
                yield Button("Cancel (Esc)", id="cancel", compact=True)
                yield Button("Export (Enter)", id="export", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export")
    def _export(self) -> None:
        text = self.query_one("#export-path", Input).value.strip()
        if not text:
            self.app.notify("Give a file name.", severity="warning", timeout=2)
            return
        self.write_export(Path(text).expanduser())

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def write_export(self, path: Path) -> None:
        try:
            markdown = self.app.services.export_markdown(self.record)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(markdown, encoding="utf-8")
        except Exception as error:
            self.app.call_from_thread(self.app.notify_error, f"Export failed: {type(error).__name__}: {error}")
            return
        self.app.call_from_thread(self._done, path)

    def _done(self, path: Path) -> None:
        self.app.notify(f"Exported to {path}", title="Export", markup=False)
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
