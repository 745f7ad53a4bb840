"""The chat model behind LLM mode: LangChain's ``ChatOpenAI`` pointed at any OpenAI-compatible endpoint.

OpenAI itself, or a local or self-hosted server speaking the same chat-completions API (Ollama,
vLLM, llama.cpp's server, LM Studio). Endpoint failures are turned into one plain sentence
(``describe_endpoint_error``) that never contains the API key.

``langchain_openai`` (and through it ``openai`` and ``httpx``) is imported inside functions: the
app must start without paying for it when nobody uses LLM mode.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from interviewer.config import Settings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

OPENAI_BASE_URL = "https://api.openai.com/v1"
"""The openai client's own default, used when neither ``llm_base_url`` nor ``OPENAI_BASE_URL`` is set."""

PLACEHOLDER_KEY = "not-needed"
"""Sent to keyless local servers (Ollama, vLLM, llama.cpp): the openai client insists on some key."""


class LLMEndpointError(Exception):
    """The endpoint cannot give a usable reply. ``str()`` is one plain sentence that names the cause."""


class ContextOverflow(LLMEndpointError):
    """The request cannot fit the configured context, even with the history trimmed (see ``llm.budget``)."""


class NoModelConfigured(LLMEndpointError):
    """LLM mode was asked for without a model name."""


def endpoint_url(settings: Settings) -> str:
    return (settings.resolved_base_url() or OPENAI_BASE_URL).rstrip("/")


def endpoint_api_key(settings: Settings) -> SecretStr:
    key = settings.resolved_api_key()
    if key is not None and key.get_secret_value():
        return key
    if settings.resolved_base_url() is None:
        raise LLMEndpointError(
            "no API key for OpenAI: set OPENAI_API_KEY (or llm_api_key in the config), "
            "or point --base-url at a local server such as Ollama"
        )
    return SecretStr(PLACEHOLDER_KEY)


def require_model(settings: Settings) -> str:
    if not settings.llm_model:
        raise NoModelConfigured(
            "no LLM model configured: pass --llm MODEL, or set INTERVIEWER_LLM_MODEL or llm_model in the config file"
        )
    return settings.llm_model


def make_chat_model(
    settings: Settings,
    *,
    streaming: bool,
    temperature: float | None = None,
    timeout: float | None = None,
    extra_body: dict[str, Any] | None = None,
) -> BaseChatModel:
    """A ``ChatOpenAI`` for the configured endpoint. Retries with exponential backoff (and the
    server's ``Retry-After``) on timeouts, 429s and 5xx are the openai client's own, bounded by
    ``llm_max_retries``; ``llm_timeout`` bounds each request and each gap between streamed chunks.

    The reply cap goes out as ``max_tokens`` in the body: LangChain would send its ``max_tokens``
    as ``max_completion_tokens``, which Ollama ignores, while every OpenAI-compatible server
    (OpenAI's non-reasoning models included) honours ``max_tokens``. Streams ask for ``usage`` so
    the budget can see what the server counted."""
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=require_model(settings),
        base_url=endpoint_url(settings),
        api_key=endpoint_api_key(settings),
        temperature=settings.llm_temperature if temperature is None else temperature,
        timeout=settings.llm_timeout if timeout is None else timeout,
        max_retries=settings.llm_max_retries,
        streaming=streaming,
        stream_usage=streaming,
        extra_body={"max_tokens": settings.llm_max_tokens, **(extra_body or {})},
    )


# -- errors ---------------------------------------------------------------------------------------

_KEY_LIKE = re.compile(r"\bsk-[A-Za-z0-9_\-*.]{4,}")


def redact(text: str, settings: Settings | None = None) -> str:
    """``text`` without the configured API key or anything shaped like one (servers echo masked keys)."""
    if settings is not None:
        key = settings.resolved_api_key()
        if key is not None and key.get_secret_value():
            text = text.replace(key.get_secret_value(), "[redacted]")
    return _KEY_LIKE.sub("[redacted key]", text)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not s for s in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _status_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(body.get("message"), str):
            return body["message"]
    return str(getattr(exc, "message", "") or exc)


CONTEXT_FIX = (
    "raise the server's context and set llm_context_tokens to it (Ollama: OLLAMA_CONTEXT_LENGTH=8192; "
    "vLLM: --max-model-len 8192; llama.cpp: -c 8192; LM Studio: the model's context length)"
)

