"""Clarifying questions: what the candidate asks the interviewer about the problem, and the answer.

A strong candidate frames the problem before designing ("what is the peak request rate?", "how much
data do we have?"). The scenario's ``ask_facts`` hold the answers: facts that are also in the brief
(``given``) and facts revealed only when asked. This module finds the questions addressed to the
interviewer in a turn, matches each to the facts it asks about, and writes the reply; the rubric
policy speaks it, the LLM policy reaches the same matching through its ``scenario_fact`` tool, and
the scorecard lists what was asked and what mattered but was never asked.

A question is addressed to the interviewer when it is a question sentence (or an indirect one: "I'd
like to know ...", "can I assume ...") that is not answered by the candidate in the next sentence
("Why does it matter? Because ..."). In a turn that also answers, a question gets a reply when it
matches a fact or ends the turn (and is not a check-in like "does that make sense?"): a question
about the design in the middle of an answer is the candidate thinking aloud.

Matching is by the facts' cues, part by part of a question. Its accuracy on turns written blind
is measured by ``bench/clarify_accuracy.py``; a question it cannot place gets "your call: state
your assumption", which is also the right answer to a question the scenario does not settle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from interviewer.domain import AskedQuestion, Framing
from interviewer.engine.statements import Act, analyse
from interviewer.engine.text import compiled, content_stems, split_sentences
from rubrics.schema import AskFact, Scenario

_INDIRECT = re.compile(
    r"\b(?:i'?d\s+(?:like|want|love|need)\s+to\s+(?:know|understand|check|confirm|clarify|ask)|i\s+(?:want|need)\s+to\s+(?:know|understand)"
    r"|i'?m\s+(?:curious|wondering)|i\s+wonder|wondering|can\s+(?:i|we)\s+assume|may\s+i\s+assume|do\s+we\s+(?:know|have)"
    r"|could\s+you\s+(?:tell|say|share|clarify|confirm)|can\s+you\s+(?:tell|say|share|clarify|confirm)|tell\s+me|any\s+(?:idea|info\w*|numbers?)\s+(?:on|about)"
    r"|first\s+(?:question|thing\s+i'?d\s+ask)|quick\s+question|(?:one|a)\s+(?:quick\s+)?clarification)",
    re.IGNORECASE,
)
"""Questions asked without a question mark: "I'd like to know how much data we have."."""

_BARE_QUESTION = re.compile(
    r"^\s*(?:so\s+|and\s+|also\s+|ok(?:ay)?[,\s]+)?(?:how\s+(?:much|many|long|big|fast|often|bursty|large|strict|spiky)\b"
    r"|what(?:'s|s|\s+is|\s+are|\s+was|\s+were)\b|what\s+\w+(?:\s+\w+)?\s+(?:do|does|did|is|are|should|would|can|will)\b"
    r"|which\b|(?:is|are)\s+there\b|(?:do|does|did|can|could|should|will|would)\s+(?:we|i|you|the|they|it)\b)",
    re.IGNORECASE,
)
"""A question typed without its question mark ("how bursty is the traffic over a day")."""

_SELF_ANSWER = re.compile(
    r"^\s*(?:because|well[,\s]|simple[:,\s]|the\s+(?:short\s+)?answer|answer\s*:|it'?s\s+because|mostly\s+because|that'?s\s+because|short\s+version)",
    re.IGNORECASE,
)
"""A sentence that answers the question before it: that question was rhetorical."""

_RHETORICAL_START = re.compile(r"^\s*(?:(?:so\s+)?why\b|so\s+(?:what|where|how|which|when)\b)", re.IGNORECASE)
"""Questions a candidate asks to answer them next ("So where do you look when p99 degrades? Start by ...")."""
_CHECK_IN = re.compile(
    r"\b(?:(?:does|did)\s+(?:that|this)\s+(?:make\s+sense|sound\s+(?:right|good|ok(?:ay)?|reasonable)|answer)|make\s+sense\?|any\s+(?:thoughts|questions)"
    r"|sounds?\s+(?:good|right|ok(?:ay)?)\?|shall\s+i\s+(?:go\s+on|continue)|is\s+that\s+(?:what\s+you\s+(?:meant|wanted)|ok(?:ay)?|enough))",
    re.IGNORECASE,
)
"""A check-in that ends an answer ("Does that make sense?"), not a question about the problem."""
_AFTER_QUESTION_MARK = re.compile(r"(?<=\?)\s+")


@dataclass(frozen=True)
class Question:
    """One question of the turn addressed to the interviewer, and the facts it asks about."""

    text: str
    facts: tuple[AskFact, ...]


@dataclass(frozen=True)
class Clarification:
    questions: tuple[Question, ...]
    """The questions the interviewer answers, in the turn's order."""
    only_questions: bool
    """The turn is nothing but questions: there is no answer to grade or follow up yet."""

    @property
    def facts(self) -> tuple[AskFact, ...]:
        """The facts asked about, each once, in the order first asked."""
        return tuple({fact.id: fact for question in self.questions for fact in question.facts}.values())

    def __bool__(self) -> bool:
        return bool(self.questions)


_PARTS = re.compile(
    r",?\s+and\s+(?=(?:how|what|which|when|where|who|is|are|do|does|did|can|could|will|would|should|also)\b)|;|,\s*(?=(?:how|what|which|when|and|also|plus)\b)|\s+(?:also|plus),?\s+",
    re.IGNORECASE,
)
"""Where one question sentence asks the next thing ("what is the peak rate, and how long are prompts?")."""


