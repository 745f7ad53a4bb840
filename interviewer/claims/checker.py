"""Check every numeric claim in a candidate's answer: find it, fill its inputs, compute, judge.

Judging. A claimed value c matches a computed value v when v/(1+t) ≤ c ≤ v·(1+t), t being the
tolerance: 15 % by default, 25 % after "about"/"roughly"/"~", 2 % after "exactly", a factor of 3
after "on the order of". "At least c" holds when v·(1+t) ≥ c; "under c" when v/(1+t) ≤ c. A range
("150-170 GB") holds when it overlaps v's tolerance band. Where the field has several accepted
conventions, each is tried (the usual one first) and the explanation says which one matched;
a claim that only matches a known mistake (a datasheet's 2:4-sparsity peak) is incorrect and the
explanation says why. Missing inputs make a claim ``unverifiable``, never a guess.

Confidence. A claim that does not match is called incorrect only if nothing about its reading is
uncertain (``doubts_about``): an input carried from another sentence or option, two values for one
input, an assumed default that the candidate's own arithmetic contradicts, an MoE's unstated active
size, a quantity the sentence leaves open (``topics.alternatives``). Then the claim is checked again
with this sentence and the scenario alone; if that reading matches it is correct, if it is still
certain and does not match it is incorrect, and otherwise it is unverifiable, with the doubt and
the value under the assumed inputs in the explanation.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping

from interviewer.claims.arithmetic import Arithmetic, agrees, clearly_disagrees, stated_arithmetic, stated_rate
from interviewer.claims.evaluators import EVALUATORS, Candidate, Evaluation, InvalidInput, MissingInput, Reading
from interviewer.claims.formulas import check_formulas
from interviewer.claims.model import ClaimCheck, ClaimScope, InputSource
from interviewer.claims.parser import MAX_MENTIONS_PER_PIECE, Mention, ParsedSentence, parse_sentence, split_sentences, table_headers
from interviewer.claims.resolve import OPTION, Context, Resolver, input_roles, normalize_facts
from interviewer.claims.scaling import check_ratios, check_scaling
from interviewer.claims.topics import CUES, TOPICS, Topic, alternatives, classify
from interviewer.units import BASE_UNIT, format_bytes, format_count, format_value, parse_number

logger = logging.getLogger(__name__)

MAX_CLAIMS = 500
"""A real answer has a handful of claims; past this many the rest of a pathological text is skipped."""

MAX_MENTIONS = 20_000
"""Numbers read in one text at most (a megabyte of digits stops here instead of taking minutes)."""

FRACTION_SLACK = 0.002
"""Absolute slack for fractions (0.2 percentage points), so "0%" matches a bubble of 0.1 %."""

_PREFERENCE_PENALTY = 0.05
"""How much closer (in log ratio) a non-usual convention must be to be reported instead of the usual one."""


IGNORECASE_LOOKALIKES = str.maketrans({"\u0130": "I", "\u0131": "i", "\u017f": "s", "\u212a": "K"})
"""The four non-ASCII letters that Python's case-insensitive regexes match as ASCII (re docs,
"IGNORECASE"): mapped first, so a unit matched as "s" is looked up as "s". Same length, so
offsets into the text stay valid. Found by bench/fuzz_claims.py ("5 ſ")."""


def check_claims(text: str, facts: Mapping[str, float | int | str] | None = None) -> list[ClaimCheck]:
    """Find and check every numeric claim in ``text``.

    ``facts`` are the scenario's given values (params, gpus, gpu, dtype, seq, batch, layers, hidden,
    heads, kv_heads, head_dim, model, rate, latency, ...); they fill inputs the sentence does not
    give. Sentences without a checkable quantity produce nothing.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, not {type(text).__name__}")
    text = text.translate(IGNORECASE_LOOKALIKES)
    normalized = normalize_facts(facts)
    context = Context()
    results: list[ClaimCheck] = []
    previous = ""
    last_mentions: list[Mention] = []
    budget = MAX_MENTIONS
    rows = table_headers(text) if "|" in text else []
    for offset, sentence in split_sentences(text):
        if budget <= 0:
            break
        following = re.split(r"(?<=[.!?;])\s", text[offset + len(sentence):offset + len(sentence) + 200].strip(), maxsplit=1)[0]
        headers = next((header for start, end, header in rows if start <= offset < end), None)
        try:
            parsed = parse_sentence(sentence, offset, max_mentions=min(budget, MAX_MENTIONS_PER_PIECE), column_headers=headers)
        except (ArithmeticError, ValueError):
            logger.warning("could not parse %r", sentence[:200], exc_info=True)  # degenerate numbers, see below
            continue
        budget -= len(parsed.mentions)
        parsed.previous_text = _text_before(text, offset)
        if previous and _after_semicolon(text, offset):
            parsed.cue_prefix = previous[-300:]
            context.new_option = OPTION.match(sentence) is not None
        else:
            context.sentence += 1
            context.new_option = False
        previous = sentence
        claims: list[tuple[int, Mention, Topic]] = []
        withdrawn = _withdrawn_before(sentence, following)
        rejected = _rejected_target(sentence)
        for index, mention in enumerate(parsed.mentions):
            if mention.start < withdrawn:
                continue  # "I said 80 GB before; that was wrong": a retraction is not a claim of its number
            if rejected[0] <= mention.start < rejected[1]:
                continue  # "finishing a 400-token reply inside 100 ms isn't realistic": a rejected target, not a claim
            topic = classify(parsed, mention)
            if topic is not None:
                claims.append((index, mention, topic))
            elif (slip := _arithmetic_slip(parsed, mention, several=len(parsed.mentions) > 1)) is not None:
                results.append(slip)  # "2 × 80 × 8 × 128 × 2 = 655,360 bytes": wrong whatever it is about
        indices = {index for index, _, _ in claims}
        results.extend(_restatement_slips(parsed))
        if not withdrawn:
            results.extend(_ratio_slips(parsed))
        formula_checks = [*check_scaling(sentence, offset), *check_formulas(sentence, offset, parsed.previous_text)] if not withdrawn else []
        if not withdrawn:
            taken = [check.span for check in formula_checks if check.span]
            formula_checks += [check for check in check_ratios(sentence, offset, normalized)
                               if check.span and not any(lo < check.span[1] and check.span[0] < hi for lo, hi in taken)]
        if formula_checks:
            # "from 2k to 8k context multiplies the KV cache by 16", "99.9% over 30 days allows 8 hours":
            # the formula's result is the claim; no topic reads the same number again
            covered = [check.span for check in formula_checks if check.span]
            claims = [c for c in claims if not any(lo <= parsed.offset + c[1].start < hi for lo, hi in covered)]
            results.extend(formula_checks)
        wrong_inputs = {check.span: check for check in formula_checks if check.verdict == "incorrect" and check.span}
        for _, mention, topic in claims:
            try:
                check = _on_wrong_input(_check_one(parsed, mention, topic, context, normalized, indices, several=len(claims) > 1), parsed, wrong_inputs)
                results.append(_off_by_a_stated_factor(check, parsed, mention, last_mentions, normalized))
            except (ArithmeticError, ValueError):
                # Degenerate numbers (zeros, 1e308, overflow) that no calculator can take: no verdict
                # is better than a wrong one or a crash. Found by bench/fuzz_claims.py.
                logger.warning("could not check a claim in %r", parsed.text[:200], exc_info=True)
            if len(results) >= MAX_CLAIMS:
                return results
        context.update(parsed, indices, input_roles(parsed))
        context.previous_text = parsed.previous_text + " " + sentence
        last_mentions = parsed.mentions
    return results


