"""Learn: read a scenario step by step (its question, key decision, common mistake and the notes its
criteria cite), then its model answer. Nothing is scored."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Markdown, Static

from tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from rubrics.schema import Scenario


def learn_pages(scenario: Scenario, notes: dict[str, str]) -> list[str]:
    """One Markdown page per step, then the model answer. ``notes`` maps note id → Markdown; each
    note is shown once, at the first step whose criteria cite it."""
    pages: list[str] = []
    shown: set[str] = set()
    total = len(scenario.steps) + 1
    for number, step in enumerate(scenario.steps, 1):
        cited = [note for criterion in scenario.criteria if criterion.step == step.id for note in criterion.notes]
        fresh = [note for note in dict.fromkeys(cited) if note in notes and note not in shown]
        shown.update(fresh)
        parts = [
            f"## Step {number} of {total}: {step.title}",
            f"**Question.** {step.question.strip()}",
            f"**Key decision.** {step.key_decision.strip()}",
            f"**Common wrong answer.** {step.common_wrong_answer.strip()}",
            f"**Hint.** {step.hint.strip()}",
        ]
        for note in fresh:
            # The note's own "# Title" becomes a sub-heading under the step.
            parts.append("---\n\n" + notes[note].replace("\n## ", "\n#### ").replace("# ", "### ", 1))
        pages.append("\n\n".join(parts))
    pages.append(f"## Step {total} of {total}: model answer\n\n{scenario.model_answer.strip()}")
    return pages


class LearnScreen(Screen):
    """Right/left (or n/p) turn the pages; Escape goes back."""

    BINDINGS = [
        Binding("right,n", "page(1)", "Next", tooltip="Next page (the last one is the model answer)"),
        Binding("left,p", "page(-1)", "Previous", tooltip="Previous page"),
        Binding("escape", "app.pop_screen", "Back", tooltip="Back home"),
    ]

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        self.scenario = scenario
        self.pages: list[str] = []
        self.page = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="learn-status", markup=False)
        with VerticalScroll(id="learn-body"):
            yield Markdown("", id="learn-page")
        yield KeyFooter()

    def on_mount(self) -> None:
        from knowledge.notes import load_notes

        self.sub_title = f"Learn · {self.scenario.title}"
        notes = {note_id: note.text.split("\n## Sources")[0] for note_id, note in load_notes().items()}
        self.pages = learn_pages(self.scenario, notes)
        self.query_one("#learn-body").focus()
        self._show()

    def _show(self) -> None:
        self.query_one("#learn-status", Static).update(
            f"{self.scenario.title} · page {self.page + 1} of {len(self.pages)} · → next, ← previous"
        )
        self.query_one("#learn-page", Markdown).update(self.pages[self.page])
        self.query_one("#learn-body", VerticalScroll).scroll_home(animate=False)

    def action_page(self, step: int) -> None:
        self.page = min(max(self.page + step, 0), len(self.pages) - 1)
        self._show()
