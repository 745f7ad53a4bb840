"""Formula applications and datasheet constants that need no model: one sentence, one formula.

- SLO error budget: (1 − availability) × period ("99.9% over 30 days allows about 43 minutes";
  a 30-day month is 43,200 minutes, and 30.44 and 31 days are accepted too). Google SRE book,
  ch. 3 "Embracing Risk" (error budgets).
- Late requests: (1 − p) × rate ("99.9% within 50 ms at 2,000 req/s: about 2 late per second").
- Tokens per step: sequences × tokens per sequence, the batch stated in this or the last sentence.
- GPU-hours: GPUs × hours ("16 A100s for a month is about 11,500 GPU-hours"; a month is 720 or 730 h).
- Peak-rate ratios between precisions, from the dense datasheet peaks in ``tools.hardware``
  ("fp8 runs at about 2× the bf16 rate" on H100, L4; int8 is 2× fp16 on A100, T4, A10G).
- Replicas for a load: total rate / per-replica rate, or its ceiling ("30,000 tokens/s at peak, each
  replica manages 1,500 tokens/s: 20 replicas"), not judged when the sentence adds headroom.
- MoE expert capacity: capacity factor × tokens × top-k / experts (Lepikhin et al. 2020, GShard §2.2;
  Fedus et al. 2021, Switch Transformer §2.2, where k = 1).
- Training throughput: sequences × tokens per sequence / step time, the batch and step time stated in
  this or the last sentence.
- Tokens seen by a step: steps × tokens per step ("step 40k of a 4M-token batch is 160B tokens in").
- Epochs over the unique data: tokens trained on / unique tokens (Muennighoff et al. 2023).
- InfiniBand port rates (InfiniBand Trade Association roadmap): EDR 100, HDR 200, NDR 400, XDR 800 Gb/s
  per 4x port each way ("each HDR NIC does 25 GB/s"); both ways together is accepted too.
- IEEE-754 half precision and bfloat16 limits (IEEE 754-2008; Google's bfloat16 format): fp16's
  largest finite value 65,504, smallest normal 6.10e-5, smallest subnormal 5.96e-8; bf16's largest
  3.39e38 and smallest normal 1.18e-38; fp8 E4M3 448 and E5M2 57,344 (Micikevicius et al. 2022).

Each check is correct within its tolerance (15 %, 25 % after "about"/"roughly"/"~"), incorrect when
1.5× or more off under every accepted convention, and otherwise not reported.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from interviewer.claims.model import ClaimCheck
from interviewer.units import format_count, match_unit, parse_number

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
    r"[^.;\d]{0,30}?(?P<c>" + _NUM + r")\s*(?P<k>[kKM]\b)?\s*GPU[- ](?P<cu>hours?|minutes?|days?)",
    re.IGNORECASE,
)
_DTYPES = r"fp8|int8|fp16|bf16|tf32|fp32"
_PEAK_RATIO = re.compile(
    r"\b(?P<a>" + _DTYPES + r")\b[^.;]{0,50}?\b(?P<r>\d+(?:\.\d+)?)\s*(?:×|x|times)\s+(?:the\s+|its\s+)?(?:dense\s+)?(?P<b>" + _DTYPES + r")\b[^.;]{0,15}?\b(?:rate|peak|throughput|flops|tflops|speed|compute|math)",
    re.IGNORECASE,
)
_SPARSE = re.compile(r"\bspars(?:e|ity)\b|\b2:4\b", re.IGNORECASE)
_OPERAND_AFTER = re.compile(r"\s*(?:[−×*/^+-]|x\s*\d)")
"""After the first number of "(2 − 2^-10) × 2^15 = 65,504": an operand of an expression, not the value."""
_LIMITS = (
    ("fp16", "largest finite value", 65504.0, r"\b(?:max(?:imum)?(?:\s+value)?|tops?\s+out|largest(?:\s+(?:finite\s+)?value)?|overflows?\s+(?:at|above|past|beyond)|caps?\s+(?:out\s+)?at)"),
    ("fp16", "smallest subnormal", 5.96e-8, r"\bsubnormals?\b[^.;\d]{0,30}?\b(?:bottom\s+out|go(?:es)?\s+down|reach|as\s+small\s+as|down\s+to|at|around|is|are)"),
    ("fp16", "smallest normal value", 6.10e-5, r"\bsmallest\s+(?:positive\s+)?normal(?:\s+(?:value|number))?|\bmin(?:imum)?\s+normal"),
    ("bf16", "largest finite value", 3.39e38, r"\b(?:max(?:imum)?(?:\s+value)?|tops?\s+out|largest(?:\s+(?:finite\s+)?value)?)"),
)


_SEQUENCES_OF = re.compile(r"\b(?P<b>\d[\d,]*)\s+(?:sequences|seqs|samples|examples|rows)\s+(?:of|×|x|at)\s+(?P<s>\d[\d,]*)\s*(?P<k>[kK]\b)?\s*(?:-\s*)?tokens?\b", re.IGNORECASE)
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
        if claimed is None or re.search(r"\b(?:sequences|seqs|samples|examples|rows)\s+(?:of|×|x|at)\s+$", sentence[:match.start()], re.IGNORECASE):
            continue  # "1,024 sequences of 4,096 tokens per step": the length of each sequence, not the step's tokens
        claimed *= {"k": 1e3, "m": 1e6, "b": 1e9, "million": 1e6, "billion": 1e9}.get((match.group("m") or "").lower(), 1.0)
        accepted = [sequences * n for n in lengths]
        check = _check(sentence, offset, match, "c", "tokens per step", claimed, accepted, "tokens", f"{match.group('c')}{match.group('m') or ''} tokens per step",
                       f"{accepted[0]:,.0f} tokens", f"{sequences:,.0f} sequences × {lengths[0]:,.0f} tokens")
        if check:
            yield check


_RATE = r"(?<![\d,.])(?P<{0}>" + _NUM + r")\s*(?P<{0}m>[kKM]\b)?\s*(?:[\w-]+\s+)?(?P<{0}u>tokens?\s*/\s*s(?:ec)?\b|tok\s*/\s*s\b|tokens?\s+(?:per|a)\s+second|req(?:uest)?s?\s*/\s*s(?:ec)?\b|requests?\s+(?:per|a)\s+second|rps\b|qps\b|queries\s*(?:/\s*s|per\s+second))"
_PER_UNIT = r"\b(?:each|per|one|a\s+single|every|a)\s+(?:[\w-]+\s+){0,2}?(?:replicas?|gpus?|nodes?|servers?|instances?|pods?|workers?|copy|copies|cards?|boxes|a10gs?|a100s?|h100s?|l4s?|t4s?)\b"
_PER_UNIT_RATE = re.compile(_PER_UNIT + r"[^.;\d]{0,40}?" + _RATE.format("r"), re.IGNORECASE)
_RATE_PER_UNIT = re.compile(_RATE.format("r") + r"\s+" + _PER_UNIT.replace(r"\b(?:each|per|one|a\s+single|every|a)", r"\b(?:per|a|each|on\s+each|for\s+each)", 1), re.IGNORECASE)
""""600 tok/s per card": the per-unit rate, said after the number."""
_ANY_RATE = re.compile(_RATE.format("t"), re.IGNORECASE)
_UNITS_NEEDED = re.compile(
    r"\b(?:need|needs|needed|so|then|→|->|=|it'?s|that'?s|means|gives|requires?|takes)\b[^.;\d]{0,25}?(?P<c>\d[\d,]*(?:\.\d+)?)\s+"
    r"(?:more\s+)?(?P<noun>replicas|gpus|nodes|servers|instances|pods|copies|cards|boxes|a10gs|a100s|h100s|l4s|t4s)\b",
    re.IGNORECASE,
)
_HEADROOM = re.compile(r"\bheadroom|\bbuffer\b|\bslack\b|\bmargin\b|\bredundan|\bspare\b|\bsafety\b|\bn\s*\+\s*1\b|\butili[sz]ation\b|\btarget\b|\bp9\d|\btail\b|\bfailover\b|\bover-?provision", re.IGNORECASE)


_A_RATE_UNIT = re.compile(r"/\s*s(?:ec)?\b|\bper\s+second\b|\ba\s+second\b|\b[rq]ps\b", re.IGNORECASE)


def _rate_value(match: re.Match, group: str) -> tuple[float, str] | None:
    value = _number(match.group(group))
    if value is None:
        return None
    value *= {"k": 1e3, "m": 1e6}.get((match.group(group + "m") or "").lower(), 1.0)
    return value, "tokens" if match.group(group + "u").lower().startswith("tok") else "requests"


def _replicas(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"we need 30,000 decode tokens/s at peak. say each replica manages ~1,500 tokens/s, then it's about 60 replicas" (20)."""
    if _HEADROOM.search(sentence) or not _A_RATE_UNIT.search(sentence + before):
        return
    text = f"{before} {sentence}"
    per_unit = list(_PER_UNIT_RATE.finditer(text)) or list(_RATE_PER_UNIT.finditer(text))
    if len(per_unit) != 1:
        return
    unit_rate = _rate_value(per_unit[0], "r")
    if unit_rate is None or unit_rate[0] <= 0:
        return
    totals = [_rate_value(m, "t") for m in _ANY_RATE.finditer(text) if not per_unit[0].start("r") <= m.start() < per_unit[0].end()]
    totals = [t for t in totals if t is not None and t[1] == unit_rate[1] and t[0] > unit_rate[0]]
    if len({t[0] for t in totals}) != 1:
        return
    total = totals[0][0]
    for match in _UNITS_NEEDED.finditer(sentence):
        claimed = _number(match.group("c"))
        if claimed is None or claimed < 1:
            continue
        exact = total / unit_rate[0]
        accepted = sorted({exact, float(math.ceil(exact))})
        check = _check(sentence, offset, match, "c", f"{match.group('noun').lower()} needed", claimed, accepted, "count", f"{match.group('c')} {match.group('noun')}",
                       f"{exact:,.3g}" + ("" if exact == math.ceil(exact) else f" (so {math.ceil(exact):,})"), f"{total:,.0f} {unit_rate[1]}/s / {unit_rate[0]:,.0f} {unit_rate[1]}/s each")
        if check:
            yield check


