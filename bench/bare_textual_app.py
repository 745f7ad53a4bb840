"""The yardstick for launch time: the smallest Textual app that draws a bordered list.

``bench/tui_latency.py --bare`` launches this in tmux, in the same venv and terminal as the app,
and times it to the same kind of marker; the app's launch → scenario list is reported as a
ratio to it (issue #16: at most 2.0×).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

READY_TEXT = " bare rows ─"


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.border_title = READY_TEXT.strip(" ─")
        table.styles.border = ("round", "white")
        table.add_columns("Scenario", "Kind")
        table.add_rows([(f"row {index}", "design") for index in range(12)])


if __name__ == "__main__":
    BareApp().run()
