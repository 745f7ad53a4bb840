"""Fuzz the claim parser and checker: random candidate-like text, numbers, units and garbage.

    python bench/fuzz_claims.py [--seconds 180] [--seed N] [--json]

Counts crashes (any exception out of ``check_claims``), verdicts outside the contract, and slow
calls (over 2 s for inputs under 4 kB). The bar is zero crashes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import traceback

WORDS = (
    "the model needs about roughly at least under over exactly per GPU GPUs token tokens each with in on for "
    "ZeRO-3 ZeRO stage 2 Adam AdamW SGD mixed precision bf16 fp16 fp8 int8 int4 fp32 KV cache Llama-2-7B llama-3-70b "
    "gpt2 bert-base A100 A100-80GB H100 H200 T4 L4 A10G V100 decode prefill latency p99 throughput all-reduce ring "
    "pipeline bubble micro-batches stages tensor parallel sequence context batch layers heads hidden params parameters "
    "FLOPs compute Chinchilla tokens/s requests/s in flight memory activations checkpointing is = ≈ ~ × / + - ( ) , . ;"
).split()
UNITS = ["GB", "GiB", "MB", "MiB", "TB", "KB", "bytes", "B", "ms", "s", "µs", "us", "seconds", "minutes", "days", "hours",
         "TFLOP/s", "TFLOPS", "PFLOPs", "FLOPs", "GFLOPs", "TB/s", "GB/s", "Gb/s", "%", "x", "B params", "M", "k", "T", "billion", "million"]
ODD = ["\x00", "\x1b[31m", "\u202e", "🔥", "٨", "½", "∞", "NaN", "inf", "-0", "1e308", "1e-308", "10^400", "0x1F", "1,2,3", "..", "--", "=>", "\u00a0"]


def number(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.3:
        return str(rng.randint(-5, 100_000))
    if choice < 0.5:
        return f"{rng.uniform(0, 1000):.{rng.randint(0, 4)}f}"
    if choice < 0.65:
        return f"{rng.uniform(0.1, 9.9):.2f}e{rng.randint(-320, 320)}"
    if choice < 0.8:
        return f"{rng.randint(1, 999)}{rng.choice(['B', 'M', 'k', 'K', 'T', 'G', ''])}"
    if choice < 0.9:
        return f"{rng.randint(1, 999):,}"
    return rng.choice(ODD)


def sentence(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        if r < 0.45:
            parts.append(rng.choice(WORDS))
        elif r < 0.75:
            parts.append(f"{number(rng)}{rng.choice(['', ' '])}{rng.choice(UNITS)}")
        elif r < 0.85:
            parts.append(number(rng))
        elif r < 0.95:
            parts.append(rng.choice(ODD))
        else:
            parts.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 12))))
    return " ".join(parts) + rng.choice([".", "!", "?", ";", "\n", "\n\n", ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from interviewer.claims import check_claims

    facts_pool = [{}, {"params": 10e9, "gpus": 8, "gpu": "A100-40GB"}, {"model": "llama-2-7b", "seq": 4096}, {"params": 2e9, "dtype": "int8"}]
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    inputs = crashes = bad = slow = claims = 0
    first_crash = None
    slowest: tuple[float, str] = (0.0, "")
    while time.monotonic() < deadline:
        text = " ".join(sentence(rng) for _ in range(rng.randint(1, 8)))
        facts = rng.choice(facts_pool)
        inputs += 1
        started = time.perf_counter()
        try:
            results = check_claims(text, facts)
        except Exception:  # every exception is a finding
            crashes += 1
            first_crash = first_crash or {"text": text, "facts": facts, "traceback": traceback.format_exc()}
            continue
        elapsed = time.perf_counter() - started
        if elapsed > 2.0 and len(text) < 4096:
            slow += 1
        if elapsed > slowest[0]:
            slowest = (elapsed, text)
        for claim in results:
            claims += 1
            public = claim.to_public_dict()
            numbers_ok = all(v is None or (isinstance(v, (int, float)) and not math.isnan(v)) for v in (public["claimed"], public["computed"]))
            if public["verdict"] not in {"correct", "incorrect", "unverifiable"} or not numbers_ok or not public["explanation"]:
                bad += 1
    report = {"seconds": args.seconds, "inputs": inputs, "claims_checked": claims, "crashes": crashes, "contract_violations": bad, "slow_calls": slow, "slowest_call_s": round(slowest[0], 2)}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>20}: {value}")
        if slowest[0] > 2.0:
            print(f"slowest input ({slowest[0]:.1f} s): {slowest[1]!r}")
        if first_crash:
            print("first crash:\n" + first_crash["traceback"] + f"\ninput: {first_crash['text']!r}")
    return 1 if crashes or bad else 0


if __name__ == "__main__":
    sys.exit(main())
