"""``interviewer calc NAME [flags] [--json]``: the torch calculators from the command line.

Every number flag accepts the spellings of ``interviewer.units.parse_flag`` (``7.5e9``,
``7.5B``, ``1,024``, ``2GiB``, ``600GB/s``, ``200ms``). ``--json`` prints
``{"value", "unit", "breakdown", "working", "source"}`` with ``value`` in the SI base unit;
without it, a readable table. Bad or missing flags give ``error: --flag: message`` and exit code 2.
"""

from typing import Any, Optional

import typer

from interviewer.cli.base import fail, print_json
from interviewer.cli.help import Command, Group, Typer

try:  # typer ≥ 0.20 vendors click as typer._click; older releases use click itself
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import UsageError


def _one_line_usage_error(error: UsageError) -> typer.Exit:
    typer.echo(f"error: {error.format_message()}", err=True)
    return typer.Exit(2)


class _OneLineErrorCommand(Command):
    """Click's usage errors (unknown option, missing value) as one line, not a usage block."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except UsageError as error:
            raise _one_line_usage_error(error) from None


class _OneLineErrorGroup(Group):
    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as error:
            raise _one_line_usage_error(error) from None


calc_app = Typer(
    name="calc",
    cls=_OneLineErrorGroup,
    help="Calculators for ML-systems numbers (memory, FLOPs, latency), each with its working and source.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_command = calc_app.command

_JSON = typer.Option(False, "--json", help="Print the result as JSON (value in SI base units).")

_VALUE_LABEL = {
    "model-states": "model-state memory per GPU",
    "activations": "activation memory per GPU (all layers)",
    "kv-cache": "KV-cache size",
    "params": "parameters",
    "forward-flops": "forward-pass FLOPs (counted)",
    "train-flops": "training compute",
    "chinchilla": "compute-optimal training tokens",
    "time-to-train": "time to train",
    "decode-latency": "decode time per step (lower bound)",
    "prefill-latency": "prefill time (lower bound)",
    "allreduce": "ring all-reduce time",
    "bubble": "pipeline bubble fraction",
    "littles-law": "requests in flight",
    "microbench": "measured",
}


def _format_breakdown_value(key: str, value: Any) -> str:
    from interviewer.units import format_bytes_detailed, format_seconds_detailed

    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    lowered = key.lower()
    is_rate = lowered.endswith("_per_s")
    if is_rate and "bytes" in lowered:
        return f"{value / 1e9:,.4g} GB/s"
    if is_rate and "flops" in lowered or lowered == "peak_flops" or lowered.startswith("peak_flops_"):
        return f"{value / 1e12:,.4g} TFLOP/s"
    if "bytes" in lowered and not is_rate and "per_param" not in lowered and "per_element" not in lowered:
        return format_bytes_detailed(value) if abs(value) >= 1000 else f"{value:g} B"
    if lowered.endswith("seconds") or lowered.startswith("seconds"):
        return format_seconds_detailed(value)
    if "flops" in lowered or lowered.startswith("estimate"):
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    if abs(value) >= 1e6 or (value != 0 and abs(value) < 1e-3):
        return f"{value:.4g}"
    return f"{value:.6g}"


def _print_table(result: Any) -> None:
    from interviewer.units import format_quantity

    label = _VALUE_LABEL.get(result.name, result.name)
    typer.echo(f"{result.name}: {label} = {format_quantity(result.value, result.unit)}")
    typer.echo(f"  value: {result.value:.10g} {result.unit}")
    if result.working:
        typer.echo("working:")
        for line in result.working:
            typer.echo(f"  {line}")
    if result.breakdown:
        typer.echo("breakdown:")
        width = max(len(key) for key in result.breakdown)
        for key, value in result.breakdown.items():
            typer.echo(f"  {key.ljust(width)}  {_format_breakdown_value(key, value)}")
    typer.echo(f"source: {result.source}")


def _run(name: str, json_output: bool, required: dict[str, Any], optional: dict[str, Any]) -> None:
    """Run calculator ``name`` with the flags given. A flag left out is passed as None only when
    the calculator's signature has no default for it (the calculator then names the missing
    flag); otherwise it is left out, so the signature's default applies, the same one the TUI's
    scratch calculator shows and uses (``required`` is only the order the flags are checked in)."""
    import inspect

    from interviewer.tools import CALCULATORS, CalculatorInputError, run_calculator

    parameters = inspect.signature(CALCULATORS[name]).parameters
    inputs = {
        key: value
        for key, value in {**required, **optional}.items()
        if value is not None or (key in parameters and parameters[key].default is inspect.Parameter.empty)
    }
    try:
        result = run_calculator(name, **inputs)
    except CalculatorInputError as error:
        fail(f"{error.flag}: {error.message}")
    except (ValueError, OverflowError, ZeroDivisionError) as error:
        fail(f"{name}: {error}")
    if json_output:
        print_json(result.to_json_dict())
    else:
        _print_table(result)


@_command("model-states", cls=_OneLineErrorCommand)
def model_states(
    params: Optional[str] = typer.Option(None, "--params", help="Parameter count Ψ, e.g. 7.5B."),
    gpus: Optional[str] = typer.Option(None, "--gpus", help="Data-parallel GPUs N."),
    zero: Optional[str] = typer.Option(None, "--zero", help="ZeRO stage 0, 1, 2 or 3."),
    precision: Optional[str] = typer.Option(None, "--precision", help="mixed (default), fp32 or bf16 (pure)."),
    optimizer: Optional[str] = typer.Option(None, "--optimizer", help="adam (default), sgd, adafactor or adam8bit."),
    offload: Optional[str] = typer.Option(None, "--offload", help="none (default) or cpu (ZeRO-Offload)."),
    fp32_grads: bool = typer.Option(False, "--fp32-grads", help="Keep gradients in fp32 (18 bytes/param with Adam)."),
    json_output: bool = _JSON,
) -> None:
    """Model-state memory per GPU under ZeRO stages 0-3 (value: bytes per GPU).

    Source: Rajbhandari et al. 2020 (ZeRO), section 3.1 and Figure 1; Ren et al. 2021 (ZeRO-Offload).
    """
    _run(
        "model-states", json_output,
        {"params": params, "gpus": gpus, "zero": zero},
        {"precision": precision, "optimizer": optimizer, "offload": offload, "fp32_grads": fp32_grads or None},
    )


@_command("activations", cls=_OneLineErrorCommand)
def activations(
    layers: Optional[str] = typer.Option(None, "--layers", help="Transformer layers L."),
    hidden: Optional[str] = typer.Option(None, "--hidden", help="Hidden size h."),
    heads: Optional[str] = typer.Option(None, "--heads", help="Attention heads a."),
    seq: Optional[str] = typer.Option(None, "--seq", help="Sequence length s."),
    micro_batch: Optional[str] = typer.Option(None, "--micro-batch", help="Micro-batch size b."),
    tp: Optional[str] = typer.Option(None, "--tp", help="Tensor-parallel size t (default 1)."),
    sp: bool = typer.Option(False, "--sp", help="Sequence parallelism."),
    recompute: Optional[str] = typer.Option(None, "--recompute", help="none (default), selective or full."),
    pp: Optional[str] = typer.Option(None, "--pp", help="Pipeline stages p (default 1)."),
    json_output: bool = _JSON,
) -> None:
    """Activation memory with TP/SP/recomputation (value: bytes per GPU, all layers).

    Source: Korthikanti et al. 2022, Eq. 1 and Table 2.
    """
    _run(
        "activations", json_output,
        {"layers": layers, "hidden": hidden, "heads": heads, "seq": seq, "micro_batch": micro_batch},
        {"tp": tp, "sp": sp or None, "recompute": recompute, "pp": pp},
    )


@_command("kv-cache", cls=_OneLineErrorCommand)
def kv_cache(
    preset: Optional[str] = typer.Option(None, "--preset", help="Model preset (e.g. llama-2-7b) instead of dimensions."),
    layers: Optional[str] = typer.Option(None, "--layers", help="Layers."),
    kv_heads: Optional[str] = typer.Option(None, "--kv-heads", help="KV heads (MHA = heads, GQA < heads, MQA = 1)."),
    head_dim: Optional[str] = typer.Option(None, "--head-dim", help="Head dimension."),
    seq: Optional[str] = typer.Option(None, "--seq", help="Tokens per sequence."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Sequences."),
    dtype: Optional[str] = typer.Option(None, "--dtype", help="fp16 (default), bf16, fp8, int8, int4 or fp32."),
    json_output: bool = _JSON,
) -> None:
    """KV-cache size from layers, KV heads, head dim, tokens and dtype (value: bytes)."""
    _run(
        "kv-cache", json_output,
        {"seq": seq, "batch": batch},
        {"preset": preset, "layers": layers, "kv_heads": kv_heads, "head_dim": head_dim, "dtype": dtype},
    )


def _model_options(
    preset: Optional[str], layers: Optional[str], hidden: Optional[str], heads: Optional[str], vocab: Optional[str],
    ffn: Optional[str], kv_heads: Optional[str], arch: Optional[str], tied: Optional[bool], max_positions: Optional[str],
) -> dict[str, Any]:
    if preset is None and any(v is None for v in (layers, hidden, heads, vocab)):
        missing = next(flag for flag, v in (("--layers", layers), ("--hidden", hidden), ("--heads", heads), ("--vocab", vocab)) if v is None)
        fail(f"{missing}: is required (or give --preset NAME)")
    return {
        "preset": preset, "layers": layers, "hidden": hidden, "heads": heads, "vocab": vocab, "ffn": ffn,
        "kv_heads": kv_heads, "arch": arch, "tied": tied, "max_positions": max_positions,
    }


_PRESET = typer.Option(None, "--preset", help="gpt2, gpt2-medium, gpt2-large, gpt2-xl, bert-base, bert-large, llama-2-7b/13b/70b, llama-3-8b/70b.")
_TIED = typer.Option(None, "--tied/--untied", help="Tie the LM head to the token embedding (default: GPT and BERT tied, Llama untied).")


@_command("params", cls=_OneLineErrorCommand)
def params(
    preset: Optional[str] = _PRESET,
    layers: Optional[str] = typer.Option(None, "--layers"),
    hidden: Optional[str] = typer.Option(None, "--hidden"),
    heads: Optional[str] = typer.Option(None, "--heads"),
    vocab: Optional[str] = typer.Option(None, "--vocab"),
    ffn: Optional[str] = typer.Option(None, "--ffn", help="MLP width (default 4h; Llama 256·⌈8h/3/256⌉)."),
    kv_heads: Optional[str] = typer.Option(None, "--kv-heads", help="KV heads for GQA/MQA (Llama only)."),
    arch: Optional[str] = typer.Option(None, "--arch", help="gpt (default), bert or llama."),
    tied: Optional[bool] = _TIED,
    max_positions: Optional[str] = typer.Option(None, "--max-positions", help="Learned positions (GPT 1024, BERT 512)."),
    json_output: bool = _JSON,
) -> None:
    """Exact parameter count, built on the meta device (value: parameters)."""
    _run("params", json_output, {}, _model_options(preset, layers, hidden, heads, vocab, ffn, kv_heads, arch, tied, max_positions))


@_command("forward-flops", cls=_OneLineErrorCommand)
def forward_flops(
    preset: Optional[str] = _PRESET,
    seq: Optional[str] = typer.Option(None, "--seq", help="Sequence length."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Sequences."),
    causal: Optional[bool] = typer.Option(None, "--causal/--no-causal", help="Apply the causal factor (default: decoders yes, BERT no)."),
    layers: Optional[str] = typer.Option(None, "--layers"),
    hidden: Optional[str] = typer.Option(None, "--hidden"),
    heads: Optional[str] = typer.Option(None, "--heads"),
    vocab: Optional[str] = typer.Option(None, "--vocab"),
    ffn: Optional[str] = typer.Option(None, "--ffn"),
    kv_heads: Optional[str] = typer.Option(None, "--kv-heads"),
    arch: Optional[str] = typer.Option(None, "--arch"),
    tied: Optional[bool] = _TIED,
    max_positions: Optional[str] = typer.Option(None, "--max-positions"),
    json_output: bool = _JSON,
) -> None:
    """Forward FLOPs counted on the meta device (value: FLOPs).

    Counted with torch.utils.flop_counter.FlopCounterMode; the causal factor is applied explicitly.
    """
    model = _model_options(preset, layers, hidden, heads, vocab, ffn, kv_heads, arch, tied, max_positions)
    _run("forward-flops", json_output, {"seq": seq, "batch": batch}, {**model, "causal": causal})


@_command("train-flops", cls=_OneLineErrorCommand)
def train_flops(
    params: Optional[str] = typer.Option(None, "--params", help="Parameters N."),
    tokens: Optional[str] = typer.Option(None, "--tokens", help="Training tokens D."),
    json_output: bool = _JSON,
) -> None:
    """Training compute 6·N·D (value: FLOPs).

    Source: Kaplan et al. 2020, section 2.1.
    """
    _run("train-flops", json_output, {"params": params, "tokens": tokens}, {})


@_command("chinchilla", cls=_OneLineErrorCommand)
def chinchilla(
    params: Optional[str] = typer.Option(None, "--params", help="Model size N (gives D = 20·N)."),
    compute: Optional[str] = typer.Option(None, "--compute", help="Compute budget C in FLOPs (gives N = sqrt(C/120))."),
    tokens_per_param: Optional[str] = typer.Option(None, "--tokens-per-param", help="Default 20."),
    json_output: bool = _JSON,
) -> None:
    """Compute-optimal training tokens, about 20 per parameter (value: tokens).

    Source: Hoffmann et al. 2022 (Chinchilla).
    """
    if (params is None) == (compute is None):
        fail("--params: give exactly one of --params or --compute")
    _run("chinchilla", json_output, {}, {"params": params, "compute": compute, "tokens_per_param": tokens_per_param})


@_command("time-to-train", cls=_OneLineErrorCommand)
def time_to_train(
    flops: Optional[str] = typer.Option(None, "--flops", help="Training compute in FLOPs (or --params and --tokens)."),
    params: Optional[str] = typer.Option(None, "--params"),
    tokens: Optional[str] = typer.Option(None, "--tokens"),
    gpus: Optional[str] = typer.Option(None, "--gpus", help="Number of GPUs."),
    gpu: Optional[str] = typer.Option(None, "--gpu", help="GPU name for its dense peak (e.g. a100, h100)."),
    peak_flops: Optional[str] = typer.Option(None, "--peak-flops", help="Peak FLOP/s per GPU instead of --gpu (e.g. 312T)."),
    dtype: Optional[str] = typer.Option(None, "--dtype", help="Precision of the peak (default bf16)."),
    mfu: Optional[str] = typer.Option(None, "--mfu", help="Model FLOPs utilization (default 0.4)."),
    json_output: bool = _JSON,
) -> None:
    """Training time, C / (GPUs × peak × MFU) (value: seconds)."""
    if gpu is None and peak_flops is None:
        fail("--gpu: is required (or give --peak-flops)")
    _run(
        "time-to-train", json_output,
        {"gpus": gpus},
        {"flops": flops, "params": params, "tokens": tokens, "gpu": gpu, "peak_flops": peak_flops, "dtype": dtype, "mfu": mfu},
    )


@_command("decode-latency", cls=_OneLineErrorCommand)
def decode_latency(
    params: Optional[str] = typer.Option(None, "--params", help="Parameters."),
    dtype: Optional[str] = typer.Option(None, "--dtype", help="Weight dtype: fp16 (default), bf16, fp8, int8, int4 or fp32."),
    gpu: Optional[str] = typer.Option(None, "--gpu", help="GPU (e.g. a100-40gb, h100, a10g)."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Sequences decoded together (default 1)."),
    kv_bytes: Optional[str] = typer.Option(None, "--kv-bytes", help="KV-cache bytes read per step (default 0)."),
    gpus: Optional[str] = typer.Option(None, "--gpus", help="Tensor-parallel GPUs (default 1)."),
    json_output: bool = _JSON,
) -> None:
    """Decode time per step, roofline lower bound (value: seconds per token)."""
    _run("decode-latency", json_output, {"params": params, "dtype": dtype, "gpu": gpu}, {"batch": batch, "kv_bytes": kv_bytes, "gpus": gpus})


@_command("prefill-latency", cls=_OneLineErrorCommand)
def prefill_latency(
    params: Optional[str] = typer.Option(None, "--params", help="Parameters."),
    tokens: Optional[str] = typer.Option(None, "--tokens", help="Prompt tokens per sequence."),
    gpu: Optional[str] = typer.Option(None, "--gpu", help="GPU (e.g. a100-40gb, h100)."),
    dtype: Optional[str] = typer.Option(None, "--dtype", help="Compute dtype (default fp16)."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Sequences (default 1)."),
    mfu: Optional[str] = typer.Option(None, "--mfu", help="Achieved fraction of peak (default 1.0: the lower bound)."),
    gpus: Optional[str] = typer.Option(None, "--gpus", help="Tensor-parallel GPUs (default 1)."),
    json_output: bool = _JSON,
) -> None:
    """Prefill time, compute-bound roofline (value: seconds)."""
    _run("prefill-latency", json_output, {"params": params, "tokens": tokens, "gpu": gpu}, {"dtype": dtype, "batch": batch, "mfu": mfu, "gpus": gpus})


@_command("allreduce", cls=_OneLineErrorCommand)
def allreduce(
    bytes_: Optional[str] = typer.Option(None, "--bytes", help="Data size S (e.g. 1.5GB, 2GiB)."),
    gpus: Optional[str] = typer.Option(None, "--gpus", help="Ranks n in the ring."),
    bandwidth: Optional[str] = typer.Option(None, "--bandwidth", help="Per-GPU link bandwidth (e.g. 600GB/s, 25 GB/s, 200Gb/s)."),
    latency: Optional[str] = typer.Option(None, "--latency", help="Per-step latency α (e.g. 5us; default 0)."),
    json_output: bool = _JSON,
) -> None:
    """Ring all-reduce time, 2(n−1)/n of the data per GPU (value: seconds)."""
    _run("allreduce", json_output, {"bytes": bytes_, "gpus": gpus, "bandwidth": bandwidth}, {"latency": latency})


@_command("bubble", cls=_OneLineErrorCommand)
def bubble(
    stages: Optional[str] = typer.Option(None, "--stages", help="Pipeline stages p."),
    microbatches: Optional[str] = typer.Option(None, "--microbatches", help="Micro-batches m per step."),
    json_output: bool = _JSON,
) -> None:
    """Pipeline bubble fraction (p−1)/(m+p−1) (value: fraction)."""
    _run("bubble", json_output, {"stages": stages, "microbatches": microbatches}, {})


@_command("littles-law", cls=_OneLineErrorCommand)
def littles_law(
    rate: Optional[str] = typer.Option(None, "--rate", help="Arrival rate λ in requests/s (e.g. 1000, 1k/s)."),
    latency: Optional[str] = typer.Option(None, "--latency", help="Time in system W (e.g. 0.2, 200ms)."),
    concurrency_per_replica: Optional[str] = typer.Option(None, "--concurrency-per-replica", help="Requests one replica holds at once."),
    json_output: bool = _JSON,
) -> None:
    """Requests in flight, L = λ·W (value: count).

    Source: Little 1961.
    """
    _run("littles-law", json_output, {"rate": rate, "latency": latency}, {"concurrency_per_replica": concurrency_per_replica})


@_command("microbench", cls=_OneLineErrorCommand)
def microbench(
    which: Optional[str] = typer.Option(None, "--which", help="attention, kv-cache, int8 or all (default)."),
    budget: Optional[str] = typer.Option(None, "--budget", help="Seconds per benchmark (default 1.0)."),
    json_output: bool = _JSON,
) -> None:
    """Measured CPU micro-benchmarks, reported as ratios (value: the ratio).

    With --which all (the default) the value is the number of benchmarks run; ratios are in the breakdown.
    """
    _run("microbench", json_output, {}, {"which": which, "budget": budget})


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.add_typer(calc_app, name="calc")
