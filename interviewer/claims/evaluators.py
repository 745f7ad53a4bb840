"""For each kind of claim: gather its inputs and compute the true value with the calculators.

An evaluator returns the values a claim may be compared with (``Candidate``): the usual reading
first, then each other accepted convention of the field (18 or 20 bytes/param for mixed-precision
Adam, an A100 that may be the 40 GB or the 80 GB part, the (p−1)/m bubble of Narayanan et al.), and
known *mistakes* (a datasheet's 2:4-sparsity peak) that explain a wrong number. When an input
is missing it says which, and nothing is guessed.

Every number comes from an ``interviewer.tools`` calculator (whose docstrings cite the formula),
except a few one-line products done here, each with its source:
- weight (or gradient) memory = parameters × bytes per element (``interviewer.tools.dtypes``);
- forward FLOPs per token ≈ 2·N (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1);
- attention's QKᵀ and AV matmuls: 2·s²·d FLOPs each per layer and sequence, 4·s²·d together, about
  half with a causal kernel (Vaswani et al. 2017, §3.2 and Table 1; Dao et al. 2022);
- non-embedding parameters ≈ 12·L·d² (Kaplan et al. 2020, Table 1);
- tokens per second of a fleet = requests per second × tokens per request;
- a whole reply's decode time = tokens × the per-token time;
and the conventions: 20 bytes/param for mixed-precision Adam in ZeRO-Infinity's accounting
(Rajbhandari et al. 2021, "ZeRO-Infinity", §3: fp16 parameters and gradients, fp32 parameters,
gradients, momentum and variance), read as 20/16 of the ZeRO figure under stage 0 or 3 where
every state is sharded alike; dense GPU peaks from the hardware table (NVIDIA datasheets quote
2:4-sparsity figures that are twice as large); MFU 30-100 % when unstated (Chowdhery et al. 2022,
PaLM, Appendix B, report 46 % for PaLM 540B).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from interviewer.claims.entities import find_gpus
from interviewer.claims.parser import Mention, parse_sentence
from interviewer.claims.resolve import Found, ModelRef, Resolver
from interviewer.claims.topics import Topic
from interviewer.units import context_length, format_bytes, format_count, format_seconds, format_value

MFU_BAND = (0.3, 1.0)
"""When the candidate gives no MFU, a compute-bound time is plausible anywhere from 30 % of peak
(a typical large run, Chowdhery et al. 2022 report 46 % for PaLM) up to the roofline bound."""


@dataclass
class Candidate:
    value: float
    summary: str
    """One line of arithmetic for the explanation: "16 bytes/param × 10B params"."""
    label: str | None = None
    """The convention this reading follows (None: the usual one)."""
    calculator: str | None = None
    inputs: dict = field(default_factory=dict)
    working: list[str] = field(default_factory=list)
    low: float | None = None
    high: float | None = None
    """A band of plausible values (an unstated MFU); ``value`` is the one shown."""
    mistake: str | None = None
    """A known wrong reading: a claim matching only this is incorrect, and this says why."""
    component: str | None = None
    """The part of the quantity this value is ("optimizer states"); None for the whole of it."""


@dataclass
class Reading:
    """One way to read the candidate's number, in base units."""

    value: float
    low: float | None = None
    high: float | None = None
    label: str | None = None


@dataclass
class Evaluation:
    topic: Topic
    unit: str
    candidates: list[Candidate] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    invalid: str | None = None
    notes: list[str] = field(default_factory=list)
    readings: list[Reading] | None = None
    """Override of the claim's readings (tokens/s is checked as seconds per token)."""
    quantity: str | None = None
    """Override of the topic's quantity name ("model-state memory per GPU")."""
    said_suffix: str = ""
    """Added after the candidate's words, e.g. " (1 ms per token)" for "1000 tokens/s"."""
    throughput: bool = False
    """The claim was a throughput: say how far off it is in tokens/s."""
    doubts: list[str] = field(default_factory=list)
    """Reasons the evaluator itself is unsure of the reading; a claim that does not match is then unverifiable."""


class MissingInput(Exception):
    def __init__(self, *what: str):
        self.what = list(what)
        super().__init__(", ".join(what))


class InvalidInput(Exception):
    pass


def _collect(*steps):
    """Run each input lookup; if any is missing, report all that are missing at once."""
    results, missing = [], []
    for step in steps:
        try:
            results.append(step())
        except MissingInput as error:
            missing.extend(error.what)
            results.append(None)
    if missing:
        raise MissingInput(*missing)
    return results


# --- calculators (cached: a long answer repeats the same checks) -------------------------------


def run(name: str, **inputs):
    """``interviewer.tools.run_calculator`` with a cache; input errors become ``InvalidInput``."""
    key = tuple(sorted(inputs.items()))
    return _run_cached(name, key)


@lru_cache(maxsize=1024)
def _run_cached(name: str, key: tuple):
    from interviewer.tools import run_calculator
    from interviewer.tools.errors import CalculatorInputError

    try:
        return run_calculator(name, **dict(key))
    except CalculatorInputError as error:
        raise InvalidInput(f"{error.field} {error.message}") from None
    except (OverflowError, ZeroDivisionError, ValueError) as error:
        raise InvalidInput(f"the inputs cannot be computed ({error})") from None


def _gpu_spec(name: str):
    from interviewer.tools.errors import CalculatorInputError
    from interviewer.tools.hardware import get_gpu

    try:
        return get_gpu(name)
    except CalculatorInputError as error:
        raise InvalidInput(error.message) from None


def _bytes_per_element(dtype: str) -> tuple[str, float]:
    from interviewer.tools.dtypes import BYTES_PER_ELEMENT, normalize_dtype
    from interviewer.tools.errors import CalculatorInputError

    try:
        key = normalize_dtype(dtype)
    except CalculatorInputError as error:
        raise InvalidInput(error.message) from None
    return key, BYTES_PER_ELEMENT[key]


# --- shared input helpers ---------------------------------------------------------------------


@dataclass
class ParamsOption:
    value: float
    label: str | None
    preset: str | None
    note: str


_PER_TOKEN_READ = r"\bactive\b|\bper\s+token\b|\b(?:each|every|a|one)\s+token\b|/\s?tok|\btop-?[12k]\b|\bdecod|\bforward\b|\breads?\b|\bflops?\b"


def params_options(r: Resolver, notes: list[str], required: bool = True) -> list[ParamsOption]:
    """The parameter count(s): a named model (exact, from the params calculator) or a stated size."""
    sentence_params = r.in_sentence("params")
    model = r.model()
    chosen_model: tuple[ModelRef, Found] | None = None
    chosen_params: Found | None = None
    if model is not None and model[1].source == "sentence" and sentence_params is not None:
        if r.params_closer_than_model():
            chosen_params = r.use("params", sentence_params)
        else:
            chosen_model = model
    elif model is not None and model[1].source == "sentence":
        chosen_model = model
    elif sentence_params is not None:
        chosen_params = r.use("params", sentence_params)
    elif model is not None and model[1].source == "earlier":
        chosen_model = model
    else:
        params = r.number("params")
        if params is not None:
            chosen_params = params
        elif model is not None:
            chosen_model = model
    if chosen_params is not None:
        if chosen_params is sentence_params and len({m.value for m in r.sentence_mentions("params")}) > 1:
            # "46.7B in total, 12.9B active per token": each stated size is a reading (an MoE's
            # active parameters are what a token reads), and the explanation says which matched.
            options = []
            for mention in sorted(r.sentence_mentions("params"), key=lambda m: r.rank(m)):
                if all(option.value != mention.value for option in options):
                    options.append(ParamsOption(mention.value, f"params = {mention.text.strip()}" if options else None, None, ""))
            notes.append(f"params = {' or '.join(format_count(o.value) for o in options)} (you gave several sizes: each is tried)")
            return options
        value = float(chosen_params.value)  # type: ignore[arg-type]
        notes.append(chosen_params.note("params", format_count(value)))
        active = r.facts.get("params_active")
        if chosen_params.source == "scenario" and isinstance(active, float) and _text_has(r, _PER_TOKEN_READ):
            # "each token reads about 26 GB", "26 GFLOPs per token": an MoE token passes through its
            # active parameters only (Mixtral: 12.9B of 46.7B), so that is a reading too
            notes.append(f"or the {format_count(active)} active params a token passes through (given in the scenario)")
            return [ParamsOption(value, None, None, ""), ParamsOption(active, "active params per token", None, "")]
        return [ParamsOption(value, None, None, "")]
    if chosen_model is not None:
        ref, found = chosen_model
        if ref.presets:
            options = []
            for preset in ref.presets:
                result = run("params", preset=preset)
                label = preset if len(ref.presets) > 1 else None
                options.append(ParamsOption(result.value, label, preset, f"{preset}: {int(result.value):,} params (params calculator)"))
            notes.append(found.note("model", " or ".join(ref.presets)))
            notes.extend(option.note for option in options)
            return options
        if ref.params:
            notes.append(found.note("params", f"{format_count(ref.params)} (nominal size in the name)"))
            return [ParamsOption(ref.params, None, None, "")]
    if required:
        raise MissingInput("the parameter count (or a model name)")
    return []


def _another_size_named(r: Resolver, presets: list[str], ev: Evaluation) -> None:
    """"For the 70B comparison model the cache is ...": the sentence sizes another model than the
    scenario's preset whose shape was used, so a mismatch is a question, not an error."""
    shape = {name: found for name, found in r.used if name in ("model", "layers", "kv_heads", "head_dim")}
    if not shape or any(found.source != "scenario" for found in shape.values()):
        return
    if presets:
        sizes, used = [run("params", preset=preset).value for preset in presets], " or ".join(presets)
    else:
        given = r.facts.get("params")
        sizes, used = ([given] if isinstance(given, float) else []), "the scenario's model"
    other = [m for m in r.sentence_mentions("params") if all(abs(m.value - size) > 0.2 * size for size in sizes)]
    if other:
        ev.doubts.append(f"the sentence names a {other[0].text.strip()} model, and I used the shape of {used}")


def model_presets(r: Resolver, notes: list[str]) -> list[str]:
    model = r.model()
    if model is None or not model[0].presets:
        return []
    ref, found = model
    notes.append(found.note("model", " or ".join(ref.presets)))
    return list(ref.presets)


def gpu_options(r: Resolver, notes: list[str]) -> list[str]:
    """Canonical GPU names the claim may be about (a bare "A100" is both the 40 GB and the 80 GB part)."""
    found = r.gpu()
    if found is None:
        raise MissingInput("which GPU")
    entity, where = found
    if entity is None:
        entities = find_gpus(str(where.value))
        entity = entities[0] if entities else None
        if entity is None:
            spec = _gpu_spec(str(where.value))
            notes.append(where.note("gpu", spec.name))
            return [spec.name]
    if not entity.variants:
        raise InvalidInput(f"I have no datasheet figures for '{entity.text.strip()}' (known: A100-40GB, A100-80GB, H100-SXM, H200, V100, T4, A10G, L4)")
    notes.append(where.note("gpu", " or ".join(entity.variants)))
    return list(entity.variants)


def _dtype(r: Resolver, notes: list[str], default: str, clause_only: bool = False, fact: str = "dtype") -> tuple[str, bool]:
    found = r.dtype(clause_only=clause_only, fact=fact)
    if found is None:
        notes.append(f"dtype = {default} (not stated; assumed)")
        r.use("dtype", Found(default, "default"))
        return default, False
    key, _ = _bytes_per_element(str(found.value))
    notes.append(found.note("dtype", key))
    return key, True


def _int(found: Found | None, name: str) -> int:
    if found is None:
        raise MissingInput(name)
    value = float(found.value)  # type: ignore[arg-type]
    if not math.isfinite(value):
        raise InvalidInput(f"{name} is not a finite number")
    if value != int(value):
        raise InvalidInput(f"{name} must be a whole number (got {value:g})")
    return int(value)


def _label_join(*labels: str | None) -> str | None:
    parts = [label for label in labels if label]
    return "; ".join(parts) if parts else None


_PER_TOKEN_TEXT = r"\bper\s+(?:output\s+|generated\s+|new\s+)?token\b|/\s?token\b|\b(?:each|every|a|one)\s+(?:new\s+|output\s+)?token\b|\b(?:per|each|every|a|one)\s+(?:decode\s+|decoding\s+)?step\b|\bstep\s+time\b|\btpot\b|\binter[- ]token\b"
_ONE_SEQUENCE = r"\b(?:one|a\s+single|per|each|a)\s+(?:[\w.,]+[- ]tokens?[- ]|\d[\w.,]*\s+)?(?:sequence|sample|request|prompt|user|conversation)\b"


def _text_has(r: Resolver, pattern: str) -> bool:
    return re.search(pattern, r.parsed.text, re.IGNORECASE) is not None


def _clause_has(r: Resolver, pattern: str) -> bool:
    return re.search(pattern, r.parsed.clause_text(r.claim.clause), re.IGNORECASE) is not None


# --- memory -----------------------------------------------------------------------------------


_DTYPE_WORD = r"fp8|int8|int4|fp16|bf16|fp32|float16|bfloat16|8[- ]?bit|4[- ]?bit|16[- ]?bit"
_KV_DTYPE = re.compile(
    rf"\b(?P<a>{_DTYPE_WORD})\s+(?:kv|key[- /]value)\b|\b(?:kv|key[- /]value)(?:[- ]cache)?\s+(?:is\s+|stored\s+|kept\s+|quantized\s+)?(?:in|to|at|as)\s+(?P<b>{_DTYPE_WORD})\b"
    rf"|\b(?:kv|key[- /]value)(?:[- ]cache)?\s+(?:quant\w*|compression)\s*[:→=-]*\s*(?P<c>{_DTYPE_WORD})\b",
    re.IGNORECASE,
)


