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
    other_scope: str = ""
    """A regex of words that put a number of this topic in a scope or component its evaluator does
    not compute ("momentum and variance together", "per layer", "across the fleet", "all day"): a
    disagreement found there is a question for the candidate, not an error (see ``checker``)."""


TOPICS: dict[str, Topic] = {
    topic.id: topic
    for topic in (
        Topic("kv-cache", "KV cache size", "kv-cache",
              r"%|\bpercent\b|\bper-token\b|\b(?:cache|kv)\s+per\s+layer\b|\bper[- ]layer\s+(?:cache|kv|size)\b"
              r"|\b(?:left|leaves|remaining|headroom|spare|subtract\w*|minus)\b"),
        Topic("activations", "activation memory", "activations", r"\bper[- ]layer\b|\b(?:one|each|a\s+single)\s+layer\b"
              r"|\bboundar(?:y|ies)\b|\bbetween\s+stages\b|\bp2p\b|\bpoint[- ]to[- ]point\b|\bsend(?:s|ing)?\b|\bhidden\s+states?\b"),
        Topic("model-states", "model-state memory", "model-states", r"\b(?:momentum|variance|moments?|master\s+(?:copy|weights)|optimi[sz]er\s+states?|adam\s+states?)\b(?:\s+\w+){0,2}\s+(?:alone|only|together|are|is|take|takes|need|needs|cost|costs)\b|\b(?:alone|only)\b|\b(?:free|left|remaining|headroom|spare)\b|\bcheckpoints?\b"),
        Topic("model-states-per-param", "model-state bytes per parameter", "model-states"),
        Topic("weights", "weight memory", None, r"\bfleet\b|\breplicas\b|\bin\s+total\b|\bfree\b|\bleft\b|\bremaining\b|\bafter\s+the\b"),
        Topic("weights-per-param", "bytes per parameter", None),
        Topic("gpu-memory", "GPU memory", None),
        Topic("decode", "decode time per token", "decode-latency"),
        Topic("prefill", "prefill time", "prefill-latency"),
        Topic("allreduce", "all-reduce time", "allreduce"),
        Topic("allreduce-bytes", "bytes sent per GPU in a ring all-reduce", "allreduce"),
        Topic("time-to-train", "time to train", "time-to-train"),
        Topic("train-flops", "training compute", "train-flops"),
        Topic("forward-flops", "forward-pass FLOPs", "forward-flops"),
        Topic("attention-flops", "attention FLOPs (QKᵀ and AV)", None),
        Topic("attention-scores", "attention score matrix memory", None, r"\bflash\s*attention\b|\bfused\b|\btiles?\b|\bblocks?\b"),
        Topic("chinchilla-tokens", "tokens (compute-optimal)", "chinchilla", r"\btokens?\s+per\s+param\w*|\b(?:we\s+have|corpus|dataset|data\s+set|available|unique)\b"),
        Topic("chinchilla-params", "parameters (compute-optimal)", "chinchilla"),
        Topic("chinchilla-flops", "training compute (compute-optimal)", "chinchilla"),
        Topic("chinchilla-ratio", "tokens per parameter (compute-optimal)", "chinchilla"),
        Topic("bubble", "pipeline bubble", "bubble"),
        Topic("littles-law", "concurrent requests", "littles-law", r"\ball\s+day\b|\bper\s+(?:day|hour|month|week)\b|\ba\s+day\b|\bdaily\b|\bin\s+total\b|\bover\s+(?:a|the)\s+(?:day|hour|month)\b"),
        Topic("token-rate", "tokens per second (request rate × tokens per request)", None),
        Topic("params", "parameter count", "params"),
        Topic("peak-flops", "peak FLOP/s (dense)", None),
        Topic("bandwidth", "memory bandwidth", None),
    )
}


