"""Export an interview (transcript + scorecard) to a Markdown or JSON file the user names."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

if TYPE_CHECKING:
    from interviewer.domain import InterviewRecord

FORMATS: dict[str, tuple[str, str]] = {"md": ("Markdown report (.md)", ".md"), "json": ("JSON, everything stored (.json)", ".json")}
"""Format → (label in the picker, file extension)."""
SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".json": "json"}
"""A path ending in one of these picks its format."""


def default_export_path(record: InterviewRecord, fmt: str = "md") -> Path:
    return Path.cwd() / f"interview-{record.id}-{record.scenario_id}{FORMATS[fmt][1]}"


class ExportModal(ModalScreen[Path | None]):
    """Enter writes the file in the chosen format (the core renders it); Escape cancels.

    The format follows the file name's extension as it is typed (``.json`` picks JSON), and
    picking a format changes a ``.md``/``.json`` extension to match.
    """

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
        & #export-format-row { height: auto; margin: 0 0 1 0; }
        & #export-format-row Label { padding: 0 1 0 0; }
        & #export-format { width: 40; }
        & #export-buttons { height: auto; align-horizontal: right; }
        & Button { margin: 0 0 0 1; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, record: InterviewRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        with Vertical() as dialog:
            dialog.border_title = "Export interview"
            yield Label("Transcript and scorecard will be written to:")
            yield Input(str(default_export_path(self.record)), id="export-path")
            with Horizontal(id="export-format-row"):
                yield Label("Format")
                yield Select([(label, fmt) for fmt, (label, _) in FORMATS.items()], value="md", allow_blank=False, compact=True, id="export-format")
            with Horizontal(id="export-buttons"):
                yield Button("Cancel (Esc)", id="cancel", compact=True)
                yield Button("Export (Enter)", id="export", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @property
    def chosen_format(self) -> str:
        """``md`` or ``json``: what Export writes."""
        return str(self.query_one("#export-format", Select).value)

    @on(Input.Changed, "#export-path")
    def _format_from_extension(self, event: Input.Changed) -> None:
        fmt = SUFFIX_FORMATS.get(Path(event.value.strip()).suffix.lower())
        if fmt is not None and fmt != self.chosen_format:
            self.query_one("#export-format", Select).value = fmt

    @on(Select.Changed, "#export-format")
    def _extension_from_format(self, event: Select.Changed) -> None:
        path_input = self.query_one("#export-path", Input)
        path = Path(path_input.value.strip())
        if path.suffix.lower() in SUFFIX_FORMATS and SUFFIX_FORMATS[path.suffix.lower()] != event.value:
            path_input.value = str(path.with_suffix(FORMATS[str(event.value)][1]))

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export")
    def _export(self) -> None:
        text = self.query_one("#export-path", Input).value.strip()
        if not text:
            self.app.notify("Give a file name.", severity="warning", timeout=2)
            return
        self.write_export(Path(text).expanduser(), self.chosen_format)

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def write_export(self, path: Path, fmt: str) -> None:
        services = self.app.services
        # Written next to the target, then renamed: the file never exists half-written.
        partial = path.with_name(f".{path.name}.part")
        try:
            content = services.export_json(self.record) if fmt == "json" else services.export_markdown(self.record)
            path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_text(content, encoding="utf-8")
            os.replace(partial, path)
        except Exception as error:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            self.app.call_from_thread(self.app.notify_error, f"Export failed: {type(error).__name__}: {error}")
            return
        self.app.call_from_thread(self._done, path)

    def _done(self, path: Path) -> None:
        self.app.notify(f"Exported to {path}", title="Export", markup=False)
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
