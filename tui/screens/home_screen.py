"""Home: pick a scenario, a level, a mode and an optional time limit; recent interviews below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.validation import Number
from textual.widgets import DataTable, Header, Input, Label, Select, Static

from interviewer.display import format_score
from tui.colors import accent_text
from tui.widgets.interview_table import InterviewTable
from tui.widgets.key_footer import KeyFooter
from tui.widgets.mastery_line import MasteryLine
from tui.widgets.models_status import ModelsStatus
from tui.widgets.scenario_table import ScenarioTable

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from interviewer.config import Settings
    from interviewer.domain import InterviewRecord
    from rubrics.schema import Scenario

RECENT_LIMIT = 8
LEVELS = [("Senior", "senior"), ("Mid", "mid")]


class HomeScreen(Screen):
    """The first screen: everything needed to start an interview is one keypress away."""

    HORIZONTAL_BREAKPOINTS = [(0, "-tiny"), (76, "-narrow"), (110, "-wide")]
    """Below 76 columns the options row tightens (a shorter mode picker, no unit) to keep every control whole."""
    AUTO_FOCUS = "#scenarios"

    # The focus keys are priority bindings, so the key typed right after them already lands in
    # the new field (a plain binding runs only after the old focus has taken the next keys).
    # They never fire while a text field has focus: Textual leaves printable keys to it.
    BINDINGS = [
        Binding("enter", "start", "Start", tooltip="Start the highlighted scenario"),
        Binding("slash", "focus_search", "Search", key_display="/", priority=True),
        Binding("l", "toggle_level", "Level", tooltip="Switch between mid and senior"),
        Binding("m", "cycle_mode", "Mode", tooltip="Offline or the configured LLM"),
        Binding("t", "focus_time_limit", "Limit", tooltip="Set a time limit (minutes)", priority=True),
        Binding("r", "focus_recent", "Recent", show=False, tooltip="Jump to the recent interviews", priority=True),
        Binding("h", "app.history", "History", tooltip="All past interviews and your scores over time"),
        Binding("d", "app.drills", "Drill", show=False, tooltip="Practice drills: a topic or what to practise next"),
        Binding("n", "learn", "Learn", show=False, tooltip="Read the highlighted scenario step by step, with its notes and model answer"),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False),
        Binding("q", "app.quit", "Quit", show=False),
        Binding("escape", "focus_scenarios", "Back to list", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._scenarios: list[Scenario] | None = None

    def compose(self) -> ComposeResult:
        # None until the core is open (see InterviewerApp.core); apply_settings fills them in.
        settings = self.app.core.settings if self.app.core_is_open else None
        yield Header()
        with Horizontal(id="home-top"):
            yield Input(placeholder="/  search scenarios: title, topic, prompt or given facts", id="scenario-search", compact=True)
            yield ModelsStatus(id="models-status")
        with Horizontal(id="home-main"):
            with Vertical(id="scenario-pane"):
                yield ScenarioTable(id="scenarios")
                with Horizontal(id="interview-options"):
                    # Each label names its key, so a keypress that changes a control is no surprise.
                    yield Label("Level [b]l[/b]", classes="option-label -first")
                    yield Select(LEVELS, value="senior", allow_blank=False, compact=True, id="level")
                    yield Label("Mode [b]m[/b]", classes="option-label")
                    yield Select(self.app.mode_choices(settings), value=self._default_mode(settings), allow_blank=False, compact=True, id="mode")
                    yield Label("Limit [b]t[/b]", classes="option-label")
                    yield Input(
                        self._default_time_limit(settings),
                        placeholder="none",
                        type="number",
                        validators=[Number(minimum=1, maximum=600)],
                        compact=True,
                        id="time-limit",
                    )
                    yield Label("min", classes="option-unit")
            with VerticalScroll(id="scenario-preview"):
                # The prompt's Markdown widget is mounted with the first scenario: importing
                # the Markdown parser is not worth delaying the first paint for.
                yield Static("", id="preview-heading")
        yield Label("Recent interviews", id="recent-title")
        yield InterviewTable(id="recent")
        with Horizontal(id="home-modes"):
            yield Static("Interview ⏎ · Learn n · Drill d", id="modes-keys", markup=False)
            yield MasteryLine(id="home-mastery")
        yield KeyFooter()

    @staticmethod
    def _default_mode(settings: Settings | None) -> str:
        return "llm" if settings is not None and settings.llm_model else "offline"

    @staticmethod
    def _default_time_limit(settings: Settings | None) -> str:
        minutes = settings.time_limit_minutes if settings is not None else None
        return f"{minutes:g}" if minutes else ""

    def apply_settings(self, settings: Settings) -> None:
        """The options' defaults once the settings are read (after the first paint)."""
        mode = self.query_one("#mode", Select)
        mode.set_options(self.app.mode_choices(settings))
        mode.value = self._default_mode(settings)
        limit = self.query_one("#time-limit", Input)
        if not limit.value:
            limit.value = self._default_time_limit(settings)

    def on_mount(self) -> None:
        table = self.query_one(ScenarioTable)
        table.border_title = "Loading scenarios…"
        table.focus()
        # After the first paint: parsing the scenario files holds the GIL for a while.
        self.call_after_refresh(self.load_catalog)

    def on_screen_resume(self) -> None:
        # Coming back from an interview or history: scores and the recent list have changed.
        # The first resume comes with the first mount, whose own load is already under way: a
        # second one there validated every file twice and raced the first for the list.
        if self.is_mounted and self._scenarios is not None:
            self.load_catalog()
            self.query_one(MasteryLine).reload()

    # -- data ----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="home-catalog", exit_on_error=False)
    def load_catalog(self) -> None:
        """Scenarios (YAML + validation) and the store's stats, off the UI thread."""
        app = self.app
        problems: list[str] = []
        scenarios: list[Scenario] = self._scenarios or []
        if self._scenarios is None and not app.core_is_open:
            # At launch (the core opens lazily, with the default services): the list first, from
            # the last validation when no file changed (a file read), else validated now; the
            # settings and the store (about 0.3 s) are opened after it, for scores and recents.
            from tui.services import cached_catalog, shipped_scenarios

            cached = cached_catalog()
            if cached:
                app.call_from_thread(self._show_catalog, cached, {}, [], [], partial=True)
            else:
                try:
                    scenarios, errors = shipped_scenarios()
                    problems.extend(str(error) for error in errors)
                except Exception as error:  # a broken rubric must never take the home screen down
                    problems.append(f"{type(error).__name__}: {error}")
                self._scenarios = scenarios
                app.call_from_thread(self._show_catalog, scenarios, {}, [], [], partial=True)
        if self._scenarios is None:
            # Scenarios do not change while the app runs: parse and validate them once.
            try:
                scenarios, errors = app.services.load_scenarios()
                problems.extend(str(error) for error in errors)
            except Exception as error:  # a broken rubric must never take the home screen down
                problems.append(f"{type(error).__name__}: {error}")
            self._scenarios = scenarios
        stats: dict = {}
        recent: list[InterviewRecord] = []
        if app.store is not None:
            try:
                stats = app.store.scenario_stats()
                recent = app.store.list_interviews(limit=RECENT_LIMIT)
            except Exception as error:
                problems.append(f"Cannot read the transcript database: {error}")
        # Not the local list: a second load (the screen resumed) may have filled the catalog
        # while this one skipped loading it, and its early empty default would blank the list.
        app.call_from_thread(self._show_catalog, self._scenarios or [], stats, recent, problems)

    def _show_catalog(
        self, scenarios: list[Scenario], stats: dict, recent: list[InterviewRecord], problems: list[str], *, partial: bool = False
    ) -> None:
        """Fill the list; ``partial``: from the cache, before the scores and recent interviews are read."""
        table = self.query_one(ScenarioTable)
        table.set_catalog(scenarios, stats)
        table.border_title = table.count_title
        self.app.scenario_titles = {scenario.id: scenario.title for scenario in scenarios}
        if partial:
            self._update_preview()
            self.app.start_warm_up()
            return
        recent_table = self.query_one(InterviewTable)
        recent_table.titles = dict(self.app.scenario_titles)
        recent_table.show(recent)
        self.query_one("#recent-title", Label).update(
            f"Recent interviews ({len(recent)})" if recent else "Recent interviews: none yet, pick a scenario and press Enter"
        )
        self._update_preview()
        self.app.start_warm_up()
        if problems:
            shown = "\n".join(problems[:6]) + (f"\n… and {len(problems) - 6} more" if len(problems) > 6 else "")
            self.app.notify_error(f"Some scenario files could not be loaded:\n{shown}", title="Rubrics")

    # -- events --------------------------------------------------------------------------------

    @on(Input.Changed, "#scenario-search")
    def _filter(self, event: Input.Changed) -> None:
        table = self.query_one(ScenarioTable)
        table.apply_filter(event.value)
        table.border_title = table.count_title
        self._update_preview()

    @on(Input.Submitted, "#scenario-search")
    def _search_submitted(self) -> None:
        self.action_start()

    @on(Input.Submitted, "#time-limit")
    def _time_limit_submitted(self) -> None:
        """Enter sets the limit and goes back to the list: starting is the list's Enter, not this one."""
        ok, minutes = self._time_limit()
        if not ok:
            return
        shown = f"{minutes:g} min" if minutes else "none"
        self.app.notify(f"Time limit: {shown}. Enter on a scenario starts it.", timeout=3)
        self.action_focus_scenarios()

    @on(DataTable.RowSelected, "#scenarios")
    def _scenario_chosen(self) -> None:
        self.action_start()

    @on(DataTable.RowHighlighted, "#scenarios")
    def _scenario_highlighted(self) -> None:
        self._update_preview()

    @on(DataTable.RowSelected, "#recent")
    def _recent_chosen(self) -> None:
        record = self.query_one(InterviewTable).highlighted_record
        if record is None:
            return
        if record.status.value == "active":
            self.app.resume_interview(record.id)
        else:
            self.app.open_replay(record.id)

    def _update_preview(self) -> None:
        table = self.query_one(ScenarioTable)
        scenario = table.highlighted_scenario()
        heading = self.query_one("#preview-heading", Static)
        if scenario is None:
            heading.update(Content.from_markup("[dim]No scenario matches the search.[/dim]"))
            self._show_prompt("")
            return
        best, last = table.stats.get(scenario.id, (None, None))
        lines = [
            Content.from_markup("[b]$title[/b]", title=scenario.title),
            Content.from_markup(
                "[dim]$kind · $steps steps · $criteria criteria[/dim]",
                kind=str(scenario.kind),
                steps=str(len(scenario.steps)),
                criteria=str(len(scenario.criteria)),
            ),
            Content.from_markup(f"[{accent_text(self.app)}]$topics[/]", topics=" · ".join(scenario.topics)),
        ]
        if best is not None and last is not None:
            lines.append(Content.from_markup("Best [b]$best[/b] · last [b]$last[/b]", best=format_score(best), last=format_score(last)))
        heading.update(Content("\n").join(lines))
        given = "".join(f"\n- {fact}" for fact in scenario.given)
        self._show_prompt(scenario.prompt.strip() + (f"\n\n**Given**\n{given}" if given else ""))

    def _show_prompt(self, text: str) -> None:
        from textual.widgets import Markdown

        found = self.query("#preview-prompt")
        if found:
            preview = found.first(Markdown)
            # Each keystroke in the search re-filters; re-rendering the same prompt would queue
            # Markdown updates that are still running when the interview screen opens.
            if preview.source != text:
                preview.update(text)
        else:
            self.query_one("#scenario-preview").mount(Markdown(text, id="preview-prompt"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Priority focus keys must not fire inside a text field: there "/" is a character
        # (Textual cannot tell that "slash" is printable, so it does not filter it out).
        if action in ("focus_search", "focus_time_limit", "focus_recent") and isinstance(self.focused, Input):
            return False
        return True

    # -- actions -------------------------------------------------------------------------------

    def _time_limit(self) -> tuple[bool, float | None]:
        field = self.query_one("#time-limit", Input)
        text = field.value.strip()
        if not text:
            return True, None
        result = field.validate(text)
        if result is not None and not result.is_valid:
            self.app.notify("The time limit is in minutes, between 1 and 600 (or empty for none).", severity="warning")
            field.focus()
            return False, None
        return True, float(text)

    def action_start(self) -> None:
        scenario_id = self.query_one(ScenarioTable).highlighted_id
        if scenario_id is None:
            self.app.notify("No scenario to start: clear the search or check the rubric files.", severity="warning")
            return
        ok, minutes = self._time_limit()
        if not ok:
            return
        level = self.query_one("#level", Select).value
        mode = self.query_one("#mode", Select).value
        self.app.start_interview(scenario_id, level=str(level), mode=str(mode), time_limit_minutes=minutes)

    def action_learn(self) -> None:
        scenario = self.query_one(ScenarioTable).highlighted_scenario()
        if scenario is None:
            self.app.notify("No scenario to learn from: clear the search.", severity="warning")
            return
        self.app.open_learn(scenario)

    def action_focus_search(self) -> None:
        self.set_focus(self.query_one("#scenario-search", Input))

    def action_focus_scenarios(self) -> None:
        """Escape: back to the list; from the search box (or with a search typed), clear the search too."""
        search = self.query_one("#scenario-search", Input)
        if search.value and (self.focused is search or isinstance(self.focused, ScenarioTable)):
            search.value = ""  # Input.Changed refills the list
        self.set_focus(self.query_one(ScenarioTable))

    def action_focus_recent(self) -> None:
        self.set_focus(self.query_one(InterviewTable))

    def action_focus_time_limit(self) -> None:
        self.set_focus(self.query_one("#time-limit", Input))

    def action_toggle_level(self) -> None:
        select = self.query_one("#level", Select)
        select.value = "mid" if select.value == "senior" else "senior"
        self._flash(select)
        self.app.notify(f"Level: {select.value} (l switches it back)", timeout=3)

    def _flash(self, widget: Select) -> None:
        """Highlight a control a key just changed, so the change is seen where it happened."""
        widget.add_class("-changed")
        self.set_timer(1.2, lambda: widget.remove_class("-changed"))

    def action_cycle_mode(self) -> None:
        select = self.query_one("#mode", Select)
        modes = [mode for _, mode in self.app.mode_choices(self.app.settings)]
        if len(modes) < 2:
            self.app.notify("Only offline mode: set llm_model in the config to add an LLM interviewer.", timeout=3)
            return
        select.value = modes[(modes.index(select.value) + 1) % len(modes)]
        self._flash(select)

    def palette_commands(self) -> list[SystemCommand]:
        from textual.app import SystemCommand

        return [
            SystemCommand("Start interview", "Start the highlighted scenario", self.action_start),
            SystemCommand("Search scenarios", "Filter the scenario list", self.action_focus_search),
            SystemCommand("Toggle level", "Switch between mid and senior", self.action_toggle_level),
        ]
