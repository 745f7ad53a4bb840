"""Load and validate the drill files shipped in ``interviewer/drills/items`` (or given by path).

Errors read ``file: field: message``, as the rubric loader's do: drills are validated against the
schema, against each other (unique ids) and against the notes and scenarios they cite.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from interviewer.drills.schema import DrillFile, DrillItem
from rubrics.loader import RubricError, RubricLoadError, _field_path

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

DrillError = RubricError
"""``file: field: message``: the same shape as a rubric error."""


class DrillLoadError(RubricLoadError):
    """One or more drill files are invalid; ``errors`` says where and why."""


def parse_drill_file(text: str, file: str) -> tuple[DrillFile | None, list[DrillError]]:
    try:
        data = yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(yaml)"
        return None, [DrillError(file, where, f"malformed YAML: {getattr(exc, 'problem', None) or exc}")]
    if not isinstance(data, dict):
        return None, [DrillError(file, "(top level)", "expected a mapping with topic and items")]
    try:
        return DrillFile.model_validate(data), []
    except ValidationError as exc:
        return None, [DrillError(file, _field_path(err["loc"]), err["msg"].removeprefix("Value error, ")) for err in exc.errors()]


def shipped_drill_files() -> list[tuple[str, str]]:
    folder = resources.files("interviewer.drills") / "items"
    return sorted((entry.name, entry.read_text(encoding="utf-8")) for entry in folder.iterdir() if entry.name.endswith((".yaml", ".yml")))


def read_drill_files(path: Path) -> list[tuple[str, str]]:
    paths = sorted(p for p in path.iterdir() if p.suffix in {".yaml", ".yml"}) if path.is_dir() else [path]
    return [(str(p), p.read_text(encoding="utf-8")) for p in paths]


def validate_drill_files(
    files: list[tuple[str, str]], *, known_notes: set[str] | None = None, known_topics: set[str] | None = None
) -> tuple[list[DrillItem], list[DrillError]]:
    """Every item of every file, and the errors: schema, duplicate ids, unknown notes or topics."""
    items: list[DrillItem] = []
    errors: list[DrillError] = []
    seen: dict[str, str] = {}
    for file, text in files:
        parsed, file_errors = parse_drill_file(text, file)
        errors.extend(file_errors)
        if parsed is None:
            continue
        if known_topics is not None and parsed.topic not in known_topics:
            errors.append(DrillError(file, "topic", f"unknown topic {parsed.topic!r}: a topic is a scenario id ({', '.join(sorted(known_topics))})"))
        for index, item in enumerate(parsed.items):
            if item.id in seen:
                errors.append(DrillError(file, f"items[{index}].id", f"duplicate drill id {item.id!r} (also in {seen[item.id]})"))
                continue
            seen[item.id] = file
            if known_notes is not None and item.note not in known_notes:
                errors.append(DrillError(file, f"items[{index}].note", f"unknown knowledge note {item.note!r}"))
            items.append(item)
    return items, errors


@dataclass(frozen=True)
class DrillBank:
    """The shipped drills, by id and by topic (file order)."""

    items: tuple[DrillItem, ...]

    def get(self, item_id: str) -> DrillItem:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(f"unknown drill {item_id!r}; `interviewer drills` lists them")

    def topics(self) -> list[str]:
        return list(dict.fromkeys(item.topic for item in self.items))

    def for_topic(self, topic: str) -> list[DrillItem]:
        return [item for item in self.items if item.topic == topic]


@lru_cache(maxsize=1)
def load_bank() -> DrillBank:
    """The shipped drills, validated against the shipped notes and scenarios (cached)."""
    from knowledge.notes import known_note_ids
    from rubrics.loader import load_scenarios

    items, errors = validate_drill_files(
        shipped_drill_files(), known_notes=known_note_ids(), known_topics={s.id for s in load_scenarios()}
    )
    if errors:
        raise DrillLoadError(errors)
    return DrillBank(tuple(items))
