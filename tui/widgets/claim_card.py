"""One numeric claim check: the candidate's claim, the computed value and the working, by verdict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Collapsible, Static

VERDICT_LABELS = {
    "correct": ("✔", "correct"),
    "incorrect": ("✘", "incorrect"),
    "unverifiable": ("?", "cannot check"),
}
COMPACT_QUOTE_CHARS = 90


def format_value(value: Any, unit: str | None, formatter: Callable[[float, str], str] | None) -> str:
    """A claim value for display; the core's formatter when available, else plain numbers."""
    if value is None or value == "":
        return "—"
    if isinstance(value, str):
        return value
    if formatter is not None and unit:
        try:
            return formatter(float(value), unit)
        except Exception:  # display only: fall back to the bare number
            pass
    return f"{float(value):.4g} {unit or ''}".strip()


_JOINERS = ("and ", "but ", "so ", "or ", "while ", "which ", "then ")


def excerpt(text: str) -> str:
    """The claim's clause as a quote; one cut out of a longer sentence starts with "…", so that
    "and decode takes 6.6 ms" does not read as a sentence that starts mid-way."""
    quote = " ".join(text.split()).lstrip(",;: ")
    if not quote:
        return quote
    if quote.lower().startswith(_JOINERS) or quote[0].islower():
        return "…" + quote
    return quote


class ClaimCard(Vertical):
    """A claim check as the engine reported it (``ClaimChecked.claim``), framed in its verdict's color.

    Compact (side panel, inline in the transcript): the claim and both values, with the working
    in a collapsible that starts open only for a wrong number. Full (scorecard): everything.
    """

    DEFAULT_CSS = """
    ClaimCard {
        height: auto;
        padding: 0 1;
        margin: 0 0 1 0;
        border: round $foreground 30%;
        &.-correct { border: round $success; }
        &.-incorrect { border: round $error; }
        &.-unverifiable { border: round $warning; }
        & > Static { height: auto; }
        & Collapsible { padding: 0; border-top: none; background: transparent; }
        & Collapsible > Contents { padding: 0 0 0 1; }
        & .working { color: $text-muted; }
    }
    """

    def __init__(
        self,
        claim: dict,
        *,
        formatter: Callable[[float, str], str] | None = None,
        compact: bool = False,
        classes: str | None = None,
    ) -> None:
        super().__init__(classes=classes)
        self.claim = claim
        """The claim dict: text, quantity, claimed, computed, unit, verdict, explanation, working."""
        self.verdict = str(claim.get("verdict") or "unverifiable")
        self.formatter = formatter
        self.compact = compact
        """Claim, values and a collapsible working; the explanation is left to the scorecard."""
        self.add_class(f"-{self.verdict}")
        symbol, label = VERDICT_LABELS.get(self.verdict, ("?", self.verdict))
        color = {"correct": "$text-success", "incorrect": "$text-error"}.get(self.verdict, "$text-warning")
        self.border_title = Content.from_markup(f"[bold {color}]$symbol $label[/]", symbol=symbol, label=label)

    @property
    def working(self) -> list[str]:
        return [str(line) for line in self.claim.get("working") or []]

    def compose(self) -> ComposeResult:
        yield Static(self.summary(), classes="summary")
        working = Content("\n").join(Content(line) for line in self.working)
        if self.compact:
            if self.working:
                steps = len(self.working)
                with Collapsible(title=f"working ({steps} step{'s' if steps != 1 else ''})", collapsed=self.verdict != "incorrect"):
                    yield Static(working, classes="working")
            return
        if self.claim.get("explanation"):
            yield Static(Content(str(self.claim["explanation"])))
        if self.working:
            yield Static(working, classes="working")

    def summary(self) -> Content:
        claim = self.claim
        unit = claim.get("unit")
        parts = [Content.from_markup("[b]$quantity[/b]", quantity=str(claim.get("quantity") or "claim"))]
        if claim.get("text"):
            quote = excerpt(str(claim["text"]))
            if self.compact and len(quote) > COMPACT_QUOTE_CHARS:
                quote = quote[: COMPACT_QUOTE_CHARS - 1].rstrip() + "…"
            parts.append(Content.from_markup("[i]“$text”[/i]", text=quote))
        parts.append(Content.from_markup("claimed  [b]$value[/b]", value=format_value(claim.get("claimed"), unit, self.formatter)))
        parts.append(Content.from_markup("computed [b]$value[/b]", value=format_value(claim.get("computed"), unit, self.formatter)))
        return Content("\n").join(parts)

    def plain_text(self) -> str:
        """Everything the card can show, as text (tests read this)."""
        lines = [self.summary().plain]
        if not self.compact and self.claim.get("explanation"):
            lines.append(str(self.claim["explanation"]))
        lines.extend(self.working)
        return "\n".join(lines)
