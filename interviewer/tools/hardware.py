"""GPU datasheet figures for roofline estimates: dense peak FLOP/s per precision, memory, bandwidth.

All peaks are DENSE tensor-core figures (NVIDIA datasheets quote 2:4-sparsity numbers that are
twice as large; those are never used here). fp32 is the non-tensor-core SIMT peak. Units: FLOP/s
and bytes/s (1 TB/s = 1e12 B/s), memory in bytes (1 GB = 1e9 B). Interconnect figures are the
datasheets' aggregate bidirectional numbers (e.g. NVLink3 600 GB/s = 12 links × 50 GB/s).
A precision missing from ``peak_flops`` has no tensor-core support on that part (V100 and T4
have no bf16; only Ada and Hopper have fp8).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interviewer.tools.errors import CalculatorInputError

TERA = 1e12
GIGA = 1e9


@dataclass(frozen=True)
class GPUSpec:
    name: str
    memory_bytes: float
    bandwidth_bytes_per_s: float
    """HBM/GDDR bandwidth."""
    peak_flops: dict[str, float]
    """Dense peak FLOP/s (int8: OP/s) keyed by canonical dtype (see ``interviewer.tools.dtypes``)."""
    interconnect_bytes_per_s: float
    interconnect: str
    source: str
    aliases: tuple[str, ...] = field(default=())


def _tera(**figures: float) -> dict[str, float]:
    return {dtype: value * TERA for dtype, value in figures.items()}


GPUS: dict[str, GPUSpec] = {
    "V100-SXM2-32GB": GPUSpec(
        name="V100-SXM2-32GB",
        memory_bytes=32 * GIGA,
        bandwidth_bytes_per_s=900 * GIGA,
        peak_flops=_tera(fp32=15.7, fp16=125),
        interconnect_bytes_per_s=300 * GIGA,
        interconnect="NVLink2",
        source="NVIDIA Tesla V100 datasheet (SXM2): 15.7 TFLOPS fp32, 125 TFLOPS tensor (fp16), 900 GB/s HBM2, NVLink 300 GB/s",
        aliases=("v100", "v100sxm2", "v100sxm", "v10032gb", "teslav100", "v100sxm232gb"),
    ),
    "T4": GPUSpec(
        name="T4",
        memory_bytes=16 * GIGA,
        bandwidth_bytes_per_s=320 * GIGA,
        peak_flops=_tera(fp32=8.1, fp16=65, int8=130),
        interconnect_bytes_per_s=32 * GIGA,
        interconnect="PCIe Gen3 x16",
        source="NVIDIA T4 datasheet: 8.1 TFLOPS fp32, 65 TFLOPS fp16 (mixed), 130 TOPS int8, 320 GB/s GDDR6, PCIe Gen3 32 GB/s",
        aliases=("t4", "teslat4", "t416gb"),
    ),
    "A10G": GPUSpec(
        name="A10G",
        memory_bytes=24 * GIGA,
        bandwidth_bytes_per_s=600 * GIGA,
        peak_flops=_tera(fp32=35, tf32=35, fp16=70, bf16=70, int8=140),
        interconnect_bytes_per_s=64 * GIGA,
        interconnect="PCIe Gen4 x16",
        source="AWS EC2 G5 instance documentation (NVIDIA publishes no A10G datasheet): 24 GB GDDR6, 600 GB/s; dense tensor figures as agreed for this project",
        aliases=("a10g", "a10g24gb", "g5"),
    ),
    "L4": GPUSpec(
        name="L4",
        memory_bytes=24 * GIGA,
        bandwidth_bytes_per_s=300 * GIGA,
        peak_flops=_tera(fp32=30.3, tf32=60, fp16=121, bf16=121, fp8=242, int8=242),
        interconnect_bytes_per_s=64 * GIGA,
        interconnect="PCIe Gen4 x16",
        source="NVIDIA L4 datasheet: 30.3 TFLOPS fp32; tensor TF32 120 / BF16-FP16 242 / FP8-INT8 485 with sparsity (halved here for dense); 300 GB/s GDDR6",
        aliases=("l4", "l424gb"),
    ),
    "A100-40GB": GPUSpec(
        name="A100-40GB",
        memory_bytes=40 * GIGA,
        bandwidth_bytes_per_s=1555 * GIGA,
        peak_flops=_tera(fp32=19.5, tf32=156, fp16=312, bf16=312, int8=624),
        interconnect_bytes_per_s=600 * GIGA,
        interconnect="NVLink3",
        source="NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB): 19.5 TFLOPS fp32, 156 TF32, 312 BF16/FP16, 624 INT8 TOPS (dense), 1,555 GB/s HBM2, NVLink 600 GB/s",
        aliases=("a100", "a10040gb", "a10040g", "a100sxm40gb", "a100sxm440gb", "a100sxm", "a100sxm4"),
    ),
    "A100-80GB": GPUSpec(
        name="A100-80GB",
        memory_bytes=80 * GIGA,
        bandwidth_bytes_per_s=2039 * GIGA,
        peak_flops=_tera(fp32=19.5, tf32=156, fp16=312, bf16=312, int8=624),
        interconnect_bytes_per_s=600 * GIGA,
        interconnect="NVLink3",
        source="NVIDIA A100 Tensor Core GPU datasheet (SXM4 80GB): 19.5 TFLOPS fp32, 156 TF32, 312 BF16/FP16, 624 INT8 TOPS (dense), 2,039 GB/s HBM2e, NVLink 600 GB/s",
        aliases=("a10080gb", "a10080g", "a100sxm80gb", "a100sxm480gb"),
    ),
    "H100-SXM": GPUSpec(
        name="H100-SXM",
        memory_bytes=80 * GIGA,
        bandwidth_bytes_per_s=3350 * GIGA,
        peak_flops=_tera(fp32=67, tf32=494.5, fp16=989.5, bf16=989.5, fp8=1979, int8=1979),
        interconnect_bytes_per_s=900 * GIGA,
        interconnect="NVLink4",
        source="NVIDIA H100 Tensor Core GPU datasheet (SXM5 80GB): 67 TFLOPS fp32; TF32 989 / BF16-FP16 1,979 / FP8-INT8 3,958 with sparsity (halved here for dense); 3.35 TB/s HBM3; NVLink 900 GB/s",
        aliases=("h100", "h100sxm", "h100sxm5", "h10080gb", "h100sxm80gb", "h100sxm580gb"),
    ),
    "H200": GPUSpec(
        name="H200",
        memory_bytes=141 * GIGA,
        bandwidth_bytes_per_s=4800 * GIGA,
        peak_flops=_tera(fp32=67, tf32=494.5, fp16=989.5, bf16=989.5, fp8=1979, int8=1979),
        interconnect_bytes_per_s=900 * GIGA,
        interconnect="NVLink4",
        source="NVIDIA H200 Tensor Core GPU datasheet (SXM 141GB): same compute as H100 SXM (dense = half the sparsity figures); 4.8 TB/s HBM3e; NVLink 900 GB/s",
        aliases=("h200", "h200sxm", "h200141gb", "h200sxm141gb"),
    ),
}


def _key(text: str) -> str:
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    return key.removeprefix("nvidia")


_ALIAS_INDEX: dict[str, str] = {}
for _canonical, _spec in GPUS.items():
    _ALIAS_INDEX[_key(_canonical)] = _canonical
    for _alias in _spec.aliases:
        _ALIAS_INDEX[_key(_alias)] = _canonical


def get_gpu(name: str, field: str = "gpu") -> GPUSpec:
    """The spec for ``name``, accepting aliases such as ``a100``, ``A100 40GB``, ``h100-sxm``.

    Bare ``a100`` means the 40 GB SXM4 part (the original A100); ask for ``a100-80gb`` otherwise.
    """
    if isinstance(name, GPUSpec):
        return name
    if not isinstance(name, str) or not name.strip():
        raise CalculatorInputError(field, f"must name a GPU ({', '.join(GPUS)})")
    key = _key(name)
    canonical = _ALIAS_INDEX.get(key) or _ALIAS_INDEX.get(key.removesuffix("gb") + "gb")
    if canonical is None and key.endswith("g"):
        canonical = _ALIAS_INDEX.get(key + "b")
    if canonical is None:
        raise CalculatorInputError(field, f"unknown GPU {name!r}; known: {', '.join(GPUS)}")
    return GPUS[canonical]


def peak_flops_for(gpu: GPUSpec, dtype: str) -> tuple[float, str, str]:
    """Dense peak FLOP/s for computing in ``dtype`` on ``gpu``: (flop_per_s, dtype_used, note).

    Weight-only formats (int4, and int8/fp8 where the part lacks those tensor cores) are
    dequantized and multiplied in 16-bit, so they fall back to the fp16 (or bf16) peak, and the
    note says so. bf16 on V100/T4 (no bf16 tensor cores) also falls back to fp16, with a note.
    """
    if dtype in gpu.peak_flops:
        return gpu.peak_flops[dtype], dtype, ""
    for fallback in ("fp16", "bf16"):
        if fallback in gpu.peak_flops:
            return (
                gpu.peak_flops[fallback],
                fallback,
                f"{gpu.name} has no {dtype} tensor-core peak; its {fallback} peak is used (weights are dequantized or computed in 16-bit)",
            )
    raise CalculatorInputError("dtype", f"{gpu.name} has no peak for {dtype}")
