"""The pydantic schema of a practice drill (one entry of a YAML file in ``interviewer/drills/items``).

A drill is data, like a scenario: the checker, the CLI and the TUI read it and never hard-code
content. Keys are never typed: a numeric drill names the calculator and inputs that produce its
key, and a code-output drill's printed output is checked against its snippet by the test suite.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from rubrics.schema import _ID, StrictModel  # the scenarios' conventions: unknown keys are errors, ids are slugs


class DrillKind(StrEnum):
    choice = "choice"
    """Multiple choice: one right option, a reason for each wrong one."""
    numeric = "numeric"
    """A number with a unit and a tolerance; the key comes from a calculator."""
    code_output = "code-output"
    """What a short Python/torch snippet prints."""
    debug = "debug"
    """A configuration or plan with one flaw: find it (and the fix is in the solution)."""
    tradeoff = "tradeoff"
    """Two designs under stated constraints: pick one, for the deciding reason."""
    trace = "trace"
    """Step through a computation and give the value it reaches."""


class Difficulty(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"

    @property
    def weight(self) -> float:
        """How much a result counts towards mastery (a hard item passed says more)."""
        return DIFFICULTY_WEIGHTS[self.value]


DIFFICULTY_WEIGHTS = {"easy": 1.0, "medium": 1.5, "hard": 2.0}

AnswerUnit = Literal["bytes", "seconds", "FLOPs", "FLOP/s", "bytes/s", "count", "parameters", "tokens", "fraction", "ratio"]
"""The dimension of a numeric answer: a calculator's base unit (``CalcResult.unit``)."""

DISPLAY_UNITS: dict[str, dict[str, float]] = {
    "bytes": {"B": 1.0, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40},
    "seconds": {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0, "days": 86400.0},
    "FLOPs": {"FLOPs": 1.0, "GFLOPs": 1e9, "TFLOPs": 1e12, "PFLOPs": 1e15},
    "FLOP/s": {"FLOP/s": 1.0, "TFLOP/s": 1e12, "PFLOP/s": 1e15},
    "bytes/s": {"GB/s": 1e9, "TB/s": 1e12},
    "count": {"": 1.0, "k": 1e3, "M": 1e6, "B": 1e9},
    "parameters": {"": 1.0, "M": 1e6, "B": 1e9},
    "tokens": {"": 1.0, "k": 1e3, "M": 1e6, "B": 1e9, "T": 1e12},
    "fraction": {"%": 0.01, "": 1.0},
    "ratio": {"×": 1.0},
}
"""The units a numeric drill may state its answer in, per dimension, with their size in the base unit.
A bare number typed by the candidate is read in the drill's display unit ("37.5" for "GB")."""


class Option(StrictModel):
    text: str = Field(min_length=1)
    correct: bool = False
    why: str = Field(min_length=1)
    """Why this option is right, or what is wrong with it: shown when it is picked."""


class CalculatorKey(StrictModel):
    """The calculator run that produces a numeric key (an ``interviewer calc`` name and its inputs)."""

    calculator: str
    inputs: dict[str, Any] = Field(default_factory=dict)
    output: str = "value"
    """``value`` (the calculator's result) or the name of one of its breakdown entries."""
    times: float = Field(default=1.0, gt=0)
    """The key is the output × this: the tokens of a reply for a per-token latency, say."""

    @field_validator("calculator")
    @classmethod
    def _known(cls, name: str) -> str:
        from interviewer.tools import CALCULATORS

        if name not in CALCULATORS or name == "microbench":
            known = ", ".join(sorted(n for n in CALCULATORS if n != "microbench"))
            raise ValueError(f"unknown calculator {name!r}; known: {known}")
        return name


class FactorHint(StrictModel):
    factor: float = Field(gt=0)
    """answer / key: 2 when the answer is twice the key, 0.5 when it is half."""
    why: str = Field(min_length=1)
    """The usual reason for that slip (forgot the 2 for K and V, counted bits as bytes, ...)."""


class NumericAnswer(StrictModel):
    key: CalculatorKey
    unit: AnswerUnit
    display_unit: str
    """The unit the key is shown in and a bare number is read in: one of ``DISPLAY_UNITS[unit]``."""
    tolerance: float = Field(default=0.05, gt=0, lt=1)
    """Relative: 0.05 accepts answers within ±5 % of the key."""
    factor_hints: list[FactorHint] = Field(default_factory=list)

    @model_validator(mode="after")
    def _display_unit_fits(self) -> NumericAnswer:
        if self.display_unit not in DISPLAY_UNITS[self.unit]:
            raise ValueError(f"display_unit {self.display_unit!r} is not a unit of {self.unit} (use one of {list(DISPLAY_UNITS[self.unit])})")
        return self


class CodeAnswer(StrictModel):
    snippet: str = Field(min_length=1)
    """Python (may import torch); the test suite runs it and compares what it prints with ``output``."""
    output: str = Field(min_length=1)
    """Exactly what the snippet prints (checked by the test suite, never run in the app)."""


class DrillItem(StrictModel):
    id: str = Field(pattern=_ID)
    topic: str = Field(pattern=_ID)
    """The scenario id (``rubrics/scenarios/<id>.yaml``) whose topic this drill practises."""
    kind: DrillKind
    difficulty: Difficulty
    prompt: str = Field(min_length=1)
    note: str = Field(pattern=_ID)
    """The knowledge note (``knowledge/notes/<note>.md``) this drill practises."""
    hint: str = Field(min_length=1)
    solution: list[str] = Field(min_length=2)
    """The worked solution, one step per entry."""
    quick_check: str = Field(min_length=1)
    """A fast way to sanity-check an answer (an order of magnitude, a limit case, a units check)."""
    mistakes: list[str] = Field(min_length=1)
    """Common mistakes, as a reviewer would name them."""
    options: list[Option] | None = None
    numeric: NumericAnswer | None = None
    code: CodeAnswer | None = None

    @model_validator(mode="after")
    def _one_answer(self) -> DrillItem:
        given = [name for name in ("options", "numeric", "code") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"needs exactly one of options, numeric or code (got {', '.join(given) or 'none'})")
        allowed = {
            DrillKind.choice: "options",
            DrillKind.numeric: "numeric",
            DrillKind.code_output: "code",
            DrillKind.debug: "options",
            DrillKind.tradeoff: "options",
        }.get(self.kind)
        if allowed is not None and given[0] != allowed:
            raise ValueError(f"a {self.kind.value} drill is answered with {allowed}, not {given[0]}")
        if self.kind == DrillKind.trace and given[0] == "code":
            raise ValueError("a trace drill is answered with numeric or options")
        if self.options is not None:
            if len(self.options) < 2:
                raise ValueError("options: at least two")
            right = sum(option.correct for option in self.options)
            if right != 1:
                raise ValueError(f"options: exactly one must be correct (got {right})")
        return self

    @property
    def answer_format(self) -> Literal["options", "numeric", "code"]:
        return "options" if self.options is not None else "numeric" if self.numeric is not None else "code"

    def summary(self) -> dict[str, str]:
        """What a listing shows: never the key."""
        return {"id": self.id, "topic": self.topic, "kind": self.kind.value, "difficulty": self.difficulty.value, "note": self.note}


class DrillFile(StrictModel):
    """One YAML file: the drills of one topic."""

    topic: str = Field(pattern=_ID)
    items: list[DrillItem] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _topic_on_items(cls, data: Any) -> Any:
        # Each item inherits the file's topic, so a file cannot silently mix topics.
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            topic = data.get("topic")
            data = {**data, "items": [{"topic": topic, **item} if isinstance(item, dict) else item for item in data["items"]]}
        return data