def matching_facts(scenario: Scenario, question: str) -> tuple[AskFact, ...]:
    """The scenario's facts a question asks about, in the order the question names them.

    Each part of the question (split where it asks the next thing) is matched on its own. Each
    fact's longest cue match is its span; where spans overlap the longest (most specific) wins, and
    a fact revealed only when asked beats a fact of the brief that the same part also names: "is
    there a budget for the GPUs?" asks about the budget, not about the GPUs."""
    found: dict[str, AskFact] = {}
    for part in _PARTS.split(question):
        for fact in _facts_in(scenario, part):
            found.setdefault(fact.id, fact)
    return tuple(found.values())


def _facts_in(scenario: Scenario, part: str) -> list[AskFact]:
    spans: list[tuple[int, int, AskFact]] = []
    for fact in scenario.ask_facts:
        matches = [m for cue in fact.cues if (m := compiled(cue).search(part))]
        if matches:
            best = max(matches, key=lambda m: m.end() - m.start())
            spans.append((best.start(), best.end(), fact))
    # A question that names every content word of a fact's topic ("what about the length of the
    # run?") asks about it, whatever its cues say.
    words = content_stems(part)
    named = [f for f in scenario.ask_facts if len(topic := content_stems(f.topic)) >= 2 and topic <= words]
    if any(not fact.given for _, _, fact in spans) or any(not fact.given for fact in named):
        spans = [span for span in spans if not span[2].given]
        named = [fact for fact in named if not fact.given]
    kept: list[tuple[int, int, AskFact]] = []
    for start, end, fact in sorted(spans, key=lambda s: s[0] - s[1]):
        if all(end <= s or start >= e for s, e, _ in kept):
            kept.append((start, end, fact))
    found = [fact for _, _, fact in sorted(kept, key=lambda s: s[0])]
    return found + [fact for fact in named if fact not in found]


def is_question(sentence: str) -> bool:
    """A question to the interviewer: a question sentence, an indirect one ("I'd like to know ..."),
    or one typed without its question mark."""
    if analyse(sentence).act is Act.question or _INDIRECT.search(sentence):
        return True
    return len(sentence.split()) <= 20 and bool(_BARE_QUESTION.match(sentence)) and not re.search(r"[:=]", sentence)


def is_asking(sentence: str) -> bool:
    """Framing evidence: the sentence asks the interviewer (``is_question``) or sets out to ask
    ("I'd first clarify whether ...", the statement analysis's ``asks``)."""
    return analyse(sentence).asks or is_question(sentence)


def clarification(scenario: Scenario, turn: str) -> Clarification:
    """The questions of a candidate's turn the interviewer should answer from the scenario."""
    sentences = [part for sentence in split_sentences(turn) for part in _AFTER_QUESTION_MARK.split(sentence) if part.strip()]
    asked: list[Question] = []
    answering = 0
    for i, sentence in enumerate(sentences):
        following = sentences[i + 1] if i + 1 < len(sentences) else ""
        rhetorical = bool(following and (_SELF_ANSWER.match(following) or _RHETORICAL_START.match(sentence)))
        if not is_question(sentence) or rhetorical:
            answering += 1
            continue
        asked.append(Question(sentence, matching_facts(scenario, sentence)))
    only_questions = bool(asked) and answering == 0
    if not only_questions:
        # In a turn that also answers, a question no fact matches is the candidate thinking aloud,
        # unless it ends the turn: then it is put to the interviewer ("... do we know?").
        last = asked[-1].text if asked and asked[-1].text == sentences[-1] and not _CHECK_IN.search(sentences[-1]) else None
        asked = [q for q in asked if q.facts or q.text == last]
    return Clarification(tuple(asked), only_questions)


def clarification_reply(clarification: Clarification) -> str:
    """What the interviewer says to the questions: the facts, then "your call" for the rest."""
    lines = [f"- **{fact.topic[:1].upper() + fact.topic[1:]}**: {fact.answer.strip()}" for fact in clarification.facts]
    if any(q.facts and all(f.given for f in q.facts) for q in clarification.questions):
        # A question that only reached facts of the brief may have asked for more than they hold.
        lines.append("- Anything beyond what the brief says is your call: state your assumption and go on with it.")
    lines += [
        f"- On “{_short(q.text)}”: the brief doesn't say, so that's your call. State your assumption and go on with it."
        for q in clarification.questions
        if not q.facts
    ]
    opener = "Good question." if len(clarification.questions) == 1 else "Good questions."
    return f"{opener}\n\n" + "\n".join(lines)


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split()).rstrip("?")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def framing_of(scenario: Scenario, answers: list[str], *, reveal: bool = True) -> Framing:
    """The framing the candidate did across their answers (questions matched to the scenario's
    facts); with ``reveal=False`` (the interview is not over) the never-asked topics are left out,
    as they name what the candidate should have asked."""
    asked: dict[str, AskedQuestion] = {}
    for answer in answers:
        for question in clarification(scenario, answer).questions:
            for fact in question.facts:
                asked.setdefault(fact.id, AskedQuestion(topic=fact.topic, question=question.text))
    never = [f.topic for f in scenario.ask_facts if f.matters and not f.given and f.id not in asked] if reveal else []
    return Framing(asked=list(asked.values()), never_asked=never)
