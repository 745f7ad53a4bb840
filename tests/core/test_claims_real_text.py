"""The claim checker never calls a number wrong in text known to be right.

The knowledge notes and every scenario's model answer were written independently of the checker
and checked by hand: a false "incorrect" there is exactly what must never reach a candidate. Each
text is checked twice: as written (Markdown, wrapped lines, tables) and the way the interview
engine feeds it (cleaned, split into sentences, one per line). Model answers are checked with
their scenario's facts, as in an interview; notes with none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.claims import check_claims
from interviewer.engine.text import clean, split_sentences
from rubrics.loader import load_scenarios

NOTES = sorted((Path(__file__).resolve().parents[2] / "knowledge" / "notes").glob("*.md"))
SCENARIOS = load_scenarios()


def _engine_form(text: str) -> str:
    return "\n".join(split_sentences(clean(text)))


def _wrong(text: str, facts: dict | None) -> list[tuple[str, str]]:
    found = []
    for form in (text, _engine_form(text)):
        found += [(c.text, c.explanation) for c in check_claims(form, facts) if c.verdict == "incorrect"]
    return found


def test_there_are_notes_and_model_answers() -> None:
    assert len(NOTES) >= 38
    assert len(SCENARIOS) >= 6


# Notes with FLOP claims: the checker counts them by running a model under torch's FlopCounterMode.
TORCH_NOTES = {"attention-complexity", "llm-inference-latency"}


@pytest.mark.parametrize(
    "note", [pytest.param(note, marks=pytest.mark.slow) if note.stem in TORCH_NOTES else note for note in NOTES], ids=lambda path: path.stem
)
def test_no_number_in_a_knowledge_note_is_called_incorrect(note: Path) -> None:
    assert _wrong(note.read_text(encoding="utf-8"), None) == []


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_no_number_in_a_model_answer_is_called_incorrect(scenario) -> None:
    assert _wrong(scenario.model_answer, dict(scenario.facts)) == []
