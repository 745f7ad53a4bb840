"""Checking a drill answer: options by letter, numbers in any notation the claim checker reads,
printed output token by token; with a specific explanation when a number is off by a factor or
in the wrong unit, and always the worked solution.

Numbers go through ``interviewer.units.parse_quantity`` (the claim checker's reader), so
"40 GB", "4e10 bytes", "~37 GiB", "1.3 ms", "27%" and "200B" all read the same way here as in an
interview. A bare number ("37.5") is read in the drill's display unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from interviewer.drills.schema import DISPLAY_UNITS, DrillItem, NumericAnswer
from interviewer.units import Quantity, parse_quantity

Diagnosis = Literal["correct", "wrong-option", "wrong-value", "wrong-unit", "off-by-factor", "binary-vs-decimal", "wrong-output"]


class DrillAnswerError(ValueError):
    """The answer cannot be read (not a letter, not a number): nothing is recorded."""


@dataclass(frozen=True)
class NumericKey:
    value: float
    """In the base unit of ``NumericAnswer.unit``."""
    working: list[str]
    source: str


@dataclass
class DrillResult:
    item: DrillItem
    correct: bool
    given: str
    expected: str
    """The key as shown: "37.5 GB", "b) ZeRO-3", the printed output."""
    unit: str
    verdict: str
    """One or two sentences: why the answer is right, or what exactly is wrong with it."""
    diagnosis: Diagnosis
    solution: list[str] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "id": self.item.id,
            "correct": self.correct,
            "given": self.given,
            "expected": self.expected,
            "unit": self.unit,
            "diagnosis": self.diagnosis,
            "explanation": self.verdict,
            "solution": self.solution,
            "quick_check": self.item.quick_check,
            "mistakes": self.item.mistakes,
            "note": self.item.note,
        }


# -- keys ---------------------------------------------------------------------------------------


def numeric_key(numeric: NumericAnswer) -> NumericKey:
    """Run the calculator the drill names; the key is its value or one of its breakdown entries."""
    from interviewer.tools import run_calculator

    result = run_calculator(numeric.key.calculator, **numeric.key.inputs)
    if numeric.key.output == "value":
        value = result.value
    else:
        if numeric.key.output not in result.breakdown:
            raise KeyError(f"{numeric.key.calculator} has no breakdown entry {numeric.key.output!r} (has {', '.join(result.breakdown)})")
        value = result.breakdown[numeric.key.output]
        if not isinstance(value, (int, float)):
            raise TypeError(f"{numeric.key.calculator}.{numeric.key.output} is not a number ({value!r})")
    inputs = " ".join(f"--{name.replace('_', '-')} {value:g}" if isinstance(value, float) else f"--{name.replace('_', '-')} {value}" for name, value in numeric.key.inputs.items())
    working = [f"calculator: interviewer calc {numeric.key.calculator} {inputs}".rstrip(), *result.working]
    if numeric.key.times != 1:
        working.append(f"× {numeric.key.times:g} = {format_in_unit(value * numeric.key.times, numeric)}")
    return NumericKey(float(value) * numeric.key.times, working, result.source)


def _significant(value: float) -> str:
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e6 or magnitude < 1e-3:
        return f"{value:.3g}"
    if magnitude >= 100:
        return f"{value:,.0f}" if abs(value - round(value)) < 0.05 else f"{value:,.1f}"
    return f"{value:.3g}"


def format_in_unit(value: float, numeric: NumericAnswer) -> str:
    """The value in the drill's display unit: "37.5 GB", "139 days", "27.3%", "1.29 ms"."""
    size = DISPLAY_UNITS[numeric.unit][numeric.display_unit]
    unit = numeric.display_unit
    text = _significant(value / size)
    if unit in ("", "%", "×", "k", "M", "B", "T"):
        shown = f"{text}{unit}"
    else:
        shown = f"{text} {unit}"
    if numeric.unit in ("parameters", "tokens") and unit != "":
        shown += f" {numeric.unit}"
    return shown


# -- answers ------------------------------------------------------------------------------------