def _local_length(r: Resolver, claim: Mention) -> Mention | None:
    """A context length written right after the claim: "1.25 GiB at 4k", "4 GiB at 32k", "2 GiB per 4,096-token sequence"."""
    after = [m for m in r.sentence_mentions("seq", "tokens") if 0 <= m.start - claim.end <= 16 and r.parsed.clause_of(m.start) == claim.clause]
    return after[0] if after else None


_PER_TOKEN_SUBJECT = re.compile(r"^\W*(?:the\s+)?(?:kv|key[- /]value)(?:[- ]cache)?\s*(?:size\s+)?(?:per\s+token|/\s?tok(?:en)?\b)", re.IGNORECASE)


_KV_HALF = re.compile(r"\b(?:the\s+)?[kv]\s+half\b|\b(?:the\s+)?(?:keys|values|k|v)\s+(?:alone|only)\b|\b(?:just|only)\s+the\s+(?:keys|values|k|v)\b(?!\s*(?:and|\+|&|/))", re.IGNORECASE)


def kv_cache(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "bytes")
    notes = ev.notes
    presets = model_presets(r, notes)
    dims: dict[str, int] = {}
    stated = {name: r.in_sentence(name) for name in ("layers", "kv_heads", "head_dim")}
    stated = {name: found for name, found in stated.items() if found is not None and any(
        m.text == found.text and r.parsed.clause_of(m.start) == claim.clause for m in r.sentence_mentions(name))}
    if len(presets) == 1 and stated:
        # "the 2.5 MiB per token it would need with 64 KV heads": the sentence changes the model's shape.
        from interviewer.tools.presets import MODEL_PRESETS

        config = MODEL_PRESETS[presets[0]]
        dims = {"layers": config.layers, "kv_heads": config.kv_heads, "head_dim": config.head_dim}
        for name, found in stated.items():
            if found is not None:
                dims[name] = _int(r.use(name, found), name)
                notes.append(found.note(name, str(dims[name])))
        presets = []
        notes.append(f"layers = {dims['layers']}, KV heads = {dims['kv_heads']}, head dim = {dims['head_dim']}")
    if not presets and not dims:
        layers = r.number("layers")
        kv_heads = r.number("kv_heads") or r.number("heads")
        head_dim = r.number("head_dim")
        hidden = r.number("hidden")
        heads = r.number("heads")
        if head_dim is None and hidden is not None and heads is not None:
            head_dim = Found(float(hidden.value) / float(heads.value), hidden.source, f"{hidden.text} / {heads.text}")  # type: ignore[arg-type]
        missing = [name for name, value in (("layers", layers), ("KV heads", kv_heads), ("head dim", head_dim)) if value is None]
        if missing:
            model_missing = "the model (or its " + ", ".join(missing) + ")"
            if "per_token" not in claim.markers and r.number("seq", "tokens") is None:
                raise MissingInput(model_missing, "the context length")
            raise MissingInput(model_missing)
        dims = {"layers": _int(layers, "layers"), "kv_heads": _int(kv_heads, "KV heads"), "head_dim": _int(head_dim, "head dim")}
        notes.append(f"layers = {dims['layers']}, KV heads = {dims['kv_heads']}, head dim = {dims['head_dim']}")
    _another_size_named(r, presets, ev)
    local = _local_length(r, claim)
    per_token = "per_token" in claim.markers and local is None
    if not per_token and local is None and _PER_TOKEN_SUBJECT.match(r.parsed.text) and not claim.markers & {"per_sequence", "total"}:
        # "KV/tok = 2 (K, V) × L × … = 524,288 B = 0.5 MiB": the sentence opens by saying it is per token
        per_token = not [m for m in r.sentence_mentions("seq", "tokens", "out_tokens", "batch", "requests") if m.start < claim.end]
    if not per_token and local is None and not claim.markers & {"per_sequence", "total"}:
        # "KV cache per token: 2 × 24 × 20 × 128 × 2 bytes = 245,760 bytes": the subject said per token.
        clause_start = r.parsed.clauses[claim.clause][0]
        subject = None
        for subject in re.finditer(r"\bper\s+token\b|/\s?tok(?:en)?\b", r.parsed.text[:clause_start], re.IGNORECASE):
            pass
        if subject is not None:
            between = [m for m in r.sentence_mentions("seq", "tokens", "out_tokens", "batch", "requests") if subject.end() <= m.start < claim.end + 20]
            per_token = not between
    seqs: list[tuple[int, str | None]] = []
    if per_token:
        seq = 1
        notes.append("seq = 1 (per token)")
        whole = r.number("seq", "tokens", as_seq=True)
        if whole is not None and re.search(r"\bread|\bload|\bstream|\bfetch|\bmove", r.parsed.text, re.IGNORECASE):
            # "reads 17 GB of KV per token": the whole cache, read once per generated token
            seqs.append((_int(whole, "context length"), f"the whole cache at {_int(whole, 'context length'):,} tokens, read once per token"))
    else:
        found = r.number("seq", "tokens", as_seq=True)
        if local is not None:
            found = Found(context_length(local.value, True) if local.used_k else local.value, "sentence", local.text)
        if found is None:
            raise MissingInput("the context length")
        if found.source in ("scenario", "earlier") and not re.search(r"\bfull[- ](?:context|length|window)|\bmax(?:imum)?\s+(?:context|length)|\bthe\s+(?:whole\s+)?context\b", r.parsed.text, re.IGNORECASE) and re.search(
            r"\b(?:average|avg|mean|typical|median|active|running|live|concurrent|conversations?|users?|requests?|sessions?|chats?)\b", f"{r.parsed.cue_prefix} {r.parsed.text}", re.IGNORECASE
        ):
            length = f"{_int(found, 'context length'):,} tokens"
            where = "the scenario" if found.source == "scenario" else "earlier in your answer"
            ev.doubts.append(f"the sentence does not say how long those sequences are ({length}, from {where}, is a maximum, not what every request uses)")
        seq = _int(found, "context length")
        notes.append(found.note("seq", f"{seq:,} tokens"))
        lengths = _token_counts(r)
        if len(lengths) == 2 and re.search(r"\b(?:prompt|input)\b", r.parsed.text, re.I) and re.search(r"\b(?:output|generat|new|completion|response)", r.parsed.text, re.I):
            total = sum(lengths)
            seqs.append((total, f"prompt + generated tokens = {total:,}"))
    batches: list[tuple[int, str | None]]
    each = re.match(r"\s*(?:each|apiece)\b", r.parsed.text[claim.end:claim.end + 10], re.IGNORECASE) is not None and not _clause_has(r, r"\bgpus?\b|\bdevices?\b|\branks?\b")
    if per_token or each or "per_sequence" in claim.markers or _clause_has(r, _ONE_SEQUENCE):
        batches = [(1, None)]
        notes.append("batch = 1 (per sequence)")
    else:
        found = r.number("batch", "requests")
        if found is None:
            batches = [(1, None)]
            notes.append("batch = 1 (one sequence; no batch stated)")
        else:
            batch = _int(found, "batch")
            notes.append(found.note("batch", str(batch)))
            batches = [(batch, None)]
            if found.source != "sentence" and batch != 1:
                batches.append((1, "per sequence (batch 1)"))
    kv_dtype = _KV_DTYPE.search(r.parsed.text)
    if kv_dtype is not None:
        dtype, _ = _bytes_per_element(kv_dtype.group("a") or kv_dtype.group("b") or kv_dtype.group("c"))
        notes.append(f"KV dtype = {dtype} (you said '{kv_dtype.group(0)}')")
    else:
        dtype, _ = _dtype(r, notes, "fp16", clause_only=True, fact="kv_dtype")
    per_layer = "per_layer" in claim.markers
    half = _KV_HALF.search(r.parsed.clause_text(claim.clause)) is not None  # "just the K half of the cache"
    for preset in presets or [None]:
        for (seq, seq_label), (batch, batch_label) in ((s_, b_) for s_ in [(seq, None), *seqs] for b_ in batches):
            inputs = {"seq": seq, "batch": batch, "dtype": dtype}
            if preset:
                inputs["preset"] = preset
            else:
                inputs.update(dims)
            result = run("kv-cache", **inputs)
            b = result.breakdown
            value = result.value
            summary = (
                f"2 × {b['layers']} layers × {b['kv_heads']} KV heads × {b['head_dim']} head dim × {b['bytes_per_element']:g} B ({dtype})"
                f" × {seq:,} token{'s' if seq != 1 else ''} × {batch} sequence{'s' if batch != 1 else ''}"
            )
            working = list(result.working)
            if per_layer:
                value = value / float(b["layers"])
                summary += f" / {b['layers']} layers"
                working.append(f"per layer: / {b['layers']} = {format_bytes(value)}")
            if half:
                value /= 2
                summary = summary.replace("2 × ", "", 1) + " (the keys or the values alone)"
                working.append(f"keys or values alone: / 2 = {format_bytes(value)}")
            ev.candidates.append(Candidate(
                value, summary, _label_join(preset if len(presets) > 1 else None, seq_label, batch_label), "kv-cache", inputs, working,
            ))
    return ev


def _per_gpu_claim(r: Resolver, claim: Mention) -> bool:
    if "total" in claim.markers:
        return False
    if "per_gpu" in claim.markers:
        return True
    clause = r.parsed.clause_text(r.claim.clause)
    if re.search(r"\bper[- ](?:gpu|device|rank)\b|\b(?:each|every)\s+(?:gpu|device|rank|card)\b"
                 r"|\beach\b(?!\s+(?:adam\s+|fp32\s+|optimi[sz]er\s+)?(?:moments?|copy|copies|part|component|layer|token|expert|sequence|request|param(?:eter)?|weight)s?\b)", clause, re.IGNORECASE):
        return True  # "each" alone is each GPU ("each holds 20 GB"); "each Adam moment" is a part
    clause_start, clause_end = r.parsed.clauses[r.claim.clause]
    return any(e.kind == "zero" and e.value not in (None, 0) and clause_start <= e.start < clause_end for e in r.parsed.entities)


def _training_recipe(r: Resolver) -> dict:
    text = r.parsed.text
    precision = "mixed"
    if re.search(r"\bpure\s+bf16\b|\ball[- ]bf16\b|\bbf16\s+(?:optimi[sz]er\s+)?states\b|\bbf16\s+everything\b", text, re.I):
        precision = "bf16"
    elif not re.search(r"\bmixed\b|\bamp\b", text, re.I) and re.search(
        r"\b(?:full|single)[- ]precision\b|\bpure\s+fp32\b|\b(?:in|with)\s+fp32\b(?!\s+(?:grad|master|optim|state|moment|cop|adam)|\s+(?:weights|params)\b[^.]{0,40}\b(?:moments?|momentum|variance|adam)\b)|\bfp32\s+(?:training|adam(?!\s+(?:moments?|states?|momentum|variance)\b)|everything)\b", text, re.I
    ):
        precision = "fp32"
    optimizer = "adam"
    if re.search(r"\b8[- ]?bit\s+adam|\badam[- ]?8[- ]?bit|\bbitsandbytes\b|\bbnb\b", text, re.I):
        optimizer = "adam8bit"
    elif re.search(r"\bsgd\b", text, re.I) and not re.search(r"\badam", text, re.I):
        optimizer = "sgd"
    elif re.search(r"\badafactor\b", text, re.I):
        optimizer = "adafactor"
    fp32_grads = precision == "mixed" and bool(re.search(
        r"\bfp32\s+grad|\bgrad(?:ient)?s?\s+(?:kept\s+|stored\s+|accumulated\s+)?in\s+fp32|\bfp32\s+gradient|\bfull[- ]precision\s+grad", text, re.I))
    return {"precision": precision, "optimizer": optimizer, "fp32_grads": fp32_grads}


_OPTIMIZER_ONLY = re.compile(
    r"\b(?:optimi[sz]er|adam(?:w)?'?s?\s+states?)(?:[- ]states?)?\b(?![^.]*\b(?:grad|weights\s+and|model\s+states|everything)\b)"
    r"|\bmaster\s+(?:weights|copy)\b[^.]{0,40}\b(?:momentum|variance|moments?)\b|\b(?:momentum|moments)\s+and\s+variances?\b"
    r"|\bmaster\b[^.]{0,40}\bm\s*(?:,|and|\+)\s*(?:\d+\s*)?v\b|\bfp32\s+(?:optimi[sz]er\s+)?states?\b"
    r"|\bfp32\s+(?:master\s+)?(?:weights|params|parameters|copy)\b[^.]{0,40}\b(?:momentum|variance|moments?|m\s*(?:,|and|\+|&)\s*v)\b",
    re.IGNORECASE,
)
_CHECKPOINT = re.compile(r"\bcheckpoint|\bsnapshot|\bsave[sd]?\b|\bsaving\b|\bpersist|\bon\s+disk\b|\bto\s+disk\b|\buploads?\b|\buploading\b|\bobject\s+store\b|\bnvme\b", re.IGNORECASE)
"""A checkpoint holds the fp32 master weights and Adam's moments, K = 12 bytes/param (gradients are not saved)."""


