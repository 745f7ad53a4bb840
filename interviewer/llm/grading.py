"""The LLM's scorecard: the model judges each criterion with a quote; the code checks and weighs.

Division of labour, so a model can enrich the judgement but never inflate it:
- the LLM says, per criterion, met / partial / missed and quotes the candidate's words;
- a quote must actually be in the candidate's answers (whitespace, case and typographic quotes
  normalised; sentences addressed to the grader do not count), else the LLM's verdict is discarded
  and the rubric scorer's verdict, capped at the LLM's, stands;
- to rate a criterion above the rubric scorer, the quote must also bear on that criterion (one of
  its evidence cues, or MiniLM similarity to its description of at least ``RELEVANCE``), so a judge
  steered into quoting any harmless sentence gains nothing;
- if any answer contains text addressed to the grader (prompt injection), the LLM may lower
  criteria but never raise one above the rubric scorer, which sets such text aside;
- numbers are the calculators' verdicts (``deterministic.claims``), never the model's arithmetic,
  and a criterion whose number was wrong cannot be fully met;
- the tier weights, hint penalty, total and level are computed by ``interviewer.engine.scoring``;
- criteria where the two judges differ by half a criterion or more are listed in ``notices``.
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from interviewer.config import Settings
from interviewer.domain import CriterionResult, Role, Scorecard, Status, Turn, TurnKind
from interviewer.engine.evidence import matching_cues, quote_asserts
from interviewer.engine.scoring import MAX_QUOTES, PARTIAL_SCORE, claim_contradicts, scorecard_from_results
from interviewer.engine.text import clean, is_injection, quote, split_sentences
from interviewer.llm.client import LLMEndpointError, describe_endpoint_error, make_chat_model, require_model
from interviewer.llm.prompts import GRADER_RETRY, grader_messages

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from rubrics.schema import Criterion, Scenario

log = logging.getLogger(__name__)

LARGE_DISAGREEMENT = 0.5
"""Criterion-score difference (met 1, partial 0.5, missed 0) between the judges that is reported."""
MIN_QUOTE_CHARS = 12
"""A shorter "quote" ("attention", "KV cache") is a keyword, not evidence."""
RELEVANCE = 0.45
"""MiniLM cosine similarity between a quote and a criterion's description above which the quote is
about that criterion. Calibrated like ``engine.evidence.SEMANTIC_PARTIAL`` (0.62, on-topic
paraphrases 0.62-0.8, generic on-topic sentences 0.35-0.55, off-topic below 0.2): lower, because
here it only has to rule out quotes about something else."""

_SCORES = {Status.met: 1.0, Status.partial: PARTIAL_SCORE, Status.missed: 0.0}
_STATUS_WORDS = {
    "met": "met",
    "yes": "met",
    "fully met": "met",
    "partial": "partial",
    "partially met": "partial",
    "partly met": "partial",
    "missed": "missed",
    "missing": "missed",
    "not met": "missed",
    "no": "missed",
    "unmet": "missed",
}


class CriterionVerdict(BaseModel):
    id: str
    status: Literal["met", "partial", "missed"]
    quote: str = ""
    rationale: str = ""

    @field_validator("status", mode="before")
    @classmethod
    def _tolerant_status(cls, value: object) -> object:
        return _STATUS_WORDS.get(str(value).strip().lower(), value) if isinstance(value, str) else value

    @field_validator("quote", "rationale", mode="before")
    @classmethod
    def _text(cls, value: object) -> object:
        return "" if value is None else value


class Judgement(BaseModel):
    criteria: list[CriterionVerdict] = Field(default_factory=list)


# -- parsing the model's reply --------------------------------------------------------------------

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_judgement(text: str) -> Judgement:
    """The JSON object in the grader's reply (code fences and surrounding prose tolerated)."""
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("no JSON object in the reply")
    data = json.loads(body[start : end + 1])
    if isinstance(data, dict) and "criteria" not in data and all(isinstance(v, dict) for v in data.values()):
        data = {"criteria": [{"id": key, **value} for key, value in data.items()]}  # {"id": {...}} shape
    return Judgement.model_validate(data)


# -- verifying quotes -----------------------------------------------------------------------------

_TYPOGRAPHIC = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "−": "-", "\u00a0": " "})
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\])\s*")


def normalise(text: str) -> str:
    return " ".join(text.translate(_TYPOGRAPHIC).lower().split())


def evidence_corpus(candidate_texts: list[str]) -> list[str]:
    """Each answer, normalised, without the sentences addressed to the grader (they are never evidence)."""
    corpus = []
    for text in candidate_texts:
        kept = [s for s in split_sentences(clean(text)) if not is_injection(s)]
        corpus.append(normalise(" ".join(kept)))
    return corpus


