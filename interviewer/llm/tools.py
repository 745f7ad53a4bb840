"""The LLM interviewer's tools (LangChain tool calling): retrieval, the calculators, the claim checker,
rubric coverage, private notes, and moving on to the next question.

A tool never raises into the conversation: a bad input or a failing backend comes back to the model
as a string starting with ``error:``, so it can correct itself. No tool returns the model answer.
The calculators are the project's torch calculators (``interviewer.tools.CALCULATORS``), one tool
each, with the calculator's own signature as the argument schema, so every number the interviewer
relies on is computed, never guessed.
"""

from __future__ import annotations

import inspect
import json
import logging
import types
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from interviewer.engine.evidence import CriterionHit
from interviewer.engine.scoring import judge_criterion
from interviewer.engine.session import SessionState
from interviewer.engine.text import quote
from interviewer.llm.prompts import coverage_lines, next_question_result

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from interviewer.engine.session import InterviewSession
    from rubrics.schema import Criterion, Scenario

log = logging.getLogger(__name__)

EXCLUDED_CALCULATORS = frozenset({"microbench"})
"""Not offered to the model: it times real kernels for seconds, and measures this machine, not the question."""

MAX_TOOL_RESULT_CHARS = 1800
"""A tool result is clipped to this (about 500 tokens): a small context holds several."""
PASSAGE_CHARS = 500
DESCRIPTION_CHARS = 160
"""Tool descriptions the model reads: one short sentence each keeps the tool list small."""
MAX_NOTE_CHARS = 1000


def calculator_tool_name(calculator: str) -> str:
    return "calculate_" + calculator.replace("-", "_")


def _error(exc: BaseException) -> str:
    return f"error: {exc}"