_CAPACITY_FACTOR = re.compile(r"\bcapacity[- ]factor\s*(?:of|=|:|is|at)?\s*(?P<cf>\d+(?:\.\d+)?)\b|\b(?P<cf2>\d+(?:\.\d+)?)\s*(?:×\s*)?capacity[- ]factor\b|\bCF\s*=?\s*(?P<cf3>\d+(?:\.\d+)?)\b", re.IGNORECASE)
_BATCH_TOKENS = re.compile(
    r"(?P<t>\d[\d,]*)\s*(?P<k>[kK]\b)?\s*tokens?\s+(?:per|in\s+(?:a|the|each))\s+(?:batch|step|micro-?batch|group)\b"
    r"|\b(?:batch|step|group)\s+of\s+(?P<t2>\d[\d,]*)\s*(?P<k2>[kK]\b)?\s*tokens?\b",
    re.IGNORECASE,
)
_TOP_K = re.compile(r"\btop[- ]?(?P<k>\d)\b", re.IGNORECASE)
_EXPERTS = re.compile(r"\b(?P<e>\d+)\s+(?:routed\s+)?experts\b", re.IGNORECASE)
_EXPERT_CAPACITY = re.compile(
    r"\b(?:capacity\s+(?:is|of|=|:|comes\s+to|works\s+out\s+to)|room\s+for|slots?\s+for|holds?|buffers?\s+(?:of|for)|takes?\s+(?:at\s+most|up\s+to))\s*(?:about\s+|~\s*|roughly\s+)?(?P<c>\d[\d,]*)\b(?!\s*(?:experts?|%|x\b|×))",
    re.IGNORECASE,
)


