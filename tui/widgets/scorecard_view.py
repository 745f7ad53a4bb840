"""A scorecard as the core computed it: total, tiers, criteria with evidence, claims, study list."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Collapsible, Digits, Label, Markdown, Static

from interviewer.display import format_score, level_labels
from interviewer.domain import COACHING_LABEL
from tui.widgets.claim_card import ClaimCard

if TYPE_CHECKING:
    from interviewer.domain import CriterionResult, Framing, Scorecard, StepCoaching

STATUS_MARKS = {"met": ("✔", "met", "$success"), "partial": ("◐", "partly met", "$warning"), "missed": ("✘", "missed", "$error")}
TIER_ORDER = ("must", "good", "bonus")
TIER_NAMES = {"must": "Must-have", "good": "Good-to-have", "bonus": "Bonus"}
BAR_WIDTH = 16


def tier_bar(name: str, value: float) -> Content:
    filled = round(max(0.0, min(1.0, value)) * BAR_WIDTH)
    color = "$success" if value >= 0.8 else "$warning" if value >= 0.5 else "$error"
    return Content.from_markup(
        f"$name [{color}]$filled[/][dim]$empty[/dim] $percent",
        name=f"{TIER_NAMES.get(name, name):<12}",
        filled="█" * filled,
        empty="░" * (BAR_WIDTH - filled),
        percent=f"{value * 100:3.0f}%",
    )


class CriterionRow(Static):
    """One criterion: status, tier and description; the quoted evidence; what to study."""

    DEFAULT_CSS = """
    CriterionRow {
        height: auto;
        padding: 0 1;
        margin: 0 0 1 0;
        border-left: thick $foreground 20%;
        &.-met { border-left: thick $success; }
        &.-partial { border-left: thick $warning; }
        &.-missed { border-left: thick $error; }
    }
    """

    def __init__(self, criterion: CriterionResult) -> None:
        self.criterion = criterion
        status = str(criterion.status.value)
        super().__init__(self._content(status), classes=f"-{status}")

    def _content(self, status: str) -> Content:
        criterion = self.criterion
        mark, label, color = STATUS_MARKS.get(status, ("?", status, "$warning"))
        lines = [
            Content.from_markup(
                f"[b {color}]$mark $label[/]  [dim]$tier[/dim]  $description",
                mark=mark,
                label=label,
                tier=criterion.tier,
                description=criterion.description,
            )
        ]
        for quote in criterion.evidence:
            lines.append(Content.from_markup("[i]  “$quote”[/i]", quote=quote))
        if criterion.rationale:
            lines.append(Content.from_markup("[dim]  $rationale[/dim]", rationale=criterion.rationale))
        if criterion.notes and status != "met":
            lines.append(Content.from_markup("  [$text-accent]Study:[/] $notes", notes=", ".join(criterion.notes)))
        return Content("\n").join(lines)


class ScorecardView(VerticalScroll):
    """The whole scorecard, top to bottom; read-only, scrollable with the keyboard."""

    DEFAULT_CSS = """
    ScorecardView {
        height: 1fr;
        padding: 0 1;
        & #score-summary { height: auto; margin: 1 0 1 0; }
        & #total { width: auto; color: $text-accent; margin: 0 2 0 0; }
        & #score-meta { width: auto; padding: 1 2 0 0; }
        & #tiers { width: 38; height: auto; }
        & .tier { width: 38; height: 1; }
        & .section-title { text-style: bold; color: $text-accent; margin: 1 0 0 0; border-bottom: solid $accent 40%; width: 1fr; }
        & .bullets { height: auto; padding: 0 1; }
        & #coaching { height: auto; }
        & .coaching-step { margin: 0 0 1 0; }
        & Collapsible { margin: 1 0 0 0; }
    }
    """

    def __init__(
        self,
        scorecard: Scorecard,
        *,
        target_level: str | None = None,
        formatter: Callable[[float, str], str] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, can_focus=True)
        self.scorecard = scorecard
        self.target_level = target_level
        """The level the interview was run at (None: not known), shown beside the estimate."""
        self.formatter = formatter

    def compose(self) -> ComposeResult:
        card = self.scorecard
        with Horizontal(id="score-summary"):
            yield Digits(format_score(card.score), id="total")
            yield Static(
                Content("\n").join(
                    [
                        Content.from_markup("[b]/ 100[/b]"),
                        *(Content.from_markup("[$text-accent]$label[/]", label=label) for label in level_labels(self.target_level, card.level)),
                        Content.from_markup("[dim]$mode[/dim]", mode=f"mode: {card.mode}"),
                    ]
                ),
                id="score-meta",
            )
            with Vertical(id="tiers"):
                for tier in TIER_ORDER:
                    if tier in card.tiers:
                        yield Static(tier_bar(tier, card.tiers[tier]), classes="tier")
                hints = f"Hints used: {card.hints_used}"
                if card.hint_penalty:
                    hints += f" (−{card.hint_penalty:g} points)"
                yield Label(hints, id="hints-used")

        yield Label("Criteria", classes="section-title")
        for tier in TIER_ORDER:
            for criterion in card.criteria:
                if criterion.tier == tier:
                    yield CriterionRow(criterion)

        yield Label("Claim checks", classes="section-title")
        if card.claims:
            for claim in card.claims:
                yield ClaimCard(claim, formatter=self.formatter)
        else:
            yield Static("No numeric claims were made.", classes="bullets")

        yield Label("Strengths", classes="section-title")
        yield Static(_bullets(card.strengths, "—"), classes="bullets", id="strengths")
        yield Label("Gaps", classes="section-title")
        yield Static(_bullets(card.gaps, "—"), classes="bullets", id="gaps")
        if card.misconceptions:
            yield Label("Misconceptions", classes="section-title")
            yield Static(_bullets([misconception_line(m) for m in card.misconceptions], ""), classes="bullets", id="misconceptions")

        if card.framing.asked or card.framing.never_asked:
            yield Label("Framing", classes="section-title", id="framing-title")
            yield Static(framing_content(card.framing), classes="bullets", id="framing")

        if card.coaching:
            yield Label(f"Coaching per step ({COACHING_LABEL.lower()})", classes="section-title", id="coaching-title")
            with Vertical(id="coaching"):
                for step in card.coaching:
                    yield Static(coaching_content(step), classes="bullets coaching-step")

        if card.study:
            yield Label("Study next", classes="section-title")
            lines = []
            for item in card.study:
                anchor = f" ({item.citation.anchor})" if item.citation else ""
                lines.append(Content.from_markup("• [b]$note[/b]$anchor — $reason", note=item.note, anchor=anchor, reason=item.reason))
            yield Static(Content("\n").join(lines), classes="bullets", id="study")

        if card.notices:
            yield Label("Notices", classes="section-title")
            yield Static(_bullets(card.notices, ""), classes="bullets")

        with Collapsible(title="Model answer", collapsed=False, id="model-answer"):
            yield Markdown(card.model_answer or "_No model answer in this scenario._")


def coaching_content(step: StepCoaching) -> Content:
    """One step's suggestions: the outline in order, the tip, and what the answer's structure lacked."""
    lines = [Content.from_markup("[b]$title[/b]", title=step.title)]
    lines += [Content.from_markup("  $n. $point", n=str(n), point=point) for n, point in enumerate(step.outline, 1)]
    lines.append(Content.from_markup("  [$text-accent]Tip:[/] $tip", tip=step.tip))
    lines += [Content.from_markup("  [$text-warning]Missing:[/] $item", item=item) for item in step.missing]
    return Content("\n").join(lines)


def framing_content(framing: Framing) -> Content:
    """The clarifying questions asked (topic and the candidate's words) and the topics never asked."""
    lines = [Content.from_markup("• You asked about [b]$topics[/b]: “$question”", topics=_and(topics), question=question)
             for question, topics in framing.by_question()]
    if framing.never_asked:
        lines.append(Content.from_markup("• [$text-warning]Never asked, but it mattered:[/] $topics", topics=", ".join(framing.never_asked)))
    return Content("\n").join(lines)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def misconception_line(misconception: dict) -> str:
    return f"{misconception.get('description', '')} — you said “{misconception.get('quote', '')}”"


def _bullets(items: list[str], empty: str) -> Content:
    if not items:
        return Content(empty)
    return Content("\n").join(Content.from_markup("• $item", item=item) for item in items)
