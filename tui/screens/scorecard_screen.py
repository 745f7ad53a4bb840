"""The scorecard, shown when an interview ends: the model answer is revealed here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Collapsible, Header

from tui.widgets.key_footer import KeyFooter
from tui.widgets.scorecard_view import ScorecardView

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from interviewer.domain import InterviewRecord, Scorecard


class ScorecardScreen(Screen):
    """Total, tiers, criteria with quoted evidence and notes to study, claims, model answer."""

    BINDINGS = [
        Binding("e", "export", "Export"),
        Binding("m", "toggle_model_answer", "Model answer"),
        Binding("n", "new_interview", "New interview"),
        Binding("h", "app.history", "History"),
        Binding("escape,q", "new_interview", "Home", show=False),
    ]

    def __init__(self, scorecard: Scorecard, record: InterviewRecord | None, *, target_level: str | None = None) -> None:
        super().__init__()
        self.scorecard = scorecard
        self.record = record
        """The stored interview, for export (None when the store was unavailable)."""
        self.target_level = target_level or (record.level if record else None)
        """The level the interview was run at, shown beside the estimated one."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield ScorecardView(self.scorecard, target_level=self.target_level, formatter=self.app.services.format_quantity, id="scorecard")
        yield KeyFooter()

    def on_mount(self) -> None:
        title = self.record.title if self.record and self.record.title else self.scorecard.scenario
        self.sub_title = f"Scorecard · {title}"
        self.query_one(ScorecardView).focus()

    def action_export(self) -> None:
        if self.record is None:
            self.app.notify_error("Nothing to export: this interview was not stored.")
            return
        record = self.record if self.record.scorecard else self.record.model_copy(update={"scorecard": self.scorecard})
        self.app.export_record(record)

    def action_toggle_model_answer(self) -> None:
        collapsible = self.query_one("#model-answer", Collapsible)
        collapsible.collapsed = not collapsible.collapsed
        if not collapsible.collapsed:
            self.query_one(ScorecardView).scroll_to_widget(collapsible, top=True)

    def action_new_interview(self) -> None:
        self.app.return_home()

    def palette_commands(self) -> list[SystemCommand]:
        from textual.app import SystemCommand

        return [
            SystemCommand("Export scorecard", "Write the transcript and scorecard to a Markdown or JSON file", self.action_export),
            SystemCommand("Show/hide model answer", "Toggle the model answer", self.action_toggle_model_answer),
        ]
