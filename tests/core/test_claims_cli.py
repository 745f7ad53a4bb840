"""``interviewer check``: JSON and table output, scenario facts, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app

ROOT = Path(__file__).resolve().parents[2]
_register_subcommands()
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["check", *args], input=stdin)


def test_json_output_has_exactly_the_documented_keys() -> None:
    result = run("10B params with Adam in mixed precision is 160 GB. The KV cache for Llama-2-7B at 4k is 2 GB.", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == ["claims", "truncated", "max_claims"]
    assert payload["truncated"] is False
    assert [c["verdict"] for c in payload["claims"]] == ["correct", "correct"]
    for claim in payload["claims"]:
        assert list(claim) == ["text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "scope", "provenance"]
        assert list(claim["scope"]) == ["across", "per", "component"]
        for source in claim["provenance"]:
            assert list(source) == ["input", "value", "source", "said"]
    first, second = payload["claims"]
    assert (first["claimed"], first["computed"], first["unit"]) == (160e9, 160e9, "bytes")
    assert {"input": "params", "value": 10e9, "source": "stated", "said": "10B params"} in first["provenance"]
    assert second["scope"]["per"] is None  # the whole cache at 4k tokens, not per token
    assert {s["input"]: s["source"] for s in second["provenance"]}["model"] == "stated"


def test_table_output() -> None:
    result = run("decode is memory-bound, about 1 ms/token for 2B int8 on an A100")
    assert result.exit_code == 0
    assert "verdict" in result.stdout and "correct" in result.stdout
    assert "A100-80GB" in result.stdout
    assert "1 claim: 1 correct" in result.stdout


def test_no_claims() -> None:
    result = run("We use 8 GPUs with ZeRO-3.")
    assert result.exit_code == 0
    assert "No numeric claims found." in result.stdout
    assert json.loads(run("We use 8 GPUs.", "--json").stdout) == {"claims": [], "truncated": False, "max_claims": 500}


def test_facts_fill_missing_inputs() -> None:
    without = json.loads(run("ZeRO-3 over 8 GPUs gets it to 20 GB each", "--json").stdout)["claims"][0]
    assert without["verdict"] == "unverifiable"
    with_fact = json.loads(run("ZeRO-3 over 8 GPUs gets it to 20 GB each", "--fact", "params=10B", "--json").stdout)["claims"][0]
    assert with_fact["verdict"] == "correct"


def test_scenario_facts() -> None:
    from rubrics import load_scenarios

    scenario = next((s for s in load_scenarios() if s.facts.get("params") and s.facts.get("gpus")), None)
    if scenario is None:
        pytest.skip("no shipped scenario gives params and gpus")
    result = run("A model with Adam in mixed precision needs about 1 GB per GPU under plain DDP.", "--scenario", scenario.id, "--json")
    assert result.exit_code == 0, result.output
    claims = json.loads(result.stdout)["claims"]
    assert claims and claims[0]["verdict"] in ("correct", "incorrect")


def test_stdin() -> None:
    result = run("-", "--json", stdin="An A100 has 2 TB/s of memory bandwidth.")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["claims"][0]["verdict"] == "correct"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["", "--json"], "nothing to check"),
        (["   "], "nothing to check"),
        (["x", "--scenario", "no-such-scenario"], "unknown scenario 'no-such-scenario'; known:"),
        (["x", "--fact", "params"], "expected KEY=VALUE"),
        (["x", "--fact", "colour=blue"], "unknown fact 'colour'"),
        (["x", "--fact", "params=lots"], "expected a number"),
        (["x", "--bogus"], "No such option"),
        ([], "Missing argument"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]


def test_the_installed_entry_point_without_traceback() -> None:
    ok = subprocess.run([sys.executable, "-m", "interviewer", "check", "10B params with Adam in mixed precision is 160 GB", "--json"],
                        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["claims"][0]["verdict"] == "correct"
    bad = subprocess.run([sys.executable, "-m", "interviewer", "check", "x", "--scenario", "nope"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: unknown scenario") and "Traceback" not in bad.stderr
