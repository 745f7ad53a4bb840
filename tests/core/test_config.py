"""Settings from the config file and the environment; bad config gets a message naming file and key."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from interviewer import locations
from interviewer.config import ConfigError, load_settings


def write_config(text: str) -> str:
    path = locations.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_defaults_are_offline():
    settings = load_settings()
    assert settings.llm_model is None and settings.max_followups_per_step == 2


def test_file_then_env_then_flags(monkeypatch):
    write_config('llm_model = "from-file"\nmax_followups_per_step = 3\n')
    assert load_settings().llm_model == "from-file"
    monkeypatch.setenv("INTERVIEWER_LLM_MODEL", "from-env")
    assert load_settings().llm_model == "from-env"
    assert load_settings(llm_model="from-flag").llm_model == "from-flag"
    assert load_settings().max_followups_per_step == 3


def test_api_key_is_secret_and_falls_back_to_openai_env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    settings = load_settings()
    assert settings.resolved_api_key().get_secret_value() == "sk-test-123"
    monkeypatch.setenv("INTERVIEWER_LLM_API_KEY", "sk-own")
    settings = load_settings()
    assert "sk-own" not in repr(settings) and "sk-own" not in str(settings.model_dump())
    assert settings.resolved_api_key().get_secret_value() == "sk-own"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 'blue'\n", "colour: Extra inputs are not permitted"),
        ("max_followups_per_step = 'many'\n", "max_followups_per_step: Input should be a valid integer"),
        ("llm_temperature = 9\n", "llm_temperature: Input should be less than or equal to 2"),
        ("llm_model = [\n", "malformed TOML"),
    ],
)
def test_bad_config_names_file_and_key(text, message):
    path = write_config(text)
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value).startswith(path) and message in str(raised.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_config_file():
    path = write_config("llm_model = 'x'\n")
    os.chmod(path, 0)
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_settings()


def test_unreadable_config_file_as_a_directory():
    path = locations.config_file()
    path.mkdir(parents=True)
    with pytest.raises(ConfigError, match=f"{path}: cannot read config file"):
        load_settings()


def test_bad_env_value_is_reported(monkeypatch):
    monkeypatch.setenv("INTERVIEWER_HINT_PENALTY", "lots")
    with pytest.raises(ConfigError, match="hint_penalty"):
        load_settings()


def test_cli_reports_bad_config_without_traceback():
    from interviewer.cli import _register_subcommands, app

    write_config("nonsense_key = 1\n")
    _register_subcommands()
    result = CliRunner().invoke(app, ["grade", "--scenario", "moe-routing", "--answers", __file__])
    assert result.exit_code == 2 and "nonsense_key" in result.output and "Traceback" not in result.output
