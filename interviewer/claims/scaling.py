"""Scaling statements: "going from 2k to 8k context multiplies the KV cache by 16".

A scaling statement names a quantity, a change of one input (from a to b, or "doubling" it) and the
factor the quantity changes by. Each law below says how the quantity depends on that input, up to a
constant, so the factor is checked without knowing anything else about the model or the cluster:
f(b) / f(a). The claim is correct within 25 % (a ratio is an estimate), incorrect when it is off by
1.5× or more under every law the sentence may mean, and otherwise not judged.

Laws (each with its source):
- KV cache bytes = 2 · layers · KV heads · head dim · bytes · tokens: linear in the context length
  and in the batch (Pope et al. 2022, "Efficiently Scaling Transformer Inference", §2).
- Attention scores QKᵀ: an n × n matrix per head, so its memory and the FLOPs of QKᵀ and AV grow with
  the square of the context length (Vaswani et al. 2017, Table 1: O(n²·d) per layer).
- Ring all-reduce: each GPU sends 2(n−1)/n of the payload, and a bandwidth-bound all-reduce takes
  that over the link bandwidth (Patarasuk & Yuan 2009; NCCL's "bus bandwidth" docs).
- ZeRO-3 / FSDP model states per GPU: 16Ψ/N, inverse in the GPU count (Rajbhandari et al. 2020, §5).
- Inference FLOPs ≈ 2N per token: linear in the parameter count N over the same tokens (Kaplan et al.
  2020, §2.1), for a dense model; not judged next to training (compute-optimal data grows with N too).

Ratios between two named things (``check_ratios``; sources at each table below):
- storage per element of two dtypes ("int4 is a quarter of the fp16 bytes"; int4 with its group scales);
- the KV cache against the KV heads ("GQA with 8 KV heads cuts the cache 4x versus the 32 we have");
- the spacing of two float formats, 2 to the difference of their mantissa bits ("bf16 is 8x coarser than fp16");
- two GPUs' datasheet memory bandwidth or capacity ("the A100-40GB has 2.6x the bandwidth of the A10G");
- two values the sentence states ("NVLink's 600 GB/s is 24x the 25 GB/s NIC");
- Mixtral's total over active parameters, 3.6x ("active params are about a quarter of the total");
- a model's lifetime inference over its training compute, 2·T / 6·D ("10T tokens served is 2.4x the training").
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from interviewer.claims.formulas import verdict_against
from interviewer.claims.model import ClaimCheck
from interviewer.units import context_length, match_unit, parse_number

TOLERANCE = 0.25
"""A stated factor is an estimate: within 25 % of the law's is right."""
_NUMBER = r"(?P<{0}>\d[\d,]*(?:\.\d+)?)\s*(?P<{0}k>[kK]\b)?"


@dataclass(frozen=True)
class Law:
    quantity: str
    cue: re.Pattern
    variable: str
    """"context", "gpus" or "params": what the from/to numbers must be."""
    grows: Callable[[float], float]
    formula: str
    unless: re.Pattern | None = None
    """Words that change something else the law holds fixed (a ring that leaves the node changes its link)."""


_CONTEXT_UNIT = re.compile(r"^\s*(?:[kK]\b)?\s*(?:-?\s*tokens?|tok|context|ctx|sequence|seq)?", re.IGNORECASE)
LAWS = (
    Law("KV cache", re.compile(r"\bkv\b|\bkey[- /]value\b", re.I), "context", lambda n: n, "KV cache ∝ context length (2·L·n_kv·d_h·bytes per token)"),
    Law("attention score matrix", re.compile(r"\bscore\s+matri|\battention\s+(?:scores?\s+)?(?:matri|flops|compute|cost|memory|scores)|\bqk\s*(?:ᵀ|\^?t)\b|\bq\s*k\s*\^?t\b|\bquadratic", re.I),
        "context", lambda n: n * n, "the n × n score matrix ∝ n²"),
    Law("ring all-reduce", re.compile(r"\ball[- ]?reduce\b|\bring\b", re.I), "gpus", lambda n: 2 * (n - 1) / n, "each GPU sends 2(n−1)/n of the payload, over the same link",
        re.compile(r"\bnodes?\b|\binter[- ]?node|\bcross[- ]node|\binfiniband\b|\bib\b|\bnetwork|\bethernet|\bnic|\blatency[- ]bound|\bsmall\s+(?:messages|payloads)|\bhops?\b|\bsteps\b", re.I)),
    Law("inference FLOPs", re.compile(r"\binference\b[^.;]{0,40}?\b(?:flops?|compute)\b|\bflops?\s+per\s+token|\bper[- ]token\s+(?:flops?|compute)|\bforward[- ](?:pass\s+)?(?:flops?|compute)", re.I),
        "params", lambda n: n, "inference ≈ 2·N FLOPs per token (Kaplan et al. 2020, §2.1), over the same tokens",
        re.compile(r"\btrain|\bchinchilla|\bcompute[- ]optimal|\bmoe\b|\bexperts?\b|\bactive\b|\bspars|\bcontext\b|\bprompts?\b|\bbatch|\bquanti|\bint[48]\b|\bfp8\b|\bdistill", re.I)),
    Law("model states per GPU (ZeRO-3)", re.compile(r"\bzero[- ]?3\b|\bfsdp\b|\bper[- ]gpu\s+(?:memory|model\s+states|states)", re.I), "gpus", lambda n: 1 / n,
        "16Ψ/N per GPU"),
)

