"""The result of checking one numeric claim."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Verdict = Literal["correct", "incorrect", "unverifiable"]
Direction = Literal["approx", "at_least", "at_most"]

PUBLIC_KEYS = ("text", "quantity", "claimed", "computed", "unit", "verdict", "explanation")


class ClaimCheck(BaseModel):
    """One numeric claim from a candidate's answer, checked against the calculators.

    ``claimed`` and ``computed`` are in the SI base unit named by ``unit`` ("bytes", "seconds",
    "FLOPs", "parameters", "tokens", "fraction", "count", "FLOP/s", "bytes/s"), never GB or ms.
    """

    text: str
    """The claim's sentence (or clause, when a sentence makes several claims), in the candidate's words."""
    quantity: str
    """What the number is about: "model-state memory per GPU", "KV cache size", ..."""
    claimed: float | None
    computed: float | None
    unit: str
    verdict: Verdict
    explanation: str
    """One or two sentences: what was said, what the calculators give, and why."""
    working: list[str] = Field(default_factory=list)
    """Where each input came from, then the calculator's own steps."""
    calculator: str | None = None
    inputs: dict = Field(default_factory=dict)
    convention: str | None = None
    """Which accepted convention matched when it is not the usual one (e.g. "18 bytes/param (fp32 gradients)")."""
    tolerance: float = 0.15
    """Relative tolerance: a claim c matches a value v when v/(1+t) ≤ c ≤ v·(1+t)."""
    direction: Direction = "approx"
    span: tuple[int, int] | None = None
    """Character offsets of the claimed number in the checked text."""

    def to_public_dict(self) -> dict:
        """Exactly the keys of ``interviewer check --json``."""
        return {key: getattr(self, key) for key in PUBLIC_KEYS}