def _model_state_candidates(params: ParamsOption, gpus: int, zero: int, recipe: dict, offload: str, per_param: bool, optimizer_only: bool | str = False) -> list[Candidate]:
    base_inputs = {"params": params.value, "gpus": gpus, "zero": zero, "precision": recipe["precision"], "optimizer": recipe["optimizer"]}
    if offload != "none":
        base_inputs["offload"] = offload
    conventions: list[tuple[dict, str | None, float]] = []
    standard = recipe["precision"] == "mixed" and recipe["optimizer"] == "adam" and offload == "none"
    if recipe["fp32_grads"]:
        conventions.append(({"fp32_grads": True}, "18 bytes/param (fp32 gradients)", 1.0))
    else:
        conventions.append(({}, None, 1.0))
        if standard:
            conventions.append(({"fp32_grads": True}, "18 bytes/param (fp32 gradients)", 1.0))
            if zero in (0, 3) or gpus == 1:
                conventions.append(({}, "20 bytes/param (ZeRO-Infinity accounting: adds an fp32 gradient copy)", 20 / 16))
    candidates = []
    for extra, label, scale in conventions:
        inputs = base_inputs | extra
        result = run("model-states", **inputs)
        b = result.breakdown
        per_param_bytes = float(b["bytes_per_param"]) * scale
        value = result.value * scale
        working = list(result.working)
        if scale != 1.0:
            working.append(f"ZeRO-Infinity counts 20 bytes/param (2 fp16 weights + 2 fp16 grads + 4 fp32 grads + 4 master + 4 m + 4 v): × 20/16 = {format_bytes(value)}")
        recipe_text = _recipe_text(recipe, per_param_bytes, label)
        if per_param:
            value = per_param_bytes
            summary = recipe_text
        elif gpus == 1 or zero == 0:
            summary = f"{per_param_bytes:g} bytes/param ({recipe_text}) × {format_count(params.value)} params"
            if gpus > 1:
                summary += f", replicated on each of {gpus} GPUs (no ZeRO)"
        else:
            formula = {1: "2Ψ + 2Ψ + KΨ/N", 2: "2Ψ + (2+K)Ψ/N", 3: "(2+2+K)Ψ/N"}[zero] if scale == 1.0 and not recipe["fp32_grads"] and standard else f"ZeRO-{zero}"
            summary = f"ZeRO-{zero} over {gpus} GPUs, {formula} with {per_param_bytes:g} bytes/param ({recipe_text}) and Ψ = {format_count(params.value)} params"
        if offload != "none":
            summary += ", optimizer states and gradients offloaded to CPU"
        candidates.append(Candidate(value, summary, _label_join(params.label, label), "model-states", inputs, working))
        if optimizer_only and extra == {} and scale == 1.0:
            k = float(b["optimizer_bytes_per_param"])
            only = k if per_param else float(b["optimizer_bytes_per_gpu"])
            where = "" if per_param else (f" × {format_count(params.value)} params" + (f" / {gpus} GPUs (ZeRO-{zero})" if zero >= 1 and gpus > 1 else ""))
            optimizer_candidate = Candidate(only, f"optimizer states K = {k:g} bytes/param ({_optimizer_text(recipe)}){where}",
                                            _label_join(params.label, f"optimizer states only (K = {k:g} bytes/param)"), "model-states", inputs, working,
                                            component="optimizer states")
            if optimizer_only == "explicit":
                optimizer_candidate.label = params.label
                candidates.insert(len(candidates) - 1, optimizer_candidate)  # the usual reading of "the optimizer states are ..."
            else:
                candidates.append(optimizer_candidate)
    if optimizer_only == "explicit":
        # Read "the optimizer states are 1.2 TB" as all model states too, but say so.
        everything = "all model states (weights, gradients and optimizer)"
        for candidate in candidates:
            if "optimizer states K" not in candidate.summary:
                candidate.label = _label_join(params.label, everything, candidate.label if candidate.label != params.label else None)
    return candidates


def _optimizer_text(recipe: dict) -> str:
    if recipe["optimizer"] == "adam" and recipe["precision"] == "mixed":
        return "fp32 master 4 + momentum 4 + variance 4"
    return f"{recipe['precision']} {recipe['optimizer']}"


def _recipe_text(recipe: dict, per_param: float, label: str | None) -> str:
    if recipe["optimizer"] == "adam" and recipe["precision"] == "mixed":
        if label and label.startswith("20"):
            return "ZeRO-Infinity's mixed-precision Adam"
        if recipe["fp32_grads"] or (label and label.startswith("18")):
            return "mixed-precision Adam with fp32 gradients"
        return "ZeRO mixed-precision Adam: fp16 weights and grads, fp32 master, m, v"
    return f"{recipe['precision']} {recipe['optimizer']}"


def model_states(r: Resolver, claim: Mention, topic: Topic, per_param: bool = False) -> Evaluation:
    ev = Evaluation(topic, "bytes")
    notes = ev.notes
    missing: list[str] = []
    options: list[ParamsOption] = [ParamsOption(1e9, None, None, "")]
    if not per_param:
        try:
            options = params_options(r, notes)
        except MissingInput as error:
            missing.extend(error.what)
    recipe = _training_recipe(r)
    per_gpu = not per_param and _per_gpu_claim(r, claim)
    gpus, zero, offload = 1, 0, "none"
    zero_found = r.zero()
    if zero_found is not None and zero_found[0] is not None and zero_found[0].extra.get("offload") and per_gpu:
        offload = "cpu"
    elif per_gpu and _text_has(r, r"\boffload"):
        offload = "cpu"
    if per_gpu:
        gpus_found = r.gpus()
        if zero_found is None:
            if _text_has(r, r"\bdata[- ]parallel|\bddp\b|\breplicat"):
                zero = 0
                notes.append("ZeRO stage 0 (plain data parallelism)")
            else:
                missing.append("the ZeRO stage (or plain data parallelism)")
        else:
            zero = int(zero_found[1].value)  # type: ignore[arg-type]
            notes.append(zero_found[1].note("ZeRO stage", str(zero)))
        if gpus_found is None and zero == 0 and zero_found is not None and not missing:
            # "no sharding. So each GPU needs ...": every GPU holds a whole replica, whatever their number
            gpus = 1
            notes.append("GPUs: any number (each holds a full replica)")
        else:
            if gpus_found is None:
                missing.append("the number of GPUs")
            if missing:
                raise MissingInput(*missing)
            assert gpus_found is not None
            gpus = _int(gpus_found, "GPUs")
            notes.append(gpus_found.note("GPUs", str(gpus)))
        if offload == "cpu" and zero == 0:
            offload = "none"
        ev.quantity = "model-state memory per GPU"
    if missing:
        raise MissingInput(*missing)
    notes.append(f"recipe: {recipe['precision']} precision, {recipe['optimizer']}" + (", fp32 gradients" if recipe["fp32_grads"] else ""))
    if per_param and not re.search(r"\badam|\bsgd\b|\badafactor\b|\boptimi[sz]er|\bmixed[- ]precision|\bamp\b|\bzero\b|\bfsdp\b|\btrain", f"{r.parsed.cue_prefix} {r.parsed.text}", re.IGNORECASE):
        ev.doubts.append("the sentence does not name the optimizer or the precision recipe")
    optimizer_only: bool | str = bool(_OPTIMIZER_ONLY.search(r.parsed.text)) or bool(_CHECKPOINT.search(f"{r.parsed.cue_prefix} {r.parsed.text}"))
    if not optimizer_only and not _clause_has(r, r"\bmodel[- ]states?\b|\bweights?\b|\bgrad|\bparam|\bstates?\b|\beverything\b|\btotal\b|\bmemory\b|\bvram\b|\bhbm\b|\bneeds?\b|\bhold|\bfits?\b"):
        optimizer_only = True  # "it's 120 GB over 8 nodes": what the figure is of is not said; the fp32 states alone are a reading
    if optimizer_only and _clause_has(r, r"\boptimi[sz]er[- ]states?\b|\badam(?:w)?'?s?\s+states\b") and not _clause_has(r, r"\bgrad|\bweights\b|\bmodel[- ]states\b|\btotal\b"):
        optimizer_only = "explicit"
        ev.quantity = "optimizer-state memory" + (" per GPU" if per_gpu else "")
    components: list[Candidate] = []
    for option in options:
        ev.candidates.extend(_model_state_candidates(option, gpus, zero, recipe, offload, per_param, optimizer_only))
        components.extend(_component_candidates(r, claim, option, gpus, per_param))
    # "One Adam moment in fp32 is about 20 GB": the part the sentence names is the usual reading, and
    # the one a wrong figure is compared with; all the model states stay a reading after it. A bare
    # "params" ("10B params with Adam is ...") names the model's size more often than its weights.
    if per_param and _clause_has(r, _ON_TOP):
        # "Adam adds 8 bytes per param on top": what the optimizer adds, not the total; its two fp32
        # moments (8) or, in mixed precision, the fp32 master copy as well (12; Rajbhandari et al. 2020, §3.1)
        for added, what in ((8.0, "Adam's two fp32 moments"), (12.0, "the fp32 master copy and both Adam moments")):
            components.append(Candidate(added, f"{added:g} bytes/param added by {what}", f"what the optimizer adds: {what}", "model-states", {"params": 1e9}, [], component=what))
    named = [c for c in components if (c.component or "").split(",")[0] != "16-bit weights"]
    ev.candidates[:0] = named
    ev.candidates.extend(c for c in components if c not in named)
    if per_param:
        # "ZeRO-2 on 8 GPUs keeps 2 + 14/8 = 3.75 bytes per parameter on each GPU": a per-GPU share of the 16.
        zero_found = r.zero()
        gpus_found = r.in_sentence("gpus")
        if zero_found is not None and gpus_found is not None and (_per_gpu_claim(r, claim) or _text_has(r, r"\b(?:on|per|for)\s+(?:each|every|a|one)\s+gpu\b|\bper[- ]gpu\b")):
            share_zero, share_gpus = int(zero_found[1].value), _int(r.use("gpus", gpus_found), "GPUs")  # type: ignore[arg-type]
            for candidate in _model_state_candidates(ParamsOption(1e9, None, None, ""), share_gpus, share_zero, recipe, "none", False, False):
                ev.candidates.append(Candidate(candidate.value / 1e9, f"{candidate.summary}, per parameter", _label_join(candidate.label, f"per GPU (ZeRO-{share_zero} over {share_gpus} GPUs)"),
                                               candidate.calculator, candidate.inputs, candidate.working))
    return ev


_COMPONENTS = (
    ("16-bit weights", re.compile(r"(?<!master\s)(?<!fp32\s)\b(?:§\s*)?(?:weights?|params|parameters)\b(?!\s*(?:\+|and|,)?\s*(?:m\b|moments?|momentum|variance))", re.I), 2.0),
    ("16-bit gradients", re.compile(r"\bgrad(?:ient)?s?\b", re.I), 2.0),
    ("fp32 master weights", re.compile(r"\bmaster\b", re.I), 4.0),
    ("Adam moments", re.compile(r"\bmoments\b|\bm\s*(?:\+|and|,|&)\s*v\b|\bmomentum\s+and\s+variance\b", re.I), 8.0),
    ("one Adam moment", re.compile(r"\b(?:one|a\s+single|each)\s+(?:adam\s+)?moment\b|\bthe\s+(?:momentum|variance)\s+alone\b", re.I), 4.0),
    ("optimizer states", re.compile(r"\b(?:adam(?:w)?|optimi[sz]er)(?:'s)?\s+states?\b", re.I), 12.0),
)
_COMPONENT_SUBJECT = re.compile(
    r"(?P<what>[^\d;:=≈]{3,90}?)\s*[—–-]?\s*(?:\bitself\s+)?(?:\bis|\bare|'s|=|≈|\btakes?|\bneeds?|\bcomes?\s+to|\bcosts?|\badds?\s+up\s+to|\bweighs?(?:\s+in\s+at)?"
    r"|\b(?:shards?|shrinks?|drops?|falls?|goes|go|comes?\s+down|splits?)\s+(?:down\s+)?to|\b(?:stays?|sits?|remains?)(?:\s+(?:replicated|unsharded|whole|full))?\s+at)"
    r"\s*(?:only\s+|just\s+|still\s+)?(?:about|around|roughly|approximately|~|≈|some)?\s*$",
    re.I,
)
_ON_TOP = r"\badds?\b|\badding\b|\bon\s+top\b|\bextra\b|\badditional\b|\bmore\s+(?:bytes|per)\b|\bincrement"
_DTYPE_DIGITS = re.compile(r"\b(fp|bf|int|tf|float|e\dm)(\d+)\b", re.I)
_WHOLE_STATES = re.compile(r"\b(?:total|all\s+(?:the\s+)?(?:model\s+)?states|model\s+states|everything|whole|full\s+(?:training\s+)?state)\b", re.I)
_COMPONENT_PHRASE = re.compile(r"^\s*(?:of|for|in|holding|carrying|just\s+for)\s+(?P<what>[^\d;:=≈]{3,50})", re.I)