_FROM_TO = re.compile(r"\bfrom\s+(?:an?\s+)?" + _NUMBER.format("a") + r"(?P<au>[^\d;.]{0,20}?)\s*\bto\s+" + _NUMBER.format("b") + r"(?P<bu>[^\d;.,]{0,25})", re.IGNORECASE)
_DOUBLING = re.compile(r"\b(?P<verb>doubl(?:e|es|ing)|tripl(?:e|es|ing)|quadrupl(?:e|es|ing)|halv(?:e|es|ing))\s+(?:the\s+)?(?P<what>[\w-]+(?:\s+(?:length|window|size|count))?)", re.IGNORECASE)
_FACTOR_AFTER = re.compile(
    r"\b(?:(?P<grow>multipl(?:y|ies|ied)|grows?|increases?|scales?|raises?|inflates?|blows?\s+up)|(?P<shrink>divides?|cuts?|(?<!all-)(?<!all\s)reduces?|shrinks?|lowers?))\b[^.;]{0,50}?\bby\s+(?:only\s+)?(?:a\s+factor\s+of\s+|about\s+|roughly\s+|~\s*)?(?P<r>\d+(?:\.\d+)?)\s*(?:×|x\b)?"
    r"|(?P<r2>\d+(?:\.\d+)?)\s*(?:×|x\b|times)\s*(?P<dir>slower|faster|larger|bigger|smaller|more|less|longer|shorter|higher|lower|the\s+memory|as\s+(?:much|large|big|long|slow))"
    r"|(?:(?P<vgrow>grows?|rises?|increases?|goes\s+up|jumps?|balloons?|multipl(?:y|ies))|(?P<vshrink>drops?|falls?|shrinks?|decreases?|goes\s+down|cuts?|(?<!all-)(?<!all\s)reduces?))\s+(?:[\w-]+\s+){0,4}?(?:by\s+)?(?:about\s+|roughly\s+|~\s*)?(?P<r3>\d+(?:\.\d+)?)\s*(?:×|x\b|-?\s?fold\b)"
    r"|(?P<pct>\d+(?:\.\d+)?)\s*%\s*(?P<pdir>slower|faster|larger|bigger|smaller|more|less|longer|shorter|higher|lower)"
    r"|\b(?P<word>doubl(?:es|ing|e)|tripl(?:es|ing|e)|quadrupl(?:es|ing|e)|halv(?:es|ing|e))\b(?!\s+(?:the\s+)?(?:context|sequence|seq|gpus?|length|batch|ring))",
    re.IGNORECASE,
)
_WORD_FACTOR = {"doubl": 2.0, "tripl": 3.0, "quadrupl": 4.0, "halv": 0.5}
_SHRINK_DIR = {"faster", "smaller", "less", "shorter", "lower"}
_GPU_UNIT = re.compile(r"^\s*(?:gpus?|ranks?|devices?|nodes?|workers?|cards?|participants?)\b", re.IGNORECASE)


_VERB_NEXT = re.compile(r"^\s*(?:$|[—–]|(?:makes?|multipl\w*|grows?|increases?|means|would|will|takes?|raises?|doubles?|quadruples?|scales?|blows?|inflates?)\b)", re.IGNORECASE)
"""A change "from 4k to 8k" followed straight by its effect names no unit."""
_OTHER_COUNT = re.compile(r"\b(?:requests?|users?|traffic|[qr]ps|batch\w*|params?|parameters|vocab\w*|hidden|width|dim\w*|gpus?|experts?|steps?|layers?|heads?|images?|pixels?|patches)\b", re.IGNORECASE)
"""Other things counted in thousands: when the sentence names one, "from 2k to 8k" may be it."""


def _variable_of(unit_text: str, sentence: str, thousands: bool = False) -> str | None:
    """"gpus" or "context": what the numbers of a change count. Two sizes in k with no unit of their own
    ("going from 4k to 8k makes the KV cache ...") are context lengths: no GPU count or other input the
    laws take is written that way."""
    if thousands and _VERB_NEXT.match(unit_text) and not _OTHER_COUNT.search(sentence):
        return "context"
    if _GPU_UNIT.match(unit_text) or (not unit_text.strip() and re.search(r"\bgpus?\b|\branks?\b|\bring\b", sentence, re.I)):
        return "gpus"
    if re.search(r"tok|context|ctx|seq|length", unit_text, re.I) or re.search(r"\bcontext\b|\bsequence\b|\btokens?\b", sentence, re.I):
        return "context"
    return None


_ANY_RATIO = re.compile(
    r"\d\s*(?:×|x\b|times\b|-?\s?fold\b)|\d\s*/\s*\d|\bby\s+(?:about\s+|roughly\s+|~\s*)?\d|\b(?:halves|halve|halving|half|quarter|third|fourth|fifth|sixth|eighth|tenth|sixteenth|[a-z]+ieth|twice|doubles?|doubling|triples?|quadruples?"
    r"|ratio|fraction|smaller|larger|bigger|faster|slower|coarser|finer|more|less|fewer)\b",
    re.IGNORECASE,
)
"""Every ratio rule reads a factor; a sentence with none of these words has none to read (a cheap gate:
the rules run on every sentence of every answer)."""


def check_ratios(sentence: str, offset: int = 0, facts: dict | None = None) -> list[ClaimCheck]:
    """The ratios between two named things in one sentence (see "ratios between two named things" below)."""
    if not _ANY_RATIO.search(sentence):
        return []
    return [*_storage_ratios(sentence, offset), *_kv_head_ratios(sentence, offset, facts or {}), *_spacing_ratios(sentence, offset),
            *_gpu_spec_ratios(sentence, offset), *_stated_value_ratios(sentence, offset), *_moe_total_over_active(sentence, offset),
            *_inference_over_training(sentence, offset, facts or {})]


def check_scaling(sentence: str, offset: int = 0) -> list[ClaimCheck]:
    """The scaling statements in one sentence, each checked against every law its words may mean."""
    change = _change(sentence)
    if change is None:
        return []
    a, b, variable, end = change
    factor = _FACTOR_AFTER.search(sentence, end if end is not None else 0)
    if factor is None or a <= 0 or b <= 0 or a == b:
        return []
    claimed = _claimed_factor(factor)
    if claimed is None or claimed <= 0:
        return []
    # The quantity the factor is said of is named in the factor's own clause ("... multiplies the
    # attention score compute by 16, while the KV cache only grows 4×": the 16 is the scores')
    breaks = [m.end() for m in re.finditer(r"[,;]|\b(?:while|whereas|but)\b", sentence[:factor.start()], re.IGNORECASE)]
    clause = sentence[breaks[-1] if breaks else 0:factor.end()]
    applicable = [law for law in LAWS if law.variable == variable and not (law.unless and law.unless.search(sentence))]
    laws = [law for law in applicable if law.cue.search(clause)] or [law for law in applicable if law.cue.search(sentence)]
    if not laws:
        return []
    expected = [(law, law.grows(b) / law.grows(a)) for law in laws]
    said = factor.group(0).strip()
    verdict = verdict_against(claimed, [value for _, value in expected], TOLERANCE)
    if verdict == "correct":
        law, value = next((law, value) for law, value in expected if verdict_against(claimed, [value], TOLERANCE) == "correct")
        return [_result(sentence, offset, factor, law, claimed, value, "correct",
                        f"You said the {law.quantity} changes by {_times(claimed)} ({said}); I get {_times(value)}: {law.formula}, {_ratio_text(law, a, b)}.")]
    if verdict == "incorrect":
        law, value = expected[0]
        others = "; ".join(f"{other.quantity}: {_times(v)}" for other, v in expected[1:])
        return [_result(sentence, offset, factor, law, claimed, value, "incorrect",
                        f"You said the {law.quantity} changes by {_times(claimed)} ({said}); I get {_times(value)}: {law.formula}, {_ratio_text(law, a, b)}."
                        + (f" Other readings don't match either ({others})." if others else ""))]
    return []


