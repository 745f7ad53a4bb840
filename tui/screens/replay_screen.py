"""A past interview, read-only: its transcript and its scorecard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, Static, TabbedContent, TabPane

from interviewer.display import format_score, status_label
from tui.widgets.interview_table import when
from tui.widgets.key_footer import KeyFooter
from tui.widgets.scorecard_view import ScorecardView
from tui.widgets.transcript_view import TranscriptView

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from interviewer.domain import InterviewRecord


class ReplayScreen(Screen):
    """Replays a stored interview; ``r`` resumes it when it is unfinished."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("t", "show_tab('transcript')", "Transcript"),
        Binding("s", "show_tab('scorecard')", "Scorecard"),
        Binding("e", "export", "Export"),
        Binding("r", "resume", "Resume"),
    ]

    def __init__(self, record: InterviewRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        record = self.record
        yield Header()
        score = f" · {format_score(record.score)}/100" if record.score is not None else ""
        yield Static(
            f"#{record.id} · {record.title or record.scenario_id} · {when(record)} · target: {record.level} · {record.mode} · "
            f"{status_label(record.status)}{score}",
            id="replay-header",
            markup=False,
        )
        initial = "scorecard" if record.scorecard is not None else "transcript"
        with TabbedContent(initial=initial, id="replay-tabs"):
            with TabPane("Transcript", id="transcript"):
                yield TranscriptView(id="replay-transcript", formatter=self.app.services.format_quantity)
            with TabPane("Scorecard", id="scorecard"):
                if record.scorecard is not None:
                    yield ScorecardView(record.scorecard, target_level=record.level, formatter=self.app.services.format_quantity)
                else:
                    yield Static(
                        "This interview is unfinished, so it has no scorecard yet. Press r to resume it.",
                        classes="empty-message",
                    )
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.sub_title = "Replay (read-only)"
        transcript = self.query_one("#replay-transcript", TranscriptView)
        if self.record.turns:
            await transcript.add_turns(self.record.transcript())
        else:
            await transcript.add_notice("Nothing was said in this interview.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.record.status.value == "active"
        return True

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_export(self) -> None:
        self.app.export_record(self.record)

    def action_resume(self) -> None:
        if self.record.status.value != "active":
            self.app.notify("This interview is finished; start a new one from the home screen.", timeout=3)
            return
        self.app.resume_interview(self.record.id)

    def palette_commands(self) -> list[SystemCommand]:
        from textual.app import SystemCommand

        commands = [SystemCommand("Export interview", "Write this interview to a Markdown or JSON file", self.action_export)]
        if self.record.status.value == "active":
            commands.append(SystemCommand("Resume interview", "Continue where it stopped", self.action_resume))
        return commands
