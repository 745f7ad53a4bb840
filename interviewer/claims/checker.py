"""Check every numeric claim in a candidate's answer: find it, fill its inputs, compute, judge.

Judging. A claimed value c matches a computed value v when v/(1+t) ≤ c ≤ v·(1+t), t being the
tolerance: 15 % by default, 25 % after "about"/"roughly"/"~", 2 % after "exactly", a factor of 3
after "on the order of". "At least c" holds when v·(1+t) ≥ c; "under c" when v/(1+t) ≤ c. A range
("150-170 GB") holds when it overlaps v's tolerance band. Where the field has several accepted
conventions, each is tried (the usual one first) and the explanation says which one matched;
a claim that only matches a known mistake (a datasheet's 2:4-sparsity peak) is incorrect and the
explanation says why. Missing inputs make a claim ``unverifiable``, never a guess.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping

from interviewer.claims.evaluators import EVALUATORS, Candidate, Evaluation, InvalidInput, MissingInput, Reading
from interviewer.claims.model import ClaimCheck
from interviewer.claims.parser import MAX_MENTIONS_PER_PIECE, Mention, ParsedSentence, parse_sentence, split_sentences
from interviewer.claims.resolve import Context, Resolver, input_roles, normalize_facts
from interviewer.claims.topics import Topic, classify
from interviewer.claims.units import BASE_UNIT, format_bytes, format_value

logger = logging.getLogger(__name__)

MAX_CLAIMS = 500
"""A real answer has a handful of claims; past this many the rest of a pathological text is skipped."""

MAX_MENTIONS = 20_000
"""Numbers read in one text at most (a megabyte of digits stops here instead of taking minutes)."""

FRACTION_SLACK = 0.002
"""Absolute slack for fractions (0.2 percentage points), so "0%" matches a bubble of 0.1 %."""

_PREFERENCE_PENALTY = 0.05
"""How much closer (in log ratio) a non-usual convention must be to be reported instead of the usual one."""


def check_claims(text: str, facts: Mapping[str, float | int | str] | None = None) -> list[ClaimCheck]:
    """Find and check every numeric claim in ``text``.

    ``facts`` are the scenario's given values (params, gpus, gpu, dtype, seq, batch, layers, hidden,
    heads, kv_heads, head_dim, model, rate, latency, ...); they fill inputs the sentence does not
    give. Sentences without a checkable quantity produce nothing.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, not {type(text).__name__}")
    normalized = normalize_facts(facts)
    context = Context()
    results: list[ClaimCheck] = []
    previous = ""
    budget = MAX_MENTIONS
    for offset, sentence in split_sentences(text):
        if budget <= 0:
            break
        parsed = parse_sentence(sentence, offset, max_mentions=min(budget, MAX_MENTIONS_PER_PIECE))
        budget -= len(parsed.mentions)
        if previous and _after_semicolon(text, offset):
            parsed.cue_prefix = previous[-300:]
        previous = sentence
        claims: list[tuple[int, Mention, Topic]] = []
        for index, mention in enumerate(parsed.mentions):
            topic = classify(parsed, mention)
            if topic is not None:
                claims.append((index, mention, topic))
        indices = {index for index, _, _ in claims}
        for _, mention, topic in claims:
            results.append(_check_one(parsed, mention, topic, context, normalized, indices, several=len(claims) > 1))
            if len(results) >= MAX_CLAIMS:
                return results
        context.update(parsed, indices, input_roles(parsed))
    return results


def _after_semicolon(text: str, offset: int) -> bool:
    """Whether the piece at ``offset`` follows a semicolon (looking back over a little whitespace only)."""
    index = offset - 1
    while index >= 0 and offset - index < 100 and text[index].isspace():
        index -= 1
    return index >= 0 and text[index] == ";"


# --- one claim ----------------------------------------------------------------------------------