_MODEL_SIZE_CHANGE = re.compile(
    r"(?i:\bfrom|\bswap\w*|\breplac\w*|\bswitch\w*)\s+(?i:the\s+|an?\s+)?(?P<a>\d+(?:\.\d+)?)\s?(?P<am>[BM])\b(?i:[- ](?:params?|parameters|models?|dense))?"
    r"[^.;\d]{0,25}?\b(?i:for|with|to|by)\s+(?i:the\s+|an?\s+)?(?P<b>\d+(?:\.\d+)?)\s?(?P<bm>[BM])\b"
)
""""swap the 70B for a 35B", "from a 7B to a 70B model": a change of the parameter count. Case matters
only in the sizes: "70B" and "350M" are parameter counts, "70b" may be anything."""


def _change(sentence: str) -> tuple[float, float, str, int | None] | None:
    """(from, to, which input, where the change ends) for "from 2k to 8k tokens", "doubling the context"
    or "swap the 70B for a 35B"."""
    sizes = _MODEL_SIZE_CHANGE.search(sentence)
    if sizes is not None:
        a, b = (float(sizes.group(n)) * (1e9 if sizes.group(n + "m") == "B" else 1e6) for n in ("a", "b"))
        return a, b, "params", sizes.end()
    span = _FROM_TO.search(sentence)
    if span is not None:
        a = _value(span.group("a"), span.group("ak"))
        b = _value(span.group("b"), span.group("bk"))
        variable = _variable_of(span.group("bu") or span.group("au") or "", sentence, bool(span.group("ak") and span.group("bk")))
        if a is None or b is None or variable is None:
            return None
        if variable == "context":
            a, b = context_length(a, bool(span.group("ak"))), context_length(b, bool(span.group("bk")))
        return a, b, variable, span.end("b")
    doubling = _DOUBLING.search(sentence)
    if doubling is not None:
        what = doubling.group("what")
        variable = "gpus" if _GPU_UNIT.match(what) or re.search(r"\bgpus?\b|\branks?\b", what, re.I) else (
            "context" if re.search(r"context|sequence|seq|length|tokens?", what, re.I) else None)
        if variable is None:
            return None
        factor = next(v for k, v in _WORD_FACTOR.items() if doubling.group("verb").lower().startswith(k))
        base = 8.0 if variable == "gpus" else 4096.0  # the laws in n are scale-free except the all-reduce, which barely moves
        return base, base * factor, variable, doubling.end("what")
    return None


def _value(number: str, k: str | None) -> float | None:
    value = parse_number(number)
    return None if value is None else value * 1000 if k else value


def _claimed_factor(factor: re.Match) -> float | None:
    if factor.group("r"):
        value = float(factor.group("r"))
        return 1 / value if factor.group("shrink") else value
    if factor.group("r2"):
        value = float(factor.group("r2"))
        direction = (factor.group("dir") or "").lower()
        return 1 / value if direction in _SHRINK_DIR else value
    if factor.group("r3"):
        value = float(factor.group("r3"))
        return 1 / value if factor.group("vshrink") else value
    if factor.group("pct"):
        change = float(factor.group("pct")) / 100
        return 1 - change if factor.group("pdir").lower() in _SHRINK_DIR else 1 + change
    if factor.group("word"):
        word = factor.group("word").lower()
        return next(v for k, v in _WORD_FACTOR.items() if word.startswith(k))
    return None


def _times(value: float) -> str:
    if value >= 1:
        return f"{value:.3g}×"
    return f"1/{1 / value:.3g} (×{value:.3g})"


def _ratio_text(law: Law, a: float, b: float) -> str:
    if law.variable == "params":
        return f"at {b / 1e9:g}B vs {a / 1e9:g}B parameters"
    return f"f({b:,.0f}) / f({a:,.0f})" if law.variable == "gpus" else f"at {b:,.0f} vs {a:,.0f} tokens"


def _result(sentence: str, offset: int, factor: re.Match, law: Law, claimed: float, value: float, verdict: str, explanation: str) -> ClaimCheck:
    return ClaimCheck(
        text=sentence.strip(), quantity=f"{law.quantity} scaling factor", claimed=claimed if math.isfinite(claimed) else None,
        computed=value if math.isfinite(value) else None, unit="ratio", verdict=verdict,  # type: ignore[arg-type]
        explanation=explanation, working=[law.formula, f"expected factor {value:.4g}", f"claimed factor {claimed:.4g}"], tolerance=TOLERANCE,
        span=(offset + factor.start(), offset + factor.end()),
    )


# --- ratios between two named things -------------------------------------------------------------
#
# "int4 is a quarter of the fp16 bytes", "GQA with 8 KV heads cuts the cache 4x versus the 32 we
# have", "bf16 is 8x coarser than fp16", "the A100-40GB has 2.6x the bandwidth of the A10G",
# "NVLink's 600 GB/s is 24x the 25 GB/s NIC". The claimed factor is read from "4x", "a quarter",
# "one-eighth", "1/8" or "halves". Its size alone decides "incorrect" (1.5× or more from every
# accepted ratio, whichever side is the larger); "correct" also needs its direction to be the right
# one, so a claim whose direction the sentence leaves open is only ever called incorrect.

