"""History: every past interview, filterable by scenario and searchable by what was said,
with scores over time per scenario."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Header, Input, Select

from tui.widgets.interview_table import InterviewTable
from tui.widgets.key_footer import KeyFooter
from tui.widgets.mastery_line import MasteryLine
from tui.widgets.score_chart import POINTS_PER_SCENARIO, ScoreChart

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from interviewer.domain import InterviewRecord

SEARCH_DEBOUNCE_S = 0.2
ROWS_SHOWN = 200
"""Newest matching interviews listed; a table of 10,000 rows takes seconds to fill and nobody scrolls it."""
STATUS_CHOICES = [("Any status", "any"), ("Finished", "finished"), ("Unfinished", "active")]


class HistoryScreen(Screen):
    """Enter replays the highlighted interview; ``r`` resumes an unfinished one."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [
        Binding("escape", "back", "Back"),
        # Priority, so the keys typed right after "/" reach the search box (see HomeScreen).
        Binding("slash", "focus_search", "Search", key_display="/", priority=True),
        Binding("f", "focus_scenario_filter", "Scenario", priority=True),
        Binding("r", "resume", "Resume"),
        Binding("e", "export", "Export"),
        Binding("p", "toggle_chart", "Plot"),
        Binding("enter", "open", "Open", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._search_timer: Timer | None = None
        self._last_filters: tuple[str | None, str, str | None] | None = None
        """The filters of the last query; None until the screen has opened."""
        self.titles: dict[str, str] = {}
        """Scenario id → title, from what the store holds."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="history-filters"):
            yield Select([], prompt="All scenarios", compact=True, id="scenario-filter")
            yield Select(STATUS_CHOICES, value="any", allow_blank=False, compact=True, id="status-filter")
            yield Input(placeholder="/  search what was said, titles, scenario ids", compact=True, id="history-search")
        with Horizontal(id="history-main"):
            yield InterviewTable(id="history-table")
            yield ScoreChart(id="score-chart")
        yield MasteryLine(id="history-mastery")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "History"
        self.titles = dict(self.app.scenario_titles)
        self.query_one(InterviewTable).titles = self.titles
        self.query_one(InterviewTable).focus()
        self.load_scenario_options()

    def on_screen_resume(self) -> None:
        # Also sent when the screen is first pushed: this is the one place results load, so
        # they load once on opening (not once more from on_mount).
        self.refresh_results()

    # -- data ----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="history-options", exit_on_error=False)
    def load_scenario_options(self) -> None:
        """Scenario titles for the filter: the catalog the home screen loaded, plus any scenario
        that only the database still knows (a renamed or removed rubric)."""
        titles = dict(self.app.scenario_titles)
        store = self.app.store
        if store is not None:
            try:
                for scenario_id in store.scenario_stats():
                    titles.setdefault(scenario_id, scenario_id)
            except Exception as error:
                self.app.call_from_thread(self.app.notify_error, f"Cannot read the transcript database: {error}")
        self.app.call_from_thread(self._show_scenario_options, titles)

    def _show_scenario_options(self, titles: dict[str, str]) -> None:
        self.titles = titles
        self.query_one(InterviewTable).titles = titles
        options = sorted(((title, scenario_id) for scenario_id, title in titles.items()), key=lambda option: option[0].lower())
        with self.prevent(Select.Changed):  # the filter is unchanged: no need to query again
            self.query_one("#scenario-filter", Select).set_options(options)

    def _filters(self) -> tuple[str | None, str, str | None]:
        scenario = self.query_one("#scenario-filter", Select).value
        status = self.query_one("#status-filter", Select).value
        search = self.query_one("#history-search", Input).value
        return (
            None if scenario is Select.NULL else str(scenario),
            search,
            None if status in (Select.NULL, "any") else str(status),
        )

    def refresh_results(self) -> None:
        opening = self._last_filters is None
        filters = self._last_filters = self._filters()
        if not opening:
            self.query_history(*filters)
            return
        # Opening: the newest rows are a few milliseconds of SQLite, sooner on this thread than
        # through a worker that has to win the GIL back from the first frames.
        fetched = self._fetch(*filters)
        if fetched is not None:
            self._show_results(*fetched)

    @work(thread=True, exclusive=True, group="history-query", exit_on_error=False)
    def query_history(self, scenario_id: str | None, search: str, status: str | None) -> None:
        fetched = self._fetch(scenario_id, search, status)
        if fetched is not None:
            self.app.call_from_thread(self._show_results, *fetched)

    def _fetch(self, scenario_id: str | None, search: str, status: str | None) -> tuple[list, list, int] | None:
        """(records, score points, total), or None once the user is told what failed."""
        store = self.app.store
        if store is None:
            return [], [], 0
        from interviewer.domain import InterviewStatus

        try:
            # One more than is shown, to know whether there are more to narrow down to.
            records = store.list_interviews(
                scenario_id=scenario_id,
                search=search or None,
                status=InterviewStatus(status) if status else None,
                limit=ROWS_SHOWN + 1,
            )
            points = store.score_history(scenario_id, latest_per_scenario=POINTS_PER_SCENARIO)
            return records, points, store.count()
        except Exception as error:
            self.app.notify_error(f"Search failed: {error}")
            return None

    def _show_results(self, records: list[InterviewRecord], points: list, total: int) -> None:
        table = self.query_one(InterviewTable)
        more = len(records) > ROWS_SHOWN
        records = records[:ROWS_SHOWN]
        table.show(records)
        # The rows first; the plot (plotext is slow) on the next frame.
        self.call_after_refresh(self.query_one(ScoreChart).show_history, points, self.titles)
        self.sub_title = f"History · {total} interview{'s' if total != 1 else ''}"
        scenario_id, search, status = self._filters()
        count = len(records)
        matching = f" matching “{search.strip()}”" if search.strip() else ""
        if more:
            table.border_title = f"Newest {ROWS_SHOWN}{matching} · search or filter to narrow"
        elif count:
            table.border_title = f"{count} interview{'s' if count != 1 else ''}{matching} · Enter replays"
        elif scenario_id or search.strip() or status:
            table.border_title = f"No interview{matching or ' matches these filters'}"
        else:
            table.border_title = "No interviews yet: start one from the home screen"

    # -- events --------------------------------------------------------------------------------

    @on(Input.Changed, "#history-search")
    def _search_changed(self) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DEBOUNCE_S, self.refresh_results)

    @on(Input.Submitted, "#history-search")
    def _search_submitted(self) -> None:
        self.refresh_results()
        self.query_one(InterviewTable).focus()

    @on(Select.Changed)
    def _filter_changed(self) -> None:
        # The selects also post Changed as they mount, with the filters the screen opened with.
        if self._filters() != self._last_filters:
            self.refresh_results()

    @on(DataTable.RowSelected, "#history-table")
    def _row_chosen(self) -> None:
        self.action_open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Priority focus keys must not fire inside a text field: there "/" is a character
        # (Textual cannot tell that "slash" is printable, so it does not filter it out).
        if action in ("focus_search", "focus_scenario_filter") and isinstance(self.focused, Input):
            return False
        return True

    # -- actions -------------------------------------------------------------------------------

    def _highlighted(self) -> InterviewRecord | None:
        record = self.query_one(InterviewTable).highlighted_record
        if record is None:
            self.app.notify("No interview selected.", severity="warning", timeout=2)
        return record

    def action_open(self) -> None:
        record = self._highlighted()
        if record is not None:
            self.app.open_replay(record.id)

    def action_resume(self) -> None:
        record = self._highlighted()
        if record is None:
            return
        if record.status.value != "active":
            self.app.notify("That interview is finished: Enter replays it.", timeout=3)
            return
        self.app.resume_interview(record.id)

    def action_export(self) -> None:
        record = self._highlighted()
        if record is None:
            return
        full = self.app.load_record(record.id)
        if full is not None:
            self.app.export_record(full)

    def action_focus_search(self) -> None:
        self.set_focus(self.query_one("#history-search", Input))

    def action_focus_scenario_filter(self) -> None:
        self.set_focus(self.query_one("#scenario-filter", Select))

    def action_toggle_chart(self) -> None:
        chart = self.query_one(ScoreChart)
        chart.display = not chart.display

    def action_back(self) -> None:
        if isinstance(self.focused, Input | Select):
            self.set_focus(self.query_one(InterviewTable))
        else:
            self.app.pop_screen()

    def palette_commands(self) -> list[SystemCommand]:
        from textual.app import SystemCommand

        return [
            SystemCommand("Search history", "Search what was said in past interviews", self.action_focus_search),
            SystemCommand("Filter by scenario", "Show one scenario's interviews and scores", self.action_focus_scenario_filter),
            SystemCommand("Resume interview", "Continue the highlighted unfinished interview", self.action_resume),
            SystemCommand("Export interview", "Write the highlighted interview to a Markdown or JSON file", self.action_export),
        ]
