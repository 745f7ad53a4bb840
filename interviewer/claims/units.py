"""Numbers and units as candidates type them, converted to SI base units.

Conventions (agreed project-wide, see the calculators): GB = 1e9 bytes and GiB = 2**30 bytes;
TB/s = 1e12 bytes/s; TFLOP/s = 1e12 FLOP/s; "Gb/s" and "Gbps" are bits (InfiniBand HDR
"200 Gb/s" = 25 GB/s). "10B" and "7 billion" are 1e9 multiples (short scale), "4k" is 1e3 —
except for context lengths, where "4k" means 4096 (see ``context_length``).

Everything here is pure Python and regex with bounded repetition, so parsing is linear in the
length of the text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from interviewer.tools.numbers import in_time_unit

# --------------------------------------------------------------------------------------------
# Numbers

MAGNITUDE_WORDS: dict[str, float] = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "quadrillion": 1e15,
    "mn": 1e6,
    "mil": 1e6,
    "bn": 1e9,
    "tn": 1e12,
}
"""Spelled-out magnitudes (short scale: a billion is 1e9)."""

MAGNITUDE_LETTERS: dict[str, float] = {"k": 1e3, "K": 1e3, "M": 1e6, "m": 1e6, "B": 1e9, "b": 1e9, "T": 1e12}
"""Magnitude suffixes glued to a number: "4k", "124M", "10B", "2T". ("m" only before a count noun.)"""

_SMALL_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "dozen": 12, "half": 0.5,
}
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNITS_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")

_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_BELOW_HUNDRED = (
    r"(?:(?:" + "|".join(_TENS) + r")(?:[- ](?:" + "|".join(_UNITS_WORDS) + r"))?|" + "|".join(_TEENS + _UNITS_WORDS) + r")"
)
_WORD_NUMBER = (
    # "two hundred", "a hundred and sixty": the hundreds first, so "hundred" alone is not read as the number
    r"(?:(?:a|" + "|".join(_UNITS_WORDS) + r")\s+hundred(?:\s+(?:and\s+)?" + _BELOW_HUNDRED + r"(?![\w-]))?"
    r"|(?:" + "|".join(_TENS) + r")(?:[- ](?:" + "|".join(_UNITS_WORDS) + r"))?"
    r"|a\s+dozen|" + "|".join(sorted(_SMALL_NUMBER_WORDS, key=len, reverse=True)) + r"|an?(?=\s+(?:thousand|million|billion|trillion)\b))"
)

NUMBER_PATTERN = r"""
(?<![\w.\d])
(?:
    (?P<pow_only>10\s?(?:\^|\*\*)\s?(?P<e_pow>[-+]?\d{1,4})
                |10(?P<sup_pow>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4}))
  |
    (?P<pow_two>2\s?(?:\^|\*\*)\s?(?P<e_two>[-+]?\d{1,3})(?![\d.]))
  |
    (?P<sign>[-−](?=\d|\.\d))?
    (?P<mantissa>(?:\d{1,3}(?:,\d{3})+|\d{1,400})(?:\.\d{1,400})?|\.\d{1,400})
    (?:
        [eE](?P<e_lit>[-+]?\d{1,4})(?![\d])
      | \s?(?:[x×*·]|\\times)\s?10\s?(?:\^|\*\*)\s?(?P<e_mul>[-+]?\d{1,4})
      | \s?(?:[x×*·])\s?10(?P<sup_mul>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4})
    )?
  |
    (?P<word>""" + _WORD_NUMBER + r""")(?![\w])
)
"""
NUMBER_RE = re.compile(NUMBER_PATTERN, re.VERBOSE | re.IGNORECASE)

MAGNITUDE_RE = re.compile(
    r"(?P<space>\s?)(?P<mag>thousand|million|billion|trillion|quadrillion|mn|mil|bn|tn|[kKMmBbT])(?![A-Za-z0-9])"
)


def _safe_float(text: str) -> float | None:
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def _word_value(word: str) -> float:
    word = re.sub(r"\s+", " ", word.lower())
    if word in ("a", "an"):
        return 1.0
    if word == "a dozen":
        return 12.0
    hundreds, _, rest = word.partition(" hundred")
    if _:
        value = 100.0 * (1 if hundreds == "a" else _SMALL_NUMBER_WORDS[hundreds])
        return value + _word_value(rest.replace(" and ", " ").strip()) if rest.strip() else value
    parts = re.split(r"[- ]", word)
    return float(sum(_SMALL_NUMBER_WORDS[p] for p in parts))


def number_value(match: re.Match) -> float | None:
    """The value of a ``NUMBER_RE`` match (None if it overflows a float)."""
    if match.group("pow_only"):
        exponent = match.group("e_pow") or (match.group("sup_pow") or "").translate(_SUPERSCRIPT)
        return _safe_float(f"1e{int(exponent)}")
    if match.group("pow_two"):
        return _safe_float(str(2.0 ** int(match.group("e_two")))) if abs(int(match.group("e_two"))) <= 1000 else None
    if match.group("word"):
        return _word_value(match.group("word"))
    mantissa = match.group("mantissa").replace(",", "")
    exponent = match.group("e_lit") or match.group("e_mul") or (match.group("sup_mul") or "").translate(_SUPERSCRIPT) or "0"
    try:
        exp = int(exponent)
    except ValueError:
        return None
    value = _safe_float(f"{mantissa}e{exp}")
    if value is None:
        return None
    if match.group("sign"):
        value = -value
    return value


def parse_number(text: str) -> float | None:
    """Parse one number as typed: "10B", "1.5e9", "7 billion", "1,000", "2×10^9", "10⁹", "4k", "half".

    Returns None when the whole string is not a single number (or overflows a float).
    """
    text = text.strip()
    match = NUMBER_RE.match(text)
    if not match:
        return None
    value = number_value(match)
    if value is None:
        return None
    rest = text[match.end():]
    mag = MAGNITUDE_RE.match(rest)
    if mag:
        value *= MAGNITUDE_LETTERS.get(mag.group("mag")) or MAGNITUDE_WORDS[mag.group("mag").lower()]
        rest = rest[mag.end():]
    if rest.strip():
        return None
    return value if math.isfinite(value) else None


def context_length(value: float, used_k: bool) -> float:
    """A context length typed as "4k" means 4096 tokens (powers of two), "100k" means 100,000."""
    if used_k:
        tokens = round(value / 1e3 * 1024)
        if tokens > 0 and tokens & (tokens - 1) == 0:
            return float(tokens)
    return value


# --------------------------------------------------------------------------------------------
# Units

Dim = str
"""A dimension tag. Claimable base units: "bytes", "seconds", "FLOPs", "FLOP/s", "bytes/s",
"parameters", "tokens", "fraction", "count". Input-only tags: "s_per_token", "tokens_per_s",
"req_per_s", "bytes_per_param", "tokens_per_param", and "flops?" (FLOPs without /s: a count or a
rate, the topic decides)."""

BASE_UNIT: dict[Dim, str] = {
    "bytes": "bytes",
    "seconds": "seconds",
    "s_per_token": "seconds",
    "tokens_per_s": "seconds",  # checked as its inverse, seconds per token
    "FLOPs": "FLOPs",
    "flops?": "FLOPs",
    "FLOP/s": "FLOP/s",
    "bytes/s": "bytes/s",
    "parameters": "parameters",
    "tokens": "tokens",
    "fraction": "fraction",
    "count": "count",
    "bytes_per_param": "bytes",
    "tokens_per_param": "count",
    "req_per_s": "count",
}

_DECIMAL = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15, "e": 1e18, "z": 1e21}
_BINARY = {"k": 2.0**10, "m": 2.0**20, "g": 2.0**30, "t": 2.0**40, "p": 2.0**50}
_PREFIX_WORDS = {"kilo": "k", "mega": "m", "giga": "g", "tera": "t", "peta": "p", "exa": "e", "zetta": "z"}
_BINARY_WORDS = {"kibi": "k", "mebi": "m", "gibi": "g", "tebi": "t", "pebi": "p"}

SECONDS_PER_DAY = 86400.0
_TIME = {
    "ns": 1e-9, "nanosecond": 1e-9, "nanoseconds": 1e-9,
    "µs": 1e-6, "μs": 1e-6, "us": 1e-6, "microsecond": 1e-6, "microseconds": 1e-6,
    "ms": 1e-3, "msec": 1e-3, "msecs": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3, "millis": 1e-3,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "day": SECONDS_PER_DAY, "days": SECONDS_PER_DAY,
    "week": 7 * SECONDS_PER_DAY, "weeks": 7 * SECONDS_PER_DAY,
    "month": 365.25 / 12 * SECONDS_PER_DAY, "months": 365.25 / 12 * SECONDS_PER_DAY,
    "year": 365.25 * SECONDS_PER_DAY, "years": 365.25 * SECONDS_PER_DAY, "yr": 365.25 * SECONDS_PER_DAY, "yrs": 365.25 * SECONDS_PER_DAY,
}
_TIME_ALT = "|".join(sorted((re.escape(k) for k in _TIME), key=len, reverse=True))
_SHORT_TIME_ALT = r"ns|µs|μs|us|ms|msec|s|sec|second|seconds|milliseconds?|microseconds?"


@dataclass(frozen=True)
class UnitMatch:
    """A unit found right after a number."""

    dim: Dim
    factor: float
    """Multiply the number by this to get the base unit."""
    end: int
    text: str
    binary_alternative: float | None = None
    """For byte sizes: the factor under the other reading (GB read as GiB or GiB read as GB)."""
    is_binary: bool = False


def _byte_factor(prefix: str, binary: bool) -> float:
    prefix = prefix.lower()
    return _BINARY[prefix] if binary else _DECIMAL[prefix]


# Each entry: (compiled regex anchored at the start of the text after the number, builder).
_B = r"(?![A-Za-z0-9])"
_PER_SECOND = r"(?:\s?/\s?s(?:ec(?:ond)?)?\b|\s?per\s+s(?:ec(?:ond)?)?\b|ps\b)"

_UNIT_PATTERNS: list[tuple[re.Pattern, str]] = [
    # PF-days (petaflop/s-days, Kaplan et al. 2020): 1e15 FLOP/s for a day = 8.64e19 FLOPs.
    (re.compile(r"(?:pf|petaflops?(?:/s)?|pflops?(?:/s)?|pfs?)[- ]days?" + _B, re.I), "pf_days"),
    (re.compile(r"(?P<p>[kKMGTPEZ]|kilo|mega|giga|tera|peta|exa|zetta)?-?(?:flop|flops|FLOP|FLOPs|FLOPS)(?:\s?/\s?s(?:ec)?\b|\s+per\s+second\b)", re.I), "flop_rate"),
    (re.compile(r"(?P<p>[kKMGTPE])?-?(?:OPS|ops)\s?(?:/\s?s\b)?(?=\s|$|[,.;)])"), "int_ops"),
    (re.compile(r"(?:flops?|ops)\s?(?:/|per)\s?(?:bytes?|B)\b", re.I), "intensity"),
    (re.compile(r"(?P<p>[kKMGTPEZ]|kilo|mega|giga|tera|peta|exa|zetta)?-?(?:flops?)" + _B, re.I), "flops"),
    # Bit rates: "Gb/s", "Gbps", "Gbit/s", "gigabits per second" (network links).
    (re.compile(r"(?P<p>[kKMGT])(?:b|bit|bits)(?:\s?/\s?s\b|\s?per\s+second\b)|(?P<p2>[kKmMgGtT])bps" + _B + r"|(?P<w>kilo|mega|giga|tera)bits?\s?(?:/\s?s\b|per\s+second\b)"), "bit_rate"),
    (re.compile(r"(?P<p>[kKMGTPmgtp])(?P<i>i)?(?:B|b)" + _PER_SECOND + r"|(?P<w>kilo|mega|giga|tera|peta)bytes?\s?(?:/\s?s\b|per\s+second\b)", re.I), "byte_rate"),
    (re.compile(r"(?:bytes?|B)\s?(?:/|per)\s?(?:param(?:eter)?|weight|p)s?\b", re.I), "bytes_per_param"),
    (re.compile(r"tokens?\s?(?:/|per)\s?(?:param(?:eter)?|weight)s?\b", re.I), "tokens_per_param"),
    (re.compile(r"(?P<u>" + _SHORT_TIME_ALT + r")\s?(?:/|per|a|an|for each|each)\s?(?:(?:output|generated|decoded|new|decode|generation)[- ])?(?:tokens?|toks?)\b", re.I), "s_per_token"),
    (re.compile(r"(?:(?:output|generated|decoder|decode|decoded|new|input|prompt)\s)?(?:tokens?|toks?)\s?(?:/\s?s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b)|tps\b|tok/s\b", re.I), "tokens_per_s"),
    (re.compile(r"(?:req(?:uest)?s?|queries|quer(?:y|ies))\s?(?:/\s?s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b)|qps\b|rps\b", re.I), "req_per_s"),
    (re.compile(r"(?P<p>[kKMGTP])(?P<i>i)?B" + _B), "bytes"),
    (re.compile(r"(?P<p>[kmgtp])(?P<i>i)?b" + _B + r"|(?P<p2>[KMGTP])b" + _B), "bytes_casual"),
    (re.compile(r"(?P<w>kilo|mega|giga|tera|peta|kibi|mebi|gibi|tebi|pebi)bytes?\b|gigs?\b|bytes?\b", re.I), "bytes_word"),
    (re.compile(r"(?P<u>" + _TIME_ALT + r")" + _B, re.I), "time"),
    (re.compile(r"%|\s?(?:percent|per\s?cent|pct)\b", re.I), "percent"),
]


def match_unit(text: str, pos: int) -> UnitMatch | None:
    """The unit starting at ``text[pos:]`` (after optional whitespace or a hyphen), if any."""
    ws = re.compile(r"[ \t]{0,3}-?").match(text, pos)
    start = ws.end() if ws else pos
    for pattern, kind in _UNIT_PATTERNS:
        m = pattern.match(text, start)
        if not m:
            continue
        # A unit glued to the number with a hyphen ("160-GB") is fine; "-" then a word is not a unit.
        built = _build_unit(kind, m)
        if built is None:
            continue
        dim, factor, alt, is_binary = built
        return UnitMatch(dim, factor, m.end(), m.group(0), alt, is_binary)
    return None


def _prefix_of(m: re.Match, *names: str) -> str:
    for name in names:
        try:
            value = m.group(name)
        except IndexError:
            continue
        if value:
            return value
    return ""


def _build_unit(kind: str, m: re.Match) -> tuple[Dim, float, float | None, bool] | None:
    if kind == "intensity":
        return "flops_per_byte", 1.0, None, False
    if kind == "pf_days":
        return "FLOPs", 1e15 * SECONDS_PER_DAY, None, False
    if kind in ("flop_rate", "flops", "int_ops"):
        prefix = _prefix_of(m, "p")
        prefix = _PREFIX_WORDS.get(prefix.lower(), prefix.lower())
        factor = _DECIMAL.get(prefix)
        if factor is None:
            return None
        if kind == "flops":
            return "flops?", factor, None, False
        return "FLOP/s", factor, None, False
    if kind == "bit_rate":
        prefix = _prefix_of(m, "p", "p2") or _PREFIX_WORDS.get((m.group("w") or "").lower(), "")
        return "bytes/s", _DECIMAL[prefix.lower()] / 8, None, False
    if kind == "byte_rate":
        word = m.group("w")
        if word:
            return "bytes/s", _DECIMAL[_PREFIX_WORDS[word.lower()]], None, False
        prefix = m.group("p").lower()
        binary = bool(m.group("i"))
        return "bytes/s", _byte_factor(prefix, binary), None, binary
    if kind == "bytes_per_param":
        return "bytes_per_param", 1.0, None, False
    if kind == "tokens_per_param":
        return "tokens_per_param", 1.0, None, False
    if kind == "s_per_token":
        return "s_per_token", _TIME[m.group("u").lower().replace("μ", "µ")], None, False
    if kind == "tokens_per_s":
        return "tokens_per_s", 1.0, None, False
    if kind == "req_per_s":
        return "req_per_s", 1.0, None, False
    if kind in ("bytes", "bytes_casual"):
        prefix = _prefix_of(m, "p", "p2").lower()
        binary = bool(_prefix_of(m, "i"))
        factor = _byte_factor(prefix, binary)
        return "bytes", factor, _byte_factor(prefix, not binary), binary
    if kind == "bytes_word":
        word = (m.group("w") or "").lower()
        text = m.group(0).lower()
        if text.startswith("gig"):
            if "byte" not in text:
                return "bytes", 1e9, 2.0**30, False
        if word in _PREFIX_WORDS:
            prefix = _PREFIX_WORDS[word]
            return "bytes", _DECIMAL[prefix], _BINARY.get(prefix), False
        if word in _BINARY_WORDS:
            prefix = _BINARY_WORDS[word]
            return "bytes", _BINARY[prefix], _DECIMAL[prefix], True
        return "bytes", 1.0, None, False
    if kind == "time":
        unit = m.group("u")
        if unit == "S" or unit == "H" or unit == "M":
            return None
        return "seconds", _TIME[unit.lower().replace("μ", "µ")], None, False
    if kind == "percent":
        return "fraction", 0.01, None, False
    return None  # pragma: no cover


@dataclass(frozen=True)
class Quantity:
    value: float
    dim: Dim
    binary_alternative: float | None = None
    is_binary: bool = False


def parse_quantity(text: str) -> Quantity | None:
    """Parse a whole string as a number with an optional magnitude and unit: "160 GB", "2 GiB",
    "1.3 ms/token", "312 TFLOP/s", "200 Gb/s", "10B", "40%". Returns None if it is not one."""
    text = text.strip()
    match = NUMBER_RE.match(text)
    if not match:
        return None
    value = number_value(match)
    if value is None:
        return None
    pos = match.end()
    mag = MAGNITUDE_RE.match(text, pos)
    if mag and not (mag.group("mag") in ("m", "M", "T", "B", "b") and match_unit(text, pos) is not None):
        value *= MAGNITUDE_LETTERS.get(mag.group("mag")) or MAGNITUDE_WORDS[mag.group("mag").lower()]
        pos = mag.end()
    unit = match_unit(text, pos)
    if unit is None:
        if text[pos:].strip():
            return None
        return Quantity(value, "count") if math.isfinite(value) else None
    if text[unit.end:].strip():
        return None
    base = value * unit.factor
    if not math.isfinite(base):
        return None
    alt = value * unit.binary_alternative if unit.binary_alternative else None
    return Quantity(base, unit.dim, alt, unit.is_binary)


# --------------------------------------------------------------------------------------------
# Formatting (for explanations; values are always carried in base units)


def _sig(value: float, digits: int = 3) -> str:
    if value == 0 or not math.isfinite(value):
        return str(value)
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa}e{int(exp)}"
    return text


def format_bytes(value: float, binary: bool = False) -> str:
    if not math.isfinite(value):
        return str(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    if binary:
        for unit, factor in (("PiB", 2.0**50), ("TiB", 2.0**40), ("GiB", 2.0**30), ("MiB", 2.0**20), ("KiB", 2.0**10)):
            if value >= factor:
                return f"{sign}{_sig(value / factor)} {unit}"
        return f"{sign}{_sig(value)} bytes"
    for unit, factor in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= factor:
            return f"{sign}{_sig(value / factor)} {unit}"
    return f"{sign}{_sig(value)} bytes"


def format_seconds(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0 s"
    scaled, unit = in_time_unit(abs(value))
    return f"{'-' if value < 0 else ''}{_sig(scaled)} {unit}"


def format_count(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    sign = "-" if value < 0 else ""
    v = abs(value)
    for suffix, factor in (("T", 1e12), ("B", 1e9), ("M", 1e6)):
        if v >= factor and v < factor * 1e3:
            return f"{sign}{_sig(v / factor)}{suffix}"
    if v >= 1e15:
        return f"{sign}{_sig(v)}"
    return f"{sign}{float(_sig(v)):,.10g}"


def format_flops(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    v = abs(value)
    if v >= 1e15 or v == 0:
        return f"{_sig(value)} FLOPs"
    for unit, factor in (("TFLOPs", 1e12), ("GFLOPs", 1e9), ("MFLOPs", 1e6)):
        if v >= factor:
            return f"{_sig(value / factor)} {unit}"
    return f"{_sig(value)} FLOPs"


def format_value(value: float | None, unit: str, binary: bool = False) -> str:
    """A base-unit value for people: "160 GB", "2 GiB", "1.29 ms", "1.2e22 FLOPs", "15.8%"."""
    if value is None:
        return "?"
    if unit == "bytes":
        return format_bytes(value, binary)
    if unit == "seconds":
        return format_seconds(value)
    if unit == "FLOPs":
        return format_flops(value)
    if unit == "FLOP/s":
        if abs(value) >= 1e18:
            return f"{_sig(value / 1e18)} EFLOP/s"
        if abs(value) >= 1e15:
            return f"{_sig(value / 1e15)} PFLOP/s"
        if abs(value) >= 1e12:
            return f"{_sig(value / 1e12)} TFLOP/s"
        return f"{_sig(value)} FLOP/s"
    if unit == "bytes/s":
        if abs(value) >= 1e12:
            return f"{_sig(value / 1e12)} TB/s"
        return f"{_sig(value / 1e9)} GB/s"
    if unit == "fraction":
        return f"{_sig(value * 100)}%"
    if unit == "parameters":
        return f"{format_count(value)} params"
    if unit == "tokens":
        return f"{format_count(value)} tokens"
    return format_count(value)
