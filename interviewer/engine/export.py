"""Export an interview as a Markdown report a person would want to read and share, or as JSON.

Everything the candidate typed is escaped, so a transcript cannot inject headings, links,
images or HTML into a rendered report.
"""

from __future__ import annotations

import html
import json
import re

from interviewer.display import format_score, level_line
from interviewer.domain import InterviewRecord, Role, Status, TurnKind

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def escape_markdown(text: str) -> str:
    """Literal text in Markdown: HTML escaped, every Markdown control character backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def _safe_interviewer_markdown(text: str) -> str:
    """Our own Markdown (bold, quotes, code) stays; raw HTML and links/images (which could come from
    a quoted candidate sentence) are neutralised."""
    text = html.escape(text, quote=False)
    return text.replace("](", "]\\(").replace("![", "!\\[")


def _format_value(value: float | None, unit: str | None) -> str:
    if value is None:
        return "—"
    if unit == "bytes":
        return f"{value / 1e9:,.3g} GB ({value / 2**30:,.3g} GiB)"
    if unit == "seconds":
        return f"{value * 1e3:,.3g} ms" if value < 1 else f"{value:,.4g} s"
    if unit == "fraction":
        return f"{100 * value:.3g}%"
    return f"{value:,.4g} {unit or ''}".strip()


STATUS_MARK = {Status.met: "✅ met", Status.partial: "◐ partly met", Status.missed: "✗ missed"}
VERDICT_MARK = {"correct": "✅ correct", "incorrect": "✗ incorrect", "unverifiable": "? unverifiable"}


def export_markdown(record: InterviewRecord) -> str:
    lines = [f"# Interview report: {escape_markdown(record.title or record.scenario_id)}", ""]
    lines += [
        f"- Scenario: `{record.scenario_id}` (rubric version `{record.scenario_hash}`)",
        f"- Mode: {escape_markdown(record.mode)}{f' ({escape_markdown(record.model)})' if record.model else ''}; target level: {record.level}",
        f"- Started: {record.started_at:%Y-%m-%d %H:%M} UTC; status: {record.status.value}",
    ]
    card = record.scorecard
    if card:
        lines += [
            f"- **Score: {format_score(card.score)}/100** · {level_line(record.level, card.level)}",
            f"- Tiers: must-have {100 * card.tiers.get('must', 0):.0f}%, good-to-have {100 * card.tiers.get('good', 0):.0f}%, "
            f"bonus {100 * card.tiers.get('bonus', 0):.0f}%; hints used: {card.hints_used}",
        ]
    lines += ["", "## Transcript", ""]
    for turn in record.turns:
        if turn.role is Role.candidate:
            who = "**You**" if turn.kind is not TurnKind.skip else "**You** (skipped)"
            body = escape_markdown(turn.text)
        elif turn.role is Role.system:
            who, body = "**Notice**", escape_markdown(turn.text)
        else:
            who, body = f"**Interviewer** ({turn.kind.value})", _safe_interviewer_markdown(turn.text)
        lines += [f"{who} · {turn.created_at:%H:%M:%S}", "", body, ""]
    if card:
        lines += ["## Scorecard", "", "| Criterion | Tier | Status | Evidence (your words) |", "|---|---|---|---|"]
        for c in card.criteria:
            evidence = " / ".join(f"“{escape_markdown(q)}”" for q in c.evidence) or "—"
            lines.append(f"| {escape_markdown(c.description)} | {c.tier} | {STATUS_MARK[c.status]} | {evidence} |")
        if card.claims:
            lines += ["", "## Numbers checked", ""]
            for claim in card.claims:
                lines += [
                    f"- {VERDICT_MARK.get(claim.get('verdict'), claim.get('verdict'))}: “{escape_markdown(claim.get('text', ''))}”",
                    f"  - {escape_markdown(claim.get('quantity') or '')}: you said {_format_value(claim.get('claimed'), claim.get('unit'))},"
                    f" computed {_format_value(claim.get('computed'), claim.get('unit'))}",
                    f"  - {escape_markdown(claim.get('explanation') or '')}",
                ]
                for step in claim.get("working") or []:
                    lines.append(f"    - `{step.replace('`', '')}`")
        if card.strengths:
            lines += ["", "## Strengths", ""] + [f"- {escape_markdown(s)}" for s in card.strengths]
        if card.gaps:
            lines += ["", "## Gaps", ""] + [f"- {escape_markdown(g)}" for g in card.gaps]
        if card.misconceptions:
            lines += ["", "## Misconceptions", ""] + [
                f"- {escape_markdown(m.get('description', ''))} You said: “{escape_markdown(m.get('quote', ''))}”" for m in card.misconceptions
            ]
        if card.study:
            lines += ["", "## What to study next", ""]
            for item in card.study:
                cite = f" — `{item.citation.anchor}`" if item.citation else ""
                lines.append(f"- **{item.note}**{cite}: {escape_markdown(item.reason)}")
                if item.citation:
                    lines.append(f"  > {escape_markdown(item.citation.passage)}")
        if card.notices:
            lines += ["", "## Notes on grading", ""] + [f"- {escape_markdown(n)}" for n in card.notices]
        if card.model_answer:
            lines += ["", "## Model answer", "", card.model_answer.strip()]
    return "\n".join(lines).rstrip() + "\n"


def export_json(record: InterviewRecord) -> str:
    return json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False)