def verify_quote(quoted: str, corpus: list[str]) -> bool:
    """True when every piece of ``quoted`` (split at ellipses) is in one of the answers."""
    if not quoted or is_injection(quoted):
        return False
    pieces = [p.strip(" \"'.,;:") for p in _ELLIPSIS.split(normalise(quoted))]
    pieces = [p for p in pieces if p]
    if not pieces or sum(len(p) for p in pieces) < MIN_QUOTE_CHARS:
        return False
    return any(all(piece in answer for piece in pieces) for answer in corpus)


# -- merging the two judges -----------------------------------------------------------------------


def quote_bears_on(criterion: Criterion, quoted: str, *, use_embeddings: bool = True) -> bool:
    """The quote shows one of the criterion's evidence cues, or is close in meaning to its description."""
    if any(matching_cues(criterion.evidence, sentence) for sentence in [quoted, *split_sentences(quoted)]):
        return True
    if not use_embeddings:
        return False
    try:
        from interviewer.embeddings import get_embedder

        description, text = get_embedder().embed([" ".join(criterion.description.split()), quoted])
    except Exception:  # no embedder: only cues can justify rating above the rubric scorer
        log.exception("embedding a quote failed")
        return False
    return sum(a * b for a, b in zip(description, text, strict=True)) >= RELEVANCE


def addressed_to_grader(candidate_texts: list[str]) -> bool:
    return any(is_injection(sentence) for text in candidate_texts for sentence in split_sentences(clean(text)))


def merge_judgement(
    scenario: Scenario,
    judgement: Judgement,
    deterministic: Scorecard,
    candidate_texts: list[str],
    *,
    mode: str,
    hint_penalty_points: float,
    use_embeddings: bool = True,
) -> Scorecard:
    """Per-criterion results from the LLM's verdicts, checked against the transcript and the calculators."""
    verdicts = {v.id: v for v in judgement.criteria}
    rubric = {c.id: c for c in deterministic.criteria}
    corpus = evidence_corpus(candidate_texts)
    guarded = addressed_to_grader(candidate_texts)
    results: list[CriterionResult] = []
    notices: list[str] = []
    if guarded:
        notices.append(
            "Part of the answers was addressed to the grader, so the LLM judge could lower criteria but not raise "
            "any above the rubric scorer's verdict."
        )
    for criterion in scenario.criteria:
        ruled = rubric.get(criterion.id)
        verdict = verdicts.get(criterion.id)
        if ruled is None:  # the deterministic card always has every criterion; be safe anyway
            ruled = CriterionResult(
                id=criterion.id, tier=criterion.tier.value, description=criterion.description, status=Status.missed, score=0.0
            )
        if verdict is None:
            result = ruled.model_copy(update={"rationale": f"No judgement from the LLM; the rubric scorer's verdict. {ruled.rationale}"})
            results.append(result)
            continue
        status = Status(verdict.status)
        evidence: list[str] = []
        rationale = verdict.rationale.strip()
        if status is not Status.missed:
            if verify_quote(verdict.quote, corpus):
                evidence = [quote(verdict.quote.strip().strip("\"“”"))]
            else:
                capped = min(status, ruled.status, key=lambda s: _SCORES[s])
                rationale = (
                    f"The LLM judged it {status.value} but its quote is not in the candidate's answers, "
                    f"so the rubric scorer's verdict ({ruled.status.value}) stands"
                    + (f", capped at {status.value}." if capped is not ruled.status else ".")
                )
                status = capped
                evidence = list(ruled.evidence) if status is not Status.missed else []
        if _SCORES[status] > ruled.score:
            if guarded:
                status, evidence = ruled.status, list(ruled.evidence)
                rationale = f"{rationale} (Capped at the rubric scorer's verdict: answers addressed the grader.)"
            elif not quote_bears_on(criterion, verdict.quote, use_embeddings=use_embeddings):
                status, evidence = ruled.status, list(ruled.evidence)
                rationale = f"{rationale} (The quote is not about this criterion, so the rubric scorer's verdict stands.)"
            elif not quote_asserts(criterion, verdict.quote, candidate_texts):
                status, evidence = ruled.status, list(ruled.evidence)
                rationale = (f"{rationale} (The candidate's sentence does not assert it: it is negated, asked, hedged, "
                             "only listed or addressed to the grader, so the rubric scorer's verdict stands.)")
        if status is Status.met and (wrong := claim_contradicts(scenario, criterion, deterministic.claims)):
            status = Status.partial
            rationale += f" But the number was wrong: {wrong.get('explanation', '')}"
        if status is not Status.missed:
            for extra in ruled.evidence:
                if len(evidence) < MAX_QUOTES and extra not in evidence:
                    evidence.append(extra)
        result = CriterionResult(
            id=criterion.id,
            tier=criterion.tier.value,
            description=criterion.description,
            status=status,
            score=_SCORES[status],
            evidence=evidence,
            matched_cues=list(ruled.matched_cues),
            notes=list(criterion.notes),
            source="llm",
            rationale=rationale.strip(),
        )
        results.append(result)
        if abs(result.score - ruled.score) >= LARGE_DISAGREEMENT:
            notices.append(
                f"Large disagreement on {criterion.id} ({criterion.tier.value}): the LLM judge says {result.status.value}, "
                f"the rubric scorer says {ruled.status.value}."
            )
    return scorecard_from_results(
        scenario,
        results,
        list(deterministic.claims),
        hints_used=deterministic.hints_used,
        hint_penalty_points=hint_penalty_points,
        mode=mode,
        reveal_model_answer=bool(deterministic.model_answer),
        notices=notices,
    )


