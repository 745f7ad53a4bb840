"""The result of checking one numeric claim."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Verdict = Literal["correct", "incorrect", "unverifiable"]
Direction = Literal["approx", "at_least", "at_most"]
Source = Literal["stated", "earlier", "scenario", "assumed", "convention", "missing"]

PUBLIC_KEYS = ("text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "scope", "provenance")


class ClaimScope(BaseModel):
    """Which part of which total the claim's number is about, as the checker read it."""

    across: Literal["per_gpu", "total", "sent_per_gpu"] | None = None
    """"per_gpu" (one GPU's share), "total" (over all GPUs or replicas), "sent_per_gpu" (bytes one
    GPU sends); None when the claim says neither and the quantity has no split."""
    per: Literal["token", "sequence", "layer"] | None = None
    """The unit the number is per ("0.5 MB per token"); None when it is for the whole computation."""
    component: str | None = None
    """The part of the quantity the claim was compared with ("16-bit weights + 16-bit gradients",
    "optimizer states"); None for the whole quantity."""


class InputSource(BaseModel):
    """Where one input of the computation came from."""

    input: str
    value: float | str | None = None
    source: Source
    """"stated" in the claim's sentence, "earlier" in the answer, "scenario" (a given fact),
    "assumed" (a default), "convention" (each accepted convention was tried: dtypes, optimizer
    layouts) or "missing" (needed and not known, so there is no verdict)."""
    said: str = ""
    """The candidate's words for a stated or earlier input."""


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
    scope: ClaimScope = Field(default_factory=ClaimScope)
    provenance: list[InputSource] = Field(default_factory=list)
    """One entry per input of the computation the verdict rests on, in the order they were read."""
    accepted_values: list[float] = Field(default_factory=list, exclude=True)
    """Every value an accepted convention gave (the computed one among them); not stored or shown."""

    def to_public_dict(self) -> dict:
        """Exactly the keys of ``interviewer check --json``."""
        public = {key: getattr(self, key) for key in PUBLIC_KEYS}
        public["scope"] = self.scope.model_dump()
        public["provenance"] = [source.model_dump() for source in self.provenance]
        return public
