"""Coaching per step: the rubric's outline of a strong answer and its tip, plus what the candidate's
own answer to that step lacked in structure (framing, numbers, a trade-off, a close).

Structure only: which criteria were missed is already on the scorecard (criteria and gaps), so it is
not repeated here. Nothing here changes a score.
"""

from __future__ import annotations

import re

from interviewer.domain import StepCoaching
from interviewer.engine.statements import analyse
from interviewer.engine.text import split_sentences
from rubrics.schema import Kind, Scenario, Step

_QUANTITY = re.compile(r"(?<![\w-])\d")
"""A figure the candidate states (a digit not inside a name such as A100 or Llama-2)."""
_ASSUMPTION = re.compile(r"\b(assum\w*|clarif\w*|I'd (first )?ask|(first|before) \w+ (I|we)'d (want|need) to know|it depends on)\b", re.IGNORECASE)
_CONTRAST = re.compile(
    r"\b(but|however|trade[- ]?offs?|at the (cost|price|expense) of|versus|vs\.?|in exchange|instead of|whereas|on the other hand|downside|unless)\b",
    re.IGNORECASE,
)
_CLOSE = re.compile(
    r"\b(in summary|to summari[sz]e|summing up|overall|to wrap up|in short|to recap|next steps?|I'?d (first )?(prototype|benchmark|measure|start|validate|test)|"
    r"first thing I'?d|what I'?d (prototype|measure|do first)|the plan is|so the plan)\b",
    re.IGNORECASE,
)


def _gist(text: str, limit: int = 70) -> str:
    """The head of a rubric sentence (up to its first colon, semicolon, comma, parenthesis or ``limit``
    characters, at a word), for a one-line item; an initial capital is lowered unless it starts an acronym."""
    head = re.split(r"[:;,(]| — ", text.strip(), maxsplit=1)[0].strip()
    if len(head) > limit:
        head = head[:limit].rsplit(" ", 1)[0]
    head = head.rstrip(".,")
    return head[:1].lower() + head[1:] if head[1:2].islower() else head


def _step_needs(scenario: Scenario, step: Step) -> set[str]:
    needs: set[str] = set()
    for criterion in scenario.criteria:
        if criterion.step == step.id:
            needs.update(criterion.requires)
    return needs


def _quantities(scenario: Scenario, step: Step) -> list[str]:
    """What the step's number criteria are about, in the rubric's words (a calculator's quantity when it names one)."""
    return [c.check.quantity if c.check else c.description for c in scenario.criteria if c.step == step.id and "number" in c.requires]


def _tradeoffs(scenario: Scenario, step: Step) -> list[str]:
    return [c.description for c in scenario.criteria if c.step == step.id and "tradeoff" in c.requires]


def missing_structure(scenario: Scenario, step: Step, answers: list[str]) -> list[str]:
    """What this step's answers lacked in structure, each item naming what would have filled it."""
    text = "\n".join(answers).strip()
    if not text:
        return ["No answer to this step: the outline above is where a strong answer starts."]
    sentences = split_sentences(text) or [text]
    needs = _step_needs(scenario, step)
    index = scenario.step_index(step.id)
    missing: list[str] = []
    frames = "question" in needs or (scenario.kind is Kind.design and index == 0)
    if frames and not (any(analyse(s).asks for s in sentences) or _ASSUMPTION.search(text)):
        # the step's title, not its key decision: a key decision is a sentence ("A layer is attention ...")
        missing.append(f"No framing: before answering \u201c{step.title}\u201d, ask a clarifying question or state your assumptions.")
    quantities = _quantities(scenario, step)
    if quantities and not _QUANTITY.search(text):
        missing.append(f"No numbers: this step asks for figures; put a number on: {'; '.join(dict.fromkeys(_gist(q) for q in quantities))}.")
    if _tradeoffs(scenario, step) and not _CONTRAST.search(text):
        missing.append(f"No trade-off: in \u201c{step.title}\u201d, say what each choice costs (\u201cX, but at the cost of Y\u201d).")
    if index == len(scenario.steps) - 1 and not _CLOSE.search(text):
        missing.append("No close: end with a one-line summary of the design and what you would prototype or measure first.")
    return missing


def coach(scenario: Scenario, answers_by_step: dict[str, list[str]]) -> list[StepCoaching]:
    """Suggestions for every step of the scenario, from the rubric and the candidate's answers to each step."""
    return [
        StepCoaching(step=step.id, title=step.title, outline=list(step.outline), tip=step.tip,
                     missing=missing_structure(scenario, step, answers_by_step.get(step.id, [])))
        for step in scenario.steps
    ]


def answers_in_step_order(scenario: Scenario, answers: list[str]) -> dict[str, list[str]]:
    """Answers given without a conversation (``interviewer grade``): the i-th answer is read as the
    answer to the i-th step, and any beyond the last step as more of the last step's answer."""
    by_step: dict[str, list[str]] = {}
    for i, answer in enumerate(answers):
        step = scenario.steps[min(i, len(scenario.steps) - 1)]
        by_step.setdefault(step.id, []).append(answer)
    return by_step
