"""One line of mastery per topic (from drills and interviews), loaded off the UI thread."""

from __future__ import annotations

from textual import work
from textual.widgets import Static


class MasteryLine(Static):
    """``Mastery: 2 strong · 1 fair · 9 unknown · next: serve-2b-p99``; call ``reload`` after drills."""

    DEFAULT_CSS = """
    MasteryLine {
        height: 1;
        color: $text-muted;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Mastery: …", markup=False, id=id)
        self._loading = False
        self._stale = False

    def on_mount(self) -> None:
        # After the first paint: loading the drill files (~0.5 s cold) holds the GIL.
        self.call_after_refresh(self.reload)

    def reload(self) -> None:
        """Read mastery again. Not an exclusive worker: cancelling a load in flight would surface as
        a cancelled worker to whoever waits for the app's workers; a second request during a load
        runs once more after it instead."""
        if self._loading:
            self._stale = True
            return
        self._loading = True
        self._load()

    @work(thread=True, group="mastery-line", exit_on_error=False)
    def _load(self) -> None:
        from interviewer.drills.progress import overview_line

        try:
            text = overview_line(self.app.store)
        except Exception as error:  # a broken drill file must not take a screen down
            text = f"Mastery: unavailable ({type(error).__name__}: {error})"
        self.app.call_from_thread(self._show, text)

    def _show(self, text: str) -> None:
        self._loading = False
        self.update(text)
        if self._stale:
            self._stale = False
            self.reload()