_SCOPE_WORDS = frozenset({"per_gpu", "total", "per_token", "per_sequence", "per_layer", "sent"})
_FACTOR_FACTS = ("layers", "seq", "tp", "stages")
"""Scenario facts a figure is often taken per or over without saying so: per layer, per token of the
context, per tensor- or pipeline-parallel rank."""
_FACT_NAMES = {"layers": "layer count", "seq": "context length", "tp": "tensor-parallel degree", "stages": "pipeline stages"}
_FACTOR_DIMS = frozenset({"bytes", "FLOPs", "flops?", "seconds", "s_per_token"})


def _stated_factors(parsed: ParsedSentence, mention: Mention, last_mentions: list[Mention], facts: Mapping[str, object]) -> dict[float, str]:
    """Whole numbers of 3 or more that a figure may be per or over: those in this sentence and the one
    before, products of two in this sentence ("TP=8 and PP=4": 32), and the scenario's counts."""
    here = [m for m in parsed.mentions if m is not mention]
    factors: dict[float, str] = {}
    for m in (*here, *last_mentions):
        if 3 <= m.value <= 1e6 and float(m.value).is_integer():
            factors.setdefault(float(m.value), f"the {m.text.strip()} you stated")
    for i, a in enumerate(here):
        for b in here[i + 1:]:
            product = a.value * b.value
            if a.value >= 2 and b.value >= 2 and 3 <= product <= 1e6 and float(product).is_integer():
                factors.setdefault(float(product), f"{a.text.strip()} × {b.text.strip()}")
    for key in _FACTOR_FACTS:
        value = facts.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 3 <= value <= 1e6:
            factors.setdefault(float(value), f"the scenario's {_FACT_NAMES[key]}, {value:,.0f}")
    return factors


def _off_by_a_stated_factor(check: ClaimCheck, parsed: ParsedSentence, mention: Mention, last_mentions: list[Mention], facts: Mapping[str, object]) -> ClaimCheck:
    """"The KV cache of a single layer is 512 MiB" read as the whole cache is 32× too low, and 32 is the
    scenario's layer count: a figure that is the computed one divided or multiplied by a count the
    sentence, the one before or the scenario states is most likely per or over that count, in a scope
    the sentence does not mark. It is not called wrong; it becomes a question. A scope the sentence
    does mark ("per GPU", "in total") was read, so a figure off by the GPU count there stays wrong."""
    if check.verdict != "incorrect" or check.calculator is None or mention.markers & _SCOPE_WORDS or check.direction != "approx" or mention.dim not in _FACTOR_DIMS:
        return check
    claimed = check.claimed
    computed = [v for v in (check.computed, *check.accepted_values) if v]
    if not claimed or claimed <= 0 or not computed:
        return check
    tolerance = max(check.tolerance, 0.1)
    # An input the calculation took from the sentence was read: a figure off by exactly it (a batch of 8
    # counted once) is the classic slip, not an unmarked scope.
    used = {float(source.value) for source in check.provenance if source.source == "stated" and isinstance(source.value, (int, float))}
    for factor, source in _stated_factors(parsed, mention, last_mentions, facts).items():
        if any(abs(factor / value - 1) <= 0.03 for value in used if value):
            continue  # "32k-token" is the 32,768 the calculation used
        for value in computed:
            for scaled, how in ((value / factor, "divided"), (value * factor, "multiplied")):
                if scaled > 0 and scaled / (1 + tolerance) <= claimed <= scaled * (1 + tolerance):
                    shown = format_value(value, check.unit)
                    return check.model_copy(update={
                        "verdict": "unverifiable", "computed": None,
                        "explanation": f"You said {_said(mention)}; I get {shown} for the {check.quantity}, and yours is that {how} by {factor:,.0f} "
                                       f"({source}). Did you mean it {'per one of those' if how == 'divided' else 'over all'} {factor:,.0f}? I won't call it wrong until I know which you meant.",
                        "working": [f"{NOT_JUDGED}{shown} {how} by {factor:,.0f} ({source}) gives your figure", *check.working],
                    })
    return check


_RETRACTION = re.compile(
    r"\b(?:that\s+was\s+wrong|that'?s\s+wrong|that\s+is\s+wrong|(?:is|was|are|were)\s+(?:simply\s+|just\s+)?(?:wrong|incorrect|a\s+(?:common\s+)?mistake|a\s+myth)"
    r"|scratch\s+that|i\s+was\s+wrong|my\s+mistake|my\s+bad|i\s+misspoke|i\s+take\s+(?:that|it)\s+back|ignore\s+that|not\s+right|wrong\s+by)\b",
    re.IGNORECASE,
)
_REPORTED = re.compile(
    r"^\W*(?:(?:earlier|before|above)\s*,?\s*)?(?:i|we)\s+(?:said|claimed|wrote|estimated|guessed|thought)\b"
    r"|^\W*(?:i|we)(?:'ve|\s+have|\s+often|\s+sometimes)?\s+(?:heard|seen|read)\b[^.;]{0,80}?\b(?:quoted|cited|claimed|thrown\s+around|said|mentioned|floated)\b"
    r"|^\W*(?:some\s+)?(?:people|folks|blog\s+posts|many)\s+(?:say|quote|claim|think)\b|^\W*a\s+common\s+(?:mistake|error|misconception)\b"
    r"|^\W*(?:some|a|one|the|my|our)\s+(?:blog(?:\s+post)?|paper|article|tweet|thread|person|colleague|coworker|guy|vendor|team(?:mate)?|friend|interviewer)\s+(?:says?|said|quotes?|quoted|claims?|claimed|thinks?|thought|wrote|suggests?|suggested|told\s+me)\b"
    r"|^\W*the\s+naive\s+(?:estimate|answer|number)\b",
    re.IGNORECASE,
)


def _on_wrong_input(check: ClaimCheck, parsed: ParsedSentence, wrong_inputs: dict[tuple[int, int], ClaimCheck]) -> ClaimCheck:
    """"Each HDR NIC does 25 Gb/s, so the all-reduce takes about 140 ms": the 25 Gb/s is wrong (it is
    25 GB/s) and is the one to point out; the time worked from it is not judged against it."""
    if check.verdict != "incorrect" or not wrong_inputs:
        return check
    for source in check.provenance:
        if source.source != "stated" or not source.said:
            continue
        at = parsed.text.find(source.said)
        span = (parsed.offset + at, parsed.offset + at + len(source.said)) if at >= 0 else None
        wrong = next((w for s, w in wrong_inputs.items() if span and s[0] < span[1] and span[0] < s[1]), None)
        if wrong is not None:
            said = parsed.text[check.span[0] - parsed.offset:check.span[1] - parsed.offset].strip() if check.span else format_value(check.claimed or 0.0, check.unit)
            worked = f" it would be {format_value(check.computed, check.unit)}" if check.computed is not None else " it does not follow"
            fixed = format_value(wrong.computed, wrong.unit) if wrong.computed is not None else "another figure"
            return check.model_copy(update={
                "verdict": "unverifiable",
                "explanation": f"You said {said}. Worked from your {source.said}{worked}, but {source.said} is itself off (it is {fixed}), so I don't judge this number by it.",
                "working": [f"{NOT_JUDGED}it rests on the stated {source.said}, which is wrong", *check.working],
            })
    return check


