"""Numbers and units as candidates type them (interviewer.units), with property tests."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from interviewer.units import (
    context_length,
    format_bytes,
    format_seconds,
    format_value,
    parse_number,
    parse_quantity,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("10B", 10e9),
        ("1.5e9", 1.5e9),
        ("7 billion", 7e9),
        ("1,000", 1000),
        ("1,234,567", 1234567),
        ("2×10^9", 2e9),
        ("2 x 10^9", 2e9),
        ("1.2 * 10**22", 1.2e22),
        ("10^22", 1e22),
        ("10⁹", 1e9),
        ("3×10⁹", 3e9),
        ("4k", 4000),
        ("124M", 124e6),
        ("2T", 2e12),
        ("a billion", 1e9),
        ("twenty-four", 24),
        ("half", 0.5),
        (".5", 0.5),
        ("-5", -5),
        ("1e308", 1e308),
    ],
)
def test_parse_number_spellings(text: str, value: float) -> None:
    assert parse_number(text) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", ["", "GB", "1e400", "10 apples", "ten-ish GB", "1.2.3"])
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("text", "value", "dim"),
    [
        ("160 GB", 160e9, "bytes"),
        ("160GB", 160e9, "bytes"),
        ("160 gb", 160e9, "bytes"),  # sloppy case is still bytes for a size
        ("2 GiB", 2 * 2**30, "bytes"),
        ("0.5 MiB", 2**19, "bytes"),
        ("1.1 TB", 1.1e12, "bytes"),
        ("2 gigabytes", 2e9, "bytes"),
        ("16 bytes/param", 16, "bytes_per_param"),
        ("1.3 ms/token", 1.3e-3, "s_per_token"),
        ("1 ms per token", 1e-3, "s_per_token"),
        ("200 µs", 200e-6, "seconds"),
        ("200 us", 200e-6, "seconds"),
        ("117 ms", 0.117, "seconds"),
        ("1.5 s", 1.5, "seconds"),
        ("139 days", 139 * 86400, "seconds"),
        ("3 weeks", 21 * 86400, "seconds"),
        ("312 TFLOP/s", 312e12, "FLOP/s"),
        ("989.5 TFLOPS/s", 989.5e12, "FLOP/s"),
        ("624 TOPS", 624e12, "FLOP/s"),
        ("1.2e22 FLOPs", 1.2e22, "flops?"),  # a count or a rate: the topic decides
        ("5 PF-days", 5 * 8.64e19, "FLOPs"),
        ("2 TB/s", 2e12, "bytes/s"),
        ("600 GB/s", 600e9, "bytes/s"),
        ("25 GBps", 25e9, "bytes/s"),
        ("200 Gb/s", 25e9, "bytes/s"),  # InfiniBand HDR: bits
        ("400 Gbps", 50e9, "bytes/s"),
        ("1000 tokens/s", 1000, "tokens_per_s"),
        ("1000 req/s", 1000, "req_per_s"),
        ("2000 QPS", 2000, "req_per_s"),
        ("40%", 0.4, "fraction"),
        ("16 percent", 0.16, "fraction"),
        ("20 tokens per parameter", 20, "tokens_per_param"),
    ],
)
def test_parse_quantity_units(text: str, value: float, dim: str) -> None:
    quantity = parse_quantity(text)
    assert quantity is not None, text
    assert quantity.dim == dim
    assert quantity.value == pytest.approx(value, rel=1e-12)


def test_gb_and_gib_differ_by_seven_percent_and_each_knows_the_other() -> None:
    gb = parse_quantity("2 GB")
    gib = parse_quantity("2 GiB")
    assert gb is not None and gib is not None
    assert gib.value / gb.value == pytest.approx(1.073741824)
    assert gb.binary_alternative == gib.value
    assert gib.binary_alternative == gb.value
    assert gib.is_binary and not gb.is_binary


def test_context_lengths_typed_with_k_are_powers_of_two() -> None:
    assert context_length(4000, used_k=True) == 4096
    assert context_length(32000, used_k=True) == 32768
    assert context_length(128000, used_k=True) == 131072
    assert context_length(100000, used_k=True) == 100000  # 100k is not a power of two
    assert context_length(4000, used_k=False) == 4000


def test_formatting_for_explanations() -> None:
    assert format_bytes(160e9) == "160 GB"
    assert format_bytes(2 * 2**30, binary=True) == "2 GiB"
    assert format_seconds(0.00129) == "1.29 ms"
    assert format_seconds(12_009_600) == "139 days"
    assert format_value(0.158, "fraction") == "15.8%"
    assert format_value(1.2e22, "FLOPs") == "1.2e22 FLOPs"
    assert format_value(312e12, "FLOP/s") == "312 TFLOP/s"
    assert format_value(6.738e9, "parameters") == "6.74B params"
    assert format_value(None, "bytes") == "?"


# --- property tests ---------------------------------------------------------------------------

_MAGNITUDES = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, " thousand": 1e3, " million": 1e6, " billion": 1e9, " trillion": 1e12}
_BYTE_UNITS = {"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15, "KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40, "bytes": 1.0}
_TIME_UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "seconds": 1.0, "min": 60.0, "hours": 3600.0, "days": 86400.0}
positive = st.floats(min_value=1e-3, max_value=1e12, allow_nan=False, allow_infinity=False)


@given(positive)
def test_plain_and_scientific_spellings_round_trip(x: float) -> None:
    for text in (repr(x), f"{x:e}", f"{x:.6g}"):
        parsed = parse_number(text)
        assert parsed is not None, text
        assert parsed == pytest.approx(float(text), rel=1e-12)


@given(st.integers(min_value=0, max_value=10**15))
def test_thousands_separators(n: int) -> None:
    assert parse_number(f"{n:,}") == n


@given(st.integers(min_value=1, max_value=999), st.sampled_from(sorted(_MAGNITUDES)))
def test_magnitude_suffixes_and_words(n: int, suffix: str) -> None:
    assert parse_number(f"{n}{suffix}") == pytest.approx(n * _MAGNITUDES[suffix])


@given(st.floats(min_value=0.01, max_value=9.99), st.integers(min_value=-30, max_value=30))
def test_times_ten_to_the(mantissa: float, exponent: int) -> None:
    mantissa = round(mantissa, 2)
    expected = float(f"{mantissa}e{exponent}")
    for text in (f"{mantissa} x 10^{exponent}", f"{mantissa}×10^{exponent}", f"{mantissa}e{exponent}"):
        assert parse_number(text) == pytest.approx(expected, rel=1e-12), text


@given(positive, st.sampled_from(sorted(_BYTE_UNITS)), st.sampled_from(["", " "]))
def test_byte_units_convert_to_bytes(x: float, unit: str, space: str) -> None:
    quantity = parse_quantity(f"{x!r}{space}{unit}")
    assert quantity is not None
    assert quantity.dim == "bytes"
    assert quantity.value == pytest.approx(x * _BYTE_UNITS[unit], rel=1e-12)


@given(positive, st.sampled_from(sorted(_TIME_UNITS)))
def test_time_units_convert_to_seconds(x: float, unit: str) -> None:
    quantity = parse_quantity(f"{x!r} {unit}")
    assert quantity is not None
    assert quantity.dim == "seconds"
    assert quantity.value == pytest.approx(x * _TIME_UNITS[unit], rel=1e-12)


@given(positive)
def test_milliseconds_are_a_thousandth_of_seconds(x: float) -> None:
    ms, s = parse_quantity(f"{x!r} ms"), parse_quantity(f"{x!r} s")
    assert ms is not None and s is not None
    assert ms.value * 1000 == pytest.approx(s.value, rel=1e-12)


@given(st.floats(min_value=1, max_value=1e18, allow_nan=False))
def test_formatted_bytes_parse_back_within_rounding(value: float) -> None:
    for binary in (False, True):
        text = format_bytes(value, binary=binary)
        quantity = parse_quantity(text)
        assert quantity is not None, text
        assert quantity.value == pytest.approx(value, rel=0.006), text


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_parsers_never_raise_on_arbitrary_text(text: str) -> None:
    number = parse_number(text)
    assert number is None or math.isfinite(number)
    quantity = parse_quantity(text)
    assert quantity is None or math.isfinite(quantity.value)


@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["GB", "ms", "%", "FLOPs", "tokens/s"]))
def test_any_finite_float_with_a_unit_parses_or_is_refused_cleanly(x: float, unit: str) -> None:
    assume(abs(x) < 1e300)
    quantity = parse_quantity(f"{x!r} {unit}")
    assert quantity is None or math.isfinite(quantity.value)