def _expert_capacity(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"capacity factor 1.0, 8192 tokens per batch, top-2 over 8 experts: each expert gets room for 2048 tokens"."""
    text = f"{before} {sentence}"
    if "expert" not in text.lower() or "capacity" not in text.lower():
        return
    factors = [m for m in _CAPACITY_FACTOR.finditer(text)]
    tokens = [m for m in _BATCH_TOKENS.finditer(text)]
    experts = {int(m.group("e")) for m in _EXPERTS.finditer(text)}
    top_k = {int(m.group("k")) for m in _TOP_K.finditer(text)}
    if len(factors) != 1 or len(tokens) != 1 or len(experts) != 1 or len(top_k) > 1:
        return
    if not top_k and not re.search(r"\bswitch\b|\btop[- ]?one\b|\bsingle\s+expert\b", text, re.IGNORECASE):
        return  # top-k unstated: the capacity depends on it
    k = top_k.pop() if top_k else 1
    factor = float(next(g for g in factors[0].group("cf", "cf2", "cf3") if g))
    t_match = tokens[0]
    count = _number(t_match.group("t") or t_match.group("t2"))
    if count is None:
        return
    count *= 1000.0 if (t_match.group("k") or t_match.group("k2")) else 1.0
    e = experts.pop()
    if e < 2:
        return
    value = factor * count * k / e
    for match in _EXPERT_CAPACITY.finditer(sentence):
        claimed = _number(match.group("c"))
        if claimed is None or claimed in (count, float(e)):
            continue
        check = _check(sentence, offset, match, "c", "expert capacity (tokens)", claimed, [value, float(math.ceil(value))], "tokens", f"{match.group('c')} tokens",
                       f"{value:,.0f} tokens", f"capacity factor {factor:g} × {count:,.0f} tokens × top-{k} / {e} experts")
        if check:
            yield check


_STEP_TIME = re.compile(
    r"\b(?:step\s+time\s+(?:is|of|=|:)|each\s+step\s+takes|steps?\s+takes?|takes|in)\s*(?:about\s+|~\s*|roughly\s+)?(?P<t>" + _NUM + r")\s*(?P<u>ms|milliseconds?|s|secs?|seconds?)\b",
    re.IGNORECASE,
)
_THROUGHPUT = re.compile(
    r"(?<![\d,.])(?P<c>" + _NUM + r")(?:\s*[-–]\s*(?P<c2>" + _NUM + r"))?\s*(?P<m>[kKM]\b)?\s*(?:tokens?\s*/\s*s(?:ec)?\b|tok\s*/\s*s\b|tokens?\s+(?:per|a)\s+second)",
    re.IGNORECASE,
)


_STEP_TIME_AT = re.compile(r"\b(?:at|with)\s+(?:an?\s+)?(?:about\s+|~\s*|roughly\s+)?(?P<t>" + _NUM + r")\s*(?:-\s*)?(?P<u>ms|milliseconds?|s|secs?|seconds?)\s+(?:training\s+)?step\b", re.IGNORECASE)
_BATCH_PRODUCT = re.compile(r"\bbatch(?:\s+size)?\s+(?:of\s+|is\s+|=\s*|:\s*)?(?P<b>\d[\d,]*)\s*[x×*]\s*(?P<s>\d[\d,]*)\s*(?P<k>[kK]\b)?\s*(?:-\s*)?tokens?\b", re.IGNORECASE)


def _throughput(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"each step is 512 seqs of 2048 tokens and takes 63 s, so about 16.6k tokens/s", "Global batch
    1,024 x 2,048 tokens is 2.1M tokens; at a 126 s step that's about 16.6k tokens/s"."""
    text = f"{before} {sentence}"
    if not _A_RATE_UNIT.search(sentence):
        return
    batches = [*_SEQUENCES_OF.finditer(text), *_BATCH_PRODUCT.finditer(text)]
    times = [*_STEP_TIME.finditer(text), *_STEP_TIME_AT.finditer(text)]
    if len(batches) != 1 or len(times) != 1:
        return
    sequences, length, seconds = _number(batches[0].group("b")), _number(batches[0].group("s")), _number(times[0].group("t"))
    if sequences is None or length is None or not seconds:
        return
    seconds *= 1e-3 if times[0].group("u").lower().startswith("m") else 1.0
    lengths = [length * 1024, length * 1000] if batches[0].group("k") else [length]
    accepted = [sequences * n / seconds for n in lengths]
    for match in _THROUGHPUT.finditer(sentence):
        scale = {"k": 1e3, "m": 1e6}.get((match.group("m") or "").lower(), 1.0)
        low, high = _number(match.group("c")), _number(match.group("c2") or match.group("c"))
        if low is None or high is None:
            continue
        low, high = low * scale, high * scale
        if any(low / 1.25 <= value <= high * 1.25 for value in accepted):
            verdict_value = accepted[0]
            claimed = verdict_value  # inside the stated range
        else:
            claimed = high if high < accepted[0] else low
        check = _check(sentence, offset, match, "c", "training throughput (tokens/s)", claimed, accepted, "tokens/s", match.group(0).strip(),
                       f"{accepted[0]:,.0f} tokens/s", f"{sequences:,.0f} sequences × {lengths[0]:,.0f} tokens / {seconds:g} s")
        if check:
            yield check


_INFINIBAND_GBITS = {"edr": 100.0, "hdr100": 100.0, "hdr": 200.0, "ndr200": 200.0, "ndr": 400.0, "xdr": 800.0}
"""Signalling rate of one 4x InfiniBand port, Gb/s each way (InfiniBand Trade Association roadmap)."""
_LINK_RATE = re.compile(
    r"\b(?P<g>EDR|HDR100|HDR|NDR200|NDR|XDR)\b(?:\s+(?:InfiniBand|IB))?\s+(?:NICs?|HCAs?|links?|ports?|cards?|adapters?)?[^.;\d]{0,30}?(?P<c>" + _NUM + r")\s*(?P<u>[GT]b(?:it)?/s|[GT]bps|[GT]B/s)",
    re.IGNORECASE,
)


def _link_rates(sentence: str, offset: int) -> Iterator[ClaimCheck]:
    """"Each HDR NIC does 25 Gb/s" (200 Gb/s = 25 GB/s): an InfiniBand port's rate, one way or both."""
    for match in _LINK_RATE.finditer(sentence):
        if re.search(r"\d\s*(?:[x×]\s*)?$|\b(?:eight|four|two|sixteen|several|multiple)\s+$", sentence[:match.start()], re.I) or re.search(
            r"\bnodes?\b|\bper\s+(?:gpu|server|host|box)\b|\btotal\b|\baggregate\b|\bcombined\b|\bacross\b|\ball\b(?!-)", sentence[match.start("g"):match.end() + 25], re.I
        ):
            continue  # "8 HDR NICs: 200 GB/s per node": several ports together, not one port's rate
        claimed = _number(match.group("c"))
        unit = match_unit(match.group("u"), 0)
        if claimed is None or unit is None or unit.dim != "bytes/s":
            continue
        one_way = _INFINIBAND_GBITS[match.group("g").lower()] * 1e9 / 8
        check = _check(sentence, offset, match, "c", "InfiniBand link rate", claimed * unit.factor, [one_way, 2 * one_way], "bytes/s",
                       f"{match.group('c')} {match.group('u')}", f"{one_way * 8 / 1e9:g} Gb/s ({one_way / 1e9:g} GB/s) each way",
                       f"{match.group('g').upper()} InfiniBand: {one_way * 8 / 1e9:g} Gb/s per 4x port each way, {2 * one_way * 8 / 1e9:g} Gb/s both ways")
        if check:
            yield check


_MAGNITUDE = r"(?P<{0}m>[kKMBT]\b|thousand|million|billion|trillion)"
_COUNT_WORDS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}
_UNIQUE_TOKENS = re.compile(r"(?<![\d,.])(?P<u>" + _NUM + r")\s*" + _MAGNITUDE.format("u") + r"\s*(?:of\s+)?(?:unique|distinct|deduplicated|deduped)\b", re.IGNORECASE)
_ALL_TOKENS = re.compile(r"(?<![\d,.])(?P<t>" + _NUM + r")\s*" + _MAGNITUDE.format("t") + r"\s*(?:training\s+)?tokens?\b", re.IGNORECASE)
_EPOCHS = re.compile(r"(?<![\d,.])(?P<c>" + _NUM + r")\s*(?:-\s*)?(?:epochs?|passes)\b", re.IGNORECASE)


