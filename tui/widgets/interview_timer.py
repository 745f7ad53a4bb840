"""The interview clock: time left under a limit, else time elapsed."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


def format_clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class InterviewTimer(Widget):
    """Ticks once a second; turns amber with five minutes left and red at one.

    A fixed-width widget that only repaints itself: a ``Static.update`` every second would
    re-lay out the whole screen.
    """

    DEFAULT_CSS = """
    InterviewTimer {
        height: 1;
        width: 16;
        text-style: bold;
        content-align-horizontal: right;
        &.-low { color: $text-warning; }
        &.-critical { color: $text-error; }
        &.-stopped { color: $text-muted; }
    }
    """

    class TimeUp(Message):
        """The time limit ran out (posted once)."""

    running: reactive[bool] = reactive(True)
    """False once the interview is over: the clock stops where it was."""
    text: reactive[str] = reactive("")
    """What the clock shows (``◷ 12:34 left``)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        remaining: Callable[[], float | None] | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.clock = clock
        """Monotonic seconds (frozen in snapshot tests)."""
        self.remaining = remaining
        """The agent's ``remaining_seconds``: None means no limit."""
        self._started = clock()
        self._time_up_reported = False

    def render(self) -> str:
        return self.text

    def on_mount(self) -> None:
        self.tick()
        self.set_interval(1.0, self.tick)

    def watch_running(self, running: bool) -> None:
        self.set_class(not running, "-stopped")

    def tick(self) -> None:
        if not self.running:
            return
        left = self.remaining() if self.remaining is not None else None
        if left is None:
            self.text = f"◷ {format_clock(self.clock() - self._started)}"
            return
        self.text = f"◷ {format_clock(left)} left" if left > 0 else "◷ time is up"
        self.set_class(60 < left <= 300, "-low")
        self.set_class(left <= 60, "-critical")
        if left <= 0 and not self._time_up_reported:
            self._time_up_reported = True
            self.post_message(self.TimeUp())
