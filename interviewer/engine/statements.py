"""What a sentence of an answer does: the statement analysis the judge, the interviewer's choice of
follow-up and the LLM grader's quote check all read.

A cue (a technical term, a number) found in a sentence is evidence only when the sentence *asserts*
it. For each sentence this module decides:

- its speech act: an assertion, a question, a hedge ("maybe X?"), or text addressed to the grader;
- its form: an explained statement, or a bare mention (a keyword, a comma or bullet list of terms);
- for any span of it, the polarity: asserted, or negated / rejected / dismissed ("ZeRO-3 is overkill",
  "I wouldn't bother with warmup", "decode is not memory-bound", "X is the same thing as Y");
- whether it is a hypothetical ("if we kept the paper's learning rate ...") rather than a plan.

Everything is deterministic regex over the sentence and linear in its length; topicality (whether
a sentence is about this scenario at all) needs the embedder and lives in ``evidence``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from interviewer.engine.text import is_injection


class Act(StrEnum):
    assertion = "assertion"
    question = "question"
    hedge = "hedge"
    grader = "grader"
    """Addressed to the grader or the system: never evidence, whatever it says."""


class Form(StrEnum):
    explained = "explained"
    mention = "mention"
    """A bare term or a list of terms, with no claim about them."""


_QUESTION_START = re.compile(
    r"^(?:so\s+|and\s+|but\s+|ok(?:ay)?[,\s]+|hmm+[,\s]+|quick question[:,\s]+)?"
    r"(?:do|does|did|is|are|was|were|can|could|would|should|will|shall|what|how|which|when|where|why|who|whose|am)\b",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"\b(?:i(?:'d| would)?\s+(?:first\s+)?(?:want to\s+|like to\s+|need to\s+)?(?:ask|check|clarify|confirm|find out)\b"
    r"|(?:first|before \w+ing)[^.?!]{0,40}\b(?:ask|clarify|confirm|pin down)\b"
    r"|\bask(?:ing)?\s+(?:the\s+pm\s+|them\s+|the\s+team\s+)?(?:whether|if|what|how|which|where|about)\b"
    r"|\bpin(?:ning)?\s+down\b|\bclarif(?:y|ying)\b)",
    re.IGNORECASE,
)
"""A candidate framing the problem by asking: evidence for criteria that are about asking."""

_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|i\s+guess|i\s+suppose|not\s+(?:really\s+)?sure|no\s+idea|i\s+don'?t\s+(?:really\s+)?know"
    r"|possibly|or\s+something|something\s+like\s+that|kind\s+of|sort\s+of|i\s+think\s+maybe|i'?m\s+not\s+certain"
    r"|could\s+be\s+\w+\s+or|might\s+be|might\s+help|not\s+100%|i\s+forget|i\s+can'?t\s+remember|i\s+don'?t\s+remember)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(r"^\s*(?:if|suppose|supposing|imagine|say|assuming|were we to|had we)\b|\bwould\s+have\b", re.IGNORECASE)

_GRADER_MARKS = re.compile(
    r"[✓✔☑✅]|\[\s*[xX✓]\s*\]|\b(?:rubric|grader|grading|checklist|criteri(?:on|a)\s+(?:met|covered|satisfied)|score\s*[:=]|points?\s*[:=]"
    r"|(?:tick|checkbox)(?:es|ed)?\b|self[- ]assessment|evaluator|assessor|scorer|expected[_ ]score|system\s+override|priority\s+0"
    r"|criteri(?:on|a)\b[^.]{0,60}\b(?:are|is|were|was|been)\s+(?:all\s+)?(?:met|satisfied|covered|passed|complete)"
    r"|(?:note|instruction|message)s?\s+(?:for|to)\s+the\s+(?:automated\s+)?(?:grader|evaluator|assessor|scorer|judge|assistant|model)"
    r"|for\s+the\s+record\b[^.]{0,80}\b(?:met|satisfied|covered))\b"
    r"|^\s*(?:assistant|system|grader|evaluator|judge|model|ai|llm)\s*[,:]",
    re.IGNORECASE,
)
"""Fake checklists and notes to the grader ("✓ counts 16 bytes per parameter", "Rubric: all met")."""

# Negation, rejection and dismissal. Before a cue: within its clause, a few words back.
_NEG_BEFORE = re.compile(
    r"(?:\b(?:not|no|never|nor|neither|hardly|none|nothing|instead\s+of|rather\s+than|than|avoid(?:ing)?|skip(?:ping)?|forget(?:\s+about)?"
    r"|drop(?:ping)?|ditch(?:ing)?|without\s+(?:any\s+)?need\s+(?:for|of)|no\s+need\s+(?:for|to)|don'?t\s+need|doesn'?t\s+need|won'?t\s+need"
    r"|unnecessary|overkill|pointless|useless|irrelevant|myth|bother(?:ing)?\s+with|instead|unlike"
    r"|(?:argue[sd]?|arguing|advise[sd]?|advising|recommend(?:s|ed)?|vote[sd]?|voting|decided?|i'?m|we'?re|am|strongly|(?:we|i|they)\s+(?:are|were|was))\s+against)\b"
    r"|n't\b|n’t\b)",
    re.IGNORECASE,
)
_NEG_AFTER = re.compile(
    r"^[^,;:.]{0,40}?\b(?:is|are|'s|’s|seems?|sounds?|feels?|looks?|would\s+be|will\s+be|was|were)?\s*"
    r"(?:not|n't|n’t|never|hardly|overkill|unnecessary|pointless|useless|irrelevant|overrated|a\s+myth|a\s+red\s+herring|a\s+waste"
    r"|optional|not\s+needed|not\s+necessary|not\s+required|not\s+worth|premature|over-?engineering|overhyped|a\s+non-?issue"
    r"|(?:basically|just|really|essentially|pretty\s+much)?\s*(?:(?<!\bon\s)(?<!\bin\s)(?<!\bat\s)(?<!\bfor\s)(?<!\bwith\s)(?<!\bof\s)(?<!\bby\s)(?<!\bto\s)the\s+same(?:\s+thing)?(?:\s+as)?|equivalent(?:\s+to)?|identical(?:\s+to)?|no\s+different)"
    r"|doesn'?t\s+(?:matter|help|apply|work|change|affect)|don'?t\s+(?:matter|help|change|affect)|won'?t\s+(?:help|matter|work|change)"
    r"|can\s+be\s+(?:skipped|ignored|dropped)|we\s+can\s+skip|adds?\s+(?:\w+\s+)?complexity|for\s+(?:a\s+)?marginal|(?:just\s+)?throws?\s+away"
    r"|compromises?|not\s+worth|overrated|is\s+a\s+way\s+of\s+moving|moving\s+the\s+goalposts|a\s+crutch|(?:is|are)\s+(?:a\s+)?(?:fad|hype)"
    r"|redundant|a\s+wash|(?:a\s+)?false\s+econom\w+|(?:just\s+)?a\s+(?:speed\s+)?trick|risky|(?:just\s+)?noise|(?:a\s+)?(?:\w+\s+)?nightmare"
    r"|a\s+solved\s+problem|wasted(?:\s+work)?|a\s+waste|adds?\s+nothing|nothing\s+special|(?:doesn'?t|don'?t|does\s+not|do\s+not)\s+(?:really\s+)?"
    r"(?:help|hold\s+up|tell|mean|work|matter|change|affect|buy|scale|apply|do\s+much)|hardly\s+matters|would\s+confuse|(?:i'?d|we'?d|i\s+would)\s+leave\s+(?:it\s+)?off"
    r"|leave\s+(?:it\s+)?off|(?:the\s+)?\w+\s+team'?s\s+(?:concern|problem|job)|someone\s+else'?s\s+problem|not\s+our\s+(?:problem|concern)"
    r"|the\s+same\s+(?:method|approach|technique|idea|metric)|(?:are|is)\s+just\s+(?:an?\s+)?\w+(?:\s+\w+)?\s+(?:with\s+extra|in\s+disguise|renamed|rebranded)"
    r"|(?:is|are)\s+(?:really\s+)?(?:academic|theoretical|a\s+distraction)|doesn'?t\s+need|don'?t\s+need|isn'?t\s+needed|is\s+not\s+needed|i'?d\s+skip|we'?d\s+skip"
    r"|isn'?t\s+(?:needed|necessary|required|worth|a\s+(?:problem|concern|issue))|aren'?t\s+(?:needed|necessary|required))\b",
    re.IGNORECASE,
)
_DOUBLE_NEGATIVE = re.compile(
    r"\b(?:not\s+only|no\s+doubt|can'?t\s+(?:avoid|skip|do\s+without)|cannot\s+(?:avoid|skip)|not\s+optional|never\s+skip"
    r"|no\s+(?:way\s+)?around|doesn'?t\s+fit\s+without|won'?t\s+fit\s+without|not\s+(?:fit|work)\s+without|don'?t\s+skip|never\s+skip"
    r"|nothing\s+(?:beats|else))\b",
    re.IGNORECASE,
)
_DISMISSIVE = re.compile(
    r"\b(?:overkill|unnecessary|pointless|useless|irrelevant|overrated|over-?hyped|a\s+myth|a\s+fad|(?:just\s+)?hype|(?:a\s+)?placebo|a\s+dead\s+end"
    r"|a\s+non-?starter|a\s+red\s+herring|a\s+waste|wasted|wastes|redundant|a\s+wash|(?:a\s+)?false\s+econom\w+|nothing\s+special|adds?\s+nothing"
    r"|(?:just|only|merely)\s+an?\s+(?:\w+\s+)?(?:trick|hack|ensemble|heuristic|add-?on|detail|formality|gimmick)|a\s+small\s+add-?on"
    r"|no\s+real\s+(?:purpose|benefit|effect|use|point|reason)|micro-?optimi[sz]ation|premature(?:\s+optimi[sz]ation)?|over-?engineer\w*|overthinking"
    r"|(?:is|are)\s+(?:basically|really|essentially|just|pretty\s+much|all)\s+(?:the\s+same|equivalent|identical|an?\s+\w+\s+with\s+extra)"
    r"|(?:is|are)\s+(?:the\s+same\s+thing|no\s+different)|the\s+same\s+(?:thing|method|approach|technique|idea|metric)\b(?!\s+as\s+(?:a|one|the)\b)"
    r"|with\s+extra\s+(?:steps|math)"
    r"|(?:isn'?t|is\s+not|aren'?t|are\s+not)\s+(?:that\s+|really\s+)?(?:important|needed|necessary|required|worth\w*|a\s+(?:problem|concern|issue|thing))"
    r"|not\s+(?:needed|necessary|required|worth\w*|important)|(?:doesn'?t|don'?t|does\s+not|do\s+not)\s+(?:really\s+)?(?:matter|help|hold\s+up|apply)"
    r"|(?:wouldn'?t|won'?t|don'?t|never)\s+bother|a\s+crutch|a\s+distraction|(?:is|are)\s+(?:too\s+)?(?:fragile|academic)"
    r"|a\s+solution\s+looking\s+for\s+a\s+problem|busywork|cargo[- ]cult\w*|a\s+distinction\s+without\s+a\s+difference|nobody\s+(?:really\s+)?needs"
    r"|a\s+(?:\w+\s+)?tax\b|a\s+textbook\s+(?:worry|concern|problem)|for\s+(?:nothing|no\s+reason)|throws?\s+(?:\w+\s+)?away"
    r"|(?:under\s+)?(?:another|a\s+different)\s+name|just\s+renamed|with\s+better\s+(?:pr|marketing)|same\s+story|not\s+our\s+(?:problem|concern)"
    r"|(?:is|are)\s+(?:a\s+)?(?:myth|overhyped|snake\s+oil|theater|theatre)|^\s*oh\s+(?:great|sure|joy)\b|i'?d\s+never|never\s+(?:set|use|need|bother)"
    r"|that'?s\s+a\s+(?:hard\s+)?no|a\s+no\s+from\s+me|^\s*sure,?\s+(?:we|you|i)\s+could|same\s+thing"
    r"|(?:you|we|one|i)\s+can\s+(?:safely\s+|just\s+|mostly\s+)?(?:ignore|skip|forget(?:\s+about)?)|safe\s+to\s+(?:ignore|skip)"
    r"|(?:tpu|hpc|legacy|historical)\s+(?:artifacts?|relics?|leftovers?)|for\s+(?:hpc|academic|research)\s+(?:people|folks|papers)"
    r"|an?\s+academic\s+(?:notion|exercise|concern|idea|worry|nicety)|(?:purely\s+|just\s+|a\s+)?cosmetic|a\s+rabbit[- ]hole"
    r"|(?:with|under)\s+a\s+(?:different|new|fancier|another)\s+name|not\s+a\s+(?:real|big|major|serious)\s+(?:concern|problem|issue|deal)"
    r"|(?:isn'?t|is\s+not|aren'?t|are\s+not)\s+(?:a\s+)?(?:real|big|major|serious)\s+(?:concern|problem|issue|deal)"
    r"|nothing\s+to\s+(?:tune|worry\s+about|gain)|(?:isn'?t|is\s+not|aren'?t)\s+something\s+(?:i'?d|we'?d|you'?d|i\s+would)\s+(?:worry|care|bother)"
    r"|an?\s+(?:bad|terrible|awful)\s+idea|(?:basically\s+)?cheating|(?:don'?t|wouldn'?t|won'?t|never)\s+(?:really\s+)?worry\s+about"
    r"|(?:a\s+)?legacy\s+(?:thing|trick|hack|feature|concern|workaround|technique)|from\s+the\s+\w+\s+days|(?:is|are)\s+(?:now\s+|basically\s+|kind\s+of\s+|long\s+)?(?:obsolete|outdated)"
    r"|(?:won'?t|doesn'?t|don'?t|wouldn'?t|didn'?t|does\s+not|do\s+not)\s+make\s+(?:a|any|much)\s+(?:real\s+)?difference|(?:more\s+of\s+)?a\s+research\s+(?:thing|toy|curiosity)"
    r"|never\s+seen\s+(?:[\w-]+\s+){1,3}(?:matter|help|make\s+a\s+difference)|(?:mostly|just|pure|all)\s+marketing|a\s+(?:\w+\s+){0,2}(?:ritual|ceremony)|box-?ticking"
    r"|for\s+no\s+(?:real\s+)?(?:benefit|gain)|(?:just|only|merely|basically)\s+an?\s+fancier\b|more\s+trouble\s+than\s+(?:it'?s|they'?re|it\s+is|they\s+are)\s+worth"
    r"|(?:don'?t|do\s+not)\s+(?:really\s+)?(?:trust|buy)\b|(?:just\s+)?an?\s+(?:minor|tiny|marginal)\s+(?:optimi[sz]ation|tweak|detail|improvement)|a\s+nice[- ]to[- ]have"
    r"|(?:people|everyone|folks)\s+make\s+a\s+(?:big\s+)?(?:deal|fuss)\s+(?:of|about)|(?:is|are)\s+(?:totally\s+|way\s+|a\s+bit\s+|kind\s+of\s+)?overblown"
    r"|(?:more\s+of\s+)?a\s+(?:purely\s+)?theoretical\s+(?:worry|concern|problem|issue|risk)|(?:has|have)\s+nothing\s+to\s+do\s+with)\b",
    re.IGNORECASE,
)
"""Words that dismiss what their clause names ("pre-LN is a fad", "√d_k has no real purpose",
"SmoothQuant and LLM.int8() are the same method"): every cue in that clause is rejected."""
_CONNECTIVES = r"but|however|while|whereas|although|though|so|because|since|which|instead|then"
_DISMISSAL_CLAUSE = re.compile(rf"[;:,—–]|\s-\s|\b(?:{_CONNECTIVES}|yet)\b", re.IGNORECASE)
"""Clauses for dismissals: a parenthesis stays inside its clause ("SmoothQuant and LLM.int8() are the same method")."""
_CLAUSE_BREAK = re.compile(rf"[;:,.()\[\]—–]|\s-\s|\b(?:{_CONNECTIVES}|and\s+then)\b", re.IGNORECASE)
_LOOKBACK_WORDS = 7

_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|could|will|would|should|may|might|must|need|needs|needed"
    r"|'s|’s|'re|'d|'ll|i|we|you|they|it|this|that|there|because|so|since|which|therefore|means|gives?|takes?|costs?|fits?|holds?"
    r"|keeps?|stores?|reads?|writes?|makes?|cuts?|saves?|splits?|shards?|computes?|adds?|reduces?|increases?|scales?|grows?|drops?"
    r"|runs?|trains?|sends?|loads?|streams?|avoids?|uses?|replaces?|requires?|lets?|allows?|gets?|goes|comes|becomes?|stays?|works?"
    r"|helps?|hurts?|wins?|beats?|dominates?|limits?|bounds?|caps?|halves|doubles?|multipl\w+|divid\w+|overlap\w*|hides?|pays?|spends?"
    r"|moves?|turns?|leaves?|lands?|blows?|explodes?|overflows?|underflows?|diverges?|matters?|depends?)\b|[=≈→~]|\d\s*[x×]",
    re.IGNORECASE,
)
_STRUCTURED = re.compile(
    r"\s[:=≈→<>≤≥]\s|[:=≈→]\s|->|\d\s*(?:[kKMGTP]i?B\b|[kmµ]?s\b|%|bytes?\b|tokens?\b|params?\b|FLOPs?\b|days?\b|hours?\b|min\b|GB/s|TB/s|x\b|×)"
)
"""A terse claim's skeleton: "ZeRO-3: 20 GB", "C = 6ND", "decode -> memory-bound", a number with its unit."""
_HEADER = re.compile(r"^[\w /&+-]{1,30}:\s+(?=\S)")
_FINITE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|can|could|will|would|should|may|might|must|i|we|you|they|it|because|since|which|therefore)\b"
    r"|'s\b|’s\b|'re\b|'d\b|'ll\b|\s[=≈]|[=≈]\s",
    re.IGNORECASE,
)
"""Signs of a clause (a subject, an auxiliary, an equation) rather than a term: "split" and
"reduce" name techniques in a list as often as they are verbs."""
_PHRASE = re.compile(r"\b(?:at|into|in|on|with|for|by|from|to|of|the|a|an|per)\b", re.IGNORECASE)
"""Prepositions and articles: "TPOT histograms at the gateway" is a phrase of a description, not a term."""
_TELEGRAPHIC_CLAIM = re.compile(
    r"[∝≪≫≈<>≤≥⇒÷]|\s=|=\s|(?<![\w-])(?:never|not)\b|n't"
    r"|\b(?:attends|reads|rotates|depends|extrapolates|caps|grows|shrinks|stalls|mitigates|dominates|wins|beats|hides|saves|cuts"
    r"|halves|doubles|splits\s+(?:the|each|across)|fits|breaks|costs)\b",
    re.IGNORECASE,
)
"""What makes a verbless note a claim rather than a list of terms: a relation, a negation or
restriction, or a verb of what happens (a figure alone does not: "16 bytes/param, 160 GB" is a list)."""
_KEY_VALUE = re.compile(r"[^:;|]{1,30}:\s*[^:;|]{1,40}")
_CHAIN_SPLIT = re.compile(r"\s*(?:→|->|=>|\||;|\s/\s|,)\s*")
_LIST_SPLIT = re.compile(r"\s*(?:[,;/+&|]|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
_LEADING_IMPERATIVE = re.compile(r"^\s*(?:use|using|try|add|enable|turn\s+on|consider|pick|choose|go\s+with|apply|do)\b[:\s]*", re.IGNORECASE)
_WORD = re.compile(r"[\w'’.%-]+")


@dataclass(frozen=True)
class Statement:
    text: str
    act: Act
    form: Form
    asks: bool
    """The candidate asks or sets out to clarify something (framing)."""
    hypothetical: bool

    @property
    def is_evidence(self) -> bool:
        """Can this sentence support a criterion at all?"""
        return self.act is not Act.grader

    def negated_at(self, start: int, end: int) -> bool:
        """Is the span [start, end) of this sentence negated, rejected, dismissed or equated away?"""
        return span_negated(self.text, start, end)


def _clause_before(text: str, start: int) -> str:
    before = text[:start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    if breaks:
        before = before[breaks[-1].end():]
    words = before.split()
    return " ".join(words[-_LOOKBACK_WORDS:])


def _clause_after(text: str, end: int) -> str:
    after = text[end:]
    cut = _CLAUSE_BREAK.search(after)
    return after[: cut.start()] if cut else after


@lru_cache(maxsize=4096)
def span_negated(text: str, start: int, end: int) -> bool:
    """Whether the words around [start, end) deny, reject or dismiss what the span names.

    A negation inside the span itself belongs to the cue ("bf16 needs no loss scaling") and is not
    counted; a double negative ("you can't skip warmup", "it won't fit without ZeRO-3") asserts.
    """
    window = text[max(0, start - 120): min(len(text), end + 80)]
    if _DOUBLE_NEGATIVE.search(window):
        return False
    if _in_dismissed_clause(text, start, end):
        return True
    before = _clause_before(text, start)
    if _NEG_BEFORE.search(before):
        return True
    return bool(_NEG_AFTER.search(_clause_after(text, end)))


def _in_dismissed_clause(text: str, start: int, end: int) -> bool:
    """The span's clause dismisses it, or the clause right after is a short dismissal of it
    ("RoPE is sinusoidal again — same thing")."""
    cuts = [m.start() for m in _DISMISSAL_CLAUSE.finditer(text)]
    left = max((c for c in cuts if c < start), default=-1) + 1
    right = min((c for c in cuts if c >= end), default=len(text))
    if _DISMISSIVE.search(text[left:start]) or _DISMISSIVE.search(text[end:right]):
        return True
    following = min((c for c in cuts if c > right), default=len(text))
    tail = text[right + 1:following]
    return len(_WORD.findall(tail)) <= 5 and bool(_DISMISSIVE.search(tail))


_INSTEAD_OF = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+$", re.IGNORECASE)


def tightly_negated(text: str, start: int, end: int) -> bool:
    """Negated right next to the span (three words before it, or its own predicate): used on rubric
    text, where a negation a few words away is usually about something else."""
    before = " ".join(_clause_before(text, start).split()[-3:])
    if _INSTEAD_OF.search(text[max(0, start - 40):start]):
        return True  # "merges histograms instead of averaging percentiles": "instead" also breaks the clause
    return bool(_NEG_BEFORE.search(before)) or bool(_NEG_AFTER.search(_clause_after(text, end)[:30]))


def dismisses(text: str) -> bool:
    """Whether the sentence dismisses or equates away something ("... is overkill", "... are the same method")."""
    return bool(_DISMISSIVE.search(text)) and not _DOUBLE_NEGATIVE.search(text)


def carries_negation(text: str) -> bool:
    """Whether a matched cue states a negation itself ("bf16 needs no loss scaling"): its polarity is its own."""
    return bool(_NEG_BEFORE.search(text) or _DISMISSIVE.search(text))


def has_negation(text: str) -> bool:
    """Any negation or dismissal anywhere in the sentence (meaning-based credit skips these)."""
    return bool(_NEG_BEFORE.search(text) or _NEG_AFTER.search(text) or _DISMISSIVE.search(text)) and not _DOUBLE_NEGATIVE.search(text)


def _is_mention(text: str) -> bool:
    """A bare term or a list of terms: no subject, auxiliary or equation ties them into a claim.
    A terse statement ("ZeRO-3: 20 GB per GPU", "C = 6ND") or a table row is a claim, not a mention."""
    if text.strip().startswith("|") and text.count("|") >= 3:
        return False
    body = _LEADING_IMPERATIVE.sub("", text.strip().rstrip(".!"))
    body = re.sub(r"\betc\.?$", "", body, flags=re.IGNORECASE).strip()
    body = _HEADER.sub("", re.sub(r"^\s*tl;\s?dr\s*:?\s*", "", body, flags=re.IGNORECASE))  # "Memory: ZeRO-3, FSDP" is a list
    words = _WORD.findall(body)
    if not words:
        return True
    finite = bool(_FINITE.search(body))
    structured = bool(_STRUCTURED.search(body))
    if not finite and not structured and (len(words) <= 6 or (len(words) <= 8 and not _VERB.search(body))):
        return True
    pairs = [p for p in re.split(r"\s*[;|]\s*|,\s+(?=[^,:]{1,30}:)", text.strip().rstrip(".;")) if p.strip()]
    if len(pairs) >= 2 and not finite and all(_KEY_VALUE.fullmatch(p) for p in pairs):
        return True  # "per token: 0.5 MiB; 32k seq: 16 GiB; weights: 13.5 GB": a list of labelled figures
    if _TELEGRAPHIC_CLAIM.search(body):
        return False  # "n×n never in HBM → O(n) mem", "new tok attends over the cached prefix; mem ∝ n": terse notes that claim
    chain = [s for s in _CHAIN_SPLIT.split(body) if s.strip()]
    if len(chain) >= 4 and not finite:
        chain_lengths = sorted(len(_WORD.findall(s)) for s in chain)
        if chain_lengths[len(chain_lengths) // 2] <= 3 and chain_lengths[-1] <= 6:
            return True  # "loss scaling → GradScaler → dynamic → skip step on inf", "A / B / C / D": a chain of terms
    segments = [s for s in _LIST_SPLIT.split(body) if s.strip()]
    lengths = sorted(len(_WORD.findall(s)) for s in segments)
    if len(segments) >= 3 and lengths[-1] <= 4 and not _VERB.search(body) and not structured:
        return True
    with_verbs = sum(bool(_FINITE.search(segment)) for segment in segments)
    phrases = sum(bool(_PHRASE.search(segment)) for segment in segments)
    median = lengths[len(lengths) // 2]
    if len(segments) >= 4 and phrases <= 1 and ((median <= 2 and with_verbs <= 1) or (median <= 3 and lengths[-1] <= 5 and with_verbs == 0)):
        return True  # "QKV, softmax, 1/√d_k, multi-head, Add & Norm, ...": a list even if one item looks like a verb
    return bool(re.search(r"\betc\.?\s*$", text.strip(), re.IGNORECASE)) and len(segments) >= 3 and not finite


@lru_cache(maxsize=8192)
def analyse(sentence: str) -> Statement:
    """The statement analysis of one sentence (or bullet item) of an answer."""
    text = sentence.strip()
    if is_injection(text) or _GRADER_MARKS.search(text):
        act = Act.grader
    elif text.endswith("?") or (_QUESTION_START.match(text) and len(text.split()) <= 25 and "?" in text):
        act = Act.question
    elif _HEDGE.search(text):
        act = Act.hedge
    else:
        act = Act.assertion
    asks = act is Act.question or bool(_ASKING.search(text))
    return Statement(text=text, act=act, form=Form.mention if _is_mention(text) else Form.explained, asks=asks,
                     hypothetical=bool(_HYPOTHETICAL.search(text)))


_RUBRIC_VERDICT = re.compile(r"\b(?:met|satisf\w*|covered|pass(?:ed|es)?|complete|done|fulfilled)\b", re.IGNORECASE)


_DERIVATION = re.compile(r"[=≈]|\d\s*[×x*/]\s*\d|\d\s*[×x*]\s*\w|\bso\b|\bbecause\b|\bsince\b", re.IGNORECASE)


def is_bare_fact(sentence: str) -> bool:
    """A verbless fragment that only states a term with a figure ("120 GB", "20 GB/GPU", "32k seq:
    16 GiB"): a claim when the candidate writes terse notes that also derive things, a list item
    when the whole answer is such fragments."""
    return not _FINITE.search(sentence) and not _DERIVATION.search(sentence) and len(_WORD.findall(sentence)) <= 8


def addressed_to_grader(sentences: list[str], rubric_ids: frozenset[str] = frozenset()) -> list[bool]:
    """Per sentence: is it addressed to the grader? A sentence right after one that is, in the same
    block (a fake checklist under "Rubric:"), counts as addressed too until a non-list sentence.
    So does a sentence that calls the rubric's own criterion or step ids met ("data-repetition and
    data-alternatives are met") or lists one as a heading ("young-daly-interval: ..."): candidates
    never see those ids, so that is a note to the grader."""
    flags = []
    inside = False
    for sentence in sentences:
        statement = analyse(sentence)
        lowered = sentence.lower()
        names_ids = [cid for cid in rubric_ids if "-" in cid and cid in lowered]
        listed_by_id = any(cid.count("-") >= 2 and re.search(re.escape(cid) + r"\s*:", lowered) for cid in names_ids)
        if statement.act is Act.grader or (names_ids and _RUBRIC_VERDICT.search(sentence)) or listed_by_id:
            inside = True
            flags.append(True)
        elif inside and (statement.form is Form.mention or len(sentence.split()) <= 14):
            flags.append(True)
        else:
            inside = False
            flags.append(False)
    return flags