_CORRECTED_IN_SENTENCE = re.compile(r"[;,]\s*(?:but\s+)?(?:it'?s|it\s+is|that'?s|the\s+real\s+(?:number|figure)\s+is|in\s+reality\s+it'?s)\s+(?:actually|really)\b|[;,]\s*(?:but\s+)?actually\b", re.IGNORECASE)
_CORRECTION = re.compile(r"^\W*(?:no|nope|actually|sorry|oops|correction|rather)\b\s*[,:;.!-]|^\W*(?:but\s+)?(?:it'?s|it\s+is|that'?s|the\s+real\s+(?:number|figure)\s+is)\s+(?:actually|really)\b", re.IGNORECASE)
"""The next sentence opens by correcting what was reported: "Earlier I said around 6.5e5; no, it's 65,504"."""


def _withdrawn_before(sentence: str, following: str) -> int:
    """Numbers before this offset are withdrawn or reported, not claimed: the sentence retracts
    them ("…; that was wrong", "scratch that"), reports someone's figure it goes on to reject, or
    the next, short sentence retracts them ("That was wrong.")."""
    retraction = _RETRACTION.search(sentence)
    if retraction and (_REPORTED.search(sentence) or retraction.start() > len(sentence) // 3):
        return retraction.start()
    if _REPORTED.search(sentence) and (_RETRACTION.search(following) or _CORRECTION.match(following)) and len(following.split()) <= 12:
        return len(sentence)
    corrected = _CORRECTED_IN_SENTENCE.search(sentence)
    if _REPORTED.search(sentence) and corrected:
        return corrected.start()  # "I've heard 8 GB quoted for it; it's actually about 2 GB": the reported figure is withdrawn
    return 0


_REJECTION = re.compile(
    r"\b(?:(?:is|are|was|would\s+be|will\s+be)\s+(?:not|never)|isn'?t|aren'?t|wasn'?t|won'?t\s+be|wouldn'?t\s+be|not)\s+"
    r"(?:(?:really|even|remotely|physically)\s+)?(?:realistic|possible|achievable|feasible|doable|attainable|plausible|going\s+to\s+happen)\b"
    r"|\b(?:is|are|'s|sounds?|seems?|looks?)\s+(?:(?:just|simply|totally|completely|physically)\s+)?(?:unrealistic|impossible|infeasible|unachievable|implausible|a\s+fantasy|wishful\s+thinking)\b"
    r"|\bcan'?t\s+be\s+(?:done|hit|met|reached|achieved)\b",
    re.IGNORECASE,
)
_REJECTED_FROM = re.compile(r"[,;:]\s*|\s(?:so|because|since|which|and|but|while|whereas)\s", re.IGNORECASE)


def _rejected_target(sentence: str) -> tuple[int, int]:
    """Where the figures a sentence rejects as infeasible are: the clause before "isn't realistic",
    "is impossible", "can't be met" ("Finishing a 400-token reply inside 100 ms isn't realistic").
    Figures in earlier clauses ("160 GB, so one GPU is not realistic") are still claims."""
    rejection = _REJECTION.search(sentence)
    if rejection is None:
        return (0, 0)
    boundaries = [m.end() for m in _REJECTED_FROM.finditer(sentence, 0, rejection.start())]
    return (boundaries[-1] if boundaries else 0, rejection.start())


_NUMBER_WITH_UNITS = re.compile(r"\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?(?:\s*(?!x\b)[A-Za-z]{1,12}(?:/[A-Za-z]{1,6})?)*")


def _plain_arithmetic(text: str, expression: str) -> bool:
    """Numbers (each with its units) joined by × x * · / + − ^ and parentheses, under a square root or
    not, and nothing else: no variable ("s/2"), no other function ("log(…)"), no percentage, no
    comparison."""
    at = text.find(expression)
    if at > 0 and re.search(r"(?:√|\b(?:sqrt|log|exp|ln))\s*\(?\s*$|[A-Za-z_(]$", text[:at]):
        return False  # only part of a function's argument was read
    if re.search(r"\d(?:sbh|bsh|(?![eE][+-]?\d)[a-z]{1,3}[²³]?)(?![a-z\d])", expression) and not re.search(r"\d(?:k|m|b|g|t|s|ms|us|µs|kb|mb|gb|tb|b/s)\b", expression, re.IGNORECASE):
        return False  # "34sbh x 48": a symbol glued to its coefficient, not a unit
    skeleton = re.sub(r"^\s*(?:sqrt|√)\s*(?=\()", "", _NUMBER_WITH_UNITS.sub("N", expression), flags=re.IGNORECASE)
    return bool(re.fullmatch(r"[N\s×x*·/+−()^-]+", skeleton)) and (skeleton.count("N") >= 2 or "^" in expression)


_RESTATED_AS = re.compile(
    r"\s*(?:,\s*)?(?:which\s+is|which'?s|that\s+is|that'?s|i\.\s?e\.?,?|=|≈|~=|is|are|works\s+out\s+to|comes\s+to)"
    r"\s*(?:about|around|roughly|approximately|approx\.?|~|≈|only|just|nearly|almost|basically|like)?\s*",
    re.IGNORECASE,
)
_RESTATABLE = frozenset({"seconds", "bytes", "FLOPs", "FLOP/s", "bytes/s", "req_per_s"})


def _restatement_slips(parsed: ParsedSentence) -> list[ClaimCheck]:
    """One quantity restated in another unit ("2.9e6 s, which is about 8 days", "1.2e7 s is roughly
    14 days") that differs from itself by 1.5× or more: a unit slip, whatever the quantity is."""
    found = []
    for first, second in zip(parsed.mentions, parsed.mentions[1:], strict=False):
        if first.dim != second.dim or first.dim not in _RESTATABLE or first.low is not None or second.low is not None:
            continue
        if not _RESTATED_AS.fullmatch(parsed.text[first.end:second.start]) or first.unit_text.strip() == second.unit_text.strip():
            continue
        if re.search(r"(?:[×*·/+^−-]|\bx)\s*(?:≈|~|about|around)?\s*$", parsed.text[:first.start]):
            continue  # "7B × 2 bytes = 14 GB": the first number is a factor of an expression, not a quantity
        values = [v for v in (second.value, second.binary_alternative) if v]
        if not first.value or not values or any(max(v / first.value, first.value / v) < 1.5 for v in values):
            continue
        unit = BASE_UNIT.get(first.dim, "count")
        shown = format_value(first.value, unit)
        if first.dim == "req_per_s" and (written := parse_number(second.text.split()[0])):
            # "2,000 req/s is 1.2e6 requests a minute": say it in the second one's period
            shown = f"{format_count(first.value * written / second.value)} {second.unit_text.strip()}"
        found.append(ClaimCheck(
            text=parsed.text.strip(), quantity="the same quantity in another unit", claimed=_finite(second.value),
            computed=_finite(first.value), unit=unit, verdict="incorrect",
            explanation=f"You said {_said(first)} is {_said(second)}, but {_said(first)} is {shown}.",
            working=[f"{first.text} = {first.value:.6g} {unit}", f"{second.text} = {second.value:.6g} {unit}"],
            span=(parsed.offset + second.start, parsed.offset + second.end),
        ))
    return found


_FACTOR_SAID = re.compile(
    r"(?<![\d.,])(?P<n>\d+(?:\.\d+)?)\s*(?:x|×|times|-?fold)\s+(?:(?:faster|quicker|larger|bigger|more|higher|greater|wider|smaller|slower|less|fewer|lower|narrower)\b"
    r"(?:\s+[\w-]+){0,2}?\s+than|as\s+(?:fast|large|big|much|high|many|wide)\s+as)\b",
    re.IGNORECASE,
)
_RATIO_DIMS = frozenset({"bytes", "bytes/s", "FLOP/s", "FLOPs", "seconds", "s_per_token", "tokens_per_s", "parameters", "req_per_s"})


def _ratio_slips(parsed: ParsedSentence) -> list[ClaimCheck]:
    """"NVLink at 900 GB/s is about 2x faster than the 50 GB/s IB link": a factor said between two
    figures of one kind, both in the sentence, that their own ratio contradicts by 1.5× or more
    (read either way round, so "faster" and "slower" never decide it)."""
    found = []
    for match in _FACTOR_SAID.finditer(parsed.masked):
        # "0.3125 MiB per token (1.25 GiB at 4k), 8× less than the 2.5 MiB": a figure in a parenthesis
        # that closed before the factor is an aside, not the one compared
        before = [m for m in parsed.mentions if m.end <= match.start() and m.dim in _RATIO_DIMS
                  and parsed.masked.count(")", m.end, match.start()) <= parsed.masked.count("(", m.end, match.start())]
        after = [m for m in parsed.mentions if m.start >= match.end() and m.dim in _RATIO_DIMS]
        if not before or not after or before[-1].dim != after[0].dim or before[-1].low is not None or after[0].low is not None:
            continue
        first, second = before[-1], after[0]
        claimed = float(match.group("n"))
        if first.value <= 0 or second.value <= 0 or claimed <= 0 or re.search(r"[;]", parsed.masked[first.end:second.start]):
            continue
        if any(re.search(r"(?:[×*·/+]|\bx)\s*$", parsed.masked[:m.start]) or re.match(r"\s*(?:[×*·/+]|x\s*\d)", parsed.masked[m.end:]) for m in (first, second)):
            continue  # "8 GPUs × 80 GB is 2x more than the 320 GB": a term of an expression is not the figure compared
        ratio = first.value / second.value
        if min(max(claimed / r, r / claimed) for r in (ratio, 1 / ratio)) < 1.5:
            continue
        shown = max(ratio, 1 / ratio)
        found.append(ClaimCheck(
            text=parsed.text.strip(), quantity="a ratio of your own figures", claimed=claimed, computed=_finite(shown), unit="count", verdict="incorrect",
            explanation=f"You said {match.group('n')}×, but your own figures give {_said(first)} / {_said(second)} ≈ {shown:,.3g}×.",
            working=[f"{first.text} / {second.text} = {ratio:.4g}", f"the claim is {claimed:g}×"],
            span=(parsed.offset + match.start("n"), parsed.offset + match.end("n")),
        ))
    return found


def _arithmetic_slip(parsed: ParsedSentence, mention: Mention, *, several: bool) -> ClaimCheck | None:
    """A number no topic claims, written as the result of the candidate's own arithmetic that gives
    another value by 1.5× or more under every unit scaling: incorrect without knowing its topic."""
    if re.match(r"\s*(?:[/×*·+^⁰¹²³⁴⁵⁶⁷⁸⁹]|[-−x]\s*\d)", parsed.text[mention.end:]):
        return None  # "= 7/39", "= 2³⁰ B": the result is itself an expression, not the number just read
    if mention.dim == "number" and re.match(r"\s*(?:x|×|times|-?fold)\b", parsed.text[mention.end:], re.IGNORECASE):
        return None  # "8 GPUs × 80 GB is 2x more than ...": a factor of comparison, not the expression's result
    try:
        arithmetic = stated_arithmetic(parsed, mention) or stated_rate(parsed, mention)
    except (ArithmeticError, ValueError):
        return None
    if arithmetic is None or not _plain_arithmetic(parsed.text, arithmetic.expression):
        return None
    if arithmetic.unitless and mention.dim in ("seconds", "s_per_token"):
        return None  # "720/14.4 = 50 h": hours are no power of 1000 of the unit the expression may be in
    if not clearly_disagrees(arithmetic, mention):
        return None
    return _wrong_own_arithmetic(arithmetic, mention, _said(mention), text=_claim_text(parsed, mention, several),
                                 quantity="your own arithmetic", span=(parsed.offset + mention.start, parsed.offset + mention.end))


def _claimed_value(mention: Mention) -> float:
    """The number claimed: the value, or the middle of a stated range."""
    return mention.value if mention.low is None else (mention.low + mention.high) / 2  # type: ignore[operator]


def _wrong_own_arithmetic(arithmetic: Arithmetic, mention: Mention, said: str, **fields) -> ClaimCheck:
    """Incorrect by the candidate's own arithmetic, which gives another number than the one said."""
    unit = BASE_UNIT.get(mention.dim, "count")
    claimed = _claimed_value(mention)
    shown = _plain_number(arithmetic.value) if arithmetic.unitless else format_value(arithmetic.value, unit)
    if mention.dim == "fraction" and arithmetic.unitless and arithmetic.value < 1:
        shown = f"{arithmetic.value:.4g} ({arithmetic.value * 100:.3g}%)"  # "3/19, which is about 37%": 0.158 is 15.8%
    return ClaimCheck(
        **fields, claimed=_finite(claimed), computed=None if arithmetic.unitless else _finite(arithmetic.value), unit=unit,
        verdict="incorrect", explanation=f"You said {said}, but your own arithmetic, {arithmetic.expression}, gives {shown}.",
        working=[f"{arithmetic.expression} = {arithmetic.value:.6g}" + ("" if arithmetic.unitless else f" {unit}"), f"the claim is {claimed:.6g} {unit}"],
    )


def _text_before(text: str, offset: int) -> str:
    """The sentence before the piece at ``offset`` in the original text (pieces without numbers are not
    checked, but "Ring all-reduce is ..." still says what the next sentence is about)."""
    window = text[max(0, offset - 400):offset].rstrip()
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)|\n\s*\n", window[:-1])]
    return window[ends[-1]:].strip() if ends else window.strip()


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
    if ratio == 0 or math.isinf(ratio) or math.isinf(1 / ratio):  # beyond what a float expresses
        return "more than 1e308× too high" if ratio > 1 else "more than 1e308× too low"
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
    arithmetic = stated_arithmetic(parsed, mention) or stated_rate(parsed, mention)
    check = _evaluate(parsed, mention, topic, resolver, text, said, span, arithmetic)
    if check.verdict != "correct" and arithmetic is not None and _plain_arithmetic(parsed.text, arithmetic.expression) and clearly_disagrees(arithmetic, mention):
        # "25.8 GB at 3.35 TB/s is about 77 ms": wrong by the candidate's own numbers, whatever the inputs were meant to be
        return _wrong_own_arithmetic(arithmetic, mention, said, **_claim_fields(text, topic, mention, span) | {"calculator": None})
    if check.verdict == "incorrect" and arithmetic is not None and _plain_arithmetic(parsed.text, arithmetic.expression) and agrees(arithmetic, mention, check.tolerance):
        # "12 bytes/param × 10B = 120 GB", "2 × 32 × 32 × 128 × 2 = 524,288 bytes = 0.5 MiB": the candidate's
        # own arithmetic gives their number, so they computed some quantity right; that it is not the one
        # this topic computes (the whole model states, a whole sequence's cache) is a reading, not an error.
        return check.model_copy(update={
            "verdict": "unverifiable", "computed": None,
            "explanation": f"{check.explanation.split(';')[0]}, which your own arithmetic ({arithmetic.expression}) gives. "
                           f"For the {topic.quantity} I get {format_value(check.computed, check.unit) if check.computed is not None else 'another figure'}, so it is probably another quantity.",
            "working": [f"{NOT_JUDGED}your own arithmetic gives your number; the {topic.quantity} reading does not", *check.working],
        })
    if _not_judged(check) and _set_up_just_before(parsed, resolver):
        # "Imagine a 4-GPU box with 24 GB cards. With ZeRO-3 the model states come to about 20 GB per
        # card.": the sentence before changed the set-up on purpose, so its inputs are this claim's.
        trusting = Resolver(parsed, mention, context, facts, claims)
        trusting.trust_premises = True
        third = _evaluate(parsed, mention, topic, trusting, text, said, span, arithmetic)
        if third.verdict in ("correct", "incorrect"):
            premises = "; ".join(f"{_INPUT_NAMES.get(n, n)} {f.text or f.value}" for n, f in resolver.used if context.carried_from_elsewhere(f))
            check = third.model_copy(update={"explanation": f"{third.explanation} (With what you set up just before: {premises}.)"})
    if _not_judged(check) and (resolver.ambiguous or any(context.carried_from_elsewhere(found) for _, found in resolver.used)):
        # Another sentence's values may not apply here; the scenario's may. If the claim is wrong
        # with this sentence and the scenario alone, that is certain; if it is right, it is right.
        alone = Resolver(parsed, mention, context.this_sentence_only(), facts, claims, strict=True)
        second = _evaluate(parsed, mention, topic, alone, text, said, span, arithmetic)
        if second.verdict in ("correct", "incorrect"):
            check = second
        elif _premises_only(resolver, check) and any(w.startswith("missing:") for w in second.working):
            # "We have 16 GPUs and a 4B model with mixed-precision Adam. ZeRO-3 leaves about 16 GB per GPU.":
            # the inputs are the answer's own premise, stated just before, and nothing else offers a value.
            trusting = Resolver(parsed, mention, context, facts, claims)
            trusting.trust_premises = True
            third = _evaluate(parsed, mention, topic, trusting, text, said, span, arithmetic)
            if third.verdict == "incorrect":
                premises = "; ".join(f"{_INPUT_NAMES.get(n, n)} {f.text or f.value}" for n, f in resolver.used if context.carried_from_elsewhere(f))
                check = third.model_copy(update={"explanation": f"{third.explanation} (With what you said just before: {premises}.)"})
    if check.verdict == "incorrect" and (scope := _other_scope(parsed, mention, topic, check)):
        # The clause speaks of a scope or component this topic does not compute: ask, do not assert.
        words = scope.group().strip()
        computed = format_value(check.computed, check.unit) if check.computed is not None else "another figure"
        return check.model_copy(update={
            "verdict": "unverifiable", "computed": None,
            "explanation": f"You said {said}, and your sentence speaks of “{words}”. What I can compute here is the {topic.quantity}, "
                           f"{computed}, which is not that, so I may be comparing different things: which quantity did you mean?",
            "working": [f"{NOT_JUDGED}“{words}” is {OUTSIDE_SCOPE}", f"computed instead: {check.explanation}", *check.working],
        })
    if check.verdict == "incorrect" and (split := _unapplied_split(parsed, mention, check)) is not None:
        # "every one of the 64 ranks writes ...", "with tensor parallel 2 each GPU keeps ...": the claim
        # is an accepted value divided (or multiplied) by a count the sentence states and the
        # evaluator did not use, so it is most likely that share (or total): ask, do not assert.
        count, whole, share = split
        part = "one share" if share < whole else "the total"
        return check.model_copy(update={
            "verdict": "unverifiable", "computed": None,
            "explanation": f"You said {said}; I get {format_value(whole, check.unit)} for the {topic.quantity}, and "
                           f"{'split' if share < whole else 'times'} {count} ways that is {format_value(share, check.unit)}. "
                           f"Is your figure {part} over the {count} in your sentence?",
            "working": [f"{NOT_JUDGED}the claim may be {part} over the {count} the sentence states", *check.working],
        })
    if check.verdict in ("incorrect",) or _not_judged(check):
        others = alternatives(parsed, mention, topic.id)
        if others:
            # The sentence does not say which quantity the number is: right under any reading is
            # right, and it is wrong only if it is wrong under all of them, which we cannot claim.
            for other in others:
                second = _evaluate(parsed, mention, TOPICS[other], Resolver(parsed, mention, context, facts, claims), text, said, span, arithmetic)
                if second.verdict == "correct":
                    return second
            names = " or ".join(TOPICS[name].quantity for name in [topic.id, *others])
            return check.model_copy(update={
                "verdict": "unverifiable", "computed": None,
                "explanation": f"You said {said}, but the sentence does not pin down which quantity that is ({names}); none of my readings matches, so check which you meant. {check.explanation}",
                "working": [f"{NOT_JUDGED}the number may be the {names}", *check.working],
            })
    return check


