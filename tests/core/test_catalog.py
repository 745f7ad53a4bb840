"""The home screen's scenario-list cache: written from validated scenarios, read only for the same files."""

from __future__ import annotations

import subprocess
import sys

from interviewer.catalog import entry_for, read_catalog, scenario_files, write_catalog
from rubrics.loader import shipped_scenario_files, validate_files


def test_the_cache_reads_back_what_was_validated_and_nothing_once_a_file_changes(tmp_path):
    files = shipped_scenario_files()
    assert scenario_files() == files  # the same files, found without importing the rubrics package
    scenarios, errors = validate_files(files)
    assert not errors
    path = tmp_path / "catalog-cache.json"
    write_catalog(path, files, scenarios)
    entries = read_catalog(path, files)
    assert entries == [entry_for(scenario) for scenario in scenarios]
    first = entries[0]
    assert (first.id, first.title, first.kind) == (scenarios[0].id, scenarios[0].title, str(scenarios[0].kind))
    assert len(first.steps) == len(scenarios[0].steps) and len(first.criteria) == len(scenarios[0].criteria)
    changed = [(files[0][0], files[0][1] + "\n# edited\n"), *files[1:]]
    assert read_catalog(path, changed) is None
    assert read_catalog(path, files[1:]) is None  # a file removed
    path.write_text("{not json")
    assert read_catalog(path, files) is None
    assert read_catalog(tmp_path / "missing.json", files) is None


def test_reading_the_cache_imports_neither_pydantic_nor_yaml():
    code = (
        "import sys; from interviewer.catalog import read_catalog, scenario_files; from pathlib import Path\n"
        "read_catalog(Path('/nonexistent'), scenario_files())\n"
        "print(sorted(m for m in ('pydantic', 'yaml', 'rubrics.loader') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