_FRACTION_DENOMINATORS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10, "sixteenth": 16}
_RATIO_PHRASE = re.compile(
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?:×|x\b|times\b|-?\s?fold\b)(?:\s+(?P<than>smaller|less|fewer|lower|finer|narrower|tighter|coarser|larger|bigger|more|higher|wider|greater))?"
    r"|\b(?:a|an|one)[- ](?P<frac>half|third|quarter|fourth|fifth|sixth|eighth|tenth|sixteenth)\b"
    r"|\b(?P<half>half)\s+(?:the|of|as)\b"
    r"|(?<![\w.])1\s*/\s*(?P<den>\d+)(?![\w.])"
    r"|\bby\s+(?:a\s+factor\s+of\s+)?(?P<by>\d+(?:\.\d+)?)(?![\w%]|[.,]\d|\s*(?:%|[^\W\d_]))"
    r"|\b(?P<verb>halv(?:es|ed|e|ing)|doubl(?:es|ed|e|ing)|quadrupl(?:es|ed|e|ing))\b",
    re.IGNORECASE,
)
_SHRINK_BEFORE = re.compile(r"\b(?:cut|shrink|reduc|drop|divid|sav|lower|fall|trim|slash|decreas)\w*\b[^.;]{0,40}$", re.IGNORECASE)
_GROW_BEFORE = re.compile(r"\b(?:grow|increas|multipl|rais|inflat|blow|balloon|jump)\w*\b[^.;]{0,40}$", re.IGNORECASE)
_BOUND_BEFORE = re.compile(r"(?:\bat\s+(?:most|least)|\bup\s+to|\bover|\bmore\s+than|\bless\s+than|\bunder|\bbelow|\babove|\bno\s+more\s+than|\bbeyond|\bwithin|[<>≤≥])\s*(?:about\s+|roughly\s+|~\s*)?$", re.IGNORECASE)
_SMALLER = {"smaller", "less", "fewer", "lower", "finer", "narrower", "tighter"}
_CLAUSE_BREAK = re.compile(r"[;:()]|,\s|\s[—–-]\s|\b(?:so|but|while|whereas|which|though|although)\b", re.IGNORECASE)
_REFERENCE_BEFORE = re.compile(
    r"(?:\bvs\.?|\bversus|\bthan|\bof|\bcompared\s+(?:to|with)|\brelative\s+to|\binstead\s+of|\bover|\bfrom|\bagainst|\d\s*(?:×|x|times))\s*"
    r"(?:the\s+|an?\s+|its\s+|their\s+|that\s+of\s+(?:the\s+)?|full\s+|all\s+)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Said:
    """A claimed factor: its size (≥ 1), the subject's value over the reference's when the words give
    a direction (None when they don't), and where it is."""

    size: float
    factor: float | None
    start: int
    end: int
    text: str


def _said_factors(sentence: str, start: int = 0, end: int | None = None) -> list[_Said]:
    """Every claimed factor in ``sentence[start:end]``: "4x smaller" is 1/4, "4x the" and "grows 4x"
    are 4, "a quarter of" and "halves" are 1/4 and 1/2; a bare "4x" or "by 4" after "cuts" is 1/4."""
    found = []
    for match in _RATIO_PHRASE.finditer(sentence, start, len(sentence) if end is None else end):
        before = sentence[start:match.start()]
        if _BOUND_BEFORE.search(before):
            continue  # "at least 2x smaller" is a bound, right whenever the factor is larger
        shrink_verb, grow_verb = bool(_SHRINK_BEFORE.search(before)), bool(_GROW_BEFORE.search(before))
        if match.group("n"):
            size = float(match.group("n"))
            than = (match.group("than") or "").lower()
            shrinks: bool | None = than in _SMALLER or (not than and shrink_verb)
            if not shrinks and not (than or re.match(r"\s+(?:the|as|that)\b", sentence[match.end():], re.I) or grow_verb):
                shrinks = None  # a bare "4x": the words do not say which way
        elif match.group("by"):  # "divides the cache by 8": a factor only after a verb that says which way
            size, shrinks = float(match.group("by")), shrink_verb if shrink_verb or grow_verb else None
            if shrinks is None:
                continue
        elif match.group("frac") or match.group("half") or match.group("den"):
            size = float(_FRACTION_DENOMINATORS[(match.group("frac") or "half").lower()] if not match.group("den") else match.group("den"))
            shrinks = True
        else:  # "halves" is the factor 1/2 itself
            size = next(v for k, v in _WORD_FACTOR.items() if match.group("verb").lower().startswith(k))
            shrinks = False
        if size <= 0:
            continue
        direction = None if shrinks is None else 1 / size if shrinks else size  # "0.5x the" is 1/2, "0.5x smaller" 2
        size = max(size, 1 / size)
        found.append(_Said(size, direction, match.start(), match.end(), match.group(0).strip()))
    return found


def _clauses(sentence: str) -> list[tuple[int, int]]:
    cuts = [0, *(m.start() for m in _CLAUSE_BREAK.finditer(sentence)), len(sentence)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if sentence[a:b].strip()]


def _reference_index(sentence: str, first_at: int, second_at: int) -> int | None:
    """Which of two named things (0 or 1, by position) is the reference: the one after "vs", "than",
    "of", "instead of", "from"; None when the sentence marks neither or both."""
    marked = [bool(_REFERENCE_BEFORE.search(sentence[max(0, at - 30):at])) for at in (first_at, second_at)]
    return marked.index(True) if marked.count(True) == 1 else None


def _judge_ratio(sentence: str, offset: int, said: _Said, expected: list[float], directed: bool, quantity: str, formula: str) -> ClaimCheck | None:
    """Correct within 25 % of an expected ratio in the right direction, incorrect when the claimed size
    is 1.5× or more from every expected size; ``directed`` says whether ``expected`` are subject over
    reference (else only sizes are known)."""
    sizes = [max(value, 1 / value) for value in expected if value > 0]
    if not sizes:
        return None
    verdict = verdict_against(said.size, sizes, TOLERANCE)
    if verdict == "correct" and not (directed and said.factor is not None and verdict_against(said.factor, expected, TOLERANCE) == "correct"):
        return None  # the right size, but the sentence leaves open (or turns round) which side is larger
    if verdict is None:
        return None
    shown = _times(min(sizes, key=lambda size: abs(math.log(size / said.size))))
    explanation = (f"You said {said.text}; I get {shown}: {formula}." if verdict == "correct"
                   else f"You said {said.text} ({_times(said.size)} either way round), but it is {shown}: {formula}.")
    return ClaimCheck(
        text=sentence.strip(), quantity=quantity, claimed=said.factor if said.factor is not None else said.size, computed=expected[0], unit="ratio",
        verdict=verdict, explanation=explanation, working=[formula, f"expected ratio {', '.join(f'{v:.4g}' for v in expected)}", f"claimed {said.size:.4g}×"],  # type: ignore[arg-type]
        tolerance=TOLERANCE, span=(offset + said.start, offset + said.end),
    )


_STORED_BITS = {"fp32": (32.0,), "fp16": (16.0,), "bf16": (16.0,), "fp8": (8.0,), "int8": (8.0,), "int4": (4.0, 4.25, 4.5, 5.0)}
"""Bits one stored element takes: IEEE 754-2008 binary32/binary16, bfloat16 (Kalamkar et al. 2019), FP8
(Micikevicius et al. 2022), int8; int4 is 4 bits plus its group scales and zeros, 4.25 for GPTQ's
groups of 128 (Frantar et al. 2022), 4.5 for llama.cpp's Q4_0 and Q4_K, up to 5 for groups of 32 with
a 16-bit scale and zero. TF32 is left out: stored as fp32, but a 19-bit format."""
_STORAGE = re.compile(r"\b(?:bytes?|size|weights?|footprint|storage|checkpoints?|files?|disk|vram|memory|(?:kv[- ])?cache|per\s+(?:weight|param\w*|element|value))\b", re.IGNORECASE)
_NOT_STORED_TENSOR = re.compile(
    r"\b(?:fast\w*|slow\w*|speed\w*|throughput|flops?|tops|latency|rate|peak|bandwidth|compute|math|training|optimi[sz]er|adam|master|activations?|gradients?|states?"
    r"|ceiling|speed-?up|gains?|wins?|total|overall|end[- ]to[- ]end|accuracy|perplexity|quality|error|precision|range|mantissa|exponent)\b|tokens?\s*/\s*s",
    re.IGNORECASE,
)
"""Words of a clause about something other than the stored tensors (a speed, all of training's memory, accuracy)."""


def _storage_ratios(sentence: str, offset: int) -> list[ClaimCheck]:
    """"int4 is one-eighth the size of fp16" (a quarter), "int8 weights halve the bytes vs fp16"."""
    from interviewer.claims.entities import find_dtypes

    checks = []
    dtypes = [d for d in find_dtypes(sentence) if d.kind == "dtype"]
    for start, end in _clauses(sentence):
        named = [d for d in dtypes if start <= d.start < end]
        if len({d.value for d in named}) != 2 or len(named) != 2 or any(d.value not in _STORED_BITS for d in named):
            continue
        clause = sentence[start:end]
        if not _STORAGE.search(clause) or _NOT_STORED_TENSOR.search(clause):
            continue
        said = [s for s in _said_factors(sentence, start, end) if not any(d.start <= s.start < d.end for d in named)]
        if len(said) != 1:
            continue
        reference = _reference_index(sentence, named[0].start, named[1].start)
        if reference is None or re.fullmatch(r"\s*(?:/|or|and|,)\s*", sentence[named[0].end:named[1].start]):
            continue  # "an fp8/int8 cache halves it": options, compared with something unnamed
        subject, against = (named[1], named[0]) if reference == 0 else (named[0], named[1])
        expected = [sub / ref for sub in _STORED_BITS[subject.value] for ref in _STORED_BITS[against.value]]  # type: ignore[index]
        check = _judge_ratio(sentence, offset, said[0], expected, True, f"{subject.value} vs {against.value} storage ratio",
                             f"{subject.value} stores {_bits(subject.value)} bits per element, {against.value} {_bits(against.value)}")
        if check:
            checks.append(check)
    return checks


def _bits(dtype: str) -> str:
    bits = _STORED_BITS[dtype]
    return f"{bits[0]:g}" if len(bits) == 1 else f"{bits[0]:g}-{bits[-1]:g} (with group scales)"


_KV_HEAD_COUNT = re.compile(r"(?<![\w.])(?P<n>\d+)[- ](?:kv|key[- ]value|k/v)[- ]heads?\b|\bgqa[- ](?P<g>\d+)\b|\b(?P<mqa>mqa|multi[- ]query(?:\s+attention)?)\b", re.IGNORECASE)
_BASELINE_HEADS = re.compile(
    r"(?:\binstead\s+of|\bvs\.?|\bversus|\bthan|\bfrom|\bcompared\s+(?:to|with)|\brelative\s+to|\bover|\bagainst)\s+(?:the\s+|all\s+|full\s+)?(?P<n>\d+)\b(?![\w.,])"
    r"|(?<![\w.])(?P<q>\d+)\s+(?:query|q|attention)\s+heads?\b",
    re.IGNORECASE,
)
_FEWER_KV_HEADS = re.compile(
    r"\bfrom\s+(?P<from>\d+)\s+(?:kv|key[- ]value|k/v)[- ]heads?\s+(?:down\s+)?to\s+(?:just\s+|only\s+)?(?P<to>\d+)\b(?![\w.,]|\s+(?:query|q|attention)\b)", re.IGNORECASE
)
_MHA = re.compile(r"\bmha\b|\bmulti[- ]head(?:\s+attention)?\b|\bfull\s+attention\b", re.IGNORECASE)
_CACHE = re.compile(r"\bcache\b|\bmemory\b|\bfootprint\b|\bbytes\b", re.IGNORECASE)
_OTHER_CACHE_CHANGE = re.compile(
    r"\bplus\b|\bcombined\b|\bon\s+top\b|\bquanti[sz]|\bwindow|\bpag(?:ed|ing)\b|\boffload|\bcompress|\blatent\b|\bmla\b|\btp\b|\btensor[- ]parallel|\bper[- ]gpu\b|\bshard|\bevict|\bprun",
    re.IGNORECASE,
)
"""Another change to the cache in the same sentence (a dtype is caught apart): its factor multiplies the heads'."""


def _bare_count(sentence: str, end: int) -> bool:
    """A number with no unit after it ("instead of 64", "the 32 we have"), not "512 KB" or "4k tokens"."""
    return match_unit(sentence, end) is None and not re.match(r"\s*(?:[kKMBT]\b|x\b|×|-?\s?tokens?|layers?|gpus?|dims?|bits?|seq)", sentence[end:], re.IGNORECASE)


def _kv_head_ratios(sentence: str, offset: int, facts: dict) -> list[ClaimCheck]:
    """"GQA with 8 KV heads instead of 64 shrinks the cache by 64x" (8x): the KV cache is
    2 · layers · KV heads · head dim · bytes per token (Pope et al. 2022, §2), so it scales with the KV
    heads: GQA with g groups keeps g/h of multi-head attention's cache (Ainslie et al. 2023, "GQA", §2),
    multi-query attention 1/h (Shazeer 2019, "Fast Transformer Decoding")."""
    from interviewer.claims.entities import find_dtypes, find_models

    kept = list(_KV_HEAD_COUNT.finditer(sentence))
    fewer = _FEWER_KV_HEADS.search(sentence)
    if not (len(kept) == 1 or fewer) or not _CACHE.search(sentence) or _OTHER_CACHE_CHANGE.search(sentence) or _NOT_STORED_TENSOR.search(sentence) or _change(sentence) is not None:
        return []
    if any(d.kind == "dtype" for d in find_dtypes(sentence)):
        return []  # "GQA-8 and an fp8 cache": two factors
    if fewer:  # "from 32 KV heads to 8"
        kv, stated = int(fewer.group("to")), {int(fewer.group("from"))}
        kept.append(fewer)
    else:
        kv = 1 if kept[0].group("mqa") else int(kept[0].group("n") or kept[0].group("g"))
        stated = {int(m.group("n") or m.group("q")) for m in _BASELINE_HEADS.finditer(sentence) if _bare_count(sentence, m.end())} - {kv}
    if len(stated) > 1:
        return []
    if stated:
        baselines = stated
        whence = "the heads you compare with"
    elif find_models(sentence) or re.search(r"(?<![\w.])\d+(?:\.\d+)?\s?[bB]\b", sentence):
        return []  # another model than the scenario's, whose heads the sentence does not give
    else:  # "MQA would shrink the cache by 8x": against the scenario's model, as it is or as MHA
        candidates = {int(facts[name]) for name in ("heads",) + (() if _MHA.search(sentence) else ("kv_heads",)) if facts.get(name)}
        baselines = candidates - {kv}
        whence = "the scenario's model"
    if not baselines or kv < 1 or any(b < 1 for b in baselines):
        return []
    head_spans = [(m.start(), m.end()) for m in (*kept, *_BASELINE_HEADS.finditer(sentence))]
    said = [s for s in _said_factors(sentence) if not any(lo <= s.start < hi for lo, hi in head_spans)]
    if len(said) != 1:
        return []
    expected = sorted(kv / b for b in baselines)
    shown = " or ".join(f"{b}" for b in sorted(baselines))
    check = _judge_ratio(sentence, offset, said[0], expected, True, "KV cache ratio (KV heads)",
                         f"the KV cache scales with the KV heads, {kv} against {shown} ({whence})")
    return [check] if check else []


_MANTISSA_BITS = {"fp32": (23,), "tf32": (10,), "fp16": (10,), "bf16": (7,), "fp8": (3, 2), "e4m3": (3,), "e5m2": (2,)}
"""Explicit mantissa (fraction) bits: IEEE 754-2008 binary32 23 and binary16 10; TF32 10 (NVIDIA A100
whitepaper); bfloat16 7 (Kalamkar et al. 2019); FP8 E4M3 3 and E5M2 2 (Micikevicius et al. 2022).
The spacing of values (machine epsilon, the rounding step) is 2^-m, so two formats' spacings differ by
2 to the difference of their mantissa bits."""
_SPACING = re.compile(r"\bcoarser\b|\bfiner\b|\bspacing\b|\bepsilon\b|\bresolution\b|\brounding\s+(?:error|step)s?\b|\bulps?\b|\bgranular\w*|\bstep\s+size\b", re.IGNORECASE)
_NOT_SPACING = re.compile(r"\brange\b|\bexponent\b|\bmax(?:imum)?\b|\blargest\b|\bsmallest\b|\boverflow|\bunderflow|\bbytes?\b|\bmemory\b|\bspeed|\bfaster\b|\bdigits?\b", re.IGNORECASE)
_COARSER = re.compile(r"\bcoarser\b|\bless\s+precise\b|\blower\s+(?:resolution|precision)\b", re.IGNORECASE)
_FINER = re.compile(r"\bfiner\b|\bmore\s+precise\b|\bhigher\s+(?:resolution|precision)\b", re.IGNORECASE)
"""Words of the precision, which turn round against the spacing: lower resolution is a larger step."""
_SPACING_NOUN = r"(?:machine\s+)?(?:epsilon|spacing|rounding\s+(?:error|step)s?|ulps?|step\s+size)"
_SPACING_NOUN_AFTER = re.compile(r"(?:\bthe|smaller|larger|bigger|wider)\s+" + _SPACING_NOUN, re.IGNORECASE)
_SPACING_NOUN_BEFORE = re.compile(_SPACING_NOUN + r"\W+(?:\w+\W+){0,2}$", re.IGNORECASE)


def _spacing_ratios(sentence: str, offset: int) -> list[ClaimCheck]:
    """"bf16's precision is about 3x coarser than fp16's since it has 3 fewer mantissa bits" (8x)."""
    from interviewer.claims.entities import find_dtypes

    checks = []
    named_all = [d for d in find_dtypes(sentence) if d.kind == "dtype"]
    for start, end in _clauses(sentence):
        named = [d for d in named_all if start <= d.start < end]
        clause = sentence[start:end]
        if len(named) != 2 or not _SPACING.search(clause) or _NOT_SPACING.search(clause):
            continue
        formats = [d.text.lower() if d.text.lower() in _MANTISSA_BITS else d.value for d in named]
        if len(set(formats)) != 2 or any(f not in _MANTISSA_BITS for f in formats):
            continue
        said = [s for s in _said_factors(sentence, start, end) if not any(d.start <= s.start < d.end for d in named)]
        reference = _reference_index(sentence, named[0].start, named[1].start)
        if len(said) != 1 or reference is None:
            continue
        subject, against = (formats[1], formats[0]) if reference == 0 else (formats[0], formats[1])
        words = sentence[said[0].start:min(end, said[0].end + 30)]
        if _COARSER.search(words) or _FINER.search(words):
            factor = said[0].size if _COARSER.search(words) else 1 / said[0].size
        elif _SPACING_NOUN_AFTER.search(words) or _SPACING_NOUN_BEFORE.search(sentence[start:said[0].start]):
            factor = said[0].factor  # "16x the epsilon of", "the epsilon is 8192 times smaller than"
        else:
            factor = None
        claim = _Said(said[0].size, factor, said[0].start, said[0].end, said[0].text)
        expected = [2.0 ** (ref - sub) for sub in _MANTISSA_BITS[subject] for ref in _MANTISSA_BITS[against]]
        check = _judge_ratio(sentence, offset, claim, expected, True, f"{subject} vs {against} value spacing",
                             f"the spacing is 2^-m: {subject} keeps {_or(_MANTISSA_BITS[subject])} mantissa bits, {against} {_or(_MANTISSA_BITS[against])}")
        if check:
            checks.append(check)
    return checks


def _or(values: tuple) -> str:
    return " or ".join(str(value) for value in values)


_GPU_SPECS = {"memory bandwidth": "bandwidth_bytes_per_s", "memory capacity": "memory_bytes"}
"""Datasheet figures of ``tools.hardware.GPUS`` (each part's source is in its entry)."""
_BANDWIDTH = re.compile(r"\bbandwidth\b|\bTB/s\b|\bGB/s\b", re.IGNORECASE)
_CAPACITY_OR_HBM = re.compile(r"\bmemory\b|\bcapacity\b|\bvram\b|\bhbm\d?e?\b", re.IGNORECASE)
_NOT_ONE_GPU_SPEC = re.compile(
    r"\bnvlink|\binterconnect|\bpcie\b|\blinks?\b|\bnetwork|\bnics?\b|\binfiniband\b|\bnodes?\b|\bclusters?\b|\bservers?\b|\bboxes\b|\bpairs?\b|\btwo\b|\bfour\b|\beight\b|\bdual\b"
    r"|\bflops?\b|\btflops\b|\bcompute\b|\bpeak\b|\btops\b|\bclock|\bpower\b|\bcost|\bprice|\$",
    re.IGNORECASE,
)
"""Words of another figure than one GPU's HBM (its links, several GPUs, its compute) or of a count."""
_DIGIT = re.compile(r"\d")


def _other_number(text: str, spans: list[tuple[int, int]]) -> bool:
    """Whether ``text`` has a digit outside ``spans`` (the numbers a rule reads): another factor or figure."""
    return any(not any(lo <= m.start() < hi for lo, hi in spans) for m in _DIGIT.finditer(text))


def _gpu_spec_ratios(sentence: str, offset: int) -> list[ClaimCheck]:
    """"The A100-40GB has about 4.5x the HBM bandwidth of the A10G" (1,555 / 600 GB/s = 2.6x): two GPUs'
    datasheet memory bandwidth or capacity, every part a name may mean (a bare A100 is 40 or 80 GB)."""
    from interviewer.claims.entities import find_gpus
    from interviewer.tools.hardware import GPUS

    gpus = find_gpus(sentence)
    if len(gpus) != 2 or not all(g.variants for g in gpus) or _NOT_ONE_GPU_SPEC.search(sentence):
        return []
    said = [s for s in _said_factors(sentence) if not any(g.start <= s.start < g.end for g in gpus)]
    if len(said) != 1:
        return []
    if _other_number(sentence, [(g.start, g.end) for g in gpus] + [(said[0].start, said[0].end)]):
        return []  # a figure of its own is a stated value, not the datasheet's
    specs = ["memory bandwidth"] if _BANDWIDTH.search(sentence) else list(_GPU_SPECS) if _CAPACITY_OR_HBM.search(sentence) else []
    reference = _reference_index(sentence, gpus[0].start, gpus[1].start)
    if not specs or reference is None:
        return []
    subject, against = (gpus[1], gpus[0]) if reference == 0 else (gpus[0], gpus[1])
    expected = [getattr(GPUS[a], _GPU_SPECS[spec]) / getattr(GPUS[b], _GPU_SPECS[spec]) for spec in specs for a in subject.variants for b in against.variants]
    check = _judge_ratio(sentence, offset, said[0], expected, True, f"{' or '.join(specs)} ratio",
                         f"datasheet {' or '.join(specs)}, {'/'.join(subject.variants)} over {'/'.join(against.variants)} (tools/hardware.py)")
    return [check] if check else []


_VALUE = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\d,]*x\b|[\d,]*×)")
_RATIO_VERB = re.compile(r"\b(?:is|are|gives?|offers?|has|have|delivers?|provides?|means)\s+(?:about\s+|roughly\s+|around\s+|~\s*|only\s+|nearly\s+|almost\s+|just\s+)?$", re.IGNORECASE)
_VERSUS = re.compile(r"^\s*(?:vs\.?|versus|/|against|compared\s+(?:to|with))\s+(?:the\s+|an?\s+)?(?:[\w-]+(?:'s)?\s+){0,2}?$", re.IGNORECASE)
_OTHER_FACTOR = re.compile(r"\bplus\b|\bcombined\b|\bon\s+top\b|\btogether\b|\balso\b|\bas\s+well\b|\bquanti[sz]|\bspars|\bfus(?:ed|ion)\b|\bflash|\btimes\s+more\b|\boverlap", re.IGNORECASE)


