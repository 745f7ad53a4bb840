"""``interviewer llm check``: a real chat request; exit 0 on a non-empty reply, else say plainly what is wrong."""

from __future__ import annotations

import json

import pytest
from fake_openai_server import ScriptedReply
from llm_helpers import API_KEY, MODEL
from typer.testing import CliRunner

from interviewer import cli


@pytest.fixture(scope="module")
def app():
    cli._register_subcommands()
    return cli.app


def run(app, *args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def keyed(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)


def test_check_ok(app, server, keyed):
    server.enqueue(ScriptedReply(content="ready"))
    result = run(app, "llm", "check", "--base-url", server.base_url, "--llm", MODEL)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: model '{MODEL}' at {server.base_url} replied in ") and "'ready'" in result.output
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {API_KEY}"
    # The interview's real first-turn request: streamed, with the tools, the full prompt and a reply cap.
    body = server.chat_requests[0].body
    assert body["stream"] is True and body["tools"] and body["max_tokens"] > 0
    assert body["messages"][0]["role"] == "system" and "mock technical interview" in body["messages"][0]["content"]
    assert body["messages"][-1]["content"].startswith("<candidate_answer>")


def test_check_reads_env_and_config(app, server, keyed, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("INTERVIEWER_LLM_MODEL", MODEL)
    server.enqueue(ScriptedReply(content="ready"))
    result = run(app, "llm", "check", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["ok"] is True and payload["model"] == MODEL and payload["reply"] == "ready" and payload["error"] is None


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("no-server", "LLM endpoint unreachable (connection refused at http://127.0.0.1:"),
        ("bad-key", "the endpoint rejected the API key (401"),
        ("unknown-model", "unknown model 'nope' (404"),
        ("empty", "empty reply from model 'test-model'"),
        ("timeout", "LLM endpoint timed out after 0.3 s"),
        ("server-error", "the endpoint returned HTTP 503"),
    ],
)
def test_check_says_plainly_what_is_wrong(app, server, keyed, monkeypatch, setup, message):
    model, url = MODEL, server.base_url
    if setup == "no-server":
        server.stop()
    elif setup == "bad-key":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-0123456789abcdef")
    elif setup == "unknown-model":
        model = "nope"
    elif setup == "empty":
        server.enqueue(ScriptedReply(content=""))
    elif setup == "timeout":
        monkeypatch.setenv("INTERVIEWER_LLM_TIMEOUT", "0.3")
        monkeypatch.setenv("INTERVIEWER_LLM_MAX_RETRIES", "0")
        server.enqueue(ScriptedReply(content="late", delay=1.0))
    elif setup == "server-error":
        monkeypatch.setenv("INTERVIEWER_LLM_MAX_RETRIES", "0")
        server.enqueue(ScriptedReply(status=503, error_message="model is loading"))
    result = run(app, "llm", "check", "--base-url", url, "--llm", model)
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "0123456789abcdef" not in result.output and API_KEY not in result.output
    if setup == "unknown-model":
        assert f"The endpoint serves: other-model, {MODEL}" in result.output


def test_check_json_reports_the_failure(app, server, keyed):
    result = run(app, "llm", "check", "--base-url", server.base_url, "--llm", "nope", "--json")
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["ok"] is False and "unknown model 'nope'" in payload["error"]


def test_check_without_a_model_is_a_usage_error(app, server):
    result = run(app, "llm", "check", "--base-url", server.base_url)
    assert result.exit_code == 2 and "no LLM model configured" in result.output


def test_check_against_openai_without_a_key(app):
    result = run(app, "llm", "check", "--llm", "gpt-4o-mini")
    assert result.exit_code == 1 and "no API key for OpenAI: set OPENAI_API_KEY" in result.output
