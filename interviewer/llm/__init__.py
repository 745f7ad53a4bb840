"""LLM mode: the interviewer and the grader played by a chat model on any OpenAI-compatible endpoint
(OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio), with the calculators and retrieval as tools.

The offline engine stays the default and the safety net: every fault falls back to it.
Names are imported lazily so ``import interviewer.llm`` costs nothing until LLM mode is used.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LLMEndpointError", "LLMInterviewer", "check_endpoint", "grade_with_llm", "llm_scorecard"]

_WHERE = {
    "LLMInterviewer": "interviewer.llm.agent",
    "LLMEndpointError": "interviewer.llm.client",
    "check_endpoint": "interviewer.llm.check",
    "grade_with_llm": "interviewer.llm.grading",
    "llm_scorecard": "interviewer.llm.grading",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'interviewer.llm' has no attribute {name!r}")
