"""The candidate's own arithmetic: "2 × 24 layers × 20 KV heads × 128 × 2 bytes = 245,760 bytes".

When a claim is the result of an expression written right before it, the expression's value tells
two things. If it equals the claim, the candidate's arithmetic is right, so a disagreement with the
calculators lies in the inputs or the formula, which is only certain when every input is in the
sentence. If it does not equal the claim, the arithmetic itself is wrong, which is certain without
knowing what the number is about.

Only plain arithmetic is read: numbers (with their units, in base units), × · * x / + − and
parentheses, ^ for powers and sqrt(…) or √(…) for roots. Anything symbolic ("sqrt(C/120)", "2(n−1)/n", "b·s·h") or a unit
applied to a parenthesised group ("(4 + 10.2) GB") makes the expression unreadable, and nothing is
concluded.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from interviewer.claims.parser import Mention, ParsedSentence
from interviewer.units import NUMBER_RE, match_unit, number_value

_RESULT = re.compile(
    r"(?P<apposed>,\s*(?:(?:which\s+is|which'?s|that'?s|that\s+is|i\.e\.,?|so)\s*)?(?:about|around|roughly|approximately|~|≈)\s*$"
    r"|,\s*(?:which\s+is|which'?s|that'?s|that\s+is|i\.e\.,?)\s*)"
    r"|(?:=|≈|~=|≃|\b(?:is|are|gives|makes|comes\s+to)\b)\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)
_UNITLESS_CLAIMS = ("number", "count", "fraction", "parameters", "tokens", "FLOPs", "flops?")
_STOP = re.compile(r"[=≈;:]|,(?=\s)|~=|≃|\bso\b|\bthat'?s\b|\bis\b|\bgives?\b|\bmeans\b", re.IGNORECASE)
_TOKEN = re.compile(r"\s*(?:(?P<op>[×x*·/+\-−^])|(?P<open>\()|(?P<close>\))|(?P<word>[^\s()×*·/+\-−^\d]+))")
_LONGER_PRODUCT_BEFORE = re.compile(r"[×*·/]\s*(?:[A-Za-z_][\w-]*\s*){0,2}$|\bx\s+(?:[A-Za-z_][\w-]*\s*){1,2}$")
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}
_ROOT = re.compile(r"(?:sqrt|√)\s*\(", re.IGNORECASE)


@dataclass(frozen=True)
class Arithmetic:
    expression: str
    value: float
    """In the claim's base unit when the expression carries units, else a bare number."""
    unitless: bool
    counted: bool = False
    """Its operands include parameter or token counts with their magnitudes ("6 × 70B × 4.2M"), so
    the value is a whole count of FLOPs or tokens, not one in some unit the candidate left out."""


def stated_arithmetic(parsed: ParsedSentence, claim: Mention) -> Arithmetic | None:
    """The value of the expression written just before ``claim`` ("… = 160 GB"), if it can be read."""
    before = parsed.masked[:claim.start]
    result = _RESULT.search(before)
    if result is None or result.group("apposed") is not None and not re.fullmatch(r"[^\d]*", before[result.end():]):
        return None
    end = result.start()
    stops = [m.end() for m in _STOP.finditer(before, 0, end)]
    start = max(stops) if stops else 0
    clause = claim.clause - 1 if result.group("apposed") is not None and claim.clause > 0 else claim.clause  # "4096^2 × 4096, about 6.9e10": the clause before the comma
    region = max(start, parsed.clauses[clause][0] if clause < len(parsed.clauses) else 0, _clause_start_with_parens(parsed, end))
    # The longest run of arithmetic that ends at the "=": "so 1.2e22 FLOPs take 1.2e22 / 1e15 ≈ ..." reads "1.2e22 / 1e15".
    for start in (i for i in range(region, end) if (parsed.masked[i].isdigit() or parsed.masked[i] == "(" or _ROOT.match(parsed.masked, i)) and (i == 0 or not re.match(r"[\w.,]", parsed.masked[i - 1]))):
        expression = parsed.masked[start:end]
        if not re.search(r"[×*·/+\-−^]|\bx\b", expression):
            return None
        mentions = [m for m in parsed.mentions if start <= m.start and m.end <= end]
        dims = [m.dim for m in mentions if m.dim not in ("number", "count", "parameters", "tokens")]
        root = bool(re.search(r"\bsqrt\s*\(|√\s*\(", expression))
        if len(dims) != len(set(dims)) and not re.search(r"[+\-−]", parsed.masked[start:end]) and not root:
            return None  # "34 days × 86,400 s": a product of two times is a unit conversion, not read here
        tokens = _tokens(parsed, start, end, mentions)
        if tokens is None or not any(isinstance(t, str) and t not in "()" for t in tokens) and not (
                len(mentions) == 1 and "^" in mentions[0].text and not re.search(r"(?:[×*·/+\-−^(]|\bx)\s*$", parsed.masked[region:start])):
            continue  # a lone number is no arithmetic, but "2^-7" is (when it is not the tail of a longer expression)
        value = _evaluate(tokens)
        if value is None or not math.isfinite(value):
            continue
        if _LONGER_PRODUCT_BEFORE.search(parsed.masked[region:start]):
            return None  # "mb 2 × accum 32 × 8 × 2048 =", "K, V × 24 × 20 × 128 × 2 =": only the tail of a longer product reads
        unitless = all(m.dim in ("number", "parameters", "tokens", "count") for m in mentions) if mentions else True
        if result.group("apposed") is not None and (claim.dim not in _UNITLESS_CLAIMS if unitless else set(dims) != {claim.dim}):
            return None  # "batch 8 × 4k tokens, about 30 GB of cache": a figure after a comma is that product only in its own unit
        counted = any(m.dim in ("parameters", "tokens") and m.value >= 1e3 for m in mentions)
        return Arithmetic(parsed.text[start:end].strip(), value, unitless, counted)
    return None


