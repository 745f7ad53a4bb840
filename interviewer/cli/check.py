"""``interviewer check "TEXT" [--scenario ID] [--fact KEY=VALUE] [--strict] [--json]``: check the numbers in an answer.

Each numeric claim (a number with a unit, and what it is about) is recomputed with the
calculators and judged ``correct`` (within its tolerance), ``incorrect`` (with the computed value
and the working) or ``unverifiable`` (with what is missing). ``--json`` prints
``{"claims": [{"text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "scope",
"provenance"}], "truncated": bool, "max_claims": int}`` with ``claimed`` and ``computed`` in the SI
base unit named by ``unit``; ``scope`` is ``{"across": "per_gpu" | "total" | "sent_per_gpu" | null,
"per": "token" | "sequence" | "layer" | null, "component": str | null}`` and ``provenance`` lists
each input as ``{"input", "value", "source", "said"}`` with ``source`` one of stated, earlier,
scenario, assumed, convention or missing; ``truncated`` is true when the checker reached ``max_claims`` claims and stopped
there, so claims after the last one listed were not checked (the table says so too). Exit codes:
0; 1 with ``--strict`` when a claim is incorrect; 2 for bad input, with a one-line ``error: ...``
on stderr.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from interviewer.cli.base import fail, print_json
from interviewer.cli.help import Command

try:  # typer ≥ 0.20 vendors click as typer._click; older releases use click itself
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import UsageError

MAX_TEXT_CHARS = 2_000_000
"""Longer input is refused rather than read into memory and parsed for minutes."""


class _OneLineErrorCommand(Command):
    """Click's usage errors (unknown option, missing argument) as one line, exit code 2."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except UsageError as error:
            typer.echo(f"error: {error.format_message()}", err=True)
            raise typer.Exit(2) from None


def _read_text(text: str) -> str:
    if text == "-":
        data = sys.stdin.buffer.read(MAX_TEXT_CHARS * 4 + 1)
        text = data.decode("utf-8", errors="replace")
    if len(text) > MAX_TEXT_CHARS:
        fail(f"TEXT is too long ({len(text):,} characters; the limit is {MAX_TEXT_CHARS:,})")
    if not text.strip():
        fail("nothing to check: TEXT is empty")
    return text


def _scenario_facts(scenario_id: str) -> dict[str, Any]:
    from rubrics.loader import RubricLoadError, get_scenario

    try:
        return dict(get_scenario(scenario_id).scenario.facts)
    except KeyError as error:
        fail(str(error.args[0]) if error.args else f"unknown scenario {scenario_id!r}")
    except RubricLoadError as error:
        first = error.errors[0] if error.errors else "unknown error"
        fail(f"cannot load the scenarios: {first}")


def _parse_facts(pairs: list[str]) -> dict[str, Any]:
    from interviewer.claims.resolve import KNOWN_FACTS, TEXT_FACTS, fact_name
    from interviewer.units import parse_quantity

    facts: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            fail(f"--fact: expected KEY=VALUE (e.g. params=10e9), got {pair!r}")
        name = fact_name(key)
        if name is None:
            fail(f"--fact: unknown fact {key!r}; known: {', '.join(KNOWN_FACTS)}")
        if name not in TEXT_FACTS and parse_quantity(value) is None:
            fail(f"--fact: {key}: expected a number such as 10e9, 10B, 4k or 200ms, got {value!r}")
        facts[key] = value
    return facts


def _table(checks: list, stopped_at: int | None) -> str:
    from interviewer.units import format_value

    if not checks:
        return "No numeric claims found."
    rows = [("#", "verdict", "quantity", "claimed", "computed")]
    for index, check in enumerate(checks, 1):
        rows.append((
            str(index), check.verdict, check.quantity,
            format_value(check.claimed, check.unit) if check.claimed is not None else "-",
            format_value(check.computed, check.unit) if check.computed is not None else "-",
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows[:1]]
    lines.append("  ".join("-" * width for width in widths))
    for row, check in zip(rows[1:], checks, strict=True):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        lines.append(f"    {check.text}")
        lines.append(f"    {check.explanation}")
    counts = {verdict: sum(1 for c in checks if c.verdict == verdict) for verdict in ("correct", "incorrect", "unverifiable")}
    lines.append("")
    lines.append(f"{len(checks)} claim{'s' if len(checks) != 1 else ''}: " + ", ".join(f"{n} {verdict}" for verdict, n in counts.items()))
    if stopped_at is not None:
        lines.append(
            f"stopped at the limit of {stopped_at} claims, after “{_shorten(checks[-1].text)}”: any claims after it were not checked"
        )
    return "\n".join(lines)


def _shorten(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def check(
    text: Annotated[str, typer.Argument(help='The answer to check (use "-" to read it from stdin).', show_default=False)],
    scenario: Annotated[str | None, typer.Option("--scenario", metavar="ID", help="Scenario id whose given facts (params, gpus, gpu, ...) fill missing inputs.")] = None,
    fact: Annotated[list[str] | None, typer.Option("--fact", metavar="KEY=VALUE", help="A given value KEY=VALUE, e.g. params=10e9 or gpu=a100 (repeatable; overrides the scenario).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit with code 1 when any claim is incorrect (for scripts and CI).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print {\"claims\": [...], \"truncated\": ...} as JSON, values in SI base units.")] = False,
) -> None:
    """Find the numeric claims in TEXT and check each with the calculators."""
    content = _read_text(text)
    facts: dict[str, Any] = _scenario_facts(scenario) if scenario else {}
    facts.update(_parse_facts(fact or []))
    from interviewer.claims import check_claims
    from interviewer.claims.checker import MAX_CLAIMS

    checks = check_claims(content, facts)
    # The checker stops reading once it holds MAX_CLAIMS results: a list that long means any
    # claims after the last one in it were not checked.
    truncated = len(checks) >= MAX_CLAIMS
    if as_json:
        print_json({"claims": [c.to_public_dict() for c in checks], "truncated": truncated, "max_claims": MAX_CLAIMS})
    else:
        typer.echo(_table(checks, MAX_CLAIMS if truncated else None))
    if strict and any(c.verdict == "incorrect" for c in checks):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.command("check", cls=_OneLineErrorCommand)(check)