def _said(mention: Mention) -> str:
    qualifier = mention.qualifier if mention.qualifier and mention.qualifier != "range" else ""
    words = mention.text
    if qualifier and mention.direction != "approx" or qualifier in ("about", "around", "roughly", "approximately", "~", "≈", "exactly"):
        if not mention.text.lower().startswith(qualifier.lower()):
            words = f"{qualifier} {mention.text}" if qualifier not in ("~", "≈") else f"{qualifier}{mention.text}"
    return words.strip()


def _claim_text(parsed: ParsedSentence, mention: Mention, several: bool) -> str:
    if several:
        start, end = parsed.clauses[mention.clause]
        clause = parsed.text[start:end].strip(" ,;:-–—")
        if len(clause) >= 12:
            return clause
    return parsed.text.strip()


def _default_readings(mention: Mention) -> list[Reading]:
    readings = [Reading(mention.value, mention.low, mention.high)]
    if mention.dim == "bytes" and mention.binary_alternative and mention.value:
        ratio = mention.binary_alternative / mention.value
        unit = mention.unit_text.strip()
        other = _other_byte_unit(unit, mention.is_binary)
        label = f"{unit} read as {other} ({'decimal' if mention.is_binary else 'binary'} units)"
        low = mention.low * ratio if mention.low is not None else None
        high = mention.high * ratio if mention.high is not None else None
        readings.append(Reading(mention.binary_alternative, low, high, label))
    return readings


def _other_byte_unit(unit: str, is_binary: bool) -> str:
    prefix = unit[:1].upper() if unit else "G"
    if prefix not in "KMGTP":
        return "GiB" if not is_binary else "GB"
    return f"{prefix}B" if is_binary else f"{prefix}iB"


def _bounds(candidate: Candidate, tolerance: float, unit: str) -> tuple[float, float]:
    low = candidate.low if candidate.low is not None else candidate.value
    high = candidate.high if candidate.high is not None else candidate.value
    low, high = min(low, high), max(low, high)
    lo = low / (1 + tolerance) if low >= 0 else low * (1 + tolerance)
    hi = high * (1 + tolerance) if high >= 0 else high / (1 + tolerance)
    if unit == "fraction":
        lo, hi = lo - FRACTION_SLACK, hi + FRACTION_SLACK
    return lo, hi


def _matches(reading: Reading, candidate: Candidate, direction: str, tolerance: float, unit: str) -> float | None:
    """None if the reading does not match; else how far it is from the candidate (log ratio, 0 inside)."""
    lo, hi = _bounds(candidate, tolerance, unit)
    claimed_low = reading.low if reading.low is not None else reading.value
    claimed_high = reading.high if reading.high is not None else reading.value
    if direction == "at_least":
        return 0.0 if claimed_low <= hi else None
    if direction == "at_most":
        return 0.0 if claimed_high >= lo else None
    if claimed_low > hi or claimed_high < lo:
        return None
    return _distance(reading, candidate)


def _distance(reading: Reading, candidate: Candidate) -> float:
    low = candidate.low if candidate.low is not None else candidate.value
    high = candidate.high if candidate.high is not None else candidate.value
    low, high = min(low, high), max(low, high)
    value = reading.value
    if low <= value <= high:
        return 0.0
    target = low if value < low else high
    if value <= 0 or target <= 0:
        return abs(value - target)
    return abs(math.log(value / target))


NEAR_EXACT = 0.01
"""A non-usual reading is reported instead of the usual one only if it is this close (1 %)
and the usual one is not: "2 GB" for 2 GiB of KV cache was computed in binary units."""


