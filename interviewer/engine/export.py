"""Export an interview as a Markdown report a person would want to read and share, or as JSON.

What the candidate typed (answers, and their own notes, each right after its question's turns) is
literal text in the report: nothing in it becomes a heading, list,
link, image, table or HTML, and a CommonMark parser gives each answer back byte for byte (tests
check it with markdown-it-py, on typed-looking answers and on random text). Ordinary answers are
paragraphs in which only what Markdown would read as formatting is escaped ("end-to-end", "1.5 s"
and "(TTFT)" stay as they are); answers laid out with indentation or tabs are fenced code blocks,
which keep the layout on screen too. The exceptions to the round trip are NUL, which CommonMark
replaces, and a carriage return in the same answer as a vertical tab, NEL or ASCII separator
among the blanks at a line's start or end; nobody types those.
"""

from __future__ import annotations

import json
import re

from interviewer.display import format_score, level_line, status_label
from interviewer.domain import COACHING_LABEL, CandidateNote, InterviewRecord, Role, Status, TurnKind

_ENTITY_LIKE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")
_ORDERED_MARKER = re.compile(r"(\d{1,9})([.)])(?=[ \t]|$)")
_RULE_LINE = re.compile(r"([-=*_~])[-=*_~ \t]*$")
"""Lines only of these (a setext underline, a thematic break, a ``~~~`` fence) are block syntax."""
_SPACE = frozenset(" \t")
_NO_ENTITY = frozenset("\x0b\x1c\x1d\x1e\x1f\x85")
"""Blanks (to Python's strip, which markdown-it uses) that no character reference can stand for."""


def _needs_entity(char: str) -> bool:
    """A carriage return, which CommonMark reads as a line end, is written ``&#13;``; other control
    characters pass through as they are (CommonMark keeps them, but not as character references)."""
    return char == "\r"


def _escape_line(line: str) -> str:
    """One line of literal text as Markdown inline content that renders as exactly that line."""
    lead = len(line) - len(line.lstrip())
    end = len(line.rstrip()) if line.strip() else len(line)

    def seen(k: int) -> str | None:
        """The character CommonMark sees at ``k`` in our output: None at the line's start, ";"
        for a blank we write as an entity, and the line's end counts as neither blank nor letter
        (a hard-break backslash may follow it)."""
        if k < 0:
            return None
        if k >= len(line):
            return ";"
        return ";" if k < lead or k >= end else line[k]

    out: list[str] = []
    i = 0
    while i < len(line):
        char = line[i]
        if i < lead or i >= end:  # blanks at a line's ends would be stripped: keep them as entities
            out.append(f"&#{ord(char)};")
            i += 1
            continue
        if char in "*_~":
            j = i
            while j < len(line) and line[j] == char:
                j += 1
            before, after = seen(i - 1), seen(j)
            # A run between two blanks (2 * 3) cannot open or close emphasis, nor can "_" inside
            # a word (head_dim); every other run is escaped.
            blank = (before is None or before in _SPACE) and after in _SPACE
            intraword = char == "_" and before is not None and before.isalnum() and after.isalnum()
            run = line[i:j]
            out.append(run if blank or intraword else "".join("\\" + c for c in run))
            i = j
            continue
        if char in "\\`[|$":
            out.append("\\" + char)
        elif char == "(" and i > 0 and line[i - 1] == "]":
            out.append("\\(")
        elif char == "<":
            out.append("&lt;")
        elif char == ">":
            out.append("&gt;")
        elif char == "&" and _ENTITY_LIKE.match(line, i):
            out.append("&amp;")
        elif _needs_entity(char):
            out.append(f"&#{ord(char)};")
        else:
            out.append(char)
        i += 1
    text = "".join(out)
    return _escape_block_start(line, text) if lead == 0 else text


def _escape_block_start(line: str, escaped: str) -> str:
    """Escape what would start a block at the beginning of a line: ``#``, ``- ``, ``1. ``, ``---``."""
    if not escaped or escaped[0] == "\\":
        return escaped
    first = line[0]
    list_marker = first in "-+*" and (len(line) == 1 or line[1] in _SPACE)
    if first == "#" or list_marker or _RULE_LINE.match(line) or line.startswith("~~~"):
        return "\\" + escaped
    ordered = _ORDERED_MARKER.match(escaped)
    if ordered:
        return f"{ordered.group(1)}\\{ordered.group(2)}{escaped[ordered.end():]}"
    return escaped