def _other_scope(parsed: ParsedSentence, mention: Mention, topic: Topic, check: ClaimCheck) -> re.Match | None:
    """The words of the claim's sentence that put it outside what the topic's evaluator computed."""
    if not topic.other_scope or check.scope.component:
        return None  # the evaluator computed the component the sentence names ("one Adam moment")
    consequence = _CONSEQUENCE.search(parsed.text, mention.end)
    for scope in re.finditer(topic.other_scope, parsed.text, re.IGNORECASE):
        if consequence is not None and scope.start() >= consequence.end():
            break  # "..., so we'd have nothing left for activations": what follows from the claim, not its scope
        unit = re.search(r"token|layer", scope.group(), re.IGNORECASE)
        if unit and f"1 {unit.group().lower()}" in check.explanation:
            continue  # the evaluator already computed it per token (per layer)
        return scope
    return None


_SPLIT_COUNT = re.compile(
    r"\b(?:tp|pp|dp|ep|tensor[- ]parallel(?:ism)?|pipeline[- ]parallel(?:ism)?|data[- ]parallel(?:ism)?|expert[- ]parallel(?:ism)?|degree)\s*(?:=|of|:)?\s*(\d{1,4})\b"
    r"|\b(?:over|across|among|between|into|on|by|of)\s+(?:the\s+|all\s+|its\s+|our\s+)?(\d{1,4})\b(?!\s*(?:[-.,]\d|%|[a-z]*(?:B|b)\b|[kKmMbBtT]\b))"
    r"|(?<![\w.,-])(\d{1,4})(?:[- ](?:way|fold)\b|\s+(?:\w+\s+)?(?:gpus?|cards?|ranks?|nodes?|replicas?|stages?|shards?|devices?|workers?|chips?|instances?|accelerators?|machines?|hosts?|servers?|h100s?|a100s?)\b)",
    re.IGNORECASE,
)
"""A count the sentence splits something over ("64 ranks", "tensor parallel 2", "TP=8", "8-way", "across 16")."""