def _component_candidates(r: Resolver, claim: Mention, option: ParamsOption, gpus: int, per_param: bool) -> list[Candidate]:
    """"40 GB of bf16 params + grads", "4 GB for one Adam moment": a figure for some of the model
    states, named right after it, is compared with those states too, replicated or sharded."""
    after = r.parsed.masked[claim.end:claim.end + 60]
    if gpus > 1 and not per_param and re.match(r"\s*(?:optimi[sz]er[- ](?:state\s+)?)?(?:shards?|slices?|partitions?)\b", after, re.I):
        # "plus a 15 GB shard": each GPU's slice of the optimizer states (or of all the states)
        return [Candidate(k * option.value / gpus, f"{k:g} bytes/param × {format_count(option.value)} params / {gpus} GPUs", _label_join(option.label, f"a 1/{gpus} shard of {what}"),
                          "model-states", {"params": option.value, "gpus": gpus}, [], component=f"a 1/{gpus} shard of {what}")
                for k, what in ((12.0, "the optimizer states"), (16.0, "all model states"))]
    phrase = _COMPONENT_PHRASE.match(after)
    if phrase is not None and _WHOLE_STATES.search(phrase.group("what")):
        return []  # "is 80 GB of model states": the whole, whatever the subject names
    what = re.split(r"\b(?:plus|on\s+top|then|while|but|so)\b", phrase.group("what"), maxsplit=1)[0] if phrase is not None else ""
    if not any(pattern.search(what) for _, pattern, _ in _COMPONENTS):
        # "one Adam moment in fp32 is ~80 GB", "the checkpoint (fp32 master weights plus both moments) is about 60 GB":
        # the components are the subject the number is said of
        clause_start = r.parsed.clauses[claim.clause][0]
        window = _DTYPE_DIGITS.sub(lambda m: m.group(1) + "x" * len(m.group(2)), r.parsed.masked[max(clause_start, claim.start - 100):claim.start])
        subject = _COMPONENT_SUBJECT.search(window)  # "one Adam moment in fp32 is": a dtype's digits are no number
        if subject is not None and not _WHOLE_STATES.search(subject.group("what")):
            what = subject.group("what")
        elif per_param and not _WHOLE_STATES.search(window[-40:]):
            # "the bf16 working copy of the weights (2 bytes)", "bf16 grads 2 bytes": bytes per
            # parameter right after the one part they are of
            words = " ".join(window.rstrip(" (:=").split()[-5:])
            what = next((words for _, pattern, _ in _COMPONENTS if pattern.search(words)), "")
        else:
            return []
    named = [(name, size) for name, pattern, size in _COMPONENTS if pattern.search(what)]
    if not named or len(named) >= 4:
        return []
    per_param_bytes = sum(size for _, size in named)
    names = " + ".join(name for name, _ in named)
    if per_param:
        return [Candidate(per_param_bytes, f"{per_param_bytes:g} bytes/param", names, "model-states", {"params": 1e9}, [], component=names)]
    total = per_param_bytes * option.value
    zero_found = r.zero() if gpus > 1 and "per_gpu" in claim.markers else None
    if zero_found is not None:
        # "With ZeRO-2 the gradients shard to 2.5 GB per GPU": the stage says which parts are sharded
        stage = int(zero_found[1].value)  # type: ignore[arg-type]
        sharded_from = {"16-bit weights": 3, "16-bit gradients": 2}
        share = sum(size / (gpus if stage >= sharded_from.get(name, 1) else 1) for name, size in named) * option.value
        return [Candidate(share, f"{names} under ZeRO-{stage} over {gpus} GPUs", _label_join(option.label, f"{names}, ZeRO-{stage} over {gpus} GPUs"),
                          "model-states", {"params": option.value, "gpus": gpus}, [f"{names} under ZeRO-{stage}: {format_bytes(share)} per GPU"], component=f"{names}, per GPU under ZeRO-{stage}")]
    candidates = [Candidate(total, f"{per_param_bytes:g} bytes/param × {format_count(option.value)} params", _label_join(option.label, names),
                            "model-states", {"params": option.value}, [f"{per_param_bytes:g} bytes/param × {option.value:,.0f} = {format_bytes(total)}"],
                            component=names)]
    if gpus > 1:
        candidates.append(Candidate(total / gpus, f"{per_param_bytes:g} bytes/param × {format_count(option.value)} params / {gpus} GPUs",
                                    _label_join(option.label, f"{names}, sharded over {gpus} GPUs"), "model-states", {"params": option.value, "gpus": gpus},
                                    [f"{format_bytes(total)} / {gpus} = {format_bytes(total / gpus)}"], component=f"{names}, sharded over {gpus} GPUs"))
    return candidates


def model_states_per_param(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    return model_states(r, claim, topic, per_param=True)


def weights(r: Resolver, claim: Mention, topic: Topic, per_param: bool = False) -> Evaluation:
    ev = Evaluation(topic, "bytes")
    notes = ev.notes
    if _clause_has(r, r"\bgrad(?:ient)?s\b") and not _clause_has(r, r"\bweights?\b|\bparam"):
        ev.quantity = "gradient memory"  # the same size as the weights at the gradients' dtype
    options = [ParamsOption(1.0, None, None, "")] if per_param else params_options(r, notes)
    found = r.dtype()
    if found is None:
        dtypes = [("fp16", None), ("fp32", "fp32 (4 bytes/param)")]
        notes.append("dtype not stated: fp16/bf16 assumed (fp32 also accepted)")
    else:
        key, _ = _bytes_per_element(str(found.value))
        dtypes = [(key, None)]
        notes.append(found.note("dtype", key))
    split = 1
    if not per_param and ("per_gpu" in claim.markers or (_clause_has(r, r"\b(?:per|each|every)\s+(?:gpu|device|rank|card)\b|\bper[- ]gpu\b") and "total" not in claim.markers)):
        found_split = r.number("tp") or r.use("stages", r.in_sentence("stages")) or r.use("gpus", r.in_sentence("gpus"))
        if found_split is None:
            raise MissingInput("how many GPUs the weights are split over")
        split = _int(found_split, "GPUs")
        notes.append(found_split.note("split over GPUs", str(split)))
        stages = r.in_sentence("stages")
        if stages is not None and r.in_sentence("tp") is not None:
            split *= _int(r.use("stages", stages), "pipeline stages")  # "TP 8 and PP 64": the layers are split too
            notes.append(stages.note("× pipeline stages", str(_int(stages, "pipeline stages"))))
        ev.quantity = "weight memory per GPU"
    for option in options:
        for dtype, label in dtypes:
            key, size = _bytes_per_element(dtype)
            if per_param:
                value = size
                summary = f"{key} is {size:g} byte{'s' if size != 1 else ''} per parameter"
                working = [summary]
            else:
                value = option.value * size / split
                summary = f"{format_count(option.value)} params × {size:g} B ({key})" + (f" / {split} GPUs" if split > 1 else "")
                working = [f"{option.value:,.0f} params × {size:g} bytes ({key}) = {format_bytes(option.value * size)}"]
                if split > 1:
                    working.append(f"split over {split} GPUs: {format_bytes(value)} each")
            ev.candidates.append(Candidate(value, summary, _label_join(option.label, label), None, {"params": option.value, "dtype": key, "gpus": split}, working))
    return ev


def weights_per_param(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    return weights(r, claim, topic, per_param=True)


def activations(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "bytes")
    notes = ev.notes
    presets = model_presets(r, notes)
    shapes: list[tuple[dict, str | None]] = []
    if presets:
        from interviewer.tools.presets import MODEL_PRESETS

        for preset in presets:
            config = MODEL_PRESETS[preset]
            shapes.append(({"layers": config.layers, "hidden": config.hidden, "heads": config.heads}, preset if len(presets) > 1 else None))
    else:
        layers, hidden, heads = r.number("layers"), r.number("hidden"), r.number("heads")
        if layers is None and "per_layer" in claim.markers:
            layers = Found(1, "default", "per layer")
        missing = [name for name, value in (("layers", layers), ("hidden size", hidden), ("heads", heads)) if value is None]
        if missing:
            raise MissingInput("the model (or its " + ", ".join(missing) + ")")
        shapes.append(({"layers": _int(layers, "layers"), "hidden": _int(hidden, "hidden"), "heads": _int(heads, "heads")}, None))
    seq_found = r.number("seq", "tokens", as_seq=True)
    batch_found = r.number("batch")
    if "per_sequence" in claim.markers or _text_has(r, _ONE_SEQUENCE):
        batch_found = Found(1, "sentence", "one sequence")
    missing = [name for name, value in (("the sequence length", seq_found), ("the micro-batch size", batch_found)) if value is None]
    if missing:
        raise MissingInput(*missing)
    seq, batch = _int(seq_found, "sequence length"), _int(batch_found, "micro-batch")
    notes.append(seq_found.note("seq", str(seq)))  # type: ignore[union-attr]
    notes.append(batch_found.note("micro-batch", str(batch)))  # type: ignore[union-attr]
    tp_found = r.number("tp")
    tp = _int(tp_found, "tensor parallel size") if tp_found is not None else 1
    sp = _text_has(r, r"\bsequence[- ]parallel")
    selective = r"\bselective\b"
    full = r"\bfull\s+recomput|\b(?:activation|gradient)\s+checkpointing\b|\bcheckpointing\s+every|\brecompute\s+everything|\bfull\s+or\s+selective"
    if "per_layer" in claim.markers:
        notes.append("per layer")
    # The recomputation the claim's own clause names; one named elsewhere in the sentence may be the
    # remedy for the number ("storing everything costs 46 GB ... so use selective recomputation").
    if _clause_has(r, selective):
        recomputes: list[tuple[str, str | None]] = [("selective", None)]
    elif _clause_has(r, full):
        recomputes = [("full", None)]
    else:
        recomputes = [("none", None)]
        if _text_has(r, selective):
            recomputes.append(("selective", "with selective recomputation"))
        if _text_has(r, full):
            recomputes.append(("full", "with full recomputation"))
    recompute = recomputes[0][0]
    if recompute == "none" and _text_has(r, r"\bflash[- ]?attention|\bflash\b|\bfused\s+attention|\b34\s*[·*×]?\s*s\s*[·*×]?\s*b\s*[·*×]?\s*h\b|\b34\s*[·*×]?\s*sbh\b|attention\s+term\s+(?:disappears|goes|vanishes)"):
        # FlashAttention never stores the s × s scores: the 5as/h term goes, as with selective
        # recomputation (Dao et al. 2022; Korthikanti et al. 2022, §4.2), leaving 34·sbh per layer.
        recomputes.append(("selective", "FlashAttention: no stored attention scores (34·sbh per layer)"))
    for shape, label in shapes:
        for mode, mode_label in recomputes:
            inputs = shape | {"seq": seq, "micro_batch": batch, "tp": tp, "sp": sp, "recompute": mode}
            result = run("activations", **inputs)
            value = result.value
            if "per_layer" in claim.markers:
                value = float(result.breakdown["per_layer_bytes"])
            summary = f"{result.breakdown['formula']} per layer (Korthikanti et al. 2022) with s={seq}, b={batch}, h={shape['hidden']}, a={shape['heads']}" + (
                "" if "per_layer" in claim.markers else f", × {shape['layers']} layers")
            ev.candidates.append(Candidate(value, summary, _label_join(label, mode_label), "activations", inputs, list(result.working)))
    return ev


def gpu_memory(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "bytes")
    names = gpu_options(r, ev.notes)
    for name in names:
        spec = _gpu_spec(name)
        ev.candidates.append(Candidate(spec.memory_bytes, f"the {spec.name} has {format_bytes(spec.memory_bytes)} (datasheet)", spec.name if len(names) > 1 else None, None, {"gpu": spec.name}, [spec.source]))
    return ev


# --- latency ----------------------------------------------------------------------------------


def _tensor_parallel_options(r: Resolver, notes: list[str]) -> list[tuple[int, str | None]]:
    split = r.use("gpus", r.in_sentence("tp", "gpus")) or r.number("tp", use_facts=False)
    if split is not None:
        notes.append(split.note("GPUs sharing the weights", str(_int(split, "GPUs"))))
        return [(_int(split, "GPUs"), None)]
    facts_gpus = r.facts.get("gpus")
    if isinstance(facts_gpus, float) and facts_gpus > 1 and facts_gpus == int(facts_gpus):
        notes.append(f"GPUs = 1, or {int(facts_gpus)} split tensor-parallel (scenario)")
        return [(1, None), (int(facts_gpus), f"weights split over the scenario's {int(facts_gpus)} GPUs")]
    return [(1, None)]


_COUNT_IN_WORDS = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|a\s+dozen|several|a\s+few)\s+(?:of\s+them|such|concurrent|parallel|sequences|requests|users|streams|conversations)\b",
    re.IGNORECASE,
)


