"""parse_flag (strict), dtypes and the calculator registry."""

from __future__ import annotations

import subprocess
import sys

import pytest

from interviewer.tools import BYTES_PER_ELEMENT, CALCULATORS, CalculatorInputError, normalize_dtype, run_calculator
from interviewer.units import format_bytes_detailed, format_quantity, parse_flag


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("7.5e9", "count", 7.5e9), ("7.5B", "count", 7.5e9), ("10G", "count", 1e10), ("4096", "count", 4096),
        ("1.5T", "count", 1.5e12), ("200M", "count", 2e8), ("1,024", "count", 1024), ("1_000", "count", 1000),
        ("12k", "count", 12000), ("7 billion", "count", 7e9),
        ("1.5GB", "bytes", 1.5e9), ("2GiB", "bytes", 2 * 2**30), ("10G", "bytes", 1e10), ("512MiB", "bytes", 2**29),
        ("600GB/s", "bandwidth", 600e9), ("25 GB/s", "bandwidth", 25e9), ("200Gb/s", "bandwidth", 25e9),
        ("400Gbps", "bandwidth", 50e9), ("6e11", "bandwidth", 6e11),
        ("200ms", "seconds", 0.2), ("1.5us", "seconds", 1.5e-6), ("2 days", "seconds", 172800),
        ("1k/s", "rate", 1000), ("312T", "flop_rate", 312e12), ("312 TFLOP/s", "flop_rate", 312e12),
        ("3.14e23 FLOPs", "flops", 3.14e23),
    ],
)
def test_parse_flag(text: str, kind: str, expected: float) -> None:
    assert parse_flag(text, kind) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "kind"),
    [("abc", "count"), ("", "count"), ("1,02", "count"), ("5x", "count"), ("7.5B", "bytes"), ("600gb/s", "bandwidth"), ("3 parsecs", "seconds")],
)
def test_parse_flag_rejects(text: str, kind: str) -> None:
    with pytest.raises(ValueError):
        parse_flag(text, kind)


def test_formatting() -> None:
    assert format_bytes_detailed(20e9) == "20.0 GB (18.6 GiB)"
    assert format_quantity(0.25, "fraction") == "0.25 (25.00%)"
    assert format_quantity(86400 * 139, "seconds").startswith("139 days")


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [("float16", "fp16"), ("half", "fp16"), ("bfloat16", "bf16"), ("BF16", "bf16"), ("INT8", "int8"), ("4-bit", "int4"),
     ("torch.float32", "fp32"), ("e4m3", "fp8"), ("nf4", "int4")],
)
def test_normalize_dtype(spelling: str, canonical: str) -> None:
    assert normalize_dtype(spelling) == canonical


def test_bytes_per_element() -> None:
    assert BYTES_PER_ELEMENT == {"fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}


def test_registry_has_the_contract_names() -> None:
    from rubrics.schema import KNOWN_CALCULATORS

    assert set(KNOWN_CALCULATORS) <= set(CALCULATORS)


def test_run_calculator_validates_names() -> None:
    assert run_calculator("model_states", params="7.5B", gpus=64, zero=3).value == 1.875e9
    assert run_calculator("activations", layers=1, hidden=64, heads=4, seq=8, **{"micro-batch": 1}).value > 0
    with pytest.raises(CalculatorInputError) as raised:
        run_calculator("warp-drive")
    assert raised.value.field == "name"
    with pytest.raises(CalculatorInputError) as raised:
        run_calculator("bubble", stages=4, microbatches=8, colour="red")
    assert raised.value.field == "colour"
    with pytest.raises(CalculatorInputError) as raised:
        run_calculator("bubble", stages=4)
    assert raised.value.field == "microbatches"
    assert raised.value.flag == "--microbatches"


def test_importing_tools_does_not_import_torch() -> None:
    code = "import sys, interviewer.tools, interviewer.cli.calc; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
