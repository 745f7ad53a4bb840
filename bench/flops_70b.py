"""Benchmark: counting a 70B model's forward FLOPs takes seconds and allocates no tensor memory.

``forward_flops`` builds the model on torch's ``meta`` device and runs the forward pass under
``FlopCounterMode``: shapes propagate, no storage is allocated. This script times it (median of
a few runs, caches cleared between runs) and reports the peak-RSS increase it caused, next to
the ~138 GB the same weights would take in fp16.

    python bench/flops_70b.py [--preset llama-2-70b] [--seq 2048] [--batch 1] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _peak_rss_bytes() -> int:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _current_rss_bytes() -> int:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return _peak_rss_bytes()
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="llama-2-70b")
    parser.add_argument("--seq", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    args = parser.parse_args(argv)

    import torch  # noqa: F401  (imported before measuring so its own footprint is not counted)

    from interviewer.tools import flops as flops_module
    from interviewer.tools import params as params_module
    from interviewer.tools.flops import forward_flops

    # Warm up the code paths (torch dispatch, FlopCounterMode) on a small model first.
    forward_flops(preset="gpt2", seq=128)
    rss_before = _current_rss_bytes()
    peak_before = _peak_rss_bytes()

    times = []
    result = None
    for _ in range(args.runs):
        flops_module._counted_forward.cache_clear()
        params_module._groups.cache_clear()
        start = time.perf_counter()
        result = forward_flops(preset=args.preset, seq=args.seq, batch=args.batch)
        times.append(time.perf_counter() - start)
    assert result is not None

    peak_delta = _peak_rss_bytes() - peak_before
    rss_delta = _current_rss_bytes() - rss_before
    parameters = int(result.breakdown["params"])
    fp16_weight_bytes = 2 * parameters
    report = {
        "preset": args.preset,
        "seq": args.seq,
        "batch": args.batch,
        "parameters": parameters,
        "forward_flops": result.value,
        "counted_over_estimate": result.breakdown["counted_over_estimate"],
        "runs": args.runs,
        "median_seconds": statistics.median(times),
        "min_seconds": min(times),
        "max_seconds": max(times),
        "peak_rss_delta_bytes": peak_delta,
        "rss_delta_bytes": rss_delta,
        "fp16_weights_would_need_bytes": fp16_weight_bytes,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.preset}: {parameters:,} parameters, batch {args.batch} × seq {args.seq}")
        print(f"forward FLOPs (counted): {result.value:.4e}  (counted / estimate = {report['counted_over_estimate']:.4f})")
        print(f"time: median {report['median_seconds']:.3f} s over {args.runs} runs (min {report['min_seconds']:.3f}, max {report['max_seconds']:.3f})")
        print(f"peak RSS delta: {peak_delta / 2**20:.1f} MiB; RSS delta after: {rss_delta / 2**20:.1f} MiB")
        print(f"(the fp16 weights alone would need {fp16_weight_bytes / 1e9:.1f} GB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