_APPROXIMATELY = re.compile(r"^\s*(?:~|≈|about|around|roughly|approx\.?|approximately|circa|ca\.)\s*", re.IGNORECASE)
_NOUNS = re.compile(r"\s*(?:tokens?|params?|parameters?|requests?|steps?|gpus?|replicas?|sequences?|elements?)\s*$", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$")

ACCEPTED_DIMENSIONS: dict[str, set[str]] = {
    "bytes": {"bytes"},
    "seconds": {"seconds", "s_per_token"},
    "FLOPs": {"flops?", "FLOPs"},
    "FLOP/s": {"FLOP/s", "flops?"},
    "bytes/s": {"bytes/s"},
    "count": {"count"},
    "parameters": {"count"},
    "tokens": {"count"},
    "fraction": {"fraction"},
    "ratio": {"count"},
}
_DIMENSION_WORDS = {
    "bytes": "a size", "seconds": "a time", "s_per_token": "a time per token", "tokens_per_s": "a rate in tokens/s",
    "FLOPs": "a FLOP count", "flops?": "a FLOP count", "FLOP/s": "a FLOP rate", "bytes/s": "a bandwidth",
    "count": "a plain number", "fraction": "a percentage", "req_per_s": "a request rate", "bytes_per_param": "bytes per parameter",
    "tokens_per_param": "tokens per parameter", "flops_per_byte": "an arithmetic intensity",
}
_UNIT_WORDS = {
    "bytes": "a size", "seconds": "a time", "FLOPs": "a FLOP count", "FLOP/s": "a FLOP rate", "bytes/s": "a bandwidth",
    "count": "a count", "parameters": "a parameter count", "tokens": "a token count", "fraction": "a fraction", "ratio": "a ratio",
}

COMMON_FACTORS: tuple[tuple[float, str], ...] = (
    (2.0, "a factor of 2 (K and V, forward and backward, reduce-scatter and all-gather, 2 bytes per 16-bit value?)"),
    (4.0, "a factor of 4 (fp32 vs 8-bit, or 4 bytes where 1 was meant?)"),
    (8.0, "a factor of 8 (bits vs bytes, or the 8 GPUs?)"),
    (3.0, "a factor of 3 (forward only vs forward + backward?)"),
    (10.0, "a factor of 10 (a decimal slip)"),
    (16.0, "a factor of 16 (all 16 bytes per parameter vs 1?)"),
    (1e3, "a factor of 1,000 (a unit prefix: k/M/G or ms/s)"),
    (1e6, "a factor of a million (a unit prefix two steps off)"),
    (1e9, "a factor of a billion (B of parameters read as bytes, or ns vs s?)"),
)


@dataclass(frozen=True)
class ReadNumber:
    value: float
    """In the drill's base unit."""
    dim: str
    binary_alternative: float | None


def read_number(text: str, numeric: NumericAnswer) -> ReadNumber:
    """The answer in the drill's base unit; a bare number is read in the display unit.

    Raises ``DrillAnswerError`` when the text is not one number with an optional unit.
    """
    cleaned = _APPROXIMATELY.sub("", text.strip()).strip()
    if numeric.unit in ("count", "parameters", "tokens", "ratio"):
        cleaned = _NOUNS.sub("", cleaned).rstrip("×x ").strip()
    quantity: Quantity | None = parse_quantity(cleaned) if cleaned else None
    if quantity is None:
        example = f"37.5 {numeric.display_unit}".strip() if numeric.display_unit not in ("%", "×") else f"27{numeric.display_unit}"
        raise DrillAnswerError(f"cannot read {text.strip()!r} as a number: write it like {example!r} or 4e10 (a bare number is read in {numeric.display_unit or 'plain units'})")
    value, dim = quantity.value, quantity.dim
    if dim == "count":
        if _PLAIN_NUMBER.match(cleaned):
            # A bare "37.5" is in the display unit ("0.27" is a fraction, "27" is 27 %) ...
            if not (numeric.unit == "fraction" and numeric.display_unit == "%" and value <= 1):
                value *= DISPLAY_UNITS[numeric.unit][numeric.display_unit]
        # ... while "4e10" or "200B" are absolute, in the base unit (bytes, seconds, ...).
        dim = next(iter(ACCEPTED_DIMENSIONS[numeric.unit]))
    return ReadNumber(value, dim, quantity.binary_alternative)


def _close(value: float, key: float, tolerance: float) -> bool:
    return abs(value - key) <= tolerance * abs(key) if key else abs(value) <= tolerance


def check_numeric(item: DrillItem, answer: str, key: NumericKey | None = None) -> DrillResult:
    numeric = item.numeric
    assert numeric is not None
    key = key or numeric_key(numeric)
    read = read_number(answer, numeric)
    expected = format_in_unit(key.value, numeric)
    solution = [*item.solution, *key.working]
    tolerance_text = f"±{numeric.tolerance:.0%}"

    def result(correct: bool, diagnosis: Diagnosis, verdict: str) -> DrillResult:
        return DrillResult(item, correct, answer.strip(), expected, numeric.display_unit or numeric.unit, verdict, diagnosis, solution)

    if read.dim not in ACCEPTED_DIMENSIONS[numeric.unit]:
        given_as = _DIMENSION_WORDS.get(read.dim, read.dim)
        return result(
            False,
            "wrong-unit",
            f"Wrong unit: {answer.strip()!r} is {given_as}, but the question asks for {_UNIT_WORDS[numeric.unit]} "
            f"(in {numeric.display_unit or numeric.unit}). The key is {expected}.",
        )
    shown = format_in_unit(read.value, numeric)
    if _close(read.value, key.value, numeric.tolerance):
        return result(True, "correct", f"Correct: {shown} is within {tolerance_text} of {expected}.")
    if read.binary_alternative is not None and _close(read.binary_alternative, key.value, numeric.tolerance):
        return result(
            False,
            "binary-vs-decimal",
            f"Right number, wrong unit base: {answer.strip()!r} is {shown}. 1 GiB = 2^30 B = 1.074 GB, and the "
            f"binary and decimal prefixes differ by 2.4 % per step (7 % at G, 10 % at T); the key is {expected}.",
        )
    ratio = read.value / key.value if key.value else math.inf
    for factor_hint in numeric.factor_hints:
        if _close(ratio, factor_hint.factor, numeric.tolerance):
            return result(False, "off-by-factor", f"Off by a factor of {_factor_text(factor_hint.factor)}: {shown} vs {expected}. {factor_hint.why}")
    for factor, why in COMMON_FACTORS:
        for direction, word in ((factor, "too large"), (1 / factor, "too small")):
            if _close(ratio, direction, numeric.tolerance):
                return result(False, "off-by-factor", f"Off by {why}: {shown} is {factor:g}× {word}; the key is {expected}.")
    return result(False, "wrong-value", f"Not quite: {shown} vs the key {expected} (tolerance {tolerance_text}). Follow the worked solution.")


def _factor_text(factor: float) -> str:
    return f"{factor:.3g}" if factor >= 1 else f"1/{1 / factor:.3g}"


def option_index(item: DrillItem, answer: str) -> int:
    """The picked option: a letter (``b``, ``B)``) or the option's exact text. Not a digit: options are
    often numbers themselves ("4 bytes"), so "4" would be ambiguous."""
    assert item.options is not None
    text = answer.strip().rstrip(").").strip().lower()
    letters = "abcdefghij"[: len(item.options)]
    if len(text) == 1 and text in letters:
        return letters.index(text)
    for index, option in enumerate(item.options):
        if option.text.strip().lower() == answer.strip().lower():
            return index
    raise DrillAnswerError(f"answer with one letter, {', '.join(letters[:-1])} or {letters[-1]} (got {answer.strip()!r})")


def option_label(index: int) -> str:
    return "abcdefghij"[index]


def check_options(item: DrillItem, answer: str) -> DrillResult:
    assert item.options is not None
    picked = option_index(item, answer)
    right = next(index for index, option in enumerate(item.options) if option.correct)
    expected = f"{option_label(right)}) {item.options[right].text}"
    option = item.options[picked]
    if option.correct:
        verdict, diagnosis = f"Correct: {option.why}", "correct"
    else:
        verdict = f"Not {option_label(picked)}: {option.why} The answer is {option_label(right)}: {item.options[right].why}"
        diagnosis = "wrong-option"
    return DrillResult(item, option.correct, answer.strip(), expected, "option", verdict, diagnosis, list(item.solution))


_OUTPUT_TOKEN = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|[a-z_][a-z0-9_]*")


def output_tokens(text: str) -> list[float | str]:
    """What printed output says, without its punctuation: ``torch.Size([2, 3])`` and ``(2, 3)`` are both [2, 3]."""
    lowered = text.strip().lower().replace("torch.size", " ").replace("torch.", "")
    tokens: list[float | str] = []
    for token in _OUTPUT_TOKEN.findall(lowered):
        try:
            tokens.append(float(token))
        except ValueError:
            tokens.append(token)
    return tokens


def same_output(given: str, expected: str) -> bool:
    a, b = output_tokens(given), output_tokens(expected)
    if len(a) != len(b) or not b:
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, float) and isinstance(y, float):
            if not math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9):
                return False
        elif x != y:
            return False
    return True


