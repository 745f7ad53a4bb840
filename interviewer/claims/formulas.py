"""Formula applications and datasheet constants that need no model: one sentence, one formula.

- SLO error budget: (1 − availability) × period ("99.9% over 30 days allows about 43 minutes";
  a 30-day month is 43,200 minutes, and 30.44 and 31 days are accepted too). Google SRE book,
  ch. 3 "Embracing Risk" (error budgets).
- Late requests: (1 − p) × rate ("99.9% within 50 ms at 2,000 req/s: about 2 late per second").
- Tokens per step: sequences × tokens per sequence, the batch stated in this or the last sentence.
- GPU-hours: GPUs × hours ("16 A100s for a month is about 11,500 GPU-hours"; a month is 720 or 730 h).
- Peak-rate ratios between precisions, from the dense datasheet peaks in ``tools.hardware``
  ("fp8 runs at about 2× the bf16 rate" on H100, L4; int8 is 2× fp16 on A100, T4, A10G).
- IEEE-754 half precision and bfloat16 limits (IEEE 754-2008; Google's bfloat16 format): fp16's
  largest finite value 65,504, smallest normal 6.10e-5, smallest subnormal 5.96e-8; bf16's largest
  3.39e38 and smallest normal 1.18e-38; fp8 E4M3 448 and E5M2 57,344 (Micikevicius et al. 2022).

Each check is correct within its tolerance (15 %, 25 % after "about"/"roughly"/"~"), incorrect when
1.5× or more off under every accepted convention, and otherwise not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from interviewer.claims.model import ClaimCheck
from interviewer.claims.units import match_unit, parse_number

_NUM = r"\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s*[eE][+-]?\d+|\s*[×x]\s*10\^?[-−]?\d+|\^[-−]?\d+)?"
_APPROX = re.compile(r"(?:about|around|roughly|approximately|approx\.?|~|≈|some|nearly|almost)\s*$", re.IGNORECASE)

_PERIODS_H = {"day": (24.0,), "week": (168.0,), "month": (720.0, 730.5, 744.0), "quarter": (2190.0,), "year": (8760.0, 8766.0)}
"""Accepted lengths of an SLO period in hours (a month is 30, 30.44 or 31 days)."""
_TIME_UNIT = r"(?P<u>seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?)\b"


def _number(text: str) -> float | None:
    return parse_number(text.replace(" ", "").replace("−", "-"))


def _seconds(unit: str) -> float:
    """Seconds in one of ``_TIME_UNIT``'s units, from the units module."""
    return match_unit(unit, 0).factor  # type: ignore[union-attr]  # every unit _TIME_UNIT admits is one match_unit reads


def _tolerance(text: str, start: int) -> float:
    return 0.25 if _APPROX.search(text[max(0, start - 14):start]) else 0.15


def verdict_against(claimed: float, accepted: list[float], tolerance: float) -> str | None:
    """Correct within ``tolerance`` of any accepted value, incorrect when 1.5× or more from all of them,
    otherwise no verdict."""
    if any(value / (1 + tolerance) <= claimed <= value * (1 + tolerance) for value in accepted):
        return "correct"
    if all(max(claimed / value, value / claimed) >= 1.5 for value in accepted if value > 0):
        return "incorrect"
    return None


def _check(text: str, offset: int, match: re.Match, group: str, quantity: str, claimed: float, accepted: list[float], unit: str,
           said: str, shown: str, formula: str) -> ClaimCheck | None:
    tolerance = _tolerance(text, match.start(group))
    verdict = verdict_against(claimed, accepted, tolerance)
    if verdict is None:
        return None
    explanation = f"You said {said}; I get {shown}: {formula}." if verdict == "correct" else f"You said {said}, but it is {shown}: {formula}."
    return ClaimCheck(text=text.strip(), quantity=quantity, claimed=claimed, computed=accepted[0], unit=unit, verdict=verdict,  # type: ignore[arg-type]
                      explanation=explanation, working=[formula], tolerance=tolerance, span=(offset + match.start(group), offset + match.end(group)))


