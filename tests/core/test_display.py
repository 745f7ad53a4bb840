"""One way to write a score, a level and a status, shared by the CLI, the TUI and the export (issue #17, item 2)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app
from interviewer.display import format_score, level_line, status_label
from interviewer.domain import InterviewRecord, Scorecard
from interviewer.engine.export import export_markdown


@pytest.mark.parametrize("score", [71.8, 72.0, 0.0, 100.0, 71.85, 71.75, 62.45, 33.35])
def test_a_score_reads_as_grade_json_reports_it(score):
    card = Scorecard(scenario="x", score=score, level="mid", tiers={}, criteria=[])
    assert format_score(score) == f"{card.grade_json()['score']:.1f}"


def test_level_line_names_the_target_and_the_estimate():
    assert level_line("mid", "senior") == "target: mid · estimated: senior"
    assert level_line(None, "below mid") == "estimated: below mid"


def test_an_active_interview_is_unfinished():
    assert [status_label(s) for s in ("active", "finished", "abandoned")] == ["unfinished", "finished", "abandoned"]


def test_the_export_header_has_the_same_score_and_levels():
    card = Scorecard(scenario="moe-routing", score=71.8, level="senior", tiers={"must": 0.9}, criteria=[])
    record = InterviewRecord(
        id=3, scenario_id="moe-routing", scenario_hash="h", level="mid", started_at=datetime(2026, 1, 1, tzinfo=UTC), scorecard=card
    )
    report = export_markdown(record)
    assert "**Score: 71.8/100** · target: mid · estimated: senior" in report


@pytest.mark.slow
def test_grade_prints_the_json_score_and_the_target_beside_the_estimate(tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(["Mixed-precision Adam keeps 16 bytes per parameter: 160 GB for 10B, so ZeRO-3 over 8 GPUs is 20 GB each."]))
    _register_subcommands()
    args = ["grade", "--scenario", "train-10b-8gpu", "--answers", str(answers), "--level", "mid"]
    payload = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    text = CliRunner().invoke(app, args).output
    assert f"=== Score: {payload['score']:.1f}/100 · target: mid · estimated: {payload['level']} ===" in text