def judge(readings: list[Reading], candidates: list[Candidate], direction: str, tolerance: float, unit: str) -> tuple[str, Candidate, Reading]:
    """(verdict, the candidate it was judged against, the reading used).

    The usual reading (first reading, first candidate) wins whenever it matches, unless another
    one matches almost exactly; otherwise the closest matching convention is reported.
    """
    real = [c for c in candidates if c.mistake is None and math.isfinite(c.value)]
    matches: list[tuple[float, int, Candidate, Reading]] = []
    for reading_index, reading in enumerate(readings):
        for candidate_index, candidate in enumerate(real):
            distance = _matches(reading, candidate, direction, tolerance, unit)
            if distance is not None:
                departures = _label_parts(reading.label) + (_label_parts(candidate.label) if candidate_index > 0 else 0)
                matches.append((distance, departures, candidate, reading))
    if matches:
        usual = [m for m in matches if m[1] == 0]
        near_exact = [m for m in matches if m[0] < NEAR_EXACT]
        if usual and (usual[0][0] < NEAR_EXACT or not near_exact):
            chosen = usual[0]
        elif near_exact:
            chosen = min(near_exact, key=lambda m: (m[1], m[0]))
        else:
            chosen = min(matches, key=lambda m: m[0] + _PREFERENCE_PENALTY * m[1])
        return "correct", chosen[2], chosen[3]
    for candidate in candidates:
        if candidate.mistake is not None and _matches(readings[0], candidate, direction, tolerance, unit) is not None:
            return "incorrect", candidate, readings[0]
    return "incorrect", real[0], readings[0]


def _label_parts(label: str | None) -> int:
    """How many departures from the usual reading a label names ("gpt2-xl; non-embedding" is two)."""
    return len(label.split("; ")) if label else 0


def _times(ratio: float) -> str:
    if ratio < 10:
        return f"{ratio:.2g}×"
    if ratio < 1e6:
        return f"{float(f'{ratio:.2g}'):,.0f}×"
    return f"{ratio:.1e}×".replace("e+", "e")


def _ratio_text(claimed: float, computed: float) -> str:
    if computed <= 0 or claimed <= 0:
        return "not close" if claimed > 0 or computed > 0 else "wrong sign"
    ratio = claimed / computed
    if ratio >= 1:
        return f"{_times(ratio)} too high"
    return f"{_times(1 / ratio)} too low"


def _show(value: float, unit: str, binary: bool, per_token: bool = False) -> str:
    if unit == "bytes" and binary:
        return f"{format_bytes(value)} ({format_bytes(value, binary=True)})"
    text = format_value(value, unit)
    if per_token:
        text += " per token"
    return text


