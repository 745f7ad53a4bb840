"""Every key, screen by screen, built from the screens' own bindings so it is never out of date."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
}

ANSWERING = """\
## Answering

Write as much as you like: **Enter adds a new line**, so answers can have paragraphs and
lists. **Ctrl+S sends** (Ctrl+J does too). Most terminals send the same code for
Ctrl+Enter as for Enter, so Ctrl+Enter cannot be relied on.

While the interviewer is thinking you can keep typing, scroll, or open the calculator.
If a reply fails, your answer goes back into the editor.
"""

GLOBAL_KEYS = [
    ("F1", "This help"),
    ("Ctrl+P", "Command palette: every action, themes"),
    ("Ctrl+Q", "Quit (an unfinished interview can be resumed)"),
    ("Tab / Shift+Tab", "Move between fields"),
]


def _key_part(part: str, modified: bool) -> str:
    if part in KEY_NAMES:
        return KEY_NAMES[part]
    if len(part) == 1:
        return part.upper() if modified else part
    if part[0] == "f" and part[1:].isdigit():
        return part.upper()
    return part.title()


def key_label(keys: str) -> str:
    """``ctrl+s,ctrl+j`` → ``Ctrl+S / Ctrl+J``; a plain letter stays lower-case."""
    labels = []
    for key in keys.split(","):
        parts = key.strip().split("+")
        labels.append("+".join(_key_part(part, len(parts) > 1) for part in parts))
    return " / ".join(labels)


def bindings_table(bindings: list) -> str:
    rows = ["| Key | Action |", "| --- | --- |"]
    for binding in bindings:
        if not isinstance(binding, Binding):
            continue
        description = binding.tooltip or binding.description
        if not description:
            continue
        rows.append(f"| {binding.key_display or key_label(binding.key)} | {description} |")
    return "\n".join(rows)


def help_markdown() -> str:
    from tui.screens.calculator_modal import CalculatorModal
    from tui.screens.drill_screen import DrillScreen
    from tui.screens.history_screen import HistoryScreen
    from tui.screens.home_screen import HomeScreen
    from tui.screens.interview_screen import InterviewScreen
    from tui.screens.learn_screen import LearnScreen
    from tui.screens.replay_screen import ReplayScreen
    from tui.screens.scorecard_screen import ScorecardScreen

    sections = [
        ANSWERING,
        "## Everywhere\n\n| Key | Action |\n| --- | --- |\n" + "\n".join(f"| {k} | {a} |" for k, a in GLOBAL_KEYS),
        "## Home\n\n" + bindings_table(HomeScreen.BINDINGS),
        "## Interview\n\n" + bindings_table(InterviewScreen.BINDINGS),
        "## Scratch calculator\n\n" + bindings_table(CalculatorModal.BINDINGS),
        "## Scorecard\n\n" + bindings_table(ScorecardScreen.BINDINGS),
        "## History\n\n" + bindings_table(HistoryScreen.BINDINGS),
        "## Replay\n\n" + bindings_table(ReplayScreen.BINDINGS),
        "## Drill\n\nEnter starts the highlighted topic (or practise next), checks an answer, then moves on.\n\n"
        + bindings_table(DrillScreen.BINDINGS),
        "## Learn\n\n" + bindings_table(LearnScreen.BINDINGS),
    ]
    return "\n\n".join(sections)


class HelpScreen(ModalScreen[None]):
    """Esc, F1, ? or q closes it."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        & > VerticalScroll {
            width: 90;
            max-width: 100%;
            height: 90%;
            border: thick $primary 60%;
            background: $surface;
        }
        & Markdown { padding: 0 1; }
    }
    """

    BINDINGS = [Binding("escape,f1,question_mark,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-frame") as frame:
            frame.border_title = "Help"
            frame.border_subtitle = "Esc close"
            yield Markdown(help_markdown(), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-frame").focus()
