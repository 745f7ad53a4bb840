"""The LLM's scorecard: the model judges each criterion with a quote; the code checks and weighs.

Division of labour, so a model can enrich the judgement but never inflate it:
- the LLM says, per criterion, met / partial / missed and quotes the candidate's words;
- a quote counts only when it is contiguous within one sentence of the candidate's answers
  (whitespace, case and typographic quotes normalised; no pieces stitched at ellipses; sentences
  addressed to the grader do not count) and the judge's statement analysis finds that sentence
  asserting it (``engine.evidence.quote_asserts``: not negated, asked, hedged, only listed or
  addressed to the grader); else the LLM's verdict is discarded and the rubric scorer's verdict,
  capped at the LLM's, stands;
- the interviewer's private notes reach the grader as untrusted model text, never as evidence;
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
from interviewer.llm.client import CONTEXT_FIX, LLMEndpointError, describe_endpoint_error, make_chat_model, require_model
from interviewer.llm.prompts import GRADER_COMPACT_LEVELS, GRADER_RETRY, grader_messages

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


def evidence_sentences(candidate_texts: list[str]) -> list[str]:
    """Every sentence of the answers, normalised, without the ones addressed to the grader."""
    return [normalise(s) for text in candidate_texts for s in split_sentences(clean(text)) if not is_injection(s)]


def verify_quote(quoted: str, sentences: list[str]) -> bool:
    """True when ``quoted`` is a contiguous part of one of the candidate's sentences: an ellipsis
    (pieces stitched from several places) or a quote spanning two sentences does not count."""
    if not quoted or is_injection(quoted):
        return False
    needle = normalise(quoted).strip(" \"'.,;:")
    if len(needle) < MIN_QUOTE_CHARS or _ELLIPSIS.search(needle):
        return False
    return any(needle in sentence for sentence in sentences)


def quote_counts(criterion: Criterion, quoted: str, sentences: list[str], candidate_texts: list[str]) -> bool:
    """The quote is the candidate's, contiguous within one sentence, and that sentence asserts it."""
    return verify_quote(quoted, sentences) and quote_asserts(criterion, quoted, candidate_texts)


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
    sentences = evidence_sentences(candidate_texts)
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
            if quote_counts(criterion, verdict.quote, sentences, candidate_texts):
                evidence = [quote(verdict.quote.strip().strip("\"“”"))]
            else:
                capped = min(status, ruled.status, key=lambda s: _SCORES[s])
                why = (
                    "is not one piece of one of the candidate's sentences"
                    if not verify_quote(verdict.quote, sentences)
                    else "comes from a sentence that does not assert it (negated, asked, hedged, only listed or addressed to the grader)"
                )
                rationale = (
                    f"The LLM judged it {status.value} but its quote {why}, "
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
        coaching=deterministic.coaching,
        framing=deterministic.framing,
    )


# -- asking the model -----------------------------------------------------------------------------


def private_notes(turns: list[Turn]) -> list[str]:
    """The interviewer's private notes for the grader, in order (from turn meta)."""
    return [str(note) for turn in turns for note in (turn.meta.get("private_notes") or [])]


def _candidate_texts(turns: list[Turn]) -> list[str]:
    return [t.text for t in turns if t.role is Role.candidate and t.kind is TurnKind.answer]


GRADER_MAX_TOKENS = 1200
"""The grader's reply cap: one short JSON entry per criterion (a dozen criteria take about 700)."""


def _complete(chat: BaseChatModel, conversation: list, *, deadline: float, model: str) -> tuple[str, str | None]:
    """Stream one grading reply (so a slow server is bounded between chunks by ``llm_timeout``
    and in all by the grading deadline); returns the visible text and the last finish_reason."""
    import time

    from interviewer.llm.stream import StreamFilter

    hygiene = StreamFilter()  # a reasoning model's <think> block is not the JSON
    finish = None
    for chunk in chat.stream(conversation):
        hygiene.feed(chunk.text)
        finish = (chunk.response_metadata or {}).get("finish_reason") or finish
        if time.monotonic() > deadline:
            raise LLMEndpointError(f"grading by model '{model}' took longer than llm_grading_timeout")
    hygiene.close()
    # ``visible`` is what the filter released, less any reasoning a bare </think> took back; a JSON
    # reply is held back whole by the filter (it looks like a tool call written as text).
    return hygiene.visible + "".join(hygiene.tool_texts), finish