_NAME_ONLY = re.compile(r"(?:\s+(?!(?:in|for|of|when|at|on|with|per|if)(?:\s|$))[\w'/-]+){0,4}\s*[.!?]?\s*", re.IGNORECASE)
"""What may follow the second value of "X is r× the Y": a name for it ("IB link"), not a condition ("in KV room")."""
_MEMORY_BOUND = re.compile(r"\bsmall[- ]batch\b|\bbatch(?:[- ]size)?(?:\s+of)?[- ]1\b|\bmemory[- ]bound\b|\bbandwidth[- ]bound\b|\bbound\s+by\s+(?:memory|bandwidth)", re.IGNORECASE)
_COMPUTE_BOUND = re.compile(r"\bcompute[- ]bound\b|\blarge[- ]batch|\bbig\s+batch|\bprefill\b|\bflops?\b|\btflops\b", re.IGNORECASE)


def _stated_value_ratios(sentence: str, offset: int) -> list[ClaimCheck]:
    """"NVLink at 900 GB/s is 18x the 50 GB/s per-GPU IB link", "1555 GB/s vs the A10G's 600 makes decode
    about 5x faster" (2.6x): the ratio of two values the sentence states in one unit. A value after
    "vs" or "/" with no unit of its own is read in the first one's. When the factor follows "A vs B"
    only its size is judged, and only with no other factor in the sentence (a dtype, sparsity, fusion)."""
    from interviewer.claims.entities import find_entities

    if _OTHER_FACTOR.search(sentence) or any(e.kind in ("dtype", "precision") for e in find_entities(sentence)):
        return []
    masked = _mask(sentence, find_entities(sentence))
    said = _said_factors(masked)
    values = [m for m in _VALUE.finditer(masked) if not any(s.start <= m.start() < s.end for s in said)]
    if len(said) != 1 or len(values) != 2:
        return []
    first, second = values
    units = [match_unit(masked, m.end()) for m in values]
    if units[0] is None or units[0].dim == "percent" or (units[1] is not None and units[1].dim != units[0].dim):
        return []
    numbers = [parse_number(m.group(0)) for m in values]
    if None in numbers or not all(numbers):
        return []
    scale = [units[0].factor, (units[1] or units[0]).factor]
    ratio = numbers[0] * scale[0] / (numbers[1] * scale[1])  # type: ignore[operator]
    claim = said[0]
    second_end = units[1].end if units[1] else second.end()
    clause_end = next((m.start() for m in _CLAUSE_BREAK.finditer(masked, second_end)), len(masked))
    if first.end() < claim.start < second.start() and _RATIO_VERB.search(masked[units[0].end:claim.start]) and re.fullmatch(
        r"\s*(?:the\s+|that\s+of\s+(?:the\s+)?)?(?:[\w-]+(?:'s)?\s+){0,3}?", masked[claim.end:second.start()], re.IGNORECASE
    ) and _NAME_ONLY.fullmatch(masked[second_end:clause_end]):
        directed = True  # "900 GB/s is 18x the 50 GB/s IB link": the first over the second, nothing else compared
    elif (claim.start > second.end() and _VERSUS.match(masked[units[0].end:second.start()]) and units[0].dim == "bytes/s"
          and _MEMORY_BOUND.search(sentence) and not _COMPUTE_BOUND.search(sentence)):
        # "1555 GB/s vs 600 makes small-batch decode 5x faster": a memory-bound step's time is the bytes over
        # the bandwidth (the roofline, Williams et al. 2009); which side is faster is left to the reader
        directed = False
    else:
        return []
    check = _judge_ratio(sentence, offset, claim, [ratio], directed, "ratio of two stated values",
                         f"{first.group(0)} {units[0].text} / {second.group(0)} {(units[1] or units[0]).text}")
    return [check] if check else []


