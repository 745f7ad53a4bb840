"""BM25 over the note chunks, in memory: the lexical half of hybrid retrieval.

Dense MiniLM retrieval misses exact technical terms ("PSI", "ZeRO-Offload", "beam search"), and
BM25 misses paraphrase; fusing the two rankings (reciprocal rank fusion, Cormack et al. 2009)
is more robust than either. BM25 as in Robertson & Zaragoza (2009), k1=1.5, b=0.75.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_TOKEN = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
STOPWORDS = frozenset(
    "a an and are as at be but by can could do does for from how i if in into is it its my of on or our so "
    "that the their then there these this to was we what when where which while who why will with would you your "
    "me get got does did than them they use using used".split()
)


def tokenize(text: str) -> list[str]:
    tokens = []
    for token in _TOKEN.findall(text.lower()):
        if token in STOPWORDS:
            continue
        tokens.append(token)
        if "-" in token:  # "zero-offload" should also match "zero" and "offload"
            tokens.extend(part for part in token.split("-") if part and part not in STOPWORDS)
    return tokens


class BM25:
    def __init__(self, documents: Sequence[str], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.docs = [Counter(tokenize(doc)) for doc in documents]
        self.lengths = [sum(doc.values()) for doc in self.docs]
        self.avg_length = sum(self.lengths) / max(1, len(self.lengths))
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        n = len(self.docs)
        self.idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}

    def scores(self, query: str) -> list[float]:
        terms = [t for t in set(tokenize(query)) if t in self.idf]
        out = []
        for doc, length in zip(self.docs, self.lengths, strict=True):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * length / self.avg_length)
            for term in terms:
                tf = doc.get(term, 0)
                if tf:
                    score += self.idf[term] * tf * (self.k1 + 1) / (tf + norm)
            out.append(score)
        return out

    def top(self, query: str, n: int) -> list[int]:
        scores = self.scores(query)
        ranked = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [i for i in ranked[:n] if scores[i] > 0]