def escape_markdown(text: str) -> str:
    """Literal text inside one line of Markdown (a list item, a quote): runs of whitespace, line
    breaks included, become single spaces."""
    return _escape_line(" ".join(text.split()))


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def literal_block(text: str) -> str:
    """Markdown blocks that a viewer renders as exactly ``text``.

    Indented or tabbed text becomes a fenced code block (layout kept); other text becomes
    paragraphs: a blank line between paragraphs, a hard line break (a trailing backslash) for a
    single line break, and ``&#10;`` for each line break a paragraph break cannot express.
    """
    lines = text.split("\n")
    laid_out = any(line[:1] in _SPACE or "\t" in line for line in lines)
    fence_keeps = "\r" not in text and "\0" not in text
    prose_keeps = not any(_NO_ENTITY & set(line[: len(line) - len(line.lstrip())] + line[len(line.rstrip()) :]) for line in lines)
    if fence_keeps and (laid_out or not prose_keeps):
        return _fence(text)
    leading = len(text) - len(text.lstrip("\n"))
    trailing = len(text) - len(text.rstrip("\n")) if text.strip("\n") else 0
    body = text[leading : len(text) - trailing]
    paragraphs: list[str] = []
    extra = 0  # line breaks beyond the two that a paragraph break stands for
    for piece in re.split(r"(\n{2,})", body):
        if piece.startswith("\n\n") and not piece.strip("\n"):
            extra = len(piece) - 2
            continue
        escaped = "\\\n".join(_escape_line(line) for line in piece.split("\n"))
        paragraphs.append("&#10;" * extra + escaped)
        extra = 0
    if not paragraphs:
        paragraphs = [""]
    paragraphs[0] = "&#10;" * leading + paragraphs[0]
    paragraphs[-1] += "&#10;" * trailing
    return "\n\n".join(paragraphs)


def _safe_interviewer_markdown(text: str) -> str:
    """Our own Markdown (bold, quotes, code) stays, its headings two levels down so that they sit
    under the report's; raw HTML and links/images (which could come from a quoted candidate
    sentence) are neutralised."""
    text = re.sub(r"^(#{1,4})(?=[ \t])", r"\1##", text, flags=re.MULTILINE)
    text = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)
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


def _quote(markdown: str, indent: str = "") -> list[str]:
    """A Markdown passage as a blockquote (every line prefixed, blank lines too)."""
    return [f"{indent}> {line}".rstrip() for line in markdown.strip().splitlines()]


STATUS_MARK = {Status.met: "✅ met", Status.partial: "◐ partly met", Status.missed: "✗ missed"}
VERDICT_MARK = {"correct": "✅ correct", "incorrect": "✗ incorrect", "unverifiable": "? unverifiable"}
TIER_TITLES = {"must": "Must-have", "good": "Good-to-have", "bonus": "Bonus"}
SPEAKER_KINDS = {
    TurnKind.question: "question",
    TurnKind.followup: "follow-up",
    TurnKind.challenge: "challenge",
    TurnKind.pushback: "push-back",
    TurnKind.hint: "hint",
    TurnKind.closing: "closing",
}