def _epochs(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"Training on 1.4T tokens with only 500B unique means about 2.8 epochs": epochs are the tokens
    trained on over the unique tokens (Muennighoff et al. 2023, "Scaling Data-Constrained Language
    Models", count repeated data this way)."""
    if not re.search(r"\b(?:epochs?|passes)\b", sentence, re.IGNORECASE):
        return
    claims = list(_EPOCHS.finditer(sentence))
    if len(claims) != 1:
        return
    text = f"{before} {sentence}"
    unique = list(_UNIQUE_TOKENS.finditer(text))
    totals = [m for m in _ALL_TOKENS.finditer(text) if not any(u.start() <= m.start() < u.end() for u in unique)]
    if len(unique) != 1 or len({(m.group("t"), m.group("tm").lower()) for m in totals}) != 1:
        return
    u = _number(unique[0].group("u")) * _COUNT_WORDS[unique[0].group("um").lower()]  # type: ignore[operator]
    t = _number(totals[0].group("t")) * _COUNT_WORDS[totals[0].group("tm").lower()]  # type: ignore[operator]
    claimed = _number(claims[0].group("c"))
    if not u or not t or claimed is None or t < u:
        return
    check = _check(sentence, offset, claims[0], "c", "epochs over the unique data", claimed, [t / u], "count", f"{claims[0].group('c')} epochs",
                   f"{t / u:.2g} epochs", f"{totals[0].group(0).strip()} / {unique[0].group(0).strip()}")
    if check:
        yield check


_BATCH_OF_TOKENS = re.compile(r"\b(?:global\s+)?batch(?:\s+size)?\s+(?:is|of|=|:)?\s*(?:about\s+|~\s*)?(?P<b>" + _NUM + r")\s*" + _MAGNITUDE.format("b") + r"?\s*tokens?\b"
                              r"|(?<![\d,.])(?P<b2>" + _NUM + r")\s*" + _MAGNITUDE.format("b2") + r"?\s*tokens?\s+(?:per|a|each|every)\s+(?:step|batch|update|iteration)\b", re.IGNORECASE)
_AT_STEP = re.compile(r"\b(?:step|iteration|update)\s+(?P<n>" + _NUM + r")\s*(?P<nk>[kKM]\b)?|\b(?:after|at|by|for|over)\s+(?P<n2>" + _NUM + r")\s*(?P<nk2>[kKM]\b)?\s*(?:steps|iterations|updates)\b", re.IGNORECASE)
_TOKENS_SEEN = (
    re.compile(r"(?<![\d,.])(?P<c>" + _NUM + r")\s*" + _MAGNITUDE.format("c") + r"?\s*tokens?\s+(?:into\s+the\s+run|in\b|seen|processed|consumed|so\s+far|trained\s+on)", re.IGNORECASE),
    re.compile(r"\b(?:seen|processed|consumed|trained\s+on)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?(?P<c>" + _NUM + r")\s*" + _MAGNITUDE.format("c") + r"?\s*tokens?\b", re.IGNORECASE),
)


def _tokens_by_step(sentence: str, offset: int, before: str) -> Iterator[ClaimCheck]:
    """"If the global batch is 4M tokens, step 40k is about 160B tokens into the run": tokens seen
    are steps × tokens per step."""
    if not re.search(r"\b(?:step|iteration|update)s?\b", sentence, re.IGNORECASE):
        return
    claim = next((m for pattern in _TOKENS_SEEN if (m := pattern.search(sentence))), None)
    text = f"{before} {sentence}"
    sequences_of = list(_SEQUENCES_OF.finditer(text))
    batches = [b for b in _BATCH_OF_TOKENS.finditer(text) if not any(s.start() <= b.start() < s.end() for s in sequences_of)]
    steps = list(_AT_STEP.finditer(sentence))
    if claim is None or len(batches) + len(sequences_of) != 1 or len(steps) != 1:
        return
    n = steps[0]
    if sequences_of:
        # "1,024 sequences of 4,096 tokens per step": the step's tokens are their product
        s = sequences_of[0]
        per_step = (_number(s.group("b")) or 0.0) * (_number(s.group("s")) or 0.0) * (1024.0 if s.group("k") else 1.0)
    else:
        b = batches[0]
        per_step = _number(b.group("b") or b.group("b2")) or 0.0
        per_step *= _COUNT_WORDS.get((b.group("bm") or b.group("b2m") or "").lower(), 1.0)
    count = _number(n.group("n") or n.group("n2")) or 0.0
    count *= _COUNT_WORDS.get((n.group("nk") or n.group("nk2") or "").lower(), 1.0)
    claimed = (_number(claim.group("c")) or 0.0) * _COUNT_WORDS.get((claim.group("cm") or "").lower(), 1.0)
    if per_step <= 0 or count <= 0 or claimed <= 0:
        return
    check = _check(sentence, offset, claim, "c", "tokens seen", claimed, [per_step * count], "tokens", f"{claim.group('c')}{claim.group('cm') or ''} tokens",
                   f"{format_count(per_step * count)} tokens", f"{format_count(count)} steps × {format_count(per_step)} tokens per step")
    if check:
        yield check


def check_formulas(sentence: str, offset: int = 0, before: str = "") -> Iterator[ClaimCheck]:
    """Every formula application and datasheet constant in one sentence, checked (``before`` is the
    sentence before it, which may state the inputs: a batch of sequences and their length)."""
    yield from _tokens_per_step(sentence, offset, before)
    yield from _replicas(sentence, offset, before)
    yield from _expert_capacity(sentence, offset, before)
    yield from _throughput(sentence, offset, before)
    yield from _link_rates(sentence, offset)
    yield from _epochs(sentence, offset, before)
    yield from _tokens_by_step(sentence, offset, before)
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
        said_unit = match.group("cu").lower().rstrip("s")
        claimed *= _seconds(said_unit) / 3600  # "11.5k GPU-minutes" is 192 GPU-hours
        accepted = [n * h for h in hours]
        check = _check(sentence, offset, match, "c", "GPU-hours", claimed, accepted, "count", f"{match.group('c')}{match.group('k') or ''} GPU-{said_unit}s",
                       f"{accepted[0]:,.0f} GPU-hours", f"{n:,.0f} GPUs × {hours[0]:,.0f} h")
        if check:
            yield check
    # "fp8 with 2:4 sparsity is 4x the dense bf16 rate" is right: the ratios here are dense to dense
    for match in _PEAK_RATIO.finditer(sentence) if not _SPARSE.search(sentence) else ():
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
        pattern = re.compile(r"\b" + dtype + r"\b[^.;]{0,60}?(?:" + words + r")[^.;\d]{0,25}?(?P<c>" + _NUM + r")(?P<k>\s?[kK]\b)?(?!\s*(?:%|GB|MB|ms|s\b|x|×|bits?|bytes?))", re.IGNORECASE)
        for match in pattern.finditer(sentence):
            claimed = _number(match.group("c"))
            if claimed is None or claimed <= 0 or _OPERAND_AFTER.match(sentence, match.end()) or sentence[:match.start("c")].rstrip().endswith("(") or re.search(
                    r"\b(?:isn'?t|is\s+not|not|never|wasn'?t)\s+(?:about\s+|around\s+|~\s*)?$", sentence[max(0, match.start("c") - 16):match.start("c")], re.IGNORECASE):
                continue  # "(2 − 2^-10) × 2^15 = 65,504": the first operand of the working, not the limit
            if match.group("k"):
                claimed *= 1e3  # "bf16 tops out around 65k"
            check = _check(sentence, offset, match, "c", f"{dtype} {what}", claimed, [value], "number", match.group("c") + (match.group("k") or "").strip(), f"{value:g}",
                           f"IEEE 754 / bfloat16 format: the {what} of {dtype}")
            if check:
                yield check
