"""Every unit and number convention of the project, in one place: reading and formatting quantities.

Conventions (project-wide):

- Decimal vs binary prefixes. For sizes, kB/MB/GB/TB/PB are powers of 1000 (what datasheets
  use) and KiB/MiB/GiB/TiB/PiB powers of 1024: GB = 1e9 bytes, GiB = 2**30 bytes; TB/s =
  1e12 bytes/s; TFLOP/s = 1e12 FLOP/s. Counts use the same decimal letters (K/M/G/T/P) and the
  short scale for words ("7 billion" = 7e9). The tables below (``DECIMAL_PREFIXES``,
  ``BINARY_PREFIXES``, ``TIME_UNITS``, ``MAGNITUDES``) hold every factor once; each reader picks
  the spellings it accepts from them.
- Bits vs bytes. An upper-case ``B`` is bytes; a lower-case ``b`` after an upper-case prefix, or
  "bit"/"bps" (``200Gb/s``, ``400Gbps``, "gigabits per second"), is bits, ÷ 8 (InfiniBand HDR
  "200 Gb/s" = 25 GB/s).
- "B" after a number. For counts "10B" and "7.5B parameters" mean billions (1e9), as "G" does;
  for sizes "B" alone is bytes.
- Context lengths: "4k" means 4096 tokens (powers of two), "100k" means 100,000 (``context_length``).

Two reading modes, because the inputs differ:

- Strict, ``parse_flag(text, kind)``: for CLI flags and calculator inputs. The caller says what
  kind of number it wants, and anything that could be read two ways is refused with a
  ``ValueError`` that says how to write it ("10B" as a size, "100gbps" as a bandwidth), since a
  flag must be unambiguous and a wrong guess gives a wrong result silently.
- Lenient, ``parse_number`` / ``parse_quantity`` / ``match_unit`` / ``NUMBER_RE``: for numbers in
  prose (the claim checker, drill answers). Prose must be read the way an engineer meant it, so
  this reader takes words ("seven billion"), powers ("2×10^9", "10⁹"), sloppy casing ("100 gbps"
  is bits, "16 gb" is bytes) and finds the dimension from the unit; it returns None rather than
  raising when a string is not a quantity.

Formatting: ``format_value`` and the short ``format_bytes`` / ``format_seconds`` /
``format_count`` / ``format_flops`` write one reading ("160 GB", "1.29 ms") for the claim
checker's explanations; ``format_quantity`` and the ``*_detailed`` formatters write the
calculators' output, with the other reading in brackets ("20.0 GB (18.6 GiB)", "2 min (120 s)",
"124,439,808 (124.4M)").

Everything here is pure Python and regex with bounded repetition, so parsing is linear in the
length of the text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

# --------------------------------------------------------------------------------------------
# Shared conventions: every factor defined once

DECIMAL_PREFIXES: dict[str, float] = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15, "e": 1e18, "z": 1e21}
"""SI prefixes, lower-cased: powers of 1000."""
BINARY_PREFIXES: dict[str, float] = {"k": 2.0**10, "m": 2.0**20, "g": 2.0**30, "t": 2.0**40, "p": 2.0**50}
"""IEC prefixes by their letter ("g" for Gi): powers of 1024."""
PREFIX_WORDS = {"kilo": "k", "mega": "m", "giga": "g", "tera": "t", "peta": "p", "exa": "e", "zetta": "z"}
BINARY_WORDS = {"kibi": "k", "mebi": "m", "gibi": "g", "tebi": "t", "pebi": "p"}

SECONDS_PER_DAY = 86400.0
TIME_UNITS: dict[str, float] = {
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
    "d": SECONDS_PER_DAY,  # flags only: in prose "5 d" is not read as a time
}
"""Seconds per time unit, by spelling."""

MAGNITUDES: dict[str, float] = {
    **{letter: DECIMAL_PREFIXES[letter] for letter in ("", "k", "m", "g", "t", "p")},
    "b": 1e9,  # "7.5B parameters": billions, like "G"
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "quadrillion": 1e15,
    "mn": 1e6, "mil": 1e6, "bn": 1e9, "tn": 1e12,
}
"""Count multipliers, lower-cased: letters glued to a number ("4k", "10B") and words (short scale)."""

MAGNITUDE_WORDS: dict[str, float] = {
    word: MAGNITUDES[word] for word in ("thousand", "million", "billion", "trillion", "quadrillion", "mn", "mil", "bn", "tn")
}
"""Spelled-out magnitudes (short scale: a billion is 1e9)."""

MAGNITUDE_LETTERS: dict[str, float] = {letter: MAGNITUDES[letter.lower()] for letter in ("k", "K", "M", "m", "B", "b", "T")}
"""Magnitude suffixes glued to a number in prose: "4k", "124M", "10B", "2T". ("m" only before a count noun.)"""

_DECIMAL_BYTE_UNITS = (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3))
_BINARY_BYTE_UNITS = (("PiB", 2.0**50), ("TiB", 2.0**40), ("GiB", 2.0**30), ("MiB", 2.0**20), ("KiB", 2.0**10))

# --------------------------------------------------------------------------------------------
# Strict mode: CLI flags and calculator inputs

NumberKind = Literal["count", "bytes", "bandwidth", "seconds", "rate", "flops", "flop_rate"]

_FLAG_NUMBER = re.compile(
    r"""^\s*(?P<number>[+-]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?P<unit>.*?)\s*$"""
)

# The spellings a flag accepts, a subset of the shared tables (no exa/zetta, no weeks or years).
_FLAG_DECIMAL = {prefix: DECIMAL_PREFIXES[prefix] for prefix in ("", "k", "m", "g", "t", "p")}
_FLAG_BINARY = {letter + "i": factor for letter, factor in BINARY_PREFIXES.items()}
_FLAG_COUNT_SUFFIX = {
    suffix: MAGNITUDES[suffix]
    for suffix in ("", "k", "thousand", "m", "mn", "million", "g", "b", "bn", "billion", "t", "trillion", "p")
}
_FLAG_SECONDS = {
    "": 1.0,
    **{
        unit: TIME_UNITS[unit]
        for unit in (
            "s", "sec", "secs", "second", "seconds", "ms", "msec", "millisecond", "milliseconds",
            "us", "µs", "μs", "microsecond", "microseconds", "ns", "nanosecond", "nanoseconds",
            "min", "mins", "minute", "minutes", "h", "hr", "hrs", "hour", "hours", "d", "day", "days",
        )
    },
}
_FLAG_EXAMPLES = {
    "count": "a count such as 7.5e9, 7.5B, 200M or 1,024",
    "bytes": "a size such as 1.5GB, 2GiB, 10G or 4096",
    "bandwidth": "a bandwidth such as 600GB/s, 25 GB/s, 200Gb/s or 6e11",
    "seconds": "a time such as 0.2, 200ms or 1.5us",
    "rate": "a rate such as 1000, 1k or 1000/s",
    "flops": "a FLOP count such as 3.14e23 or 1.2e22 FLOPs",
    "flop_rate": "a FLOP/s figure such as 312T, 312 TFLOP/s or 3.12e14",
}


def _read_bytes_unit(unit: str, allow_bits: bool) -> float | None:
    """Multiplier to bytes for ``GB``, ``GiB``, ``G``, ``Gb`` (bits, if allowed); None if not a size unit."""
    if unit == "":
        return 1.0
    lowered = unit.lower()
    if lowered in ("byte", "bytes"):
        return 1.0
    for suffix, divisor in (("bits", 8.0), ("bit", 8.0)):
        if allow_bits and lowered.endswith(suffix):
            prefix = lowered[: -len(suffix)]
            if prefix in _FLAG_DECIMAL:
                return _FLAG_DECIMAL[prefix] / divisor
            if prefix in _FLAG_BINARY:
                return _FLAG_BINARY[prefix] / divisor
            return None
    if unit.endswith("B"):
        prefix = lowered[:-1]
        if prefix == "":
            return 1.0
        if prefix in _FLAG_DECIMAL:
            return _FLAG_DECIMAL[prefix]
        return _FLAG_BINARY.get(prefix)
    if unit.endswith("b") and len(unit) >= 2:
        prefix = unit[:-1]
        if not allow_bits:
            # Sizes are always bytes; "gb" is a sloppy "GB".
            lowered_prefix = prefix.lower()
            return _FLAG_DECIMAL.get(lowered_prefix) or _FLAG_BINARY.get(lowered_prefix)
        if prefix[:1].isupper():  # SI style "Gb", "Mb": bits
            lowered_prefix = prefix.lower()
            multiplier = _FLAG_DECIMAL.get(lowered_prefix) or _FLAG_BINARY.get(lowered_prefix)
            return None if multiplier is None else multiplier / 8.0
        raise ValueError(f"ambiguous unit {unit!r}: write {prefix.upper()}B/s for bytes or {prefix.upper()}b/s for bits")
    # A bare prefix ("10G", "2Gi") means that many bytes.
    if lowered in _FLAG_DECIMAL:
        return _FLAG_DECIMAL[lowered]
    return _FLAG_BINARY.get(lowered)


def parse_flag(text: str | float | int, kind: NumberKind = "count") -> float:
    """Strict: for CLI flags and calculator inputs. Parse ``text`` as a number of the given kind,
    returned in the SI base unit (bytes, seconds, ...): ``7.5e9``, ``7.5B``, ``1,024``, ``2GiB``,
    ``600GB/s``, ``200Gb/s``, ``200ms``.

    Raises ``ValueError`` with a short message on anything it cannot read unambiguously.
    """
    if isinstance(text, bool):
        raise ValueError(f"expected {_FLAG_EXAMPLES[kind]}, got {text!r}")
    if isinstance(text, (int, float)):
        return float(text)
    match = _FLAG_NUMBER.match(str(text))
    raw_number = match.group("number") if match else ""
    if not match or raw_number in ("", "+", "-", ".") or not re.search(r"\d", raw_number):
        raise ValueError(f"expected {_FLAG_EXAMPLES[kind]}, got {text!r}")
    number = float(raw_number.replace(",", "").replace("_", ""))
    unit = match.group("unit").strip()
    multiplier: float | None

    if kind == "count":
        multiplier = _FLAG_COUNT_SUFFIX.get(unit.lower())
    elif kind == "flops":
        stripped = re.sub(r"\s*flops?$", "", unit, flags=re.IGNORECASE)
        multiplier = _FLAG_COUNT_SUFFIX.get(stripped.strip().lower())
    elif kind == "flop_rate":
        stripped = re.sub(r"\s*(flop/s|flops|flop)$", "", unit, flags=re.IGNORECASE)
        multiplier = _FLAG_COUNT_SUFFIX.get(stripped.strip().lower())
    elif kind == "seconds":
        multiplier = _FLAG_SECONDS.get(unit if unit in ("µs", "μs") else unit.lower())
    elif kind == "rate":
        stripped = re.sub(r"\s*(?:(?:req|requests|queries|tokens)?\s*/\s*s(?:ec)?|qps|rps)$", "", unit, flags=re.IGNORECASE)
        multiplier = _FLAG_COUNT_SUFFIX.get(stripped.strip().lower())
    elif kind == "bytes":
        if unit == "B":
            raise ValueError(
                f"ambiguous size {text!r}: 'B' could mean bytes or billions; write {raw_number}GB (or {raw_number}e9) for billions of bytes"
            )
        multiplier = _read_bytes_unit(unit, allow_bits=False)
    elif kind == "bandwidth":
        per_second = re.sub(r"\s*(/\s*s(?:ec)?|ps)$", "", unit)
        if per_second == "B":
            multiplier = 1.0
        else:
            multiplier = _read_bytes_unit(per_second, allow_bits=True)
    else:  # pragma: no cover - guarded by the Literal type
        raise ValueError(f"unknown number kind {kind!r}")

    if multiplier is None:
        raise ValueError(f"expected {_FLAG_EXAMPLES[kind]}, got {text!r}")
    return number * multiplier


# --------------------------------------------------------------------------------------------
# Lenient mode: numbers in prose

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


def _leading_number(text: str) -> tuple[float, int] | None:
    """The value of the number ``text`` starts with and where it ends (None: no number, or it overflows)."""
    match = NUMBER_RE.match(text)
    if not match:
        return None
    value = number_value(match)
    if value is None:
        return None
    return value, match.end()


def _magnitude_factor(mag: re.Match) -> float:
    """The multiplier of a ``MAGNITUDE_RE`` match: "k" 1e3, "B" 1e9, "million" 1e6."""
    return MAGNITUDE_LETTERS.get(mag.group("mag")) or MAGNITUDE_WORDS[mag.group("mag").lower()]


def parse_number(text: str) -> float | None:
    """Lenient, for prose: parse one number as typed: "10B", "1.5e9", "7 billion", "1,000", "2×10^9", "10⁹", "4k", "half".

    Returns None when the whole string is not a single number (or overflows a float).
    """
    text = text.strip()
    leading = _leading_number(text)
    if leading is None:
        return None
    value, end = leading
    rest = text[end:]
    mag = MAGNITUDE_RE.match(rest)
    if mag:
        value *= _magnitude_factor(mag)
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
# Lenient mode, units

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

_TIME = {unit: factor for unit, factor in TIME_UNITS.items() if unit != "d"}
"""The time units prose is read in."""
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
    return BINARY_PREFIXES[prefix] if binary else DECIMAL_PREFIXES[prefix]


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
    (re.compile(r"(?:req(?:uest)?s?|queries|quer(?:y|ies))\s?(?:/\s?(?P<t>s|sec|second|min|minute|h|hr|hour|day)\b|(?:per|a|an|each)\s+(?P<t2>sec(?:ond)?|min(?:ute)?|hour|day)\b)|qps\b|rps\b", re.I), "req_per_s"),
    (re.compile(r"(?P<p>[kKMGTP])(?P<i>i)?B" + _B), "bytes"),
    (re.compile(r"(?P<p>[kmgtp])(?P<i>i)?b" + _B + r"|(?P<p2>[KMGTP])b" + _B), "bytes_casual"),
    (re.compile(r"(?P<w>kilo|mega|giga|tera|peta|kibi|mebi|gibi|tebi|pebi)bytes?\b|gigs?\b|bytes?\b", re.I), "bytes_word"),
    (re.compile(r"(?P<u>" + _TIME_ALT + r")" + _B, re.I), "time"),
    (re.compile(r"%|\s?(?:percent|per\s?cent|pct)\b", re.I), "percent"),
]


_REQUEST_PERIODS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hr": 3600.0, "hour": 3600.0, "day": 86400.0}
"""Seconds in the period of a request rate ("req/s", "requests a minute", "queries per hour")."""


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
        prefix = PREFIX_WORDS.get(prefix.lower(), prefix.lower())
        factor = DECIMAL_PREFIXES.get(prefix)
        if factor is None:
            return None
        if kind == "flops":
            return "flops?", factor, None, False
        return "FLOP/s", factor, None, False
    if kind == "bit_rate":
        prefix = _prefix_of(m, "p", "p2") or PREFIX_WORDS.get((m.group("w") or "").lower(), "")
        return "bytes/s", DECIMAL_PREFIXES[prefix.lower()] / 8, None, False
    if kind == "byte_rate":
        word = m.group("w")
        if word:
            return "bytes/s", DECIMAL_PREFIXES[PREFIX_WORDS[word.lower()]], None, False
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
        period = (_prefix_of(m, "t", "t2") or "s").lower()
        return "req_per_s", 1.0 / _REQUEST_PERIODS[period.rstrip("s") if len(period) > 2 else period], None, False
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
        if word in PREFIX_WORDS:
            prefix = PREFIX_WORDS[word]
            return "bytes", DECIMAL_PREFIXES[prefix], BINARY_PREFIXES.get(prefix), False
        if word in BINARY_WORDS:
            prefix = BINARY_WORDS[word]
            return "bytes", BINARY_PREFIXES[prefix], DECIMAL_PREFIXES[prefix], True
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
    """Lenient, for prose: parse a whole string as a number with an optional magnitude and unit: "160 GB", "2 GiB",
    "1.3 ms/token", "312 TFLOP/s", "200 Gb/s", "10B", "40%". Returns None if it is not one."""
    text = text.strip()
    leading = _leading_number(text)
    if leading is None:
        return None
    value, pos = leading
    mag = MAGNITUDE_RE.match(text, pos)
    if mag and not (mag.group("mag") in ("m", "M", "T", "B", "b") and match_unit(text, pos) is not None):
        value *= _magnitude_factor(mag)
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
# Formatting: values are always carried in SI base units


def in_time_unit(seconds: float) -> tuple[float, str]:
    """A duration in the unit it reads best in: ``(0.0013, "s")`` → ``(1.3, "ms")``.

    Shared by both sets of formatters."""
    magnitude = abs(seconds)
    if magnitude < 1e-6:
        return seconds * 1e9, "ns"
    if magnitude < 1e-3:
        return seconds * 1e6, "µs"
    if magnitude < 1:
        return seconds * 1e3, "ms"
    if magnitude < 120:
        return seconds, "s"
    if magnitude < 2 * 3600:
        return seconds / 60, "min"
    if magnitude < 2 * 86400:
        return seconds / 3600, "h"
    return seconds / 86400, "days"


# Short formatters: one reading, for the claim checker's explanations ("160 GB", "1.29 ms").


def _sig(value: float, digits: int = 3) -> str:
    if value == 0 or not math.isfinite(value):
        return str(value)
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa}e{int(exp)}"
    return text


def format_bytes(value: float, binary: bool = False) -> str:
    """Claim explanations: "160 GB", or with ``binary`` "149 GiB"; under 1 kB "512 bytes"."""
    if not math.isfinite(value):
        return str(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    if binary:
        for unit, factor in _BINARY_BYTE_UNITS:
            if value >= factor:
                return f"{sign}{_sig(value / factor)} {unit}"
        return f"{sign}{_sig(value)} bytes"
    for unit, factor in _DECIMAL_BYTE_UNITS:
        if value >= factor:
            return f"{sign}{_sig(value / factor)} {unit}"
    return f"{sign}{_sig(value)} bytes"


def format_seconds(value: float) -> str:
    """Claim explanations: "1.29 ms", "2 min" (for the seconds in brackets, ``format_seconds_detailed``)."""
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0 s"
    scaled, unit = in_time_unit(abs(value))
    return f"{'-' if value < 0 else ''}{_sig(scaled)} {unit}"


def format_count(value: float) -> str:
    """Claim explanations, three significant figures: "124M", "7B", "1,020" for 1024."""
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
    """Claim explanations: "1.2e22 FLOPs", "3.5 TFLOPs"."""
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



# Detailed formatters: the calculators' output, with the other reading in brackets.


def _significant(value: float, digits: int = 3) -> str:
    """``value`` to about ``digits`` significant figures, without scientific notation for ordinary sizes."""
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.1f}" if value != round(value) else f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def format_bytes_detailed(value: float) -> str:
    """Calculator output: ``20.0 GB (18.6 GiB)``: decimal units first (what datasheets use), binary in brackets."""
    if abs(value) < 1000:
        return f"{value:g} B"
    dec_name, dec_size = next((n, s) for n, s in _DECIMAL_BYTE_UNITS if abs(value) >= s)
    bin_name, bin_size = next(((n, s) for n, s in _BINARY_BYTE_UNITS if abs(value) >= s), _BINARY_BYTE_UNITS[-1])
    return f"{value / dec_size:.1f} {dec_name} ({value / bin_size:.1f} {bin_name})"


def format_seconds_detailed(value: float) -> str:
    """Calculator output: ``1.3 ms``, and minutes or more with the seconds in brackets: ``2 min (120 s)``."""
    if value == 0:
        return "0 s"
    scaled, unit = in_time_unit(value)
    if unit in ("min", "h", "days"):
        return f"{scaled:.3g} {unit} ({value:.3g} s)"
    return f"{scaled:.3g} {unit}"


def format_count_detailed(value: float) -> str:
    """Calculator output: ``124,439,808 (124.4M)`` for exact integers, ``3.14e+23`` for huge estimates."""
    suffixes = [("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)]
    short = next((f"{value / size:.4g}{name}" for name, size in suffixes if abs(value) >= size), None)
    if abs(value) >= 1e15:
        return f"{value:.3e}"
    if value == int(value):
        text = f"{int(value):,}"
    else:
        text = _significant(value)
    return f"{text} ({short})" if short else text


def format_quantity(value: float, unit: str) -> str:
    """Calculator output: a readable rendering of a calculator value in its SI base unit."""
    if unit == "bytes":
        return format_bytes_detailed(value)
    if unit == "seconds":
        return format_seconds_detailed(value)
    if unit == "fraction":
        return f"{value:.4g} ({value * 100:.2f}%)"
    if unit == "FLOPs":
        return f"{value:.4g} FLOPs"
    if unit == "FLOP/s":
        return f"{value / 1e12:.4g} TFLOP/s"
    if unit == "bytes/s":
        return f"{value / 1e9:.4g} GB/s"
    if unit == "ratio":
        return f"{value:.3g}×"
    if unit == "count":
        return format_count_detailed(value)
    return f"{format_count_detailed(value)} {unit}"
