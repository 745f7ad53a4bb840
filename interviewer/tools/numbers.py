"""Reading numbers the way engineers type them: ``7.5e9``, ``7.5B``, ``1,024``, ``2GiB``, ``600GB/s``.

Conventions (agreed for the whole project): for counts, K/M/G/B/T are powers of 1000 and
"G" and "B" both mean 1e9 ("7.5B parameters"); for bytes, kB/MB/GB/TB are powers of 1000
and KiB/MiB/GiB/TiB powers of 1024; for bandwidths an upper-case ``B`` is bytes and a
lower-case ``b`` after a prefix (``200Gb/s``, ``400Gbps``) is bits (÷ 8).
"""

from __future__ import annotations

import re
from typing import Literal

NumberKind = Literal["count", "bytes", "bandwidth", "seconds", "rate", "flops", "flop_rate"]

_NUMBER = re.compile(
    r"""^\s*(?P<number>[+-]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?P<unit>.*?)\s*$"""
)

_DECIMAL_PREFIX = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
_BINARY_PREFIX = {"ki": 2.0**10, "mi": 2.0**20, "gi": 2.0**30, "ti": 2.0**40, "pi": 2.0**50}
_COUNT_SUFFIX = {
    "": 1.0, "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6,
    "g": 1e9, "b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12, "p": 1e15,
}
_SECONDS = {
    "": 1.0, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
    "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "microsecond": 1e-6, "microseconds": 1e-6,
    "ns": 1e-9, "nanosecond": 1e-9, "nanoseconds": 1e-9,
    "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "d": 86400.0, "day": 86400.0, "days": 86400.0,
}
_UNIT_WORDS = {
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
            if prefix in _DECIMAL_PREFIX:
                return _DECIMAL_PREFIX[prefix] / divisor
            if prefix in _BINARY_PREFIX:
                return _BINARY_PREFIX[prefix] / divisor
            return None
    if unit.endswith("B"):
        prefix = lowered[:-1]
        if prefix == "":
            return 1.0
        if prefix in _DECIMAL_PREFIX:
            return _DECIMAL_PREFIX[prefix]
        return _BINARY_PREFIX.get(prefix)
    if unit.endswith("b") and len(unit) >= 2:
        prefix = unit[:-1]
        if not allow_bits:
            # Sizes are always bytes; "gb" is a sloppy "GB".
            lowered_prefix = prefix.lower()
            return _DECIMAL_PREFIX.get(lowered_prefix) or _BINARY_PREFIX.get(lowered_prefix)
        if prefix[:1].isupper():  # SI style "Gb", "Mb": bits
            lowered_prefix = prefix.lower()
            multiplier = _DECIMAL_PREFIX.get(lowered_prefix) or _BINARY_PREFIX.get(lowered_prefix)
            return None if multiplier is None else multiplier / 8.0
        raise ValueError(f"ambiguous unit {unit!r}: write {prefix.upper()}B/s for bytes or {prefix.upper()}b/s for bits")
    # A bare prefix ("10G", "2Gi") means that many bytes.
    if lowered in _DECIMAL_PREFIX:
        return _DECIMAL_PREFIX[lowered]
    return _BINARY_PREFIX.get(lowered)


def parse_number(text: str | float | int, kind: NumberKind = "count") -> float:
    """Parse ``text`` as a number of the given kind, returned in the SI base unit (bytes, seconds, ...).

    Raises ``ValueError`` with a short message on anything it cannot read unambiguously.
    """
    if isinstance(text, bool):
        raise ValueError(f"expected {_UNIT_WORDS[kind]}, got {text!r}")
    if isinstance(text, (int, float)):
        return float(text)
    match = _NUMBER.match(str(text))
    raw_number = match.group("number") if match else ""
    if not match or raw_number in ("", "+", "-", ".") or not re.search(r"\d", raw_number):
        raise ValueError(f"expected {_UNIT_WORDS[kind]}, got {text!r}")
    number = float(raw_number.replace(",", "").replace("_", ""))
    unit = match.group("unit").strip()
    multiplier: float | None

    if kind == "count":
        multiplier = _COUNT_SUFFIX.get(unit.lower())
    elif kind == "flops":
        stripped = re.sub(r"\s*flops?$", "", unit, flags=re.IGNORECASE)
        multiplier = _COUNT_SUFFIX.get(stripped.strip().lower())
    elif kind == "flop_rate":
        stripped = re.sub(r"\s*(flop/s|flops|flop)$", "", unit, flags=re.IGNORECASE)
        multiplier = _COUNT_SUFFIX.get(stripped.strip().lower())
    elif kind == "seconds":
        multiplier = _SECONDS.get(unit if unit in ("µs", "μs") else unit.lower())
    elif kind == "rate":
        stripped = re.sub(r"\s*(?:(?:req|requests|queries|tokens)?\s*/\s*s(?:ec)?|qps|rps)$", "", unit, flags=re.IGNORECASE)
        multiplier = _COUNT_SUFFIX.get(stripped.strip().lower())
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
        raise ValueError(f"expected {_UNIT_WORDS[kind]}, got {text!r}")
    return number * multiplier


# --- display -------------------------------------------------------------------------------

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


def format_bytes(value: float) -> str:
    """``20.0 GB (18.6 GiB)``: decimal units first (what datasheets use), binary in brackets."""
    if abs(value) < 1000:
        return f"{value:g} B"
    decimal = [("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)]
    binary = [("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)]
    dec_name, dec_size = next((n, s) for n, s in decimal if abs(value) >= s)
    bin_name, bin_size = next(((n, s) for n, s in binary if abs(value) >= s), ("KiB", 2**10))
    return f"{value / dec_size:.1f} {dec_name} ({value / bin_size:.1f} {bin_name})"


def in_time_unit(seconds: float) -> tuple[float, str]:
    """A duration in the unit it reads best in: ``(0.0013, "s")`` → ``(1.3, "ms")``.

    Shared by the calculators' output and the claim checker's explanations."""
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


def format_seconds(value: float) -> str:
    if value == 0:
        return "0 s"
    scaled, unit = in_time_unit(value)
    if unit in ("min", "h", "days"):
        return f"{scaled:.3g} {unit} ({value:.3g} s)"
    return f"{scaled:.3g} {unit}"


def format_count(value: float) -> str:
    """``124,439,808 (124.4M)`` for exact integers, ``3.14e+23`` for huge estimates."""
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
    """A readable rendering of a calculator value in its SI base unit."""
    if unit == "bytes":
        return format_bytes(value)
    if unit == "seconds":
        return format_seconds(value)
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
        return format_count(value)
    return f"{format_count(value)} {unit}"
