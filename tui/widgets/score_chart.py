"""Scores over time, one line per scenario (plotext), so progress shows at a glance."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from textual.app import RenderResult
from textual_plotext import PlotextPlot

MAX_X_TICKS = 5
POINTS_PER_SCENARIO = 30
"""The latest scores of each scenario that are plotted: recent progress is what the chart is for."""
ScorePoint = tuple[str, datetime, float]


def x_ticks(stamps: list[datetime]) -> tuple[list[datetime], list[str]]:
    """At most ``MAX_X_TICKS`` ticks, none with the same label: days ("01 Dec"), or times of day
    ("09:30") when every score is from one day (six ticks all reading "01 Dec" said nothing)."""
    local = [stamp.astimezone() for stamp in stamps]
    one_day = len({stamp.date() for stamp in local}) <= 1
    label_format = "%H:%M" if one_day else "%d %b"
    firsts: dict[str, datetime] = {}
    for stamp, shown in zip(stamps, local, strict=True):
        firsts.setdefault(shown.strftime(label_format), stamp)
    labels = list(firsts)
    step = max(1, -(-len(labels) // MAX_X_TICKS))
    chosen = labels[::step]
    return [firsts[label] for label in chosen], chosen


class ScoreChart(PlotextPlot):
    """Plots ``TranscriptStore.score_history`` rows: (scenario id, finished at, score)."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 8; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.points: list[ScorePoint] = []
        self.titles: dict[str, str] = {}
        self._drawn = False

    def render(self) -> RenderResult:
        # Blank until the scores are in: building even an empty plotext figure takes ~0.1 s,
        # which the history screen's first frame (its rows) should not wait for.
        return super().render() if self._drawn else ""

    def show_history(self, points: list[ScorePoint], titles: dict[str, str] | None = None) -> None:
        points = sorted(points, key=lambda point: point[1])
        titles = titles or {}
        if points == self.points and titles == self.titles and self.points:
            return  # plotext is slow: a new text search does not change the scores
        self.points = points
        self.titles = titles
        self._draw()

    def _draw(self) -> None:
        self._drawn = True
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.ylim(0, 100)
        if not self.points:
            plt.title("Scores over time: no finished interviews yet")
            plt.xticks([], [])
            self.refresh()
            return
        plt.title("Scores over time")
        by_scenario: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for scenario_id, finished_at, score in self.points:
            by_scenario[scenario_id].append((finished_at.timestamp(), score))
        by_scenario = {scenario_id: series[-POINTS_PER_SCENARIO:] for scenario_id, series in by_scenario.items()}
        for scenario_id, series in by_scenario.items():
            xs = [x for x, _ in series]
            ys = [y for _, y in series]
            label = self.titles.get(scenario_id, scenario_id)
            plt.plot(xs, ys, marker="braille", label=label[:28])
            if len(series) <= 3:  # a lone braille dot is easy to miss
                plt.scatter(xs, ys, marker="●")
        shown = {x for series in by_scenario.values() for x, _ in series}
        stamps = sorted({point[1] for point in self.points if point[1].timestamp() in shown})
        ticks, labels = x_ticks(stamps)
        plt.xticks([t.timestamp() for t in ticks], labels)
        # Room above 100 for the legend (one row per line, top left), so it covers no point.
        plot_rows = max(self.size.height - 5, 4)
        legend_rows = min(len(by_scenario), plot_rows - 2)
        plt.ylim(0, 100 * plot_rows / max(plot_rows - legend_rows, 1))
        plt.yticks([0, 25, 50, 75, 100])
        self.refresh()

    def on_resize(self) -> None:
        # The legend's headroom depends on the height.
        if self._drawn and self.points:
            self._draw()
