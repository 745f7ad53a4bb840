"""``interviewer calc ...``: every subcommand with --json, the readable table, and one-line errors for bad flags."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from interviewer import cli

cli._register_subcommands()
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(cli.app, ["calc", *args])


def calc_json(*args: str) -> dict:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert {"value", "unit", "breakdown", "source"} <= set(payload)
    assert isinstance(payload["breakdown"], dict) and payload["source"]
    return payload


FAST_COMMANDS = [
    (["model-states", "--params", "7.5B", "--gpus", "64", "--zero", "1"], "bytes", 31.40625e9),
    (["model-states", "--params", "10e9", "--gpus", "8", "--zero", "3", "--optimizer", "adamw", "--precision", "mixed"], "bytes", 20e9),
    (["activations", "--layers", "96", "--hidden", "12288", "--heads", "96", "--seq", "2048", "--micro-batch", "1", "--tp", "8", "--sp", "--recompute", "selective"],
     "bytes", 96 * 34 * 2048 * 12288 / 8),
    (["kv-cache", "--layers", "32", "--kv-heads", "32", "--head-dim", "128", "--seq", "4096", "--batch", "1", "--dtype", "fp16"], "bytes", 2**31),
    (["kv-cache", "--preset", "llama-2-7b", "--seq", "4,096", "--batch", "1"], "bytes", 2**31),
    (["train-flops", "--params", "175B", "--tokens", "300B"], "FLOPs", 3.15e23),
    (["chinchilla", "--params", "70B"], "tokens", 1.4e12),
    (["chinchilla", "--compute", "1.2e22"], "tokens", 200e9),
    (["time-to-train", "--flops", "1.2e22", "--gpus", "8", "--gpu", "a100", "--mfu", "0.4"], "seconds", 1.2e22 / (8 * 312e12 * 0.4)),
    (["decode-latency", "--params", "2B", "--dtype", "int8", "--gpu", "a100-40gb"], "seconds", 2e9 / 1555e9),
    (["decode-latency", "--params", "2B", "--dtype", "fp16", "--gpu", "A10G", "--batch", "4"], "seconds", 4e9 / 600e9),
    (["prefill-latency", "--params", "7B", "--tokens", "2048", "--gpu", "h100", "--mfu", "0.5"], "seconds", 2 * 7e9 * 2048 / (989.5e12 * 0.5)),
    (["allreduce", "--bytes", "1.5GB", "--gpus", "8", "--bandwidth", "600GB/s"], "seconds", 1.75 * 1.5e9 / 600e9),
    (["bubble", "--stages", "4", "--microbatches", "8"], "fraction", 3 / 11),
    (["littles-law", "--rate", "1000", "--latency", "200ms"], "count", 200),
]


@pytest.mark.parametrize(("args", "unit", "value"), FAST_COMMANDS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_calc_json(args: list[str], unit: str, value: float) -> None:
    payload = calc_json(*args)
    assert payload["unit"] == unit
    assert payload["value"] == pytest.approx(value, rel=1e-9)


def test_allreduce_json_reports_bytes_per_gpu() -> None:
    payload = calc_json("allreduce", "--bytes", "2GiB", "--gpus", "4", "--bandwidth", "25 GB/s")
    assert payload["breakdown"]["bytes_sent_per_gpu"] == pytest.approx(1.5 * 2**31)


@pytest.mark.slow
def test_params_json() -> None:
    assert calc_json("params", "--preset", "gpt2")["value"] == 124_439_808
    custom = calc_json("params", "--layers", "32", "--hidden", "4096", "--heads", "32", "--vocab", "32000", "--arch", "llama", "--untied")
    assert custom["value"] == 6_738_415_616


@pytest.mark.slow
def test_forward_flops_json() -> None:
    payload = calc_json("forward-flops", "--preset", "gpt2", "--seq", "128", "--batch", "2")
    assert payload["unit"] == "FLOPs"
    assert payload["breakdown"]["tokens"] == 256
    assert payload["value"] == pytest.approx(payload["breakdown"]["estimate_total"], rel=0.01)


@pytest.mark.slow
def test_microbench_json() -> None:
    payload = calc_json("microbench", "--which", "int8", "--budget", "0.2")
    assert payload["unit"] == "ratio" and payload["value"] > 0
    assert payload["breakdown"]["int8.int8_weight_bytes"] * 4 == payload["breakdown"]["int8.fp32_weight_bytes"]


def test_human_readable_table() -> None:
    result = invoke("model-states", "--params", "10B", "--gpus", "8", "--zero", "3")
    assert result.exit_code == 0
    assert "20.0 GB (18.6 GiB)" in result.stdout
    assert "working:" in result.stdout and "breakdown:" in result.stdout and "source: Rajbhandari" in result.stdout


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["model-states", "--params", "7.5B", "--gpus", "0", "--zero", "3"], "--gpus"),
        (["model-states", "--params", "lots", "--gpus", "8", "--zero", "1"], "--params"),
        (["model-states", "--params", "7.5B", "--gpus", "8", "--zero", "5"], "--zero"),
        (["model-states", "--params", "7.5B", "--gpus", "8", "--zero", "1", "--optimizer", "lion"], "--optimizer"),
        (["activations", "--layers", "2", "--hidden", "64", "--heads", "4", "--seq", "8"], "--micro-batch"),
        (["activations", "--layers", "2", "--hidden", "64", "--heads", "4", "--seq", "8", "--micro-batch", "1", "--recompute", "some"], "--recompute"),
        (["kv-cache", "--layers", "2", "--kv-heads", "2", "--head-dim", "64", "--seq", "8", "--batch", "1", "--dtype", "fp12"], "--dtype"),
        (["kv-cache", "--preset", "nope", "--seq", "8", "--batch", "1"], "--preset"),
        (["params", "--layers", "2", "--hidden", "64", "--heads", "4"], "--vocab"),
        (["forward-flops", "--seq", "8", "--batch", "1"], "--layers"),
        (["train-flops", "--params", "1B"], "--tokens"),
        (["chinchilla"], "--params"),
        (["time-to-train", "--flops", "1e22", "--gpus", "8"], "--gpu"),
        (["time-to-train", "--flops", "1e22", "--gpus", "8", "--gpu", "tpu"], "--gpu"),
        (["decode-latency", "--params", "2B", "--dtype", "int8"], "--gpu"),
        (["prefill-latency", "--params", "2B", "--gpu", "a100"], "--tokens"),
        (["allreduce", "--bytes", "7.5B", "--gpus", "8", "--bandwidth", "600GB/s"], "--bytes"),
        (["allreduce", "--bytes", "1GB", "--gpus", "8", "--bandwidth", "fast"], "--bandwidth"),
        (["bubble", "--stages", "-1", "--microbatches", "8"], "--stages"),
        (["littles-law", "--rate", "1000"], "--latency"),
        (["microbench", "--which", "everything"], "--which"),
        (["bubble", "--stages", "4", "--microbatches", "8", "--colour", "red"], "--colour"),
        (["bubble", "--stages"], "--stages"),
    ],
)
def test_bad_flags_give_one_line_error_and_exit_2(args: list[str], flag: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert flag in lines[0]
    assert "Traceback" not in result.output


def test_unknown_calculator() -> None:
    result = invoke("warp-drive")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: ") and "warp-drive" in result.stderr


def test_a_flag_left_out_takes_the_calculators_default_like_the_tui():
    """Issue #17, item 4: ``calc decode-latency --params 7B --gpu h100`` failed on a missing --dtype
    that the scratch calculator (built from the same signature) shows as defaulting to fp16."""
    from interviewer.tools import run_calculator

    without = calc_json("decode-latency", "--params", "7B", "--gpu", "h100")
    with_default = calc_json("decode-latency", "--params", "7B", "--gpu", "h100", "--dtype", "fp16")
    assert without["value"] == with_default["value"] == run_calculator("decode-latency", params="7B", gpu="h100").value
    assert without["breakdown"]["dtype"] == "fp16"
    # The same rule for every calculator: model-states without --zero is ZeRO-0, as in the TUI.
    assert calc_json("model-states", "--params", "7.5B", "--gpus", "8")["breakdown"]["zero_stage"] == 0


def _stated_default(help_text: str) -> str | None:
    import re

    if match := re.search(r"\(default ([^)]+?)(?:[:;,][^)]*)?\)", help_text):
        return match.group(1).strip()
    if match := re.search(r"([\w.\-]+) \(default\)", help_text):
        return match.group(1)
    if match := re.search(r"[Dd]efault ([\w.\-]+)", help_text):
        return match.group(1).rstrip(".")
    return None


def test_every_default_a_flag_states_is_the_calculators_default():
    """One default per input: what ``calc NAME --help`` says is what the function (and the TUI) uses."""
    import inspect

    import typer.main

    from interviewer.tools import CALCULATORS

    group = typer.main.get_command(cli.app).commands["calc"]
    checked, mismatches = 0, []
    for name, command in group.commands.items():
        parameters = inspect.signature(CALCULATORS[name]).parameters
        for option in command.params:
            stated = _stated_default(option.help or "")
            if stated is None or option.name not in {*parameters, "bytes_"}:
                continue
            parameter = parameters[option.name.rstrip("_")]
            assert parameter.default is not inspect.Parameter.empty, f"calc {name} --{option.name}: help states a default, the function has none"
            actual = parameter.default
            if actual is None:  # derived from other inputs (--ffn: 4h): the function states it in its working
                continue
            if isinstance(actual, float) and actual.is_integer() and "." not in stated:
                actual = int(actual)
            if str(actual).lower() != stated.lower():
                mismatches.append(f"calc {name} {option.opts[0]}: help says {stated!r}, the function uses {actual!r}")
            checked += 1
    assert not mismatches
    assert checked >= 15
