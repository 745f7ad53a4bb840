"""A non-editable install carries every data file: build the wheel and load content from it alone."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("interviewer-*.whl"))


def test_wheel_contains_packages_and_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("interviewer", "tui", "rubrics", "knowledge"):
        assert f"{package}/__init__.py" in names
    assert sum(n.startswith("rubrics/scenarios/") and n.endswith(".yaml") for n in names) >= 12
    assert sum(n.startswith("knowledge/notes/") and n.endswith(".md") for n in names) >= 30
    assert sum(n.startswith("interviewer/drills/items/") and n.endswith(".yaml") for n in names) >= 12
    assert any(n.startswith("tui/") and n.endswith(".tcss") for n in names)
    assert any(n.endswith("entry_points.txt") for n in names)


def test_content_loads_from_the_wheel_alone(wheel, tmp_path):
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = (
        "import rubrics.loader as r, knowledge.notes as k, interviewer.drills.bank as d; "
        "print(len(r.load_scenarios()), len(k.load_notes()), len(d.load_bank().items), r.__file__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(target), "PATH": ""}, capture_output=True, text=True, check=True
    )
    scenarios, notes, drills, location = result.stdout.split()
    assert int(scenarios) >= 12 and int(notes) >= 30 and int(drills) >= 150
    assert location.startswith(str(target))
