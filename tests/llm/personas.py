"""Fake servers that behave like the ones users run, each a ``FakeOpenAIServer`` with a persona.

A persona is the server's own validation and limits, applied to every chat request before the
script answers it (``FakeOpenAIServer.precheck``), plus the stream shape its replies take. The
behaviours are the documented or commonly reported ones of each server's OpenAI-compatible API:

- **Ollama**: a 4,096-token context by default, and a prompt longer than that loses its *front*
  (the system prompt first) and is answered with 200, the usage counting what was kept; 400
  "does not support tools" for a model without tool support; 400 when a replayed tool call in the
  history has arguments that are not JSON; ``max_tokens`` honoured, ``max_completion_tokens``
  ignored; parallel tool calls all streamed at index 0; thinking in a ``reasoning`` field.
- **vLLM**: 400 when prompt plus ``max_tokens`` exceed ``--max-model-len``; 400 when tools come
  without ``--enable-auto-tool-choice``; hermes tool parser (proper ``tool_calls``);
  ``reasoning_content`` deltas.
- **llama.cpp** (``llama-server``): 400 "exceeds the available context size"; 500 "tools param
  requires --jinja flag" without ``--jinja``; ``<think>`` blocks left in the content.
- **LM Studio**: 400 on context overflow; 400 for ``response_format: json_object`` (it takes only
  ``json_schema``); each tool call whole in one delta.

The token count is the fake tokenizer's (``prompt_tokens``: 4 characters a token).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from fake_openai_server import FakeOpenAIServer, ScriptedReply, prompt_tokens


@dataclass(frozen=True)
class Persona:
    name: str
    context_tokens: int = 4096
    overflow: str = "400"
    """``truncate-front`` (Ollama: drop the oldest messages, system first, and answer) or ``400``."""
    overflow_status: int = 400
    overflow_message: str = ""
    counts_max_tokens: bool = False
    """vLLM: prompt plus ``max_tokens`` must fit the context."""
    tools_refusal: tuple[int, str] | None = None
    """(status, message) when the server cannot take tools (model or launch flags)."""
    rejects_invalid_history_arguments: bool = False
    rejects_json_object: bool = False
    ignores_max_completion_tokens: bool = False
    reply_style: dict[str, Any] = field(default_factory=dict)
    """ScriptedReply fields every streamed reply of this server takes (tool-call style, reasoning field...)."""


OLLAMA = Persona(
    "ollama",
    overflow="truncate-front",
    rejects_invalid_history_arguments=True,
    ignores_max_completion_tokens=True,
    reply_style={"tool_call_style": "index-0", "reasoning_field": "reasoning"},
)
VLLM = Persona(
    "vllm",
    overflow_message="This model's maximum context length is {context} tokens. However, you requested {needed} tokens "
    "({prompt} in the messages, {completion} in the completion). Please reduce the length of the messages or completion.",
    counts_max_tokens=True,
    reply_style={"reasoning_field": "reasoning_content"},
)
LLAMA_CPP = Persona(
    "llama.cpp",
    overflow_message="the request exceeds the available context size, try increasing it",
    reply_style={"tool_call_style": "split"},
)
LM_STUDIO = Persona(
    "lm-studio",
    overflow_message="Trying to keep the first {prompt} tokens when context the overflows. However, the model is loaded "
    "with context length of only {context} tokens, which is not enough. Try to load the model with a larger context length",
    rejects_json_object=True,
    reply_style={"tool_call_style": "one-delta"},
)
PERSONAS = {p.name: p for p in (OLLAMA, VLLM, LLAMA_CPP, LM_STUDIO)}

MISCONFIGURED = {
    "ollama-model-without-tools": replace(OLLAMA, tools_refusal=(400, "registry.ollama.ai/library/gemma2:2b does not support tools")),
    "vllm-without-auto-tool-choice": replace(
        VLLM, tools_refusal=(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set')
    ),
    "llama.cpp-without-jinja": replace(LLAMA_CPP, tools_refusal=(500, "tools param requires --jinja flag")),
    "vllm-small-context": replace(VLLM, context_tokens=1024),
    "llama.cpp-small-context": replace(LLAMA_CPP, context_tokens=1024),
    "ollama-small-context": replace(OLLAMA, context_tokens=1024),
}
"""A persona started the way that breaks LLM mode, each with the fix ``llm check`` must name."""


class PersonaServer(FakeOpenAIServer):
    """A fake server with a persona: ``overflows`` lists the requests it refused or truncated, and
    ``largest_prompt`` is the most tokens any request carried (as this server counts them)."""

    def __init__(self, persona: Persona, **kwargs: Any):
        super().__init__(**kwargs)
        self.persona = persona
        self.overflows: list[int] = []
        self.largest_prompt = 0
        self.precheck = self._validate

    def next_reply(self, body: dict[str, Any]) -> ScriptedReply:
        reply = super().next_reply(body)
        if reply.status == 200 and body.get("stream"):
            reply = replace(reply, **{k: v for k, v in self.persona.reply_style.items()})
        return self._capped(body, reply)

    def _capped(self, body: dict[str, Any], reply: ScriptedReply) -> ScriptedReply:
        """A reply longer than the request's cap stops at it, with finish_reason=length."""
        cap = body.get("max_tokens")
        if cap is None and not self.persona.ignores_max_completion_tokens:
            cap = body.get("max_completion_tokens")
        if cap is not None and len(reply.content) > cap * 4:
            return replace(reply, content=reply.content[: cap * 4], finish_reason="length", tool_calls=[])
        return reply

    def _validate(self, body: dict[str, Any]) -> ScriptedReply | None:
        persona = self.persona
        if body.get("tools") and persona.tools_refusal is not None:
            status, message = persona.tools_refusal
            return ScriptedReply(status=status, error_message=message)
        if persona.rejects_json_object and (body.get("response_format") or {}).get("type") == "json_object":
            return ScriptedReply(status=400, error_message="'response_format.type' must be 'json_schema' or 'text'")
        if persona.rejects_invalid_history_arguments:
            for message in body.get("messages") or []:
                for call in message.get("tool_calls") or []:
                    try:
                        json.loads(call["function"]["arguments"] or "{}")
                    except json.JSONDecodeError:
                        return ScriptedReply(status=400, error_message="invalid tool call arguments: unexpected end of JSON input")
        prompt = prompt_tokens(body)
        self.largest_prompt = max(self.largest_prompt, prompt)
        completion = int(body.get("max_tokens") or 0) if persona.counts_max_tokens else 0
        if prompt + completion <= persona.context_tokens:
            return None
        self.overflows.append(prompt)
        if persona.overflow == "truncate-front":
            messages = body["messages"]
            while len(messages) > 1 and prompt_tokens(body) > persona.context_tokens:
                messages.pop(0)  # the system prompt goes first, then the oldest turns
            return None
        text = persona.overflow_message.format(context=persona.context_tokens, needed=prompt + completion, prompt=prompt, completion=completion)
        return ScriptedReply(status=persona.overflow_status, error_message=text)