# -- asking the model -----------------------------------------------------------------------------


def private_notes(turns: list[Turn]) -> list[str]:
    """The interviewer's private notes for the grader, in order (from turn meta)."""
    return [str(note) for turn in turns for note in (turn.meta.get("private_notes") or [])]


def _candidate_texts(turns: list[Turn]) -> list[str]:
    return [t.text for t in turns if t.role is Role.candidate and t.kind is TurnKind.answer]


def ask_for_judgement(chat: BaseChatModel, messages: list, *, model: str) -> Judgement:
    """One grading request, and one retry when the reply is not the JSON asked for."""
    from langchain_core.messages import AIMessage, HumanMessage

    conversation = list(messages)
    problem = ""
    for _attempt in range(2):
        reply = chat.invoke(conversation)
        text = reply.text
        finish = (reply.response_metadata or {}).get("finish_reason")
        if not text.strip():
            raise LLMEndpointError(f"empty reply from model '{model}' when grading (finish_reason={finish})")
        try:
            return parse_judgement(text)
        except (ValueError, ValidationError) as exc:
            problem = "the reply was cut off" if finish == "length" else str(exc).splitlines()[0]
            conversation += [AIMessage(text), HumanMessage(GRADER_RETRY.format(problem=problem))]
    raise LLMEndpointError(f"model '{model}' did not return a valid grading JSON ({problem})")


def llm_scorecard(
    scenario: Scenario,
    transcript_turns: list[Turn],
    deterministic: Scorecard,
    settings: Settings,
    *,
    chat_model: BaseChatModel | None = None,
    use_embeddings: bool = True,
) -> Scorecard:
    """The LLM-judged scorecard. Raises ``LLMEndpointError`` (or the client's error) when the endpoint fails."""
    model = require_model(settings)
    chat = chat_model or make_chat_model(settings, streaming=False, temperature=0.0)
    messages = grader_messages(
        scenario, transcript_turns, claims=list(deterministic.claims), private_notes=private_notes(transcript_turns)
    )
    judgement = ask_for_judgement(chat, messages, model=model)
    return merge_judgement(
        scenario,
        judgement,
        deterministic,
        _candidate_texts(transcript_turns),
        mode=f"llm:{model}",
        hint_penalty_points=settings.hint_penalty,
        use_embeddings=use_embeddings,
    )


def fallback_scorecard(deterministic: Scorecard, reason: str, settings: Settings) -> Scorecard:
    """The rubric scorer's card, saying why the LLM's judgement is missing."""
    return deterministic.model_copy(
        update={
            "mode": f"offline (llm:{settings.llm_model} unavailable)",
            "notices": [*deterministic.notices, f"LLM grading unavailable ({reason}); this is the rubric scorer's score."],
        }
    )


def grade_with_llm(
    scenario: Scenario,
    answers: list[str],
    settings: Settings,
    *,
    chat_model: BaseChatModel | None = None,
    use_embeddings: bool = True,
) -> Scorecard:
    """``interviewer grade --llm MODEL``: the LLM's scorecard for a set of answers, or the rubric
    scorer's with a notice when the endpoint fails."""
    from interviewer.engine.session import grade_answers

    deterministic = grade_answers(scenario, answers, use_embeddings=use_embeddings)
    turns = [Turn(role=Role.candidate, kind=TurnKind.answer, text=clean(answer)) for answer in answers]
    try:
        return llm_scorecard(scenario, turns, deterministic, settings, chat_model=chat_model, use_embeddings=use_embeddings)
    except Exception as exc:  # any endpoint failure: the deterministic score is still a full answer
        reason = describe_endpoint_error(exc, settings)
        log.warning("LLM grading failed: %s", reason)
        return fallback_scorecard(deterministic, reason, settings)