def _unapplied_split(parsed: ParsedSentence, mention: Mention, check: ClaimCheck) -> tuple[int, float, float] | None:
    """(n, an accepted value v, v/n or v·n) when the claim matches v over n or n times v, for a count
    n the sentence states and the evaluation did not use as an input."""
    if check.claimed is None or not check.computed or check.claimed <= 0 or check.computed <= 0:
        return None
    used = {float(source.value) for source in check.provenance if isinstance(source.value, (int, float))}
    for found in _SPLIT_COUNT.finditer(parsed.text):
        digits = next(group for group in found.groups() if group)
        if mention.start <= found.start() < mention.end:
            continue
        count = int(digits)
        if count < 2 or float(count) in used:
            continue
        for computed in dict.fromkeys([check.computed, *check.accepted_values]):
            for value in (computed / count, computed * count):
                if value / (1 + check.tolerance) <= check.claimed <= value * (1 + check.tolerance):
                    return count, computed, value
    return None


_CONSEQUENCE = re.compile(r"[,;—–]\s*(?:so|which|and\s+so|meaning|leaving\s+nothing|hence|therefore|thus)\b|\s(?:so|which\s+means)\s", re.IGNORECASE)
OUTSIDE_SCOPE = "outside the computed scope"
NOT_JUDGED = "not judged: "
"""How the working of a claim that disagrees only under assumed inputs starts (see ``doubts_about``)."""


