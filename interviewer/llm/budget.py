"""The context budget: how many tokens a request takes, and fitting the conversation into
``llm_context_tokens`` before it is sent.

Local servers run small contexts (Ollama 4k by default on most GPUs, vLLM ``--max-model-len``,
llama.cpp ``-c``) and fail in different ways when a prompt is too long: Ollama silently drops the
*front* of the prompt (the rules and the scenario) and answers 200, vLLM and llama.cpp answer 400.
So every request is estimated here first; the oldest exchanges are dropped (and the model is told
how many) until the request and the reply (``llm_max_tokens``) fit. Nothing is cut silently: what
was dropped is said in the request and logged, and a request that cannot fit raises
``ContextOverflow`` with the fix.

The estimate is deliberately pessimistic (``CHARS_PER_TOKEN`` below the ~4 of English prose under
BPE tokenizers, as JSON schemas and code tokenize denser), plus a few tokens per message for the
chat template.
"""

from __future__ import annotations

import json
import logging
import math
from typing import TYPE_CHECKING, Any

from interviewer.llm.client import CONTEXT_FIX, ContextOverflow

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage
    from langchain_core.tools import BaseTool

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 3.5
MESSAGE_OVERHEAD_TOKENS = 6
"""Role markers and separators a chat template adds per message."""
FIRST_REQUEST_TOKENS = 3000
"""The first interviewer request (system prompt, tools, first answer) stays under this, so it fits
any server's context with room for the reply."""
UNDERCOUNT_RATIO = 0.6
"""A server that counted fewer than this share of the tokens we sent probably truncated the prompt."""


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def tool_schemas(tools: list[BaseTool]) -> list[dict[str, Any]]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return [convert_to_openai_tool(tool) for tool in tools]


def _content(message: BaseMessage) -> str:
    content = message.content
    text = content if isinstance(content, str) else json.dumps(content)
    calls = getattr(message, "tool_calls", None)
    if calls:
        text += json.dumps([{"name": c["name"], "args": c["args"]} for c in calls])
    return text


def request_tokens(messages: list[BaseMessage], tools: list[BaseTool] | None = None, *, schemas: list[dict] | None = None) -> int:
    """Estimated prompt tokens of a chat request with these messages and tools."""
    total = sum(estimate_tokens(_content(m)) + MESSAGE_OVERHEAD_TOKENS for m in messages)
    if schemas is None and tools:
        schemas = tool_schemas(tools)
    if schemas:
        total += estimate_tokens(json.dumps(schemas))
    return total


def fit_history(
    system: BaseMessage,
    history: list[BaseMessage],
    *,
    tools_tokens: int,
    context_tokens: int,
    reply_tokens: int,
) -> tuple[list[BaseMessage], int]:
    """The history without its oldest exchanges until system + history + tools + reply fit
    ``context_tokens``; returns (kept history, how many messages were dropped).

    Drops whole user/assistant pairs from the front, so the history still starts with the
    candidate and alternates (some chat templates insist). The latest answer always stays."""
    budget = context_tokens - reply_tokens - tools_tokens - estimate_tokens(str(system.content)) - MESSAGE_OVERHEAD_TOKENS
    sizes = [estimate_tokens(_content(m)) + MESSAGE_OVERHEAD_TOKENS for m in history]
    start = 0
    while start < len(history) - 1 and sum(sizes[start:]) > budget:
        start += 2 if start + 2 < len(history) else 1
    kept = history[start:]
    if sum(sizes[start:]) > budget:
        needed = context_tokens - budget + sum(sizes[start:])
        raise ContextOverflow(f"the interview needs about {needed} tokens of context but llm_context_tokens is {context_tokens}: {CONTEXT_FIX}")
    if start:
        log.info("context budget: dropped the %d oldest messages of the history to fit %d tokens", start, context_tokens)
    return kept, start


def undercount_warning(sent_estimate: int, server_count: int | None, context_tokens: int) -> str | None:
    """A warning when the server counted far fewer prompt tokens than were sent (Ollama truncates
    an over-long prompt from the front without an error)."""
    if not server_count or sent_estimate < 200 or server_count >= sent_estimate * UNDERCOUNT_RATIO:
        return None
    return (
        f"the LLM server counted {server_count} prompt tokens for a request of about {sent_estimate}: it probably cut "
        f"the front of the prompt (the interview rules) to fit a smaller context. Give it at least {context_tokens} "
        "tokens of context (Ollama: OLLAMA_CONTEXT_LENGTH, vLLM: --max-model-len, llama.cpp: -c)"
    )


CLIPPED_TOOL_RESULT_CHARS = 300


def fit_round(messages: list[BaseMessage], *, schemas: list[dict], context_tokens: int, reply_tokens: int) -> int:
    """Fit a later round of a turn (the history plus this turn's tool calls and results): the
    oldest tool results are clipped, with a note saying so, until the request and the reply fit.
    Returns the estimated prompt tokens; raises ``ContextOverflow`` when clipping is not enough."""
    from langchain_core.messages import ToolMessage

    needed = request_tokens(messages, schemas=schemas)
    for message in messages:
        if needed + reply_tokens <= context_tokens:
            break
        content = message.content
        if isinstance(message, ToolMessage) and isinstance(content, str) and len(content) > CLIPPED_TOOL_RESULT_CHARS:
            message.content = content[:CLIPPED_TOOL_RESULT_CHARS] + " […clipped to fit the context]"
            needed = request_tokens(messages, schemas=schemas)
            log.info("context budget: clipped a tool result to fit %d tokens", context_tokens)
    if needed + reply_tokens > context_tokens:
        raise ContextOverflow(
            f"this turn needs about {needed + reply_tokens} tokens of context but llm_context_tokens is {context_tokens}: {CONTEXT_FIX}"
        )
    return needed