def decode(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "seconds")
    notes = ev.notes
    options, gpus = _collect(lambda: params_options(r, notes), lambda: gpu_options(r, notes))
    dtype, _ = _dtype(r, notes, "fp16")
    batch_found = r.number("batch", "requests")
    batch = _int(batch_found, "batch") if batch_found is not None else 1
    if batch_found is not None:
        notes.append(batch_found.note("batch", str(batch)))
    splits = _tensor_parallel_options(r, notes)
    seq_found = r.number("seq")
    if claim.dim == "tokens_per_s":
        rate = claim.value
        if rate <= 0:
            raise InvalidInput("a throughput must be positive")
        ev.readings = [Reading(1 / rate, label=None if batch == 1 else "per sequence")]
        if claim.low is not None and claim.high is not None and claim.low > 0:
            ev.readings[0] = Reading(1 / rate, 1 / claim.high, 1 / claim.low)
        if batch > 1:
            ev.readings.append(Reading(batch / rate, label=f"aggregate over the batch of {batch}"))
        notes.append(f"{claim.text} = {format_seconds(1 / rate)} per token" + (" per sequence" if batch > 1 else ""))
        ev.said_suffix = f" ({format_seconds(1 / rate)} per token)"
        ev.throughput = True
    elif claim.dim == "seconds" and not re.search(_PER_TOKEN_TEXT, _clause_without_numbers(r), re.IGNORECASE):
        # "a 150-token reply needs ≈ 386 ms": a whole reply is that many decode steps.
        # "A 400-token reply at batch 1 then takes about 2.7 s": the reply named in the clause before is the one timed
        counts = sorted((m for m in r.sentence_mentions("tokens", "out_tokens") if m.value >= 1 and (
            r.parsed.clause_of(m.start) == claim.clause and _reply_length(r, m) or m.end <= claim.start and _REPLY_AFTER.match(r.parsed.text[m.end:m.end + 25]))), key=r.rank)
        if counts:
            n = counts[0].value
            low, high = (claim.low / n, claim.high / n) if claim.low is not None and claim.high is not None else (None, None)
            ev.readings = [Reading(claim.value / n, low, high)]
            ev.said_suffix = f" for {n:,.0f} tokens ({format_seconds(claim.value / n)} per token)"
            notes.append(f"tokens = {n:,.0f} (you said '{counts[0].text}'): {claim.text} / {n:,.0f} = {format_seconds(claim.value / n)} per token")
            ev.quantity = "decode time per token (whole reply / tokens)"
    if batch_found is None and _COUNT_IN_WORDS.search(r.parsed.clause_text(claim.clause)):
        ev.doubts.append("the clause counts its sequences in words, which I do not read as a batch size")  # "three of them are ~32 ms per step"
    kv_shape = _kv_shape(r)
    batches = [(batch, None)]
    if batch > 1 and batch_found is not None and batch_found.source == "sentence" and re.search(_ONE_SEQUENCE, r.parsed.text, re.IGNORECASE):
        batches.append((1, "one sequence"))  # "one 32k-token sequence reads ..., and three such sequences ..."
    # Without a length in the sentence the KV read is anywhere from nothing to the scenario's full
    # context for every sequence, so the time is a band, not one number.
    kv_band = seq_found is not None and seq_found.source != "sentence"
    for option in options:
        shape = {"preset": option.preset} if option.preset else kv_shape
        for step_batch, batch_label in batches:
            kv_variants: list[tuple[float, str | None]] = [(0.0, None)]
            if shape and seq_found is not None:
                seq = _int(seq_found, "context length")
                try:
                    kv = run("kv-cache", **shape, seq=seq, batch=step_batch, dtype="fp16")
                except InvalidInput:
                    kv = None
                if kv is not None:
                    kv_variants.append((kv.value, f"KV-cache reads included ({format_bytes(kv.value)} at {seq:,} tokens)"))
            for gpu in gpus:
                for split, split_label in splits:
                    found: list[Candidate] = []
                    for kv_bytes, kv_label in kv_variants:
                        inputs = {"params": option.value, "dtype": dtype, "gpu": gpu, "batch": step_batch, "gpus": split}
                        if kv_bytes:
                            inputs["kv_bytes"] = kv_bytes
                        result = run("decode-latency", **inputs)
                        b = result.breakdown
                        spec = _gpu_spec(gpu)
                        size = float(b["weight_bytes"]) / option.value
                        if b["bound"] == "memory":
                            summary = (f"{format_count(option.value)} params × {size:g} B ({dtype})" + (f" + {format_bytes(kv_bytes)} KV" if kv_bytes else "")
                                       + f" read once per token / {spec.bandwidth_bytes_per_s / 1e9:,.0f} GB/s ({spec.name})" + (f" × {split} GPUs" if split > 1 else ""))
                        else:
                            summary = f"compute-bound at batch {step_batch}: 2 × {format_count(option.value)} × {step_batch} FLOPs / {float(b['peak_flops']) / 1e12:.4g} TFLOP/s ({spec.name})"
                        gpu_label = f"{spec.name} ({spec.bandwidth_bytes_per_s / 1e9:,.0f} GB/s)" if len(gpus) > 1 else None
                        found.append(Candidate(result.value, summary, _label_join(option.label, gpu_label, split_label, batch_label, kv_label), "decode-latency", inputs, list(result.working)))
                    if kv_band and len(found) == 2:
                        low, high = found
                        high_text = format_seconds(high.value)
                        band = Candidate(low.value, f"{low.summary}; up to {high_text} with every sequence's KV read at {seq:,} tokens (the length is not stated)",
                                         low.label, "decode-latency", low.inputs, low.working + [f"with KV reads: {high_text}"], low=low.value, high=high.value)
                        ev.candidates.append(band)
                    else:
                        ev.candidates.extend(found)
    _realistic_above_floor(r, claim, ev)
    return ev


REALISTIC_BANDWIDTH_SHARE = 0.3
"""The lowest share of peak memory bandwidth a real decode loop is taken to reach (a design choice, not
a measurement): kernel launches and small matmuls keep an eager loop at batch 1 well below the
peak, so a time up to 1/0.3 of the floor may be a measured one and is asked about."""
_FLOOR_WORDS = re.compile(
    r"\b(?:theoretical(?:ly)?|roofline|lower\s+bound|floor|ideal(?:ly)?|best[- ]case|in\s+the\s+limit|(?:at|with)\s+(?:the\s+)?(?:full|peak)\s+(?:memory\s+)?bandwidth)\b",
    re.IGNORECASE,
)


def _realistic_above_floor(r: Resolver, claim: Mention, ev: Evaluation) -> None:
    """A decode time slower than the bandwidth floor but within what real kernels reach ("20 ms per
    token on an A100" for a 7B model whose floor is 7–9 ms) is not "too high" unless the sentence
    says it is the floor; the interviewer asks which it is instead."""
    if claim.direction != "approx" or not ev.candidates or _FLOOR_WORDS.search(r.parsed.text):
        return
    memory_bound = [c for c in ev.candidates if c.mistake is None and "read once per token" in c.summary]
    if len(memory_bound) != len([c for c in ev.candidates if c.mistake is None]):
        return  # a compute-bound step has no bandwidth slack to speak of
    readings = ev.readings or [Reading(claim.value)]
    _, size = _bytes_per_element(str(memory_bound[0].inputs.get("dtype", "fp16")))
    if size < 2 and any(abs(readings[0].value / (c.value * 2 / size) - 1) <= claim.tolerance for c in memory_bound):
        return  # "in int8 decode takes 6.6 ms": the 16-bit time, not a slow int8 loop
    # Within the realistic band of one reading: a time faster than a split's floor but far slower than
    # it, and faster than the one-GPU floor, is no realistic figure for either. "600 tok/s per card"
    # over a batch of 20 is one 33 ms step for all of them, however it reads per sequence.
    if any(c.value * (1 + claim.tolerance) < reading.value <= (c.high if c.high is not None else c.value) / REALISTIC_BANDWIDTH_SHARE
           for c in memory_bound for reading in readings):
        ev.doubts.append(f"{claim.text.strip()} is slower than the memory-bandwidth floor; a real decode loop runs "
                         f"well under peak bandwidth (I allow down to {REALISTIC_BANDWIDTH_SHARE:.0%}), so as a measured time it may be right")


def _clause_without_numbers(r: Resolver) -> str:
    """The claim's clause with every number and its unit blanked ("6.7 ms/token" says nothing about "1 s")."""
    start, end = r.parsed.clauses[r.claim.clause]
    chars = list(r.parsed.text[start:end])
    for m in r.parsed.mentions:
        for i in range(max(m.start, start), min(m.end, end)):
            chars[i - start] = " "
    return "".join(chars)


_REPLY_AFTER = re.compile(r"[\s-]*(?:(?:p\d{2}(?:\.\d+)?|worst[- ]case|typical|average|long|short|full|whole)\s+)?(?:output\s+|generated\s+|new\s+)?(?:reply|replies|response|answer|message|output|completion|generation|tail\b)", re.IGNORECASE)


def _reply_length(r: Resolver, mention: Mention) -> bool:
    """Whether a token count is the length of a reply ("a 150-token reply", "for 150 tokens", "150 × 2.57 ms"), not a context."""
    after = r.parsed.text[mention.end:mention.end + 25]
    before = r.parsed.text[max(0, mention.start - 25):mention.start]
    if _REPLY_AFTER.match(after):
        return True
    if re.search(r"\b(?:for|generat\w*|decod\w*|produc\w*|emit\w*|stream\w*)\s+(?:an?\s+|the\s+)?(?:about\s+|~\s*)?$", before, re.IGNORECASE):
        return True
    if mention.end <= r.claim.start and re.match(r"\s*(?:(?:is|are|takes?|needs?|would|will|costs?|at)\b|(?:≥|>=|≳|=|≈|→|->)\s*~?\s*\d)", after, re.IGNORECASE):
        return True  # "so 150 tokens is at least ~386 ms", "150 tokens ≥ ~386 ms"
    return re.search(r"\b(?:reply|replies|response|answer|message|output|completion)\b", r.parsed.clause_text(r.claim.clause), re.IGNORECASE) is not None


def _token_counts(r: Resolver) -> list[int]:
    """Every sequence length stated in the sentence ("a 1k prompt and 1k output" → [1024, 1024])."""
    from interviewer.units import context_length

    counts = []
    for index, mention in enumerate(r.parsed.mentions):
        if r.roles.get(index) in ("seq", "tokens", "out_tokens") and mention is not r.claim:
            value = context_length(mention.value, True) if mention.used_k else mention.value
            if value == int(value) and value > 0:
                counts.append(int(value))
    return counts


def _kv_shape(r: Resolver) -> dict | None:
    """The KV-cache shape of the model being discussed (a preset, or layers/KV heads/head dim), if known."""
    model = r.model()
    if model is not None and model[0].presets:
        return {"preset": model[0].presets[0]}
    layers, kv_heads, head_dim = r.number("layers"), r.number("kv_heads"), r.number("head_dim")
    if layers is None or kv_heads is None or head_dim is None:
        return None
    try:
        return {"layers": _int(layers, "layers"), "kv_heads": _int(kv_heads, "KV heads"), "head_dim": _int(head_dim, "head dim")}
    except (MissingInput, InvalidInput):
        return None


def _same_group(text: str, a: int, b: int) -> bool:
    """Whether two positions sit in the same parenthesised group (or both outside any)."""
    def group(position: int) -> int:
        depth = 0
        for index in range(position - 1, -1, -1):
            if text[index] == ")":
                depth += 1
            elif text[index] == "(":
                if depth == 0:
                    return index
                depth -= 1
        return -1
    return group(a) == group(b)


def _mfu(r: Resolver, notes: list[str]) -> float | None:
    found = r.number("mfu")
    if found is None:
        return None
    if re.match(r"\s*(?:@|at)\s*(?:the\s+)?(?:[\w-]+\s+)?peak\b", r.parsed.masked[r.claim.end:r.claim.end + 30], re.IGNORECASE):
        notes.append("MFU: the claim is at peak")
        return None  # "6.4 ms @ peak / ~13 ms @ 50% MFU": the 50% is the next figure's
    own = [m for m in r.sentence_mentions("mfu") if r.parsed.clause_of(m.start) == r.claim.clause and _same_group(r.parsed.masked, m.start, r.claim.start)]
    if not own and _clause_has(r, r"\bpeak\b"):
        notes.append("MFU: the claim is at peak; the MFU elsewhere in the sentence is for another figure")
        return None
    value = float(found.value)  # type: ignore[arg-type]
    if value > 1:
        value /= 100
    notes.append(found.note("MFU", f"{value:.0%}"))
    return value


def prefill(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "seconds")
    notes = ev.notes
    def prompt() -> Found:
        found = r.number("seq", "tokens", as_seq=True)
        if found is None:
            raise MissingInput("the prompt length")
        return found

    options, tokens_found, gpus = _collect(lambda: params_options(r, notes), prompt, lambda: gpu_options(r, notes))
    tokens = _int(tokens_found, "prompt length")
    notes.append(tokens_found.note("prompt tokens", f"{tokens:,}"))
    dtype, _ = _dtype(r, notes, "fp16")
    batch_found = r.number("batch")
    batch = _int(batch_found, "batch") if batch_found is not None else 1
    splits = _tensor_parallel_options(r, notes)
    mfu = _mfu(r, notes)
    stated_work = [m for m in r.parsed.mentions if m.dim in ("FLOPs", "flops?") and m.end <= claim.start and m.value >= 1e9 and m.low is None]
    if not stated_work and r.parsed.cue_prefix:
        # "2e12 FLOP → A100 …; A10G ~57 ms": the work is stated before the semicolon
        stated_work = [m for m in parse_sentence(r.parsed.cue_prefix).mentions if m.dim in ("FLOPs", "flops?") and m.value >= 1e9 and m.low is None]
    for option in options:
        for gpu in gpus:
            for split, split_label in splits:
                inputs = {"params": option.value, "tokens": tokens, "dtype": dtype, "gpu": gpu, "batch": batch, "gpus": split}
                spec = _gpu_spec(gpu)
                if len(gpus) > 1 and spec.peak_flops == _gpu_spec(gpus[0]).peak_flops and gpu != gpus[0]:
                    continue  # same peak: one check covers both variants
                gpu_label = spec.name if len(gpus) > 1 and any(_gpu_spec(g).peak_flops != spec.peak_flops for g in gpus) else None
                if mfu is not None:
                    result = run("prefill-latency", **inputs, mfu=mfu)
                    summary = f"2 × {format_count(option.value)} params × {tokens:,} tokens / ({float(result.breakdown['peak_flops']) / 1e12:.4g} TFLOP/s × {mfu:.0%} MFU)"
                    ev.candidates.append(Candidate(result.value, summary, _label_join(option.label, gpu_label, split_label), "prefill-latency", inputs | {"mfu": mfu}, list(result.working)))
                else:
                    best = run("prefill-latency", **inputs, mfu=MFU_BAND[1])
                    slow = run("prefill-latency", **inputs, mfu=MFU_BAND[0])
                    summary = (f"2 × {format_count(option.value)} params × {tokens:,} tokens / {float(best.breakdown['peak_flops']) / 1e12:.4g} TFLOP/s"
                               f" = {format_seconds(best.value)} at peak; MFU not stated, so {format_seconds(best.value)}–{format_seconds(slow.value)} (30–100% MFU) is plausible")
                    ev.candidates.append(Candidate(best.value, summary, _label_join(option.label, gpu_label, split_label), "prefill-latency", inputs | {"mfu": 1.0},
                                                   list(best.working) + [f"at 30% MFU: {format_seconds(slow.value)}"], low=best.value, high=slow.value))
                if stated_work:
                    # "2 × 2e9 × 500 = 2e12 FLOP → A100 6.4 ms @ peak": the work the candidate stated, at this GPU's peak
                    work = stated_work[-1]
                    scale = work.value / (2 * option.value * tokens * batch)
                    last = ev.candidates[-1]
                    low, high = (last.low or last.value) * scale, (last.high or last.value) * scale
                    ev.candidates.append(Candidate(last.value * scale, f"your {work.text.strip()} / the {spec.name}'s peak" + ("" if mfu is not None else " (30–100% MFU)"),
                                                   _label_join(option.label, gpu_label, split_label, f"the {work.text.strip()} you stated"), "prefill-latency",
                                                   last.inputs, list(last.working), low=low if mfu is None else None, high=high if mfu is None else None))
    return ev


