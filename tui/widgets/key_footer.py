"""Textual's Footer, recomposed at most once per frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyFooter(Footer):
    """Textual's Footer recomposes on every bindings signal, and opening a screen sends several
    in one frame (mount, focus, each ``refresh_bindings``): each rebuild restyles every key.
    This one coalesces them into a single recompose after the next refresh.
    """

    def __init__(self) -> None:
        super().__init__()
        self._recompose_pending = False

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._recompose_pending:
            return
        if self.is_attached and screen is self.screen:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_once)

    COMPACT_BELOW = 100
    """Narrower than this, keys are drawn closer together, so the interview's keys (F9 Home
    included) still leave room for F1 Help at 80 columns."""

    def on_resize(self) -> None:
        self.compact = self.size.width < self.COMPACT_BELOW

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        await self.recompose()