def _mask(sentence: str, entities: list) -> str:
    """``sentence`` with each named thing's characters blanked, so "A100-40GB" gives no number."""
    chars = list(sentence)
    for entity in entities:
        chars[entity.start:entity.end] = "_" * (entity.end - entity.start)
    return "".join(chars)


_MIXTRAL_PARAMS = ((46.7e9, 12.9e9), (141e9, 39e9))
"""(total, active per token) for Mixtral 8x7B (Jiang et al. 2024, "Mixtral of Experts", §2: 47B total,
13B active; 46.7B / 12.9B on its model card) and Mixtral 8x22B (Mistral AI, 2024: 141B / 39B). Both
are 3.6× total over active, so a bare "Mixtral" needs no choice."""
_EXPERT_SHAPE = re.compile(r"\b\d+\s?[x×]\s?\d+(?:\.\d+)?\s?[bB]\b")


def _moe_total_over_active(sentence: str, offset: int) -> list[ClaimCheck]:
    """"Total vs active params is only about 1.8x for Mixtral" (3.6x): top-2 of 8 experts plus the shared
    attention and embeddings are read per token."""
    if not re.search(r"\bmixtral\b", sentence, re.IGNORECASE):
        return []
    total, active = re.search(r"\btotal\b", sentence, re.IGNORECASE), re.search(r"\bactive\b", sentence, re.IGNORECASE)
    masked = _EXPERT_SHAPE.sub(lambda m: "_" * len(m.group(0)), sentence)
    said = _said_factors(masked)
    if total is None or active is None or len(said) != 1 or _other_number(masked, [(said[0].start, said[0].end)]):
        return []
    first, second = sorted((total, active), key=lambda m: m.start())
    reference = _reference_index(sentence, first.start(), second.start())
    if reference is None:
        return []
    subject_is_total = (first if reference == 1 else second) is total
    expected = [t / a if subject_is_total else a / t for t, a in _MIXTRAL_PARAMS]
    check = _judge_ratio(sentence, offset, said[0], expected, True, "MoE total vs active parameters",
                         "Mixtral 8x7B: 46.7B total, 12.9B active per token; 8x22B: 141B and 39B")
    return [check] if check else []