def export_markdown(record: InterviewRecord) -> str:
    card = record.scorecard
    lines = [f"# Interview report: {escape_markdown(record.title or record.scenario_id)}", ""]
    lines += [
        f"- Scenario: `{record.scenario_id}` (rubric version `{record.scenario_hash}`)",
        f"- Mode: {escape_markdown(record.mode)}{f' ({escape_markdown(record.model)})' if record.model else ''}",
        f"- Started: {record.started_at:%Y-%m-%d %H:%M} UTC · {status_label(record.status)}",
    ]
    if card:
        lines += [
            f"- **Score: {format_score(card.score)}/100** · {level_line(record.level, card.level)}",
            f"- Tiers: must-have {100 * card.tiers.get('must', 0):.0f}%, good-to-have {100 * card.tiers.get('good', 0):.0f}%, "
            f"bonus {100 * card.tiers.get('bonus', 0):.0f}% · hints used: {card.hints_used}",
        ]
    else:
        lines.append(f"- Target level: {record.level}")
    lines += ["", "## Transcript", ""]
    for turn in record.transcript():
        if isinstance(turn, CandidateNote):
            step = turn.step_id.replace("`", "")
            lines += [f"**Your note** (step `{step}`, not graded) · {turn.updated_at:%H:%M:%S}", "", literal_block(turn.text), ""]
            continue
        when = f"{turn.created_at:%H:%M:%S}"
        if turn.role is Role.candidate:
            who = f"**You** · {when}" if turn.kind is not TurnKind.skip else f"**You** (skipped) · {when}"
            body = literal_block(turn.text)
        elif turn.role is Role.system:
            who, body = f"**Notice** · {when}", literal_block(turn.text)
        else:
            kind = SPEAKER_KINDS.get(turn.kind, turn.kind.value)
            who, body = f"**Interviewer** ({kind}) · {when}", _safe_interviewer_markdown(turn.text.strip())
        lines += [who, "", body, ""]
    if card:
        lines += ["## Scorecard", ""]
        for tier in ("must", "good", "bonus"):
            criteria = [c for c in card.criteria if c.tier == tier]
            if not criteria:
                continue
            lines += [f"### {TIER_TITLES[tier]} ({100 * card.tiers.get(tier, 0):.0f}%)", ""]
            for c in criteria:
                lines.append(f"- {STATUS_MARK[c.status]} — {escape_markdown(c.description)}")
                lines += [f"  - “{escape_markdown(quote)}”" for quote in c.evidence]
                if c.status is not Status.met and c.notes:
                    lines.append("  - study: " + ", ".join(f"`{note}`" for note in c.notes))
            lines.append("")
        if card.claims:
            lines += ["## Numbers checked", ""]
            for claim in card.claims:
                lines += [
                    f"- {VERDICT_MARK.get(claim.get('verdict'), claim.get('verdict'))}: “{escape_markdown(claim.get('text', ''))}”",
                    f"  - {escape_markdown(claim.get('quantity') or '')}: you said {_format_value(claim.get('claimed'), claim.get('unit'))},"
                    f" computed {_format_value(claim.get('computed'), claim.get('unit'))}",
                    f"  - {escape_markdown(claim.get('explanation') or '')}",
                ]
                for step in claim.get("working") or []:
                    lines.append(f"    - `{step.replace('`', '')}`")
            lines.append("")
        if card.strengths:
            lines += ["## Strengths", ""] + [f"- {escape_markdown(s)}" for s in card.strengths] + [""]
        if card.gaps:
            lines += ["## Gaps", ""] + [f"- {escape_markdown(g)}" for g in card.gaps] + [""]
        if card.misconceptions:
            lines += ["## Misconceptions", ""] + [
                f"- {escape_markdown(m.get('description', ''))} You said: “{escape_markdown(m.get('quote', ''))}”" for m in card.misconceptions
            ] + [""]
        if card.framing.asked or card.framing.never_asked:
            lines += ["## Framing", ""]
            lines += [f"- You asked about {escape_markdown(', '.join(topics))}: “{escape_markdown(question)}”"
                      for question, topics in card.framing.by_question()]
            if card.framing.never_asked:
                lines.append(f"- Never asked, but it mattered: {escape_markdown(', '.join(card.framing.never_asked))}")
            lines.append("")
        if card.coaching:
            lines += [f"## Coaching per step ({COACHING_LABEL.lower()})", ""]
            for step in card.coaching:
                lines += [f"### {escape_markdown(step.title)}", "", "Outline of a strong answer:", ""]
                lines += [f"{n}. {escape_markdown(point)}" for n, point in enumerate(step.outline, 1)]
                lines += ["", f"- Tip: {escape_markdown(step.tip)}"]
                lines += [f"- Missing: {escape_markdown(item)}" for item in step.missing]
                lines.append("")
        if card.study:
            lines += ["## What to study next", ""]
            for item in card.study:
                cite = f" — `{item.citation.anchor}`" if item.citation else ""
                lines.append(f"- **{item.note}**{cite}: {escape_markdown(item.reason)}")
                if item.citation:
                    lines += ["", *_quote(_safe_interviewer_markdown(item.citation.passage), indent="  "), ""]
            lines.append("")
        if card.notices:
            lines += ["## Notes on grading", ""] + [f"- {escape_markdown(n)}" for n in card.notices] + [""]
        if card.model_answer:
            lines += ["## Model answer", "", card.model_answer.strip()]
    # Blank lines are list items of their own (a fenced answer is one item), so collapsing
    # repeated ones never touches the candidate's text.
    tidy = [line for index, line in enumerate(lines) if line or (index and lines[index - 1])]
    return "\n".join(tidy).rstrip() + "\n"


def export_json(record: InterviewRecord) -> str:
    return json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False)