def ask_for_judgement(chat: BaseChatModel, messages: list, *, model: str, deadline: float | None = None) -> Judgement:
    """One grading request, and one retry when the reply is not the JSON asked for."""
    import time

    from langchain_core.messages import AIMessage, HumanMessage

    deadline = time.monotonic() + 3600 if deadline is None else deadline
    conversation = list(messages)
    problem = ""
    for _attempt in range(2):
        text, finish = _complete(chat, conversation, deadline=deadline, model=model)
        if not text.strip():
            raise LLMEndpointError(f"empty reply from model '{model}' when grading (finish_reason={finish})")
        try:
            return parse_judgement(text)
        except (ValueError, ValidationError) as exc:
            problem = "the reply was cut off" if finish == "length" else str(exc).splitlines()[0]
            conversation += [AIMessage(text), HumanMessage(GRADER_RETRY.format(problem=problem))]
    raise LLMEndpointError(f"model '{model}' did not return a valid grading JSON ({problem})")


def fitted_grader_messages(scenario: Scenario, turns: list[Turn], deterministic: Scorecard, settings: Settings) -> list:
    """The grading request at the least compaction that fits ``llm_context_tokens``."""
    from interviewer.llm.budget import ContextOverflow, request_tokens

    notes = private_notes(turns)
    for compact in range(GRADER_COMPACT_LEVELS):
        messages = grader_messages(scenario, turns, claims=list(deterministic.claims), private_notes=notes, compact=compact)
        needed = request_tokens(messages) + GRADER_MAX_TOKENS
        if needed <= settings.llm_context_tokens:
            if compact:
                log.info("grading request compacted to level %d to fit %d tokens", compact, settings.llm_context_tokens)
            return messages
    raise ContextOverflow(
        f"the grading request needs about {needed} tokens but llm_context_tokens is {settings.llm_context_tokens}: {CONTEXT_FIX}"
    )


def _is_json_mode_refusal(exc: BaseException) -> bool:
    import openai

    return isinstance(exc, openai.BadRequestError) and "response_format" in str(exc)


def llm_scorecard(
    scenario: Scenario,
    transcript_turns: list[Turn],
    deterministic: Scorecard,
    settings: Settings,
    *,
    chat_model: BaseChatModel | None = None,
    use_embeddings: bool = True,
) -> Scorecard:
    """The LLM-judged scorecard. Raises ``LLMEndpointError`` (or the client's error) when the endpoint fails.

    The request is fitted into the context, streamed, bounded by ``llm_grading_timeout`` in all,
    and asks for JSON mode (``response_format: json_object``); a server that refuses JSON mode
    (LM Studio accepts only ``json_schema``) is asked again without it."""
    import time

    model = require_model(settings)
    deadline = time.monotonic() + settings.llm_grading_timeout
    messages = fitted_grader_messages(scenario, transcript_turns, deterministic, settings)

    def grader(json_mode: bool) -> BaseChatModel:
        body: dict = {"max_tokens": GRADER_MAX_TOKENS}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        return make_chat_model(settings, streaming=True, temperature=0.0, timeout=min(settings.llm_timeout, settings.llm_grading_timeout), extra_body=body)

    try:
        judgement = ask_for_judgement(chat_model or grader(True), messages, model=model, deadline=deadline)
    except Exception as exc:
        if chat_model is not None or not _is_json_mode_refusal(exc):
            raise
        log.info("the endpoint refused JSON mode; grading without it")
        judgement = ask_for_judgement(grader(False), messages, model=model, deadline=deadline)
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
    from interviewer.engine.grading import grade_answers

    deterministic = grade_answers(scenario, answers, use_embeddings=use_embeddings)
    turns = [Turn(role=Role.candidate, kind=TurnKind.answer, text=clean(answer)) for answer in answers]
    try:
        return llm_scorecard(scenario, turns, deterministic, settings, chat_model=chat_model, use_embeddings=use_embeddings)
    except Exception as exc:  # any endpoint failure: the deterministic score is still a full answer
        reason = describe_endpoint_error(exc, settings)
        log.warning("LLM grading failed: %s", reason)
        return fallback_scorecard(deterministic, reason, settings)