_BUDGET = re.compile(
    r"(?P<p>9\d(?:\.\d+)?)\s*%[^.;]{0,60}?\b(?:over|per|in|a|each|every|across)\s+(?:a\s+|one\s+|the\s+)?(?:(?P<pn>\d+)[- ]?(?P<pu>days?|weeks?|months?)|(?P<period>day|week|month|quarter|year))\b"
    r"[^.;\d]{0,50}?\b(?:allows?|gives?|leaves?|means|is|=|≈|budget\s+(?:of|is))\b[^.;\d]{0,25}?(?P<c>" + _NUM + r")\s*" + _TIME_UNIT,
    re.IGNORECASE,
)
_MONTHLY = re.compile(
    r"(?P<p>9\d(?:\.\d+)?)\s*%\s*(?P<adj>monthly|weekly|daily|yearly|annual)\b[^.;]{0,60}?\b(?:allows?|gives?|leaves?|means|is|=|≈|budget\s+(?:of|is))\b[^.;\d]{0,25}?"
    r"(?P<c>" + _NUM + r")\s*" + _TIME_UNIT,
    re.IGNORECASE,
)
_LATE = re.compile(
    r"(?P<p>9\d(?:\.\d+)?)\s*%[^.;]{0,80}?\b(?P<rate>" + _NUM + r")\s*(?:req(?:uest)?s?|queries)\s*(?:/\s*s|per\s+second|a\s+second)\b"
    r"[^.;\d]{0,50}?(?P<c>" + _NUM + r")\s+(?:\w+\s+)?(?:requests?|queries|failures?|errors?)\s+(?:per|a|/)\s*s(?:ec(?:ond)?)?\b",
    re.IGNORECASE,
)
_GPU_HOURS = re.compile(
    r"\b(?P<n>\d[\d,]*)\s*(?:×\s*)?(?:[A-Z]\d{2,3}[A-Za-z]?s?|GPUs?)\s+for\s+(?:(?P<t>\d+(?:\.\d+)?)\s*|an?\s+|one\s+)(?P<tu>hours?|days?|weeks?|months?)\b"
    r"[^.;\d]{0,30}?(?P<c>" + _NUM + r")\s*(?P<k>[kKM]\b)?\s*GPU[- ]hours?",
    re.IGNORECASE,
)
_DTYPES = r"fp8|int8|fp16|bf16|tf32|fp32"
_PEAK_RATIO = re.compile(
    r"\b(?P<a>" + _DTYPES + r")\b[^.;]{0,50}?\b(?P<r>\d+(?:\.\d+)?)\s*(?:×|x|times)\s+(?:the\s+|its\s+)?(?P<b>" + _DTYPES + r")\b[^.;]{0,15}?\b(?:rate|peak|throughput|flops|tflops|speed|compute|math)",
    re.IGNORECASE,
)
_LIMITS = (
    ("fp16", "largest finite value", 65504.0, r"\b(?:max(?:imum)?(?:\s+value)?|tops?\s+out|largest(?:\s+(?:finite\s+)?value)?|overflows?\s+(?:at|above|past|beyond)|caps?\s+(?:out\s+)?at)"),
    ("fp16", "smallest subnormal", 5.96e-8, r"\bsubnormals?\b[^.;\d]{0,30}?\b(?:bottom\s+out|go(?:es)?\s+down|reach|as\s+small\s+as|down\s+to|at|around|is|are)"),
    ("fp16", "smallest normal value", 6.10e-5, r"\bsmallest\s+(?:positive\s+)?normal(?:\s+(?:value|number))?|\bmin(?:imum)?\s+normal"),
    ("bf16", "largest finite value", 3.39e38, r"\b(?:max(?:imum)?(?:\s+value)?|tops?\s+out|largest(?:\s+(?:finite\s+)?value)?)"),
)


_SEQUENCES_OF = re.compile(r"\b(?P<b>\d[\d,]*)\s+(?:sequences|samples|examples|rows)\s+(?:of|×|x|at)\s+(?P<s>\d[\d,]*)\s*(?P<k>[kK]\b)?\s*(?:-\s*)?tokens?\b", re.IGNORECASE)
_TOKENS_PER_STEP = re.compile(r"(?P<c>" + _NUM + r")\s*(?P<m>[kKMB]\b|million|billion)?\s*tokens?\s+(?:per|a|each|every|in\s+(?:a|each))\s+(?:step|batch|iteration|update|optimi[sz]er\s+step)\b", re.IGNORECASE)


