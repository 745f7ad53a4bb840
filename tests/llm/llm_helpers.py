"""Helpers shared by the LLM-mode tests (imported as a plain module: tests/llm is on sys.path)."""

from __future__ import annotations

import json
import re
from typing import Any

from fake_openai_server import FakeOpenAIServer, ScriptedReply
from pydantic import SecretStr

from interviewer.config import Settings

API_KEY = "sk-test-S3CRET-key-7d1e9a42c0ffee"
MODEL = "test-model"
GRADER_MARK = "You grade a finished mock interview"


def make_settings(server: FakeOpenAIServer, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_model": MODEL,
        "llm_base_url": server.base_url,
        "llm_api_key": SecretStr(API_KEY),
        "llm_timeout": 2.0,
        "llm_max_retries": 0,
        "max_followups_per_step": 2,
    }
    values.update(overrides)
    return Settings(**values)


def is_grading(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    return bool(messages) and GRADER_MARK in str(messages[0].get("content", ""))


def grader(verdicts: dict[str, tuple[str, str]] | None = None, *, default: str = "missed"):
    """A grader reply: ``verdicts`` maps criterion id to (status, quote); the rest get ``default``."""

    def respond(body: dict[str, Any]) -> ScriptedReply:
        rubric = body["messages"][1]["content"]
        ids = re.findall(r"^- id: ([a-z0-9-]+) \|", rubric, flags=re.MULTILINE)
        criteria = []
        for cid in ids:
            status, quoted = (verdicts or {}).get(cid, (default, ""))
            criteria.append({"id": cid, "status": status, "quote": quoted, "rationale": f"judged {status}"})
        return ScriptedReply(content=json.dumps({"criteria": criteria}))

    return respond


def tool_call(name: str, **args: Any) -> tuple[str, dict[str, Any]]:
    return (name, args)


async def collect(stream) -> list:
    return [event async for event in stream]
