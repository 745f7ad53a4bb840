"""Measured micro-benchmarks on the local CPU: small, bounded in time, reported as ratios.

These illustrate scaling behaviour (quadratic attention, what a KV cache saves, what int8 weights
buy) on whatever machine runs them. They are ratios measured on a CPU, not claims about GPUs:
absolute times depend on the machine, its load and its thread count.
"""

from __future__ import annotations

import math
import statistics
import time
import warnings
from collections.abc import Callable

from interviewer.tools.errors import choice, positive_float
from interviewer.tools.result import CalcResult

MICROBENCH_SOURCE = (
    "Measured on this CPU with torch (median of repeated runs): attention cost grows as O(s²·d) (Vaswani et al. 2017, "
    "Table 1); a KV cache turns each decode step from O(t) recomputation into one new token (Pope et al. 2022, §2); "
    "dynamic int8 quantization of nn.Linear (torch.ao.quantization.quantize_dynamic; Jacob et al. 2018). "
    "Ratios on a CPU, not GPU numbers"
)

BENCHMARKS = ("attention", "kv-cache", "int8")


def _interleaved_min_times(runs: dict[str, Callable[[], object]], budget_s: float, max_rounds: int = 9) -> dict[str, float]:
    """Best-of-N wall time of each callable, timed round-robin within ``budget_s``.

    Round-robin so a burst of load from other processes hits every variant alike; the minimum,
    not the mean, because interference only ever adds time (the rationale of Python's ``timeit``).
    One warm-up call each; at least one timed round even if it overruns the budget.
    """
    for run in runs.values():
        run()
    best = {name: math.inf for name in runs}
    deadline = time.perf_counter() + budget_s
    for round_index in range(max_rounds):
        if round_index > 0 and time.perf_counter() >= deadline:
            break
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


class _SingleThread:
    """Run on one thread: ratios are steadier on a shared machine than with oversubscribed threads."""

    def __enter__(self) -> None:
        import torch

        self._threads = torch.get_num_threads()
        torch.set_num_threads(1)

    def __exit__(self, *exc: object) -> None:
        import torch

        torch.set_num_threads(self._threads)


def bench_attention(budget_s: float = 1.5) -> dict[str, float]:
    """Time softmax(QKᵀ/√d)V on CPU for doubling sequence lengths; ratios approach 4 when s² dominates.

    Queries are processed in blocks of 256 (as FlashAttention tiles them) so the score block stays
    in cache: the work is still s²·d, without a cache cliff distorting the ratios.
    """
    import torch

    torch.manual_seed(0)
    head_dim, block = 64, 256
    lengths = (512, 1024, 2048, 4096)
    results: dict[str, float] = {"head_dim": head_dim, "query_block": block}

    def make_run(seq: int) -> Callable[[], object]:
        q, k, v = (torch.randn(1, 1, seq, head_dim) for _ in range(3))

        def attention() -> torch.Tensor:
            outputs = []
            for first in range(0, seq, block):
                scores = torch.matmul(q[..., first : first + block, :], k.transpose(-2, -1)) / math.sqrt(head_dim)
                outputs.append(torch.matmul(scores.softmax(dim=-1), v))
            return torch.cat(outputs, dim=-2)

        return attention

    with torch.no_grad(), _SingleThread():
        best = _interleaved_min_times({str(seq): make_run(seq) for seq in lengths}, budget_s)
    times = [best[str(seq)] for seq in lengths]
    for seq, elapsed in zip(lengths, times):
        results[f"seconds_seq_{seq}"] = elapsed
    for (short, long), (t_short, t_long) in zip(zip(lengths, lengths[1:]), zip(times, times[1:])):
        results[f"ratio_{long}_over_{short}"] = t_long / t_short
    # Least-squares slope of log time against log length: 2 means quadratic.
    xs = [math.log(seq) for seq in lengths]
    ys = [math.log(elapsed) for elapsed in times]
    x_mean, y_mean = statistics.fmean(xs), statistics.fmean(ys)
    results["scaling_exponent"] = sum((x - x_mean) * (y - y_mean) for x, y in zip(xs, ys)) / sum((x - x_mean) ** 2 for x in xs)
    results["headline_ratio"] = times[-1] / times[-2]
    return results