def allreduce(r: Resolver, claim: Mention, topic: Topic, sent: bool = False) -> Evaluation:
    ev = Evaluation(topic, "bytes" if sent else "seconds")
    notes = ev.notes
    payloads: list[tuple[float, str | None, str]] = []
    payload = r.use("bytes", r.in_sentence("bytes"))
    if payload is None and not _text_has(r, r"\bparam|\bmodel\b") and "bytes" in r.context.numbers:
        payload = r.use("bytes", r.context.numbers["bytes"])
    if payload is not None:
        payloads.append((float(payload.value), None, f"S = {format_bytes(float(payload.value))}"))  # type: ignore[arg-type]
        notes.append(payload.note("S", format_bytes(float(payload.value))))  # type: ignore[arg-type]
        worked = [m for m in r.sentence_mentions("bytes") if m.text == payload.text and re.search(r"(?:=|≈)\s*(?:about\s+|~\s*)?$", r.parsed.masked[max(0, m.start - 6):m.start])]
        if worked:
            ev.doubts.append(f"{payload.text} is worked out in the sentence, so it may be what is sent rather than the size all-reduced")
    else:
        options = params_options(r, notes, required=False)
        if not options:
            raise MissingInput("how many bytes are all-reduced (or the parameter count)")
        stated = r.dtype()
        for option in options:
            if stated is not None:
                key, size = _bytes_per_element(str(stated.value))
                payloads.append((option.value * size, option.label, f"S = {format_count(option.value)} params × {size:g} B ({key} gradients)"))
            else:
                payloads.append((option.value * 2, option.label, f"S = {format_count(option.value)} params × 2 B (fp16 gradients)"))
                payloads.append((option.value * 4, _label_join(option.label, "fp32 gradients (4 B/param)"), f"S = {format_count(option.value)} params × 4 B (fp32 gradients)"))
    gpus_found = r.gpus()
    if gpus_found is None:
        raise MissingInput("the number of GPUs")
    gpus = _int(gpus_found, "GPUs")
    if gpus < 2:
        raise InvalidInput("an all-reduce needs at least two GPUs")  # "with TP=8 each GPU reads 2.5 GB ... plus the all-reduce cost": no ring was described
    notes.append(gpus_found.note("n", str(gpus)))
    rings = [(size, label, text, gpus) for size, label, text in payloads]
    question = _scenario_allreduce(r, payload, gpus_found)
    if question is not None:
        rings.append(question)
        notes.append(f"or the scenario's all-reduce question: {question[2]} over {question[3]} GPUs")
    if gpus_found.source != "sentence" and _text_has(r, r"\b\d+\s+(?:data[- ]parallel\s+)?(?:replicas|ranks|nodes|workers|participants|groups)\b"):
        ev.doubts.append("the sentence counts the ring's members in other units than GPUs")
    bandwidths: list[tuple[float, str | None]] = []
    if not sent:
        bandwidth = r.number("bandwidth")
        if bandwidth is not None:
            bandwidths.append((float(bandwidth.value), None))  # type: ignore[arg-type]
            notes.append(bandwidth.note("B", f"{float(bandwidth.value) / 1e9:g} GB/s"))  # type: ignore[arg-type]
        else:
            if _text_has(r, r"\bnics?\b|\binfiniband\b|\bhdr\b|\bndr\b|\bacross\s+nodes\b|\binter-?node\b|\bethernet\b|\bpcie\b"):
                ev.doubts.append("the link is a network card or PCIe, whose bandwidth the sentence does not give")
            elif gpus > 8:
                ev.doubts.append(f"a ring over {gpus} GPUs crosses nodes, so its link is the network, whose bandwidth the sentence does not give")
            try:
                gpu_names = gpu_options(r, notes)
            except MissingInput:
                raise MissingInput("the link bandwidth (or which GPU and interconnect)") from None
            for name in gpu_names:
                spec = _gpu_spec(name)
                link = spec.interconnect_bytes_per_s
                bandwidths.append((link / 2, f"{spec.interconnect} {link / 2e9:g} GB/s per direction"))
                bandwidths.append((link, f"{spec.interconnect} datasheet figure {link / 1e9:g} GB/s (both directions)"))
    else:
        bandwidths.append((1.0, None))
    seen = set()
    for size, payload_label, payload_text, gpus in rings:
        for link, link_label in bandwidths:
            key = (size, link, gpus)
            if key in seen:
                continue
            seen.add(key)
            inputs = {"bytes": size, "gpus": gpus, "bandwidth": link}
            result = run("allreduce", **inputs)
            if sent:
                value = float(result.breakdown["bytes_sent_per_gpu"])
                summary = f"2(n−1)/n × S = {2 * (gpus - 1)}/{gpus} × {format_bytes(size)} ({payload_text})"
                ev.candidates.append(Candidate(value, summary, payload_label, "allreduce", {"bytes": size, "gpus": gpus}, list(result.working)[:2]))
            else:
                summary = f"2(n−1)/n × S / B = {2 * (gpus - 1)}/{gpus} × {format_bytes(size)} / {link / 1e9:g} GB/s ({payload_text})"
                ev.candidates.append(Candidate(result.value, summary, _label_join(payload_label, link_label if len(bandwidths) > 1 and link_label and link != bandwidths[0][0] else None), "allreduce", inputs, list(result.working)))
    return ev


def _scenario_allreduce(r: Resolver, payload: Found | None, gpus_found: Found) -> tuple[float, str, str, int] | None:
    """The scenario's own all-reduce setup ("2 GB of bf16 gradients across 8 GPUs"), when it gives one
    beside its model and cluster and the sentence states neither the payload nor the model nor the GPU
    count: an answer to that question is checked against it too, not only against the big model."""
    size, ring = r.facts.get("allreduce_bytes"), r.facts.get("allreduce_gpus")
    if not isinstance(size, float) or not isinstance(ring, float) or ring < 2 or payload is not None:
        return None
    if gpus_found.source == "sentence" and float(gpus_found.value) != ring or _text_has(r, r"\bparam|\bmodel\b|\b\d+(?:\.\d+)?\s*[bm]\b"):  # type: ignore[arg-type]
        return None
    return (size, "the scenario's all-reduce question", f"S = {format_bytes(size)}", int(ring))


