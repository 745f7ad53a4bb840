"""Stream hygiene: what of a model's streamed content the candidate may see.

Small local models put private text in the content channel: reasoning in ``<think>…</think>``
(DeepSeek-R1 distills, Qwen3, QwQ), and tool calls written as text instead of as ``tool_calls``
(Hermes/Qwen ``<tool_call>{…}</tool_call>``, Llama 3.1 ``<|python_tag|>{…}`` or a bare
``{"name": …, "parameters": …}`` reply). ``StreamFilter`` holds all of that back as it streams, so
none of it reaches the candidate, the transcript or the follow-up budget; the tool calls it found
are run as real calls (or, unparseable, treated as a malformed round). Reasoning sent in a separate
field (vLLM's ``reasoning_content``, Ollama's ``reasoning``) never reaches the content: LangChain
does not put it in ``chunk.text``, and the tests check that against servers that send it.

A held-back tag is released as text as soon as it cannot be one of ours (``a < b`` streams at once).

Some chat templates (DeepSeek-R1 distills, QwQ) put the ``<think>`` opener in the prompt, so the
reply streams its reasoning bare and only closes it with ``</think>``. A close tag with no opener
before it makes everything released so far private (``retracted``; the caller replaces what it
showed with ``visible``), and a filter made with ``reasoning_first=True`` (for a model seen doing
that) holds the start of the reply back until that close tag, or releases it at the end if none came.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

THINK_TAGS = {"<think>": "</think>", "<thinking>": "</thinking>", "<reasoning>": "</reasoning>"}
TOOL_TAGS = {"<tool_call>": "</tool_call>", "<function_call>": "</function_call>"}
PYTHON_TAG = "<|python_tag|>"
"""Llama 3.1: the rest of the message is a tool call."""
_OPENERS = (*THINK_TAGS, *TOOL_TAGS, PYTHON_TAG)
_THINK_CLOSERS = tuple(THINK_TAGS.values())


@dataclass
class StreamFilter:
    """Feed the content pieces in order (``feed``), then ``close``; each returns the visible text."""

    private: list[str] = field(default_factory=list)
    """Reasoning held back (never shown, never stored as the interviewer's words)."""
    tool_texts: list[str] = field(default_factory=list)
    """Tool calls written as text, raw."""
    visible: str = ""
    """Everything released so far."""
    _buffer: str = ""
    _closing: str | None = None
    """The close tag of the block we are inside, if any."""
    _into: list[str] | None = None
    _whole_reply: bool = False
    """The reply is (so far) one JSON value or a python-tag call: hold it all to the end."""
    _python_tag: bool = False
    reasoning_first: bool = False
    """The reply may start with reasoning whose opener was in the prompt: hold it until ``</think>``."""
    retracted: bool = False
    """A bare ``</think>`` turned text already released into reasoning: ``visible`` was reset."""
    _implicit: bool = False
    """Inside reasoning whose opener was never streamed (``reasoning_first``)."""
    _opened: bool = False
    """A think block has been opened or closed (a later bare close tag is just text)."""

    def __post_init__(self) -> None:
        if self.reasoning_first:
            self._closing, self._into, self._implicit = "</think>", self.private, True

    def feed(self, piece: str) -> str:
        if not piece:
            return ""
        self._buffer += piece
        return self._release(final=False)

    def close(self) -> str:
        out = self._release(final=True)
        if self._implicit:  # no reasoning came after all: the held-back start is the reply
            self._closing = self._into = None
            self._implicit = False
            out += self._release(final=True)
        if self._closing is not None:  # an unterminated block: private to the end
            assert self._into is not None
            self._into.append(self._buffer)
            self._buffer, self._closing = "", None
        elif self._whole_reply:
            body = self._buffer.strip().removeprefix(PYTHON_TAG).strip()
            self._buffer = ""
            if self._python_tag or parse_text_tool_calls([body])[0] or _looks_like_call(body):
                self.tool_texts.append(body)
            else:
                out += self._show(body)
        else:
            out += self._show(self._buffer)
            self._buffer = ""
        return out

    def _show(self, text: str) -> str:
        if not self.visible:
            text = text.lstrip()
        self.visible += text
        return text

    def _release(self, *, final: bool) -> str:
        out = ""
        while self._buffer:
            if self._closing is not None:
                end = self._buffer.find(self._closing)
                if end == -1:
                    return out
                assert self._into is not None
                self._into.append(self._buffer[:end].removeprefix("<think>") if self._implicit else self._buffer[:end])
                self._buffer = self._buffer[end + len(self._closing) :]
                self._closing = self._into = None
                self._implicit, self._opened = False, True
                continue
            if self._whole_reply:
                return out
            if not self.visible and self._buffer.lstrip()[:1] in ("{", "["):
                self._whole_reply = True
                return out
            start = self._buffer.find("<")
            if start == -1:
                out += self._show(self._buffer)
                self._buffer = ""
                return out
            if start:
                out += self._show(self._buffer[:start])
                self._buffer = self._buffer[start:]
            lowered = self._buffer.lower()
            bare_close = next((tag for tag in _THINK_CLOSERS if lowered.startswith(tag)), None)
            if bare_close is not None and not self._opened:
                # the reasoning's opener was in the prompt: what was shown so far was reasoning
                self.private.append(self.visible)
                self.visible, self.retracted, self._opened = "", True, True
                self._buffer = self._buffer[len(bare_close) :]
                out = ""
                continue
            opener = next((tag for tag in _OPENERS if lowered.startswith(tag)), None)
            if opener == PYTHON_TAG:
                self._whole_reply = self._python_tag = True
                return out
            if opener is not None:
                self._opened = self._opened or opener in THINK_TAGS
                self._closing = THINK_TAGS.get(opener) or TOOL_TAGS[opener]
                self._into = self.private if opener in THINK_TAGS else self.tool_texts
                self._buffer = self._buffer[len(opener) :]
                continue
            if not final and any(tag.startswith(lowered) for tag in (*_OPENERS, *_THINK_CLOSERS)):
                return out  # may still become a tag: wait for the next piece
            out += self._show(self._buffer[0])
            self._buffer = self._buffer[1:]
        return out


def _looks_like_call(body: str) -> bool:
    return body.startswith("{") and '"name"' in body[:200]


def parse_text_tool_calls(texts: list[str]) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """(name, arguments) for each tool call written as text, and the raw texts that do not parse."""
    calls: list[tuple[str, dict[str, Any]]] = []
    bad: list[str] = []
    for raw in texts:
        body = raw.strip()
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            bad.append(body)
            continue
        items = data if isinstance(data, list) else [data]
        for item in items:
            call = _as_call(item)
            if call is None:
                bad.append(json.dumps(item) if not isinstance(item, str) else item)
            else:
                calls.append(call)
    return calls, bad


def _as_call(item: Any) -> tuple[str, dict[str, Any]] | None:
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict):  # {"type": "function", "function": {...}}
        item = item["function"]
    name = item.get("name")
    args = item.get("arguments", item.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            return None
    if not isinstance(name, str) or not name or not isinstance(args, dict):
        return None
    return name, args
