"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API with scripted replies.

The tests drive the real openai client and the LangChain stack against it, so everything between
our code and the socket (SSE parsing, tool-call deltas, retries, timeouts, error mapping) is the
production path. It serves:

- ``POST /v1/chat/completions``: streaming (SSE over chunked transfer encoding, with
  ``tool_calls`` deltas) and non-streaming, replying with the next item of a script queue;
- ``GET /v1/models``.

Each scripted reply can also be a fault: a delay (the client times out), an HTTP error status
(429 with ``retry-after-ms``, 401, 404, 500), malformed tool-call JSON, an empty reply, a reply cut
off with ``finish_reason="length"``, or a connection dropped mid-stream.

Wire formats follow OpenAI's API reference for the chat completion object, the chat completion
chunk object (``choices[].delta``, ``tool_calls[].index``) and the error object.
"""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ScriptedReply:
    """One reply of the script (or one fault)."""

    content: str = ""
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    """(tool name, arguments): a dict is sent as JSON, a str is sent verbatim (so it can be malformed)."""
    finish_reason: str | None = None
    """Defaults to ``tool_calls`` when there are tool calls, else ``stop``."""
    status: int = 200
    """Anything but 200 sends an OpenAI error object with this status instead of a completion."""
    error_message: str = "scripted error"
    error_code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before sending anything (longer than the client timeout → a timeout)."""
    drop_after_chunks: int | None = None
    """Streaming only: close the connection after this many content chunks, mid-body."""
    chunk_chars: int = 6
    """Characters of content per streamed delta."""
    reasoning: str = ""
    """Streamed before the content in ``reasoning_field`` deltas (vLLM, Ollama), never in the content."""
    reasoning_field: str = "reasoning_content"
    tool_call_style: str = "split"
    """How tool calls stream: ``split`` (head, then the arguments in two deltas), ``one-delta`` (each
    whole call in one delta), ``index-0`` (Ollama: every call at index 0, each whole, own id),
    ``repeated-names`` (the name sent again with every arguments delta), ``interleaved`` (the
    deltas of different calls alternate)."""
    finish_style: str = "own-chunk"
    """``own-chunk`` (an empty delta carries it), ``on-content`` (on the last content delta),
    ``twice`` (two final chunks both carry it)."""
    empty_chunks: bool = False
    """Send keep-alive chunks without a ``delta`` (and with empty ``choices``) between the deltas."""
    error_after_chunks: int | None = None
    """Streaming only: after this many content deltas, an in-band error event (the status stays 200)."""
    gap: float = 0.0
    """Seconds between streamed events (a slow or stalling model)."""
    endless: bool = False
    """Streaming only: never finish; keep sending the content again, ``gap`` seconds apart."""

    @property
    def resolved_finish_reason(self) -> str:
        if self.finish_reason is not None:
            return self.finish_reason
        return "tool_calls" if self.tool_calls else "stop"


Responder = Callable[[dict[str, Any]], ScriptedReply]
"""A reply computed from the request body (e.g. a grader that answers with JSON)."""


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None


class FakeOpenAIServer:
    """Start with ``with FakeOpenAIServer() as server:``; ``server.base_url`` ends in ``/v1``."""

    def __init__(self, *, models: tuple[str, ...] = ("test-model",), api_key: str | None = None):
        self.models = set(models)
        self.api_key = api_key
        """When set, requests without ``Authorization: Bearer <api_key>`` get a 401."""
        self.script: deque[ScriptedReply | Responder] = deque()
        self.default: ScriptedReply | Responder | None = None
        """Used when the script is empty (None: a 500 saying the script ran out)."""
        self.routes: list[tuple[Callable[[dict[str, Any]], bool], ScriptedReply | Responder]] = []
        """(predicate on the request body, reply): checked before the script, e.g. for the grader's requests."""
        self.requests: list[RecordedRequest] = []
        self.precheck: Callable[[dict[str, Any]], ScriptedReply | None] | None = None
        """Run on every chat request before the script: an error reply refuses the request (a
        server's own validation), None lets it through. It may also rewrite the body in place
        (a server that truncates the prompt)."""
        self.stop_event = threading.Event()
        """Set by ``stop``: endless streams end so the server can shut down."""
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- script ---------------------------------------------------------------------------------

    def enqueue(self, *replies: ScriptedReply | Responder) -> None:
        with self._lock:
            self.script.extend(replies)

    def route(self, predicate: Callable[[dict[str, Any]], bool], reply: ScriptedReply | Responder) -> None:
        self.routes.append((predicate, reply))

    def next_reply(self, body: dict[str, Any]) -> ScriptedReply:
        with self._lock:
            routed = next((reply for predicate, reply in self.routes if predicate(body)), None)
            if routed is not None:
                item = routed
            else:
                item = self.script.popleft() if self.script else self.default
        if item is None:
            return ScriptedReply(status=500, error_message="the fake server's script ran out of replies")
        return item(body) if callable(item) else item

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]


