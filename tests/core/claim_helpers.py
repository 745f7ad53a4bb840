"""What the dev-set claim tests ask of the checker: every check of a text, the verdict on one claim."""

from __future__ import annotations

from interviewer.claims import check_claims
from rubrics.loader import get_scenario


def checks(text: str, scenario: str | None):
    return check_claims(text, dict(get_scenario(scenario).scenario.facts) if scenario else None)


def verdict_on(text: str, claim: str, scenario: str | None) -> str | None:
    """The verdict on the claim whose span covers ``claim`` (None when nothing was checked there)."""
    at = text.index(claim)
    on = [c for c in checks(text, scenario) if c.span and c.span[0] < at + len(claim) and at < c.span[1]]
    return next((c.verdict for c in on if c.verdict == "incorrect"), on[0].verdict if on else None)


def incorrect_anywhere(text: str, scenario: str | None) -> list[str]:
    return [c.explanation for c in checks(text, scenario) if c.verdict == "incorrect"]