def _clause_start_with_parens(parsed: ParsedSentence, end: int) -> int:
    """Clauses are not cut inside parentheses, but an expression never starts before an open one it is in."""
    depth = 0
    for index in range(end - 1, -1, -1):
        char = parsed.masked[index]
        if char == ")":
            depth += 1
        elif char == "(":
            if depth == 0:
                return index + 1
            depth -= 1
    return 0


def _tokens(parsed: ParsedSentence, start: int, end: int, mentions: list[Mention]) -> list[object] | None:
    """Numbers (floats) and operators; None if anything symbolic stands where a number should."""
    masked = parsed.masked
    out: list[object] = []
    position = start
    expect_operand = True
    by_start = {m.start: m for m in mentions}
    with_unit: list[bool] = []  # per operand: whether it carries a unit
    while position < end:
        if masked[position].isspace():
            position += 1
            continue
        mention = by_start.get(position)
        if mention is not None and re.match(r"[²³]", masked[mention.end:mention.end + 1] if mention.end < len(masked) else ""):
            mention = None  # "8192²": read the number and its power below
        if mention is not None:
            if not expect_operand:
                return None
            out.append(float(mention.value if mention.low is None else (mention.low + mention.high) / 2))  # type: ignore[operator]
            with_unit.append(mention.dim not in ("number", "count"))
            position = mention.end
            expect_operand = False
            continue
        number = NUMBER_RE.match(masked, position)
        if number and number.end() > position and number.group("word") is None:
            if not expect_operand:
                return None
            value = number_value(number)
            if value is None:
                return None
            position = number.end()
            power = re.match(r"[²³]", masked[position:position + 1])
            if power:
                value = value ** (2 if power.group(0) == "²" else 3)
                position += 1
            unit = match_unit(masked, position)
            with_unit.append(unit is not None and unit.end <= end)
            if unit is not None and unit.end <= end:
                value *= unit.factor
                position = unit.end
            elif position < end and not masked[position].isspace() and masked[position] not in "×*·/+-−^)":
                return None  # "2(n−1)", "8192ᵀ": something glued to the number that is not read
            out.append(value)
            expect_operand = False
            continue
        root = _ROOT.match(masked, position)
        if root is not None:
            if not expect_operand:
                return None
            out.append("sqrt")  # "sqrt(2 × 60 s × 7,200 s)": the root of the group that follows
            position = root.end() - 1
            continue
        token = _TOKEN.match(masked, position)
        if token is None or token.end() == position:
            return None
        if token.group("op"):
            op = {"×": "*", "x": "*", "·": "*", "−": "-"}.get(token.group("op"), token.group("op"))
            if expect_operand:
                return None
            out.append(op)
            expect_operand = True
        elif token.group("open"):
            close = _matching(masked, position, end)
            if close is None:
                return None
            if not re.search(r"\d", masked[position:close]):
                position = close + 1  # "(K and V)", "(fp32 master weights, m and v)": words only, a gloss
                continue
            if match_unit(masked, close + 1) is not None:
                return None  # "(4 + 10.2) GB": a unit applied to a group is not read
            if not expect_operand:
                return None
            out.append("(")
        elif token.group("close"):
            out.append(")")
            expect_operand = False
        else:
            if expect_operand or token.group("word").lower() in ("per", "each", "every"):
                return None  # "sqrt(C/120)", "× batch": a symbol where a number should be; "2 FLOPs per parameter × 500"
        position = token.end()
    if expect_operand or not out:
        return None
    if any(t in ("+", "-") for t in out) and any(with_unit) and not all(with_unit):
        return None  # "(13.5 + 17.2 GB)": the unit is meant for both terms, which is not read
    return out