def allreduce_bytes(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    return allreduce(r, claim, topic, sent=True)


def bubble(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "fraction")
    stages = r.number("stages")
    micro = r.number("microbatches")
    missing = [name for name, value in (("the number of pipeline stages", stages), ("the number of micro-batches", micro)) if value is None]
    if missing:
        raise MissingInput(*missing)
    p, m = _int(stages, "stages"), _int(micro, "micro-batches")
    ev.notes.append(stages.note("p", str(p)))  # type: ignore[union-attr]
    ev.notes.append(micro.note("m", str(m)))  # type: ignore[union-attr]
    result = run("bubble", stages=p, microbatches=m)
    inputs = {"stages": p, "microbatches": m}
    ev.candidates.append(Candidate(result.value, f"(p−1)/(m+p−1) = {p - 1}/{m + p - 1} of the step (GPipe)", None, "bubble", inputs, list(result.working)))
    ideal = float(result.breakdown["bubble_over_ideal"])
    ev.candidates.append(Candidate(ideal, f"(p−1)/m = {p - 1}/{m} of the ideal compute time (Narayanan et al. 2021)", "(p−1)/m, relative to ideal compute time (Narayanan et al. 2021)", "bubble", inputs, list(result.working)))
    return ev


def littles_law(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "count")
    rate = r.number("rate")
    latency = r.number("latency")
    missing = [name for name, value in (("the arrival rate (requests/s)", rate), ("the latency per request", latency)) if value is None]
    if missing:
        raise MissingInput(*missing)
    ev.notes.append(rate.note("λ", f"{float(rate.value):g} req/s"))  # type: ignore[union-attr,arg-type]
    ev.notes.append(latency.note("W", format_seconds(float(latency.value))))  # type: ignore[union-attr,arg-type]
    inputs = {"rate": float(rate.value), "latency": float(latency.value)}  # type: ignore[union-attr,arg-type]
    result = run("littles-law", **inputs)
    ev.candidates.append(Candidate(result.value, f"L = λ·W = {float(rate.value):g} req/s × {format_seconds(float(latency.value))}", None, "littles-law", inputs, list(result.working)))  # type: ignore[union-attr,arg-type]
    return ev


def token_rate(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    """Aggregate tokens per second = requests per second × tokens per request (both stated in the sentence)."""
    ev = Evaluation(topic, "count")
    rates = r.sentence_mentions("rate")
    counts = [m for m in r.sentence_mentions("tokens", "out_tokens") if m.value >= 1]
    if not rates or not counts:
        raise MissingInput("the request rate and the tokens per request")
    rate = min(rates, key=r.rank)
    tokens = min(counts, key=r.rank)
    if len({m.value for m in counts}) > 1:
        ev.doubts.append("the sentence gives more than one token count (" + " or ".join(m.text for m in counts) + ")")
    ev.notes.append(f"rate = {rate.value:g} req/s (you said '{rate.text}')")
    ev.notes.append(f"tokens per request = {tokens.value:g} (you said '{tokens.text}')")
    value = rate.value * tokens.value
    ev.readings = [Reading(claim.value, claim.low, claim.high)]
    ev.candidates.append(Candidate(value, f"{rate.value:,.0f} req/s × {tokens.value:,.0f} tokens per request", None, None, {"rate": rate.value, "tokens": tokens.value},
                                   [f"{rate.value:,.4g} requests/s × {tokens.value:,.4g} tokens each = {value:,.4g} tokens/s"]))
    return ev


# --- compute ----------------------------------------------------------------------------------


def _tokens(r: Resolver, notes: list[str]) -> float:
    found = r.number("tokens")
    if found is None:
        raise MissingInput("the number of training tokens")
    notes.append(found.note("D", f"{format_count(float(found.value))} tokens"))  # type: ignore[arg-type]
    return float(found.value)  # type: ignore[arg-type]


def train_flops(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "FLOPs")
    options, tokens = _collect(lambda: params_options(r, ev.notes), lambda: _tokens(r, ev.notes))
    recompute = _text_has(r, r"\brecomput|\bcheckpointing\b")
    for option in options:
        inputs = {"params": option.value, "tokens": tokens}
        result = run("train-flops", **inputs)
        ev.candidates.append(Candidate(result.value, f"6·N·D = 6 × {format_count(option.value)} params × {format_count(tokens)} tokens", option.label, "train-flops", inputs, list(result.working)))
        if recompute:
            value = float(result.breakdown["with_recompute_8ND"])
            ev.candidates.append(Candidate(value, f"8·N·D with activation recomputation = 8 × {format_count(option.value)} × {format_count(tokens)}", _label_join(option.label, "8·N·D (activation recomputation)"), "train-flops", inputs, list(result.working)))
    return ev


_FORWARD_ONLY = r"\bforward\b|\binferenc|\bdecod|\bgenerat|\bserv(?:e|es|ing)\b|\bprefill|\bprompt"


def forward_flops(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "FLOPs")
    notes = ev.notes
    per_token = "per_token" in claim.markers or _clause_has(r, r"\bper\s+token\b|/\s?token\b|\b(?:each|every|a|one)\s+(?:new\s+)?token\b")
    if per_token and "per_token" not in claim.markers and any(
        r.parsed.clause_of(m.start) == claim.clause and m.end <= claim.start for m in r.sentence_mentions("tokens", "seq")
    ):
        per_token = False  # "2 FLOPs per parameter per token × 500 tokens = 2 TFLOPs": the per-token rate times a token count
    training = per_token and not _text_has(r, _FORWARD_ONLY)
    presets = model_presets(r, notes) if r.in_sentence("params") is None else []
    seq_found = None if per_token else r.number("seq", "tokens", as_seq=True)
    batch_found = r.number("batch")
    batch = _int(batch_found, "batch") if batch_found is not None else 1
    if presets and (per_token or seq_found is not None):
        seq = 1 if per_token else _int(seq_found, "sequence length")
        if seq_found is not None:
            notes.append(seq_found.note("seq", f"{seq:,}"))
        for preset in presets:
            inputs = {"preset": preset, "seq": seq, "batch": batch}
            result = run("forward-flops", **inputs)
            b = result.breakdown
            label = preset if len(presets) > 1 else None
            if per_token:
                value = float(b["estimate_2N_tokens"]) / (seq * batch)
                ev.candidates.append(Candidate(value, f"2·N = 2 × {int(b['params']):,} params per token", label, "forward-flops", inputs, list(result.working)))
                ev.candidates.append(Candidate(float(b["flops_per_token"]), "counted matmul FLOPs per token (embedding lookups are free)", _label_join(label, "counted matmuls (no embedding lookups)"), "forward-flops", inputs, list(result.working)))
                if training:
                    ev.candidates.append(Candidate(3 * value, f"6·N per training token = 6 × {int(b['params']):,} params", _label_join(label, "6·N per token (training: forward and backward)"), "forward-flops", inputs, list(result.working)))
            else:
                ev.candidates.append(Candidate(result.value, f"counted forward FLOPs of {preset} at {seq:,} tokens × {batch} (FlopCounterMode, causal attention)", label, "forward-flops", inputs, list(result.working)))
                ev.candidates.append(Candidate(float(b["estimate_2N_tokens"]), f"2·N·tokens = 2 × {int(b['params']):,} × {seq * batch:,}", _label_join(label, "2·N per token (attention ignored)"), "forward-flops", inputs, list(result.working)))
                dense = result.value - float(b["attention_flops"]) + float(b["attention_flops_dense"])
                if dense != result.value:
                    ev.candidates.append(Candidate(dense, "counted forward FLOPs with the full (non-causal) attention matrix", _label_join(label, "attention counted without the causal mask"), "forward-flops", inputs, list(result.working)))
        return ev
    options = params_options(r, notes)
    if per_token:
        tokens = 1
    else:
        if seq_found is None:
            raise MissingInput("the number of tokens")
        tokens = _int(seq_found, "tokens") * batch
        notes.append(seq_found.note("tokens", f"{tokens:,}"))
    attention: float | None = None
    if not per_token:
        layers, hidden = r.number("layers"), r.number("hidden")
        if layers is not None and hidden is not None:
            seq = _int(seq_found, "tokens")
            attention = 4.0 * seq * seq * _int(hidden, "hidden") * _int(layers, "layers") * batch
    for option in options:
        value = 2 * option.value * tokens
        ev.candidates.append(Candidate(value, f"2·N per token = 2 × {format_count(option.value)} params" + (f" × {tokens:,} tokens" if tokens > 1 else ""), option.label, None, {"params": option.value, "tokens": tokens},
                                       [f"forward ≈ 2·N FLOPs per token (Kaplan et al. 2020, §2.1): 2 × {option.value:.4g} × {tokens:,} = {value:.4g} FLOPs (attention's 4·s²·d per layer not included)"]))
        if training:
            # "a 70B model needs 4.2e11 FLOPs per token": unless the sentence says forward or inference,
            # a training token costs forward plus backward, 6·N (Kaplan et al. 2020, §2.1).
            ev.candidates.append(Candidate(3 * value, f"6·N per training token = 6 × {format_count(option.value)} params", _label_join(option.label, "6·N per token (training: forward and backward)"), None,
                                           {"params": option.value, "tokens": tokens}, [f"training ≈ 6·N FLOPs per token (Kaplan et al. 2020, §2.1): 6 × {option.value:.4g} = {3 * value:.4g} FLOPs"]))
        if attention:
            # Attention's QKᵀ and AV add 4·s²·d per layer per sequence (2·s²·d with a causal kernel).
            for share, label in ((0.5, "plus causal attention, 2·s²·d per layer"), (1.0, "plus attention, 4·s²·d per layer")):
                total = value + share * attention
                ev.candidates.append(Candidate(total, f"2·N·tokens + {'2' if share == 0.5 else '4'}·s²·d·L = {value:.3g} + {share * attention:.3g}", _label_join(option.label, label), None,
                                               {"params": option.value, "tokens": tokens}, [f"attention QKᵀ and AV (Vaswani et al. 2017): {share * 4:g}·s²·d per layer × layers × batch = {share * attention:.4g} FLOPs"]))
    return ev


def attention_flops(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    """The two sequence-by-sequence matmuls of self-attention, QKᵀ and AV: 2·s²·d FLOPs each per layer
    and sequence, 4·s²·d together (Vaswani et al. 2017, §3.2 and Table 1; a causal kernel that skips
    masked blocks does about half, Dao et al. 2022, FlashAttention)."""
    ev = Evaluation(topic, "FLOPs")
    notes = ev.notes
    seq_found, hidden_found = r.number("seq", "tokens", as_seq=True), r.number("hidden")
    missing = [name for name, value in (("the sequence length", seq_found), ("the model width d", hidden_found)) if value is None]
    if missing:
        raise MissingInput(*missing)
    seq, width = _int(seq_found, "sequence length"), _int(hidden_found, "model width")
    notes.append(seq_found.note("s", f"{seq:,}"))  # type: ignore[union-attr]
    notes.append(hidden_found.note("d", f"{width:,}"))  # type: ignore[union-attr]
    batch_found = r.in_sentence("batch")
    batch = _int(r.use("batch", batch_found), "batch") if batch_found is not None else 1
    both = 4 * seq * seq * width * batch
    per_layer = "per_layer" in claim.markers or _clause_has(r, r"\bper\s+layer\b|\beach\s+layer\b")
    layer_options: list[tuple[int, str | None]] = [(1, None)]
    if not per_layer:
        layers = r.number("layers")
        if layers is not None:
            layer_options.append((_int(layers, "layers"), f"× {_int(layers, 'layers')} layers"))
    working = [f"QKᵀ: 2·s²·d = 2 × {seq:,}² × {width:,} FLOPs; AV the same; together 4·s²·d = {both:.4g} FLOPs per layer" + (f" for {batch} sequences" if batch > 1 else "")]
    for layers, layer_label in layer_options:
        scale = layers
        suffix = f" × {layers} layers" if layers > 1 else " per layer"
        ev.candidates.append(Candidate(both * scale, f"QKᵀ and AV: 4·s²·d = 4 × {seq:,}² × {width:,}{suffix}", layer_label, None, {"seq": seq, "hidden": width, "layers": layers}, working))
        ev.candidates.append(Candidate(both * scale / 2, f"2·s²·d{suffix} (one of the two matmuls, or both with causal masking skipped)",
                                       _label_join(layer_label, "one matmul, or causal (half)"), None, {"seq": seq, "hidden": width, "layers": layers}, working))
    return ev


_ONE_HEAD = r"\b(?:one|a|per|each|a\s+single|single)\s+head(?:'s|’s)?\b|\bhead(?:'s|’s)\s"
_ALL_LAYERS = r"\b(?:all|every|the\s+\d+)\s+layers\b|\bacross\s+(?:the\s+)?layers\b|\bwhole\s+(?:model|network)\b"


def attention_scores(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    """Memory of the attention score matrix QKᵀ (and the softmax of it, the same shape): s × s
    elements per head and sequence (Vaswani et al. 2017, §3.2), in the activation dtype or fp32 for
    the softmax. FlashAttention never materialises it (Dao et al. 2022), so a claim of it is read as
    the unfused size. One head when the sentence says so, else one head or all heads of a layer."""
    ev = Evaluation(topic, "bytes")
    notes = ev.notes
    seqs = sorted({int(context_length(m.value, m.used_k)) for m in r.sentence_mentions("seq", "tokens") if m.value >= 16})
    if not seqs:
        seq_found = r.number("seq", "tokens", as_seq=True)
        if seq_found is None:
            raise MissingInput("the sequence length")
        seqs = [_int(seq_found, "sequence length")]
        notes.append(seq_found.note("s", f"{seqs[0]:,}"))
    else:
        notes.append("s = " + " or ".join(f"{seq:,}" for seq in seqs) + " (stated)")
    heads_options = [(1, "one head")]
    heads_stated = r.in_sentence("heads")
    if heads_stated is not None and not _text_has(r, _ONE_HEAD):
        heads_options = [(_int(r.use("heads", heads_stated), "heads"), f"{_int(heads_stated, 'heads')} heads")]  # "across the 32 heads"
    elif not _text_has(r, _ONE_HEAD):
        heads_found = r.number("heads")
        if heads_found is not None:
            heads_options.append((_int(heads_found, "heads"), f"all {_int(heads_found, 'heads')} heads of a layer"))
    layers_found = r.number("layers") if _text_has(r, _ALL_LAYERS) else None
    layers = _int(layers_found, "layers") if layers_found is not None else 1
    batch_found = r.in_sentence("batch")
    batch = _int(r.use("batch", batch_found), "batch") if batch_found is not None else 1
    dtype, stated = _dtype(r, notes, "fp16")
    sizes = [_bytes_per_element(dtype)[1]] if stated else [2.0, 4.0]  # unstated: 16-bit scores or an fp32 softmax
    for seq in seqs:
        for heads, heads_label in heads_options:
            for size in sizes:
                value = seq * seq * heads * size * batch * layers
                label = _label_join(heads_label if len(heads_options) > 1 else None, f"{size:g}-byte elements" if len(sizes) > 1 else None,
                                    f"s = {seq:,}" if len(seqs) > 1 else None)
                summary = f"QKᵀ scores: s² × heads × bytes = {seq:,}² × {heads} × {size:g} B" + (f" × {batch} sequences" if batch > 1 else "") + (f" × {layers} layers" if layers > 1 else "")
                ev.candidates.append(Candidate(value, summary, label, None, {"seq": seq, "heads": heads, "bytes": size, "batch": batch, "layers": layers},
                                               [f"QKᵀ is s × s per head (Vaswani et al. 2017, §3.2): {summary.split(': ', 1)[1]} = {value:.4g} bytes"]))
    return ev


def _compute_input(r: Resolver, notes: list[str]) -> float | None:
    found = r.number("compute")
    if found is None:
        return None
    notes.append(found.note("C", f"{float(found.value):.3g} FLOPs"))  # type: ignore[arg-type]
    return float(found.value)  # type: ignore[arg-type]


def chinchilla(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    unit = {"chinchilla-tokens": "tokens", "chinchilla-params": "parameters", "chinchilla-flops": "FLOPs", "chinchilla-ratio": "count"}[topic.id]
    ev = Evaluation(topic, unit)
    notes = ev.notes
    if topic.id == "chinchilla-ratio":
        result = run("chinchilla", params=1e9)
        ratio = float(result.breakdown["tokens_per_param"])
        ev.candidates.append(Candidate(ratio, f"Hoffmann et al. 2022: about {ratio:g} training tokens per parameter", None, "chinchilla", {"params": 1e9}, list(result.working)))
        return ev
    compute = _compute_input(r, notes) if topic.id != "chinchilla-flops" else None
    inputs_list: list[tuple[dict, str | None]] = []
    if topic.id == "chinchilla-params" or (compute is not None and r.in_sentence("params") is None and not r.parsed.entities):
        if compute is None:
            raise MissingInput("the compute budget (FLOPs)")
        inputs_list.append(({"compute": compute}, None))
    else:
        options = params_options(r, notes, required=compute is None)
        if options:
            inputs_list.extend(({"params": option.value}, option.label) for option in options)
        else:
            inputs_list.append(({"compute": compute}, None))
    for inputs, label in inputs_list:
        result = run("chinchilla", **inputs)
        b = result.breakdown
        if topic.id == "chinchilla-tokens":
            value, summary = result.value, f"D ≈ 20·N = 20 × {format_count(float(b['params']))} params"
        elif topic.id == "chinchilla-params":
            value, summary = float(b["params"]), f"N = sqrt(C/120) = sqrt({float(b['compute']):.3g}/120)"
        else:
            value, summary = float(b["compute"]), f"C = 6·N·D with D = 20·N: 120 × ({format_count(float(b['params']))})²"
        ev.candidates.append(Candidate(value, summary, label, "chinchilla", inputs, list(result.working)))
    return ev


def time_to_train(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "seconds")
    notes = ev.notes

    def work_items() -> list[tuple[dict, str | None, str]]:
        compute = _compute_input(r, notes)
        if compute is not None:
            return [({"flops": compute}, None, f"{compute:.3g} FLOPs")]
        options, tokens = _collect(lambda: params_options(r, notes), lambda: _tokens(r, notes))
        return [({"params": o.value, "tokens": tokens}, o.label, f"6 × {format_count(o.value)} × {format_count(tokens)} tokens") for o in options]

    def gpu_count() -> int:
        found = r.gpus()
        if found is None:
            raise MissingInput("the number of GPUs")
        notes.append(found.note("GPUs", str(_int(found, "GPUs"))))
        return _int(found, "GPUs")

    def hardware_items() -> list[tuple[dict, str | None, str]]:
        peak = r.use("peak", r.in_sentence("peak"))
        if peak is not None:
            notes.append(peak.note("peak", f"{float(peak.value) / 1e12:g} TFLOP/s"))  # type: ignore[arg-type]
            return [({"peak_flops": float(peak.value)}, None, "the stated peak")]  # type: ignore[arg-type]
        names = gpu_options(r, notes)
        same = all(_gpu_spec(name).peak_flops == _gpu_spec(names[0]).peak_flops for name in names)
        return [({"gpu": name}, None if same else _gpu_spec(name).name, _family(names) if same else _gpu_spec(name).name) for name in (names[:1] if same else names)]

    work, gpus, hardware = _collect(work_items, gpu_count, hardware_items)
    dtype_found = r.dtype()
    dtype = "bf16"
    if dtype_found is not None:
        dtype, _ = _bytes_per_element(str(dtype_found.value))
        notes.append(dtype_found.note("dtype", dtype))
    mfu = _mfu(r, notes)
    seen = set()
    for work_inputs, work_label, work_text in work:
        for hw_inputs, hw_label, hw_text in hardware:
            inputs = work_inputs | hw_inputs | {"gpus": gpus, "dtype": dtype}
            key = tuple(sorted(inputs.items()))
            if key in seen:
                continue
            seen.add(key)
            label = _label_join(work_label, hw_label)
            if mfu is not None:
                result = run("time-to-train", **inputs, mfu=mfu)
                peak_text = f"{float(result.breakdown['peak_flops_per_gpu']) / 1e12:.4g} TFLOP/s"
                summary = f"{work_text} / ({gpus} × {hw_text} {peak_text} × {mfu:.0%} MFU)"
                ev.candidates.append(Candidate(result.value, summary, label, "time-to-train", inputs | {"mfu": mfu}, list(result.working)))
            else:
                typical = run("time-to-train", **inputs, mfu=0.4)
                best = run("time-to-train", **inputs, mfu=MFU_BAND[1])
                slow = run("time-to-train", **inputs, mfu=MFU_BAND[0])
                peak_text = f"{float(typical.breakdown['peak_flops_per_gpu']) / 1e12:.4g} TFLOP/s"
                summary = (f"{work_text} / ({gpus} × {hw_text} {peak_text} × MFU); MFU not stated: {format_seconds(typical.value)} at 40%,"
                           f" {format_seconds(best.value)}–{format_seconds(slow.value)} for 30–100%")
                ev.candidates.append(Candidate(typical.value, summary, label, "time-to-train", inputs | {"mfu": 0.4},
                                               list(typical.working) + [f"at 100% MFU: {format_seconds(best.value)}; at 30%: {format_seconds(slow.value)}"],
                                               low=best.value, high=slow.value))
    # "The node sustains ≈ 1.0e15 FLOP/s, so the run takes ≈ 1.2e7 s": a stated rate for the whole
    # job (peak × GPUs × MFU already applied) is another reading of a FLOP/s in the sentence.
    for rate in (m for m in r.sentence_mentions("peak") if m.value > 0):
        for work_inputs, work_label, work_text in work:
            total = float(work_inputs["flops"]) if "flops" in work_inputs else 6.0 * float(work_inputs["params"]) * float(work_inputs["tokens"])
            ev.candidates.append(Candidate(total / rate.value, f"{work_text} / {rate.text} (the stated rate, for the whole job)", _label_join(work_label, f"at the stated {rate.text} in total"),
                                           None, {"flops": total, "rate": rate.value}, [f"{total:.4g} FLOPs / {rate.value:.4g} FLOP/s = {format_seconds(total / rate.value)}"]))
    return ev


def params_count(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "parameters")
    notes = ev.notes
    non_embedding = _clause_has(r, r"\bnon[- ]embedding\b")
    stated_dims = r.in_sentence("layers") is not None and r.in_sentence("hidden") is not None
    # "a model with 32 layers and d = 4096 ... 12·L·d²": the sentence's own shape, not a named model
    presets = [] if stated_dims and not r.sentence_has("model") else model_presets(r, notes)
    model = r.model()
    if not presets and not stated_dims and model is not None and model[0].params and model[1].source == "sentence":
        ref = model[0]
        ev.candidates.append(Candidate(ref.params, f"{ref.text.strip()} has {format_count(ref.params)} parameters (the size in its name)", None, None, {"model": ref.text.strip()},
                                       [f"{ref.text.strip()}: {format_count(ref.params)} parameters, the nominal size in the model's name"]))
        return ev
    if presets:
        for preset in presets:
            result = run("params", preset=preset)
            b = result.breakdown
            label = preset if len(presets) > 1 else None
            total = Candidate(result.value, f"{preset}: {int(result.value):,} parameters (built on the meta device)", label, "params", {"preset": preset}, list(result.working))
            non_emb = Candidate(float(b["non_embedding"]), f"{preset}: {int(b['non_embedding']):,} non-embedding parameters", _label_join(label, "non-embedding parameters"), "params", {"preset": preset}, list(result.working))
            ev.candidates.extend([non_emb, total] if non_embedding else [total, non_emb])
        return ev
    layers, hidden = r.number("layers"), r.number("hidden")
    if layers is None or hidden is None:
        raise MissingInput("the model (or its layers and hidden size)")
    n_layers, width = _int(layers, "layers"), _int(hidden, "hidden size")
    notes.append(layers.note("L", str(n_layers)))
    notes.append(hidden.note("d", str(width)))
    rule = 12 * n_layers * width**2
    vocab = r.number("vocab")
    heads = r.number("heads")
    if vocab is not None:
        arch = "llama" if _text_has(r, r"\bllama|\bswiglu\b|\brmsnorm\b") else "gpt"
        inputs = {"layers": n_layers, "hidden": width, "heads": _int(heads, "heads") if heads is not None else 1, "vocab": _int(vocab, "vocabulary size"), "arch": arch}
        result = run("params", **inputs)
        ev.candidates.append(Candidate(result.value, f"exact count for {arch}-style L={n_layers}, d={width}, V={inputs['vocab']:,}", None, "params", inputs, list(result.working)))
        ev.candidates.append(Candidate(float(result.breakdown["non_embedding"]), "non-embedding parameters", "non-embedding parameters", "params", inputs, list(result.working)))
    ev.candidates.append(Candidate(float(rule), f"12·L·d² = 12 × {n_layers} × {width}² (Kaplan et al. 2020, non-embedding)", "12·L·d² rule of thumb (non-embedding)" if vocab is not None else None, None,
                                   {"layers": n_layers, "hidden": width}, [f"12·L·d² = 12 × {n_layers} × {width}² = {rule:,} (Kaplan et al. 2020, Table 1: 4d² attention + 8d² MLP per layer)"]))
    return ev


# --- hardware ---------------------------------------------------------------------------------

_DTYPE_NAMES = {"fp16": "fp16/bf16", "bf16": "fp16/bf16", "tf32": "tf32", "fp32": "fp32 (no tensor cores)", "fp8": "fp8", "int8": "int8 (TOPS)"}


def _family(names: list[str]) -> str:
    """"A100" for ["A100-40GB", "A100-80GB"]: how to name GPU variants that share a figure."""
    return names[0].split("-")[0] if len(names) > 1 else names[0]


def peak_flops(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    from interviewer.tools.hardware import peak_flops_for

    ev = Evaluation(topic, "FLOP/s")
    names = gpu_options(r, ev.notes)
    specs = [_gpu_spec(name) for name in names]
    stated = r.dtype(clause_only=True)  # "989.5 TFLOP/s dense on H100, with fp32 accumulation": only the claim's own dtype counts
    stated_key = _bytes_per_element(str(stated.value))[0] if stated is not None else None
    if stated is not None:
        ev.notes.append(stated.note("dtype", stated_key))
    same_peaks = all(spec.peak_flops == specs[0].peak_flops for spec in specs)
    groups = [(specs[0], _family(names))] if same_peaks else [(spec, spec.name) for spec in specs]
    mistakes: list[Candidate] = []
    count = r.use("gpus", r.in_sentence("gpus"))
    gpu_count = _int(count, "GPUs") if count is not None else 1
    mfu = _mfu(r, ev.notes)
    if mfu is not None:
        # "at 40% MFU it does 400 TFLOP/s": the achieved rate, peak × MFU
        from interviewer.tools.hardware import peak_flops_for as _peak

        for spec, shown in groups:
            peak, used, _ = _peak(spec, stated_key or "bf16")
            ev.candidates.append(Candidate(peak * mfu * gpu_count, f"{shown} dense {_DTYPE_NAMES.get(used, used)} peak {peak / 1e12:g} TFLOP/s × {mfu:.0%} MFU"
                                           + (f" × {gpu_count} GPUs" if gpu_count > 1 else ""), None, None, {"gpu": spec.name, "dtype": used, "mfu": mfu, "gpus": gpu_count}, [spec.source]))
        ev.quantity = "achieved FLOP/s"
    for spec, shown in groups:
        if stated_key is not None:
            peak, used, _ = peak_flops_for(spec, stated_key)
            if used != stated_key and not (stated_key == "bf16" and used == "fp16"):
                raise InvalidInput(f"the hardware table has no dense {stated_key} peak for the {spec.name}")
            dtypes = [(used, peak)]
        else:
            order = ["fp16", "bf16", "tf32", "fp8", "int8", "fp32"]
            dtypes = [(d, spec.peak_flops[d]) for d in order if d in spec.peak_flops]
        for index, (dtype, peak) in enumerate(dtypes):
            label_parts = [spec.name] if not same_peaks else []
            if stated_key is None and index > 0:
                label_parts.append(f"the dense {_DTYPE_NAMES.get(dtype, dtype)} peak")
            name = _DTYPE_NAMES.get(dtype, dtype)
            ev.candidates.append(Candidate(peak, f"{shown} dense {name} peak: {peak / 1e12:g} TFLOP/s (datasheet)", _label_join(*label_parts), None, {"gpu": spec.name, "dtype": dtype}, [spec.source]))
            if gpu_count > 1:
                ev.candidates.append(Candidate(peak * gpu_count, f"{gpu_count} × {shown} dense {name} peak {peak / 1e12:g} TFLOP/s", _label_join(*label_parts, f"aggregate over {gpu_count} GPUs"), None,
                                               {"gpu": spec.name, "dtype": dtype, "gpus": gpu_count}, [spec.source]))
            if dtype != "fp32" and _clause_has(r, r"\bsparsity\b|\bsparse\b|\b2:4\b"):
                ev.candidates.append(Candidate(2 * peak, f"{shown} {name} peak with 2:4 structured sparsity: {2 * peak / 1e12:g} TFLOP/s (datasheet)",
                                               _label_join(*label_parts, "2:4 sparsity figure, as you said"), None, {"gpu": spec.name, "dtype": dtype}, [spec.source]))
            elif dtype != "fp32":
                mistakes.append(Candidate(2 * peak, f"{shown} dense {name} peak is {peak / 1e12:g} TFLOP/s", None, None, {"gpu": spec.name, "dtype": dtype}, [spec.source],
                                          mistake=f"{2 * peak / 1e12:g} TFLOP/s is the datasheet's 2:4-sparsity figure; the {shown}'s dense {name} peak is {peak / 1e12:g} TFLOP/s"))
    ev.candidates.extend(mistakes)
    return ev


def bandwidth(r: Resolver, claim: Mention, topic: Topic) -> Evaluation:
    ev = Evaluation(topic, "bytes/s")
    names = gpu_options(r, ev.notes)
    link_words = r"\bnvlink\d?\b|\bnvswitch\b|\binterconnect\b|\bgpu[- ]to[- ]gpu\b"
    memory_words = r"\bhbm\d?e?\b|\bmemory\b|\bvram\b|\bdram\b"
    # The claim's own clause says which figure it is; if it names neither, both are readings.
    if _clause_has(r, memory_words) and not _clause_has(r, link_words):
        kinds = ["memory"]
    elif _clause_has(r, link_words) or (_text_has(r, link_words) and not _text_has(r, memory_words)):
        kinds = ["link"]
    else:
        kinds = ["memory", "link"] if _text_has(r, link_words) else ["memory"]
    for name in names:
        spec = _gpu_spec(name)
        label = spec.name if len(names) > 1 else None
        for kind in kinds:
            if kind == "link":
                link = spec.interconnect_bytes_per_s
                link_label = label if kinds == ["link"] else _label_join(label, spec.interconnect)
                ev.candidates.append(Candidate(link, f"{spec.name} {spec.interconnect}: {link / 1e9:g} GB/s (datasheet, both directions)", link_label, None, {"gpu": spec.name}, [spec.source]))
                ev.candidates.append(Candidate(link / 2, f"{spec.name} {spec.interconnect}: {link / 2e9:g} GB/s per direction", _label_join(link_label, "per direction"), None, {"gpu": spec.name}, [spec.source]))
            else:
                value = spec.bandwidth_bytes_per_s
                ev.candidates.append(Candidate(value, f"{spec.name} HBM bandwidth: {format_value(value, 'bytes/s')} (datasheet)", label, None, {"gpu": spec.name}, [spec.source]))
    return ev


EVALUATORS = {
    "kv-cache": kv_cache,
    "activations": activations,
    "model-states": model_states,
    "model-states-per-param": model_states_per_param,
    "weights": weights,
    "weights-per-param": weights_per_param,
    "gpu-memory": gpu_memory,
    "decode": decode,
    "prefill": prefill,
    "allreduce": allreduce,
    "allreduce-bytes": allreduce_bytes,
    "time-to-train": time_to_train,
    "train-flops": train_flops,
    "forward-flops": forward_flops,
    "attention-flops": attention_flops,
    "attention-scores": attention_scores,
    "chinchilla-tokens": chinchilla,
    "chinchilla-params": chinchilla,
    "chinchilla-flops": chinchilla,
    "chinchilla-ratio": chinchilla,
    "bubble": bubble,
    "littles-law": littles_law,
    "token-rate": token_rate,
    "params": params_count,
    "peak-flops": peak_flops,
    "bandwidth": bandwidth,
}

__all__ = ["EVALUATORS", "Candidate", "Evaluation", "InvalidInput", "MissingInput", "Reading"]