def bench_kv_cache(budget_s: float = 1.5) -> dict[str, float]:
    """Greedy decoding with a tiny GPT, with and without a KV cache; also checks both give the same tokens."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    hidden, heads, layers, vocab, prompt_len, new_tokens = 128, 4, 2, 256, 96, 32
    head_dim = hidden // heads

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm1 = nn.LayerNorm(hidden)
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.proj = nn.Linear(hidden, hidden)
            self.norm2 = nn.LayerNorm(hidden)
            self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))

        def forward(self, x: torch.Tensor, cache: dict | None, start: int) -> torch.Tensor:
            batch, seq, _ = x.shape
            q, k, v = (t.view(batch, seq, heads, head_dim).transpose(1, 2) for t in self.qkv(self.norm1(x)).split(hidden, dim=-1))
            if cache is not None:
                if "k" in cache:
                    k = torch.cat([cache["k"], k], dim=2)
                    v = torch.cat([cache["v"], v], dim=2)
                cache["k"], cache["v"] = k, v
            total = k.shape[2]
            scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(head_dim)
            query_positions = torch.arange(start, start + seq).unsqueeze(1)
            scores = scores.masked_fill(torch.arange(total).unsqueeze(0) > query_positions, float("-inf"))
            out = torch.matmul(scores.softmax(dim=-1), v).transpose(1, 2).reshape(batch, seq, hidden)
            x = x + self.proj(out)
            return x + self.mlp(self.norm2(x))

    class TinyGPT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(prompt_len + new_tokens, hidden)
            self.blocks = nn.ModuleList(Block() for _ in range(layers))
            self.norm = nn.LayerNorm(hidden)
            self.head = nn.Linear(hidden, vocab, bias=False)

        def forward(self, ids: torch.Tensor, caches: list[dict] | None = None, start: int = 0) -> torch.Tensor:
            x = self.embed(ids) + self.pos(torch.arange(start, start + ids.shape[1]))
            for index, block in enumerate(self.blocks):
                x = block(x, caches[index] if caches is not None else None, start)
            return self.head(self.norm(x))

    model = TinyGPT().eval()
    prompt = torch.randint(0, vocab, (1, prompt_len))

    def without_cache() -> list[int]:
        ids = prompt
        for _ in range(new_tokens):
            next_id = model(ids)[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, next_id], dim=1)
        return ids[0, prompt_len:].tolist()

    def with_cache() -> list[int]:
        caches: list[dict] = [{} for _ in range(layers)]
        logits = model(prompt, caches, 0)
        generated = []
        for step in range(new_tokens):
            next_id = logits[:, -1].argmax(-1, keepdim=True)
            generated.append(int(next_id))
            if step + 1 < new_tokens:
                logits = model(next_id, caches, prompt_len + step)
        return generated

    with torch.no_grad(), _SingleThread():
        same_tokens = without_cache() == with_cache()
        best = _interleaved_min_times({"without": without_cache, "with": with_cache}, budget_s, max_rounds=5)
    t_without, t_with = best["without"], best["with"]
    return {
        "prompt_tokens": prompt_len,
        "new_tokens": new_tokens,
        "seconds_without_cache": t_without,
        "seconds_with_cache": t_with,
        "speedup_with_cache": t_without / t_with,
        "same_tokens": 1.0 if same_tokens else 0.0,
        "headline_ratio": t_without / t_with,
    }


def bench_int8_linear(budget_s: float = 1.5) -> dict[str, float]:
    """fp32 vs dynamically quantized int8 ``nn.Linear`` (weights int8, activations quantized per call)."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    width, batch = 1024, 8
    model = nn.Sequential(nn.Linear(width, 4 * width), nn.ReLU(), nn.Linear(4 * width, width)).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization is deprecated in favour of torchao, still works in 2.13
        from torch.ao.quantization import quantize_dynamic

        quantized = quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
    x = torch.randn(batch, width)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = model(x)
        approx = quantized(x)
        with _SingleThread():
            best = _interleaved_min_times({"fp32": lambda: model(x), "int8": lambda: quantized(x)}, budget_s, max_rounds=15)
    t_fp32, t_int8 = best["fp32"], best["int8"]
    relative_error = float((approx - reference).norm() / reference.norm())
    weights = sum(layer.weight.numel() for layer in model if isinstance(layer, nn.Linear))
    return {
        "batch": batch,
        "weights": weights,
        "fp32_weight_bytes": 4 * weights,
        "int8_weight_bytes": weights,
        "seconds_fp32": t_fp32,
        "seconds_int8": t_int8,
        "speedup_int8": t_fp32 / t_int8,
        "relative_error": relative_error,
        "headline_ratio": t_fp32 / t_int8,
    }


_RUNNERS = {"attention": bench_attention, "kv-cache": bench_kv_cache, "int8": bench_int8_linear}
_HEADLINES = {
    "attention": "time(s=4096) / time(s=2048) for attention alone (→ 4 when the s² term dominates)",
    "kv-cache": "decode time without / with a KV cache (32 new tokens after a 96-token prompt)",
    "int8": "fp32 / dynamic-int8 time for a 1024→4096→1024 MLP at batch 8",
}


def run_microbench(which: str = "all", budget: float = 1.0) -> CalcResult:
    """Run one micro-benchmark (value: its headline measured ratio) or all three (value: how many ran).

    Each benchmark is bounded to about ``budget`` seconds. ``attention``: attention time for s =
    256…2048 (ratios per doubling and the log-log exponent; ≈2 means quadratic). ``kv-cache``:
    greedy decode of a tiny GPT with and without a KV cache (same tokens, checked). ``int8``:
    fp32 vs ``quantize_dynamic`` int8 linear layers (speed ratio, weight bytes 4:1, relative error).
    """
    import torch

    which_key = choice("which", which, ("all", *BENCHMARKS))
    budget_s = positive_float("budget", budget, kind="seconds")
    selected = BENCHMARKS if which_key == "all" else (which_key,)
    breakdown: dict[str, float | int | str] = {"threads": torch.get_num_threads(), "threads_used": 1, "torch": torch.__version__}
    working: list[str] = []
    headline = 0.0
    for name in selected:
        measured = _RUNNERS[name](budget_s)
        headline = measured.pop("headline_ratio")
        for key, value in measured.items():
            breakdown[f"{name}.{key}"] = value
        working.append(f"{name}: {_HEADLINES[name]} = {headline:.3g}×")
        if name == "attention":
            working.append(f"  attention time ∝ s^{measured['scaling_exponent']:.2f} fitted over s = 512…4096 (2 = quadratic)")
        if name == "kv-cache":
            working.append(f"  same greedy tokens with and without the cache: {'yes' if measured['same_tokens'] else 'NO'}")
        if name == "int8":
            working.append(f"  weights 4:1 smaller; relative output error {measured['relative_error']:.2%}")
    working.append(f"measured single-threaded on this CPU ({breakdown['threads']} threads available): ratios only, not GPU timings")
    if which_key == "all":
        return CalcResult(name="microbench", value=float(len(selected)), unit="count", breakdown=breakdown, working=working, source=MICROBENCH_SOURCE)
    return CalcResult(name="microbench", value=headline, unit="ratio", breakdown=breakdown, working=working, source=MICROBENCH_SOURCE)