def _clip(text: str, limit: int = MAX_TOOL_RESULT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- coverage (shared with the prompt) -----------------------------------------------------------


def rubric_coverage(scenario: Scenario, state: SessionState | dict[str, Any], step_id: str | None = None) -> dict[str, list[Criterion]]:
    """Criteria (of one step, or all) the rubric scorer counts as shown, partly shown, or not yet shown."""
    state = state if isinstance(state, SessionState) else SessionState.model_validate(state)
    hits = {cid: CriterionHit.from_dict(cid, data) for cid, data in state.hits.items()}
    coverage: dict[str, list[Criterion]] = {"met": [], "partial": [], "missing": []}
    for criterion in scenario.criteria:
        if step_id is not None and criterion.step != step_id:
            continue
        status = judge_criterion(scenario, criterion, hits.get(criterion.id), state.claims).status.value
        coverage[{"met": "met", "partial": "partial", "missed": "missing"}[status]].append(criterion)
    return coverage


# -- calculators ----------------------------------------------------------------------------------


def _widened(annotation: Any) -> Any:
    """Numbers may also be given as strings such as "7.5B" or "40%" (the calculators parse them)."""
    if annotation in (int, float):
        return annotation | str
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        if any(a in (int, float) for a in args) and str not in args:
            return typing.Union[(*args, str)]  # Union, not |: built from a tuple
    return annotation


def _summary(doc: str | None) -> str:
    """The docstring's first sentence: enough for the model to pick the tool (the result names its source)."""
    text = " ".join(inspect.cleandoc(doc or "").split("\n\n")[0].split())
    sentence = text.split(". ")[0].rstrip(".") + "."
    return _clip(sentence, DESCRIPTION_CHARS)


def format_calc_result(result: Any) -> str:
    from interviewer.units import format_quantity

    lines = [f"{result.name} = {format_quantity(result.value, result.unit)} (value {result.value:.6g} {result.unit})"]
    if result.working:
        lines.append("Working:")
        lines.extend(f"  {line}" for line in result.working)
    if result.source:
        lines.append(f"Source: {result.source}")
    return _clip("\n".join(lines))


def scenario_calculators(scenario: Scenario) -> frozenset[str]:
    """The calculators a scenario's numeric checks use: the only ones its interviewer is offered."""
    return frozenset(c.check.calculator for c in scenario.criteria if c.check is not None)


@lru_cache(maxsize=32)
def calculator_tools(only: frozenset[str] | None = None) -> tuple[BaseTool, ...]:
    """One tool per calculator (of ``only``, if given); empty (with a log line) when the calculators
    cannot be imported."""
    from langchain_core.tools import StructuredTool
    from pydantic import Field, create_model

    try:
        from interviewer.tools import CALCULATORS
    except Exception:
        log.exception("the calculators are unavailable; the LLM interviewer runs without calculator tools")
        return ()
    tools = []
    for name, function in CALCULATORS.items():
        if name in EXCLUDED_CALCULATORS or (only is not None and name not in only):
            continue
        try:
            hints = typing.get_type_hints(function)
        except Exception:
            hints = {}
        fields: dict[str, Any] = {}
        for parameter in inspect.signature(function).parameters.values():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            annotation = _widened(hints.get(parameter.name, Any))
            default = ... if parameter.default is inspect.Parameter.empty else parameter.default
            fields[parameter.name] = (annotation, Field(default=default))
        schema = create_model(f"{name.title().replace('-', '')}Inputs", **fields)
        tools.append(
            StructuredTool.from_function(
                func=_calculator_runner(name),
                name=calculator_tool_name(name),
                description=_summary(function.__doc__),
                args_schema=schema,
                handle_validation_error=lambda exc: f"error: invalid inputs: {exc}",
            )
        )
    return tuple(tools)


def _calculator_runner(name: str):
    def run(**inputs: Any) -> str:
        from interviewer.tools import run_calculator

        try:
            # Explicit None means "the calculator's default": drop it so derived defaults still apply.
            return format_calc_result(run_calculator(name, **{k: v for k, v in inputs.items() if v is not None}))
        except Exception as exc:  # input errors and anything else go back to the model
            return _error(exc)

    run.__name__ = calculator_tool_name(name)
    return run


# -- per-turn tools -------------------------------------------------------------------------------


@dataclass
class ToolCallRecord:
    name: str
    args: dict[str, Any]
    result: str

    def as_meta(self) -> dict[str, Any]:
        return {"name": self.name, "args": self.args, "result": quote(self.result, 300)}


@dataclass
class TurnToolbox:
    """The tools for one interviewer turn, bound to the interview's state, and what they did."""

    session: InterviewSession
    allow_next_question: bool = True
    notes: list[str] = field(default_factory=list)
    """Private notes for the grader, recorded this turn."""
    calls: list[ToolCallRecord] = field(default_factory=list)
    next_question_requested: bool = False
    abandoned: list[ToolCallRecord] = field(default_factory=list)
    """Calls that outlived ``llm_tool_timeout`` (their threads cannot be stopped; their results are dropped)."""

    # The tool functions. Their docstrings are the descriptions the model reads.

    def search_knowledge(self, query: str, k: int = 3) -> str:
        """Search the ML-systems notes; passages are cited as note#heading."""
        from interviewer import retrieval

        try:
            passages = retrieval.search(query, k=max(1, min(int(k), 6)))
        except Exception as exc:
            log.exception("knowledge search failed")
            return _error(exc)
        if not passages:
            return "no passages found"
        return _clip("\n\n".join(f"[{p.anchor}] {quote(p.text, PASSAGE_CHARS)}" for p in passages))

    def check_claims(self, text: str) -> str:
        """Check the numeric claims in a text with the calculators."""
        try:
            from interviewer.claims import check_claims
        except Exception as exc:
            return _error(f"the claim checker is unavailable ({exc})")
        try:
            claims = [c.model_dump() if hasattr(c, "model_dump") else dict(c) for c in check_claims(text, dict(self.session.scenario.facts))]
        except Exception as exc:
            return _error(exc)
        if not claims:
            return "no checkable numeric claims found"
        lines = []
        for claim in claims:
            line = f"“{claim.get('text', '')}”: {claim.get('verdict')}"
            if claim.get("explanation"):
                line += f". {claim['explanation']}"
            lines.append(line)
        return _clip("\n".join(lines))

    def scenario_fact(self, question: str) -> str:
        """What the scenario says about a candidate's question on the problem (traffic, data, budget, hardware). Answer from it; never invent."""
        from interviewer.engine.clarify import matching_facts

        facts = matching_facts(self.session.scenario, str(question))
        if not facts:
            return "The scenario does not specify this: tell the candidate it is their call, to state an assumption and go on."
        return _clip("\n".join(f"{fact.topic}: {fact.answer.strip()}" + (" (already in the brief)" if fact.given else "") for fact in facts))

    def rubric_coverage(self) -> str:
        """How much of each question the candidate has covered, and questions that would draw out the rest."""
        try:
            scenario = self.session.scenario
            current = self.session.current_step
            blocks = []
            for index, step in enumerate(scenario.steps):
                marker = " (current)" if current is not None and step.id == current.id else ""
                coverage = rubric_coverage(scenario, self.session.state, step.id)
                blocks.append(f"Question {index + 1}{marker}:\n" + "\n".join(f"- {line}" for line in coverage_lines(coverage)))
            return _clip("\n\n".join(blocks))
        except Exception as exc:
            return _error(exc)

    def record_private_note(self, note: str) -> str:
        """Record a private note for the grader."""
        note = " ".join(str(note).split())[:MAX_NOTE_CHARS]
        if not note:
            return "error: the note is empty"
        self.notes.append(note)
        return "noted"

    def next_question(self) -> str:
        """Move on when this question is covered or the candidate is stuck."""
        if self.next_question_requested:
            return "already moving on; just write the transition"
        self.next_question_requested = True
        scenario = self.session.scenario
        index = self.session.step_index + 1
        step = scenario.steps[index] if index < len(scenario.steps) else None
        return next_question_result(step, index, len(scenario.steps))

    def tools(self) -> list[BaseTool]:
        from langchain_core.tools import StructuredTool

        functions = [self.search_knowledge, self.check_claims, self.scenario_fact, self.rubric_coverage, self.record_private_note]
        if self.allow_next_question:
            functions.append(self.next_question)
        own = [
            StructuredTool.from_function(
                func=function,
                name=function.__name__,
                description=inspect.getdoc(function) or function.__name__,
                handle_validation_error=lambda exc: f"error: invalid arguments: {exc}",
            )
            for function in functions
        ]
        return own + list(calculator_tools(scenario_calculators(self.session.scenario)))

    def timed_out(self, name: str, args: Any, seconds: float) -> str:
        """The result of a call that took longer than ``seconds`` (recorded like any call)."""
        result = f"error: {name} took longer than {seconds:g} s and was stopped; answer without it"
        record = ToolCallRecord(name, args if isinstance(args, dict) else {"raw": str(args)}, result)
        self.abandoned.append(record)
        self.calls.append(record)
        return result

    def run(self, tools_by_name: dict[str, BaseTool], name: str, args: Any) -> str:
        """Run one tool call (blocking; the agent calls it in a thread). Never raises."""
        tool = tools_by_name.get(name)
        if tool is None:
            result = f"error: there is no tool named {name!r}; the tools are: {', '.join(sorted(tools_by_name))}"
        elif not isinstance(args, dict):
            result = f"error: the arguments of {name} must be a JSON object"
        else:
            try:
                output = tool.invoke(args)
                result = output if isinstance(output, str) else json.dumps(output, default=str)
            except Exception as exc:  # a tool must never break the interview
                log.exception("tool %s failed", name)
                result = _error(exc)
        record = ToolCallRecord(name, args if isinstance(args, dict) else {"raw": str(args)}, result)
        if not any(late.name == record.name and late.args == record.args for late in self.abandoned):
            self.calls.append(record)  # a call that finished after its timeout is already on record as timed out
        return result