def _cue(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


CUES: dict[str, re.Pattern] = {
    "kv-cache": _cue(r"\bkv[- ]?cache|\bkv\b|\bkey[- /]value\b|(?<!\bl1\s)(?<!\bl2\s)(?<!\bl3\s)(?<!prefix\s)(?<!cpu\s)(?<!page\s)\bcache\b(?!\s+(?:hit|miss|line))"),
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
    "forward-flops": _cue(r"\bforward\b|\bfwd\b|\bper\s+(?:generated\s+|output\s+|new\s+|decoded\s+)?token\b|\bgenerating\s+(?:one|a|each)\s+token\b|\binference\b|\bsingle\s+pass\b|\bone\s+pass\b|\bprefill\b|\b2\s?[·*x×]?\s?n\b"),
    "attention-flops": _cue(r"\bqk(?:ᵀ|\^?t)?\b|\bq\s?k\s?(?:ᵀ|\^t)|\bav\s+matmul|\battention\s+(?:scores?|matmuls?|flops)|\bscores?\s+matmul"),
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
_CAPACITY_AFTER = re.compile(
    r"^\s*(?:of\s+(?:hbm\d?e?|vram|memory)\s+)?(?:(?:hbm\d?e?|vram)\s+)?(?:gpus?|cards?|devices?|nodes?|boxes|machines|accelerators?|parts|chips?|boards?|skus?|gpu\s+variants?)\b"
    r"|^\s*of\s+(?:(?:free|spare|remaining|available|leftover|unused|usable|cpu|host|system)\s+(?:memory|ram|dram|hbm\d?e?|vram|space|capacity|headroom)"
    r"|(?:cpu\s+|host\s+|system\s+|local\s+)?(?:ram|dram|nvme|disk|storage))\b(?!\s+(?:traffic|reads?|bandwidth))",
    re.IGNORECASE,
)
_CAPACITY_LEAD = re.compile(r"(?:§|\bgpus?|\bnodes?|\bcards?)\s*\(\s*$|\bfit(?:s|ting)?\s+(?:in|into|on|onto)\b[^=]{0,40}\(\s*$", re.IGNORECASE)
_OPERATOR_AFTER = re.compile(r"^\s*(?:[×x*·/+−]\s*[\d(§a-z]|-\s+[\d(]|=)", re.IGNORECASE)
_OPERATOR_BEFORE = re.compile(r"(?:[×*·/+−]|\bx|\s-)\s*$")
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
    text = re.sub(r"\([^()]{0,300}\)", lambda g: g.group(0) if g.start() <= mention.start < g.end() else " " * len(g.group(0)), parsed.text)
    for m in CUES[name].finditer(text):
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


_MORE_STATES_AFTER = re.compile(
    r"[^.;]{0,40}?\bweights?\b[^.;]{0,30}?(?:\+|\band\b|\bplus\b|,|&)\s*(?:the\s+|two\s+|both\s+|its\s+)?(?:adam\s+|fp32\s+)?"
    r"(?:m\b|moments?\b|momentum\b|variances?\b|grad(?:ient)?s?\b|master\b|optimi[sz]er\b)",
    re.IGNORECASE,
)


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


def _header_topic(parsed: ParsedSentence, mention: Mention) -> str | None:
    """In a table, what the column's header says its numbers are ("model states per GPU")."""
    header = parsed.header_of(mention.start)
    if not header:
        return None
    for name in _BYTES_PRIORITY:
        if CUES[name].search(header):
            return name
    return None


def _attached_topic(parsed: ParsedSentence, mention: Mention) -> str | None:
    """What "13.5 GB of weights" or "80 GB for weights, grads and optimizer states" says the bytes are."""
    m = _ATTACHED.match(parsed.masked[mention.end:mention.end + 70])
    if not m:
        return None
    what = re.split(r"\d|\b(?:plus|with|so|which|while|but|whereas|then|per|because|since)\b|\band\s+(?:you|we|i|it|that|this|there)\b", m.group("what"), maxsplit=1, flags=re.IGNORECASE)[0]
    if re.match(r"\s*(?:[a-z§-]+\s+){0,2}(?:weights|params|parameters)\s*,\s*(?:(?:the|its|their|bf16|fp16|fp32|16-bit|32-bit|§+)\s+){0,2}(?:grad(?:ient)?s|optimi[sz]er|adam|moments?|master)\b",
                parsed.masked[mention.end + m.start("what"):mention.end + 110], re.I):
        return "model-states"  # "9.6 GB of weights, gradients and Adam states": a list of the model states
    if re.search(r"\bkv\b|\bcache\b|key[- /]value", what, re.I):
        return "kv-cache"
    if re.search(r"\bactivation", what, re.I):
        return "activations"
    if re.match(r"(?:[\w§-]+\s+){0,2}grad(?:ient)?s\b\s*$", what.strip() + " ", re.I) and not CUES["model-states"].search(what):
        return "weights"  # "2 GB of bf16 gradients": the gradients alone, params × their dtype
    if CUES["model-states"].search(what) or re.search(r"\bgrad(?:ient)?s\b|\bstates?\b", what, re.I):
        return "model-states"
    if re.match(r"(?:[\w§-]+\s+){0,2}(?:weights|params|parameters)\b", what, re.I):
        return "weights"
    return None


_NEGATION = re.compile(r"\b(?:can'?t|cannot|can\s+not|won'?t|isn'?t|aren'?t|wasn'?t|doesn'?t|don'?t|never|not|no\s+way)\b", re.IGNORECASE)
_QUALIFIER_WORDS = re.compile(r"(?:\s*(?:about|around|roughly|approximately|approx\.?|only|just|nearly|almost|some|~|≈|≃))+\s*$", re.IGNORECASE)
_REMAINDER_LEAD = re.compile(
    r"\b(?:leaves?|leaving|left(?:\s+over)?|remaining|remains|free|available|headroom|spare|(?:i|we|you)\s+(?:have|get|keep)|there'?s|budget(?:\s+of)?|reserve[sd]?)\b[^,;=]{0,30}$",
    re.IGNORECASE,
)
_CLAUSE_INPUT_LEAD = re.compile(r"^[\s(]*(?:for|with|given|assuming|take|taking|suppose|if)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)
_SENDS = re.compile(r"\b(?:ships?|shipp(?:ed|ing)|sends?|sending|sent|exchang\w*|transfer\w*|transmit\w*|moves?|moving|receives?|crosses|cross)\b|\bper\s+direction\b", re.IGNORECASE)
_READS = re.compile(r"\b(?:reads?|reading|loads?|loading|streams?|streaming|fetch(?:es)?|fetching)\b", re.IGNORECASE)
_ALSO_AFTER = re.compile(
    r"^[^,;.]{0,40}?\b(?:if\s+(?:you|we)\s+also|also|plus|on\s+top|including|together\s+with|(?:with|w/)\s*(?:the\s+|a\s+|an\s+|its\s+)?(?:§+\s+)?(?:weights?|copy|kv|cache|activations|gradients|grads|optimi[sz]er))\b",
    re.IGNORECASE,
)
_ACHIEVED = re.compile(r"\b(?:reach\w*|achiev\w*|sustain\w*|attain\w*|measured|hits?|hitting|realis\w*|realiz\w*|in\s+practice|utili[sz]\w*|results?|reported|observed|got|gets|of\s+peak)\b|%\s+of\s+(?:the\s+)?peak", re.IGNORECASE)
_ON_CHIP = re.compile(r"\bsram\b|\bon-?chip\b|\bl2\b|\bl1\b|\bshared\s+memory\b|\bsmem\b|\bregisters?\b", re.IGNORECASE)
_PER_COEFFICIENT = re.compile(r"^\s*(?:per|/|a|for\s+each|each)\s*(?:weight|param(?:eter)?|multiply[- ](?:add|accumulate)|mac|fma|madd)s?\b", re.IGNORECASE)
_CONSEQUENCE = re.compile(r"^[\s(]*(?:so|thus|hence|therefore|which\s+(?:is|means|gives)|that'?s|that\s+is|this\s+is|giving|i\.e\.?|→|=>|=|≈)", re.IGNORECASE)
_TRAINING_RATE = re.compile(r"\b(?:train\w*|consum\w*|eats?|loader|data\s*loader|ingest\w*|mfu|node|cluster)\b", re.IGNORECASE)
_AGGREGATE_RATE = re.compile(r"\b(?:demand|aggregate|total|overall|fleet|cluster|across|of\s+decode|at\s+peak|replicas?|per\s+replica|load)\b", re.IGNORECASE)
_DECODE_CONTEXT = re.compile(
    r"\bdecod|\bgenerat|\bmemory[- ]bound|\bbandwidth\b|\bweights?\b|\bfloor\b|\btpot\b|\binter[- ]token|\bper\s+(?:user|stream|sequence|request)\b|\bhbm\b|\bbatch\b|\bspeculative\b",
    re.IGNORECASE,
)
_SCORE_MATRIX = re.compile(r"\b(?:attention\s+|score\s+|scores\s+|qk(?:ᵀ|\^?t)?\s+|softmax\s+)(?:score\s+)?(?:matri(?:x|ces)|tensors?)\b|\battention\s+scores?\b(?!\s+(?:matmul|flops))", re.IGNORECASE)


_REQUIRED_LEAD = re.compile(r"\b(?:need|needs|require[sd]?|must\s+(?:serve|handle|sustain|deliver)|have\s+to\s+(?:serve|handle)|target(?:ing)?|demand(?:s|ing)?|want|peak\s+(?:of|is|at)|at\s+peak)\b[^,;]{0,20}$", re.I)


def _training_step(parsed: ParsedSentence) -> bool:
    """"A step is 6 × 70B × 4.2M tokens ≈ 1.76e18 FLOPs ... so ~110 s per step": 6·N·D, or millions of
    tokens in one step ("a 2M-token batch"), make it a training step, not a decode step."""
    return bool(re.search(r"\b6\s*[×x*·]\s*\d|\b6\s*·?\s*N\b", parsed.masked)) or any(
        m.value >= 1e5 and (m.dim == "tokens" or m.role in ("tokens", "seq", "batch")) for m in parsed.mentions)


_DEADLINE_LEAD = re.compile(r"\b(?:to|must|should|has\s+to|have\s+to|needs?\s+to|want\s+to)\s+(?:finish|train|complete|be\s+done|converge|wrap\s+up|get\s+through|do|process|hit)\b[^.;]{0,60}?\b(?:within|in|under|by)\s+(?:about\s+|~\s*)?$", re.IGNORECASE)
_FLEET_SIZING = re.compile(r"\b(?:need|needs|needed|require[sd]?)\b[^.;]{0,30}?\b\d[\d,.]*\s*(?:more\s+)?(?:gpus|cards|replicas|nodes|servers|instances|a100s|h100s|a10gs|l4s)\b|\bpeak\b", re.IGNORECASE)


_CARD_RATE_LEAD = re.compile(
    r"\b(?:each|one|a\s+single|every|per|a)\s+(?:gpu|card|replica|server|node|instance|box|pod|§+)(?!\w)[^.;\d]{0,25}?"
    r"\b(?:sustains?|handles?|serves?|does|delivers?|pushes|manages?|gets|can\s+(?:do|push|serve|handle|sustain))\s+(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)
_PER_TOKEN_WORDS = re.compile(r"\bper\s+(?:output\s+|generated\s+|new\s+)?token\b|/\s?token\b|\b(?:each|every|a|one)\s+(?:new\s+|output\s+)?token\b|\b(?:per|each|every|a|one)\s+(?:decode\s+|decoding\s+)?step\b|\bstep\s+time\b|\btpot\b|\binter[- ]token\b|\bitl\b", re.IGNORECASE)
_TARGET_WORDS = re.compile(r"\b(?:slo|slos|target|budget|deadline|requirement|p\d{2}(?:\.\d)?|must|should|goal|cap(?:ped)?|limit|max(?:imum)?|wait|timeout|interval|window)\b", re.IGNORECASE)
_STAYS_UNDER = re.compile(r"\b(?:stays?|remains?|comes?\s+in|finish(?:es)?|completes?|runs?|lands?|fits?)\s+(?:well\s+|comfortably\s+|easily\s+)?(?:under|below|within)\s*$", re.IGNORECASE)
_OBLIGATION = re.compile(r"\b(?:must|should|needs?\s+to|has\s+to|have\s+to|required\s+to|want\s+(?:it\s+)?to)\b", re.IGNORECASE)
_REPLY_OF_TOKENS = re.compile(
    r"\b\d[\d,]*\s*-?\s*(?:tokens?|tok)\s+(?:\w+\s+)?(?:reply|replies|response|responses|answer|completion|output|generation)s?\b"
    r"|\b(?:reply|response|answer|completion|output)\s+of\s+\d[\d,]*\s*tokens?\b",
    re.IGNORECASE,
)
_NOUN_AFTER_TIME = re.compile(r"^[\s-]*(?:p\d{2}\s+)?(?:ttft|tpot|slo|budget|target|deadline|timeout|window|max(?:imum)?\s+wait|wait|interval|stall|pause|poll)\b", re.IGNORECASE)


_EXCLUDING = re.compile(r"\b(?:before|without|excluding|except|not\s+counting|ignoring|room\s+for|plus|on\s+top\s+of|besides|in\s+addition\s+to|apart\s+from|next\s+to)\s+(?:the\s+|any\s+|its\s+)?(?:\w+\s+)?$", re.IGNORECASE)


def _excluded_cue(name: str, parsed: ParsedSentence, mention: Mention, clause_only: bool = False) -> bool:
    """Whether every cue for ``name`` names what the number leaves out ("112 GB before activations",
    "15 GB, leaving room for activations"): such a cue comes after the number."""
    start, end = parsed.clauses[mention.clause] if clause_only else (0, len(parsed.text))
    matches = list(CUES[name].finditer(parsed.text, start, end))
    return bool(matches) and all(
        m.start() > mention.start and _EXCLUDING.search(parsed.text[max(0, m.start() - 30):m.start()]) for m in matches
    )


def _gpu_right_before(parsed: ParsedSentence, mention: Mention) -> bool:
    """"the A100's 40 GB": a GPU named right before the number, in the possessive."""
    for e in parsed.entities:
        if e.kind == "gpu" and 0 <= mention.start - e.end <= 12:
            between = parsed.text[e.end:mention.start]
            if (e.text.endswith("'s") or between.lstrip().startswith("'s")) and not re.search(r"[,;:]|\d", between):
                return True
    return False


def _paren_owner(parsed: ParsedSentence, mention: Mention) -> str:
    """For a number inside parentheses, the words just before them: what "(≈20 MB, ≈19 TB/s)" describes."""
    depth = 0
    for index in range(mention.start - 1, -1, -1):
        char = parsed.masked[index]
        if char == ")":
            depth += 1
        elif char == "(":
            if depth == 0:
                return parsed.text[max(0, index - 40):index]
            depth -= 1
    return ""


def _clause_before(parsed: ParsedSentence, mention: Mention) -> str:
    start = parsed.clauses[mention.clause][0]
    return parsed.masked[start:mention.start]


def _clause_after(parsed: ParsedSentence, mention: Mention) -> str:
    end = parsed.clauses[mention.clause][1]
    return parsed.masked[mention.end:end]


def _bare_lead(parsed: ParsedSentence, mention: Mention) -> str:
    """The clause text before the number without hedges ("on about 15T" → "on")."""
    return _QUALIFIER_WORDS.sub("", _lead(parsed, mention))


def _quoted(parsed: ParsedSentence, mention: Mention) -> bool:
    """Inside quotation marks: a quoted statement (often a misconception being corrected), not an assertion.
    (A closing quote after the full stop starts the next piece, so an unclosed opening quote counts.)"""
    before = parsed.text[:mention.start]
    straight = before.count('"') % 2 == 1
    curly = before.rfind("“") > before.rfind("”")
    return straight or curly


def _attributive(mention: Mention) -> bool:
    """A hyphenated size that describes a noun ("2-byte gradients", "the 18-byte convention", "a 100-ms budget")."""
    return re.search(r"\d-[A-Za-z]", mention.text) is not None and mention.dim in ("bytes", "seconds", "bytes_per_param")


def _negated(parsed: ParsedSentence, mention: Mention) -> bool:
    return _NEGATION.search(_clause_before(parsed, mention)) is not None


def _cue_before(name: str, parsed: ParsedSentence, mention: Mention, window: int = 60) -> bool:
    """A cue in the text just before the number with no other number in between ("Chinchilla's ~20 tokens per parameter")."""
    before = parsed.masked[max(0, mention.start - window):mention.start]
    text_before = parsed.text[max(0, mention.start - window):mention.start]
    for m in CUES[name].finditer(text_before):
        between = before[m.end():]
        if not re.search(r"\d", between):
            return True
    return False


def _cue_local(name: str, parsed: ParsedSentence, mention: Mention) -> bool:
    """A cue in the claim's own clause, just before it, or earlier in the sentence when the claim's
    clause follows from it ("Chinchilla wants 20 tokens per parameter, so 200B tokens")."""
    if _cue_in(name, parsed.clause_text(mention.clause)) or _cue_before(name, parsed, mention):
        return True
    clause_start = parsed.clauses[mention.clause][0]
    if _CONSEQUENCE.match(parsed.masked[clause_start:mention.start]) and CUES[name].search(parsed.text[:clause_start]):
        return True
    return False


def _named_model_in_clause(parsed: ParsedSentence, mention: Mention) -> bool:
    return bool(_entities(parsed, "model", mention.clause))


def alternatives(parsed: ParsedSentence, mention: Mention, topic_id: str) -> list[str]:
    """Other quantities the number may be about when the sentence does not pin it down.

    "Training needs 8× the fp16 weight bytes for model states (16 vs 2 bytes/param)": the 2 is the
    weights' bytes, the 16 the model states'. A claim is judged correct if any reading matches and
    never called incorrect while another reading is open.
    """
    text = _outside_parentheses(parsed, mention)
    clause = parsed.clause_text(mention.clause)
    paired = re.search(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|instead\s+of|rather\s+than|against)\b", parsed.masked, re.IGNORECASE) is not None
    if topic_id in _BYTES_PRIORITY:
        if topic_id in (_attached_topic(parsed, mention), _header_topic(parsed, mention)):
            return []
        in_clause = [name for name in _BYTES_PRIORITY if _bytes_cue(name, clause, strong=True)]
        others = [name for name in _BYTES_PRIORITY if name != topic_id and _bytes_cue(name, text, strong=True)]
        if re.search(r"\b(?:grad(?:ient)?s?|weights)\s+(?:alone|only)\b|\bonly\s+the\s+(?:grad|weights)", clause, re.IGNORECASE) and topic_id == "weights":
            return []  # "the bf16 gradients alone are about 40 GB": one component, named as such
        if topic_id == "model-states" and re.search(r"\b(?:moments?|momentum|variances?|optimi[sz]er\s+states?|adam(?:w)?\s+states?)\b", clause, re.IGNORECASE) \
                and not _attached_topic(parsed, mention) == "weights":
            others = [name for name in others if name != "weights"]  # "the fp32 master weights plus both Adam moments ... 280 GB": parts of the states, not a weight size
        if topic_id == "weights" and "model-states" not in others and re.search(r"\bcheckpoint|\bgrad(?:ient)?s?\b|\btrain", text, re.IGNORECASE):
            others.append("model-states")  # "includes gradients in the checkpoint (160 GB)": the training state, not the weights alone
        if topic_id in in_clause and len(in_clause) == 1 and not paired and not (topic_id == "weights" and "model-states" in others and not _attached_topic(parsed, mention)):
            return []
        return others
    if topic_id in ("decode", "prefill"):
        # "Prefill is compute-bound: ... 2 TFLOPs, so ~6.4 ms at A100 peak", after a sentence on decoding:
        # a time in a sentence that speaks of both phases may be either.
        other = "prefill" if topic_id == "decode" else "decode"
        return [other] if _cue_in(other, parsed.text) and _cue_in(topic_id, f"{parsed.cue_prefix} {parsed.previous_text} {parsed.text}") else []
    if topic_id in ("model-states-per-param", "weights-per-param"):
        other = "weights-per-param" if topic_id == "model-states-per-param" else "model-states-per-param"
        has_other = bool(_entities(parsed, "dtype")) if other == "weights-per-param" else _cue_in("model-states", text)
        if has_other and (paired or not (_cue_in("model-states", clause) or _entities(parsed, "dtype", mention.clause))):
            return [other]
    return []


def _outside_parentheses(parsed: ParsedSentence, mention: Mention) -> str:
    """The sentence without parenthetical asides that do not hold the number: "(2 weights + 2 gradients
    + 12 fp32 master)" is a breakdown, and its words say nothing about the total after it."""
    text = f"{parsed.cue_prefix} {parsed.text}" if parsed.cue_prefix else parsed.text
    offset = len(parsed.cue_prefix) + 1 if parsed.cue_prefix else 0
    position = mention.start + offset

    def blank(m: re.Match) -> str:
        return m.group(0) if m.start() <= position < m.end() else " " * len(m.group(0))

    return re.sub(r"\([^()]{0,300}\)", blank, text)


def _bytes_cue(name: str, text: str, strong: bool = False) -> bool:
    """A cue for a memory quantity; for weights a dtype alone is weak ("in bf16" sizes many things), and
    a strong cue is the word itself (not "gradients", which model states include too)."""
    if name != "weights":
        return _cue_in(name, text)
    if strong:
        return re.search(r"\bweights?\b|\bmodel\s+size\b|\binference\b|\bserv(?:e|ing)\b|\bquantiz|\bon\s+disk\b|\bfootprint\b", text, re.IGNORECASE) is not None
    return _cue_in(name, text)


def _classify(parsed: ParsedSentence, mention: Mention) -> str | None:  # one rule per dimension
    text = f"{parsed.cue_prefix} {parsed.text}" if parsed.cue_prefix else parsed.text
    dim = mention.dim
    lead = _lead(parsed, mention)
    bare_lead = _bare_lead(parsed, mention)
    clause_text = parsed.clause_text(mention.clause)
    has_gpu = bool(_entities(parsed, "gpu"))
    if mention.role in ("gpu_memory", "mfu"):
        return None
    if dim not in _CLAIMABLE_DIMS or parsed.is_question:
        return None  # a bare number, or a question ("7B at 1000 tokens/s on an H100?"), asserts nothing
    if _is_operand(parsed, mention):
        return None  # "7B × 2 bytes = 14 GB": only the result is a claim
    if _SETUP.match(parsed.masked, parsed.clauses[mention.clause][0]) or _in_setup_opening(parsed, mention):
        return None  # "We have 8 GPUs and 20 GB of gradients": the set-up, not a claim
    if re.search(r"(?<![\d.\s])\s*(?<![\d.])(?:\b[kKMGTP]i?B|\bbytes?|\bTFLOP/?s|\bFLOPs?)\s*=\s*$", parsed.masked[max(0, mention.start - 12):mention.start]) and not re.search(
        r"\d\s*(?:[kKMGTP]i?B|bytes?|TFLOP/?s|FLOPs?)\s*=\s*$", parsed.masked[max(0, mention.start - 16):mention.start]
    ):
        return None  # "(GB = 1e9 bytes)": a unit's definition
    if re.search(r"\bwhether\b", _clause_before(parsed, mention), re.IGNORECASE):
        return None  # "I'd ask whether 100 ms is time to first token": a question, not an assertion
    if _quoted(parsed, mention) or _attributive(mention) or _negated(parsed, mention):
        return None  # a quoted myth, "the 2-byte gradients", "can't happen in 100 ms": nothing asserted
    if dim in ("bytes", "seconds") and re.search(r"\b(?:the|that|this|your|our|its|their)\s+$", parsed.masked[max(0, mention.start - 8):mention.start], re.IGNORECASE) and not re.match(
        r"\s*(?:of|for|in|per|each)\b", parsed.masked[mention.end:mention.end + 8], re.IGNORECASE
    ):
        return None  # "what the 100 ms covers", "sharding the 4 GB model": a figure referred to, not asserted

    if dim == "bytes" and mention.value <= 64 and re.fullmatch(r"\s*-?(?:bytes?|B)", mention.unit_text or "") and mention.low is None:
        dim = "bytes_per_param"  # "16 bytes each": nobody claims a 16-byte model; it is per parameter

    if dim == "bytes" and (re.match(r"\s*(?:minus|less)\b", parsed.masked[mention.end:mention.end + 10], re.I) or re.search(r"\b(?:minus|less)\s+(?:about\s+|~\s*|a\s+few\s+)?$", parsed.masked[max(0, mention.start - 14):mention.start], re.I)):
        return None  # "80 GB minus 13.5 GB of weights minus ~6 GB of overhead leaves about 60 GB": terms of a difference
    if dim == "bytes" and re.search(r"\b(?:trivial|small|tiny|negligible|nothing|little|peanuts)\s+(?:against|next\s+to|compared\s+(?:to|with)|versus|vs\.?|relative\s+to)\s+(?:the\s+|a\s+|an\s+)?(?:about\s+|~\s*)?$", lead, re.I):
        return None  # "(20 GB per node, trivial against 2 TB)": the baseline compared with, not a claim
    if dim == "bytes" and re.search(r"\d\s*[A-Za-z]*\s*[−–+]\s*(?:~|≈|about\s+)?\s*$", parsed.masked[max(0, mention.start - 20):mention.start]) and re.match(
        r"[^;=≈]{0,40}(?:=|≈|→)", parsed.masked[mention.end:mention.end + 45]
    ):
        return None  # "80 − 13.5 − ~5 GB workspace ≈ 60 GB of KV": a term of a sum, not a claim of its own
    if dim == "bytes" and "total" in mention.markers and len(_others(parsed, mention, "bytes")) >= 2:
        return None  # "14 GB + 2 GB, so 16 GB total": a sum of other claims
    if dim == "bytes" and _SUM_LEAD.search(parsed.masked[parsed.clauses[mention.clause][0]:mention.start]) and sum(
        1 for name in _BYTES_PRIORITY if _cue_in(name, text)
    ) >= 2:
        return None  # "with the KV cache it's 16 GB": weights + KV, a sum we do not check

    if dim == "bytes" and re.search(r"\bbuckets?\b|\bbucket[_ ]cap\b", clause_text, re.IGNORECASE):
        return None  # "gradient buckets (DDP default 25 MB)": a communication bucket, not a memory total
    if dim == "bytes":
        if _allreduce_context(parsed, text):
            verdict = _bytes_near_allreduce(parsed, mention, lead, clause_text)
            if verdict != "size":
                return verdict
            # "The gradients of a 7B model in bf16 are 14 GB, so the ring all-reduce ...": a size claim
        if "bandwidth" in mention.unit_text.lower():
            return None
        if _SCORE_MATRIX.search(clause_text):
            return "attention-scores"  # "one head's fp16 score matrix at 4k is 32 MiB": not the weights
        wide_lead = parsed.masked[max(0, mention.start - 60):mention.start]
        if _BYTES_INPUT_LEAD.search(lead) or _CAPACITY_LEAD.search(wide_lead) or _CAPACITY_AFTER.match(parsed.masked[mention.end:mention.end + 30]):
            return None  # "fits in 80 GB", "8 H100s (640 GB)": a capacity, not a claim
        if re.match(r"^\s*(?:by\s+default|default)\b", parsed.masked[mention.end:mention.end + 20], re.IGNORECASE):
            return None  # "buckets (25 MB by default)": a setting
        if re.match(r"^\s*(?:per|/|a|each)\s*(?:node|machine|host|server|replica|stage|shard|expert|nic)\b", parsed.masked[mention.end:mention.end + 20], re.IGNORECASE) or re.match(
                r"^\W*(?:per|each|on\s+each|for\s+each)\s+(?:node|machine|host|server)\b", parsed.masked[:mention.start], re.IGNORECASE):
            return None  # "15 GB per node": a per-node or per-shard share, which no formula here gives
        owner = re.search(r"(?:\bgpu|\bcard|\bdevice|(§+))'s\s*(?:about\s+|~\s*)?$", parsed.masked[max(0, mention.start - 20):mention.start], re.IGNORECASE)
        if (owner and owner.group(1) is None) or _gpu_right_before(parsed, mention):
            return None  # "one GPU's 40 GB": a capacity
        held = _attached_topic(parsed, mention) in ("model-states", "weights", "kv-cache") and re.search(r"\bleaves?\b", _clause_before(parsed, mention), re.I) \
            and re.search(r"\bper[- ](?:gpu|device|rank)\b|\bon\s+each\b|\beach\s+(?:gpu|device|rank)\b", parsed.masked[mention.end:mention.end + 60], re.I)
        if (_REMAINDER_LEAD.search(_clause_before(parsed, mention)) and not held) or _CLAUSE_INPUT_LEAD.match(_QUALIFIER_WORDS.sub("", _clause_before(parsed, mention))):
            return None  # "leaves ≈ 60 GB for KV", "For 2 GB of gradients": what is left, or the set-up
        if mention.qualifier in ("≤", "<=", "<", "≥", ">=", ">") and re.search(r"[A-Za-zΨψΦ·)]\s*(?:≤|<=|<|≥|>=|>)\s*$", parsed.text[max(0, mention.start - 12):mention.start]):
            return None  # "16Ψ ≤ 80 GB": a constraint being solved, not a claimed size
        if _ALSO_AFTER.match(_clause_after(parsed, mention)) and _attached_topic(parsed, mention) is None:
            return None  # "≈140 GB if you also keep a bf16 copy": a total of several things
        attached = _attached_topic(parsed, mention) or _header_topic(parsed, mention)
        if _SENDS.search(clause_text if attached else text) and attached != "kv-cache" and (
            attached or not (_STRONG_WEIGHTS.search(clause_text) or any(_bytes_cue(n, clause_text, strong=True) for n in _BYTES_PRIORITY))
        ):
            return None  # bytes sent over a link (an all-to-all, a pipeline hop): not a memory size
        if attached is not None:
            return attached
        if re.search(r"\bplus\s+(?:about\s+|~\s*)?$", lead, re.IGNORECASE) and any(m.dim == "bytes" and m.end <= mention.start for m in parsed.mentions):
            return None  # "15 GB for its own shards plus 15 GB for a peer's": one addend of a total
        candidates = [name for name in _BYTES_PRIORITY if _cue_in(name, text) and not _excluded_cue(name, parsed, mention)]
        in_clause = [name for name in candidates if _cue_in(name, clause_text) and not _excluded_cue(name, parsed, mention, clause_only=True)]
        clause_models = _entities(parsed, "model", mention.clause) or [m for m in _others(parsed, mention, "parameters") if m.clause == mention.clause]
        if "weights" in in_clause and not _STRONG_WEIGHTS.search(clause_text) and not clause_models:
            in_clause.remove("weights")  # "b·s·h = 64 MiB in bf16": a dtype alone does not make a weight size
        if in_clause:
            chosen = in_clause[0]
        else:
            clause_gpus = _entities(parsed, "gpu", mention.clause)
            if clause_gpus and _cue_in("gpu-memory", clause_text) and not clause_models:
                return None if _ON_CHIP.search(text) or _ON_CHIP.search(_paren_owner(parsed, mention)) else "gpu-memory"  # "Each H100 has 80 GB, so ...": the GPU's memory
            if candidates:
                nearest = _nearest(parsed, mention, candidates)
                sized = _entities(parsed, "model") or _others(parsed, mention, "parameters")
                if nearest == "weights" and not (clause_models or (_entities(parsed, "dtype", mention.clause) and sized)):
                    return None  # a "weights" cue elsewhere does not make every size in the sentence a weight size
                chosen = nearest
            elif has_gpu and _cue_in("gpu-memory", text) and not _entities(parsed, "model") and not _others(parsed, mention, "parameters"):
                return None if _ON_CHIP.search(text) else "gpu-memory"
            # "a 7B model in fp16 needs 14 GB": params (or a model) and a dtype say it is the weights.
            elif (_entities(parsed, "model") or _others(parsed, mention, "parameters")) and _entities(parsed, "dtype") and (
                clause_models or _entities(parsed, "dtype", mention.clause)
            ):
                chosen = "weights"
            else:
                return None
        if chosen == "weights" and attached != "weights" and mention.markers & {"per_token", "per_layer", "per_sequence"}:
            return "kv-cache" if _cue_in("kv-cache", text) else None  # weights do not grow per token or come per layer
        if chosen == "kv-cache" and attached is None and _READS.search(clause_text):
            return None  # "three sequences read ≈ 65 GB": bytes moved per step (KV plus weights), not the cache's size
        return chosen

    if dim == "bytes_per_param":
        if re.match(r"^\s*(?:each|apiece)\b", parsed.masked[mention.end:mention.end + 10], re.IGNORECASE) and re.search(
            r"\b(?:momentum|m|weights?|gradients?|grads?|master\w*|variance|moments?)\s*(?:and|&|,)\s*(?:the\s+)?(?:variance|v|gradients?|grads?|momentum|moments?|master)\b",
            parsed.masked[max(0, mention.start - 80):mention.start], re.IGNORECASE,
        ):
            return None  # "momentum and variance in 1 byte each": the size of one state, not the total
        attached = _attached_topic(parsed, mention)
        if attached == "weights" and _MORE_STATES_AFTER.match(parsed.masked[mention.end:mention.end + 80]):
            attached = "model-states"  # "12 bytes per parameter for fp32 weights + m + v": the weights are one of several states
        if attached == "weights":
            return "weights-per-param"  # "2 bytes for weights" in a breakdown of the 16
        if mention.value <= 8 and re.match(r"^\s*(?:per\s+\w+\s+)?(?:in|for|as|of)\s+§", parsed.masked[mention.end:mention.end + 20]):
            return "weights-per-param"  # "2 bytes/param in fp16": the size of one element in that dtype
        if attached == "kv-cache":
            return None
        if attached == "model-states" or _cue_in("model-states", text) or re.search(r"\bgrad(?:ient)?s?\b|\bmaster\b|\bmoments?\b|\boptimi[sz]er\b", text, re.IGNORECASE):
            return "model-states-per-param"
        if _entities(parsed, "dtype") and mention.value <= 8:
            return "weights-per-param"
        return None

    if dim == "tokens_per_s" and _others(parsed, mention, "req_per_s") and any(
        m.role in ("tokens", "out_tokens") for m in _others(parsed, mention, "tokens", roles=("tokens", "out_tokens"))
    ):
        return "token-rate"  # "1,000 requests/s with 25 output tokens each is 25,000 tokens/s": rate × tokens per request

    if dim in ("s_per_token", "tokens_per_s"):
        if re.search(r"\b(?:target|slo|budget)\s*(?:of\s+)?(?:an?\s+)?$", lead, re.I):
            return None
        if _cue_in("prefill", text) and not _cue_in("decode", clause_text) and dim == "tokens_per_s":
            return None
        if mention.direction == "at_most" and _TARGET_WORDS.search(text):
            return None  # "p99 TPOT ≤ 30 ms": a target, not a computed time
        if dim == "tokens_per_s":
            if _REQUIRED_LEAD.search(lead):
                return None  # "we need 30k tok/s": the load to serve, not a speed claimed
            if _training_step(parsed) or re.search(r"\bbatch\b[^.;]{0,40}\bper\s+step\b|\b\d[\d.,]*\s*(?:ms|s|secs?|seconds?)\s+(?:training\s+)?step\b|\bstep\s+(?:time\s+(?:is|of)|takes)\b", text, re.IGNORECASE):
                return None  # "At 16k tokens/s, a 2M-token batch takes ... per step": a training throughput
            if _CARD_RATE_LEAD.search(parsed.masked[max(0, mention.start - 60):mention.start]) and not re.search(r"\bbatch(?:\s+size)?\s*(?:of\s+|=\s*)?1\b|\bsingle\s+(?:stream|user|sequence)\b", text, re.I):
                return None  # "if one A100 sustains 5k tok/s": a card's throughput over an unstated batch
            if "per_gpu" in mention.markers and _FLEET_SIZING.search(text) and not _others(parsed, mention, "count", roles=("batch", "requests")):
                return None  # "with about 3,000 tok/s per A100, we'd need about 10 GPUs": a batched card's throughput
            if _TRAINING_RATE.search(text) or _AGGREGATE_RATE.search(text) or _others(parsed, mention, "req_per_s") or (
                re.search(r"\bprocess\w*|\bthroughput\b|\bFLOP/s\b|\bflops\b", text, re.IGNORECASE) and not _cue_in("decode", clause_text)
            ):
                return None  # a node consuming training tokens, or a fleet's decode demand: not one stream's speed
            if re.search(r"\b(?:more|faster|slower|fewer|less)\s+than\b|\breads?\b", clause_text, re.IGNORECASE) and not _cue_in("decode", clause_text):
                return None
        if not (_DECODE_CONTEXT.search(text) or has_gpu or _entities(parsed, "model") or _others(parsed, mention, "parameters")):
            return None  # "30 ms a token is faster than anyone reads": no model, GPU or decoding in sight
        if dim == "s_per_token" and _TRAINING_RATE.search(clause_text) and not _cue_in("decode", text):
            return None
        return "decode"

    if dim == "seconds":
        if _others(parsed, mention, "req_per_s") or re.search(r"\blittle'?s\s+law\b", text, re.IGNORECASE):
            return None  # Little's law: the latency is an input
        if _DEADLINE_LEAD.search(parsed.masked[max(0, mention.start - 80):mention.start]):
            return None  # "To finish 200B tokens within 30 days ...": a deadline to meet, not a computed time
        if re.search(r"\b(?:slo|target|budget|deadline)\s*(?:of\s+)?$", lead, re.I):
            return None
        if _NOUN_AFTER_TIME.match(parsed.masked[mention.end:mention.end + 30]) or re.search(r"\bof\s+(?:an?|the)\s+$", lead, re.I):
            return None  # "a 100 ms TTFT", "a maximum wait of 5 ms", "of a 100 ms budget": a target or a setting
        if mention.direction in ("at_most",) and _TARGET_WORDS.search(text) and not (_STAYS_UNDER.search(lead) and not _OBLIGATION.search(lead)):
            return None  # "p99 TTFT ≤ 100 ms": a service-level target, not a computed time ("the p99 reply stays under 500 ms" is a claim)
        if re.search(r"\b(?:max(?:imum)?\s+wait|wait(?:ing)?\s+(?:of|up\s+to)|timeout|every|interval|window|deadline)\b", _clause_before(parsed, mention), re.IGNORECASE):
            return None
        if mention.value >= 3600 and re.search(r"\b(?:for|over|what)\s+(?:about\s+|~\s*|roughly\s+)?$", lead, re.I):
            return None  # "8 H100s for 2 weeks": a time budget
        if re.match(r"^\s*(?:allow|allows|budget|reservation|window)\b", parsed.masked[mention.end:mention.end + 30], re.I):
            return None  # "what four weeks allow": a budget
        if re.match(r"^\s*(?:per|/|a|each|for\s+each|every)\s*(?:output\s+|new\s+|generated\s+|decode\s+)?(?:token|step)\b", parsed.masked[mention.end:mention.end + 25], re.IGNORECASE) and (
            _cue_in("decode", text) or has_gpu or _entities(parsed, "model") or _others(parsed, mention, "parameters") or re.search(r"\bkv\b|\bbatch", text, re.I)
        ) and not (_allreduce_context(parsed, text) or re.search(r"\btrain|\bbackward|\bgradient|\boptimi[sz]er", text, re.IGNORECASE) or _training_step(parsed)):
            return "decode"  # "≈ 9 ms per step": one decode step
        names = [name for name in ("prefill", "decode", "allreduce", "time-to-train") if _cue_in(name, text) or (name == "allreduce" and _allreduce_context(parsed, text))]
        if "allreduce" in names and re.match(r"\s*(?:[\w-]+\s+){0,2}?(?:plus|\+|on\s+top\s+of|excluding|without|before|besides|not\s+counting)\s+(?:the\s+|an?\s+)?(?:[\w-]+\s+)?all[- ]?reduce",
                                             parsed.masked[mention.end:mention.end + 60], re.IGNORECASE):
            names.remove("allreduce")  # "the floor drops to about 1.6 ms plus the all-reduce cost": the time without it
        gpu_nearby = has_gpu or bool(find_gpus(parsed.cue_prefix))
        mfu_given = any(m.role == "mfu" for m in parsed.mentions)
        if not names and (gpu_nearby or mfu_given) and (mention.value >= 3600 or _others(parsed, mention, "FLOPs", "flops?")):
            return "time-to-train"  # "on 8 A100s at 40% MFU that's about 139 days"
        if not names and _REPLY_OF_TOKENS.search(clause_text):
            names = ["decode"]  # "the 400-token reply stays under 500 ms": a whole reply is that many decode steps
        if not names:
            return None
        topic = _nearest(parsed, mention, names)
        if topic == "decode" and _PER_REPLY_AFTER.match(parsed.masked[mention.end:mention.end + 30]) and not any(
                m.role in ("tokens", "out_tokens") and m is not mention for m in parsed.mentions):
            return None  # "2 ms per token and ~32 ms per message": a whole message of a length this sentence does not state
        if topic == "decode":
            per_token = _PER_TOKEN_WORDS.search(clause_text) or re.match(r"^\s*(?:per|/|a|each)\s*(?:output\s+)?(?:token|step)\b", parsed.masked[mention.end:mention.end + 20], re.I)
            reply_tokens = [m for m in parsed.mentions if m.role in ("tokens", "out_tokens", "seq") and m.clause == mention.clause and m is not mention]
            if not per_token and not reply_tokens:
                if _REPLY_WORDS.search(clause_text):
                    return None  # "about 400 ms for a long message": a whole reply of unstated length
                clause_start = parsed.clauses[mention.clause][0]
                if not _cue_in("decode", clause_text) and not CUES["decode"].search(parsed.text[:clause_start]):
                    return None  # a time with no per-token sense, no token count and no "decode" before it is not a decode time
                if mention.value >= 10:
                    return None  # "the 2-minute notice is for draining ... generations": no reply length, and no token takes 10 s
        if topic == "prefill" and (_REPLY_WORDS.search(clause_text) or re.search(r"\b(?:reply|replies|response|answer|output|generat\w*|decod\w*)\b", clause_text, re.IGNORECASE)):
            return "decode" if _cue_in("decode", text) or re.search(r"\btokens?\b", clause_text, re.I) else None  # a reply's time is decoding, not prefill
        if topic == "time-to-train" and (mention.value < 600 or not _cue_local("time-to-train", parsed, mention) and not gpu_nearby):
            return None  # training runs take hours to months; "≈ 1 ms" near the word "trained" is something else
        return topic

    if dim in ("FLOPs", "flops?"):
        if _PER_COEFFICIENT.match(parsed.masked[mention.end:mention.end + 40]) or mention.value < 1000:
            return None  # "2 FLOPs per weight per token", "each weight does a multiply and an add, 2 FLOPs": a coefficient, not a total
        # "FLOPs" may be a count or a sloppy rate; in a sentence that spells a rate "/s" elsewhere
        # ("2e12 FLOPs, so 6.4 ms at 312 TFLOP/s") or that works it out ("2 × 2e9 × 500 = 2e12
        # FLOPs") it is a count.
        worked_out = bool(_RESULT_BEFORE.search(parsed.masked[max(0, mention.start - 6):mention.start])) and bool(
            re.search(r"[×*·x]\s*[\d.]", parsed.masked[max(0, mention.start - 40):mention.start]))
        is_rate_like = dim == "flops?" and mention.value < 1e18 and has_gpu and not worked_out and not _others(parsed, mention, "FLOP/s")
        if _cue_in("attention-flops", clause_text) and not _cue_in("train-flops", clause_text):
            return "attention-flops"
        names = [name for name in ("chinchilla", "forward-flops", "train-flops") if _cue_in(name, text)]
        if is_rate_like and (not names or _cue_in("peak-flops", clause_text)) and not _others(parsed, mention, "tokens", "parameters"):
            return None if _ACHIEVED.search(clause_text) else "peak-flops"
        work_given = _others(parsed, mention, "parameters") or _entities(parsed, "model")
        if not (work_given and _others(parsed, mention, "tokens")) and any(
            _classify(parsed, m) == "time-to-train" for m in _others(parsed, mention, "seconds")
        ):
            return None  # "1.2e22 FLOPs on 8 A100s takes 139 days": the FLOPs are the input
        if re.search(r"\b(?:budget\s+of|given|with|have|for|spend(?:ing)?|from|allow)\s*(?:an?\s+|the\s+)?(?:about\s+|~)?$", lead, re.I):
            return None
        if re.match(r"\s*(?:of\s+)?(?:compute\s+|training\s+)?budget\b", parsed.masked[mention.end:mention.end + 30], re.I):
            return None  # "a 1e23 FLOP budget": the input
        if not names:
            return None
        if "chinchilla" in names and _cue_reaches("chinchilla", parsed, mention) and (_others(parsed, mention, "parameters") or _entities(parsed, "model")):
            token_inputs = [m for m in _others(parsed, mention, "tokens") if _classify(parsed, m) is None]
            return "train-flops" if token_inputs else "chinchilla-flops"
        names = [n for n in names if n != "chinchilla" and _cue_reaches(n, parsed, mention)]
        if not names:
            return None
        return _nearest(parsed, mention, names)

    if dim == "FLOP/s":
        if _RESULT_BEFORE.search(parsed.masked[max(0, mention.start - 6):mention.start]) and _OPERATOR_BEFORE.search(parsed.masked[max(0, mention.start - 40):mention.start].split("=")[0].split("≈")[0] + " ×") is not None and re.search(r"[×*·/]", parsed.masked[max(0, mention.start - 40):mention.start]):
            return None  # "6 × 1e10 × 16,640 = 9.98e14 FLOP/s": a rate worked out, not a datasheet peak
        if (_entities(parsed, "model") or _others(parsed, mention, "parameters", "tokens_per_s")) and not re.search(r"\bpeak\b|\bdense\b|\bdatasheet\b|\brated\b|\bspec", clause_text, re.IGNORECASE):
            return None  # "40 TFLOP/s per GPU for a 10B model": a training run's throughput
        if _ACHIEVED.search(clause_text) or _ACHIEVED.search(_paren_owner(parsed, mention)) or re.search(r"\b(?:sustains?|consumes?|demand)\b", text, re.IGNORECASE):
            return None  # "reaching ≈740 TFLOP/s", "the node sustains 1e15 FLOP/s": achieved rates, not datasheet peaks
        if has_gpu and not _INPUT_LEAD.search(lead) and not _others(parsed, mention, "seconds"):
            return "peak-flops"
        return None

    if dim == "bytes/s":
        if _cue_in("allreduce", text) or _INPUT_LEAD.search(lead):
            return None
        if _ON_CHIP.search(clause_text) or _ON_CHIP.search(_paren_owner(parsed, mention)) or (_ON_CHIP.search(text) and not re.search(r"\bhbm|\bdram|\bmemory\s+bandwidth", clause_text, re.I)):
            return None  # on-chip SRAM bandwidth is not in the datasheet table
        if re.search(r"\bnics?\b|\binfiniband\b|\bib\b|\bhdr\b|\bndr\b|\bpcie\b|\bethernet\b|\broce\b|\bnetwork\b|\bstorage\b|\bdisk\b|\bnvme\b|\bstore\b|\bports?\b", clause_text, re.IGNORECASE) or (
            re.search(r"\bnics?\b|\binfiniband\b|\bhdr\b|\bndr\b|\bports?\b|\bethernet\b|\broce\b", text, re.IGNORECASE) and not re.search(r"\bhbm|\bnvlink|\bmemory\b", clause_text, re.IGNORECASE)
        ):
            return None  # a network link's or a store's bandwidth, not the GPU's datasheet figure
        if re.match(r"^\s*(?:per|/|a|each)\s*(?:node|machine|host|server|box|rack|nic|port|link)\b", parsed.masked[mention.end:mention.end + 20], re.IGNORECASE):
            return None  # "200 GB/s per node": a node's network, not one GPU's figure
        if mention.value < 150e9 and not re.search(r"\bnvlink|\bhbm|\bmemory\s+(?:bandwidth|bw)\b", text, re.IGNORECASE):
            return None  # every GPU in the datasheet table has at least 300 GB/s of HBM: "the 2 GB/s is aggregate" is a store's
        if has_gpu and _cue_in("bandwidth", text) and (_entities(parsed, "gpu", mention.clause) or len({e.text.lower() for e in _entities(parsed, "gpu")}) == 1):
            return "bandwidth"
        return None

    if dim == "fraction":
        if _cue_in("bubble", text) and (
            _others(parsed, mention, roles=("stages", "microbatches")) or re.search(r"\bbubble\b", text, re.I)
        ):
            return "bubble"
        return None

    if dim == "count":
        if re.match(r"\s*(?:\w+\s+)?(?:at|each\s+at|of)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?[\d.,]+\s*k?\s*(?:tok(?:en)?s?\s*/\s*s|tokens?\s+(?:per|a)\s+second|tps)\b", parsed.masked[mention.end:mention.end + 50], re.I):
            return None  # "20 concurrent streams at ~30 tok/s each": the batch a rate is quoted at, an input
        if _others(parsed, mention, "req_per_s") or _cue_in("littles-law", text):
            return "littles-law"
        return None

    if dim == "tokens_per_param":
        if not _cue_before("chinchilla", parsed, mention, 80) and not _cue_in("chinchilla", clause_text):
            return None
        if any(m.start < mention.start for m in _others(parsed, mention, "tokens")) or re.search(r"\b(?:under|over)[- ]?trained\b|\bbeyond\b", clause_text, re.IGNORECASE):
            return None  # "175B on 300B tokens (≈1.7 tokens per parameter)": one model's ratio, not the rule
        return "chinchilla-ratio"

    if dim == "tokens":
        if not _cue_in("chinchilla", text) or not (_cue_local("chinchilla", parsed, mention) or _continues_topic(parsed, mention, "chinchilla-")):
            return None
        strong_cue = _CHINCHILLA_STRONG.search(clause_text) is not None
        if re.search(r"\d[\w.,]*\s*(?:-|–|to)\s*$", parsed.masked[max(0, mention.start - 12):mention.start]):
            return None  # "on 5B to 500B tokens": the end of a range swept, not a claim
        if _named_model_in_clause(parsed, mention) and not strong_cue:
            return None  # "Llama-2-7B on 2T tokens": what a model was trained on, not the compute-optimal count
        group = re.search(r"\(([^()]*)$", parsed.masked[:mention.start])
        if group is not None and any(m.dim == "parameters" and group.start() < m.start < mention.start for m in parsed.mentions):
            return None  # "Gopher (280B, 300B tokens)": a model's description
        inputs = _others(parsed, mention, "parameters", "FLOPs", "flops?")
        if not inputs and not _entities(parsed, "model"):
            return None
        earlier_inputs = [m for m in inputs if m.start < mention.start]
        if not earlier_inputs and not _entities(parsed, "model") and _INPUT_LEAD.search(lead):
            return None
        if _INPUT_LEAD.search(bare_lead) and not re.search(r"\boptimal", clause_text, re.IGNORECASE):
            return None  # "on 2T tokens": a data set size given as an input
        return "chinchilla-tokens"

    if dim == "parameters":
        after = parsed.masked[mention.end:mention.end + 30]
        attributive = re.match(r"^[\s-]*(?:sized?|scale|class)?[\s-]*(?:models?|llms?|networks?|transformers?|dense|moe)\b", after, re.IGNORECASE)
        if (attributive and not re.search(r"§[^,;]{0,4}\s(?:is|was|being)\s+(?:an?|the)\s+$", lead, re.IGNORECASE)) or re.match(r"^\s*of\s+(?!param|weight)", after, re.IGNORECASE):
            return None  # "a 35B model", "a 7B-sized model", "≈1B of embeddings": a description or a part
        if re.search(r"\b(?:an?|the|this|that|our|their|its)\s+$", lead, re.IGNORECASE) and not re.search(
            r"§[^,;]{0,4}\s(?:is|was|being)\s+(?:an?|the)\s+$", lead, re.IGNORECASE
        ):
            return None  # "a 13B ...": attributive (but "Llama-2-7B is a 6.7B model" says the model's size)
        if _cue_in("chinchilla", text):
            compute = _others(parsed, mention, "FLOPs", "flops?")
            if compute and any(m.start < mention.start for m in compute) and _cue_local("chinchilla", parsed, mention):
                return "chinchilla-params"
        if (_INPUT_LEAD.search(bare_lead) or re.search(r"\b(?:on|to|from|into|than)\s*$", bare_lead, re.IGNORECASE)) and not _RESULT_TO.search(bare_lead):
            return None  # "at 6.7B", "on about 15T", "ramped from 32k to 3.2M": inputs and settings
        if mention.role_from == "magnitude" and not _model_states_size(parsed, mention):
            return None  # a bare "25.2M" or "6.7B" is a size only right after a model's name ("GPT-2 XL is 1.5B")
        named = _has_preset(parsed, mention.clause) or any(e.params for e in _entities(parsed, "model", mention.clause))
        if named and not re.search(r"\bfor\s+(?:an?\s+)?$", lead, re.I):
            return "params"
        dims_given = {m.role for m in parsed.mentions} >= {"layers", "hidden"}
        if dims_given and _CLAIM_LEAD.search(lead):
            return "params"
        return None
    return None


_STRONG_WEIGHTS = re.compile(
    r"\bweights?\b|\bgrad(?:ient)?s\b|\bmodel\s+size\b|\bcheckpoint\b|\bto\s+(?:load|store|hold|serve|fit)\b|\bserv(?:e|ing)\b|\binference\b|\bquantiz"
    r"|\bmodel\s+(?:is|takes|needs|weighs|occupies|fits)|\bparam(?:eter)?s?\s+(?:take|need|occupy|are|is)\b|\bon\s+disk\b|\bfootprint\b",
    re.IGNORECASE,
)


_RESULT_TO = re.compile(r"\b(?:comes?|came|goes|went|amounts?|adds?\s+up|drops?|falls?|grows?|rises?|gets?|brings?\s+(?:it|that|this)|cuts?\s+(?:it|that|this))\s+to\s*$", re.IGNORECASE)
_CHINCHILLA_STRONG = re.compile(r"\bchinchilla\b|\bcompute[- ]optimal\b|\boptimal(?:ly)?\b|\bhoffmann\b", re.IGNORECASE)
_EACH_SENDS = re.compile(r"\b(?:each|every|per)\s+(?:gpu|rank|device|worker)\s+(?:only\s+)?(?:sends?|transfers?|moves?|communicates?|pushes)\b", re.IGNORECASE)


def _bytes_near_allreduce(parsed: ParsedSentence, mention: Mention, lead: str, clause_text: str) -> str | None:
    """Bytes in a sentence about an all-reduce: what each GPU sends ("allreduce-bytes"), a memory
    size stated next to it (its topic, or "size" to classify it as usual), or the payload (None)."""
    attached = _attached_topic(parsed, mention)
    after = parsed.masked[mention.end:mention.end + 40]
    if attached is not None and "sent" not in mention.markers and not re.match(r"\s*of\s+(?:the\s+|its\s+)?(?:[§\w-]+\s+)?(?:grad|payload|data)", after, re.IGNORECASE):
        return attached  # "(10B parameters: 160 GB of model states, ...)" next to an all-reduce
    other_quantity = bool(_entities(parsed, "zero", mention.clause)) or any(_bytes_cue(name, clause_text, strong=True) for name in ("kv-cache", "activations", "model-states"))
    earlier_bytes = any(m.dim == "bytes" and m.end <= mention.start for m in parsed.mentions)
    result = _RESULT_BEFORE.search(parsed.masked[max(0, mention.start - 6):mention.start]) or "per_gpu" in mention.markers
    if "sent" in mention.markers or _first_after_sends(parsed, mention, lead) or (result and earlier_bytes and not other_quantity):
        return "allreduce-bytes"
    sized = _entities(parsed, "model", mention.clause) or any(m.dim == "parameters" and m.clause == mention.clause for m in parsed.mentions)
    if re.search(r"\bgrad(?:ient)?s?\b|\bweights?\b", clause_text, re.IGNORECASE) and sized:
        return "size"
    return None  # the all-reduced payload or a bucket size, not a claim


def _first_after_sends(parsed: ParsedSentence, mention: Mention, lead: str) -> bool:
    """"each GPU sends about 8x the gradient size, so 16 GB": the first size after "each GPU sends"."""
    sends = None
    for sends in _EACH_SENDS.finditer(parsed.masked[:mention.start]):
        pass
    if sends is None or any(m.dim == "bytes" and sends.end() <= m.start < mention.start for m in parsed.mentions):
        return False
    if _CLAUSE_INPUT_LEAD.match(_QUALIFIER_WORDS.sub("", _clause_before(parsed, mention))):
        return False
    if re.search(r"\bfor\s+[^,;.]{0,30}\band\s+(?:the\s+|a\s+|an\s+)?$", parsed.masked[max(0, mention.start - 45):mention.start], re.IGNORECASE):
        return False  # "so for 8 GPUs and 2 GB it's 3.5 GB": the payload, then what each GPU sends
    return not re.search(r"\b(?:for|of|reducing|all-reducing|over)\s+(?:the\s+|a\s+|an\s+)?$", lead, re.IGNORECASE)


def _allreduce_context(parsed: ParsedSentence, text: str) -> bool:
    """An all-reduce in this sentence, or in the one before when this one says what each GPU sends."""
    if _cue_in("allreduce", text):
        return True
    return bool(parsed.previous_text) and _cue_in("allreduce", parsed.previous_text) and _EACH_SENDS.search(parsed.masked) is not None


_PER_REPLY_AFTER = re.compile(r"\s*(?:per|/|a|each|for\s+(?:each|every|a|one|the))\s+(?:\w+\s+)?(?:message|reply|response|answer|request|sentence|translation|completion|generation|utterance|turn)s?\b", re.IGNORECASE)
_REPLY_WORDS = re.compile(r"\bfor\s+(?:an?|the|one|each)\s+(?:\w+\s+){0,2}(?:message|reply|response|answer|request|conversation|sentence|translation|completion|generation)s?\b|\bend[- ]to[- ]end\b", re.IGNORECASE)


def _continues_topic(parsed: ParsedSentence, mention: Mention, prefix: str) -> bool:
    """"... at about 29B params and 580B tokens": a clause opened by "and" continues the claim before it."""
    if mention.clause == 0 or not re.match(r"\s*(?:and|&)\b", parsed.clause_text(mention.clause)):
        return False
    previous = [m for m in parsed.mentions if m.clause == mention.clause - 1 and m is not mention]
    return any((_classify(parsed, m) or "").startswith(prefix) for m in previous)


def _model_states_size(parsed: ParsedSentence, mention: Mention) -> bool:
    """A bare size right after a model's name: "GPT-2 XL is 1.5B", "Llama-2-7B (6.74B)", "GPT-2 small: 124M".
    After a name that carries its size ("Llama-3-8B about 15T") a bare number far from it is something else."""
    before = parsed.masked[max(0, mention.start - 24):mention.start]
    if re.search(r"§\s*(?:'s\s+)?(?:is|has|was|=|:|\(|,|-)?\s*(?:about|around|roughly|~|≈|exactly)?\s*$", before, re.IGNORECASE) is None:
        return False
    models = [e for e in parsed.entities if e.kind == "model" and e.end <= mention.start]
    nominal = _nominal_size(models[-1]) if models else None
    return nominal is None or 0.5 <= mention.value / nominal <= 2


def _nominal_size(entity) -> float | None:
    m = re.search(r"(\d+(?:\.\d+)?)\s?([bBmM])\b", entity.text)
    if m is None:
        return entity.params if entity.params and re.search(r"\d\s?[bBmM]\b", entity.text) else None
    return float(m.group(1)) * (1e9 if m.group(2).lower() == "b" else 1e6)


def _cue_reaches(name: str, parsed: ParsedSentence, mention: Mention) -> bool:
    """Whether a cue applies to this number: in its clause, before it, or after it but not as a comparison
    ("1.4e24 FLOPs, ≈2.4× the training compute" compares with training; it is not training compute)."""
    if _cue_in(name, parsed.clause_text(mention.clause)):
        return True
    clause_start = parsed.clauses[mention.clause][0]
    if CUES[name].search(parsed.text[:clause_start]):
        return True
    return False
