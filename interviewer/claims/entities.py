"""Named things in a candidate's sentence: models, GPUs, dtypes, ZeRO stages.

They are found before numbers are read, and their spans are masked, so the "2" in "Llama-2",
the "100" in "A100", the "16" in "fp16" or the "80GB" in "A100 80GB" are never taken for claims.

An ambiguous name keeps every reading (``variants``): a bare "A100" is the 40 GB part
(1,555 GB/s) or the 80 GB part (2,039 GB/s); a versionless "Llama 70B" is Llama-2-70B or
Llama-3-70B. The checker accepts a claim that matches any reading and says which one matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entity:
    kind: str
    """"model", "gpu", "dtype", "precision", "zero"."""
    start: int
    end: int
    text: str
    variants: tuple[str, ...] = ()
    """Model presets or GPU names this could mean (first = the usual reading)."""
    params: float | None = None
    """A model's nominal size from its name ("Mistral-7B" → 7e9) when no preset matches."""
    value: str | int | None = None
    """dtype name, precision ("mixed", "fp32", "bf16"), or ZeRO stage (0-3) / "offload"."""
    extra: dict = field(default_factory=dict, compare=False, hash=False)


# --- models -----------------------------------------------------------------------------------

_LLAMA_RE = re.compile(
    r"\b(?:meta[- ])?llama[- _]?(?P<ver>[23](?:\.\d)?)?(?:[- _]?(?P<size>\d{1,3}(?:\.\d)?)\s?b)\b(?:[- ](?:chat|hf|instruct|base))*",
    re.IGNORECASE,
)
_LLAMA_VERSION_ONLY_RE = re.compile(r"\b(?:meta[- ])?llama[- _]?(?P<ver>[123](?:\.\d)?)\b(?![- _]?\d)", re.IGNORECASE)
_GPT2_RE = re.compile(r"\bgpt[- ]?2(?:[- ](?P<v>small|medium|large|xl|124m|355m|774m|1\.5b))?(?![\w.-])", re.IGNORECASE)
_GPT3_RE = re.compile(r"\bgpt[- ]?3(?:\.5)?(?:\s?\(?\s?175\s?b\s?\)?)?(?![\w.])", re.IGNORECASE)
_BERT_RE = re.compile(r"\bbert(?:[- _](?P<v>base|large)(?:[- _](?:uncased|cased))?)?\b", re.IGNORECASE)
_OTHER_MODEL_RE = re.compile(
    r"\b(?:mistral|falcon|opt|bloom|qwen[\d.]*|gemma[\d.]*|mpt|gpt-?j|gpt-?neox|pythia|palm[\d]*|gopher|olmo|deepseek(?:-v\d)?|yi)"
    r"[- ]?(?P<size>\d{1,4}(?:\.\d+)?)\s?(?P<mag>[bBmM])\b",
    re.IGNORECASE,
)

_LLAMA_PRESETS = {
    ("2", "7"): ("llama-2-7b",),
    ("2", "13"): ("llama-2-13b",),
    ("2", "70"): ("llama-2-70b",),
    ("3", "8"): ("llama-3-8b",),
    ("3", "70"): ("llama-3-70b",),
    # Without a version: LLaMA-1 7B/13B have the Llama-2 shapes; "Llama 8B" only exists as Llama 3;
    # "Llama 70B" is Llama-2-70B or Llama-3-70B (same KV shape, 69.0B vs 70.6B parameters).
    (None, "7"): ("llama-2-7b",),
    (None, "13"): ("llama-2-13b",),
    (None, "8"): ("llama-3-8b",),
    (None, "70"): ("llama-2-70b", "llama-3-70b"),
}
# A bare "GPT-2" is ambiguous: the paper's family runs from 124M to 1.5B, and "GPT-2" often means the 1.5B model.
_GPT2_FAMILY = ("gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl")
_GPT2_VARIANTS = {
    "small": "gpt2", "124m": "gpt2", "medium": "gpt2-medium", "355m": "gpt2-medium",
    "large": "gpt2-large", "774m": "gpt2-large", "xl": "gpt2-xl", "1.5b": "gpt2-xl",
}