def _tokens_per_step(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"The global batch is 512 sequences of 2048 tokens. That's about 4M tokens per step." (1.05M)"""
    batch = None
    for batch in _SEQUENCES_OF.finditer(f"{before} {sentence}"):
        pass
    if batch is None:
        return
    sequences, length = _number(batch.group("b")), _number(batch.group("s"))
    if sequences is None or length is None:
        return
    lengths = [length * 1024, length * 1000] if batch.group("k") else [length]
    for match in _TOKENS_PER_STEP.finditer(sentence):
        claimed = _number(match.group("c"))
        if claimed is None:
            continue
        claimed *= {"k": 1e3, "m": 1e6, "b": 1e9, "million": 1e6, "billion": 1e9}.get((match.group("m") or "").lower(), 1.0)
        accepted = [sequences * n for n in lengths]
        check = _check(sentence, offset, match, "c", "tokens per step", claimed, accepted, "tokens", f"{match.group('c')}{match.group('m') or ''} tokens per step",
                       f"{accepted[0]:,.0f} tokens", f"{sequences:,.0f} sequences × {lengths[0]:,.0f} tokens")
        if check:
            yield check


def check_formulas(sentence: str, offset: int = 0, before: str = "") -> Iterator[ClaimCheck]:
    """Every formula application and datasheet constant in one sentence, checked (``before`` is the
    sentence before it, which may state the inputs: a batch of sequences and their length)."""
    yield from _tokens_per_step(sentence, offset, before)
    for match in _BUDGET.finditer(sentence):
        p = float(match.group("p"))
        if match.group("period"):
            periods = _PERIODS_H[match.group("period").lower()]
        else:
            periods = (float(match.group("pn")) * _PERIODS_H[match.group("pu").lower().rstrip("s")][0],)
        claimed = _number(match.group("c"))
        if claimed is None or p >= 100:
            continue
        accepted = [(1 - p / 100) * period for period in periods]
        check = _check(sentence, offset, match, "c", "SLO error budget", claimed * _seconds(match.group("u")), [a * 3600 for a in accepted], "seconds",
                       f"{match.group('c')} {match.group('u')}", f"{accepted[0] * 60:,.1f} minutes",
                       f"(1 − {p:g}%) × {periods[0]:g} h")
        if check:
            yield check
    for match in _MONTHLY.finditer(sentence):
        p = float(match.group("p"))
        period = {"monthly": 720.0, "weekly": 168.0, "daily": 24.0, "yearly": 8760.0, "annual": 8760.0}[match.group("adj").lower()]
        claimed = _number(match.group("c"))
        if claimed is None or p >= 100:
            continue
        periods = (period, 730.5, 744.0) if period == 720.0 else (period,)
        accepted = [(1 - p / 100) * h * 3600 for h in periods]
        check = _check(sentence, offset, match, "c", "SLO error budget", claimed * _seconds(match.group("u")), accepted, "seconds",
                       f"{match.group('c')} {match.group('u')}", f"{accepted[0] / 60:,.1f} minutes", f"(1 − {p:g}%) × {period:g} h")
        if check:
            yield check
    for match in _LATE.finditer(sentence):
        p, rate, claimed = float(match.group("p")), _number(match.group("rate")), _number(match.group("c"))
        if rate is None or claimed is None or p >= 100:
            continue
        value = (1 - p / 100) * rate
        check = _check(sentence, offset, match, "c", "requests over the SLO per second", claimed, [value], "count",
                       f"{match.group('c')} per second", f"{value:,.3g} per second", f"(1 − {p:g}%) × {rate:,.0f} requests/s")
        if check:
            yield check
    for match in _GPU_HOURS.finditer(sentence):
        n, claimed = _number(match.group("n")), _number(match.group("c"))
        if n is None or claimed is None:
            continue
        claimed *= {"k": 1e3, "m": 1e6}.get((match.group("k") or "").lower(), 1.0)
        unit = match.group("tu").lower().rstrip("s")
        amount = float(match.group("t")) if match.group("t") else 1.0
        hours = [amount * h for h in ((720.0, 730.5) if unit == "month" else (_seconds(unit) / 3600,))]
        accepted = [n * h for h in hours]
        check = _check(sentence, offset, match, "c", "GPU-hours", claimed, accepted, "count", f"{match.group('c')}{match.group('k') or ''} GPU-hours",
                       f"{accepted[0]:,.0f} GPU-hours", f"{n:,.0f} GPUs × {hours[0]:,.0f} h")
        if check:
            yield check
    for match in _PEAK_RATIO.finditer(sentence):
        from interviewer.tools.dtypes import normalize_dtype
        from interviewer.tools.hardware import GPUS

        a, b = normalize_dtype(match.group("a")), normalize_dtype(match.group("b"))
        ratios = sorted({spec.peak_flops[a] / spec.peak_flops[b] for spec in GPUS.values() if a in spec.peak_flops and b in spec.peak_flops})
        if not ratios or a == b:
            continue
        check = _check(sentence, offset, match, "r", f"{a} vs {b} peak rate", float(match.group("r")), ratios, "ratio",
                       f"{match.group('r')}× the {b} rate", f"{ratios[0]:g}×", f"dense datasheet peaks, {a} / {b} (tools/hardware.py)")
        if check:
            yield check
    for dtype, what, value, words in _LIMITS:
        pattern = re.compile(r"\b" + dtype + r"\b[^.;]{0,60}?(?:" + words + r")[^.;\d]{0,25}?(?P<c>" + _NUM + r")(?!\s*(?:%|GB|MB|ms|s\b|x|×|bits?|bytes?))", re.IGNORECASE)
        for match in pattern.finditer(sentence):
            claimed = _number(match.group("c"))
            if claimed is None or claimed <= 0:
                continue
            check = _check(sentence, offset, match, "c", f"{dtype} {what}", claimed, [value], "number", match.group("c"), f"{value:g}",
                           f"IEEE 754 / bfloat16 format: the {what} of {dtype}")
            if check:
                yield check