def asks_which_quantity(claim: dict) -> bool:
    """An unverified claim (as a dict) that disagrees with the calculators under the inputs or scope
    the checker had to assume (see ``_other_scope`` and ``doubts_about``): the interviewer asks which
    was meant, as a careful human would, instead of saying it is wrong or letting it pass."""
    working = claim.get("working") or []
    doubts = [line for line in working if line.startswith(NOT_JUDGED)]
    if doubts and all(line.startswith(f"{NOT_JUDGED}your own arithmetic") for line in doubts):
        # The candidate's written arithmetic gives their number; only the checker's reading of its
        # inputs differs ("2 × 2e9 × 500 = 2e12 FLOPs" read with a 2,048-token context): nothing to ask.
        return False
    return claim.get("verdict") == "unverifiable" and bool(working) and (OUTSIDE_SCOPE in working[0] or working[0].startswith(NOT_JUDGED))


_HYPOTHETICAL_SET_UP = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|now|so|and)\s*,?\s+)?(?:imagine|suppose|supposing|say|assume|assuming|let'?s\s+(?:say|assume|take|go\s+with|switch|put)|picture|what\s+if|if\s+we\s+(?:had|have|go|switch|use|put|only))\b",
    re.IGNORECASE,
)


def _set_up_just_before(parsed: ParsedSentence, resolver: Resolver) -> bool:
    """Whether every input carried into this claim comes from the sentence right before it, and that
    sentence sets up a hypothetical on purpose ("Suppose we go with the A10G.", "Say we serve
    8k-token prompts."): then its inputs are this claim's, not another system's."""
    if resolver.ambiguous or resolver.context.new_option or not _HYPOTHETICAL_SET_UP.search(parsed.previous_text):
        return False
    carried = [found for _, found in resolver.used if resolver.context.carried_from_elsewhere(found)]
    return bool(carried) and all(resolver.context.sentence - found.sentence == 1 for found in carried)


def _premises_only(resolver: Resolver, check: ClaimCheck) -> bool:
    """Whether the only doubts about a claim are inputs the answer stated in the last two sentences, as
    plain premises (not another option, not two values for one input)."""
    if resolver.ambiguous or resolver.context.new_option:
        return False
    carried = [(name, found) for name, found in resolver.used if resolver.context.carried_from_elsewhere(found)]
    names = {name for name, _ in carried}
    if not names <= _PLAIN_PREMISES:
        # A model, GPU, dtype or ZeRO stage named earlier is often another system's ("with full MHA ..."),
        # unless the claim's sentence points back at the one just described ("... takes 60 days on it").
        if not names <= _PLAIN_PREMISES | _NAMED_PREMISES or not _POINTS_BACK.search(resolver.parsed.text):
            return False
        if any(resolver.context.sentence - found.sentence > 1 for name, found in carried if name in _NAMED_PREMISES):
            return False
    doubts = [w for w in check.working if w.startswith(NOT_JUDGED)]
    return bool(carried) and all(resolver.context.sentence - found.sentence <= 2 for _, found in carried) and all(
        "comes from an earlier sentence" in doubt for doubt in doubts)


_PLAIN_PREMISES = frozenset({"gpus", "params", "batch", "seq", "tokens", "layers", "kv_heads", "head_dim", "heads", "hidden", "vocab", "tp"})
"""Inputs stated as plain numbers in the sentence or two before ("Our model has 40 layers ..."), taken as given."""
_NAMED_PREMISES = frozenset({"gpu", "dtype", "mfu", "model", "zero", "nodes", "bandwidth"})
_POINTS_BACK = re.compile(
    r"^\W*(?:that|this|so|then|thus|hence|which)\b|\b(?:on|with|for|in|at|using|over)\s+(?:it|that|this|them|these|those)\b"
    r"|\b(?:this|that|these|those|the\s+same|our)\s+(?:cluster|node|nodes|setup|config(?:uration)?|model|run|box|machine|hardware|gpus?|cards?|rig|fleet)\b",
    re.IGNORECASE,
)


def _not_judged(check: ClaimCheck) -> bool:
    """A claim that did not match but was not called incorrect because an input was uncertain."""
    return check.verdict == "unverifiable" and bool(check.working) and check.working[0].startswith(NOT_JUDGED)


def _evaluate(parsed: ParsedSentence, mention: Mention, topic: Topic, resolver: Resolver, text: str, said: str, span: tuple[int, int],
              arithmetic: Arithmetic | None = None) -> ClaimCheck:
    unit = BASE_UNIT.get(mention.dim, "count")
    base = _claim_fields(text, topic, mention, span)
    claimed_value = _claimed_value(mention)
    try:
        evaluation = EVALUATORS[topic.id](resolver, mention, topic)
    except (MissingInput, InvalidInput) as error:
        if arithmetic is not None and clearly_disagrees(arithmetic, mention):
            # The inputs are not all known, but the sentence's own arithmetic is: it gives another number.
            return _wrong_own_arithmetic(arithmetic, mention, said, **base | {"calculator": None})
        return _not_computed(error, base | {"provenance": _provenance(resolver, missing=tuple(getattr(error, "what", ())))}, claimed_value, unit, said, topic)
    except Exception as error:  # never let one odd sentence break the interview
        logger.exception("claim check failed for %r", mention.text)
        return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {topic.quantity}, but I could not compute it ({type(error).__name__}).",
                          working=[f"error: {error}"])
    return _verdict(evaluation, mention, said, base, resolver, arithmetic)


def _claim_fields(text: str, topic: Topic, mention: Mention, span: tuple[int, int]) -> dict:
    """The fields every verdict on this claim shares."""
    return dict(text=text, quantity=topic.quantity, tolerance=mention.tolerance, direction=mention.direction, span=span, calculator=topic.calculator,
                scope=_scope(mention))


_ACROSS = {"per_gpu": "per_gpu", "total": "total", "sent": "sent_per_gpu"}
_PER = {"per_token": "token", "per_sequence": "sequence", "per_layer": "layer"}


def _scope(mention: Mention, component: str | None = None, quantity: str = "") -> ClaimScope:
    """The claim's scope as the sentence states it, or as the quantity it was compared with has it
    ("model-state memory per GPU"), and the component it was compared with."""
    across = next((value for marker, value in _ACROSS.items() if marker in mention.markers), None)
    per = next((value for marker, value in _PER.items() if marker in mention.markers), None)
    if across is None and quantity.endswith("per GPU"):
        across = "per_gpu"
    if per is None:
        per = next((value for value in ("token", "sequence", "layer") if f"per {value}" in quantity), None)
    return ClaimScope(across=across, per=per, component=component)  # type: ignore[arg-type]


