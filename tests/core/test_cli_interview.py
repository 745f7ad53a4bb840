"""The interview CLI for real: scripted stdin interviews, a SIGKILL mid-interview, grade, history, show, export."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app
from interviewer.store import open_store

pytestmark = pytest.mark.slow


def run_cli(*args: str, stdin: str | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "interviewer", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )


def test_scripted_interview_over_stdin_runs_to_the_scorecard():
    answers = [
        "RNNs compute h_t from h_{t-1}, so training is sequential over time steps and can't be parallelized; gradients vanish through backprop through time.",
        "I'm not sure.",
        "Each layer does scaled dot-product attention softmax(QK^T / sqrt(d_k)) V with multiple heads, then a feed-forward network, each with a residual connection and layer norm.",
        "Attention is O(n^2 d) per layer while a recurrent layer is O(n d^2).",
        "Positional encodings: sinusoidal or learned, and RoPE rotates queries and keys.",
        "At inference we keep a KV cache of keys and values for every layer.",
    ]
    result = run_cli("interview", "--scenario", "attention-vs-rnn", "--json", stdin="\n".join(answers + ["/end"]) + "\n")
    assert result.returncode == 0, result.stderr
    stdout = result.stdout
    payload = json.loads(stdout[stdout.index("\n{") + 1 :])
    assert payload["scenario"] == "attention-vs-rnn" and 0 < payload["score"] <= 100
    assert stdout.count("interviewer>") >= 4
    assert "[step 2/5: Anatomy of a Transformer layer]" in stdout  # the step's title, not its id
    record = open_store().list_interviews()[0]
    assert record.status.value == "finished"
    said = [t.text for t in open_store().turns(record.id) if t.role.value == "candidate"]
    assert said == answers


def test_sigkill_mid_interview_loses_no_answered_turn_and_resumes():
    process = subprocess.Popen(
        [sys.executable, "-m", "interviewer", "interview", "--scenario", "serve-2b-p99"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    answers = ["I'd clarify whether the 100 ms p99 is time to first token.", "We stream tokens to the user."]

    def wait_for_reply() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if line.startswith("interviewer>"):
                return
        pytest.fail("no interviewer reply")

    wait_for_reply()  # the opening question
    for answer in answers:
        process.stdin.write(answer + "\n")
        process.stdin.flush()
        wait_for_reply()
    process.stdin.write("Decode is memory-bound so int8 weights help.\n")
    process.stdin.flush()
    time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(10)

    store = open_store()
    interview = store.list_interviews()[0]
    said = [t.text for t in store.turns(interview.id) if t.role.value == "candidate"]
    assert said[:2] == answers
    assert interview.status.value == "active"

    resumed = run_cli("interview", "--resume", str(interview.id), stdin="/end\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Score:" in resumed.stdout
    assert store.get(interview.id).status.value == "finished"
    said_after = [t.text for t in store.turns(interview.id) if t.role.value == "candidate"]
    assert said_after[:2] == answers


@pytest.fixture
def cli():
    _register_subcommands()
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_grade_json_follows_the_contract(cli, tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(
        json.dumps(
            [
                "Model states are 16 bytes per parameter with mixed-precision Adam, so 160 GB for 10B params.",
                "ZeRO-3 shards parameters, gradients and optimizer states across the 8 GPUs: 20 GB each.",
                "Activation checkpointing keeps activations small.",
            ]
        )
    )
    result = cli("grade", "--scenario", "train-10b-8gpu", "--answers", str(answers), "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload) == {"scenario", "score", "level", "tiers", "criteria", "claims", "misconceptions", "coaching", "framing", "notes"}
    assert payload["notes"] == {}  # a file of answers has no notes of the candidate
    assert payload["scenario"] == "train-10b-8gpu" and 0 <= payload["score"] <= 100
    assert payload["level"] in {"senior", "mid", "below mid"}
    assert set(payload["tiers"]) == {"must", "good", "bonus"} and all(0 <= v <= 1 for v in payload["tiers"].values())
    for criterion in payload["criteria"]:
        assert set(criterion) == {"id", "tier", "status", "score", "evidence"}
        assert criterion["status"] in {"met", "partial", "missed"}
    for claim in payload["claims"]:
        assert set(claim) == {"text", "quantity", "claimed", "computed", "unit", "verdict", "explanation"}


def test_grade_accepts_markdown_paragraphs(cli, tmp_path):
    answers = tmp_path / "answers.md"
    answers.write_text("First answer about ZeRO-3 sharding.\n\nSecond answer about activation checkpointing.\n")
    result = cli("grade", "--scenario", "train-10b-8gpu", "--answers", str(answers), "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "no answers"),
        ('{"a": 1}', "expected a JSON list of strings"),
        ("[1, 2]", "expected a JSON list of strings"),
        ("\n\n  \n", "no answers"),
    ],
)
def test_grade_malformed_answer_files_are_clear_errors(cli, tmp_path, content, message):
    path = tmp_path / ("answers.json" if content.strip().startswith(("[", "{")) else "answers.txt")
    path.write_text(content)
    result = cli("grade", "--scenario", "train-10b-8gpu", "--answers", str(path))
    assert result.exit_code == 2
    assert message in result.output and str(path) in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["grade", "--answers", "x.json"], "--scenario: missing"),
        (["grade", "--scenario", "train-10b-8gpu"], "--answers: missing"),
        (["grade", "--scenario", "nope", "--answers", "x.json"], "--scenario: unknown scenario 'nope'"),
        (["grade", "--scenario", "train-10b-8gpu", "--answers", "/nonexistent.json"], "no such file"),
        (["interview"], "--scenario"),
        (["interview", "--scenario", "nope"], "unknown scenario"),
        (["interview", "--scenario", "moe-routing", "--level", "principal"], "--level"),
        (["show", "999"], "no interview with id 999"),
        (["export", "999"], "no interview with id 999"),
        (["export", "1", "--format", "pdf"], "--format"),
    ],
)
def test_cli_bad_flags_are_clear(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_history_show_and_export(cli, tmp_path):
    run = run_cli("interview", "--scenario", "moe-routing", stdin="Top-2 gating with a load balancing auxiliary loss.\n/end\n")
    assert run.returncode == 0, run.stderr
    listed = json.loads(cli("history", "--json").output)
    assert listed[0]["scenario"] == "moe-routing" and listed[0]["status"] == "finished"
    interview_id = str(listed[0]["id"])
    assert "Top-2 gating" in cli("show", interview_id).output
    assert json.loads(cli("history", "--search", "gating", "--json").output)[0]["id"] == listed[0]["id"]
    assert json.loads(cli("history", "--search", "zzzunsaid", "--json").output) == []
    out = tmp_path / "report.md"
    assert cli("export", interview_id, "--format", "md", "--output", str(out)).exit_code == 0
    report = out.read_text()
    assert "## Transcript" in report and "## Scorecard" in report and "## Model answer" in report
    data = json.loads(cli("export", interview_id, "--format", "json").output)
    assert data["scenario_id"] == "moe-routing" and data["scorecard"]["score"] == listed[0]["score"]


def test_export_escapes_candidate_markdown_and_html():
    from datetime import UTC, datetime

    from interviewer.domain import InterviewRecord, Role, Turn, TurnKind
    from interviewer.engine.export import export_markdown

    evil = '# Owned\n<script>alert(1)</script> [click](javascript:alert(1)) ![x](http://x/y.png) | a | b |'
    record = InterviewRecord(
        id=1,
        scenario_id="moe-routing",
        scenario_hash="h",
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        turns=[
            Turn(role=Role.candidate, kind=TurnKind.answer, text=evil),
            Turn(role=Role.interviewer, kind=TurnKind.challenge, text=f"You said “{evil}”."),
        ],
    )
    report = export_markdown(record)
    assert "<script>" not in report and "](javascript" not in report and "![x](" not in report
    assert "\n# Owned" not in report
    assert "&lt;script&gt;" in report


def test_plain_interview_answers_a_clarifying_question_then_asks_again():
    from rubrics.loader import get_scenario

    scenario = get_scenario("realtime-translation").scenario
    budget = next(f for f in scenario.ask_facts if f.id == "serving-budget")
    result = run_cli("interview", "--scenario", "realtime-translation", stdin="What's our serving budget per month?\n/end\n")
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    assert " ".join(budget.answer.split()) in out
    assert f"Back to the question: {' '.join(scenario.steps[0].question.split())}" in out
    assert "[?] you asked about serving budget: “What's our serving budget per month?”" in out
    assert "[?] never asked, but it mattered:" in out