_TOKEN_COUNT = re.compile(r"(?<![\w.])(?P<v>\d+(?:\.\d+)?)\s*(?P<m>[kKMBT]\b|thousand|million|billion|trillion)?\s*tokens?\b")
_MAGNITUDE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}
_PARAM_COUNT = re.compile(r"(?<![\w.])(?P<v>\d+(?:\.\d+)?)\s?(?P<m>[BM])\b")
_TRAINING_FLOPS_PER_TOKEN = (6.0, 8.0)
"""Training FLOPs per parameter and token: 6 (forward 2 + backward 4, Kaplan et al. 2020, §2.1), 8 with
full activation recomputation (Narayanan et al. 2021, §3.5); inference is 2 (the forward pass)."""


def _inference_over_training(sentence: str, offset: int, facts: dict) -> list[ClaimCheck]:
    """"Lifetime inference at 10T tokens for a 70B is roughly 10x the training compute" with the
    scenario's 1.4T training tokens: 2·N·10T / 6·N·1.4T = 2.4x. The model size cancels, so it is
    judged only when the sentence names no other model than the scenario's."""
    inference = re.search(r"\binference\b|\bserving\b", sentence, re.IGNORECASE)
    training = re.search(r"\btrain(?:ing)?\s+(?:compute|flops|cost|run|budget)\b|\bpre-?training\b", sentence, re.IGNORECASE)
    tokens = list(_TOKEN_COUNT.finditer(sentence))
    if inference is None or training is None or len(tokens) != 1 or not facts.get("tokens") or not facts.get("params"):
        return []
    sizes = [float(m.group("v")) * (1e9 if m.group("m") == "B" else 1e6) for m in _PARAM_COUNT.finditer(sentence)]
    if any(abs(size / float(facts["params"]) - 1) > 0.05 for size in sizes):
        return []  # another model than the one the scenario's training tokens are for
    served = float(tokens[0].group("v")) * _MAGNITUDE.get((tokens[0].group("m") or "").lower(), 1.0)
    number_spans = [(m.start(), m.end()) for m in (*tokens, *_PARAM_COUNT.finditer(sentence))]
    said = [s for s in _said_factors(sentence) if not any(lo <= s.start < hi for lo, hi in number_spans)]
    reference = _reference_index(sentence, *sorted((inference.start(), training.start())))
    if len(said) != 1 or reference is None:
        return []
    if _other_number(sentence, [*number_spans, (said[0].start, said[0].end)]):
        return []  # "10T tokens a year for 3 years": another factor
    inference_first = inference.start() < training.start()
    subject_is_inference = (reference == 1) == inference_first
    trained = float(facts["tokens"])
    expected = [2 * served / (k * trained) for k in _TRAINING_FLOPS_PER_TOKEN]
    expected = expected if subject_is_inference else [1 / value for value in expected]
    check = _judge_ratio(sentence, offset, said[0], expected, True, "inference vs training compute",
                         f"2·N per served token × {served:.3g} tokens over 6·N (8·N with recomputation) per training token × {trained:.3g} tokens (the scenario's)")
    return [check] if check else []
