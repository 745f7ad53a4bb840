"""Filling a claim's inputs: the sentence first, then earlier sentences, then the scenario's facts.

The candidate's own words win: a value in the claim's clause beats one elsewhere in the sentence,
which beats what an earlier sentence said, which beats the scenario's given facts. Every value
keeps where it came from, so the working can say "params = 10B (scenario)".
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from interviewer.claims.entities import Entity
from interviewer.claims.parser import Mention, ParsedSentence
from interviewer.units import context_length, parse_quantity


@dataclass(frozen=True)
class Found:
    value: object
    source: str
    """"sentence", "earlier", "scenario" or "default"."""
    text: str = ""
    used_k: bool = False
    """Typed with a "k" ("4k tokens"): as a context length that is 4096."""
    sentence: int = -1
    """For values carried from earlier pieces: which sentence they came from (see ``Context.sentence``)."""
    alternatives: str = field(default="", compare=False)
    """When the sentence gives other values for the same input with no clear pick: "12 or 2"."""

    def note(self, name: str, shown: str | None = None) -> str:
        shown = shown if shown is not None else str(self.value)
        if self.source == "sentence":
            return f"{name} = {shown} (you said '{self.text}')" if self.text else f"{name} = {shown} (from your sentence)"
        if self.source == "earlier":
            return f"{name} = {shown} (from earlier in your answer: '{self.text}')" if self.text else f"{name} = {shown} (from earlier in your answer)"
        if self.source == "scenario":
            return f"{name} = {shown} (given in the scenario)"
        return f"{name} = {shown} (assumed)"


@dataclass(frozen=True)
class ModelRef:
    """A model named by the candidate or the scenario: presets (all readings) or a nominal size."""

    presets: tuple[str, ...]
    params: float | None
    text: str


# --- scenario facts --------------------------------------------------------------------------

_FACT_ALIASES = {
    "params": "params", "parameters": "params", "n_params": "params", "num_params": "params",
    "gpus": "gpus", "num_gpus": "gpus", "n_gpus": "gpus", "world_size": "gpus", "dp": "gpus",
    "gpu": "gpu", "hardware": "gpu", "accelerator": "gpu",
    "dtype": "dtype", "precision_dtype": "dtype", "kv_dtype": "kv_dtype",
    "seq": "seq", "seq_len": "seq", "sequence_length": "seq", "context": "seq", "context_length": "seq", "prompt_tokens": "seq",
    "batch": "batch", "batch_size": "batch", "micro_batch": "batch", "microbatch_size": "batch",
    "layers": "layers", "n_layers": "layers", "num_layers": "layers",
    "hidden": "hidden", "d_model": "hidden", "hidden_size": "hidden",
    "heads": "heads", "n_heads": "heads", "num_heads": "heads",
    "kv_heads": "kv_heads", "n_kv_heads": "kv_heads", "num_kv_heads": "kv_heads",
    "head_dim": "head_dim", "vocab": "vocab", "vocab_size": "vocab",
    "model": "model", "preset": "model",
    "rate": "rate", "qps": "rate", "arrival_rate": "rate", "requests_per_s": "rate",
    "latency": "latency", "latency_s": "latency",
    "tokens": "tokens", "train_tokens": "tokens", "dataset_tokens": "tokens",
    "mfu": "mfu", "bandwidth": "bandwidth", "link_bandwidth": "bandwidth",
    "zero": "zero", "zero_stage": "zero", "stages": "stages", "pp": "stages", "pipeline_stages": "stages",
    "microbatches": "microbatches", "num_microbatches": "microbatches", "tp": "tp",
    "compute": "compute", "flops": "compute", "compute_budget": "compute", "nodes": "nodes",
    "precision": "precision", "optimizer": "optimizer",
    # A second setup the scenario gives for its all-reduce question ("2 GB of gradients across 8 GPUs")
    "allreduce_bytes": "allreduce_bytes", "allreduce_gpus": "allreduce_gpus",
    # An MoE's parameters one token passes through (Mixtral 8x7B: 12.9B of 46.7B)
    "params_active": "params_active", "active_params": "params_active",
}
_TEXT_FACTS = {"gpu", "dtype", "kv_dtype", "model", "precision", "optimizer"}
TEXT_FACTS = frozenset(_TEXT_FACTS)
"""Facts that are names (a GPU, a dtype, a model preset), not numbers."""
KNOWN_FACTS = tuple(sorted(set(_FACT_ALIASES.values())))


def fact_name(key: str) -> str | None:
    """The canonical name of a fact key ("num_gpus" → "gpus"), or None if unknown."""
    return _FACT_ALIASES.get(str(key).strip().lower().replace("-", "_"))


def normalize_facts(facts: Mapping[str, object] | None) -> dict[str, object]:
    """Scenario facts under canonical names; numbers given as strings ("10e9", "4k", "200 ms") are read."""
    normalized: dict[str, object] = {}
    if not facts:
        return normalized
    for key, value in facts.items():
        name = fact_name(key)
        if name is None or value is None or isinstance(value, bool):
            continue
        if name in _TEXT_FACTS:
            normalized[name] = str(value).strip()
            continue
        number: float | None
        if isinstance(value, (int, float)):
            number = float(value)
        else:
            quantity = parse_quantity(str(value))
            number = quantity.value if quantity is not None else None
            if quantity is not None and name == "seq" and str(value).strip().lower().endswith("k"):
                number = context_length(number, True)
        if number is None or not math.isfinite(number):
            continue
        normalized[name] = number
    return normalized


# --- context carried between sentences --------------------------------------------------------

CARRIED_ROLES = (
    "bytes", "params", "gpus", "nodes", "seq", "batch", "tokens", "layers", "hidden", "heads", "kv_heads", "head_dim",
    "vocab", "stages", "microbatches", "tp", "mfu", "bandwidth", "compute", "rate", "latency",
)


@dataclass
class Context:
    numbers: dict[str, Found] = field(default_factory=dict)
    model: tuple[ModelRef, str] | None = None
    gpu: tuple[Entity, str] | None = None
    dtype: tuple[str, str] | None = None
    zero: tuple[Entity, str] | None = None
    sentence: int = 0
    """The sentence being checked; pieces after a semicolon keep their sentence's number."""
    entity_sentence: dict[str, int] = field(default_factory=dict)
    """For "model", "gpu", "dtype", "zero": the sentence the remembered entity came from."""
    previous_text: str = ""
    """The piece checked just before this one (what "that" may refer to)."""
    new_option: bool = False
    """This piece starts another option after a semicolon ("...; or we get 5x the GPUs"): the pieces before it do not apply."""

    def carried_from_elsewhere(self, found: Found) -> bool:
        """Whether a value from earlier pieces comes from another sentence or another option of this one."""
        return found.source == "earlier" and (found.sentence != self.sentence or self.new_option)

    def this_sentence_only(self) -> Context:
        """What this sentence's earlier pieces (before a semicolon) said, without older sentences."""
        keep = self.sentence if not self.new_option else -2
        same = lambda kind: self.entity_sentence.get(kind) == keep  # noqa: E731
        return Context(
            numbers={role: found for role, found in self.numbers.items() if found.sentence == keep},
            model=self.model if same("model") else None, gpu=self.gpu if same("gpu") else None,
            dtype=self.dtype if same("dtype") else None, zero=self.zero if same("zero") else None,
            sentence=self.sentence, entity_sentence={kind: n for kind, n in self.entity_sentence.items() if n == keep},
            previous_text=self.previous_text, new_option=self.new_option,
        )

    def update(self, parsed: ParsedSentence, claims: set[int], roles: dict[int, str]) -> None:
        """Remember this sentence's inputs (never its claims) for the sentences after it."""
        models = [e for e in parsed.entities if e.kind == "model" and (e.variants or e.params)]
        params_inputs = [m for i, m in enumerate(parsed.mentions) if i not in claims and roles.get(i) == "params"]
        if models:
            entity = models[-1]
            self.model = (ModelRef(entity.variants, entity.params, entity.text), entity.text)
            self.numbers.pop("params", None)
            for name in ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab"):
                self.numbers.pop(name, None)
        elif params_inputs:
            self.model = None
        for index, mention in enumerate(parsed.mentions):
            role = roles.get(index)
            if index in claims or role not in CARRIED_ROLES:
                continue
            if role == "params" and models:
                continue
            self.numbers[role] = Found(mention.value, "earlier", mention.text, mention.used_k, self.sentence)
        if models:
            self.entity_sentence["model"] = self.sentence
        gpus = [e for e in parsed.entities if e.kind == "gpu"]
        if gpus:
            self.gpu = (gpus[-1], gpus[-1].text)
            self.entity_sentence["gpu"] = self.sentence
        dtypes = [e for e in parsed.entities if e.kind == "dtype"]
        if dtypes:
            self.dtype = (str(dtypes[-1].value), dtypes[-1].text)
            self.entity_sentence["dtype"] = self.sentence
        zeros = [e for e in parsed.entities if e.kind == "zero" and e.value is not None]
        if zeros:
            self.zero = (zeros[-1], zeros[-1].text)
            self.entity_sentence["zero"] = self.sentence