def find_models(text: str) -> list[Entity]:
    found: list[Entity] = []
    for m in _LLAMA_RE.finditer(text):
        ver = m.group("ver")
        major = ver.split(".")[0] if ver else None
        size = m.group("size")
        presets = _LLAMA_PRESETS.get((major, size)) if (ver is None or "." not in ver) else None
        if presets:
            found.append(Entity("model", m.start(), m.end(), m.group(0), variants=presets))
        else:
            found.append(Entity("model", m.start(), m.end(), m.group(0), params=float(size) * 1e9))
    for m in _LLAMA_VERSION_ONLY_RE.finditer(text):
        found.append(Entity("model", m.start(), m.end(), m.group(0)))  # "Llama 2" with no size: masked, no params
    for m in _GPT2_RE.finditer(text):
        variant = (m.group("v") or "").lower() or None
        variants = (_GPT2_VARIANTS[variant],) if variant else _GPT2_FAMILY
        found.append(Entity("model", m.start(), m.end(), m.group(0), variants=variants))
    for m in _GPT3_RE.finditer(text):
        params = 175e9 if ".5" not in m.group(0) else None
        found.append(Entity("model", m.start(), m.end(), m.group(0), params=params))
    for m in _BERT_RE.finditer(text):
        variant = m.group("v")
        variants = (f"bert-{variant.lower()}",) if variant else ("bert-base", "bert-large")
        found.append(Entity("model", m.start(), m.end(), m.group(0), variants=variants))
    for m in _OTHER_MODEL_RE.finditer(text):
        factor = 1e9 if m.group("mag").lower() == "b" else 1e6
        found.append(Entity("model", m.start(), m.end(), m.group(0), params=float(m.group("size")) * factor))
    return found


# --- GPUs -------------------------------------------------------------------------------------

_GPU_NAME = r"(?:nvidia[- ]?)?(?:tesla[- ]?)?(?P<name>a100|h100|h200|v100|t4|a10g|l4|a10|l40s?|mi300x?|rtx[- ]?\d{4})"
_GPU_RE = re.compile(
    r"(?:(?P<mem_before>\d{2,3})\s?gb?\s+)?\b" + _GPU_NAME
    + r"(?:[- ]?(?P<form>sxm[2-5]?|pcie|nvl))?(?:[- ]?(?P<mem>16|24|32|40|80|94|141)\s?(?:gb|g)?)?(?:[- ]?(?P<form2>sxm[2-5]?|pcie|nvl))?(?:s|'s)?\b",
    re.IGNORECASE,
)


def _gpu_variants(name: str, mem: str | None, form: str | None) -> tuple[str, ...]:
    name = name.lower().replace(" ", "").replace("-", "")
    if form and form.lower() in ("pcie", "nvl"):
        return ()  # PCIe/NVL parts have different clocks and bandwidths: not in the hardware table
    if name == "a100":
        if mem == "40":
            return ("A100-40GB",)
        if mem == "80":
            return ("A100-80GB",)
        if mem is None:
            return ("A100-40GB", "A100-80GB")
        return ()
    table = {"h100": ("H100-SXM", {None, "80"}), "h200": ("H200", {None, "141"}), "v100": ("V100-SXM2-32GB", {None, "32"}),
             "t4": ("T4", {None, "16"}), "a10g": ("A10G", {None, "24"}), "l4": ("L4", {None, "24"})}
    if name in table:
        canonical, memories = table[name]
        return (canonical,) if mem in memories else ()
    return ()


def find_gpus(text: str) -> list[Entity]:
    found = []
    for m in _GPU_RE.finditer(text):
        name = m.group("name")
        mem = m.group("mem") or m.group("mem_before")
        form = m.group("form") or m.group("form2")
        found.append(Entity("gpu", m.start(), m.end(), m.group(0), variants=_gpu_variants(name, mem, form), extra={"family": name.upper()}))
    return found


# --- dtypes, precision, ZeRO ------------------------------------------------------------------