def _check_one(parsed: ParsedSentence, mention: Mention, topic: Topic, context: Context, facts: dict, claims: set[int], several: bool) -> ClaimCheck:
    text = _claim_text(parsed, mention, several)
    said = _said(mention)
    span = (parsed.offset + mention.start, parsed.offset + mention.end)
    resolver = Resolver(parsed, mention, context, facts, claims)
    unit = BASE_UNIT.get(mention.dim, "count")
    base = dict(text=text, quantity=topic.quantity, tolerance=mention.tolerance, direction=mention.direction, span=span, calculator=topic.calculator)
    claimed_value = mention.value if mention.low is None else (mention.low + mention.high) / 2  # type: ignore[operator]
    try:
        evaluation = EVALUATORS[topic.id](resolver, mention, topic)
    except MissingInput as missing:
        what = _join(missing.what)
        return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {topic.quantity}, but I can't check it without {what}.",
                          working=[f"missing: {item}" for item in missing.what])
    except InvalidInput as invalid:
        return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {topic.quantity}, but I can't check it: {invalid}.",
                          working=[f"invalid input: {invalid}"])
    except Exception as error:  # never let one odd sentence break the interview
        logger.exception("claim check failed for %r", mention.text)
        return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {topic.quantity}, but I could not compute it ({type(error).__name__}).",
                          working=[f"error: {error}"])
    return _verdict(evaluation, mention, said, base)


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(ev: Evaluation, mention: Mention, said: str, base: dict) -> ClaimCheck:
    unit = ev.unit
    if ev.quantity:
        base = base | {"quantity": ev.quantity}
    readings = ev.readings or _default_readings(mention)
    ev.candidates = _dedupe(ev.candidates)
    claimed = readings[0].value if readings[0].low is None else (readings[0].low + readings[0].high) / 2  # type: ignore[operator]
    real = [c for c in ev.candidates if c.mistake is None]
    if not real or not all(math.isfinite(c.value) for c in real):
        return ClaimCheck(**base | {"calculator": real[0].calculator if real else base["calculator"]}, claimed=_finite(claimed), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {base['quantity']}, but the inputs are too large to compute a finite value.",
                          working=ev.notes)
    verdict, chosen, reading = judge(readings, ev.candidates, mention.direction, mention.tolerance, unit)
    per_token = ev.topic.id == "decode"
    binary = unit == "bytes" and (mention.is_binary or (reading.label is not None and "binary" in reading.label))
    working = list(ev.notes) + list(chosen.working)
    convention = None
    if verdict == "correct":
        convention = _label_join_all(chosen.label, reading.label)
        computed_text = _show(chosen.value, unit, binary, per_token)
        via = f" using {convention}" if convention else ""
        explanation = f"You said {said}{ev.said_suffix}; I get {computed_text}{via}: {chosen.summary}."
        computed = chosen.value
        working.append(f"matches within {mention.tolerance:.0%}" if mention.direction == "approx" else f"consistent with '{said}'")
    else:
        if chosen.mistake is not None:
            computed = next((c.value for c in real if c.inputs == chosen.inputs), chosen.value / 2)
            computed_text = _show(computed, unit, binary, per_token)
            explanation = f"You said {said}{ev.said_suffix}; I get {computed_text}: {chosen.mistake}."
        else:
            computed = chosen.value
            computed_text = _show(computed, unit, binary, per_token)
            ratio = _ratio_text(readings[0].value, computed)
            if ev.throughput and readings[0].value > 0 and computed > 0:
                ratio = _ratio_text(1 / readings[0].value, 1 / computed)
                computed_text += f" ({1 / computed:,.3g} tokens/s)"
            if mention.direction == "at_least":
                verdict_text = "so your lower bound is too high"
            elif mention.direction == "at_most":
                verdict_text = "so your upper bound is too low"
            else:
                verdict_text = f"so yours is {ratio}"
            explanation = f"You said {said}{ev.said_suffix}; I get {computed_text}, {verdict_text}: {chosen.summary}."
            others = [c for c in real[1:] if c.label and abs(c.value - computed) > 1e-9 * max(abs(computed), 1)]
            if others:
                shown = "; ".join(f"{c.label}: {_show(c.value, unit, binary, per_token)}" for c in others[:2])
                explanation += f" Other accepted readings don't match either ({shown})."
                for c in others:
                    working.append(f"also checked {c.label}: {_show(c.value, unit, binary, per_token)}")
    return ClaimCheck(
        **base | {"calculator": chosen.calculator},
        claimed=_finite(claimed), computed=_finite(computed), unit=unit, verdict=verdict,  # type: ignore[arg-type]
        explanation=explanation, working=working, inputs=_plain(chosen.inputs), convention=convention,
    )


def _dedupe(candidates: list[Candidate]) -> list[Candidate]:
    """Drop candidates equal to an earlier one (two GPU variants with the same peak, say)."""
    kept: list[Candidate] = []
    seen: set[tuple] = set()
    for candidate in candidates:
        key = (f"{candidate.value:.9g}", candidate.low, candidate.high, candidate.mistake is None)
        if key in seen:
            continue
        seen.add(key)
        kept.append(candidate)
    return kept


def _label_join_all(*labels: str | None) -> str | None:
    parts = [label for label in labels if label]
    return "; ".join(parts) if parts else None


def _plain(inputs: dict) -> dict:
    return {key: (value if isinstance(value, (int, float, str, bool)) or value is None else str(value)) for key, value in inputs.items()}
