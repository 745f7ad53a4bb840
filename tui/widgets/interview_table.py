"""A table of stored interviews (recent ones on home, all of them in history)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from interviewer.display import status_label
from tui.widgets.scenario_table import _theme_colors, score_text

if TYPE_CHECKING:
    from interviewer.domain import InterviewRecord

NARROW_BELOW = 100
"""Narrower tables drop the mode column and the year, so the scenario title keeps its room."""


def when(record: InterviewRecord, *, short: bool = False) -> str:
    """Local date and time the interview started, to the minute."""
    return record.started_at.astimezone().strftime("%m-%d %H:%M" if short else "%Y-%m-%d %H:%M")


class InterviewTable(DataTable):
    """Rows keyed by interview id, newest first; columns fit the width."""

    BINDINGS = [Binding("enter", "select_cursor", "Open", tooltip="Open the highlighted interview")]

    def __init__(self, *, id: str | None = None, titles: dict[str, str] | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.records: list[InterviewRecord] = []
        self.titles = titles or {}
        """Scenario id → title, for friendlier rows."""
        self._width = -1

    def on_resize(self) -> None:
        if self.size.width != self._width:
            self._width = self.size.width
            self._build_columns()
            self._fill()

    @property
    def narrow(self) -> bool:
        return self._width < NARROW_BELOW

    def _build_columns(self) -> None:
        fixed = {"when": 11 if self.narrow else 16, "level": 6, "status": 10, "score": 5}
        if not self.narrow:
            fixed["mode"] = 7
        padding = 2 * (len(fixed) + 1) + 1
        scenario_width = max(12, self._width - sum(fixed.values()) - padding)
        self.clear(columns=True)
        self.add_column("Started", key="when", width=fixed["when"])
        self.add_column("Scenario", key="scenario", width=scenario_width)
        self.add_column("Target", key="level", width=fixed["level"])
        if not self.narrow:
            self.add_column("Mode", key="mode", width=fixed["mode"])
        self.add_column("Status", key="status", width=fixed["status"])
        self.add_column(Text("Score", justify="right"), key="score", width=fixed["score"])

    def show(self, records: list[InterviewRecord]) -> None:
        self.records = list(records)
        if self.columns:
            self._fill()

    def _fill(self) -> None:
        keep = self.highlighted_record
        self.clear()
        colors = _theme_colors(self)
        for record in self.records:
            status = str(record.status.value)
            cells = [
                when(record, short=self.narrow),
                self.titles.get(record.scenario_id, record.title or record.scenario_id),
                record.level,
            ]
            if not self.narrow:
                cells.append(record.mode.split(":")[0])
            cells += [
                Text(status_label(status), style="bold" if status == "active" else "dim"),
                score_text(record.score, colors),
            ]
            self.add_row(*cells, key=str(record.id))
        if keep is not None and str(keep.id) in self.rows:
            self.move_cursor(row=self.get_row_index(str(keep.id)))

    @property
    def highlighted_record(self) -> InterviewRecord | None:
        if self.row_count == 0:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except Exception:  # cursor outside the rows while the table refills
            return None
        return next((r for r in self.records if str(r.id) == key), None)
