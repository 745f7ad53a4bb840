"""The scenario schema, every shipped rubric file, and the errors a broken file gets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app
from interviewer.engine.evidence import criterion_quantities
from knowledge.notes import known_note_ids
from rubrics.loader import get_scenario, load_scenarios, parse_scenario, shipped_scenario_files, validate_files
from rubrics.schema import TIER_WEIGHTS, Tier

REQUIRED_IDS = {
    "train-10b-8gpu",
    "serve-2b-p99",
    "realtime-translation",
    "attention-vs-rnn",
    "moe-routing",
    "parallelism-allreduce",
}
SHIPPED = [name for name, _ in shipped_scenario_files()]


def test_tier_weights_are_60_30_10():
    assert TIER_WEIGHTS == {"must": 0.6, "good": 0.3, "bonus": 0.1}
    assert sum(TIER_WEIGHTS.values()) == pytest.approx(1.0)


def test_required_scenarios_and_at_least_twelve_ship():
    ids = {s.id for s in load_scenarios()}
    assert REQUIRED_IDS <= ids
    assert len(ids) >= 12


@pytest.mark.parametrize("file_name", SHIPPED)
def test_every_shipped_file_is_valid_and_complete(file_name):
    text = dict(shipped_scenario_files())[file_name]
    scenario, errors = parse_scenario(text, file_name)
    assert errors == []
    assert file_name == f"{scenario.id}.yaml"
    notes = known_note_ids()
    for criterion in scenario.criteria:
        # Something to judge by: cues, or quantities in the description matched by value.
        assert criterion.evidence or criterion.asks_about or criterion_quantities(scenario, criterion), criterion.id
        assert set(criterion.notes) <= notes, criterion.id
    for tier in Tier:
        assert scenario.criteria_for(tier), f"{scenario.id} has no {tier} criteria"
    for step in scenario.steps:
        assert step.probes and step.hint and step.question
    assert scenario.model_answer.strip() and scenario.levels.mid and scenario.levels.senior


@pytest.mark.parametrize("file_name", SHIPPED)
def test_every_shipped_step_has_a_human_title(file_name):
    """Titles are what the app and the CLI show for a step ("What the 100 ms means", not "Clarify slo")."""
    scenario, _ = parse_scenario(dict(shipped_scenario_files())[file_name], file_name)
    titles = [step.title for step in scenario.steps]
    assert len(set(titles)) == len(titles), titles
    for step in scenario.steps:
        assert not step.title.endswith("."), f"{step.id}: a title is a name, not a sentence"


def test_shipped_files_validate_together_with_note_references():
    scenarios, errors = validate_files(shipped_scenario_files(), known_notes=known_note_ids())
    assert errors == []
    assert len(scenarios) == len(SHIPPED)


def test_get_scenario_has_hash_and_unknown_id_lists_known():
    loaded = get_scenario("train-10b-8gpu")
    assert len(loaded.hash) == 16
    with pytest.raises(KeyError, match="known: .*attention-vs-rnn"):
        get_scenario("no-such-scenario")


def _broken(tmp_path: Path, mutate) -> Path:
    data = yaml.safe_load(dict(shipped_scenario_files())["attention-vs-rnn.yaml"])
    mutate(data)
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _validate(path: Path):
    _register_subcommands()
    return CliRunner().invoke(app, ["rubrics", "validate", str(path)])


@pytest.mark.parametrize(
    ("mutate", "field", "message"),
    [
        (lambda d: d.pop("prompt"), "prompt", "Field required"),
        (lambda d: d["criteria"][0].update(tier="critical"), "criteria[0].tier", "Input should be 'must', 'good' or 'bonus'"),
        (lambda d: d["criteria"][1].update(evidence=["(unclosed"]), "criteria[1].evidence", "not a valid regular expression"),
        (lambda d: d["criteria"][2].update(check={"calculator": "warp-drive", "quantity": "x"}), "criteria[2].check.calculator", "unknown calculator"),
        (lambda d: d["criteria"][0].update(notes=["no-such-note"]), "criteria[0].notes", "unknown knowledge note"),
        (lambda d: d["steps"][0].update(color="blue"), "steps[0].color", "Extra inputs are not permitted"),
        (lambda d: d["steps"][0].pop("title"), "steps[0].title", "Field required"),
        (lambda d: d["criteria"].append(dict(d["criteria"][0])), "(top level)", "duplicate id"),
        (lambda d: d["criteria"][0].update(step="nowhere"), "(top level)", "step 'nowhere'"),
        (lambda d: d["criteria"][0].update(requires=["question"], asks_about=["no-such-fact"]), "(top level)", "asks_about unknown ask_facts"),
        (lambda d: d["criteria"][0].update(asks_about=["sequence-length"]), "criteria[0]", "must require a question"),
        (lambda d: d["ask_facts"][0].update(cues=["(unclosed"]), "ask_facts[0].cues", "not a valid regular expression"),
        (lambda d: d["ask_facts"].append(dict(d["ask_facts"][0])), "(top level)", "ask_facts: duplicate id"),
    ],
)
def test_broken_rubric_names_file_and_field(tmp_path, mutate, field, message):
    path = _broken(tmp_path, mutate)
    result = _validate(path)
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if line.startswith(str(path)))
    assert line.startswith(f"{path}: {field}: "), line
    assert message in line


def test_malformed_yaml_names_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\ntitle: [unclosed\n")
    result = _validate(path)
    assert result.exit_code == 1
    assert re.search(rf"{re.escape(str(path))}: line \d+, column \d+: malformed YAML", result.output)


def test_duplicate_scenario_ids_across_files(tmp_path):
    text = dict(shipped_scenario_files())["attention-vs-rnn.yaml"]
    (tmp_path / "a.yaml").write_text(text)
    (tmp_path / "b.yaml").write_text(text)
    result = _validate(tmp_path)
    assert result.exit_code == 1
    assert f"{tmp_path / 'b.yaml'}: id: duplicate scenario id 'attention-vs-rnn'" in result.output


def test_validate_shipped_and_scenarios_json():
    _register_subcommands()
    runner = CliRunner()
    ok = runner.invoke(app, ["rubrics", "validate"])
    assert ok.exit_code == 0, ok.output
    listed = runner.invoke(app, ["scenarios", "--json"])
    assert listed.exit_code == 0
    import json

    items = json.loads(listed.output)
    assert {item["id"] for item in items} >= REQUIRED_IDS
    assert all({"id", "title", "kind"} <= set(item) for item in items)


def test_missing_path_is_a_clear_error(tmp_path):
    result = _validate(tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert "no such file or folder" in result.output


_LITERAL_NUMBER = re.compile(
    r"^(\\b)?~?\??(\\s\*)?\(?\d[\d,]*(\\\.\d+)?(\\d\?|\?)?(\\s[*+?]|\s)*\(?\s*"
    r"(gb|gi\?b|gib|mi\?b|mib|mb|kb|tb|ms|days?|bytes|%|min|sec|tokens|e\\\+|e\+|\(e)",
    re.IGNORECASE,
)


@pytest.mark.parametrize("file_name", SHIPPED)
def test_no_cue_is_a_literal_number_and_every_criterion_says_what_it_requires(file_name):
    """Quantities are matched by value (any unit or notation), so a cue like '\\b160\\s*gb' would
    only miss "1.6e11 bytes"; and the shipped rubrics state each criterion's requirement."""
    raw = yaml.safe_load(dict(shipped_scenario_files())[file_name])
    for criterion in raw["criteria"]:
        assert "requires" in criterion, criterion["id"]
        for cue in criterion.get("evidence", []):
            alternatives = re.split(r"\|(?![^(]*\))", cue)
            assert not all(_LITERAL_NUMBER.match(a.strip()) for a in alternatives), (criterion["id"], cue)


def test_no_model_answer_line_starts_a_list_in_the_middle_of_a_sentence():
    """A wrapped line that begins with "+ " or "* " renders as a bullet in Markdown and splits the
    sentence ("(500 prompt • 150 reply)", issue #17, item 5): keep the operator on the line before."""
    scenarios, errors = validate_files(shipped_scenario_files())
    assert not errors
    stray = []
    for scenario in scenarios:
        lines = scenario.model_answer.splitlines()
        for previous, line in zip(lines, lines[1:], strict=False):
            starts_item = line.lstrip()[:2] in ("+ ", "* ")
            continues_text = previous.strip() and previous.lstrip()[:2] not in ("+ ", "* ", "- ")
            if starts_item and continues_text:
                stray.append(f"{scenario.id}: {line.strip()[:60]}")
    assert not stray
