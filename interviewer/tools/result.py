"""The result every calculator returns: a value in an SI base unit, with its working."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Unit = Literal["bytes", "FLOPs", "seconds", "parameters", "fraction", "count", "tokens", "FLOP/s", "bytes/s", "ratio"]


class CalcResult(BaseModel):
    """A calculator's answer.

    ``value`` is always in the SI base unit named by ``unit`` (bytes, not GB; seconds, not ms),
    so callers convert only for display.
    """

    name: str
    """The calculator's CLI name, e.g. ``model-states``."""
    value: float
    unit: Unit
    breakdown: dict[str, float | int | str] = Field(default_factory=dict)
    """Named intermediate values (the working), in base units unless the key says otherwise."""
    working: list[str] = Field(default_factory=list)
    """Human-readable steps, e.g. ``"16 bytes/param × 10e9 params = 160 GB"``."""
    source: str
    """Paper and equation/table (or datasheet) the formula comes from."""

    def to_json_dict(self) -> dict:
        return {"value": self.value, "unit": self.unit, "breakdown": self.breakdown, "working": self.working, "source": self.source}