_SOURCE_OF = {"sentence": "stated", "scenario": "scenario", "default": "assumed"}
_CONVENTION_INPUTS = ("dtype", "kv_dtype", "optimizer", "recipe", "mfu")
"""Inputs that, when nobody stated them, the evaluators try under every accepted convention."""
_ASSUMED_INPUTS = ("zero", "offload")
"""Inputs that, when nobody stated them, take the plain default (no ZeRO, nothing offloaded)."""


def _provenance(resolver: Resolver | None, inputs: dict | None = None, missing: tuple[str, ...] = ()) -> list[InputSource]:
    """Where each input the verdict rests on came from: the candidate's sentence, an earlier sentence,
    the scenario, an assumption, a convention tried both ways, or nowhere (missing)."""
    sources: list[InputSource] = []
    seen: set[str] = set()
    for name, found in resolver.used if resolver is not None else ():
        if name in seen:
            continue
        seen.add(name)
        if found.source == "earlier":
            source = "earlier" if resolver.context.carried_from_elsewhere(found) else "stated"  # type: ignore[union-attr]
        else:
            source = _SOURCE_OF.get(found.source, "assumed")
        sources.append(InputSource(input=name, value=_plain_value(found.value), source=source, said=found.text))  # type: ignore[arg-type]
    for name in (*_CONVENTION_INPUTS, *_ASSUMED_INPUTS):
        if inputs and name in inputs and name not in seen:
            source = "convention" if name in _CONVENTION_INPUTS else "assumed"
            sources.append(InputSource(input=name, value=_plain_value(inputs[name]), source=source))  # type: ignore[arg-type]
    sources.extend(InputSource(input=what, source="missing") for what in missing)
    return sources


def _plain_value(value: object) -> float | str | None:
    if isinstance(value, bool) or value is None:
        return None if value is None else str(value)
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    return str(getattr(value, "text", "") or value)


def _not_computed(error: Exception, base: dict, claimed_value: float | None, unit: str, said: str, topic: Topic) -> ClaimCheck:
    """An unverifiable verdict for a claim whose inputs are missing or invalid."""
    if isinstance(error, MissingInput):
        return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {topic.quantity}, but I can't check it without {_join(error.what)}.",
                          working=[f"missing: {item}" for item in error.what])
    return ClaimCheck(**base, claimed=_finite(claimed_value), computed=None, unit=unit, verdict="unverifiable",
                      explanation=f"You said {said} for the {topic.quantity}, but I can't check it: {error}.",
                      working=[f"invalid input: {error}"])


def _plain_number(value: float) -> str:
    """1.2e7 rather than 1.2e+07; 16,640 rather than 1.664e+04."""
    if value and (abs(value) >= 1e7 or abs(value) < 1e-3):
        mantissa, exponent = f"{value:.3g}".split("e") if "e" in f"{value:.3g}" else (f"{value:.3g}", "0")
        return f"{mantissa}e{int(exponent)}"
    return f"{value:,.4g}" if abs(value) < 1e4 else f"{value:,.0f}"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(ev: Evaluation, mention: Mention, said: str, base: dict, resolver: Resolver | None = None, arithmetic: Arithmetic | None = None) -> ClaimCheck:
    unit = ev.unit
    if ev.quantity:
        base = base | {"quantity": ev.quantity}
    readings = ev.readings or _default_readings(mention)
    ev.candidates = _dedupe(ev.candidates)
    claimed = readings[0].value if readings[0].low is None else (readings[0].low + readings[0].high) / 2  # type: ignore[operator]
    real = [c for c in ev.candidates if c.mistake is None]
    if not real or not all(math.isfinite(c.value) for c in real):
        return ClaimCheck(**base | {"calculator": real[0].calculator if real else base["calculator"], "provenance": _provenance(resolver)},
                          claimed=_finite(claimed), computed=None, unit=unit, verdict="unverifiable",
                          explanation=f"You said {said} for the {base['quantity']}, but the inputs are too large to compute a finite value.",
                          working=ev.notes)
    verdict, chosen, reading = judge(readings, ev.candidates, mention.direction, mention.tolerance, unit)
    base = base | {"scope": _scope(mention, chosen.component, base["quantity"]), "provenance": _provenance(resolver, chosen.inputs),
                   "accepted_values": [c.value for c in real]}
    per_token = ev.topic.id == "decode"
    binary = unit == "bytes" and (mention.is_binary or (reading.label is not None and "binary" in reading.label))
    working = list(ev.notes) + list(chosen.working)
    convention = None
    if verdict == "correct":
        convention = _label_join_all(chosen.label, reading.label)
        computed_text = _show(chosen.value, unit, binary, per_token)
        via = f" using {convention}" if convention else ""
        explanation = f"You said {said}{ev.said_suffix}; I get {computed_text}{via}. {_as_sentence(chosen.summary)}"
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
            explanation = f"You said {said}{ev.said_suffix}; I get {computed_text}, {verdict_text}. {_as_sentence(chosen.summary)}"
            others = [c for c in real[1:] if c.label and abs(c.value - computed) > 1e-9 * max(abs(computed), 1)]
            if others:
                shown = "; ".join(f"{c.label}: {_show(c.value, unit, binary, per_token)}" for c in others[:2])
                explanation += f" Other accepted readings don't match either ({shown})."
                for c in others:
                    working.append(f"also checked {c.label}: {_show(c.value, unit, binary, per_token)}")
    if verdict == "incorrect" and resolver is not None:
        doubts = doubts_about(resolver, mention, ev, arithmetic)
        if doubts:
            # Precision first: "you're wrong" only when the quantity and every input are certain.
            computed_text = _show(computed, unit, binary, per_token)
            explanation = (f"You said {said}{ev.said_suffix}; I can't check it with confidence: {_join(doubts)}. "
                           f"With the inputs I assumed I get {computed_text} ({chosen.summary}), so check which you meant.")
            working = [f"{NOT_JUDGED}{doubt}" for doubt in doubts] + working
            return ClaimCheck(**base | {"calculator": chosen.calculator}, claimed=_finite(claimed), computed=None, unit=unit,
                              verdict="unverifiable", explanation=explanation, working=working, inputs=_plain(chosen.inputs))
    return ClaimCheck(
        **base | {"calculator": chosen.calculator},
        claimed=_finite(claimed), computed=_finite(computed), unit=unit, verdict=verdict,  # type: ignore[arg-type]
        explanation=explanation, working=working, inputs=_plain(chosen.inputs), convention=convention,
    )


