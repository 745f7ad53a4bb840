"""Coaching per step: the rubric's outline and tip, and what the candidate's own answer lacked in
structure, in the scorecard, ``grade --json`` and the export."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from typer.testing import CliRunner

from interviewer.domain import InterviewRecord, InterviewStatus
from interviewer.engine import grade_answers
from interviewer.engine.coaching import answers_in_step_order, missing_structure
from interviewer.engine.export import export_json, export_markdown
from rubrics.loader import get_scenario, load_scenarios

SERVE = "serve-2b-p99"

THIN_HARDWARE = "Use an A100 and batch requests."
"""No figure of its own (A100 is a name) and no contrast."""
STRONG_HARDWARE = (
    "The weights are 4 GB in fp16. Decode is memory-bound: about 2.6 ms per token on an A100, "
    "but an A10G is cheaper at the cost of about 6.7 ms per token."
)


def _step(scenario, step_id):
    return scenario.steps[scenario.step_index(step_id)]


def test_every_step_of_every_scenario_has_an_outline_and_a_tip():
    for scenario in load_scenarios():
        for step in scenario.steps:
            assert 3 <= len(step.outline) <= 5, (scenario.id, step.id)
            assert step.tip, (scenario.id, step.id)


def test_missing_differs_between_an_answer_with_numbers_and_trade_offs_and_one_without():
    scenario = get_scenario(SERVE).scenario
    step = _step(scenario, "hardware-latency")
    thin = missing_structure(scenario, step, [THIN_HARDWARE])
    strong = missing_structure(scenario, step, [STRONG_HARDWARE])
    assert [item.split(":")[0] for item in thin] == ["No numbers", "No trade-off"]
    # the step's own name, not a generic line (its title: a key decision is a whole sentence, which
    # read as "here about A layer is attention ..." in the trade-off item)
    assert f"\u201c{step.title}\u201d" in thin[1]
    assert strong == []


def test_framing_is_asked_for_on_the_first_step_of_a_design_and_satisfied_by_a_question():
    scenario = get_scenario(SERVE).scenario
    step = scenario.steps[0]
    assert missing_structure(scenario, step, ["The whole reply takes 150 tokens at 2.6 ms, so 390 ms."])[0].startswith("No framing")
    asked = missing_structure(scenario, step, ["Does the 100 ms cover the first token or the whole reply? A reply takes 390 ms."])
    assert not any(item.startswith("No framing") for item in asked)


def test_the_last_step_asks_for_a_close():
    scenario = get_scenario(SERVE).scenario
    last = scenario.steps[-1]
    open_ended = missing_structure(scenario, last, ["Quantize to int8, but check quality; monitor p99 with histograms at 1-minute windows."])
    closed = missing_structure(scenario, last, ["Quantize to int8, but check quality. In summary: stream, replicate, and I'd benchmark int8 first."])
    assert any(item.startswith("No close") for item in open_ended)
    assert not any(item.startswith("No close") for item in closed)


def test_an_unanswered_step_says_so():
    scenario = get_scenario(SERVE).scenario
    assert missing_structure(scenario, scenario.steps[2], []) == ["No answer to this step: the outline above is where a strong answer starts."]


def test_grade_answers_reads_the_ith_answer_as_the_ith_step():
    scenario = get_scenario(SERVE).scenario
    by_step = answers_in_step_order(scenario, ["a", "b"] + ["c"] * (len(scenario.steps) - 1))
    assert by_step[scenario.steps[0].id] == ["a"] and by_step[scenario.steps[1].id] == ["b"]
    assert len(by_step[scenario.steps[-1].id]) == 2  # the extra answer joins the last step


def test_grade_json_carries_coaching_per_step(tmp_path, monkeypatch):
    from interviewer.cli import _register_subcommands, app

    _register_subcommands()
    monkeypatch.setenv("INTERVIEWER_HOME", str(tmp_path))
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(["We just make the whole reply finish in 100 ms.", THIN_HARDWARE]))
    result = CliRunner().invoke(app, ["grade", "--scenario", SERVE, "--answers", str(answers), "--json"])
    assert result.exit_code == 0, result.output
    coaching = json.loads(result.stdout)["coaching"]
    scenario = get_scenario(SERVE).scenario
    assert [c["step"] for c in coaching] == [s.id for s in scenario.steps]
    hardware = coaching[1]
    assert set(hardware) == {"step", "title", "outline", "tip", "missing"}
    assert hardware["outline"] == list(_step(scenario, "hardware-latency").outline)
    assert any(item.startswith("No numbers") for item in hardware["missing"])


def test_the_export_carries_coaching_labelled_as_suggestions():
    scenario = get_scenario(SERVE).scenario
    card = grade_answers(scenario, ["Does the 100 ms cover the first token?", THIN_HARDWARE], use_embeddings=False)
    record = InterviewRecord(id=1, scenario_id=SERVE, scenario_hash="x", status=InterviewStatus.finished,
                             started_at=datetime(2026, 1, 1, tzinfo=UTC), scorecard=card)
    markdown = export_markdown(record)
    assert "## Coaching per step (suggestions)" in markdown
    assert f"1. {_step(scenario, 'hardware-latency').outline[0]}" in markdown
    assert "- Missing: No numbers" in markdown
    exported = json.loads(export_json(record))["scorecard"]["coaching"]
    assert exported[1]["step"] == "hardware-latency" and exported[1]["tip"] == _step(scenario, "hardware-latency").tip


def test_no_coaching_on_a_card_that_hides_the_model_answer():
    from interviewer.engine.scoring import build_scorecard

    scenario = get_scenario(SERVE).scenario
    hidden = build_scorecard(scenario, {}, [], reveal_model_answer=False, answers_by_step={"hardware-latency": [THIN_HARDWARE]})
    shown = build_scorecard(scenario, {}, [], reveal_model_answer=True, answers_by_step={"hardware-latency": [THIN_HARDWARE]})
    assert hidden.coaching == [] and hidden.model_answer == ""
    assert [c.step for c in shown.coaching] == [s.id for s in scenario.steps]


def test_numbers_and_trade_offs_are_asked_for_only_where_the_steps_criteria_ask_for_them():
    scenario = get_scenario("attention-vs-rnn").scenario
    position = _step(scenario, "position")  # its criteria ask for explanations only
    assert not any("number" in c.requires or "tradeoff" in c.requires for c in scenario.criteria if c.step == "position")
    assert missing_structure(scenario, position, ["RoPE rotates queries and keys so the score depends on the offset."]) == []
    cost = _step(scenario, "cost-comparison")
    assert [i.split(":")[0] for i in missing_structure(scenario, cost, ["Attention is parallel over positions."])] == ["No numbers", "No trade-off"]