def check_output(item: DrillItem, answer: str) -> DrillResult:
    assert item.code is not None
    if not answer.strip():
        raise DrillAnswerError("type what the snippet prints (spacing and brackets do not matter)")
    correct = same_output(answer, item.code.output)
    verdict = (
        "Correct: that is what it prints."
        if correct
        else f"Not quite: it prints {item.code.output.strip()!r} (spacing and brackets are ignored, numbers and names are not)."
    )
    return DrillResult(item, correct, answer.strip(), item.code.output.strip(), "output", verdict, "correct" if correct else "wrong-output", list(item.solution))


def check_answer(item: DrillItem, answer: str) -> DrillResult:
    """Check one answer; raises ``DrillAnswerError`` when it cannot be read (nothing to record)."""
    if not answer or not answer.strip():
        raise DrillAnswerError("the answer is empty")
    if item.options is not None:
        return check_options(item, answer)
    if item.numeric is not None:
        return check_numeric(item, answer)
    return check_output(item, answer)


def expected_answer(item: DrillItem) -> tuple[str, str]:
    """(the key as shown, its unit) without an answer: for the test suite and ``--json`` of a revealed item."""
    if item.options is not None:
        right = next(index for index, option in enumerate(item.options) if option.correct)
        return f"{option_label(right)}) {item.options[right].text}", "option"
    if item.numeric is not None:
        return format_in_unit(numeric_key(item.numeric).value, item.numeric), item.numeric.display_unit or item.numeric.unit
    assert item.code is not None
    return item.code.output.strip(), "output"
