"""What the home screen lists about each shipped scenario, cached so the list is drawn at launch.

Validating the scenario files (pydantic, and a regular expression compiled for every cue) takes
about 0.4 s, and opening the settings and the store another 0.3 s: the scenario list used to wait
for both. The list needs only a few fields, so after each successful validation they are written
to ``catalog-cache.json`` in the data dir, keyed by a hash of every scenario file's text. At the
next launch, if no file changed, the list is drawn from that file while the full validation runs
behind it (and replaces it). Nothing here imports pydantic or yaml.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

CATALOG_VERSION = 1
"""Bump when ``CatalogEntry`` changes: an old cache then no longer matches."""

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CatalogEntry:
    """One scenario as the home screen shows it (the same attribute names as ``Scenario``)."""

    id: str
    title: str
    kind: str
    topics: tuple[str, ...]
    prompt: str
    given: tuple[str, ...]
    steps: tuple[str, ...]
    """Step titles (the list shows how many)."""
    criteria: tuple[str, ...]
    """Criterion ids (the list shows how many)."""


def scenario_files() -> list[tuple[str, str]]:
    """(file name, text) of the shipped scenario files, without importing the ``rubrics`` package
    (its loader imports pydantic and yaml)."""
    spec = importlib.util.find_spec("rubrics")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations))) / "scenarios"
    return sorted(
        (path.name, path.read_text(encoding="utf-8")) for path in folder.iterdir() if path.suffix in (".yaml", ".yml")
    )


def catalog_key(files: list[tuple[str, str]]) -> str:
    digest = hashlib.sha256(f"catalog v{CATALOG_VERSION}".encode())
    for name, text in files:
        digest.update(b"\0" + name.encode() + b"\0" + text.encode())
    return digest.hexdigest()


def entry_for(scenario: Any) -> CatalogEntry:
    """A validated ``Scenario``'s entry."""
    return CatalogEntry(
        id=scenario.id,
        title=scenario.title,
        kind=str(scenario.kind),
        topics=tuple(scenario.topics),
        prompt=scenario.prompt,
        given=tuple(scenario.given),
        steps=tuple(step.title for step in scenario.steps),
        criteria=tuple(criterion.id for criterion in scenario.criteria),
    )


def write_catalog(path: Path, files: list[tuple[str, str]], scenarios: list[Any]) -> None:
    """Keep the entries of ``scenarios``, validated from ``files`` (atomically; a failure is logged)."""
    payload = {"key": catalog_key(files), "entries": [asdict(entry_for(scenario)) for scenario in scenarios]}
    try:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(payload), encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        logger.warning("cannot write the scenario catalog cache %s: %s", path, error)


def read_catalog(path: Path, files: list[tuple[str, str]]) -> list[CatalogEntry] | None:
    """The cached entries, or None when there are none for exactly these files."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        if payload.get("key") != catalog_key(files):
            return None
        return [
            CatalogEntry(**{name: tuple(value) if isinstance(value, list) else value for name, value in entry.items()})
            for entry in payload["entries"]
        ]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
