"""Input errors raised by calculators, and the small validators every calculator shares.

A calculator never lets a bad input turn into a wrong number: it raises
``CalculatorInputError(field, message)`` naming the input, which the CLI turns into
``error: --field: message`` (exit code 2) and the claim checker reports as "cannot check".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any


class CalculatorInputError(ValueError):
    """A calculator input is missing, malformed or out of range.

    ``field`` is the keyword-argument name (``micro_batch``); ``flag`` is its CLI spelling
    (``--micro-batch``).
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    @property
    def flag(self) -> str:
        return "--" + self.field.replace("_", "-")


def _as_number(field: str, value: Any, kind: str = "count") -> float:
    if value is None:
        raise CalculatorInputError(field, "is required")
    if isinstance(value, bool):
        raise CalculatorInputError(field, f"must be a number, got {value!r}")
    if isinstance(value, str):
        from interviewer.units import parse_flag

        try:
            return parse_flag(value, kind=kind)
        except ValueError as error:
            raise CalculatorInputError(field, str(error)) from None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise CalculatorInputError(field, f"must be a number, got {value!r}") from None
    if math.isnan(number) or math.isinf(number):
        raise CalculatorInputError(field, f"must be a finite number, got {value!r}")
    return number


def positive_int(field: str, value: Any) -> int:
    """An integer ≥ 1; integral floats such as ``64.0`` or ``7.5e9`` are accepted."""
    number = _as_number(field, value)
    if number != int(number) or number < 1:
        raise CalculatorInputError(field, "must be a positive integer")
    return int(number)


def non_negative_int(field: str, value: Any) -> int:
    number = _as_number(field, value)
    if number != int(number) or number < 0:
        raise CalculatorInputError(field, "must be a non-negative integer")
    return int(number)


def positive_float(field: str, value: Any, kind: str = "count") -> float:
    number = _as_number(field, value, kind)
    if number <= 0:
        raise CalculatorInputError(field, "must be a positive number")
    return number


def non_negative_float(field: str, value: Any, kind: str = "count") -> float:
    number = _as_number(field, value, kind)
    if number < 0:
        raise CalculatorInputError(field, "must be zero or a positive number")
    return number


def fraction_in_unit_interval(field: str, value: Any) -> float:
    """A fraction in (0, 1]; ``40`` or ``"40%"`` is read as 40 % so MFU can be typed either way."""
    if isinstance(value, str) and value.strip().endswith("%"):
        value = _as_number(field, value.strip()[:-1]) / 100
    number = _as_number(field, value)
    if 1 < number <= 100:
        number /= 100
    if not 0 < number <= 1:
        raise CalculatorInputError(field, "must be a fraction in (0, 1] (or a percentage up to 100)")
    return number


def choice(field: str, value: Any, options: Iterable[str]) -> str:
    options = list(options)
    text = str(value).strip().lower() if value is not None else ""
    if text not in options:
        raise CalculatorInputError(field, f"must be one of {', '.join(options)} (got {value!r})")
    return text
