"""The core entry points the app calls, gathered in one object so tests can swap in fakes.

Every import of the engine, the calculators and the exporter happens inside a function: those
modules pull in torch, the embedder and Chroma, and the first screen must be drawn before any
of that loads (``warm_up`` runs in a thread worker once the home screen is up).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.domain import InterviewRecord
    from interviewer.engine.protocol import InterviewAgent
    from interviewer.store.db import TranscriptStore
    from rubrics.loader import RubricError
    from rubrics.schema import Scenario


class AgentFactory(Protocol):
    """Starts a new interview: ``interviewer.engine.start_interview`` bound to settings and store."""

    def __call__(
        self,
        scenario_id: str,
        *,
        level: str = "senior",
        time_limit_minutes: float | None = None,
        mode: str | None = None,
    ) -> InterviewAgent: ...


def _engine_start_factory(settings: Settings, store: TranscriptStore | None) -> AgentFactory:
    def start(scenario_id: str, *, level: str = "senior", time_limit_minutes: float | None = None, mode: str | None = None):
        from interviewer.interviews import start_interview

        return start_interview(
            scenario_id, settings=settings, store=store, level=level, time_limit_minutes=time_limit_minutes, mode=mode
        )

    return start


def _engine_resume_factory(settings: Settings, store: TranscriptStore | None) -> Callable[[int], InterviewAgent]:
    def resume(interview_id: int):
        from interviewer.interviews import resume_interview

        if store is None:
            raise RuntimeError("the transcript database is not available, so there is nothing to resume")
        return resume_interview(interview_id, settings=settings, store=store)

    return resume


def _engine_warm_up(chroma_url: str | None = None) -> None:
    from interviewer.engine import warm_up

    warm_up(chroma_url)


def shipped_scenarios() -> tuple[list[Scenario], list[RubricError]]:
    # validate_files keeps the good scenarios when one file is broken, so a bad rubric costs
    # one entry in the list (and a notification) rather than the whole home screen.
    from interviewer.catalog import write_catalog
    from interviewer.locations import catalog_cache_file
    from rubrics.loader import shipped_scenario_files, validate_files

    files = shipped_scenario_files()
    scenarios, errors = validate_files(files)
    if not errors:  # with an error, the next launch validates before listing, and says so again
        write_catalog(catalog_cache_file(), files, scenarios)
    return scenarios, errors


def cached_catalog() -> list | None:
    """The last validated scenario list, if no shipped file changed since (see ``interviewer.catalog``)."""
    from interviewer.catalog import read_catalog, scenario_files
    from interviewer.locations import catalog_cache_file

    return read_catalog(catalog_cache_file(), scenario_files())


def _calculators() -> Mapping[str, Callable[..., Any]]:
    from interviewer.tools import CALCULATORS

    return CALCULATORS


def _run_calculator(name: str, **inputs: Any) -> Any:
    from interviewer.tools import run_calculator

    return run_calculator(name, **inputs)


def _format_quantity(value: float, unit: str) -> str:
    from interviewer.units import format_quantity

    return format_quantity(value, unit)


def _export_markdown(record: InterviewRecord) -> str:
    from interviewer.engine.export import export_markdown

    return export_markdown(record)


def _export_json(record: InterviewRecord) -> str:
    from interviewer.engine.export import export_json

    return export_json(record)


@dataclass
class CoreServices:
    """What the app asks of the core. The defaults call the real engine; tests pass fakes."""

    agent_factory: AgentFactory
    """Starts an interview and returns its agent (creates the stored row)."""
    resume_factory: Callable[[int], InterviewAgent]
    """Re-opens an unfinished interview by its id."""
    warm_up: Callable[[], None] = _engine_warm_up
    """Blocking: loads torch, the embedder and the knowledge index. Run in a thread."""
    load_scenarios: Callable[[], tuple[list[Scenario], list[RubricError]]] = shipped_scenarios
    calculators: Callable[[], Mapping[str, Callable[..., Any]]] = _calculators
    """Calculator name → function; the scratch form is built from each signature."""
    run_calculator: Callable[..., Any] = _run_calculator
    """``run_calculator(name, **inputs) -> CalcResult``; raises ``ValueError`` on bad inputs."""
    format_quantity: Callable[[float, str], str] = _format_quantity
    export_markdown: Callable[[InterviewRecord], str] = _export_markdown
    export_json: Callable[[InterviewRecord], str] = _export_json
    """The stored interview as JSON (``interviewer export --format json``)."""
    clock: Callable[[], float] = field(default=time.monotonic)
    """Seconds, for the interview timer; snapshot tests freeze it."""


def default_services(
    settings: Settings,
    store: TranscriptStore | None,
    agent_factory: AgentFactory | None = None,
) -> CoreServices:
    return CoreServices(
        agent_factory=agent_factory or _engine_start_factory(settings, store),
        resume_factory=_engine_resume_factory(settings, store),
        warm_up=lambda: _engine_warm_up(settings.chroma_url),
    )
