"""A one-line "the interviewer is thinking" status with a spinner, for turns that take a while."""

from __future__ import annotations

import time

from textual.reactive import reactive
from textual.widget import Widget

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

SHOW_AFTER_S = 0.25
"""Fast turns (offline, warm embedder) finish before the spinner would flicker into view."""


class TurnStatus(Widget):
    """Hidden while idle; after ``SHOW_AFTER_S`` of a turn, a spinner with the seconds waited.

    It repaints itself ten times a second without touching the layout (no ``Static.update``),
    and changes the layout only when it appears or disappears.
    """

    DEFAULT_CSS = """
    TurnStatus {
        height: 1;
        color: $text-muted;
        padding: 0 1;
        display: none;
        &.-visible { display: block; }
    }
    """

    text: reactive[str] = reactive("")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Real time, not the app's (freezable) clock: this measures how long a turn is taking.
        self.clock = time.monotonic
        self.label = ""
        """What is happening ("The interviewer is thinking")."""
        self._since: float | None = None
        self._frame = 0

    def render(self) -> str:
        return self.text

    def on_mount(self) -> None:
        self._timer = self.set_interval(0.1, self._tick, pause=True)

    @property
    def busy(self) -> bool:
        return self._since is not None

    def begin(self, label: str) -> None:
        self.label = label
        self._since = self.clock()
        self._frame = 0
        self._timer.resume()

    def end(self) -> None:
        self._since = None
        self._timer.pause()
        if self.has_class("-visible"):
            self.remove_class("-visible")

    def _tick(self) -> None:
        if self._since is None:
            return
        waited = self.clock() - self._since
        if waited < SHOW_AFTER_S:
            return
        self._frame = (self._frame + 1) % len(SPINNER)
        self.text = f"{SPINNER[self._frame]} {self.label}… {waited:.1f} s"
        if not self.has_class("-visible"):
            self.add_class("-visible")
