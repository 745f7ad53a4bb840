"""How the test suite proves every drill key: numeric keys are recomputed with the calculators and
must be stated by the worked solution; code-output keys are what the snippet prints when run here.

Snippets are run only by the test suite (never by the app), in a fresh namespace.
"""

from __future__ import annotations

import contextlib
import io
import math

from interviewer.drills.schema import DISPLAY_UNITS, DrillItem
from interviewer.tools import run_calculator
from interviewer.units import NUMBER_RE, number_value

CALCULATOR_UNITS = {
    "bytes": {"bytes"},
    "seconds": {"seconds"},
    "FLOPs": {"FLOPs"},
    "FLOP/s": {"FLOP/s"},
    "bytes/s": {"bytes/s"},
    "count": {"count"},
    "parameters": {"parameters", "count"},
    "tokens": {"tokens", "count"},
    "fraction": {"fraction"},
    "ratio": {"ratio", "count"},
}
"""The calculator units that can stand for each drill answer unit."""


def recompute_numeric_key(item: DrillItem) -> float:
    """The key straight from ``run_calculator`` (not through the drill checker)."""
    numeric = item.numeric
    assert numeric is not None
    result = run_calculator(numeric.key.calculator, **numeric.key.inputs)
    value = result.value if numeric.key.output == "value" else result.breakdown[numeric.key.output]
    return float(value) * numeric.key.times


def numeric_key_problems(item: DrillItem) -> list[str]:
    """Why a numeric drill's key cannot be trusted: a unit mismatch, or a worked solution whose last
    step does not state the computed key (in the display unit, within the tolerance)."""
    numeric = item.numeric
    assert numeric is not None
    problems = []
    result = run_calculator(numeric.key.calculator, **numeric.key.inputs)
    if numeric.key.output == "value" and result.unit not in CALCULATOR_UNITS[numeric.unit]:
        problems.append(f"{item.id}: the calculator answers in {result.unit}, the drill in {numeric.unit}")
    key = recompute_numeric_key(item)
    if not math.isfinite(key) or key <= 0:
        problems.append(f"{item.id}: key {key} is not a positive number")
        return problems
    shown = key / DISPLAY_UNITS[numeric.unit][numeric.display_unit]
    stated = [number_value(m) for m in NUMBER_RE.finditer(item.solution[-1].replace(",", ""))]
    if not any(value is not None and abs(value - shown) <= numeric.tolerance * shown for value in stated):
        problems.append(f"{item.id}: the worked solution's last step does not state the key {shown:.4g} {numeric.display_unit}")
    return problems


def run_snippet(snippet: str) -> str:
    """What a drill's snippet prints (run in a fresh namespace)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(snippet, "<drill snippet>", "exec"), {"__name__": "__drill__"})
    return buffer.getvalue()


def code_key_problems(item: DrillItem) -> list[str]:
    code = item.code
    assert code is not None
    printed = run_snippet(code.snippet).strip()
    if printed != code.output.strip():
        return [f"{item.id}: the snippet prints {printed!r}, the key says {code.output.strip()!r}"]
    return []
