"""Which quantity a number is a claim about, or whether it is an input.

A number is a *claim* when it is the quantity being asserted (memory, time, FLOPs, a count) and
the sentence says what it is about (a cue such as "KV cache", "Adam", "all-reduce", "bubble").
Numbers that set up the problem ("8 GPUs", "10B params", "4k context", "at 300 GB/s") are inputs.
With no cue, a number is left alone: the checker never floods an answer with guesses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from interviewer.claims.entities import find_gpus
from interviewer.claims.parser import Mention, ParsedSentence


@dataclass(frozen=True)
class Topic:
    id: str
    quantity: str
    """Shown to the user: what the number is."""
    calculator: str | None


TOPICS: dict[str, Topic] = {
    topic.id: topic
    for topic in (
        Topic("kv-cache", "KV cache size", "kv-cache"),
        Topic("activations", "activation memory", "activations"),
        Topic("model-states", "model-state memory", "model-states"),
        Topic("model-states-per-param", "model-state bytes per parameter", "model-states"),
        Topic("weights", "weight memory", None),
        Topic("weights-per-param", "bytes per parameter", None),
        Topic("gpu-memory", "GPU memory", None),
        Topic("decode", "decode time per token", "decode-latency"),
        Topic("prefill", "prefill time", "prefill-latency"),
        Topic("allreduce", "all-reduce time", "allreduce"),
        Topic("allreduce-bytes", "bytes sent per GPU in a ring all-reduce", "allreduce"),
        Topic("time-to-train", "time to train", "time-to-train"),
        Topic("train-flops", "training compute", "train-flops"),
        Topic("forward-flops", "forward-pass FLOPs", "forward-flops"),
        Topic("chinchilla-tokens", "tokens (compute-optimal)", "chinchilla"),
        Topic("chinchilla-params", "parameters (compute-optimal)", "chinchilla"),
        Topic("chinchilla-flops", "training compute (compute-optimal)", "chinchilla"),
        Topic("chinchilla-ratio", "tokens per parameter (compute-optimal)", "chinchilla"),
        Topic("bubble", "pipeline bubble", "bubble"),
        Topic("littles-law", "concurrent requests", "littles-law"),
        Topic("params", "parameter count", "params"),
        Topic("peak-flops", "peak FLOP/s (dense)", None),
        Topic("bandwidth", "memory bandwidth", None),
    )
}


def _cue(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


CUES: dict[str, re.Pattern] = {
    "kv-cache": _cue(r"\bkv[- ]?cache|\bkv\b|\bkey[- /]value\b|\bcache\b"),
    "activations": _cue(r"\bactivations?\b(?!\s+functions?)|\bactivation\s+(?:memory|checkpointing|recomput)"),
    "model-states": _cue(
        r"\badam(?:w)?\b|\boptimi[sz]er(?:[- ]states?)?\b|\bmodel[- ]states?\b|\bzero\b|\bzero-?[0-3]\b|\bfsdp\b"
        r"|\bmaster\s+(?:weights|copy|params)|\bmixed[- ]precision\b|\bmomentum\b|\bvariance\b|\bshard(?:ed|ing|s)?\b"
        r"|\btraining\s+memory\b|\bmemory\s+(?:to|for)\s+train|\bto\s+train\b|\bfor\s+training\b|\bfine-?tun(?:e|ing)\b"
        r"|\bsgd\b|\badafactor\b|\bddp\b|\bdata[- ]parallel"
    ),
    "weights": _cue(
        r"\bweights?\b|\bgrad(?:ient)?s\b(?!\s+(?:sync|all|accum))|\bmodel\s+size\b|\bcheckpoint\b|\bto\s+(?:load|store|hold|serve|fit)\b|\bserv(?:e|ing)\b|\binference\b"
        r"|\bin\s+(?:fp16|bf16|fp32|int8|int4|fp8|nf4|float16|bfloat16|float32|half\s+precision|\d+[- ]?bits?)\b|\bquantiz"
        r"|\bmodel\s+(?:is|takes|needs|weighs|occupies|fits)|\bparam(?:eter)?s?\s+(?:take|need|occupy|are|is)\b|\bon\s+disk\b|\bfootprint\b"
    ),
    "gpu-memory": _cue(r"\bhbm\d?e?\b|\bvram\b|\bmemory\b|\bhas\b|\bhave\b|\bcomes\s+with\b|\bships\s+with\b|\bcapacity\b"),
    "decode": _cue(
        r"\bdecod|\bper\s+(?:output\s+)?token\b|/\s?token\b|\beach\s+(?:new\s+)?token\b|\bnext[- ]token\b|\bgenerat|\btpot\b"
        r"|\binter[- ]token\b|\bitl\b|\btime\s+per\s+(?:output\s+)?token\b|\bmemory[- ]bound\b"
    ),
    "prefill": _cue(
        r"\bprefill|\bpre-fill|\bprompt\s+processing\b|\bprocess(?:ing)?\s+(?:the|a|an)\s+(?:\S+\s+){0,2}prompt\b|\bttft\b"
        r"|\btime\s+to\s+first\s+token\b|\bfirst\s+token\b"
    ),
    "allreduce": _cue(
        r"\ball[- ]?reduc|\bring\b|\bgradient\s+sync|\bsync(?:hroni[sz]e|hroni[sz]ing|ing)?\s+(?:the\s+)?(?:fp16\s+|bf16\s+|fp32\s+)?grad"
        r"|\bnccl\b|\breduce[- ]scatter\b"
    ),
    "time-to-train": _cue(r"\btrain|\bpre-?train|\bto\s+converge\b|\bwall[- ]clock\b|\bthe\s+run\b"),
    "train-flops": _cue(r"\btrain|\bpre-?train|\b6\s?[·*x×]?\s?n\s?[·*x×]?\s?d\b|\btotal\s+compute\b|\bcompute\s+budget\b|\bbudget\b|\bthe\s+run\b"),
    "forward-flops": _cue(r"\bforward\b|\bfwd\b|\bper\s+token\b|\binference\b|\bsingle\s+pass\b|\bone\s+pass\b|\bprefill\b|\b2\s?[·*x×]?\s?n\b"),
    "chinchilla": _cue(r"\bchinchilla\b|\bcompute[- ]optimal\b|\boptimal(?:ly)?\b|\bhoffmann\b|\btokens?\s+per\s+param"),
    "bubble": _cue(r"\bbubble\b|\bidle\b|\bpipeline\b"),
    "littles-law": _cue(r"\blittle'?s\s+law\b|\bconcurren|\bin[- ]flight\b|\bin\s+the\s+system\b|\boutstanding\b|\bsimultaneous"),
    "peak-flops": _cue(r"\bpeak\b|\bdense\b|\bsparse\b|\bsparsity\b|\btflop|\bflop/?s\b|\btensor[- ]cores?\b|\bdoes\b|\bdelivers?\b|\bhas\b|\bhits?\b|\bthroughput\b|\btops\b|\brated\b|\bgets\b|\bis\b"),
    "bandwidth": _cue(r"\bbandwidth\b|\bhbm\d?e?\b|\bmemory\s+bw\b|\bbw\b|\bnvlink\b|\binterconnect\b|\bhas\b|\bgets\b|\bis\b|\bdoes\b"),
    "non-embedding": _cue(r"\bnon[- ]embedding\b"),
}

_INPUT_LEAD = re.compile(r"(?:\b(?:at|with|given|assuming|using|of|for|over|across|on|budget\s+of|target(?:ing)?|slo\s+of|via)\s*(?:an?\s+|the\s+)?)$", re.IGNORECASE)
_CLAIM_LEAD = re.compile(r"(?:\b(?:is|are|be|was|were|takes?|needs?|requires?|gets?|gives?|comes?\s+to|costs?|means?|yields?|about|roughly|around|approximately|so|that's|thats|to|becomes?|drops?\s+to|goes\s+to)\s*|[=≈~:→]\s*)$", re.IGNORECASE)


_BYTES_PRIORITY = ("kv-cache", "activations", "model-states", "weights")
"""When one clause has several cues, the more specific quantity wins ("Adam ... weights" is model states)."""
_BYTES_INPUT_LEAD = re.compile(
    r"(?:\b(?:fit(?:s|ting)?\s+(?:in|into|on|onto|within)(?:\s+(?:one|a\s+single|a|an|the|each|every))?|given|assuming|budget\s+of|limit\s+of|out\s+of|capacity\s+of|only\s+have|has\s+only)"
    r"|(?:gpus?|cards?|devices?|nodes?|§)\s+with)\s*(?:an?\s+|the\s+|only\s+|just\s+)?$",
    re.IGNORECASE,
)
_SUM_LEAD = re.compile(
    r"\b(?:plus|including|together\s+with|combined\s+with|on\s+top\s+of|with|adding)\s+(?:the\s+|its\s+|their\s+|all\s+)?"
    r"(?:kv[- ]?cache|cache|weights|activations?|optimi[sz]er\s+states?|gradients|grads)\b[^,;]{0,30}"
    r"\b(?:it'?s|that'?s|it\s+is|that\s+is|we'?re\s+at|comes?\s+to|gives?|makes?|totals?|total|so|becomes?|is|are|needs?|takes?)\b[^,;]*$",
    re.IGNORECASE,
)
_CAPACITY_AFTER = re.compile(r"^\s*(?:of\s+(?:hbm\d?e?|vram|memory)\s+)?(?:gpus?|cards?|devices?|nodes?|boxes|machines|accelerators?)\b", re.IGNORECASE)
_CAPACITY_LEAD = re.compile(r"(?:§|\bgpus?|\bnodes?|\bcards?)\s*\(\s*$|\bfit(?:s|ting)?\s+(?:in|into|on|onto)\b[^=]{0,40}\(\s*$", re.IGNORECASE)
_OPERATOR_AFTER = re.compile(r"^\s*(?:[×x*·/+]\s*[\d(§a-z]|=)", re.IGNORECASE)
_OPERATOR_BEFORE = re.compile(r"(?:[×*·/+]|\bx)\s*$")
_RESULT_BEFORE = re.compile(r"(?:=|≈|~=|→)\s*(?:about\s+|~\s*)?$")


def _is_operand(parsed: ParsedSentence, mention: Mention) -> bool:
    """A number inside arithmetic ("2 × 32 × 2 bytes = ..."), not the result after "="."""
    after = parsed.masked[mention.end:mention.end + 12]
    before = parsed.masked[max(0, mention.start - 6):mention.start]
    if _RESULT_BEFORE.search(before) and not _OPERATOR_AFTER.match(after):
        return False
    return bool(_OPERATOR_AFTER.match(after) or _OPERATOR_BEFORE.search(before))


@lru_cache(maxsize=8192)
def _cue_in(name: str, text: str) -> bool:
    """Whether ``text`` holds a cue for ``name`` (cached: every number of a sentence asks the same)."""
    return CUES[name].search(text) is not None


def _cue_distance(name: str, parsed: ParsedSentence, mention: Mention) -> int | None:
    """Characters from the mention to the nearest cue; cues in the same clause come first."""
    best = None
    clause_start, clause_end = parsed.clauses[mention.clause]
    for m in CUES[name].finditer(parsed.text):
        distance = min(abs(m.start() - mention.end), abs(mention.start - m.end()))
        if not (clause_start <= m.start() < clause_end):
            distance += 10_000
        if best is None or distance < best:
            best = distance
    return best


def _entities(parsed: ParsedSentence, kind: str, clause: int | None = None) -> list:
    found = [e for e in parsed.entities if e.kind == kind]
    if clause is not None:
        start, end = parsed.clauses[clause]
        found = [e for e in found if start <= e.start < end]
    return found


def _has_preset(parsed: ParsedSentence, clause: int | None = None) -> bool:
    return any(e.variants for e in _entities(parsed, "model", clause))


def _others(parsed: ParsedSentence, mention: Mention, *dims: str, roles: tuple[str, ...] = ()) -> list[Mention]:
    return [m for m in parsed.mentions if m is not mention and (m.dim in dims or (m.role in roles))]


def _lead(parsed: ParsedSentence, mention: Mention) -> str:
    start = parsed.clauses[mention.clause][0]
    return parsed.masked[max(start, mention.start - 30):mention.start]


def _nearest(parsed: ParsedSentence, mention: Mention, names: list[str]) -> str | None:
    """The topic whose cue is nearest to the mention (same clause first); ties go to list order."""
    best_name, best_distance = None, None
    for name in names:
        distance = _cue_distance(name, parsed, mention)
        if distance is None:
            continue
        if best_distance is None or distance < best_distance:
            best_name, best_distance = name, distance
    if best_name is None and names:
        return names[0]  # the cue is in the clause before the semicolon
    return best_name


def classify(parsed: ParsedSentence, mention: Mention) -> Topic | None:
    """The topic a mention is a claim about, or None if it is an input (or about nothing we check)."""
    topic_id = _classify(parsed, mention)
    return TOPICS[topic_id] if topic_id else None


_SETUP = re.compile(
    r"\s*(?:so\s+|and\s+|now\s+)?(?:we\s+have|we've\s+got|we\s+get\s+to\s+use|there\s+(?:are|is)|there's|given|assume|assuming|suppose|say|let's\s+say|let's\s+assume|let's\s+take|if\s+we\s+have|imagine|take)\b",
    re.IGNORECASE,
)
def _in_setup_opening(parsed: ParsedSentence, mention: Mention) -> bool:
    """In "We have 8 GPUs and 20 GB of gradients", before any verb that asserts something."""
    if not _SETUP.match(parsed.masked):
        return False
    verb = _CLAIM_VERB.search(parsed.masked, 0, mention.start)
    return verb is None


_CLAIMABLE_DIMS = frozenset({
    "bytes", "bytes_per_param", "s_per_token", "tokens_per_s", "seconds", "FLOPs", "flops?", "FLOP/s", "bytes/s",
    "fraction", "count", "tokens_per_param", "tokens", "parameters",
})
_CLAIM_VERB = re.compile(r"\b(?:is|are|was|be|takes?|needs?|requires?|gives?|gets?|comes?\s+to|costs?|means?|that's|so|which)\b|[=≈→]", re.IGNORECASE)
_ATTACHED = re.compile(r"^\s*(?:of|for|in)\s+(?:the\s+|its\s+|their\s+|all\s+)?(?P<what>[^,;.()=]{1,60})", re.IGNORECASE)


def _attached_topic(parsed: ParsedSentence, mention: Mention) -> str | None:
    """What "13.5 GB of weights" or "80 GB for weights, grads and optimizer states" says the bytes are."""
    m = _ATTACHED.match(parsed.masked[mention.end:mention.end + 70])
    if not m:
        return None
    what = re.split(r"\d|\b(?:plus|with|so|which|while|but|whereas|then|per|because|since)\b", m.group("what"), maxsplit=1, flags=re.IGNORECASE)[0]
    if re.search(r"\bkv\b|\bcache\b|key[- /]value", what, re.I):
        return "kv-cache"
    if re.search(r"\bactivation", what, re.I):
        return "activations"
    if CUES["model-states"].search(what) or re.search(r"\bgrad(?:ient)?s\b|\bstates?\b", what, re.I):
        return "model-states"
    if re.match(r"(?:[\w§-]+\s+){0,2}(?:weights|params|parameters)\b", what, re.I):
        return "weights"
    return None


def _classify(parsed: ParsedSentence, mention: Mention) -> str | None:  # noqa: C901 - one rule per dimension
    text = f"{parsed.cue_prefix} {parsed.text}" if parsed.cue_prefix else parsed.text
    dim = mention.dim
    lead = _lead(parsed, mention)
    has_gpu = bool(_entities(parsed, "gpu"))
    if mention.role in ("gpu_memory", "mfu"):
        return None
    if dim not in _CLAIMABLE_DIMS or parsed.is_question:
        return None  # a bare number, or a question ("7B at 1000 tokens/s on an H100?"), asserts nothing
    if _is_operand(parsed, mention):
        return None  # "7B × 2 bytes = 14 GB": only the result is a claim
    if _SETUP.match(parsed.masked, parsed.clauses[mention.clause][0]) or _in_setup_opening(parsed, mention):
        return None  # "We have 8 GPUs and 20 GB of gradients": the set-up, not a claim

    if dim == "bytes" and mention.value <= 64 and re.fullmatch(r"\s*-?(?:bytes?|B)", mention.unit_text or "") and mention.low is None:
        dim = "bytes_per_param"  # "16 bytes each": nobody claims a 16-byte model; it is per parameter

    if dim == "bytes" and "total" in mention.markers and len(_others(parsed, mention, "bytes")) >= 2:
        return None  # "14 GB + 2 GB, so 16 GB total": a sum of other claims
    if dim == "bytes" and _SUM_LEAD.search(parsed.masked[parsed.clauses[mention.clause][0]:mention.start]) and sum(
        1 for name in _BYTES_PRIORITY if _cue_in(name, text)
    ) >= 2:
        return None  # "with the KV cache it's 16 GB": weights + KV, a sum we do not check

    if dim == "bytes":
        if _cue_in("allreduce", text):
            earlier_bytes = [m for m in parsed.mentions if m.dim == "bytes" and m.end <= mention.start]
            result = _RESULT_BEFORE.search(parsed.masked[max(0, mention.start - 6):mention.start]) or "per_gpu" in mention.markers
            return "allreduce-bytes" if "sent" in mention.markers or (result and earlier_bytes) else None
        if "bandwidth" in mention.unit_text.lower():
            return None
        wide_lead = parsed.masked[max(0, mention.start - 60):mention.start]
        if _BYTES_INPUT_LEAD.search(lead) or _CAPACITY_LEAD.search(wide_lead) or _CAPACITY_AFTER.match(parsed.masked[mention.end:mention.end + 30]):
            return None  # "fits in 80 GB", "8 H100s (640 GB)": a capacity, not a claim
        attached = _attached_topic(parsed, mention)
        if attached is not None:
            return attached
        clause_text = parsed.clause_text(mention.clause)
        candidates = [name for name in _BYTES_PRIORITY if _cue_in(name, text)]
        in_clause = [name for name in candidates if _cue_in(name, clause_text)]
        if in_clause:
            return in_clause[0]
        clause_gpus = _entities(parsed, "gpu", mention.clause)
        clause_models = _entities(parsed, "model", mention.clause) or [m for m in _others(parsed, mention, "parameters") if m.clause == mention.clause]
        if clause_gpus and _cue_in("gpu-memory", clause_text) and not clause_models:
            return "gpu-memory"  # "Each H100 has 80 GB, so ...": the GPU's memory
        if candidates:
            nearest = _nearest(parsed, mention, candidates)
            if nearest != "weights" or clause_models or _entities(parsed, "dtype", mention.clause):
                return nearest
            return None  # a "weights" cue elsewhere does not make every size in the sentence a weight size
        if has_gpu and _cue_in("gpu-memory", text) and not _entities(parsed, "model") and not _others(parsed, mention, "parameters"):
            return "gpu-memory"
        # "a 7B model in fp16 needs 14 GB": params (or a model) and a dtype say it is the weights.
        if (_entities(parsed, "model") or _others(parsed, mention, "parameters")) and _entities(parsed, "dtype"):
            if clause_models or _entities(parsed, "dtype", mention.clause):
                return "weights"
        return None

    if dim == "bytes_per_param":
        attached = _attached_topic(parsed, mention)
        if attached == "weights":
            return "weights-per-param"  # "2 bytes for weights" in a breakdown of the 16
        if attached == "kv-cache":
            return None
        if _cue_in("model-states", text):
            return "model-states-per-param"
        if _entities(parsed, "dtype"):
            return "weights-per-param"
        return None

    if dim in ("s_per_token", "tokens_per_s"):
        if re.search(r"\b(?:target|slo|budget)\s*(?:of\s+)?(?:an?\s+)?$", lead, re.I):
            return None
        if _cue_in("prefill", text) and not _cue_in("decode", parsed.clause_text(mention.clause)) and dim == "tokens_per_s":
            return None
        return "decode"

    if dim == "seconds":
        if _others(parsed, mention, "req_per_s") or _cue_in("littles-law", text):
            return None  # Little's law: the latency is an input
        if re.search(r"\b(?:slo|target|budget|deadline)\s*(?:of\s+)?$", lead, re.I):
            return None
        if mention.value >= 3600 and re.search(r"\b(?:for|over)\s+(?:about\s+|~\s*|roughly\s+)?$", lead, re.I):
            return None  # "8 H100s for 2 weeks": a time budget
        names = [name for name in ("prefill", "decode", "allreduce", "time-to-train") if _cue_in(name, text)]
        gpu_nearby = has_gpu or bool(find_gpus(parsed.cue_prefix))
        mfu_given = any(m.role == "mfu" for m in parsed.mentions)
        if not names and (gpu_nearby or mfu_given) and (mention.value >= 3600 or _others(parsed, mention, "FLOPs", "flops?")):
            return "time-to-train"  # "on 8 A100s at 40% MFU that's about 139 days"
        if not names:
            return None
        return _nearest(parsed, mention, names)

    if dim in ("FLOPs", "flops?"):
        is_rate_like = dim == "flops?" and mention.value < 1e18 and has_gpu
        names = [name for name in ("chinchilla", "forward-flops", "train-flops") if _cue_in(name, text)]
        if is_rate_like and (not names or _cue_in("peak-flops", parsed.clause_text(mention.clause))) and not _others(parsed, mention, "tokens", "parameters"):
            return "peak-flops"
        work_given = _others(parsed, mention, "parameters") or _entities(parsed, "model")
        if not (work_given and _others(parsed, mention, "tokens")) and any(
            _classify(parsed, m) == "time-to-train" for m in _others(parsed, mention, "seconds")
        ):
            return None  # "1.2e22 FLOPs on 8 A100s takes 139 days": the FLOPs are the input
        if re.search(r"\b(?:budget\s+of|given|with|have|for|spend(?:ing)?|from)\s*(?:an?\s+|the\s+)?(?:about\s+|~)?$", lead, re.I):
            return None
        if re.match(r"\s*(?:of\s+)?(?:compute\s+|training\s+)?budget\b", parsed.masked[mention.end:mention.end + 30], re.I):
            return None  # "a 1e23 FLOP budget": the input
        if not names:
            return None
        if "chinchilla" in names and (_others(parsed, mention, "parameters") or _entities(parsed, "model")):
            token_inputs = [m for m in _others(parsed, mention, "tokens") if _classify(parsed, m) is None]
            return "train-flops" if token_inputs else "chinchilla-flops"
        names = [n for n in names if n != "chinchilla"]
        if not names:
            return None
        return _nearest(parsed, mention, names)

    if dim == "FLOP/s":
        if has_gpu and not _INPUT_LEAD.search(lead) and not _others(parsed, mention, "seconds"):
            return "peak-flops"
        return None

    if dim == "bytes/s":
        if _cue_in("allreduce", text) or _INPUT_LEAD.search(lead):
            return None
        if has_gpu and _cue_in("bandwidth", text):
            return "bandwidth"
        return None

    if dim == "fraction":
        if _cue_in("bubble", text) and (
            _others(parsed, mention, roles=("stages", "microbatches")) or re.search(r"\bbubble\b", text, re.I)
        ):
            return "bubble"
        return None

    if dim == "count":
        if _others(parsed, mention, "req_per_s") or _cue_in("littles-law", text):
            return "littles-law"
        return None

    if dim == "tokens_per_param":
        return "chinchilla-ratio" if _cue_in("chinchilla", text) else None

    if dim == "tokens":
        if not _cue_in("chinchilla", text):
            return None
        inputs = _others(parsed, mention, "parameters", "FLOPs", "flops?")
        if not inputs and not _entities(parsed, "model"):
            return None
        earlier_inputs = [m for m in inputs if m.start < mention.start]
        if not earlier_inputs and not _entities(parsed, "model") and _INPUT_LEAD.search(lead):
            return None
        return "chinchilla-tokens"

    if dim == "parameters":
        if _cue_in("chinchilla", text):
            compute = _others(parsed, mention, "FLOPs", "flops?")
            if compute and any(m.start < mention.start for m in compute):
                return "chinchilla-params"
        named = _has_preset(parsed, mention.clause) or any(e.params for e in _entities(parsed, "model", mention.clause))
        if named and not re.search(r"\bfor\s+(?:an?\s+)?$", lead, re.I):
            return "params"
        dims_given = {m.role for m in parsed.mentions} >= {"layers", "hidden"}
        if dims_given and _CLAIM_LEAD.search(lead):
            return "params"
        return None
    return None
