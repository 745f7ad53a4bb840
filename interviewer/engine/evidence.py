"""Find, in a candidate's answer, the evidence each rubric criterion asks for.

Two signals, both deterministic:
- explicit cues: the criterion's evidence regexes, matched per sentence; a criterion is met when
  ``min_cues`` distinct cues are found across the interview;
- meaning: MiniLM similarity between each sentence and the criterion's description, which
  credits a paraphrase with "partly met" but never on its own with "met".
Sentences addressed to the grader (prompt injection) are set aside and give no evidence, and a
sentence said twice counts once.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from interviewer.engine.text import MAX_ANALYSED_CHARS, clean, is_injection, split_sentences
from rubrics.schema import Scenario

SEMANTIC_PARTIAL = 0.62
"""Cosine similarity (MiniLM) above which a sentence paraphrases a criterion closely enough for
partial credit. Calibrated on tests/fixtures/eval: on-topic paraphrases score 0.62-0.8, generic
on-topic sentences 0.35-0.55, off-topic text below 0.2."""


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def matching_cues(patterns: list[str], sentence: str) -> list[str]:
    return [p for p in patterns if _compiled(p).search(sentence)]


@dataclass
class CriterionHit:
    criterion_id: str
    cues: set[str] = field(default_factory=set)
    quotes: list[str] = field(default_factory=list)
    """Sentences (the candidate's words) that matched cues, in order, without repeats."""
    semantic: float = 0.0
    semantic_quote: str | None = None

    def merge(self, other: CriterionHit) -> None:
        self.cues |= other.cues
        for quote in other.quotes:
            if quote not in self.quotes:
                self.quotes.append(quote)
        if other.semantic > self.semantic:
            self.semantic, self.semantic_quote = other.semantic, other.semantic_quote

    def to_dict(self) -> dict:
        return {
            "cues": sorted(self.cues),
            "quotes": self.quotes,
            "semantic": round(self.semantic, 4),
            "semantic_quote": self.semantic_quote,
        }

    @classmethod
    def from_dict(cls, criterion_id: str, data: dict) -> CriterionHit:
        return cls(
            criterion_id,
            set(data.get("cues", [])),
            list(data.get("quotes", [])),
            float(data.get("semantic", 0.0)),
            data.get("semantic_quote"),
        )


@dataclass
class TurnAnalysis:
    sentences: list[str]
    injections: list[str]
    hits: dict[str, CriterionHit]
    wrong_answer_steps: list[str]
    anti_patterns: list[str]
    truncated: bool

    @property
    def criteria_hit(self) -> list[str]:
        return [cid for cid, hit in self.hits.items() if hit.cues or hit.semantic >= SEMANTIC_PARTIAL]


class EvidenceFinder:
    def __init__(self, scenario: Scenario, *, use_embeddings: bool = True):
        self.scenario = scenario
        self.use_embeddings = use_embeddings
        self._criterion_vectors: list[list[float]] | None = None
        self._preloaded: dict[str, list[float]] = {}
        self._lock = threading.Lock()

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
            if self._criterion_vectors is None:
                from interviewer.embeddings import embed_fixed

                self._criterion_vectors = embed_fixed([c.description for c in self.scenario.criteria])
            return self._criterion_vectors

    def _similarities(self, sentences: list[str]) -> list[list[float]]:
        """similarities[s][c]: sentence s vs criterion c."""
        if not self.use_embeddings or not sentences:
            return [[0.0] * len(self.scenario.criteria) for _ in sentences]
        import torch

        from interviewer.embeddings import get_embedder

        criteria = torch.tensor(self._vectors())
        missing = [s for s in sentences if s not in self._preloaded]
        computed = dict(zip(missing, get_embedder().embed(missing), strict=True))
        vectors = torch.tensor([self._preloaded.get(s) or computed[s] for s in sentences])
        return (vectors @ criteria.T).tolist()

    def analyze(self, text: str, seen_sentences: set[str] | None = None, *, semantic: bool = True) -> TurnAnalysis:
        """Evidence in one answer. ``seen_sentences`` (normalised) are skipped: repeats add nothing.

        ``semantic=False`` leaves out the embedding similarity (``add_semantic`` adds it later):
        the interviewer's next move depends only on cues and claims, so it need not wait for it.
        """
        text = clean(text)
        sentences = split_sentences(text)
        seen = seen_sentences if seen_sentences is not None else set()
        fresh: list[str] = []
        injections: list[str] = []
        for sentence in sentences:
            key = " ".join(sentence.lower().split())
            if is_injection(sentence):
                injections.append(sentence)
            elif key not in seen:
                seen.add(key)
                fresh.append(sentence)
        hits: dict[str, CriterionHit] = {}
        for criterion in self.scenario.criteria:
            hit = CriterionHit(criterion.id)
            for sentence in fresh:
                cues = matching_cues(criterion.evidence, sentence)
                if cues:
                    hit.cues.update(cues)
                    if sentence not in hit.quotes:
                        hit.quotes.append(sentence)
            if hit.cues:
                hits[criterion.id] = hit
        wrong_steps = [
            step.id for step in self.scenario.steps if any(matching_cues(step.wrong_answer_cues, s) for s in fresh)
        ]
        anti = [a.id for a in self.scenario.anti_patterns if any(matching_cues(a.cues, s) for s in fresh)]
        analysis = TurnAnalysis(
            sentences=fresh,
            injections=injections,
            hits=hits,
            wrong_answer_steps=wrong_steps,
            anti_patterns=anti,
            truncated=len(text) > MAX_ANALYSED_CHARS,
        )
        if semantic:
            self.add_semantic(analysis)
        return analysis

    def add_semantic(self, analysis: TurnAnalysis) -> None:
        """Each criterion's closest sentence by embedding similarity, merged into ``analysis.hits``
        (partial credit when at least ``SEMANTIC_PARTIAL``; never enough to meet a criterion)."""
        similarities = self._similarities(analysis.sentences)
        for index, criterion in enumerate(self.scenario.criteria):
            best, closest = 0.0, None
            for sentence, row in zip(analysis.sentences, similarities, strict=True):
                if row[index] > best:
                    best, closest = row[index], sentence
            hit = analysis.hits.get(criterion.id)
            if hit is None and best >= SEMANTIC_PARTIAL:
                hit = analysis.hits[criterion.id] = CriterionHit(criterion.id)
            if hit is not None and best > hit.semantic:
                hit.semantic, hit.semantic_quote = best, closest
