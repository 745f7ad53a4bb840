"""Where the interview is: the current step, progress through the steps and criteria covered."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Label, ProgressBar, Static

from tui.colors import accent_text


class StepProgress(Vertical):
    """Steps done ✔, the current one ▶ with its question, the ones to come ○."""

    DEFAULT_CSS = """
    StepProgress {
        height: auto;
        & #step-heading { text-style: bold; }
        & ProgressBar { margin: 0 0 1 0; }
        & #step-list { height: auto; }
        & #criteria-heading { margin: 1 0 0 0; color: $text-muted; }
    }
    """

    step_index: reactive[int] = reactive(0)
    """0-based index of the current step (== number of steps when finished)."""
    covered: reactive[int] = reactive(0)
    """Criteria the candidate has given evidence for so far."""

    def __init__(self, step_titles: list[str], *, criteria_total: int = 0, id: str | None = None) -> None:
        super().__init__(id=id)
        self.step_titles = step_titles
        """Each step's ``title`` from the rubric, in order."""
        self.criteria_total = criteria_total

    def compose(self) -> ComposeResult:
        yield Label("", id="step-heading")
        yield ProgressBar(total=max(len(self.step_titles), 1), show_eta=False, show_percentage=False, id="step-bar")
        yield Static("", id="step-list")
        yield Label("", id="criteria-heading")
        yield ProgressBar(total=max(self.criteria_total, 1), show_eta=False, show_percentage=False, id="criteria-bar")

    def on_mount(self) -> None:
        self._render_steps()

    def watch_step_index(self) -> None:
        if self.is_mounted:
            self._render_steps()

    def watch_covered(self) -> None:
        if self.is_mounted:
            self._render_steps()

    def _render_steps(self) -> None:
        total = len(self.step_titles)
        index = min(self.step_index, total)
        heading = "All steps done" if index >= total else f"Step {index + 1} of {total}"
        self.query_one("#step-heading", Label).update(heading)
        self.query_one("#step-bar", ProgressBar).update(progress=index)
        lines = []
        for position, name in enumerate(self.step_titles):
            if position < index:
                lines.append(Content.from_markup("[$text-success]✔[/] [dim]$name[/dim]", name=name))
            elif position == index:
                lines.append(Content.from_markup(f"[{accent_text(self.app)}]▶[/] [b]$name[/b]", name=name))
            else:
                lines.append(Content.from_markup("[dim]○ $name[/dim]", name=name))
        self.query_one("#step-list", Static).update(Content("\n").join(lines))
        criteria = self.query_one("#criteria-heading", Label)
        criteria.update(f"Criteria covered {self.covered}/{self.criteria_total}")
        self.query_one("#criteria-bar", ProgressBar).update(total=max(self.criteria_total, 1), progress=self.covered)