def doubts_about(resolver: Resolver, mention: Mention, ev: Evaluation, arithmetic: Arithmetic | None = None) -> list[str]:
    """Why a claim that does not match might not be wrong: inputs the sentence does not pin down.

    A claim is called incorrect only when its quantity and every input are certain: stated in the
    claim's own sentence, or scenario facts the sentence does not contradict. Values carried over
    from another sentence, or a sentence that gives two values for one input, are not certain.
    """
    doubts: list[str] = []
    seen: set[str] = set()
    for name, found in resolver.used:
        if resolver.context.carried_from_elsewhere(found) and name not in seen and not resolver.trust_premises:
            seen.add(name)
            where = "an earlier sentence" if found.sentence != resolver.context.sentence else "another option before the semicolon"
            doubts.append(f"the {_INPUT_NAMES.get(name, name)} ({found.text or found.value}) comes from {where}")
    for item in dict.fromkeys(resolver.ambiguous):
        name, _, values = item.partition(": ")
        doubts.append(f"the sentence gives more than one {_INPUT_NAMES.get(name, name)} ({values})")
    doubts.extend(ev.doubts)
    if arithmetic is not None and agrees(arithmetic, mention, mention.tolerance):
        outside = [name for name, found in resolver.used if found.source != "sentence"]
        cue = _TOPIC_CUES.get(ev.topic.id)
        cue_here = cue is None or CUES[cue].search(resolver.parsed.clause_text(mention.clause)) is not None
        scaled = [m for m in resolver.parsed.mentions if m is not mention and m.dim == mention.dim and m.end <= mention.start
                  and arithmetic.expression.find(m.text.strip()) >= 0]
        if outside or not cue_here or scaled:
            # "150 × 2.6 ms is ~390 ms": the claim scales a figure of its own kind, which is where any difference lies
            reason = (f"I took the {_join([_INPUT_NAMES.get(n, n) for n in dict.fromkeys(outside)])} from outside this sentence" if outside
                      else f"it scales your {scaled[0].text.strip()}" if scaled else "the sentence does not say what the number is")
            doubts.append(f"your own arithmetic ({arithmetic.expression}) gives the number you said, so the difference is in its inputs, and {reason}")
    text = f"{resolver.parsed.cue_prefix} {resolver.parsed.text}"
    params_stated = any(name in ("params", "model") and found.source == "sentence" for name, found in resolver.used) or bool(resolver.sentence_mentions("params"))
    params_used = any(name in ("params", "model") for name, found in resolver.used)
    used_params = [found for name, found in resolver.used if name == "params"]
    outside = bool(used_params) and used_params[-1].source != "sentence"
    # "2 GB of bf16 gradients, so we're talking about a 2B-parameter model": a size the sentence names
    # anywhere (even as its conclusion) is a doubt about a size taken from outside it
    own = [m for m in resolver.parsed.mentions if m.dim == "parameters" and m is not mention and (m.clause == mention.clause or outside)]
    if used_params and own and all(abs(m.value - float(used_params[-1].value)) > 0.05 * m.value for m in own if not isinstance(used_params[-1].value, str)):  # type: ignore[arg-type]
        doubts.append(f"the clause names its own size ({own[0].text.strip()}), not the {used_params[-1].text or 'size'} I used")
    other_model = _OTHER_MODEL.search(resolver.parsed.text)
    if params_used and not params_stated and other_model and not any(name == "model" and found.source == "sentence" for name, found in resolver.used):
        doubts.append(f"the sentence names {other_model.group()}, and I used the size of the model you are designing")
    reads = ev.topic.id != "weights" or re.search(r"\bactive\b|\bread|\bstream|\bper\s+(?:token|step)\b", text, re.IGNORECASE)
    if params_used and not params_stated and _MOE.search(text) and reads:  # resident weights are all the experts
        doubts.append("an MoE reads only its active parameters per token, and the sentence does not say how many it means")
    baseline = _BASELINE_BEFORE.search(resolver.parsed.masked[max(0, mention.start - 40):mention.start])
    if baseline and any(m.dim == mention.dim and m.end <= mention.start for m in resolver.parsed.mentions if m is not mention):
        doubts.append(f"the number after “{baseline.group(1)}” is the alternative you compare with, whose configuration the sentence does not fully give")
    if ev.topic.id == "model-states" and "per GPU" in (ev.quantity or "") and _MODEL_PARALLEL.search(f"{resolver.context.previous_text} {text}"):
        doubts.append("tensor or pipeline parallelism also divides the model states, which the ZeRO formula alone does not cover")
    return doubts


_TOPIC_CUES = {
    "kv-cache": "kv-cache", "activations": "activations", "model-states": "model-states", "model-states-per-param": "model-states",
    "weights": "weights", "decode": "decode", "prefill": "prefill", "allreduce": "allreduce", "allreduce-bytes": "allreduce",
    "time-to-train": "time-to-train", "train-flops": "train-flops", "forward-flops": "forward-flops", "attention-flops": "attention-flops",
    "chinchilla-tokens": "chinchilla", "chinchilla-params": "chinchilla", "chinchilla-flops": "chinchilla", "chinchilla-ratio": "chinchilla",
    "bubble": "bubble", "littles-law": "littles-law",
}
"""The cue that names each quantity (topics named by their unit alone, such as peak FLOP/s, have none)."""

_BASELINE_BEFORE = re.compile(
    r"\b(instead\s+of|vs\.?|versus|compared\s+(?:to|with)|rather\s+than|down\s+from|up\s+from|as\s+opposed\s+to)\s*(?:the\s+)?(?:about\s+|~\s*|≈\s*)?$",
    re.IGNORECASE,
)
_OTHER_MODEL = re.compile(
    r"\b(?!ZeRO\b|FlashAttention\b|DeepSpeed\b|PyTorch\b|TensorRT\b|NVLink\b|NVMe\b|InfiniBand\b|MegaBlocks\b|(?i:int|fp|bf|tf|nf|e\dm)\d)"
    r"(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z]{2,}[a-z]*|[A-Z][a-z]+)-?\d+(?:\.\d+)?[BbMmKk]?\b(?!\s*(?:GB|GiB|TB|MB|ms|s|%))"
    r"|\b(?:ResNet|BERT|ViT|ImageNet|CLIP|Whisper|AlexNet|VGG)\b"
)
"""A model named in the sentence that may not be the scenario's ("Goyal et al. trained ResNet-50 in one hour")."""
_MOE = re.compile(r"\bexperts?\b|\bmoe\b|\bmixture[- ]of[- ]experts\b|\bactive\s+(?:param|weights?\b|bytes\b)|\bmixtral\b|\btop-?[12k]\s+rout", re.IGNORECASE)
_MODEL_PARALLEL = re.compile(r"\btp\b|\bpp\b|\btensor[- ]parallel|\bpipeline\b|\bmodel[- ]parallel|\breplicas?\s+(?:spans?|is|of)\b|\bspans?\s+\d", re.IGNORECASE)


_INPUT_NAMES = {
    "params": "parameter count", "gpus": "GPU count", "gpu": "GPU", "model": "model", "dtype": "dtype", "zero": "ZeRO stage",
    "seq": "sequence length", "batch": "batch size", "layers": "layer count", "hidden": "hidden size", "heads": "head count",
    "kv_heads": "KV-head count", "head_dim": "head dimension", "tokens": "token count", "bytes": "payload size", "peak": "peak FLOP/s",
    "bandwidth": "bandwidth", "mfu": "MFU", "stages": "stage count", "microbatches": "micro-batch count", "tp": "tensor-parallel size",
    "compute": "compute budget", "rate": "arrival rate", "latency": "latency", "nodes": "node count", "vocab": "vocabulary size",
}


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
    return " and ".join(parts) if parts else None


def _as_sentence(summary: str) -> str:
    """A calculator's summary ("ZeRO-2 over 8 GPUs, ...") as a sentence of its own, so that an
    explanation reads "I get 40 GB. ZeRO-2 over 8 GPUs, ..." and not as one run-on clause."""
    summary = summary.strip().rstrip(".")
    return f"{summary[:1].upper()}{summary[1:]}." if summary else ""


def _plain(inputs: dict) -> dict:
    return {key: (value if isinstance(value, (int, float, str, bool)) or value is None else str(value)) for key, value in inputs.items()}
