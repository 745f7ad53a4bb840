"""Cleaning and splitting candidate text, and spotting text aimed at the grader instead of the interviewer."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MAX_ANALYSED_CHARS = 20_000
"""Longer answers are stored whole but only this much is analysed (a 1 MB paste stays responsive)."""

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Remove ANSI escape sequences and control characters; keep newlines, tabs, any script and emoji."""
    text = _ANSI.sub("", text)
    text = _CONTROL.sub("", text)
    return unicodedata.normalize("NFC", text)


_SENTENCE_END = re.compile(
    r"(?<=[.!?;])\s+(?=[\"'(\[A-Z0-9*-])"  # end of a sentence
    r"|\n\s*\n"  # blank line
    r"|\n\s*[-*•]\s+"  # bullet item
    r"|\n(?=\s*\d+[.)]\s)"  # numbered item
    r"|\n(?=\s*\|)"  # Markdown table row: each row is its own statement
    r"|\n(?=\s*#)"  # heading
)


def split_sentences(text: str) -> list[str]:
    """Sentences (and bullet items) of an answer, stripped; decimals like 1.5e9 and 'e.g.' stay whole."""
    pieces = []
    for raw in _SENTENCE_END.split(text[:MAX_ANALYSED_CHARS]):
        piece = " ".join(raw.split()).strip(" -*•")
        if len(piece) >= 3:
            pieces.append(piece)
    return pieces


_STOP = frozenset(
    "the a an of to in on for and or with by is are be that this it as at from its their than into per each so which when how "
    "what why can not no more less about over under only also both all any".split()
)


def content_stems(text: str) -> frozenset[str]:
    """Content words of a text, cut to five letters so that plurals and tenses meet ("shards", "sharded")."""
    return frozenset(word[:5] for word in re.findall(r"[a-z][a-z0-9-]{2,}", text.lower()) if word not in _STOP)


_INJECTION_PATTERNS = [
    r"\bignore\b.{0,40}\b(rubric|instructions?|previous|above|criteria|grading|prompt|rules)\b",
    r"\bdisregard\b.{0,40}\b(rubric|instructions?|previous|above|criteria|grading|rules)\b",
    r"\b(give|award|assign|mark)\b.{0,30}\b(full|maximum|max|perfect|100|top)\b.{0,15}\b(marks?|score|points|credit)\b",
    r"\b(full|perfect|maximum)\s+(marks?|score|credit)\b",
    r"\b(100|ten)\s*(/|out of)\s*(100|10)\b",
    r"\b(system|assistant|developer)\s*(prompt|message)?\s*[:>]",
    r"<\s*/?\s*(system|assistant|instructions?)\s*>",
    r"\[\s*(system|inst|admin)\s*\]",
    r"\byou are (now|no longer)\b",
    r"\b(the )?(rubric|grader|grading (system|model)|scoring (system|model)|evaluator)\b.{0,40}\b(says?|said|should|must|will|requires?)\b",
    r"\b(candidate|this answer|the answer)\b.{0,30}\b(met|meets|satisf\w+|covers?)\b.{0,20}\b(every|all)\b.{0,10}\b(criteri\w+|requirements?)\b",
    r"\b(reveal|show|print|output|tell me)\b.{0,30}\b(model answer|reference answer|rubric|answer key|system prompt)\b",
    r"\bmark (all|every)\b.{0,30}\b(met|complete|passed)\b",
    r"\bnew instructions?\b",
    r"\boverride\b.{0,30}\b(score|grade|rubric|instructions?)\b",
    r"\bpretend\b.{0,40}\b(interviewer|grader|you)\b",
    r"\bact as\b.{0,40}\b(grader|admin|system|developer)\b",
    r"\brole[- ]?play\b.{0,80}\b(interviewer|grader|supervisor|system|admin|evaluator)\b",
    r"\b(passed|met)\b.{0,20}\b(every|all)\b.{0,10}\b(criteri\w+|rubric|checks)\b",
    r"\b(set|change|raise|bump)\s+(my\s+|the\s+)?(score|grade|marks)\b",
    r"\bmodel[_ ]answer\b",
    r"\binstructions?\s+(for|to)\s+the\s+(evaluator|grader|model|assistant|interviewer)\b",
]
_INJECTION = re.compile("|".join(f"(?:{p})" for p in _INJECTION_PATTERNS), re.IGNORECASE | re.DOTALL)


@lru_cache(maxsize=4096)
def compiled(pattern: str) -> re.Pattern[str]:
    """A rubric cue, compiled once (case-insensitive, as every cue is)."""
    return re.compile(pattern, re.IGNORECASE)


def is_injection(sentence: str) -> bool:
    """True for text addressed to the grader or the system rather than a technical answer."""
    return bool(_INJECTION.search(sentence))


def quote(sentence: str, limit: int = 220) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"