def input_roles(parsed: ParsedSentence) -> dict[int, str]:
    """Each mention's input role (bytes/s are a bandwidth, FLOPs a compute budget, ...)."""
    roles: dict[int, str] = {}
    for index, mention in enumerate(parsed.mentions):
        if mention.role:
            roles[index] = mention.role
        elif mention.dim == "bytes/s":
            roles[index] = "bandwidth"
        elif mention.dim in ("FLOPs", "flops?") and mention.value >= 1e15:
            roles[index] = "compute"
        elif mention.dim == "req_per_s":
            roles[index] = "rate"
        elif mention.dim == "seconds":
            roles[index] = "latency"
        elif mention.dim == "bytes":
            roles[index] = "bytes"
        elif mention.dim == "FLOP/s":
            roles[index] = "peak"
    return roles


OPTION = _OPTION = re.compile(
    r"\s*(?:or|versus|vs\.?|instead|alternatively|whereas|compared\s+(?:to|with))\b"
    # "concurrency @4k: 28; prefill: ~2.3 s": each item of a "label: value" list is its own setting
    r"|\s*[A-Za-z][\w /@.-]{0,30}:\s",
    re.IGNORECASE,
)


# --- the resolver for one claim ---------------------------------------------------------------


class Resolver:
    """Looks up a claim's inputs in its clause, its sentence, earlier sentences and the facts."""

    def __init__(self, parsed: ParsedSentence, claim: Mention, context: Context, facts: dict[str, object], claims: set[int], strict: bool = False):
        self.parsed = parsed
        self.trust_premises = False
        """Inputs carried from the answer's last sentences are taken as stated (see ``checker._premises_only``)."""
        self.strict = strict
        """Only values that certainly apply: no other sentence's, none from another option ("..., or ...")."""
        self.claim = claim
        self.context = context
        self.facts = facts
        self.claim_indices = claims
        self.roles = input_roles(parsed)
        self.used: list[tuple[str, Found]] = []
        """Every input looked up for this claim, with where it came from (for the confidence check)."""
        self.ambiguous: list[str] = []
        """Inputs the sentence gives more than one value for, with no clear pick ("layers: 12 or 2")."""

    def _use(self, name: str, found: Found | None) -> Found | None:
        if found is not None:
            self.used.append((name, found))
            if found.alternatives:
                self.ambiguous.append(f"{name}: {found.alternatives}")
        return found

    def _carried(self, kind: str, value: object, text: str) -> Found:
        return Found(value, "earlier", text, sentence=self.context.entity_sentence.get(kind, -1))

    # numbers -----------------------------------------------------------------------------
    def _sentence_candidates(self, roles: tuple[str, ...]) -> list[Mention]:
        found = []
        for index, mention in enumerate(self.parsed.mentions):
            if mention is self.claim or index in self.claim_indices:
                continue
            if self.roles.get(index) in roles and not (self.strict and (self.other_option(mention.start) or self._later_than_fact(mention, roles))):
                found.append(mention)
        return found

    def _later_than_fact(self, mention: Mention, roles: tuple[str, ...]) -> bool:
        """An input written in a clause after the claim's that disagrees with the scenario's value: in
        "~40B tokens in four weeks on the 10B, ~40 A100s to finish 200B tokens, ..." the 40 GPUs belong
        to the next alternative, and the scenario's GPU count may be the one meant."""
        if self.parsed.clause_of(mention.start) <= self.claim.clause:
            return False
        fact = next((self.facts[role] for role in roles if role in self.facts), None)
        return isinstance(fact, (int, float)) and abs(float(fact) - mention.value) > 0.05 * abs(mention.value)

    def other_option(self, position: int) -> bool:
        """Whether ``position`` belongs to another option than the claim: "4.5B parameters on 90B tokens,
        or ... 40 A100s to do 200B tokens in four weeks" puts the 4.5B in the first option only."""
        here = self.parsed.clause_of(position)
        low, high = sorted((here, self.claim.clause))
        return any(_OPTION.match(self.parsed.clause_text(index)) for index in range(low + 1, high + 1))

    def in_sentence(self, *roles: str) -> Found | None:
        candidates = self._sentence_candidates(roles)
        if not candidates:
            return None
        best = min(candidates, key=lambda m: self._rank(m.start, m.end))
        alternatives = ""
        if self.other_option(best.start):
            alternatives = f"{best.text.strip()} belongs to another option in the sentence"
        elif self._later_than_fact(best, roles):
            alternatives = f"{best.text.strip()} comes after the claim, in another clause"
        elif re.search(r"\+\s*$", self.parsed.masked[max(0, best.start - 3):best.start]) or re.match(r"\s*\+\s*\d", self.parsed.masked[best.end:best.end + 4]):
            alternatives = f"{best.text.strip()} is one term of a sum"  # "6 + 6 layers": the input is the whole sum
        values = [m for m in candidates if m.direction == "approx"]  # "over one GPU" is a bound, not another value
        if best in values and len({m.value for m in values}) > 1:
            same_clause = [m for m in values if self.parsed.clause_of(m.start) == self.claim.clause]
            if not same_clause or len({m.value for m in same_clause}) > 1:
                alternatives = " or ".join(dict.fromkeys(m.text.strip() for m in values))
        return Found(best.value, "sentence", best.text, best.used_k, alternatives=alternatives)

    def sentence_mentions(self, *roles: str) -> list[Mention]:
        """The sentence's inputs with one of ``roles`` (never the claims)."""
        return self._sentence_candidates(roles)

    def rank(self, mention: Mention) -> tuple[int, int, int]:
        return self._rank(mention.start, mention.end)

    def use(self, name: str, found: Found | None) -> Found | None:
        """Record an input an evaluator looked up directly (see ``used``)."""
        return self._use(name, found)

    def number(self, *roles: str, fact: str | None = None, use_context: bool = True, use_facts: bool = True, as_seq: bool = False) -> Found | None:
        found = self._number(roles, fact, use_context, use_facts)
        if found is not None and as_seq and found.used_k and not isinstance(found.value, str):
            value = context_length(float(found.value), True)  # type: ignore[arg-type]
            if value != found.value:
                found = Found(value, found.source, found.text, True, found.sentence)
        return self._use(roles[0], found)

    def _number(self, roles: tuple[str, ...], fact: str | None, use_context: bool, use_facts: bool) -> Found | None:
        found = self.in_sentence(*roles)
        if found is not None:
            return found
        if use_context:
            for role in roles:
                if role in self.context.numbers:
                    return self.context.numbers[role]
        if use_facts:
            key = fact or roles[0]
            if key in self.facts and not isinstance(self.facts[key], str):
                return Found(self.facts[key], "scenario")
        return None

    def gpus(self) -> Found | None:
        """GPU count: "8 GPUs", "8x A100", or nodes × GPUs per node ("2 nodes of 8 GPUs")."""
        gpus = self.in_sentence("gpus")
        nodes = self.in_sentence("nodes")
        if gpus is not None and nodes is not None:
            text = self.parsed.text
            if any(word in text.lower() for word in ("per node", "each", " of ", "/node", "per machine", "per server", "per host")):
                return self._use("gpus", Found(float(gpus.value) * float(nodes.value), "sentence", f"{nodes.text} × {gpus.text}", alternatives=gpus.alternatives or nodes.alternatives))
        if gpus is not None:
            return self._use("gpus", gpus)
        return self.number("gpus")

    # entities ----------------------------------------------------------------------------
    def _entities(self, kind: str) -> list[Entity]:
        return [e for e in self.parsed.entities if e.kind == kind]

    def _nearest_entity(self, kind: str, predicate=lambda e: True) -> Entity | None:
        entities = [e for e in self._entities(kind) if predicate(e)]
        if not entities:
            return None
        return min(entities, key=lambda e: self._rank(e.start, e.end))

    def model(self) -> tuple[ModelRef, Found] | None:
        named = [e for e in self._entities("model") if e.variants or e.params]
        own_clause = [e for e in named if self.parsed.clause_of(e.start) == self.claim.clause]
        distinct = {e.variants or e.params for e in named}
        if len(distinct) > 1 and not own_clause and all(e.variants for e in named):
            # "Llama-3-8B ... than Llama-2-7B's: 128 KB vs 512 KB": which number goes with which model is
            # not clear, so each named model is a reading and the explanation says which one matched.
            presets = tuple(dict.fromkeys(v for e in named for v in e.variants))
            text = " or ".join(e.text for e in named)
            return ModelRef(presets, None, text), self._use("model", Found(text, "sentence", text))  # type: ignore[return-value]
        entity = self._nearest_entity("model", lambda e: bool(e.variants or e.params))
        if entity is not None:
            ref = ModelRef(entity.variants, entity.params, entity.text)
            return ref, self._use("model", Found(entity.text, "sentence", entity.text))  # type: ignore[return-value]
        if self._sentence_params() is not None:
            return None  # the sentence gives a size; an earlier model name does not apply
        if self.context.model is not None:
            ref, text = self.context.model
            return ref, self._use("model", self._carried("model", text, text))  # type: ignore[return-value]
        if "model" in self.facts and self._number(("params",), None, True, False) is None:
            name = str(self.facts["model"])
            return ModelRef((name,), None, name), self._use("model", Found(name, "scenario"))  # type: ignore[return-value]
        return None

    def _sentence_params(self) -> Found | None:
        candidates = self._sentence_candidates(("params",))
        if not candidates:
            return None
        best = min(candidates, key=lambda m: self._rank(m.start, m.end))
        return Found(best.value, "sentence", best.text, best.used_k)

    def gpu(self) -> tuple[Entity | None, Found] | None:
        entity = self._nearest_entity("gpu")
        if entity is not None:
            distinct = {e.variants or e.text.lower() for e in self._entities("gpu")}
            own_clause = {e.variants or e.text.lower() for e in self._entities("gpu") if self.parsed.clause_of(e.start) == self.claim.clause}
            names = [e.text.strip() for e in self._entities("gpu")]
            if self.context.gpu is not None and self.context.entity_sentence.get("gpu") == self.context.sentence:
                distinct.add(self.context.gpu[0].variants or self.context.gpu[0].text.lower())  # named before a semicolon
                names.insert(0, self.context.gpu[1].strip())
            compared = any(  # "2.6 ms per token versus 6.7 ms on the A10G": the A10G is the other figure's
                e.start >= self.claim.end and re.search(r"\b(?:versus|vs\.?|compared\s+(?:to|with)|against)\s", self.parsed.masked[self.claim.end:e.start], re.IGNORECASE)
                for e in self._entities("gpu") if self.parsed.clause_of(e.start) == self.claim.clause)
            if len(distinct) > 1 and (len(own_clause) != 1 or compared):
                self.ambiguous.append("GPU: " + " or ".join(dict.fromkeys(names)))
            return entity, self._use("gpu", Found(entity.text, "sentence", entity.text))  # type: ignore[return-value]
        if self.context.gpu is not None:
            entity, text = self.context.gpu
            return entity, self._use("gpu", self._carried("gpu", text, text))  # type: ignore[return-value]
        if "gpu" in self.facts:
            return None, self._use("gpu", Found(str(self.facts["gpu"]), "scenario"))  # type: ignore[return-value]
        return None

    def dtype(self, clause_only: bool = False, fact: str = "dtype") -> Found | None:
        if clause_only:
            entity = self._nearest_entity("dtype", lambda e: self.parsed.clause_of(e.start) == self.claim.clause)
        else:
            entity = self._nearest_entity("dtype")
        if entity is not None:
            others = {str(e.value) for e in self._entities("dtype") if _element_bytes(str(e.value)) != _element_bytes(str(entity.value))}
            if others and not clause_only:
                # "int8 weights (~1.3 ms/token) after an eval against the bf16 model": which dtype the number is in is open
                self.ambiguous.append("dtype: " + " or ".join([str(entity.value), *sorted(others)]))
            return self._use("dtype", Found(str(entity.value), "sentence", entity.text))
        if not clause_only and self.context.dtype is not None:
            value, text = self.context.dtype
            return self._use("dtype", self._carried("dtype", value, text))
        if fact in self.facts:
            return self._use("dtype", Found(str(self.facts[fact]), "scenario"))
        return None

    def zero(self) -> tuple[Entity | None, Found] | None:
        entity = self._nearest_entity("zero", lambda e: e.value is not None)
        if entity is not None:
            return entity, self._use("zero", Found(entity.value, "sentence", entity.text))  # type: ignore[return-value]
        if self.context.zero is not None:
            entity, text = self.context.zero
            return entity, self._use("zero", self._carried("zero", entity.value, text))  # type: ignore[return-value]
        if "zero" in self.facts:
            return None, self._use("zero", Found(int(float(self.facts["zero"])), "scenario"))  # type: ignore[arg-type,return-value]
        return None

    def _rank(self, start: int, end: int) -> tuple[int, int, int]:
        """Nearest first: the claim's own clause, then earlier clauses (a list reads left to right), then later ones."""
        claim = self.claim
        same_clause = 0 if self.parsed.clause_of(start) == claim.clause else 1
        after = 1 if start >= claim.end and same_clause else 0
        distance = claim.start - end if end <= claim.start else (start - claim.end) + 5
        return same_clause, after, distance

    def params_closer_than_model(self) -> bool:
        """Whether a stated size ("a 7B model") is nearer the claim than a model name in the same sentence."""
        params = [m for i, m in enumerate(self.parsed.mentions) if self.roles.get(i) == "params" and m is not self.claim and i not in self.claim_indices]
        models = [e for e in self._entities("model") if e.variants or e.params]
        if not params or not models:
            return bool(params)
        return min(self._rank(m.start, m.end) for m in params) < min(self._rank(e.start, e.end) for e in models)

    def sentence_has(self, kind: str) -> bool:
        return bool(self._entities(kind))


def _element_bytes(dtype: str) -> float | None:
    """Bytes per element of a dtype name, None when no calculator knows it."""
    from interviewer.tools.dtypes import BYTES_PER_ELEMENT, normalize_dtype
    from interviewer.tools.errors import CalculatorInputError

    try:
        return BYTES_PER_ELEMENT[normalize_dtype(dtype)]
    except (CalculatorInputError, KeyError):
        return None
