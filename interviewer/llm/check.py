"""``interviewer llm check``: send the interview's real first-turn request and say what is wrong.

The request is the one the first answer of an interview sends: the full system prompt, the tool
schemas, streaming, ``max_tokens`` and usage, for a sample answer to a shipped scenario. So the
failures that a plain "say ready" request cannot see show up here, each with its fix
(``client.KNOWN_MISCONFIGURATIONS``): a model without tool support (Ollama), vLLM without
``--enable-auto-tool-choice``, llama.cpp without ``--jinja``, a context too small for the prompt
(an error from vLLM, llama.cpp and LM Studio; Ollama cuts the front of the prompt and answers,
which the usage count gives away).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from interviewer.config import Settings
from interviewer.llm.client import CONTEXT_FIX, describe_endpoint_error, endpoint_url

CHECK_SCENARIO = "attention-vs-rnn"
SAMPLE_ANSWER = (
    "An RNN is sequential: h_t depends on h_{t-1}, so training cannot be parallelized over positions, "
    "and backpropagation through time makes gradients vanish over long ranges."
)


@dataclass(frozen=True)
class EndpointCheck:
    ok: bool
    model: str | None
    base_url: str
    seconds: float
    reply: str = ""
    problem: str = ""
    prompt_tokens_sent: int | None = None
    """Our estimate of the request's prompt tokens."""
    prompt_tokens_counted: int | None = None
    """What the server counted (its ``usage``), when it says."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "model": self.model,
            "base_url": self.base_url,
            "seconds": round(self.seconds, 3),
            "reply": self.reply,
            "error": self.problem or None,
            "prompt_tokens_sent": self.prompt_tokens_sent,
            "prompt_tokens_counted": self.prompt_tokens_counted,
        }


def _served_models(settings: Settings) -> list[str]:
    """Model names the endpoint lists (best effort: for a helpful 'unknown model' message)."""
    try:
        import openai

        from interviewer.llm.client import endpoint_api_key

        client = openai.OpenAI(
            base_url=endpoint_url(settings),
            api_key=endpoint_api_key(settings).get_secret_value(),
            timeout=min(settings.llm_timeout, 10.0),
            max_retries=0,
        )
        return sorted(model.id for model in client.models.list())
    except Exception:
        return []


async def _first_turn(settings: Settings) -> tuple[str, Any]:
    """Stream the first turn's first request; (visible reply, the round as streamed)."""
    from interviewer.engine.session import InterviewSession
    from interviewer.llm.agent import LLMInterviewer, Round
    from interviewer.llm.budget import tool_schemas
    from interviewer.llm.tools import TurnToolbox
    from rubrics.loader import get_scenario

    session = InterviewSession(get_scenario(CHECK_SCENARIO).scenario, use_embeddings=False, grounding=False)
    agent = LLMInterviewer(session, settings=settings)
    session.begin()
    session.record_answer(SAMPLE_ANSWER)
    analysis, claims = session.analyse(SAMPLE_ANSWER, semantic=False)
    toolbox = TurnToolbox(session)
    messages = agent.first_request(toolbox, analysis, claims)
    tools = toolbox.tools()
    from interviewer.llm.budget import request_tokens

    current = Round(sent=request_tokens(messages, schemas=tool_schemas(tools)))
    deadline = asyncio.get_running_loop().time() + settings.llm_turn_timeout
    model = agent.chat_model().bind_tools(tools)
    text = "".join([piece async for piece in agent.stream_round(model, messages, current, deadline)])
    current.raise_unless_complete(agent.model_name, strict=True)
    return text.strip(), current


def check_endpoint(settings: Settings) -> EndpointCheck:
    """Send the real first-turn request; ok when it streams a complete reply (text or tool calls)
    and the server counted about the prompt we sent."""
    url = endpoint_url(settings)
    started = time.perf_counter()

    def result(problem: str = "", reply: str = "", current: Any = None) -> EndpointCheck:
        sent = current.sent if current is not None else None
        counted = current.server_count if current is not None else None
        return EndpointCheck(not problem, settings.llm_model, url, time.perf_counter() - started, reply, problem, sent, counted)

    try:
        reply, current = asyncio.run(_first_turn(settings))
    except Exception as exc:
        import openai

        problem = describe_endpoint_error(exc, settings)
        if isinstance(exc, openai.NotFoundError):
            served = _served_models(settings)
            if served:
                shown = ", ".join(served[:12]) + (", …" if len(served) > 12 else "")
                problem += f". The endpoint serves: {shown}"
        return result(problem)
    if (warning := current.undercount(settings.llm_context_tokens)) is not None:
        return result(f"{warning}. Fix: {CONTEXT_FIX}", reply, current)
    calls = [call["name"] for call in current.raw_calls]
    if not reply and not calls and not current.hygiene.tool_texts:
        return result(f"empty reply from model '{settings.llm_model}' at {url} (finish_reason={current.finish})", current=current)
    if not reply:
        reply = "(called " + ", ".join(calls or ["a tool written as text"]) + ")"
    return result(reply=reply, current=current)