def _matching(text: str, open_index: int, end: int) -> int | None:
    depth = 0
    for index in range(open_index, end):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return None


def _evaluate(tokens: list[object]) -> float | None:
    """Shunting-yard over + - * / ^ and parentheses."""
    output: list[float] = []
    operators: list[str] = []

    def apply() -> bool:
        if len(output) < 2 or not operators:
            return False
        op = operators.pop()
        right, left = output.pop(), output.pop()
        try:
            if op == "+":
                output.append(left + right)
            elif op == "-":
                output.append(left - right)
            elif op == "*":
                output.append(left * right)
            elif op == "/":
                output.append(left / right)
            else:
                if abs(right) > 64:
                    return False
                output.append(left**right)
        except (ZeroDivisionError, OverflowError):
            return False
        return True

    for token in tokens:
        if isinstance(token, float):
            output.append(token)
        elif token == "(":
            operators.append("(")
        elif token == "sqrt":
            operators.append("sqrt")
        elif token == ")":
            while operators and operators[-1] != "(":
                if not apply():
                    return None
            if not operators:
                return None
            operators.pop()
            if operators and operators[-1] == "sqrt":
                operators.pop()
                if not output or output[-1] < 0:
                    return None
                output.append(math.sqrt(output.pop()))
        else:
            while operators and operators[-1] != "(" and (
                _PRECEDENCE[operators[-1]] > _PRECEDENCE[token] or (_PRECEDENCE[operators[-1]] == _PRECEDENCE[token] and token != "^")
            ):
                if not apply():
                    return None
            operators.append(str(token))
    while operators:
        if operators[-1] in ("(", "sqrt") or not apply():
            return None
    return output[0] if len(output) == 1 else None


_SCALES = (1.0, 1e3, 1e6, 1e9, 1e12, 1e15, 2.0**10, 2.0**20, 2.0**30, 2.0**40, 100.0)


def agrees(arithmetic: Arithmetic, claim: Mention, tolerance: float) -> bool:
    """Whether the stated expression gives the claimed number (allowing unit scaling for unitless sums)."""
    claimed = claim.value if claim.low is None else (claim.low + claim.high) / 2  # type: ignore[operator]
    if claimed <= 0 or arithmetic.value <= 0:
        return False
    slack = max(tolerance, 0.05)
    scales = _SCALES if arithmetic.unitless else (1.0,)
    for scale in scales:
        for value in (arithmetic.value * scale, arithmetic.value / scale):
            if value / (1 + slack) <= claimed <= value * (1 + slack):
                return True
    return False


def clearly_disagrees(arithmetic: Arithmetic, claim: Mention) -> bool:
    """The expression gives a number at least 1.5× away from the claim under every unit scaling."""
    claimed = claim.value if claim.low is None else (claim.low + claim.high) / 2  # type: ignore[operator]
    if claimed <= 0 or arithmetic.value <= 0:
        return False
    scales = _SCALES if arithmetic.unitless and not (arithmetic.counted and claim.dim in ("FLOPs", "flops?", "tokens", "parameters")) else (1.0,)
    if claim.dim == "seconds" and re.search(r"/\s*(?:60|3,?600|86,?400|604,?800)\b(?!\s*[\d.])", arithmetic.expression):
        scales = (*scales, 60.0, 3600.0, 86400.0, 604800.0)  # "1.2e7 s / 86,400 ≈ 139 days": the division was the unit change
    return all(max(v / claimed, claimed / v) >= 1.5 for scale in scales for v in (arithmetic.value * scale, arithmetic.value / scale))


_AMOUNT_OF_RATE = {"bytes/s": ("bytes",), "FLOP/s": ("FLOPs", "flops?")}
_AT_RATE = re.compile(r"^[^\d;]{0,40}?(?:\bat\b|\bover\b|\bthrough\b|\bwith\b|\bon\b|/|÷|\bdivided\s+by\b)\s*(?:an?\s+|the\s+|its\s+|their\s+|each\s+|one\s+)?(?:about\s+|around\s+|roughly\s+|approximately\s+|~\s*|≈\s*)?$", re.IGNORECASE)
_RATE_GIVES = re.compile(r"^\s*(?:(?:nics?|links?|nvlink\d?|infiniband|ib|hbm\d?e?|pcie|bus|network|port|card|sustained|achieved|effective|delivered|actual|real|in\s+practice)\b\s*)?(?:\([^)\d]{0,30}\)\s*)?,?\s*(?:which\s+|that\s+|so\s+|this\s+)?(?:(?:it\s+|that\s+)?(?:goes|gets|moves|copies|transfers|lands|finishes|completes|uploads|downloads|arrives)(?:\s+(?:across|over|through|out|up|down))?\s+(?=in\b))?(?:is|'s|takes?|gives?|means|comes\s+to|works\s+out\s+to|=|≈|→|->|~|in|≥|>=)?\s*(?:about|around|roughly|approximately|~|≈|only|just|at\s+least)?\s*$", re.IGNORECASE)