CHARS_PER_TOKEN = 4
"""What the fake tokenizer counts: about the rate of a BPE tokenizer on English prose and JSON."""


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt tokens a server would count for this request (messages and tool schemas)."""
    text = json.dumps(body.get("messages") or []) + json.dumps(body.get("tools") or [])
    return len(text) // CHARS_PER_TOKEN


def usage(body: dict[str, Any], completion: int = 5) -> dict[str, int]:
    prompt = prompt_tokens(body)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


class _Handler(BaseHTTPRequestHandler):
    owner: FakeOpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def handle(self) -> None:
        # A client that gave up (a retry, a timeout) resets the kept-alive connection: not an error
        # of the server's, and its traceback would land in the output of the test that caused it.
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass

    # -- helpers --------------------------------------------------------------------------------

    def _send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _send_error_object(self, status: int, message: str, code: str | None, headers: dict[str, str] | None = None) -> None:
        kind = {401: "invalid_request_error", 404: "invalid_request_error", 429: "rate_limit_error"}.get(status, "server_error")
        self._send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers)

    def _authorised(self) -> bool:
        if self.owner.api_key is None:
            return True
        return self.headers.get("Authorization") == f"Bearer {self.owner.api_key}"

    def _record(self, body: dict[str, Any] | None) -> None:
        with self.owner._lock:
            # A copy: a persona may rewrite the body it serves (Ollama truncating the prompt); this is what was sent.
            sent = copy.deepcopy(body)
            self.owner.requests.append(RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, sent))

    # -- endpoints ------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._record(None)
        if not self._authorised():
            self._send_error_object(401, "Incorrect API key provided.", "invalid_api_key")
            return
        if self.path.rstrip("/").endswith("/models"):
            data = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"} for name in sorted(self.owner.models)]
            self._send_json(200, {"object": "list", "data": data})
            return
        self._send_error_object(404, f"no route {self.path}", None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._record(None)
            self._send_error_object(400, "request body is not JSON", None)
            return
        self._record(body)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_error_object(404, f"no route {self.path}", None)
            return
        if not self._authorised():
            given = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            # Real OpenAI echoes a masked key; echo part of it to prove our messages redact keys.
            self._send_error_object(401, f"Incorrect API key provided: {given[:8]}****{given[-4:]}.", "invalid_api_key")
            return
        model = body.get("model")
        if model not in self.owner.models:
            self._send_error_object(404, f"The model `{model}` does not exist or you do not have access to it.", "model_not_found")
            return
        refused = self.owner.precheck(body) if self.owner.precheck is not None else None
        reply = refused if refused is not None else self.owner.next_reply(body)
        try:
            if reply.delay:
                time.sleep(reply.delay)
            if reply.status != 200:
                self._send_error_object(reply.status, reply.error_message, reply.error_code, reply.headers)
            elif body.get("stream"):
                self._stream(body, reply)
            else:
                self._complete(body, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to answer

    # -- replies --------------------------------------------------------------------------------

    @staticmethod
    def _arguments(arguments: dict[str, Any] | str) -> str:
        return arguments if isinstance(arguments, str) else json.dumps(arguments)

    def _complete(self, body: dict[str, Any], reply: ScriptedReply) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": self._arguments(args)}}
                for i, (name, args) in enumerate(reply.tool_calls)
            ]
        self._send_json(
            200,
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": reply.resolved_finish_reason, "logprobs": None}],
                "usage": usage(body),
            },
            reply.headers,
        )

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _event(self, body: dict[str, Any], delta: dict[str, Any], finish_reason: str | None = None) -> None:
        chunk = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}],
        }
        self._write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())

    def _stream(self, body: dict[str, Any], reply: ScriptedReply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        finish = reply.resolved_finish_reason

        def send(delta: dict[str, Any], finish_reason: str | None = None) -> None:
            if reply.gap:
                time.sleep(reply.gap)
            self._event(body, delta, finish_reason)
            if reply.empty_chunks:  # keep-alives: no choices at all, and a choice without a delta
                self._raw_event({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body["model"], "choices": []})
                self._raw_event(
                    {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body["model"], "choices": [{"index": 0, "finish_reason": None}]}
                )

        send({"role": "assistant", "content": ""})
        for piece in [reply.reasoning[i : i + reply.chunk_chars] for i in range(0, len(reply.reasoning), reply.chunk_chars)]:
            send({reply.reasoning_field: piece})
        pieces = [reply.content[i : i + reply.chunk_chars] for i in range(0, len(reply.content), reply.chunk_chars)]
        while True:
            for sent, piece in enumerate(pieces):
                if reply.drop_after_chunks is not None and sent >= reply.drop_after_chunks:
                    self._drop()
                    return
                if reply.error_after_chunks is not None and sent >= reply.error_after_chunks:
                    self._raw_event({"error": {"message": "scripted in-band error: the model crashed", "type": "server_error", "code": 500}})
                    self._end()
                    return
                last = sent == len(pieces) - 1 and not reply.tool_calls and not reply.endless
                send({"content": piece}, finish if last and reply.finish_style == "on-content" else None)
            if not reply.endless:
                break
            if self.owner.stop_event.is_set():
                self._drop()
                return
            time.sleep(max(reply.gap, 0.01))
        if reply.drop_after_chunks is not None:
            self._drop()
            return
        for delta in self._tool_call_deltas(reply):
            send({"tool_calls": delta})
        on_content = reply.finish_style == "on-content" and pieces and not reply.tool_calls
        if not on_content:
            send({}, finish)
        if reply.finish_style == "twice":
            send({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            usage_chunk = {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": body["model"],
                "choices": [],
                "usage": usage(body),
            }
            self._write_chunk(f"data: {json.dumps(usage_chunk)}\n\n".encode())
        self._end()

    def _tool_call_deltas(self, reply: ScriptedReply) -> list[list[dict[str, Any]]]:
        """The ``tool_calls`` of each delta, in the reply's ``tool_call_style``."""
        calls = [(index, name, self._arguments(args)) for index, (name, args) in enumerate(reply.tool_calls)]

        def whole(index: int, name: str, arguments: str, at: int | None = None) -> dict[str, Any]:
            return {"index": index if at is None else at, "id": f"call_{index}", "type": "function", "function": {"name": name, "arguments": arguments}}

        style = reply.tool_call_style
        if style == "one-delta":
            return [[whole(i, n, a)] for i, n, a in calls]
        if style == "index-0":
            return [[whole(i, n, a, at=0)] for i, n, a in calls]
        per_call = []
        for index, name, arguments in calls:
            half = len(arguments) // 2
            head = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": name, "arguments": ""}}
            parts = [{"index": index, "function": {"arguments": part}} for part in (arguments[:half], arguments[half:]) if part]
            if style == "repeated-names":
                for part in parts:
                    part["function"]["name"] = name
            per_call.append([head, *parts])
        if style == "interleaved":
            ordered = [deltas[i] for i in range(max(map(len, per_call), default=0)) for deltas in per_call if i < len(deltas)]
            return [[d] for d in ordered]
        return [[d] for deltas in per_call for d in deltas]

    def _raw_event(self, payload: dict[str, Any]) -> None:
        self._write_chunk(f"data: {json.dumps(payload)}\n\n".encode())

    def _end(self) -> None:
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        """Die mid-body: no terminating chunk, connection closed (the client sees an incomplete read)."""
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
