"""How a drill and its feedback read as plain text: shared by the CLI and the TUI's Drill screen."""

from __future__ import annotations

from interviewer.drills.check import DrillResult, option_label
from interviewer.drills.schema import DrillItem

NOTATION_EXAMPLES = {
    "bytes": "40 GB, 4e10 bytes, ~37 GiB",
    "seconds": "2.6 ms, 0.0026 s, ~139 days",
    "FLOPs": "1.2e22 FLOPs, 1.2e22, 12 TFLOPs",
    "FLOP/s": "312 TFLOP/s, 3.12e14",
    "bytes/s": "600 GB/s, 200 Gb/s",
    "count": "200, 2e11, 200B",
    "parameters": "70B, 7e10, 70 billion",
    "tokens": "200B, 2e11 tokens, 1.4T",
    "fraction": "27%, 0.27",
    "ratio": "1.98×, 1.98",
}
"""A few notations the answer reader accepts, per answer dimension."""


def answer_instructions(item: DrillItem) -> str:
    """One line telling the candidate how to answer (never the key)."""
    if item.options is not None:
        letters = [option_label(index) for index in range(len(item.options))]
        return f"Answer with one letter: {', '.join(letters[:-1])} or {letters[-1]}."
    if item.numeric is not None:
        unit = item.numeric.display_unit or "plain numbers"
        return (
            f"Answer in {unit}, in any notation ({NOTATION_EXAMPLES[item.numeric.unit]}); "
            f"a bare number is read in {unit}; tolerance ±{item.numeric.tolerance:.0%}."
        )
    return "Type what it prints (spacing and brackets do not matter)."


def prompt_lines(item: DrillItem) -> list[str]:
    """The question as shown before answering: prompt, snippet or options."""
    lines = [item.prompt]
    if item.code is not None:
        lines.append("")
        lines.extend(f"    {line}" for line in item.code.snippet.rstrip().splitlines())
    if item.options is not None:
        lines.append("")
        lines.extend(f"  {option_label(index)}) {option.text}" for index, option in enumerate(item.options))
    return lines


def header(item: DrillItem) -> str:
    return f"{item.id} · {item.topic} · {item.kind.value} · {item.difficulty.value}"


def feedback_lines(result: DrillResult) -> list[str]:
    """Right or wrong, why, and the worked solution, quick check, common mistakes and the note."""
    item = result.item
    lines = [("✓ Correct" if result.correct else "✗ Not quite") + f" (expected {result.expected})", result.verdict, "", "Worked solution:"]
    lines.extend(f"  {number}. {step}" for number, step in enumerate(result.solution, 1))
    lines.extend(["", f"Quick check: {item.quick_check}", "Common mistakes:"])
    lines.extend(f"  - {mistake}" for mistake in item.mistakes)
    lines.extend(["", f"Read: knowledge/notes/{item.note}.md"])
    return lines
