"""Settings: a TOML config file, overridden by ``INTERVIEWER_*`` environment variables.

The OpenAI-compatible endpoint also honours the openai client's own ``OPENAI_API_KEY`` and
``OPENAI_BASE_URL``. API keys are ``SecretStr``: they never print, and the store never sees them.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from interviewer import locations


class ConfigError(Exception):
    """The config file or environment is invalid; the message names the file and the key."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="INTERVIEWER_", extra="forbid", validate_default=True)

    llm_model: str | None = None
    """Model name for LLM mode (e.g. ``gpt-4o-mini``, ``llama3.1:8b``). Unset: the offline interviewer."""
    llm_base_url: str | None = None
    """OpenAI-compatible endpoint, e.g. ``http://localhost:11434/v1`` (Ollama). Falls back to ``OPENAI_BASE_URL``."""
    llm_api_key: SecretStr | None = None
    """API key for the endpoint. Falls back to ``OPENAI_API_KEY``. Never written to transcripts or logs."""
    llm_temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    """Sampling temperature for the LLM interviewer."""
    llm_timeout: float = Field(default=60.0, gt=0)
    """Seconds to wait for the endpoint before falling back to the offline interviewer."""
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    """Retries (with exponential backoff) on timeouts, rate limits and server errors."""
    llm_context_tokens: int = Field(default=8192, ge=2048, le=1_048_576)
    """Context window the LLM server gives the model, in tokens; every request is fitted into it.
    Set it to the server's: Ollama ``OLLAMA_CONTEXT_LENGTH``, vLLM ``--max-model-len``, llama.cpp ``-c``."""
    llm_max_tokens: int = Field(default=700, ge=64, le=32_768)
    """Most tokens the model may write per reply (sent as ``max_tokens``, which every server honours)."""
    llm_turn_timeout: float = Field(default=180.0, gt=0)
    """Seconds one interviewer turn (all its model calls and tools) may take before the rubric engine answers it."""
    llm_tool_timeout: float = Field(default=60.0, gt=0)
    """Seconds one tool call may take; a slower tool returns an error to the model. Generous: the
    first knowledge search of a fresh install builds the index (about 20 s on 2 cores)."""
    llm_grading_timeout: float = Field(default=300.0, gt=0)
    """Seconds LLM grading may take in all before the rubric scorer's scorecard is used."""
    llm_max_strikes: int = Field(default=3, ge=1, le=20)
    """Turns the endpoint may fail (each answered by the rubric engine) before the interview leaves LLM mode."""
    chroma_url: str | None = None
    """A Chroma server (``http://127.0.0.1:8000``) to use instead of the embedded index in the data dir."""
    max_followups_per_step: int = Field(default=2, ge=0, le=10)
    """How many follow-up questions the interviewer may ask before moving to the next step."""
    hint_penalty: float = Field(default=2.0, ge=0.0, le=20.0)
    """Points (out of 100) deducted per hint taken."""
    time_limit_minutes: float | None = Field(default=None, gt=0)
    """Default time limit for an interview; unset means no limit."""
    theme: str = "textual-dark"
    """Textual theme name for the app (``textual-dark``, ``textual-light``, ``nord``, ...)."""

    def resolved_api_key(self) -> SecretStr | None:
        if self.llm_api_key is not None:
            return self.llm_api_key
        key = os.environ.get("OPENAI_API_KEY")
        return SecretStr(key) if key else None

    def resolved_base_url(self) -> str | None:
        return self.llm_base_url or os.environ.get("OPENAI_BASE_URL") or None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlFileSource(settings_cls))


class _TomlFileSource(PydanticBaseSettingsSource):
    """Reads ``config.toml``; a missing file is fine, an unreadable or malformed one is an error."""

    def __init__(self, settings_cls: type[BaseSettings]):
        super().__init__(settings_cls)
        self.path = locations.config_file()
        self.data = self._read(self.path)

    @staticmethod
    def _read(path: Path) -> dict[str, Any]:
        if not path.exists():
            return {}
        try:
            with path.open("rb") as handle:
                return tomllib.load(handle)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read config file: {exc.strerror or exc}") from exc
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: malformed TOML: {exc}") from exc

    def get_field_value(self, field, field_name: str):  # pragma: no cover - __call__ is used
        return self.data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self.data)


def load_settings(**overrides: Any) -> Settings:
    """Settings from file + env + explicit overrides (CLI flags), with errors that name the key."""
    try:
        return Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        path = locations.config_file()
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(config)'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"{path}: {problems} (env vars INTERVIEWER_<KEY> also apply)") from exc