KNOWN_MISCONFIGURATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"does not support tools", re.IGNORECASE),
        "this model cannot call tools: pull a tool-capable one (e.g. `ollama pull qwen2.5:7b` or `llama3.1:8b`) and pass it with --llm",
    ),
    (
        re.compile(r"enable-auto-tool-choice|auto\W+tool choice requires", re.IGNORECASE),
        "start vLLM with --enable-auto-tool-choice --tool-call-parser <parser for the model> (hermes for Qwen2.5, llama3_json for Llama 3.1)",
    ),
    (re.compile(r"--jinja|requires\s+jinja", re.IGNORECASE), "start llama.cpp's server with --jinja, so tools go through the model's chat template"),
    (
        re.compile(r"maximum context length|context (?:length|size|window)|exceeds? the available context|prompt is too long|too many tokens", re.IGNORECASE),
        CONTEXT_FIX,
    ),
)
"""Server messages for the usual misconfigurations of local servers, and the fix for each."""


def misconfiguration_fix(message: str) -> str | None:
    return next((fix for pattern, fix in KNOWN_MISCONFIGURATIONS if pattern.search(message)), None)


def is_permanent(exc: BaseException) -> bool:
    """A fault that will not heal during this interview (no point asking again next turn)."""
    import openai

    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError, NoModelConfigured)):
        return True
    if isinstance(exc, ContextOverflow):
        return True
    if isinstance(exc, openai.APIStatusError):
        fix = misconfiguration_fix(_status_message(exc))
        return fix is not None and fix != CONTEXT_FIX  # a long history can shrink again; a missing tool parser cannot
    return False


def describe_endpoint_error(exc: BaseException, settings: Settings) -> str:
    """One plain sentence: what went wrong with the endpoint, naming the URL or the model, and the
    fix when the server's message is a known misconfiguration."""
    text = _describe(exc, settings)
    import openai

    if isinstance(exc, openai.APIStatusError) and (fix := misconfiguration_fix(_status_message(exc))):
        text += f". Fix: {fix}"
    return text


def _describe(exc: BaseException, settings: Settings) -> str:
    """One plain sentence: what went wrong with the endpoint, naming the URL or the model."""
    import openai

    url = endpoint_url(settings)
    model = settings.llm_model or "(none)"
    if isinstance(exc, LLMEndpointError):
        return redact(str(exc), settings)
    chain = _chain(exc)
    names = {type(e).__name__ for e in chain}
    if isinstance(exc, openai.APITimeoutError) or any("Timeout" in name for name in names):
        return f"LLM endpoint timed out after {settings.llm_timeout:g} s ({url})"
    if isinstance(exc, openai.AuthenticationError):
        return f"the endpoint rejected the API key (401 from {url}): {redact(_status_message(exc), settings)}"
    if isinstance(exc, openai.PermissionDeniedError):
        return f"the API key may not use model '{model}' (403 from {url}): {redact(_status_message(exc), settings)}"
    if isinstance(exc, openai.NotFoundError):
        return (
            f"unknown model '{model}' (404 from {url}: {redact(_status_message(exc), settings)}); "
            "check --llm, and that the base URL ends in /v1"
        )
    if isinstance(exc, openai.RateLimitError):
        return f"rate limited by the endpoint (429 from {url}) after {settings.llm_max_retries} retries"
    if isinstance(exc, openai.APIStatusError):
        return f"the endpoint returned HTTP {exc.status_code} ({url}): {redact(_status_message(exc), settings)}"
    if "ConnectionRefusedError" in names:
        return f"LLM endpoint unreachable (connection refused at {url})"
    if "gaierror" in names:
        return f"LLM endpoint unreachable (unknown host in {url})"
    if names & {"RemoteProtocolError", "ReadError", "IncompleteRead", "ConnectionResetError", "BrokenPipeError"}:
        return f"the LLM endpoint closed the connection mid-reply ({url})"
    if isinstance(exc, openai.APIConnectionError):
        detail = str(chain[-1]) if len(chain) > 1 else str(exc)
        return f"LLM endpoint unreachable ({url}: {redact(detail, settings)})"
    return f"the LLM call failed ({type(exc).__name__}: {redact(str(exc), settings)})"
