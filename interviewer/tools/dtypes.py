"""Numeric formats and their storage size.

Sizes are the storage width of one element: IEEE 754 binary32/binary16, bfloat16 (Kalamkar et al.
2019), FP8 E4M3/E5M2 (Micikevicius et al. 2022, "FP8 Formats for Deep Learning"), int8 and
packed int4 (two values per byte; per-group scales are extra and not counted here).
TF32 is a tensor-core compute mode that stores values as fp32, hence 4 bytes.
"""

from __future__ import annotations

from interviewer.tools.errors import CalculatorInputError

BYTES_PER_ELEMENT: dict[str, float] = {"fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}

_ALIASES: dict[str, str] = {
    "fp32": "fp32", "float32": "fp32", "float": "fp32", "single": "fp32", "f32": "fp32", "32bit": "fp32",
    "tf32": "tf32", "tensorfloat32": "tf32",
    "fp16": "fp16", "float16": "fp16", "half": "fp16", "f16": "fp16", "16bit": "fp16",
    "bf16": "bf16", "bfloat16": "bf16", "bfloat": "bf16",
    "fp8": "fp8", "float8": "fp8", "e4m3": "fp8", "e5m2": "fp8", "fp8e4m3": "fp8", "fp8e5m2": "fp8",
    "float8e4m3fn": "fp8", "float8e5m2": "fp8", "8bitfloat": "fp8",
    "int8": "int8", "i8": "int8", "8bit": "int8", "8bits": "int8", "qint8": "int8", "uint8": "int8", "w8a8": "int8", "w8a16": "int8",
    "int4": "int4", "i4": "int4", "4bit": "int4", "4bits": "int4", "nf4": "int4", "w4a16": "int4", "uint4": "int4",
}


def normalize_dtype(name: str, field: str = "dtype") -> str:
    """Canonical dtype key of ``BYTES_PER_ELEMENT`` for spellings like ``float16``, ``half``, ``BF16``, ``4-bit``."""
    if not isinstance(name, str):
        raise CalculatorInputError(field, f"must be a dtype name such as fp16, got {name!r}")
    key = "".join(ch for ch in name.lower().removeprefix("torch.") if ch.isalnum())
    if key in _ALIASES:
        return _ALIASES[key]
    raise CalculatorInputError(field, f"unknown dtype {name!r}; use one of {', '.join(BYTES_PER_ELEMENT)}")
