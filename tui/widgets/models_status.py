"""A subtle indicator while torch, the embedder and the knowledge index load in the background."""

from __future__ import annotations

from textual.widgets import Static

_TEXT = {
    "loading": "◌ loading models…",
    "ready": "",
    "failed": "⚠ keyword matching only",
}


class ModelsStatus(Static):
    """Follows ``InterviewerApp.models_state``; disappears once the models are ready."""

    DEFAULT_CSS = """
    ModelsStatus {
        width: auto;
        height: 1;
        color: $text-muted;
        padding: 0 1;
        &.-failed { color: $text-warning; }
        &.-ready { display: none; }
    }
    """

    def on_mount(self) -> None:
        self.watch(self.app, "models_state", self._show, init=True)

    def _show(self, state: str) -> None:
        self.update(_TEXT.get(state, ""))
        for name in _TEXT:
            self.set_class(state == name, f"-{name}")