_AMOUNT_TAKES = re.compile(
    r"^\s*(?:of\s+[\w-]+\s+)?(?:[a-z-]+\s+){0,4}?(?:takes?|needs?|lands?(?:\s+in)?|goes(?:\s+out)?(?:\s+in)?|finishes(?:\s+in)?|completes(?:\s+in)?|arrives(?:\s+in)?"
    r"|(?:is|gets)\s+(?:done|written|uploaded|moved|copied|sent)\s+in|uploads?\s+in|is|=|≈|→)\s*(?:about|around|roughly|approximately|~|≈|only|just|at\s+least)?\s*$",
    re.IGNORECASE,
)
"""After the amount, when the rate came first: "120 GB takes about", "a 2 GB shard lands in about"."""
_COLLECTIVE = re.compile(r"\ball[- ]?(?:reduce|gather|to[- ]all)|\breduce[- ]scatter|\bring\b|\bcollective|\bbroadcast", re.IGNORECASE)
"""A collective moves more than the buffer it is named by (a ring all-reduce sends about twice it)."""
_RATE_AFTER = re.compile(r"\s*(?:over|at|through|on|via|across|using)\s+(?:the\s+|a\s+|an\s+|one\s+|each\s+|its\s+|their\s+)?(?:single\s+)?(?:about\s+|~\s*)?", re.IGNORECASE)
_RATE_FIRST = re.compile(r"(?:^|[,;:]\s*|\b(?:and|so|then)\s+)(?:at|with|over|through)\s+(?:an?\s+|the\s+)?(?:about\s+|~\s*|≈\s*)?$", re.IGNORECASE)


def stated_rate(parsed: ParsedSentence, claim: Mention) -> Arithmetic | None:
    """"25.8 GB at 3.35 TB/s is about 7.7 ms", "1.2e22 FLOPs over 4e17 FLOP/s ≈ 8 h", "At 2 GB/s, 120 GB
    takes about 60 s": an amount moved or computed at a stated rate, and the time it takes; the time is
    the amount over the rate."""
    if claim.dim not in ("seconds", "s_per_token") or claim.low is not None:
        return None
    before = [m for m in parsed.mentions if m.end <= claim.start]
    after = [m for m in parsed.mentions if m.start >= claim.end]
    if before and after and after[0].dim in _AMOUNT_OF_RATE and before[-1].dim in _AMOUNT_OF_RATE[after[0].dim] \
            and _RATE_AFTER.fullmatch(parsed.masked[claim.end:after[0].start]) and _AMOUNT_TAKES.match(parsed.masked[before[-1].end:claim.start]) \
            and not _COLLECTIVE.search(parsed.text):
        # "The 3.5 GB each GPU sends takes about 140 s over the 25 GB/s NIC": the rate after the time
        amount, rate = before[-1], after[0]
        if amount.low is None and rate.low is None and amount.value > 0 and rate.value > 0 and not re.search(r"[+\-−×*·/]\s*$", parsed.masked[:amount.start]):
            return Arithmetic(f"{amount.text.strip()} / {rate.text.strip()}", amount.value / rate.value, False)
    if len(before) < 2:
        return None
    rate, amount = before[-1], before[-2]
    if rate.dim not in _AMOUNT_OF_RATE and amount.dim in _AMOUNT_OF_RATE:
        # "At 2 GB/s to the object store, 120 GB takes about 60 s": the rate first, then the amount
        rate, amount = amount, rate
        if amount.dim not in _AMOUNT_OF_RATE[rate.dim] or not _RATE_FIRST.search(parsed.masked[:rate.start]) or not re.fullmatch(r"[^\d;]{0,50}", parsed.masked[rate.end:amount.start]):
            return None
        gives = _AMOUNT_TAKES.match(parsed.masked[amount.end:claim.start])
    else:
        gives = _RATE_GIVES.match(parsed.masked[rate.end:claim.start])
        if not _AT_RATE.match(parsed.masked[amount.end:rate.start]):
            return None
    if rate.dim not in _AMOUNT_OF_RATE or amount.dim not in _AMOUNT_OF_RATE[rate.dim] or amount.low is not None or rate.low is not None:
        return None
    if re.search(r"[+\-−×*·/]\s*$", parsed.masked[:amount.start]):
        return None  # "(13.5 + 17.2 GB) / 2039 GB/s": the amount is a sum, of which only the last term is read
    if not gives:
        return None
    if not rate.value or not amount.value or rate.value <= 0 or amount.value <= 0:
        return None
    return Arithmetic(f"{amount.text.strip()} / {rate.text.strip()}", amount.value / rate.value, False)