_DTYPE_RE = re.compile(
    r"\b(?P<d>fp32|fp16|bf16|fp8|tf32|float32|float16|bfloat16|float8|int8|int4|nf4|fp4|e4m3|e5m2|w8a8|w8a16|w4a16)\b"
    r"|\b(?P<bits>4|8|16|32)[- ]?bits?\b"
    r"|\b(?P<half>half)[- ]precision\b|\b(?P<full>full|single)[- ]precision\b",
    re.IGNORECASE,
)
_MIXED_RE = re.compile(r"\bmixed[- ]precision\b|\bamp\b|\bfp16[- ]mixed\b|\bbf16[- ]mixed\b", re.IGNORECASE)
_ZERO_RE = re.compile(
    r"\b(?:(?-i:ZeRO|ZERO|Zero)|zero(?=[- ]?(?:stage|[0-3]\b|offload|infinity|dp\b)))"
    r"(?:[- ]?(?:stage)?[- ]?(?P<s>[0-3])\b)?(?:[- ]?(?P<kind>offload|infinity|\+\+|dp))?"
    r"|\bstage[- ]?(?P<s2>[1-3])\s+(?:of\s+)?zero\b"
    r"|\b(?P<fsdp>fsdp|fully[- ]sharded(?:[- ]data[- ]parallel(?:ism)?)?)\b"
    r"|\b(?P<ddp>ddp|plain data[- ]parallel(?:ism)?|vanilla data[- ]parallel(?:ism)?|replicated|unsharded|without (?:any )?(?:zero|sharding)|no sharding|naive data[- ]parallel(?:ism)?)\b",
    re.IGNORECASE,
)
_STAGE_RE = re.compile(r"\bstage[- ]?(?P<s>[1-3])\b", re.IGNORECASE)

_DTYPE_CANONICAL = {
    "fp32": "fp32", "float32": "fp32", "fp16": "fp16", "float16": "fp16", "bf16": "bf16", "bfloat16": "bf16",
    "fp8": "fp8", "float8": "fp8", "e4m3": "fp8", "e5m2": "fp8", "tf32": "tf32", "int8": "int8", "w8a8": "int8",
    "w8a16": "int8", "int4": "int4", "nf4": "int4", "w4a16": "int4", "fp4": "int4",
}
_BITS = {"4": "int4", "8": "int8", "16": "fp16", "32": "fp32"}


def find_dtypes(text: str) -> list[Entity]:
    found = []
    for m in _DTYPE_RE.finditer(text):
        if m.group("d"):
            value = _DTYPE_CANONICAL[m.group("d").lower()]
        elif m.group("bits"):
            value = _BITS[m.group("bits")]
        elif m.group("half"):
            value = "fp16"
        else:
            value = "fp32"
        found.append(Entity("dtype", m.start(), m.end(), m.group(0), value=value))
    for m in _MIXED_RE.finditer(text):
        found.append(Entity("precision", m.start(), m.end(), m.group(0), value="mixed"))
    return found


def find_zero(text: str) -> list[Entity]:
    found = []
    has_sharding_word = bool(re.search(r"\bzero\b|\bfsdp\b|\bshard", text, re.IGNORECASE))
    for m in _ZERO_RE.finditer(text):
        if m.group("fsdp"):
            found.append(Entity("zero", m.start(), m.end(), m.group(0), value=3))
        elif m.group("ddp"):
            found.append(Entity("zero", m.start(), m.end(), m.group(0), value=0))
        else:
            stage = m.group("s") or m.group("s2")
            kind = (m.group("kind") or "").lower()
            if kind in ("offload", "infinity"):
                stage_value = int(stage) if stage else (3 if kind == "infinity" else None)
                found.append(Entity("zero", m.start(), m.end(), m.group(0), value=stage_value, extra={"offload": True}))
            else:
                found.append(Entity("zero", m.start(), m.end(), m.group(0), value=int(stage) if stage else None))
    if has_sharding_word:
        taken = [(e.start, e.end) for e in found]
        for m in _STAGE_RE.finditer(text):
            if not any(s <= m.start() < e for s, e in taken):
                found.append(Entity("zero", m.start(), m.end(), m.group(0), value=int(m.group("s"))))
    return found


def find_entities(text: str) -> list[Entity]:
    """Every entity in ``text``, without overlaps (earlier and longer spans win)."""
    candidates = find_models(text) + find_gpus(text) + find_dtypes(text) + find_zero(text)
    candidates.sort(key=lambda e: (e.start, -(e.end - e.start)))
    kept: list[Entity] = []
    last_end = -1
    for entity in candidates:
        if entity.start >= last_end:
            kept.append(entity)
            last_end = entity.end
    return kept
