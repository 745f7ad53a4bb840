"""The scenario list on the home screen: kind, topic tags, and your best and last score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from interviewer.display import format_score

if TYPE_CHECKING:
    from rubrics.schema import Scenario

ScoreStats = dict[str, tuple[float | None, float | None]]


def score_text(score: float | None, colors: dict[str, str] | None = None) -> Text:
    """A score out of 100 colored by band (≥80 good, ≥60 fair, else weak); ``—`` when none."""
    if score is None:
        return Text("—", style="dim", justify="right")
    colors = colors or {}
    band = "success" if score >= 80 else "warning" if score >= 60 else "error"
    return Text(format_score(score), style=colors.get(band, ""), justify="right")


def _label_text(scenario: Scenario) -> str:
    return " ".join([scenario.title, scenario.id, str(scenario.kind), *scenario.topics]).lower()


def _full_text(scenario: Scenario) -> str:
    return " ".join([_label_text(scenario), scenario.prompt, *scenario.given]).lower()


def matches(scenario: Scenario, query: str) -> bool:
    """Every word of the query appears in the title, id, kind, a topic, the prompt or a given fact."""
    haystack = _full_text(scenario)
    return all(word in haystack for word in query.lower().split())


def search(scenarios: list[Scenario], query: str) -> list[Scenario]:
    """The scenarios that match, those whose title, kind or topics hold every word first."""
    words = query.lower().split()
    found = [scenario for scenario in scenarios if matches(scenario, query)]
    return sorted(found, key=lambda scenario: not all(word in _label_text(scenario) for word in words))


class ScenarioTable(DataTable):
    """Rows keyed by scenario id; ``apply_filter`` narrows them to a search query."""

    BINDINGS = [Binding("enter", "select_cursor", "Start", tooltip="Start the highlighted scenario")]
    """Enter on a row starts it (the home screen handles ``RowSelected``); shown in the footer."""

    FIXED_WIDTHS = {"Kind": 7, "Best": 5, "Last": 5}
    TOPICS_MIN_TABLE_WIDTH = 96
    """Narrower than this, the topics column is left out (the preview and the search show them)
    and the title gets its room: a title wraps onto a second line rather than being cut."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.scenarios: list[Scenario] = []
        """Every loaded scenario, in file order."""
        self.stats: ScoreStats = {}
        """Per scenario id: (best score, last score)."""
        self.query_text = ""
        self._width = 0

    def on_mount(self) -> None:
        self._build_columns()

    def on_resize(self) -> None:
        if self.size.width != self._width:
            self._build_columns()
            self._fill()

    def _build_columns(self) -> None:
        self._width = self.size.width
        # Title and topics share what the fixed columns leave (2 cells of padding per column,
        # and one for the scrollbar gutter).
        with_topics = self._width >= self.TOPICS_MIN_TABLE_WIDTH
        columns = 5 if with_topics else 4
        flexible = max(self._width - sum(self.FIXED_WIDTHS.values()) - columns * 2 - 2, 20)
        title_width = max(20, int(flexible * 0.68)) if with_topics else flexible
        self.clear(columns=True)
        self.add_column("Scenario", width=title_width, key="title")
        self.add_column("Kind", width=self.FIXED_WIDTHS["Kind"], key="kind")
        if with_topics:
            self.add_column("Topics", width=max(10, flexible - title_width), key="topics")
        self.add_column(Text("Best", justify="right"), width=self.FIXED_WIDTHS["Best"], key="best")
        self.add_column(Text("Last", justify="right"), width=self.FIXED_WIDTHS["Last"], key="last")

    def set_catalog(self, scenarios: list[Scenario], stats: ScoreStats) -> None:
        self.scenarios = list(scenarios)
        self.stats = dict(stats)
        self._fill()

    def apply_filter(self, query: str) -> None:
        self.query_text = query
        self._fill()

    @property
    def shown_scenarios(self) -> list[Scenario]:
        return search(self.scenarios, self.query_text)

    def _fill(self) -> None:
        keep = self.highlighted_id
        self.clear()
        colors = _theme_colors(self)
        for scenario in self.shown_scenarios:
            best, last = self.stats.get(scenario.id, (None, None))
            cells = [Text(scenario.title), str(scenario.kind)]
            if "topics" in self.columns:
                cells.append(Text(" · ".join(scenario.topics), style="italic", overflow="ellipsis", no_wrap=True))
            cells += [score_text(best, colors), score_text(last, colors)]
            # height=None: a title longer than its column wraps onto a second line.
            self.add_row(*cells, key=scenario.id, height=None)
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep))

    @property
    def count_title(self) -> str:
        """"12 scenarios", or "1 of 12 scenarios" while a search narrows the list."""
        total = len(self.scenarios)
        noun = f"scenario{'s' if total != 1 else ''}"
        shown = len(self.shown_scenarios)
        return f"{shown} of {total} {noun}" if self.query_text.strip() else f"{total} {noun}"

    @property
    def highlighted_id(self) -> str | None:
        if self.row_count == 0:
            return None
        try:
            return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except Exception:  # cursor outside the rows while the table refills
            return None

    def highlighted_scenario(self) -> Scenario | None:
        scenario_id = self.highlighted_id
        return next((s for s in self.scenarios if s.id == scenario_id), None)


def _theme_colors(widget: DataTable) -> dict[str, str]:
    try:
        theme = widget.app.current_theme
    except Exception:  # not mounted yet
        return {}
    return {name: color for name in ("success", "warning", "error") if (color := getattr(theme, name, None))}
