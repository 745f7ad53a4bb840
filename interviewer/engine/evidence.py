"""Find, in a candidate's answer, the evidence each rubric criterion asks for.

Evidence is a statement, not a word. Each sentence is read by ``statements`` first:
- only an on-topic *assertion* counts. A question counts only for a criterion about asking (framing
  the problem). A hedge ("I guess ZeRO-3 or something") earns partial credit at most; a bare mention
  (a keyword, a list of terms, an answer of bare figures) earns partial credit only on a criterion
  about naming a technique (see ``scoring``). Text addressed to the grader counts for nothing;
- a cue (a criterion's evidence regex) found in a span the sentence negates, rejects or dismisses
  ("ZeRO-3 is overkill", "decode is not memory-bound") is a rejection of that criterion, never
  evidence for it;
- a criterion that asks for a quantity is matched by value: every quantity in the criterion's
  description (bar the scenario's given facts) is compared with the numbers the candidate asserts,
  in any unit or notation, within ``VALUE_TOLERANCE``, when the sentence shares a word with what
  surrounds that quantity in the description;
- meaning: MiniLM similarity between each sentence and the criterion's description credits a
  paraphrase with "partly met" (never "met") when the sentence asserts without negation, and a
  sentence far from every criterion and question of the scenario is off-topic: its cues are dropped.
A step's common wrong answer and the anti-patterns, asserted (not negated, asked or supposed), are
misconceptions: they cancel credit for the criteria they contradict and are listed on the scorecard.
A sentence said twice counts once.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache

from interviewer.engine.clarify import is_asking, matching_facts
from interviewer.engine.statements import (
    Act,
    Form,
    addressed_to_grader,
    analyse,
    carries_negation,
    dismisses,
    has_negation,
    is_bare_fact,
    tightly_negated,
)
from interviewer.engine.text import MAX_ANALYSED_CHARS, clean, compiled, content_stems, split_sentences
from rubrics.schema import Criterion, Scenario

SEMANTIC_PARTIAL = 0.62
"""Cosine similarity (MiniLM) above which an asserted sentence paraphrases a criterion closely enough
for partial credit. Calibrated on tests/fixtures/eval and bench/data/judge_dev."""

SEMANTIC_MIN_WORDS = 8
"""A paraphrase shorter than this ("bf16 and fp16 are both 16 bits") is too generic to credit."""

OFF_TOPIC = 0.25
"""A sentence whose similarity to every criterion and question of the scenario stays below this is
about something else (the scenario's words reused in a story): none of its cues count. Tuned on
bench/data/judge_dev."""

VALUE_TOLERANCE = 0.10
"""A number matches a criterion's quantity within 10% (GB and GiB both accepted)."""

_VALUE_DIMS = frozenset({"bytes", "seconds", "s_per_token", "FLOPs", "flops?", "FLOP/s", "bytes/s", "tokens", "parameters",
                         "fraction", "bytes_per_param", "tokens_per_param", "tokens_per_s", "req_per_s"})


_GENERIC_STEMS = content_stems("gb gib mb mib kb tb bytes byte ms seconds second days hours tokens token flops params parameters "
                                "gpu gpus about total each one two four times")
"""Units and filler: sharing one of these says nothing about sharing a topic."""


@lru_cache(maxsize=512)
def _description_stems(description: str) -> frozenset[str]:
    return content_stems(description)


def coverage(criterion: Criterion, hit: CriterionHit) -> float:
    """Share of the criterion description's content words that the candidate's clean assertions use."""
    stems = _description_stems(criterion.description)
    return len(set(hit.covered) & stems) / len(stems) if stems else 0.0


def matching_cues(patterns: list[str], sentence: str) -> list[str]:
    return [p for p in patterns if compiled(p).search(sentence)]


def fixed_texts(scenario: Scenario) -> list[str]:
    """The scenario texts a sentence is compared with: criteria first (their order is relied on), then questions."""
    return [c.description for c in scenario.criteria] + [step.question for step in scenario.steps]


@dataclass
class CriterionHit:
    criterion_id: str
    evidence: dict[str, list[str]] = field(default_factory=dict)
    """Cue (a regex, or ``= <value>`` for a quantity matched by value) → sentences asserting it."""
    mentions: dict[str, list[str]] = field(default_factory=dict)
    """Cue → sentences that only name it (a keyword or list item)."""
    hedged: dict[str, list[str]] = field(default_factory=dict)
    """Cue → sentences that assert it without committing ("maybe", "I guess"): partial credit at most."""
    rejected: list[str] = field(default_factory=list)
    """Sentences that negate, reject or dismiss what the criterion asks for."""
    semantic: float = 0.0
    """Similarity of the closest committed, explained, unnegated sentence (0 when none)."""
    semantic_quote: str | None = None
    covered: dict[str, list[str]] = field(default_factory=dict)
    """Content word (stem) of the criterion's description → the clean assertions that use it."""

    @property
    def cues(self) -> set[str]:
        """Distinct cues asserted. Once the candidate has rejected part of this criterion, a cue
        counts only from a sentence that is not itself the rejection and rejects nothing."""
        return {cue for cue, sentences in self.evidence.items() if any(self._clean(s) for s in sentences)}

    @property
    def quotes(self) -> list[str]:
        return list(dict.fromkeys(s for sentences in self.evidence.values() for s in sentences if self._clean(s)))

    def _clean(self, sentence: str) -> bool:
        return not self.rejected or (sentence not in self.rejected and not has_negation(sentence))

    @property
    def mention_quotes(self) -> list[str]:
        return list(dict.fromkeys(s for sentences in self.mentions.values() for s in sentences))

    @property
    def hedged_quotes(self) -> list[str]:
        return list(dict.fromkeys(s for sentences in self.hedged.values() for s in sentences))

    def is_empty(self) -> bool:
        return not (self.evidence or self.mentions or self.hedged or self.rejected or self.semantic or self.covered)

    def merge(self, other: CriterionHit) -> None:
        for mine, theirs in ((self.evidence, other.evidence), (self.mentions, other.mentions), (self.hedged, other.hedged),
                             (self.covered, other.covered)):
            for cue, sentences in theirs.items():
                kept = mine.setdefault(cue, [])
                kept.extend(s for s in sentences if s not in kept)
        self.rejected.extend(s for s in other.rejected if s not in self.rejected)
        if other.semantic > self.semantic:
            self.semantic, self.semantic_quote = other.semantic, other.semantic_quote

    def discard(self, sentences: set[str]) -> None:
        """Forget what these sentences contributed (they turned out to be off-topic)."""
        for table in (self.evidence, self.mentions, self.hedged, self.covered):
            for cue in list(table):
                table[cue] = [s for s in table[cue] if s not in sentences]
                if not table[cue]:
                    del table[cue]
        self.rejected = [s for s in self.rejected if s not in sentences]

    def to_dict(self) -> dict:
        return {
            "cues": sorted(self.cues),
            "quotes": self.quotes,
            "evidence": self.evidence,
            "mentions": self.mentions,
            "hedged": self.hedged,
            "rejected": self.rejected,
            "semantic": round(self.semantic, 4),
            "semantic_quote": self.semantic_quote,
            "covered": self.covered,
        }

    @classmethod
    def from_dict(cls, criterion_id: str, data: dict) -> CriterionHit:
        evidence = data.get("evidence")
        if evidence is None:  # stored before statements were read: every cue backed by every quote
            evidence = {cue: list(data.get("quotes", [])) for cue in data.get("cues", [])}
        return cls(
            criterion_id,
            {cue: list(s) for cue, s in evidence.items()},
            {cue: list(s) for cue, s in (data.get("mentions") or {}).items()},
            {cue: list(s) for cue, s in (data.get("hedged") or {}).items()},
            list(data.get("rejected") or []),
            float(data.get("semantic", 0.0)),
            data.get("semantic_quote"),
            {word: list(s) for word, s in (data.get("covered") or {}).items()},
        )


@dataclass
class Misconception:
    """A common wrong answer or anti-pattern the candidate asserted."""

    id: str
    description: str
    quote: str
    contradicts: list[str]

    def to_dict(self) -> dict:
        return {"id": self.id, "description": self.description, "quote": self.quote, "contradicts": self.contradicts}


@dataclass
class TurnAnalysis:
    sentences: list[str]
    injections: list[str]
    hits: dict[str, CriterionHit]
    wrong_answer_steps: list[str]
    anti_patterns: list[str]
    truncated: bool
    misconceptions: list[Misconception] = field(default_factory=list)
    off_topic: list[str] = field(default_factory=list)

    @property
    def criteria_hit(self) -> list[str]:
        return [cid for cid, hit in self.hits.items() if hit.cues or hit.semantic >= SEMANTIC_PARTIAL]


@lru_cache(maxsize=64)
def _figures(description: str, given: tuple[str, ...]) -> dict[tuple[str, float], frozenset[str]]:
    """The quantities a criterion's description names, less those the scenario gives the candidate,
    each with the content words around it ("20 GB of model states per GPU")."""
    known = [(m.dim, m.value) for text in given for m in _numbers_in(text)]
    figures: dict[tuple[str, float], frozenset[str]] = {}
    for mention in _numbers_in(description):
        if mention.dim not in _VALUE_DIMS or not mention.value or not math.isfinite(mention.value):
            continue
        if any(d == mention.dim and _close(v, mention.value) for d, v in known if d in _VALUE_DIMS and v and math.isfinite(v)):
            continue
        around = content_stems(description[max(0, mention.start - 70): mention.end + 50]) - _GENERIC_STEMS
        key = (mention.dim, mention.value)
        figures[key] = figures.get(key, frozenset()) | around
    return figures


def _close(a: float, b: float, tolerance: float = VALUE_TOLERANCE) -> bool:
    if a == 0 or b == 0:
        return a == b
    ratio = a / b
    return 1 / (1 + tolerance) <= ratio <= 1 + tolerance


def criterion_quantities(scenario: Scenario, criterion: Criterion) -> tuple[tuple[str, float], ...]:
    return tuple(criterion_figures(scenario, criterion))


def criterion_figures(scenario: Scenario, criterion: Criterion) -> dict[tuple[str, float], frozenset[str]]:
    """The criterion's quantities (dimension, value) with the words around each in its description."""
    return _figures(criterion.description, (*scenario.given, scenario.prompt))


@lru_cache(maxsize=2048)
def _numbers_in(sentence: str) -> tuple:
    """The numbers of a sentence as the claim parser reads them (parsed once, whatever the number of criteria)."""
    from interviewer.claims.parser import parse_sentence

    try:
        return tuple(parse_sentence(sentence).mentions)
    except (ArithmeticError, ValueError):
        return ()


def _value_cues(sentence: str, statement_negated, figures: dict[tuple[str, float], frozenset[str]]) -> list[str]:
    """Quantities of the criterion the sentence states, in any unit, about the same thing: a number
    matches only when the sentence shares a word with what surrounds it in the criterion ("20 GB of
    model states per GPU" is not "the bf16 weights are 20 GB")."""
    if not figures or not any(ch.isdigit() for ch in sentence):
        return []
    mentions = _numbers_in(sentence)
    words = content_stems(sentence)
    cues = []
    for mention in mentions:
        if statement_negated(mention.start, mention.end):
            continue
        values = [mention.value] + ([mention.binary_alternative] if mention.binary_alternative else [])
        for (dim, expected), around in figures.items():
            if mention.dim == dim and any(v and _close(v, expected) for v in values) and words & around:
                cues.append(f"= {_plain(expected)} {dim}")
    return cues


@lru_cache(maxsize=8192)
def _negative_in_rubric(description: str, pattern: str) -> bool:
    """Whether the criterion itself states this cue negatively ("TP's all-reduces have no overlap",
    "bf16 needs no loss scaling"): then the candidate's negation agrees with the rubric, and an
    unnegated statement of the cue is what contradicts it."""
    match = compiled(pattern).search(description)
    return bool(match) and not carries_negation(match.group()) and tightly_negated(description, match.start(), match.end())


def _plain(value: float) -> str:
    return f"{value:.4g}"


def quote_asserts(criterion: Criterion, quoted: str, answers: list[str]) -> bool:
    """Whether the candidate's sentence that holds ``quoted`` asserts what the criterion asks for:
    the quote lies within one sentence; that whole sentence (so a negation the quote cut off still
    counts) is a committed assertion, not addressed to the grader, not a bare list (unless the
    criterion is about naming a technique), dismisses nothing, and negates none of the criterion's
    cues the rubric states positively. Used by the LLM grader before it may rate a criterion above the rubric scorer."""
    needle = " ".join(quoted.strip().strip("\"“”'").rstrip(".…").split()).lower()
    if len(needle) < 12:
        return False
    sentences = [s for answer in answers for s in split_sentences(clean(answer))]
    holder = next((s for s in sentences if needle in " ".join(s.split()).lower()), None)
    if holder is None:
        return False
    statement = analyse(holder)
    asks = "question" in criterion.requires and statement.asks
    if statement.act is Act.grader or (statement.act in (Act.question, Act.hedge) and not asks):
        return False
    if statement.form is Form.mention and "mention" not in criterion.requires:
        return False
    for pattern in criterion.evidence:
        match = compiled(pattern).search(holder)
        if match and not asks and not carries_negation(match.group()):
            if statement.negated_at(match.start(), match.end()) and not _negative_in_rubric(criterion.description, pattern):
                return False
    return not dismisses(holder)


def _explains_the_term_before(sentence: str, following: str) -> bool:
    """"fp32 master weights + m, v. An update under half an ulp vanishes: ...": terse notes name a
    technique, then the next sentence explains it. The name is then no bare list item."""
    if not following or len(_WORDS.findall(sentence)) > 10:
        return False
    statement = analyse(following)
    return statement.act is Act.assertion and statement.form is Form.explained and not dismisses(following) and not has_negation(following) \
        and len(_WORDS.findall(following)) >= 6


_WORDS = re.compile(r"[A-Za-z0-9][\w'-]*")


def _answer_is_a_list(sentences: list[str]) -> bool:
    """Most of the answer is bare terms and figures: then its bare figures are list items too."""
    if len(sentences) < 2:
        return False
    bare = sum(analyse(s).form is Form.mention or is_bare_fact(s) for s in sentences)
    return bare * 3 >= len(sentences) * 2


class EvidenceFinder:
    def __init__(self, scenario: Scenario, *, use_embeddings: bool = True):
        self.scenario = scenario
        self.use_embeddings = use_embeddings
        self._fixed_vectors: list[list[float]] | None = None
        self._preloaded: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._asks = {c.id for c in scenario.criteria if "question" in c.requires}
        self._criterion_ids = frozenset(c.id for c in scenario.criteria) | frozenset(step.id for step in scenario.steps)

    def preload(self, answers: list[str]) -> None:
        """Embed the sentences of many answers in one batched call (``grade``): about a quarter
        faster than one call per answer, since batches of similar length waste less padding."""
        if not self.use_embeddings:
            return
        from interviewer.embeddings import get_embedder

        sentences = list(dict.fromkeys(s for answer in answers for s in split_sentences(clean(answer))))
        self._preloaded.update(zip(sentences, get_embedder().embed(sentences), strict=True))

    def _vectors(self):
        with self._lock:
            if self._fixed_vectors is None:
                from interviewer.embeddings import embed_fixed

                self._fixed_vectors = embed_fixed(fixed_texts(self.scenario))
            return self._fixed_vectors

    def _similarities(self, sentences: list[str]) -> list[list[float]]:
        """similarities[s][t]: sentence s vs fixed text t (criteria, then questions)."""
        count = len(self.scenario.criteria) + len(self.scenario.steps)
        if not self.use_embeddings or not sentences:
            return [[0.0] * count for _ in sentences]
        import torch

        from interviewer.embeddings import get_embedder

        fixed = torch.tensor(self._vectors())
        missing = [s for s in sentences if s not in self._preloaded]
        computed = dict(zip(missing, get_embedder().embed(missing), strict=True))
        vectors = torch.tensor([self._preloaded.get(s) or computed[s] for s in sentences])
        return (vectors @ fixed.T).tolist()

    def analyze(self, text: str, seen_sentences: set[str] | None = None, *, semantic: bool = True) -> TurnAnalysis:
        """Evidence in one answer. ``seen_sentences`` (normalised) are skipped: repeats add nothing.

        ``semantic=False`` leaves out the embedding similarity and the off-topic test (``add_semantic``
        adds both later): the interviewer's next move need not wait for them.
        """
        text = clean(text)
        sentences = split_sentences(text)
        seen = seen_sentences if seen_sentences is not None else set()
        fresh: list[str] = []
        injections: list[str] = []
        for sentence, to_grader in zip(sentences, addressed_to_grader(sentences, self._criterion_ids), strict=True):
            key = " ".join(sentence.lower().split())
            if to_grader:
                injections.append(sentence)
            elif key not in seen:
                seen.add(key)
                fresh.append(sentence)
        hits: dict[str, CriterionHit] = {}
        listed = _answer_is_a_list(fresh)
        for index, sentence in enumerate(fresh):
            following = fresh[index + 1] if index + 1 < len(fresh) else ""
            self._read_sentence(sentence, hits, as_mention=listed and is_bare_fact(sentence),
                                explained_next=not listed and _explains_the_term_before(sentence, following))
        wrong_steps: list[str] = []
        anti: list[str] = []
        misconceptions: list[Misconception] = []
        wrong_answers = [(step.id, step.common_wrong_answer, step.wrong_answer_cues, step.contradicts, wrong_steps) for step in self.scenario.steps]
        wrong_answers += [(a.id, a.description, a.cues, a.contradicts, anti) for a in self.scenario.anti_patterns]
        for item_id, description, cues, contradicts, found in wrong_answers:
            quote = self._asserted_match(cues, fresh)
            if quote:
                found.append(item_id)
                misconceptions.append(Misconception(item_id, description.strip(), quote, list(contradicts)))
        analysis = TurnAnalysis(
            sentences=fresh,
            injections=injections,
            hits={cid: hit for cid, hit in hits.items() if not hit.is_empty()},
            wrong_answer_steps=wrong_steps,
            anti_patterns=anti,
            truncated=len(text) > MAX_ANALYSED_CHARS,
            misconceptions=misconceptions,
        )
        if semantic:
            self.add_semantic(analysis)
        return analysis

    def _read_sentence(self, sentence: str, hits: dict[str, CriterionHit], *, as_mention: bool = False, explained_next: bool = False) -> None:
        statement = analyse(sentence)
        if as_mention:
            statement = replace(statement, form=Form.mention)
        elif explained_next and statement.form is Form.mention:
            statement = replace(statement, form=Form.explained)
        clean_assertion = statement.act in (Act.assertion, Act.hedge) and statement.form is Form.explained and not has_negation(sentence)
        stems = content_stems(sentence) if clean_assertion else frozenset()
        # Every criterion's cue matches, once: the negation check below reads them all.
        matches_by = {c.id: [(p, m) for p in c.evidence if (m := compiled(p).search(sentence))] for c in self.scenario.criteria}
        # A negation that belongs to another criterion's own cue ("bf16 doesn't need loss scaling")
        # asserts that criterion; it does not reject what the negated words name elsewhere.
        owned_negation = any(carries_negation(m.group()) for found in matches_by.values() for _, m in found)
        asking = is_asking(sentence)
        for criterion in self.scenario.criteria:
            shared = stems & _description_stems(criterion.description)
            if shared:
                hit = hits.setdefault(criterion.id, CriterionHit(criterion.id))
                for stem in shared:
                    hit.covered.setdefault(stem, []).append(sentence)
            asks_count = criterion.id in self._asks and asking
            if statement.act is Act.question and not asks_count:
                continue
            matches = matches_by[criterion.id]
            values = _value_cues(sentence, statement.negated_at, criterion_figures(self.scenario, criterion))
            # Framing criteria require a question (the schema checks), so asks_count says it is one.
            asked = [f"asked: {f.id}" for f in matching_facts(self.scenario, sentence) if f.id in criterion.asks_about] if criterion.asks_about and asks_count else []
            if not matches and not values and not asked:
                continue
            hit = hits.setdefault(criterion.id, CriterionHit(criterion.id))
            for cue in asked:  # framing: each fact asked about is one cue
                hit.evidence.setdefault(cue, []).append(sentence)
            if asks_count:
                table = hit.evidence
            elif statement.form is Form.mention:
                table = hit.mentions
            elif statement.act is Act.hedge:
                table = hit.hedged
            else:
                table = hit.evidence
            for pattern, match in matches:
                if not asks_count and not carries_negation(match.group()):
                    negated = statement.negated_at(match.start(), match.end())
                    if negated != _negative_in_rubric(criterion.description, pattern):
                        if negated and not owned_negation and sentence not in hit.rejected:
                            hit.rejected.append(sentence)
                        continue  # unnegated where the rubric negates: not evidence, but no rejection either
                table.setdefault(pattern, []).append(sentence)
            for cue in values:
                table = hit.hedged if statement.act is Act.hedge else hit.mentions if statement.form is Form.mention else hit.evidence
                table.setdefault(cue, []).append(sentence)

    @staticmethod
    def _asserted_match(patterns: list[str], sentences: list[str]) -> str | None:
        """The first sentence asserting one of ``patterns`` (not negating, asking or supposing it)."""
        for sentence in sentences:
            statement = analyse(sentence)
            if statement.act in (Act.question, Act.grader) or statement.hypothetical:
                continue
            for pattern in patterns:
                match = compiled(pattern).search(sentence)
                if match and not statement.negated_at(match.start(), match.end()):
                    return sentence
        return None

    def add_semantic(self, analysis: TurnAnalysis) -> None:
        """Each criterion's closest sentence by embedding similarity, merged into ``analysis.hits``
        (partial credit when at least ``SEMANTIC_PARTIAL``; never enough to meet a criterion), and
        the off-topic sentences' cues dropped."""
        if not self.use_embeddings or not analysis.sentences:
            return
        similarities = self._similarities(analysis.sentences)
        criteria = self.scenario.criteria
        off_topic = {s for s, row in zip(analysis.sentences, similarities, strict=True) if max(row, default=0.0) < OFF_TOPIC}
        analysis.off_topic = [s for s in analysis.sentences if s in off_topic]
        if off_topic:
            for hit in analysis.hits.values():
                hit.discard(off_topic)
            analysis.misconceptions = [m for m in analysis.misconceptions if m.quote not in off_topic]
        for index, criterion in enumerate(criteria):
            best, closest = 0.0, None
            for sentence, row in zip(analysis.sentences, similarities, strict=True):
                if sentence in off_topic or row[index] <= best or len(sentence.split()) < SEMANTIC_MIN_WORDS:
                    continue
                statement = analyse(sentence)
                if statement.act not in (Act.assertion, Act.hedge) or statement.form is Form.mention or has_negation(sentence):
                    continue
                best, closest = row[index], sentence
            if closest is None:
                continue
            hit = analysis.hits.setdefault(criterion.id, CriterionHit(criterion.id))
            if best > hit.semantic:
                hit.semantic, hit.semantic_quote = best, closest
        analysis.hits = {cid: hit for cid, hit in analysis.hits.items() if not hit.is_empty()}
